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


def _restored(tmp_path: Path, capsys: pytest.CaptureFixture[str],
              count: int = 6) -> tuple[Path, list[str], dict[str, str]]:
    """Files f0..f{count-1}, turn 1 editing each, turn 2 editing the first half again;
    applied with a state file. Returns the root, the restore command (without
    --checkpoint/--yes) and each checkpoint's texts as a function of the file."""
    files = {f"f{i}.txt": f"line {i}\n" for i in range(count)}
    session = write_session(tmp_path / "s", [
        [Ed(f"f{i}.txt", f"line {i}", f"T1 {i}") for i in range(count)],
        [Ed(f"f{i}.txt", f"T1 {i}", f"T2 {i}") for i in range(count // 2)]])
    root = make_project(tmp_path / "proj", files)
    state = tmp_path / "st.json"
    code, out, _ = run(["apply", str(session), "--root", str(root), "--yes", "--state",
                        str(state)], capsys)
    assert code == 0, out
    return root, ["restore", str(session), "--root", str(root), "--state", str(state)], files


def _killed_after(monkeypatch: pytest.MonkeyPatch, writes: int, argv: list[str]) -> None:
    """Run ``argv`` and kill it (no close, no save after) once ``writes`` writes are made."""
    import reviewtui.shell.replay as replay

    real, made = replay.atomic_write, []

    def dies(*args: object, **kwargs: object) -> bool:
        if len(made) == writes:
            raise _Killed
        made.append(args[1])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(replay, "atomic_write", dies)
        patched.setattr(Review, "close", lambda self: self._lock.release())
        with pytest.raises(_Killed):
            main(argv)
    assert len(made) == writes


def _texts(root: Path, count: int = 6) -> list[str]:
    return [(root / f"f{i}.txt").read_text() for i in range(count)]


def test_restore_after_a_restore_killed_midway_counts_what_it_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA s34 F5: a restore killed after some of its writes, then a restore to another
    checkpoint. Reopening finishes the killed replay first (so that the saved state always
    explains the disk: going straight to the new checkpoint left it two decisions behind,
    and a second kill then made the review drop its records, QA s35), and those writes
    read as the restore's own ("29 files written" where 19 changed, some twice, the
    preview having said 19). The preview now says a replay is finished first, and the
    restore counts the two apart, each write once."""
    root, restore, _ = _restored(tmp_path, capsys)
    _killed_after(monkeypatch, 2, [*restore, "--checkpoint", "0", "--yes"])
    assert sum(t == f"line {i}\n" for i, t in enumerate(_texts(root))) == 2  # then killed
    code, out, _ = run([*restore, "--checkpoint", "1"], capsys)
    assert code == 2
    assert "a replay was cut short" in out
    assert "finishes that (4 files), then restores" in out
    import reviewtui.shell.replay as replay

    real, writes = replay.atomic_write, []
    monkeypatch.setattr(replay, "atomic_write",
                        lambda *a, **k: writes.append(a[1]) or real(*a, **k))
    code, out, _ = run([*restore, "--checkpoint", "1", "--yes"], capsys)
    assert code == 0, out
    assert "opening the review first finished writing its last decision: 4 files written" in out
    restored = int(out.split("checkpoint 1 restored: ")[1].split(" file")[0])
    assert len(writes) == 4 + restored
    assert out.rstrip().endswith(f"under {root} (4 of them written by that finishing first)")
    assert _texts(root) == [f"T1 {i}\n" for i in range(6)]


def test_two_restores_killed_in_a_row_keep_the_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QA s35 helper-100 (on a first version of the fix above): two restores each killed
    right after saving the state, before their first write, then restores to the last
    checkpoint and to the first. The saved records were dropped as "not what this review
    left there", the accepts taken back, and the restore to checkpoint 0 left the disk at
    the last one."""
    root, restore, files = _restored(tmp_path, capsys, count=2)
    for checkpoint in (0, 1):
        _killed_after(monkeypatch, 0, [*restore, "--checkpoint", str(checkpoint), "--yes"])
    assert _texts(root, 2) == ["T2 0\n", "T1 1\n"]
    code, _, err = run([*restore, "--checkpoint", "2", "--yes"], capsys)
    assert code == 0
    assert "ignored the saved record" not in err
    assert "taken back" not in err
    assert _texts(root, 2) == ["T2 0\n", "T1 1\n"]
    code, out, _ = run([*restore, "--checkpoint", "0", "--yes"], capsys)
    assert code == 0, out
    assert _texts(root, 2) == list(files.values())


@pytest.mark.parametrize("checkpoint", ["99", "-1"])
def test_a_checkpoint_out_of_range_writes_nothing_after_a_kill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    checkpoint: str
) -> None:
    """QA s35 helper-100: after a killed restore, ``--checkpoint 99 --yes`` finished the
    killed replay (20 paths changed) and then refused the checkpoint."""
    root, restore, _ = _restored(tmp_path, capsys)
    _killed_after(monkeypatch, 2, [*restore, "--checkpoint", "0", "--yes"])
    before = _texts(root)
    code, _, err = run([*restore, "--checkpoint", checkpoint, "--yes"], capsys)
    assert code == 2
    assert f"--checkpoint {checkpoint} is outside 0-2" in err
    assert _texts(root) == before
