"""``reviewtui apply`` on the review's replay path, and ``reviewtui restore``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from diskkit import Ed, Full, make_project, tree_bytes, write_session
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_apply_with_state_then_restore_each_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "proj"
    shutil.copytree(TOUR / "base", root)
    original = tree_bytes(root)
    state = tmp_path / "tour.review.json"
    code, out, _ = run(["apply", str(TOUR), "--root", str(root), "--yes", "--state",
                        str(state)], capsys)
    assert code == 0, out
    assert "12 of 12 operations applied" in out
    applied = tree_bytes(root)
    # Without --yes: the list, an error, and nothing written (not even the state).
    saved = state.read_bytes()
    code, out, err = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "1",
                          "--state", str(state)], capsys)
    assert code == 2
    assert "pass --yes" in err
    assert f"{root / 'CHANGELOG.md'}: would remove" in out
    assert f"{root / 'greeter/core.py'}: would create" in out  # moved back
    assert f"{root / 'greeter/greeting.py'}: would remove" in out
    assert tree_bytes(root) == applied
    assert state.read_bytes() == saved
    code, out, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "1",
                        "--yes", "--state", str(state)], capsys)
    assert code == 0, out
    assert "checkpoint 1 restored" in out
    after_one = tree_bytes(root)
    assert 'return f"Hello, {name}!"' in after_one["greeter/core.py"].decode()
    assert "CHANGELOG.md" not in after_one
    assert "greeter/greeting.py" not in after_one
    code, _, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "0",
                      "--yes", "--state", str(state)], capsys)
    assert code == 0
    assert tree_bytes(root) == original
    code, _, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "5",
                      "--yes", "--state", str(state)], capsys)
    assert code == 0
    assert tree_bytes(root) == applied
    # The workbench resumes what apply decided.
    with Review.open(TOUR, root, state_path=state) as review:
        assert len(review.decisions) == 12
        assert review.disk_checkpoint is None
    # A preview with nothing to change says so and succeeds (it was a usage error).
    code, out, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "5",
                        "--state", str(state)], capsys)
    assert code == 0
    assert "the disk already matches checkpoint 5" in out


def test_restore_with_an_unreadable_state_moves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A preview (or a restore) from a state that cannot be read is refused, and the state
    file stays where it is: it was moved aside, by a preview, found by helper-73."""
    root = tmp_path / "proj"
    shutil.copytree(TOUR / "base", root)
    state = tmp_path / "tour.review.json"
    state.write_text("garbage\n")
    for extra in ([], ["--yes"]):
        code, _, err = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "0",
                            "--state", str(state), *extra], capsys)
        assert code == 2
        assert "cannot be read" in err
        assert "[state]" in err
        assert state.read_text() == "garbage\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "tour.review.json"]


def test_restore_preview_names_the_conflicts_the_restore_leaves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The preview plans as the restore does: a file changed outside on the line a later
    turn wrote is named as a conflict, in the summary too. It was left out ("restore
    rewrites 1 file"), and the --yes run then reported it and exited 1 (found by QA)."""
    session = write_session(tmp_path / "s", [
        [Ed("a.txt", "one", "ONE")],
        [Ed("b.txt", "two", "TWO"), Ed("c.txt", "three", "THREE")],
    ])
    root = make_project(tmp_path / "proj", {"a.txt": "one\n", "b.txt": "two\nkeep\n",
                                            "c.txt": "three\n"})
    state = tmp_path / "st.json"
    code, out, _ = run(["apply", str(session), "--root", str(root), "--yes", "--state",
                        str(state)], capsys)
    assert code == 0, out
    (root / "b.txt").write_text("TWO outside\nkeep\n")  # the line turn 2 wrote
    restore = ["restore", str(session), "--root", str(root), "--checkpoint", "1",
               "--state", str(state)]
    code, out, err = run(restore, capsys)
    assert code == 2
    assert out.splitlines() == [
        f"{root / 'c.txt'}: would rewrite",
        f"{root / 'b.txt'}: would be left in conflict - changed on disk where accepted "
        "operations write; nothing would be written there, the disk version would be "
        "kept as it is"]
    assert "restore rewrites 1 file and leaves 1 file in conflict: pass --yes" in err
    code, out, _ = run([*restore, "--yes"], capsys)
    assert code == 1
    assert f"{root / 'b.txt'}: conflict - changed on disk" in out
    assert "1 file written, 0 removed, 1 conflict" in out
    assert (root / "b.txt").read_text() == "TWO outside\nkeep\n"
    # Only the conflict is left: the preview says so and exits as the restore would.
    code, out, _ = run(restore, capsys)
    assert code == 1
    assert f"{root / 'b.txt'}: would be left in conflict" in out
    assert f"restore writes nothing under {root} and leaves 1 file in conflict" in out
    assert "already matches" not in out
    code, _, _ = run([*restore, "--yes"], capsys)
    assert code == 1


@pytest.mark.parametrize(("extra", "needle"), [
    ([], "no review state at"),
    (["--checkpoint", "9"], "--checkpoint 9 is outside 0-1"),
])
def test_restore_errors_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     extra: list[str], needle: str) -> None:
    session = write_session(tmp_path / "s", [[Ed("a.txt", "a", "b")]])
    root = make_project(tmp_path / "proj", {"a.txt": "a\n"})
    args = ["restore", str(session), "--root", str(root), "--yes"]
    if extra:
        with Review.open(session, root) as review:
            review.decide((1, 0), Decision.accept())
        args += extra
    else:
        args += ["--checkpoint", "0"]
    code, _, err = run(args, capsys)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err


