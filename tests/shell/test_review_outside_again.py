"""Outside changes over outside changes: the disk going back to content the review knows.

Found in a real terminal on express's history (QA pass 76, 2026-12-04):

* an accept, then ``git checkout -- FILE`` outside (kept on top as a layer: the file stayed
  reverted, the operation shown accepted; undone and made again, it was never written),
  then one more line added outside: the second change was taken as the file's new base,
  the kept revert forgotten, and the accepted change written back over the user's revert
  with no keypress;
* an accept, then ``git stash`` and ``git stash pop``: the file came back byte for byte as
  the review wrote it, was taken as a new base, the accept was "taken back ... nothing of
  it was written" (it was on disk), and a reject then left the change on disk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_review import A1, A2, B1, BASE, OTHER, open_review, setup, with_alpha, with_delta

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.review import Review

__all__ = ["setup"]  # the fixture, imported for pytest


def test_a_file_put_back_to_the_original_takes_its_accepts_back(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """``git checkout -- app.py`` after an accept: the decisions follow the disk (kept as a
    layer, the revert hid the accept for good: undone and made again, it was shown
    accepted and never written)."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    app.write_bytes(BASE)
    report = review.outside_changed(["app.py"])
    assert [key for key, _ in report.reverted] == [A1]
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert app.read_bytes() == BASE
    review.undo()  # the accept comes back, and is written
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == with_alpha(BASE)
    review.undo()  # the reviewer's own accept undone
    assert app.read_bytes() == BASE
    review.decide(A1, Decision.accept())  # and made again: written
    assert app.read_bytes() == with_alpha(BASE)
    assert review.conflicts == {}


def test_a_second_outside_change_is_the_new_base(setup: tuple[Path, Path],
                                                 opened: list[Review]) -> None:
    """After the revert, a line added outside: nothing the review wrote is there any
    more, so that is the file's new content to work on; the accept is not written back."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    app.write_bytes(BASE)  # git checkout -- app.py
    review.outside_changed(["app.py"])
    noted = b"# a note made outside\n" + BASE
    app.write_bytes(noted)
    report = review.outside_changed(["app.py"])
    assert report.written == []
    assert app.read_bytes() == noted
    review.decide(A2, Decision.accept())
    assert app.read_bytes() == with_delta(noted)
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert review.conflicts == {}


def test_a_file_put_back_as_the_review_wrote_it_keeps_its_accept(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """``git stash`` then ``git stash pop``: the accept taken back at the stash is in
    force again at the pop, and a reject then takes the change off the disk."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    app.write_bytes(BASE)  # git stash
    review.outside_changed(["app.py"])
    app.write_bytes(with_alpha(BASE))  # git stash pop
    report = review.outside_changed(["app.py"])
    assert report.written == []
    assert any("in force again" in note for _, note in report.events)
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert review.result(A1).landed
    review.decide(A1, Decision.reject())
    assert app.read_bytes() == BASE  # the reject takes the change off the disk
    review.decide(A2, Decision.accept())
    assert app.read_bytes() == with_delta(BASE)
    assert review.conflicts == {}


def test_a_pop_after_a_reject_writes_the_file_as_decided(setup: tuple[Path, Path],
                                                        opened: list[Review]) -> None:
    """The reviewer rejected the operation after the stash: the pop brings back bytes the
    review wrote, and the file is written as now decided (it used to keep the rejected
    change on disk under a row saying rejected, with no word; QA pass 79)."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    app.write_bytes(BASE)
    review.outside_changed(["app.py"])
    review.decide(A1, Decision.reject())
    app.write_bytes(with_alpha(BASE))
    report = review.outside_changed(["app.py"])
    assert review.decisions[A1].verdict is Verdict.REJECTED
    assert app.read_bytes() == BASE
    assert any("decided since" in note for _, note in report.events)
    assert review.conflicts == {}


def test_a_pop_after_one_reject_brings_the_others_back(setup: tuple[Path, Path],
                                                       opened: list[Review]) -> None:
    """Two accepts taken back at the stash, one rejected meanwhile: at the pop the other
    is in force again and on disk, the rejected one is not (QA pass 79: the rejected
    change stayed on disk and the other read "? review" pending while on disk)."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    review.decide(A2, Decision.accept())
    app.write_bytes(BASE)  # git stash
    review.outside_changed(["app.py"])
    assert review.decisions.get(A2, Decision()).verdict is Verdict.PENDING
    review.decide(A1, Decision.reject())
    app.write_bytes(with_delta(with_alpha(BASE)))  # git stash pop
    review.outside_changed(["app.py"])
    assert review.decisions[A1].verdict is Verdict.REJECTED
    assert review.decisions[A2].verdict is Verdict.ACCEPTED
    assert review.result(A2).landed
    assert app.read_bytes() == with_delta(BASE)
    review.decide(A1, Decision.accept())  # accepted again: back on disk
    assert app.read_bytes() == with_delta(with_alpha(BASE))
    assert review.conflicts == {}


