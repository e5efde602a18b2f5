"""``reviewtui check`` of a live agent session after it was written (QA pass 84a): the
disk holds the session's result, so every edit it wrote read as not found there. It is
checked against the files as they were before the review wrote them."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession


def _check(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", *argv])
    return code, out.getvalue()


def _auto_tools(tmp_path: Path, text: str) -> AgentTools:
    """A live session under ``--gate auto`` over a root holding ``a.py`` (``text``)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(text)
    return AgentTools(LiveSession(root, tmp_path / "live.jsonl", gate=Gate.AUTO, wait=0))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_of_a_written_live_session_reads_the_files_before_it(tmp_path: Path) -> None:
    tools = _auto_tools(tmp_path, "a = 1\nb = 2\nc = 3\n")
    root, session = tools.root, tools.live.session
    for n, (search, replace) in enumerate((("a = 1", "a = 10"), ("c = 3", "c = 30"))):
        answer = tools.mutate({"tool": "edit", "path": "a.py", "search": search,
                               "replace": replace}, f"edit {n}")
        assert answer.startswith("applied"), answer
    tools.mutate({"tool": "write", "path": "new.py", "content": "n = 1\n"}, "new")
    tools.live.close()
    assert (root / "a.py").read_text() == "a = 10\nb = 2\nc = 30\n"
    before = _snapshot(tmp_path)

    code, out = _check(str(session), "--root", str(root))
    assert code == 0, out
    assert "note: checked against the files as they were before the review" in out
    assert out.splitlines()[-1].startswith("3 turns, 3 operations: 3 apply, 0 fail"), out
    assert "not_found" not in out
    assert _snapshot(tmp_path) == before  # check wrote nothing: project, state, blobs

    # --from-disk: the disk as it is, where the edits are found no more.
    code, out = _check(str(session), "--root", str(root), "--from-disk")
    assert code == 1, out
    assert "not_found" in out
    assert "checked against the files as they were" not in out
    assert _snapshot(tmp_path) == before


def test_check_names_the_files_changed_on_disk_since_the_review(tmp_path: Path) -> None:
    """QA pass s28 (helper-88 O1): checked against the files as the review left them,
    ``check`` said an edit applies where ``apply`` on the disk as it is now would not find
    it, and the note did not say the disk had changed: it now names those files."""
    tools = _auto_tools(tmp_path, "a = 1\nb = 2\n")
    root, session = tools.root, tools.live.session
    answer = tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                           "replace": "a = 10"}, "edit")
    assert answer.startswith("applied"), answer
    tools.mutate({"tool": "write", "path": "new.py", "content": "n = 1\n"}, "new")
    tools.live.close()
    code, out = _check(str(session), "--root", str(root))
    assert code == 0, out
    assert "changed on disk since that review" not in out  # nothing changed yet
    (root / "a.py").write_text("a = 99\nb = 2\n")  # changed outside since
    code, out = _check(str(session), "--root", str(root))
    assert code == 0, out
    note = next(line for line in out.splitlines() if line.startswith("note: checked against"))
    assert "; a.py changed on disk since that review (--from-disk" in note, note
    assert "new.py" not in note


def test_check_of_a_review_saved_for_another_project_checks_the_disk(tmp_path: Path) -> None:
    tools = _auto_tools(tmp_path, "a = 1\n")
    session = tools.live.session
    assert tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                         "replace": "a = 2"}, "edit").startswith("applied")
    tools.live.close()
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.py").write_text("a = 2\n")
    code, out = _check(str(session), "--root", str(other))
    assert code == 1, out
    assert "was saved for another project" in out
    assert "not_found" in out