def test_apply_reports_conflicts_with_the_review_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = write_session(tmp_path / "s", [[Ed("a.txt", "a", "b"), Full("n.txt", "new\n")]])
    root = make_project(tmp_path / "proj", {"a.txt": "a\n"})
    state = tmp_path / "st.json"
    code, _, _ = run(["apply", str(session), "--root", str(root), "--yes", "--state",
                      str(state)], capsys)
    assert code == 0
    # Deleted outside while nothing watched; apply again resumes the review and reports it.
    (root / "n.txt").unlink()
    code, out, _ = run(["apply", str(session), "--root", str(root), "--yes", "--state",
                        str(state), "--json"], capsys)
    doc = json.loads(out)
    assert code == 1
    assert doc["conflicts"] == ["n.txt"]
    assert any(m.startswith(f"{root / 'n.txt'}: n.txt was deleted outside the workbench")
               for m in doc["messages"])
    assert not (root / "n.txt").exists()
    assert (root / "a.txt").read_text() == "b\n"


def test_restore_over_files_put_outside_at_a_later_checkpoint_writes_each_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA s34 F1: at checkpoint 1 the files were put outside at their final version (git
    checkout B -- f); restoring the last checkpoint rebased that change over its own
    result and wrote the later turns' inserted lines twice, exit 0. And restore says
    what reopening found on disk (it printed only the restore's own lines)."""
    root = tmp_path / "proj"
    shutil.copytree(TOUR / "base", root)
    state = tmp_path / "tour.review.json"
    assert run(["apply", str(TOUR), "--root", str(root), "--yes", "--state", str(state)],
               capsys)[0] == 0
    applied = tree_bytes(root)
    code, out, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "1",
                        "--yes", "--state", str(state)], capsys)
    assert code == 0, out
    for path, data in applied.items():  # each file the review wrote, at its final version
        if (root / path).exists() and (root / path).read_bytes() != data:
            (root / path).write_bytes(data)
    code, out, _ = run(["restore", str(TOUR), "--root", str(root), "--checkpoint", "5",
                        "--yes", "--state", str(state)], capsys)
    assert code == 0, out
    assert tree_bytes(root) == applied
    assert "changed outside the workbench" in out, out


SIGNER = ("def other():\n    return 1\n\n\ndef signer(app):\n    keys = [app.secret_key]\n\n"
          "    if fallbacks := app.config['FALLBACKS']:\n        keys.extend(fallbacks)\n\n"
          "    return Serializer(keys)\n")