def _tweaked_after_accept(setup: tuple[Path, Path], opened: list[Review]
                          ) -> tuple[Review, Path, bytes]:
    """A1 accepted, then one more line changed outside (kept on top): the review, the
    file and what it holds."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    tweaked = with_alpha(BASE).replace(b"BETA = 2", b"BETA = 3")
    app.write_bytes(tweaked)
    review.outside_changed(["app.py"])
    return review, app, tweaked


def test_a_pop_of_an_outside_change_kept_on_top_keeps_it_and_writes_the_reject(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """What the stash held was the review's write with a change made outside on top. It
    was taken as a new original, so the reject made while it was stashed stayed on disk
    under a "rejected" status (QA s34 helper-99). It is the review's write with the change
    kept on top again: the reject takes A1 off, the outside line stays."""
    review, app, tweaked = _tweaked_after_accept(setup, opened)
    app.write_bytes(BASE)  # git stash
    review.outside_changed(["app.py"])
    review.decide(A1, Decision.reject())
    app.write_bytes(tweaked)  # git stash pop
    review.outside_changed(["app.py"])
    assert app.read_bytes() == BASE.replace(b"BETA = 2", b"BETA = 3")
    assert review.conflicts == {}


@pytest.mark.parametrize("back", [True, False])
def test_a_kept_change_then_undone_outside_keeps_nothing(
        setup: tuple[Path, Path], opened: list[Review], back: bool) -> None:
    """A tweak made outside over an accept, then taken back outside (``back``) or not."""
    review, app, tweaked = _tweaked_after_accept(setup, opened)
    if back:
        app.write_bytes(with_alpha(BASE))
        review.outside_changed(["app.py"])
    review.decide(A2, Decision.accept())
    assert app.read_bytes() == with_delta(with_alpha(BASE) if back else tweaked)


@pytest.mark.parametrize("back_as", ["written", "original"])
def test_a_file_deleted_and_put_back_goes_on_from_where_it_was(
        setup: tuple[Path, Path], opened: list[Review], back_as: str) -> None:
    """A folder moved away and back (or a file deleted and restored): as the review left
    it, the accept stands and nothing is in conflict (it was a conflict whose two sides
    were the same bytes); as the session started from, the accept is taken back."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    written = app.read_bytes()
    app.unlink()
    review.outside_changed(["app.py"])
    assert not app.exists()  # never recreated silently
    app.write_bytes(written if back_as == "written" else BASE)
    report = review.outside_changed(["app.py"])
    assert report.written == []
    assert review.conflicts == {}
    if back_as == "written":
        assert review.decisions[A1].verdict is Verdict.ACCEPTED
        assert review.result(A1).landed
        review.decide(A1, Decision.reject())
        assert app.read_bytes() == BASE
    else:
        assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
        assert app.read_bytes() == BASE
        review.undo()
        assert app.read_bytes() == with_alpha(BASE)


def test_a_folder_moved_away_and_back_goes_on(tmp_path: Path, opened: list[Review]) -> None:
    from diskkit import Ed, make_project, write_session

    session = write_session(tmp_path / "session", [[Ed("pkg/a.py", "x = 1", "x = 2"),
                                                    Ed("pkg/b.py", "y = 1", "y = 2")]])
    root = make_project(tmp_path / "proj", {"pkg/a.py": b"x = 1\n", "pkg/b.py": b"y = 1\n"})
    review = Review.open(session, root)
    opened.append(review)
    review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
    (root / "pkg").rename(tmp_path / "away")
    review.outside_changed(["pkg"])
    (tmp_path / "away").rename(root / "pkg")
    report = review.outside_changed(["pkg"])
    assert report.written == []
    assert review.conflicts == {}
    assert (root / "pkg" / "a.py").read_bytes() == b"x = 2\n"
    review.decide((1, 1), Decision.reject())
    assert (root / "pkg" / "b.py").read_bytes() == b"y = 1\n"
    assert (root / "pkg" / "a.py").read_bytes() == b"x = 2\n"


