"""Threat: a program saving a file in place is caught halfway, and the rest of its save is lost.

An editor that saves in place truncates the file and writes it in pieces. Found in a real
terminal (QA pass 79, express): a writer truncated ``response.js``, wrote 3,000 bytes,
paused 3 s, then wrote the rest; an accept during the pause took the 3,000 bytes as an
outside change, rebased over them and renamed its version over the path. The writer's
remaining bytes went into the replaced file and the user's save was lost (3 KB of 24 KB
left). A file another process holds open for writing is now left alone, with a notice,
until the watcher reports it again; the accept then lands on the whole save.

The writer here is a real process holding the file open (Linux says so in ``/proc``);
elsewhere the guard cannot know and the test says so.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from diskkit import Cmd, Ed, make_project, write_session
from heldkit import held_open
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.outside import MSG_BEING_WRITTEN
from reviewtui.shell.review import Review

BASE = b"ALPHA = 1\nBETA = 2\n\n\ndef gamma():\n    return 1\n"
A1 = (1, 0)

pytestmark = pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                                reason="no /proc: who holds a file open cannot be told here")

# Truncate, write the first part, say so, wait for a line on stdin, write the rest, close.
WRITER = """
import sys
first, rest = sys.argv[2].encode(), sys.argv[3].encode()
with open(sys.argv[1], "wb") as f:
    f.write(first); f.flush()
    print("half", flush=True)
    sys.stdin.readline()
    f.write(rest)
"""


def test_an_accept_during_a_save_under_way_waits_for_the_whole_save(tmp_path: Path) -> None:
    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    with Review.open(session, root) as review:
        _save_under_way(review, root / "app.py")


def _save_under_way(review: Review, app: Path) -> None:
    saved = BASE.replace(b"BETA = 2", b"BETA = 3") + b"# " + b"x" * 5000 + b"\n"
    half = len(saved) // 3
    with subprocess.Popen(
            [sys.executable, "-c", WRITER, str(app), saved[:half].decode(),
             saved[half:].decode()], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as writer:
        assert writer.stdout is not None
        assert writer.stdin is not None
        try:
            assert writer.stdout.readline() == b"half\n"
            report = review.outside_changed(["app.py"])  # the watcher sees the first part
            assert any(note == MSG_BEING_WRITTEN for _, note in report.events)
            report = review.decide(A1, Decision.accept())  # the reviewer accepts meanwhile
            assert any(note == MSG_BEING_WRITTEN for _, note in report.events)
            assert app.read_bytes() == saved[:half]  # nothing renamed over the save
            writer.stdin.write(b"go\n")
            writer.stdin.close()
            assert writer.wait(timeout=30) == 0
        finally:
            writer.kill()
    assert app.read_bytes() == saved
    review.outside_changed(["app.py"])  # the watcher reports the whole save
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == saved.replace(b"ALPHA = 1", b"ALPHA = 10")  # over it all
    assert review.conflicts == {}


# Open the file for writing without writing, say so, wait for a line on stdin; then, if
# it is "save", save in place through the same open file; close.
HOLDER = """
import sys
with open(sys.argv[1], "r+b") as f:
    print("open", flush=True)
    if sys.stdin.readline() == "save\\n":
        f.seek(0); f.write(sys.argv[2].encode()); f.truncate()
