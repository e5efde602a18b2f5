"""A file the review wrote, deleted outside while it was open, then the review closed (q or
a kill) and the file made again before it is opened again.

Found in a real terminal by helper-101 (QA s35): what the file was before it was deleted
(``PathRecord.gone``) lived in memory alone, so a file back as the review left it, or with a
line added, or put back to the original, was taken as a new original on reopening: the
accepts whose change was on disk were taken back ("nothing of it was written") and a reject
then left the change there; a file put back to the original got the accepts written over
it. Reopened, each now reads as it does while the review stays open.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Ed, Full, make_project, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review

BASE = "".join(f"line {i}\n" for i in range(1, 21))
WRITTEN = BASE.replace("line 2\n", "line 2 T1\n").replace("line 15\n", "line 15 T2\n")


def _deleted_then_closed(tmp_path: Path) -> tuple[Path, Path]:
    """Two accepts written to a.py, a.py deleted outside (seen), the review closed."""
    session = write_session(tmp_path / "session", [[Ed("a.py", "line 2", "line 2 T1")],
                                                    [Ed("a.py", "line 15", "line 15 T2")]])
    root = make_project(tmp_path / "proj", {"a.py": BASE, "b.py": "b\n"})
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        assert (root / "a.py").read_text() == WRITTEN
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
    return session, root


def test_back_with_a_line_added_keeps_the_accepts_and_the_line(tmp_path: Path) -> None:
    session, root = _deleted_then_closed(tmp_path)
    (root / "a.py").write_text(WRITTEN + "# outside\n")
    with Review.open(session, root) as review:
        assert not any("taken back" in p for p in review.state_problems)
        assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
        assert review.result((2, 0)).landed
        assert "a.py" not in review.conflicts
        review.decide((2, 0), Decision.reject())  # its change comes off, the line stays
        assert (root / "a.py").read_text() == WRITTEN.replace("line 15 T2", "line 15") \
            + "# outside\n"


def test_back_as_the_review_left_it_takes_up_where_it_was(tmp_path: Path) -> None:
    session, root = _deleted_then_closed(tmp_path)
    (root / "a.py").write_text(WRITTEN)
    with Review.open(session, root) as review:
        assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
        assert review.decisions[(2, 0)].verdict is Verdict.ACCEPTED
        assert review.conflicts == {}
        assert (root / "a.py").read_text() == WRITTEN
        review.decide((1, 0), Decision.reject())
        assert (root / "a.py").read_text() == WRITTEN.replace("line 2 T1", "line 2")


def test_put_back_to_the_original_takes_the_accepts_back_and_writes_nothing(
        tmp_path: Path) -> None:
    """The original put back (git checkout -- a.py) with the review closed: the accepts
    go back to pending as they do while it is open; they were written over it."""
    session, root = _deleted_then_closed(tmp_path)
    (root / "a.py").write_text(BASE)
    with Review.open(session, root) as review:
        assert (root / "a.py").read_text() == BASE
        assert review.decisions.get((1, 0), Decision()).verdict is Verdict.PENDING
        assert review.decisions.get((2, 0), Decision()).verdict is Verdict.PENDING
        review.undo()  # the take-back is one step: undone, both are written again
        assert (root / "a.py").read_text() == WRITTEN


def test_still_deleted_on_reopening_and_back_later(tmp_path: Path) -> None:
    session, root = _deleted_then_closed(tmp_path)
    with Review.open(session, root) as review:
        assert not (root / "a.py").exists()
        (root / "a.py").write_text(WRITTEN + "# outside\n")
        review.outside_changed(["a.py"])
        assert review.result((1, 0)).landed
        assert review.decisions[(2, 0)].verdict is Verdict.ACCEPTED
        assert (root / "a.py").read_text() == WRITTEN + "# outside\n"


def test_a_folder_moved_away_and_back_while_closed_is_checked_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five written files of a folder moved away (seen), the review closed, the folder
    moved back: each takes up where it was, and the saved before-states are checked with
    one evaluation of the session, not one per file (and the saved records with one
    more, shared by all)."""
    names = [f"pkg/m{i}.py" for i in range(5)]
    session = write_session(tmp_path / "session", [[Ed(n, "x = 1", "x = 2") for n in names]])
    root = make_project(tmp_path / "proj", dict.fromkeys(names, "x = 1\n"))
    with Review.open(session, root) as review:
        review.decide_many([((1, n), Decision.accept()) for n in range(5)])
        (root / "pkg").rename(tmp_path / "away")
        review.outside_changed(names)
    (tmp_path / "away").rename(root / "pkg")
    import reviewtui.shell.outside_returns as returns

    real, calls = returns.evaluate_session, []
    monkeypatch.setattr(returns, "evaluate_session",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    with Review.open(session, root) as review:
        # Every evaluation the reopening makes goes through outside_returns.drafted_at:
        # one for the five saved before-states, one for the draft one entry back that the
        # saved records are checked against (made by resume_fit's own copy until s43).
        assert len(calls) == 2
        assert all(review.result((1, n)).landed for n in range(5))
        assert not any("taken back" in p for p in review.state_problems)
        review.decide((1, 3), Decision.reject())
        assert (root / "pkg/m3.py").read_text() == "x = 1\n"
        assert (root / "pkg/m4.py").read_text() == "x = 2\n"


def test_in_conflict_when_deleted_then_the_original_put_back(tmp_path: Path) -> None:
    """QA s35 helper-102 F3: an accept written, a line changed outside (kept on top), a
    second accept in conflict with it (never written), the file deleted, the review
    closed, the original put back. The saved before-state did not fit (what the review
    wrote is the draft at its last write, not at the deletion) and both accepts were
    written over the original on reopening."""
    session = write_session(tmp_path / "session", [[Ed("a.py", "line 2", "line 2 A1")],
                                                    [Ed("a.py", "line 3", "line 3 A2")]])
    root = make_project(tmp_path / "proj", {"a.py": BASE})
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        (root / "a.py").write_text((root / "a.py").read_text().replace("line 3\n", "three\n"))
        review.outside_changed(["a.py"])
        review.decide((2, 0), Decision.accept())
        assert "a.py" in review.conflicts
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
    (root / "a.py").write_text(BASE)
    with Review.open(session, root) as review:
        assert not any("ignored what the saved review says" in p
                       for p in review.state_problems)
        assert (root / "a.py").read_text() == BASE


def test_a_kept_change_then_another_accept_then_back_as_left(tmp_path: Path) -> None:
    """QA s35 helper-102 F3: a line added outside (kept on top), then an accept written
    under it; deleted, closed, back as left. The layer's own base is the earlier write, so
    it was refused ("ours" must be what was written last) and both accepts were taken
    back as never written while both were on disk."""
    session = write_session(tmp_path / "session", [[Ed("a.py", "line 2", "line 2 T1")],
                                                    [Ed("a.py", "line 15", "line 15 T2")]])
    root = make_project(tmp_path / "proj", {"a.py": BASE})
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        (root / "a.py").write_text((root / "a.py").read_text() + "# outside\n")
        review.outside_changed(["a.py"])
        review.decide((2, 0), Decision.accept())
        left = (root / "a.py").read_text()
        assert left == WRITTEN + "# outside\n"
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
    (root / "a.py").write_text(left)
    with Review.open(session, root) as review:
        assert review.decisions[(2, 0)].verdict is Verdict.ACCEPTED
        review.decide((2, 0), Decision.reject())
        assert (root / "a.py").read_text() == left.replace("line 15 T2", "line 15")


def test_a_log_rewritten_on_reopening_still_finds_the_before_state(tmp_path: Path) -> None:
    """QA s35 helper-102 F4: an orphaned decision (its operation reworded in the session)
    makes the log shorter on reopening; the saved decision count then named another
    prefix, the before-state was dropped and the accepts taken back as never written."""
    turns = [[Ed("a.py", "line 2", "line 2 T1")], [Ed("a.py", "line 15", "line 15 T2")],
             [Ed("c.py", "c", "C")]]
    session = write_session(tmp_path / "session", turns)
    root = make_project(tmp_path / "proj", {"a.py": BASE, "c.py": "c\n"})
    with Review.open(session, root) as review:
        review.decide((3, 0), Decision.accept())
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
    write_session(tmp_path / "session", [*turns[:2], [Ed("c.py", "c", "CC")]])
    (root / "a.py").write_text(WRITTEN)
    with Review.open(session, root) as review:
        assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
        assert review.decisions[(2, 0)].verdict is Verdict.ACCEPTED
        review.decide((2, 0), Decision.reject())
        assert (root / "a.py").read_text() == WRITTEN.replace("line 15 T2", "line 15")


def test_a_whole_file_write_deleted_and_back_as_left(tmp_path: Path) -> None:
    """QA s35 helper-102 F5 (older): a whole-file operation written, the file deleted,
    closed, back as left: it was taken as "written, then the crash" with the record still
    deleted, and a reject then deleted the file (an undo left it accepted, no file)."""
    session = write_session(tmp_path / "session", [[Full("a.py", "new\n")]])
    root = make_project(tmp_path / "proj", {"a.py": "orig\n"})
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
    (root / "a.py").write_text("new\n")
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.reject())
        assert (root / "a.py").read_text() == "orig\n"
        review.undo()
        assert (root / "a.py").read_text() == "new\n"