def test_a_put_back_under_a_pin_takes_back_only_what_was_on_disk(
        tmp_path: Path, opened: list[Review]) -> None:
    """The disk pinned at checkpoint 1: an accept of turn 2 was never written, so a file
    put back to the original does not take it back; unpinned, it is written."""
    from diskkit import Ed, make_project, write_session

    session = write_session(tmp_path / "session", [[Ed("app.py", "a = 1", "a = 2")],
                                                   [Ed("app.py", "b = 1", "b = 2")]])
    root = make_project(tmp_path / "proj", {"app.py": b"a = 1\nb = 1\n"})
    review = Review.open(session, root)
    opened.append(review)
    review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept())])
    review.restore(1)
    app = root / "app.py"
    assert app.read_bytes() == b"a = 2\nb = 1\n"
    app.write_bytes(b"a = 1\nb = 1\n")  # git checkout -- app.py
    report = review.outside_changed(["app.py"])
    assert [key for key, _ in report.reverted] == [(1, 0)]
    assert review.decisions[(2, 0)].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == b"a = 1\nb = 1\n"
    review.restore(2)  # unpinned: turn 2's accept is written, turn 1's stays taken back
    assert app.read_bytes() == b"a = 1\nb = 2\n"
    assert review.conflicts == {}


def test_a_take_back_is_kept_across_a_reopen(setup: tuple[Path, Path],
                                             opened: list[Review]) -> None:
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    app.write_bytes(BASE)
    review.outside_changed(["app.py"])
    review.close()
    again = open_review(setup, opened)
    assert again.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert app.read_bytes() == BASE
    assert again.conflicts == {}
    again.undo()  # the take-back is the last step: undone, the accept is written again
    assert again.decisions[A1].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == with_alpha(BASE)


def test_every_file_put_back_at_once(setup: tuple[Path, Path], opened: list[Review]) -> None:
    """``git checkout -- .``: the accepts of every file put back go back in one step; a
    new file the session made is left as it is (git does not touch untracked files)."""
    from test_review import B1, B2, OTHER

    review = open_review(setup, opened)
    root = review.root
    review.decide_many([(A1, Decision.accept()), (A2, Decision.accept()),
                        (B1, Decision.accept()), (B2, Decision.accept())])
    steps = len(review._log)
    (root / "app.py").write_bytes(BASE)
    (root / "other.txt").write_bytes(OTHER)
    report = review.outside_changed(["app.py", "other.txt"])
    assert sorted(key for key, _ in report.reverted) == [A1, A2, B1]
    assert len(review._log) == steps + 1  # one step
    assert review.decisions[B2].verdict is Verdict.ACCEPTED
    assert (root / "new.txt").read_bytes() == b"fresh\n"
    assert (root / "app.py").read_bytes() == BASE
    review.undo()
    assert (root / "app.py").read_bytes() == with_delta(with_alpha(BASE))
    assert (root / "other.txt").read_bytes() == b"ONE\ntwo\n"
    assert review.conflicts == {}


def test_a_file_renamed_outside_and_back_goes_on(setup: tuple[Path, Path],
                                                 opened: list[Review]) -> None:
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    (root / "app.py").rename(root / "app2.py")
    review.outside_changed(["app.py", "app2.py"])
    assert not (root / "app.py").exists()
    (root / "app2.py").rename(root / "app.py")
    report = review.outside_changed(["app.py", "app2.py"])
    assert report.written == []
    assert review.conflicts == {}
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    review.decide(A2, Decision.accept())
    assert (root / "app.py").read_bytes() == with_delta(with_alpha(BASE))
    assert not (root / "app2.py").exists()