def test_an_insertion_put_outside_before_its_turn_is_restored_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same, where it bit (flask's sessions.py): turn 2 empties a list and appends
    the current key after the fallbacks; the file put at that version outside while the
    disk is at checkpoint 1 got the append twice."""
    root = make_project(tmp_path / "proj", {"s.py": SIGNER})
    session = write_session(tmp_path, [
        [Ed("s.py", "    return 1", "    return 2")],
        [Ed("s.py", "    keys = [app.secret_key]", "    keys = []"),
         Ed("s.py", "        keys.extend(fallbacks)\n\n    return Serializer(keys)",
            "        keys.extend(fallbacks)\n\n    keys.append(app.secret_key)\n"
            "    return Serializer(keys)")]])
    state = tmp_path / "s.review.json"
    assert run(["apply", str(session), "--root", str(root), "--yes", "--state", str(state)],
               capsys)[0] == 0
    final = (root / "s.py").read_bytes()
    assert final.count(b"keys.append") == 1
    assert run(["restore", str(session), "--root", str(root), "--checkpoint", "1", "--yes",
                "--state", str(state)], capsys)[0] == 0
    (root / "s.py").write_bytes(final)  # git checkout B -- s.py
    code, out, _ = run(["restore", str(session), "--root", str(root), "--checkpoint", "2",
                        "--yes", "--state", str(state)], capsys)
    assert code == 0, out
    assert (root / "s.py").read_bytes() == final


def test_a_restore_preview_says_what_opening_will_take_back_and_takes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA s34 F3: the preview said a saved accept "was taken back" (and "is needs
    review"), though it writes nothing and a second preview said it again."""
    root = make_project(tmp_path / "proj", {"s.py": SIGNER})
    session = write_session(tmp_path, [[Ed("s.py", "    return 1", "    return 2")]])
    state = tmp_path / "s.review.json"
    assert run(["apply", str(session), "--root", str(root), "--yes", "--state", str(state)],
               capsys)[0] == 0
    assert run(["restore", str(session), "--root", str(root), "--checkpoint", "0", "--yes",
                "--state", str(state)], capsys)[0] == 0
    (root / "s.py").write_text(SIGNER.replace("    return 1", "    return 3"))  # outside
    saved = state.read_bytes()
    for _ in range(2):
        _, _, err = run(["restore", str(session), "--root", str(root), "--checkpoint", "1",
                         "--state", str(state)], capsys)
        assert ("turn 1, operation 1 (s.py, Edit 1): the saved accept does not land (not "
                "found on the files as they are now); it is taken back when the review is "
                "opened to write") in err, err
        assert state.read_bytes() == saved
    _, _, err = run(["restore", str(session), "--root", str(root), "--checkpoint", "1",
                     "--yes", "--state", str(state)], capsys)
    assert "it was taken back and the operation is pending again" in err, err


class _Killed(BaseException):
    """Stands for a kill -9 between two writes of a replay (nothing after it runs)."""


def test_restore_after_a_restore_killed_midway_writes_each_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA s34 F5: a restore killed after some of its writes, then a restore to another
    checkpoint. Reopening finished the killed replay toward its checkpoint and the restore
    then wrote those files back: "29 files written" where 19 changed, and the preview had
    said 19. Now the checkpoint is pinned as the review opens: one replay, each file
    written at most once, the count the preview's, the disk the checkpoint's."""
    files = {f"f{i}.txt": f"line {i}\n" for i in range(6)}
    session = write_session(tmp_path / "s", [[Ed(f"f{i}.txt", f"line {i}", f"T{t} {i}")
                                              for i in range(6)] if t == 1 else
                                             [Ed(f"f{i}.txt", f"T1 {i}", f"T2 {i}")
                                              for i in range(3)] for t in (1, 2)])
    root = make_project(tmp_path / "proj", files)
    state = tmp_path / "st.json"
    code, out, _ = run(["apply", str(session), "--root", str(root), "--yes", "--state",
                        str(state)], capsys)
    assert code == 0, out
    after = {name: (root / name).read_text() for name in files}
    assert after["f0.txt"] == "T2 0\n"
    assert after["f5.txt"] == "T1 5\n"
    restore = ["restore", str(session), "--root", str(root), "--state", str(state)]
    import reviewtui.shell.replay as replay

    real, written = replay.atomic_write, []

    def dies_after_two(*args: object, **kwargs: object) -> bool:
        if len(written) == 2:
            raise _Killed
        written.append(args[1])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay, "atomic_write", dies_after_two)
    # Killed: no close saves the state after it (the lock dies with the process).
    monkeypatch.setattr(Review, "close", lambda self: self._lock.release())
    with pytest.raises(_Killed):
        main([*restore, "--checkpoint", "0", "--yes"])
    monkeypatch.undo()
    assert len(written) == 2
    on_disk = {name: (root / name).read_text() for name in files}
    assert sum(on_disk[n] == files[n] for n in files) == 2  # the two written back
    # Checkpoint 1: files 0-2 go back to turn 1's text, the two killed writes of files
    # 3-5 to turn 1's too. Each of them is written once.
    code, out, err = run([*restore, "--checkpoint", "1"], capsys)
    assert code == 2
    previewed = [line for line in out.splitlines() if ": would " in line]
    capsys.readouterr()
    writes: list[object] = []
    monkeypatch.setattr(replay, "atomic_write",
                        lambda *a, **k: writes.append(a[1]) or real(*a, **k))
    code, out, _ = run([*restore, "--checkpoint", "1", "--yes"], capsys)
    assert code == 0, out
    assert len(writes) == len(set(writes)) == len(previewed)
    assert f"{len(previewed)} files written, 0 removed" in out
    assert {name: (root / name).read_text() for name in files} == {
        f"f{i}.txt": f"T1 {i}\n" for i in range(6)}