def test_status_after_a_kill_between_the_save_and_the_writes_says_not_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA pass 84a: the writer killed after saving an accept and before writing it.
    ``status`` said "accepted" while the disk held the old text, until the review was
    opened again (which finishes the writes). The kill: the replay's writes raise."""
    import reviewtui.shell.replay as replay

    class Killed(BaseException):
        pass

    really = replay.write

    def killed(review: object, changes: list[object], *rest: object) -> set[str]:
        if changes:  # (opening writes nothing: that goes on)
            raise Killed
        return really(review, changes, *rest)  # type: ignore[arg-type]

    tools = _auto_tools(tmp_path, "z = 1\na = 1\n")
    root = tools.root
    # An earlier accept of the same file, written before the kill: it is on disk.
    assert tools.mutate({"tool": "edit", "path": "a.py", "search": "z = 1",
                         "replace": "z = 0"}, "edit").startswith("applied")
    with monkeypatch.context() as patched:
        patched.setattr(replay, "write", killed)
        with pytest.raises(Killed):
            tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                          "replace": "a = 2"}, "edit")
    assert (root / "a.py").read_text() == "z = 0\na = 1\n"
    status = tools.status().splitlines()
    assert status[0] == "op 1.1 edit a.py: accepted"  # (QA pass s28: "not written" too)
    assert status[1].startswith("op 1.2 edit a.py: accepted, not written yet"), status
    diff = tools.diff()
    assert "+a = 2" in diff
    assert diff.splitlines()[-1].startswith("a.py: not written yet"), diff
    # Reopened as the writer, the review finishes the writes; then it is plain accepted.
    with tools.live.open_review(write=True):
        pass
    assert (root / "a.py").read_text() == "z = 0\na = 2\n"
    assert tools.status().splitlines() == ["op 1.1 edit a.py: accepted",
                                           "op 1.2 edit a.py: accepted"]
    assert "not written yet" not in tools.diff()
    tools.live.close()


def _applied_with_state(tmp_path: Path, search: str) -> tuple[Path, Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("a = 1\nb = 2\n")
    session = tmp_path / "s.md"
    session.write_text(f"## Turn 1\n--- File: a.py ---\n<<<<<<< SEARCH\n{search}\n=======\n"
                       "a = 10\n>>>>>>> REPLACE\n\n### Changed files:\n- a.py\n")
    state = tmp_path / "s.md.review.json"
    with contextlib.redirect_stdout(io.StringIO()):
        main(["apply", "--yes", "--root", str(root), "--state", str(state), str(session)])
    return root, session, state


def test_check_of_a_review_that_wrote_nothing_says_nothing_of_it(tmp_path: Path) -> None:
    """QA pass s28 (F4): the note "checked against the files as they were before the review
    ... wrote to them" came for a review that wrote nothing (the bases compared by object)."""
    root, session, _ = _applied_with_state(tmp_path, "no such line")
    assert (root / "a.py").read_text() == "a = 1\nb = 2\n"
    code, out = _check(str(session), "--root", str(root))
    assert code == 1, out
    assert "note:" not in out


@pytest.mark.parametrize("planted", ["fifo", "folder", "dangling-link", "link-to-state",
                                     "not-json", "too-deep"])
def test_check_never_stops_on_a_review_state_it_cannot_read(
        tmp_path: Path, planted: str) -> None:
    """QA pass s28 (F5): by kind, such a state was skipped silently, said in a note, or
    stopped check with exit 2. check needs no state: each is a note, and the disk."""
    import os

    root, session, state = _applied_with_state(tmp_path, "a = 1")
    assert (root / "a.py").read_text() == "a = 10\nb = 2\n"
    saved = state.read_bytes()
    state.unlink()
    if planted == "fifo":
        os.mkfifo(state)
    elif planted == "folder":
        state.mkdir()
    elif planted == "dangling-link":
        state.symlink_to(tmp_path / "nowhere.json")
    elif planted == "link-to-state":
        (tmp_path / "elsewhere.json").write_bytes(saved)
        state.symlink_to(tmp_path / "elsewhere.json")
    elif planted == "not-json":
        state.write_text("{not json")
    else:
        state.write_text("[" * 100_000 + "]" * 100_000)
    code, out = _check(str(session), "--root", str(root))
    assert code == 1, out  # checked against the disk, where the edit is found no more
    assert f"note: the review state {state} cannot be read" in out, out
    assert "not_found" in out


def test_status_of_an_accept_whose_file_was_deleted_outside_says_so(tmp_path: Path) -> None:
    """QA pass s28 (F9): status answered "accepted" while the file was gone and diff said
    nothing was accepted and written."""
    tools = _auto_tools(tmp_path, "a = 1\n")
    root = tools.root
    assert tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                         "replace": "a = 2"}, "edit").startswith("applied")
    (root / "a.py").unlink()
    assert tools.status() == ("op 1.1 edit a.py: accepted, not on disk: the file was deleted "
                              "outside the review; the reviewer settles it")
    assert not (root / "a.py").exists()
    tools.live.close()