def test_a_hunk_put_back_outside_takes_that_accept_back(setup: tuple[Path, Path],
                                                        opened: list[Review]) -> None:
    """``git checkout -p`` (or an IDE's "revert hunk") discards one accepted change of
    two: that accept goes back to pending, the other stays (QA pass 79: it stayed shown
    accepted, its change not on disk, with no word)."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    review.decide(A2, Decision.accept())
    app.write_bytes(with_alpha(BASE))  # the delta hunk discarded
    report = review.outside_changed(["app.py"])
    assert [key for key, _ in report.reverted] == [A2]
    assert any("undone outside" in note for _, note in report.events)
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert review.decisions.get(A2, Decision()).verdict is Verdict.PENDING
    assert app.read_bytes() == with_alpha(BASE)
    review.undo()  # the accept back, and written again
    assert app.read_bytes() == with_delta(with_alpha(BASE))
    assert review.conflicts == {}


def test_a_stale_editor_buffer_takes_the_accept_back_and_keeps_its_own_change(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """An editor that read the file before the accept saves its buffer with one change of
    its own: the accept it undid goes back to pending, the editor's change is kept on
    top, and accepting again writes both."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    buffer = BASE.replace(b"BETA = 2", b"BETA = 3")  # read before the accept, then edited
    app.write_bytes(buffer)
    report = review.outside_changed(["app.py"])
    assert [key for key, _ in report.reverted] == [A1]
    assert app.read_bytes() == buffer
    review.decide(A2, Decision.accept())
    assert app.read_bytes() == with_delta(buffer)
    review.decide(A1, Decision.accept())
    assert app.read_bytes() == with_delta(with_alpha(buffer))
    assert review.conflicts == {}


def test_an_accepted_line_tweaked_outside_stays_accepted(setup: tuple[Path, Path],
                                                         opened: list[Review]) -> None:
    """A change made outside to the very lines an accept wrote (not back to what they
    were): the accept stays in force, the tweak kept on top."""
    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    tweaked = with_alpha(BASE, b"11")
    app.write_bytes(tweaked)
    report = review.outside_changed(["app.py"])
    assert report.reverted == []
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    review.decide(A2, Decision.accept())
    assert app.read_bytes() == with_delta(tweaked)


def test_a_pop_of_several_files_is_one_step(setup: tuple[Path, Path],
                                            opened: list[Review]) -> None:
    """``git stash`` and ``git stash pop`` over two files: the take-back is one step and so
    is the bring-back (it was one per file: QA pass 79 needed two ``u`` for one pop)."""
    review = open_review(setup, opened)
    app, other = review.root / "app.py", review.root / "other.txt"
    review.decide_many([(A1, Decision.accept()), (B1, Decision.accept())])
    written = app.read_bytes(), other.read_bytes()
    app.write_bytes(BASE)
    other.write_bytes(OTHER)
    review.outside_changed(["app.py", "other.txt"])
    app.write_bytes(written[0])
    other.write_bytes(written[1])
    review.outside_changed(["app.py", "other.txt"])
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert review.decisions[B1].verdict is Verdict.ACCEPTED
    review.undo()  # the pop's bring-back, for both files at once
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert review.decisions.get(B1, Decision()).verdict is Verdict.PENDING
    assert (app.read_bytes(), other.read_bytes()) == (BASE, OTHER)


_LINES = [f"value_{n} = {n * 7}\n" for n in range(1, 41)]


@pytest.mark.parametrize(("search", "replace"), [
    ("".join(_LINES[19:24]).rstrip("\n"), _LINES[23].rstrip("\n")),  # 20-23 deleted
    (_LINES[19].rstrip("\n"), _LINES[19] + "added_1 = 1\nadded_2 = 2"),  # two inserted
], ids=["deletion", "insertion"])
def test_a_deletion_or_insertion_undone_outside_is_taken_back(
        tmp_path: Path, opened: list[Review], search: str, replace: str) -> None:
    """An accepted edit that only deleted (or only inserted) lines, put back outside
    (``git checkout -p``) along with an unrelated change far away: the accept goes back
    to pending and the far change is kept (QA pass 82, repro-4: it stayed shown accepted
    while every line it deletes was on disk). Its change put back was a hunk anchored by
    one line of context, which the disk's own copy of the lines did not stop: "putting
    it back" on disk doubled them, so it read as not undone."""
    base = "".join(_LINES).encode()
    session = write_session(tmp_path / "session", [[Ed("a.py", search, replace)]])
    root = make_project(tmp_path / "proj", {"a.py": base})
    review = Review.open(session, root)
    opened.append(review)
    review.decide(A1, Decision.accept())
    accepted = (root / "a.py").read_bytes()
    assert accepted != base
    far = base.replace(b"value_1 = 7\n", b"value_1 = 8\n")
    (root / "a.py").write_bytes(far)
    report = review.outside_changed(["a.py"])
    assert [key for key, _ in report.reverted] == [A1]
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert (root / "a.py").read_bytes() == far
    review.decide(A1, Decision.accept())  # accepted again: written over the far change
    assert (root / "a.py").read_bytes() == accepted.replace(b"value_1 = 7\n", b"value_1 = 8\n")
    assert review.conflicts == {}


