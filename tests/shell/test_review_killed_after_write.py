"""A review killed after its last write, with the file changed before it is opened again.

The state file is saved just before each write, not after: killed while idle after a
decision, it still says the file held what it held before that write. Found in a real
terminal on express's history (QA pass 79, 2026-12-04): after a kill -9 and a
``git checkout -- FILE``, the reopened review took the put-back file for a new base and
wrote both accepts back over the user's revert ("rebased over an outside change"); after a
kill and a line added outside, it took both accepts back as "nothing of it was written"
while both were on disk. Each test here leaves the state file as the kill left it (a
copy taken after the decisions, put back after the review's own close).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_review import A1, A2, B1, BASE, OTHER, open_review, setup, with_alpha, with_delta

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review
from reviewtui.shell.statemark import mark_path

__all__ = ["setup"]  # the fixture, imported for pytest


def _killed_after(setup: tuple[Path, Path], opened: list[Review],
                  *keys: tuple[int, int]) -> Path:
    """Accept ``keys`` one by one, then leave the state file as a kill at that moment
    would: as saved before the last write. Returns the edited file."""
    review = open_review(setup, opened)
    for key in keys:
        review.decide(key, Decision.accept())
    state = review._state_file
    assert state is not None
    blobs = state.blobs.directory
    kept = state.path.read_bytes()
    mark = mark_path(state.path)
    finished = mark.read_bytes()  # the last replay's writes were all made
    shutil.copytree(blobs, blobs.with_name("kept-blobs"))
    review.close()  # (releases the lock; its final save is then undone)
    shutil.rmtree(blobs)
    blobs.with_name("kept-blobs").rename(blobs)
    state.path.write_bytes(kept)
    mark.write_bytes(finished)
    return review.root / "app.py"


def test_a_checkout_after_a_kill_takes_the_accepts_back(setup: tuple[Path, Path],
                                                        opened: list[Review]) -> None:
    app = _killed_after(setup, opened, A1, A2)
    assert app.read_bytes() == with_delta(with_alpha(BASE))
    app.write_bytes(BASE)  # git checkout -- app.py, the review closed
    review = open_review(setup, opened)
    assert app.read_bytes() == BASE  # the user's revert stands
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert review.decisions.get(A2, Decision()).verdict is Verdict.PENDING
    assert review.conflicts == {}
    review.undo()  # the take-back is one step: undone, both are written again
    assert app.read_bytes() == with_delta(with_alpha(BASE))


def test_a_line_added_after_a_kill_is_kept_over_the_accepts(setup: tuple[Path, Path],
                                                            opened: list[Review]) -> None:
    app = _killed_after(setup, opened, A1, A2)
    noted = b"# a note made outside\n" + with_delta(with_alpha(BASE))
    app.write_bytes(noted)
    review = open_review(setup, opened)
    assert app.read_bytes() == noted
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert review.decisions[A2].verdict is Verdict.ACCEPTED
    assert review.conflicts == {}
    review.decide(A2, Decision.reject())  # the note stays, the reject is written under it
    assert app.read_bytes() == b"# a note made outside\n" + with_alpha(BASE)


def test_disk_as_before_the_last_write_is_taken_as_put_back(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """The disk holds what it held before the last write, and that replay finished (its
    mark says so): the write was put back while the review was down (``git checkout -p``
    of the last hunk; with one accept, ``git checkout``: QA pass 82 found the review then
    wrote it back over the user's revert). The accept goes back to pending, announced,
    and ``u`` writes it."""
    app = _killed_after(setup, opened, A1, A2)
    app.write_bytes(with_alpha(BASE))  # as the disk was when the last save was made
    review = open_review(setup, opened)
    assert app.read_bytes() == with_alpha(BASE)
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert review.decisions.get(A2, Decision()).verdict is Verdict.PENDING
    assert review.conflicts == {}
    review.undo()
    assert app.read_bytes() == with_delta(with_alpha(BASE))


def test_one_accept_then_a_checkout_while_down_stays_put_back(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    app = _killed_after(setup, opened, A1)
    assert app.read_bytes() == with_alpha(BASE)
    app.write_bytes(BASE)  # git checkout -- app.py
    review = open_review(setup, opened)
    assert app.read_bytes() == BASE
    assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING


class _Killed(BaseException):
    """The process ends here (a kill -9 in the middle of a replay's renames)."""


def _killed_before_writing(setup: tuple[Path, Path], opened: list[Review],
                           monkeypatch: pytest.MonkeyPatch, name: str) -> Path:
    """A2 accepted and written; then A1 and B1 in one batch, killed as its rename of
    ``name`` was due: the state saved before the batch's writes and the previous save's
    mark of finished writes are what is left, and ``name`` is the very file it was (its
    inode, times). Returns the root."""
    review = open_review(setup, opened)
    state = review._state_file
    assert state is not None
    review.decide(A2, Decision.accept())  # an earlier decision, its replay finished
    earlier = mark_path(state.path).read_bytes()
    real = os.replace

    def replace(src: object, dst: object, **kwargs: object) -> None:
        if dst == name:
            raise _Killed
        real(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(_Killed):
        review.decide_many([(A1, Decision.accept()), (B1, Decision.accept())])
    monkeypatch.setattr(os, "replace", real)
    kept = state.path.read_bytes()  # saved before the batch's writes
    review.close()
    state.path.write_bytes(kept)
    mark_path(state.path).write_bytes(earlier)  # the kill came before the new mark
    for leftover in review.root.glob("*.reviewtui-tmp*"):
        leftover.unlink()  # (a killed process leaves its temp file; reopening clears it)
    return review.root


def test_a_kill_between_the_save_and_the_writes_finishes_them(
        setup: tuple[Path, Path], opened: list[Review], monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed mid-replay: the decision is saved, one file of the batch is written, the
    other not yet, and the mark of finished writes is the previous save's. Reopened, the
    replay finishes the batch (a decision is never left half on disk); a CI run found
    ``test_workbench_killed_mid_decision`` failing on it, the unwritten files' accepts
    taken back as "put back outside" while the written ones stayed)."""
    root = _killed_before_writing(setup, opened, monkeypatch, "other.txt")
    assert (root / "app.py").read_bytes() == with_delta(with_alpha(BASE))  # written
    assert (root / "other.txt").read_bytes() == OTHER  # not written yet when it was killed
    again = open_review(setup, opened)
    assert (root / "other.txt").read_bytes() == OTHER.replace(b"one", b"ONE")
    assert (root / "app.py").read_bytes() == with_delta(with_alpha(BASE))
    assert all(again.decisions[key].verdict is Verdict.ACCEPTED for key in (A1, A2, B1))
    assert again.conflicts == {}


def test_a_file_the_killed_batch_wrote_then_checked_out_stays_checked_out(
        setup: tuple[Path, Path], opened: list[Review], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same kill, then ``git checkout -- app.py`` while the review was down: app.py
    holds its bytes from before the batch again, as an unwritten file would, but it is
    another file (git writes a new one). Its accept is taken back, announced; it was
    written over the user's checkout on reopening (QA pass 83). other.txt still finishes."""
    root = _killed_before_writing(setup, opened, monkeypatch, "other.txt")
    checkout = root / "app.py.checkout"
    checkout.write_bytes(with_delta(BASE))  # as git checkout does: a new file, renamed in
    os.replace(checkout, root / "app.py")
    again = open_review(setup, opened)
    assert (root / "app.py").read_bytes() == with_delta(BASE)  # the user's checkout stands
    assert again.decisions.get(A1, Decision()).verdict is Verdict.PENDING
    assert again.decisions[A2].verdict is Verdict.ACCEPTED
    assert (root / "other.txt").read_bytes() == OTHER.replace(b"one", b"ONE")
    assert again.conflicts == {}


def test_the_same_after_the_writes_finished_is_a_put_back(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """The control: the same disk, the mark saying the batch's writes were all made (so
    ``other.txt`` was put back while the review was down): its accept is taken back and
    nothing is written there."""
    review = open_review(setup, opened)
    state = review._state_file
    assert state is not None
    review.decide_many([(A1, Decision.accept()), (B1, Decision.accept())])
    kept, finished = state.path.read_bytes(), mark_path(state.path).read_bytes()
    review.close()
    state.path.write_bytes(kept)
    mark_path(state.path).write_bytes(finished)
    root = review.root
    (root / "other.txt").write_bytes(OTHER)  # git checkout -- other.txt
    again = open_review(setup, opened)
    assert (root / "other.txt").read_bytes() == OTHER
    assert again.decisions.get(B1, Decision()).verdict is Verdict.PENDING
    assert again.decisions[A1].verdict is Verdict.ACCEPTED


def test_an_undo_killed_mid_replay_then_a_line_added_finishes_the_undo_under_it(
        setup: tuple[Path, Path], opened: list[Review]) -> None:
    """Killed mid-replay of an undo: ``app.py`` was written back, ``other.txt`` not yet,
    and a line was added to it while the review was down. Reopened, the undo finishes
    there with the line kept on top (QA pass 83 repro-3, MODE=undo: the disk was taken
    for a new original, so it kept the undone change while its row read "not found").
    What the disk held before the undo's write is known by its saved digest: the draft
    one entry ago."""
    review = open_review(setup, opened)
    state = review._state_file
    assert state is not None
    review.decide_many([(A1, Decision.accept()), (B1, Decision.accept())])
    earlier = mark_path(state.path).read_bytes()  # the accepts' writes, all made
    review.undo()
    kept = state.path.read_bytes()  # saved before the undo's writes
    review.close()
    state.path.write_bytes(kept)
    mark_path(state.path).write_bytes(earlier)  # the kill came before the undo's mark
    root = review.root
    assert (root / "app.py").read_bytes() == BASE  # written back before the kill
    line = b"three, added while the review was down\n"
    (root / "other.txt").write_bytes(OTHER.replace(b"one", b"ONE") + line)  # not yet
    again = open_review(setup, opened)
    assert (root / "other.txt").read_bytes() == OTHER + line
    assert (root / "app.py").read_bytes() == BASE
    assert all(again.decisions.get(key, Decision()).verdict is Verdict.PENDING
               for key in (A1, B1))
    assert again.conflicts == {}
    assert again.result(B1).outcome.status.value == "applied"  # pending, and still lands