"""


def _held_unwritten(app: Path, ops_then: Callable[[], object], save: bytes | None) -> None:
    """A program holds ``app`` open for writing, not writing yet: ``ops_then`` runs
    meanwhile; then it saves ``save`` through that open file (None: closes it unwritten)."""
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(app), (save or b"").decode()],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as holder:
        assert holder.stdout is not None
        assert holder.stdin is not None
        try:
            assert holder.stdout.readline() == b"open\n"
            ops_then()
            holder.stdin.write(b"save\n" if save is not None else b"close\n")
            holder.stdin.close()
            assert holder.wait(timeout=30) == 0
        finally:
            holder.kill()


def test_an_accept_while_a_program_holds_the_file_open_keeps_its_later_save(
        tmp_path: Path) -> None:
    """QA pass 82, repro-3: a program holds the file open for writing and has not written
    yet; an accept renamed its version over the path, the program's save then went into
    the replaced file, and the save was lost with no word. The accept now waits, says
    why, and lands over the save once the file is closed."""
    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    saved = BASE.replace(b"BETA = 2", b"BETA = 3")
    with Review.open(session, root) as review:
        def accept() -> None:
            report = review.decide(A1, Decision.accept())
            assert report.held == ["app.py"]
            assert report.written == []
            assert any(note == MSG_BEING_WRITTEN for _, note in report.events)
            assert app.read_bytes() == BASE  # nothing renamed over the open file
            assert review.held_paths == {"app.py"}
            again = review.outside_changed(["app.py"])  # asked again: still held, unsaid
            assert again.held == ["app.py"]
            assert again.events == []

        _held_unwritten(app, accept, saved)
        assert app.read_bytes() == saved  # the program's save is on disk, whole
        report = review.outside_changed(["app.py"])  # its close: the save taken in
        assert review.held_paths == frozenset()
        assert report.written == ["app.py"]
        assert review.decisions[A1].verdict is Verdict.ACCEPTED
        assert app.read_bytes() == saved.replace(b"ALPHA = 1", b"ALPHA = 10")
        assert review.conflicts == {}


def test_a_held_file_closed_unwritten_gets_the_accept_then(tmp_path: Path) -> None:
    """The program closes the file without writing: no outside change to take in, and
    the accept held back is written when the file is asked about again."""
    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    with Review.open(session, root) as review:
        _held_unwritten(app, lambda: review.decide(A1, Decision.accept()), None)
        assert app.read_bytes() == BASE
        report = review.outside_changed(["app.py"])
        assert report.written == ["app.py"]
        assert review.held_paths == frozenset()
        assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")


def test_a_move_away_from_a_held_file_waits_and_keeps_both(tmp_path: Path) -> None:
    """A removal counts too (the program's save would go into a removed file), and a move
    whose source is held removes nothing until it is closed: the content is never only in
    the file the program holds."""
    session = write_session(tmp_path / "session", [[Cmd(":mv app.py moved.py")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    with Review.open(session, root) as review:
        def accept() -> None:
            report = review.decide(A1, Decision.accept())
            assert report.held == ["app.py"]
            assert app.read_bytes() == BASE  # not removed while held
            assert (root / "moved.py").read_bytes() == BASE  # the copy is written

        _held_unwritten(app, accept, None)
        review.outside_changed(["app.py"])
        assert not app.exists()
        assert (root / "moved.py").read_bytes() == BASE


# Write argv[2] over the file in place, keep it open until a line comes on stdin.
def _revert_held_then_accept(review: Review, app: Path, text: bytes,
                             key: tuple[int, int]) -> None:
    """A program writes ``text`` over ``app`` in place and holds it open; the watcher
    sees it (held), the reviewer accepts ``key`` meanwhile (held back); then it closes."""
    with held_open(app, written=text):
        assert review.outside_changed(["app.py"]).held == ["app.py"]
        assert review.decide(key, Decision.accept()).held == ["app.py"]
        assert app.read_bytes() == text


@pytest.mark.parametrize("extra", [b"", b"# mine\n"], ids=["put-back", "put-back-and-a-line"])
def test_an_accept_made_while_a_revert_is_held_is_written_after_it(tmp_path: Path,
                                                                   extra: bytes) -> None:
    """QA pass 82, repro-6: an accept written, then a program puts the file back to the
    original in place (QA pass 83, repro-4: and adds a line of its own) and keeps it open;
    the reviewer accepts a second edit meanwhile (held back, not written). Once the file
    is closed, the first accept goes back to pending (its change was put back), the line
    is kept, and the second, never on disk, stays accepted and is written over it. It
    was taken back too, "put back outside", while the notice had said the accepted
    operations would be written; with the added line it stayed shown accepted and never
    reached the disk (folded into the change kept on top)."""
    turns = [[Ed("app.py", "ALPHA = 1", "ALPHA = 10"),
              Ed("app.py", "    return 1", "    return 2")]]
    session = write_session(tmp_path / "session", turns)
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    a2 = (1, 1)
    reverted = extra + BASE
    with Review.open(session, root) as review:
        review.decide(A1, Decision.accept())
        assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")
        _revert_held_then_accept(review, app, reverted, a2)
        report = review.outside_changed(["app.py"])
        assert [key for key, _ in report.reverted] == [A1]
        assert review.decisions.get(A1, Decision()).verdict is Verdict.PENDING
        assert review.decisions[a2].verdict is Verdict.ACCEPTED
        assert app.read_bytes() == reverted.replace(b"return 1", b"return 2")
        assert review.conflicts == {}
        if not extra:  # (with the line next to it, the kept change clashes with the accept)
            review.undo()  # the take-back undone: the first accept is written again
            assert app.read_bytes() == BASE.replace(b"return 1", b"return 2").replace(
                b"ALPHA = 1", b"ALPHA = 10")


def test_apply_leaves_a_held_file_and_says_so_with_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Headless ``apply`` with a file held open for writing: nothing is written there and
    nothing waits (the command ends), so its operations are "skipped", the exit code is 1
    and the line says to apply again once it is closed. It said "1 of 1 operation
    applied", exit 0, with the file unwritten, under a notice promising a write later."""
    from reviewtui.cli import main

    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    outs: list[tuple[int, str]] = []

    def apply() -> None:
        for extra in ([], ["--json"]):
            capsys.readouterr()
            code = main(["apply", "--yes", "--root", str(root), *extra, str(session)])
            outs.append((code, capsys.readouterr().out))

    _held_unwritten(app, apply, None)
    (code, text), (json_code, doc) = outs
    assert code == 1
    assert json_code == 1
    assert "skipped - app.py is open for writing in another program" in text
    assert "0 of 1 operation applied" in text
    assert "what it saved is taken in" not in text  # a workbench's promise, not apply's
    assert '"held_open": ["app.py"]' in doc.replace("\n", "").replace("  ", "")
    assert app.read_bytes() == BASE
    capsys.readouterr()
    assert main(["apply", "--yes", "--root", str(root), str(session)]) == 0  # closed now
    assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")


def test_open_says_on_quitting_which_accepts_wait_on_a_held_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbench quit while an accepted file was held open elsewhere: the shell it
    returns to says which file is not written yet, and that opening the review again
    writes it (QA pass 83 repro-5: nothing was said); then it does."""
    import reviewtui.ui.app as app_module
    from reviewtui.cli import main

    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"

    class Workbench:  # the reviewer's accept, made while a program holds the file
        def __init__(self, review: Review, **_options: object) -> None:
            self.review = review

        def run(self) -> None:
            _held_unwritten(app, lambda: self.review.decide(A1, Decision.accept()), None)

    monkeypatch.setattr(app_module, "ReviewApp", Workbench)
    assert main(["open", str(session), "--root", str(root)]) == 0
    err = capsys.readouterr().err
    assert (f"reviewtui: {app}: open for writing in another program, so the accepts there "
            "are not written yet; opening this review again writes them") in err
    assert app.read_bytes() == BASE
    with Review.open(session, root):
        pass
    assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")


def test_restore_leaves_a_held_file_and_says_so_with_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``restore --yes`` to checkpoint 0 with the accepted file held open elsewhere: not
    written, a line says to restore again once it is closed, exit 1; then it is."""
    from reviewtui.cli import main

    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    with Review.open(session, root) as review:
        review.decide(A1, Decision.accept())
    accepted = app.read_bytes()
    outs: list[tuple[int, str]] = []
    argv = ["restore", str(session), "--root", str(root), "--checkpoint", "0", "--yes"]

    def restore() -> None:
        capsys.readouterr()
        outs.append((main(argv), capsys.readouterr().out))

    _held_unwritten(app, restore, None)
    [(code, text)] = outs
    assert code == 1
    assert "app.py: open for writing in another program: not written" in text
    assert "what it saved is taken in" not in text
    assert app.read_bytes() == accepted
    capsys.readouterr()
    assert main(argv) == 0
    assert app.read_bytes() == BASE


def test_an_accept_held_back_survives_a_kill_and_is_written_on_reopening(
        tmp_path: Path) -> None:
    """QA pass 83, repro-2: an accept held back by a program holding the file open, the
    review killed, the file closed meanwhile: on reopening the accept was taken back as
    "put back outside" (the replay's finished-writes mark had been written though it held
    the file back). It is written now."""
    import shutil

    from reviewtui.shell.statemark import mark_path

    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    app = root / "app.py"
    review = Review.open(session, root)
    state = review._state_file
    assert state is not None
    kept: dict[str, bytes] = {}

    def accept_then_die() -> None:
        assert review.decide(A1, Decision.accept()).held == ["app.py"]
        kept["state"] = state.path.read_bytes()  # the files as a kill leaves them
        mark = mark_path(state.path)
        kept["mark"] = mark.read_bytes() if mark.exists() else b""
        shutil.copytree(state.blobs.directory, tmp_path / "blobs")

    _held_unwritten(app, accept_then_die, None)
    review.close()
    shutil.rmtree(state.blobs.directory)
    shutil.copytree(tmp_path / "blobs", state.blobs.directory)
    state.path.write_bytes(kept["state"])
    mark_path(state.path).write_bytes(kept["mark"])
    assert app.read_bytes() == BASE
    with Review.open(session, root) as again:
        assert again.decisions[A1].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")