def test_a_deletion_kept_with_a_far_change_stays_accepted(tmp_path: Path,
                                                         opened: list[Review]) -> None:
    """The control: a far change alone, the deleted lines still gone, keeps the accept."""
    base = "".join(_LINES).encode()
    deleted = "".join(_LINES[19:23])
    session = write_session(tmp_path / "session", [[Ed("a.py", deleted.rstrip("\n"), "")]])
    root = make_project(tmp_path / "proj", {"a.py": base})
    review = Review.open(session, root)
    opened.append(review)
    review.decide(A1, Decision.accept())
    far = (root / "a.py").read_bytes().replace(b"value_1 = 7\n", b"value_1 = 8\n")
    (root / "a.py").write_bytes(far)
    report = review.outside_changed(["a.py"])
    assert report.reverted == []
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert (root / "a.py").read_bytes() == far


def test_an_undo_that_clashes_with_a_kept_change_names_the_undone_operation(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """Both accepts written, then a formatter re-indents the whole file (kept on top), then
    the second accept is undone: the kept change cannot go over the draft without it, so
    nothing is written and the file is in conflict. The undone operation's change is
    still on disk: it is in the conflict too, not shown as a plain pending operation
    beside an untouched accept shown in conflict alone (QA pass 82, repro-8)."""
    from reviewtui.core.model.outcome import Status

    review = open_review(setup, opened)
    app = review.root / "app.py"
    review.decide(A1, Decision.accept())
    review.decide(A2, Decision.accept())
    formatted = app.read_bytes().replace(b"    return", b"\treturn")
    app.write_bytes(formatted)
    review.outside_changed(["app.py"])
    assert review.conflicts == {}
    review.undo()
    assert app.read_bytes() == formatted  # nothing written over the formatter's file
    assert "app.py" in review.conflicts
    assert review.decisions.get(A2, Decision()).verdict is Verdict.PENDING
    assert review.outcome(A2).status is Status.CONFLICT
    assert set(review.conflicts["app.py"].ops) == {A1, A2}
    review.redo()  # the accept back: the kept change goes on top again
    assert review.conflicts == {}
    assert app.read_bytes() == formatted


def test_a_line_put_between_an_insertion_and_its_context_does_not_undo_it(
        tmp_path: Path, opened: list[Review]) -> None:
    """QA s34 helper-98 r61: an accepted "import json" inserted above "import os"; the
    user adds "import re" between them. The insertion's lines as they were before it
    ("import os" and below) stood on disk, so it read as undone outside: its accept was
    taken back, and a reject then left "import json" on disk under a "rejected" status.
    Its written line is still there: it stays accepted, and a reject is a conflict."""
    base = b"import os\n\n\ndef f():\n    return 1\n"
    session = write_session(tmp_path / "session",
                            [[Ed("a.py", "import os", "import json\nimport os")]])
    root = make_project(tmp_path / "proj", {"a.py": base})
    review = Review.open(session, root)
    opened.append(review)
    review.decide(A1, Decision.accept())
    outside = b"import json\nimport re\nimport os\n\n\ndef f():\n    return 1\n"
    (root / "a.py").write_bytes(outside)
    report = review.outside_changed(["a.py"])
    assert report.reverted == []
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    review.decide(A1, Decision.reject())
    assert (root / "a.py").read_bytes() == outside
    assert "a.py" in review.conflicts


def test_a_stash_pop_over_an_outside_change_kept_on_top_brings_the_accepts_back(
        tmp_path: Path, opened: list[Review]) -> None:
    """QA s34 helper-99: accepted edits written, a line added outside (kept on top), git
    stash (the original), a reject meanwhile, git stash pop (the review's bytes with the
    outside line): the popped file was taken as a new original, the accepts taken back
    at the stash never came back, and the change rejected meanwhile stayed on disk under
    a "rejected" status. Now the accepts are in force again, the outside line is kept on
    top, and the reject takes its change off."""
    base, root, review = _two_accepts_written(tmp_path, opened)
    outside = "# outside\n" + (root / "a.py").read_text()
    (root / "a.py").write_text(outside)
    review.outside_changed(["a.py"])
    (root / "a.py").write_text(base)  # git stash
    review.outside_changed(["a.py"])
    assert review.decisions == {}
    review.decide((2, 0), Decision.reject())
    (root / "a.py").write_text(outside)  # git stash pop
    report = review.outside_changed(["a.py"])
    assert any("with the change made outside kept on top of it" in m for m in report.messages)
    assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
    assert review.decisions[(2, 0)].verdict is Verdict.REJECTED
    assert (root / "a.py").read_text() == outside.replace("line 15 T2", "line 15")


def test_a_file_deleted_and_made_again_with_a_line_added_keeps_its_accepts(
        tmp_path: Path, opened: list[Review]) -> None:
    """QA s34 helper-99 finding 3: accepted edits written, the file deleted outside, then
    made again as the review left it with one line added (an editor that saves by delete
    and create, seen in two steps). It was taken as a new original: the accepts, whose
    change is on disk, read as failed, and a reject left its change there. Seen as one
    step (the file rewritten in place) the same bytes are an outside change kept on top:
    the outcome must not depend on whether the watcher saw the deletion."""
    base, root, review = _two_accepts_written(tmp_path, opened)
    outside = (root / "a.py").read_text() + "# outside\n"
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    (root / "a.py").write_text(outside)
    report = review.outside_changed(["a.py"])
    assert "a.py" not in report.adopted
    assert review.result((1, 0)).landed
    assert review.result((2, 0)).landed
    assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
    assert "a.py" not in review.conflicts
    review.decide((2, 0), Decision.reject())  # the change comes off, the line stays
    assert (root / "a.py").read_text() == outside.replace("line 15 T2", "line 15")
    review.undo()
    assert (root / "a.py").read_text() == outside


def test_an_edit_whose_text_only_a_change_kept_on_top_brought_says_so(
        tmp_path: Path, opened: list[Review]) -> None:
    """QA s34 helper-99 finding 2: a file written outside in two steps with an accept made
    between them (the first half taken as the new original, the accept written on it,
    the rest then kept on top as an outside change). A later edit whose text is in the
    second half stays not found, as the session's version is what is searched (a design
    left as it is); the refusal said its text "is not in the file", which the disk
    contradicts. It now says the change kept on top is not searched."""
    whole = "".join(f"line {i}\n" for i in range(1, 21))
    session = write_session(tmp_path / "session", [[Ed("a.py", "line 2", "line 2 T1"),
                                                     Ed("a.py", "line 18", "line 18 T1")]])
    root = make_project(tmp_path / "proj", {"a.py": whole})
    review = Review.open(session, root)
    opened.append(review)
    half = whole[: whole.index("line 11")]
    (root / "a.py").write_text(half)  # the first half arrives
    review.outside_changed(["a.py"])
    review.decide((1, 0), Decision.accept())
    assert (root / "a.py").read_text() == half.replace("line 2\n", "line 2 T1\n")
    with (root / "a.py").open("a") as rest:  # then the rest
        rest.write(whole[len(half):])
    review.outside_changed(["a.py"])
    assert (root / "a.py").read_text() == whole.replace("line 2\n", "line 2 T1\n")
    assert not review.result((1, 1)).landed
    with pytest.raises(DecisionRefused) as refused:
        review.decide((1, 1), Decision.accept())
    assert "kept on top, is not searched" in str(refused.value)
    assert "not in the file" not in str(refused.value)  # (it is, on disk)
    assert (root / "a.py").read_text() == whole.replace("line 2\n", "line 2 T1\n")


def _two_accepts_written(tmp_path: Path, opened: list[Review]) -> tuple[str, Path, Review]:
    """A 20-line a.py, two turns editing lines 2 and 15, both accepted and written."""
    base = "".join(f"line {i}\n" for i in range(1, 21))
    session = write_session(tmp_path / "session", [[Ed("a.py", "line 2", "line 2 T1")],
                                                    [Ed("a.py", "line 15", "line 15 T2")]])
    root = make_project(tmp_path / "proj", {"a.py": base})
    review = Review.open(session, root)
    opened.append(review)
    review.decide((1, 0), Decision.accept())
    review.decide((2, 0), Decision.accept())
    return base, root, review


def test_an_accept_on_a_deleted_file_says_the_file_was_deleted(
        tmp_path: Path, opened: list[Review]) -> None:
    """QA s35 helper-101: it said "its text is not in the file" of a file not there."""
    _, root, review = _two_accepts_written(tmp_path, opened)
    review.undo()
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    with pytest.raises(DecisionRefused) as refused:
        review.decide((2, 0), Decision.accept())
    assert "a.py was deleted outside the workbench - reject it, or put the file back" in str(
        refused.value)
    assert not (root / "a.py").exists()
