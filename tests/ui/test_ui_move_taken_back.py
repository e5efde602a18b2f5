"""``u`` or ``n`` on an accepted, written ``:mv a.py b.py`` after the user made a new
``a.py``: the user's file stays (a conflict) and so does ``b.py``, the only copy of the
moved file, waiting for ``a.py`` (QA s47 helper-147 H1: ``b.py`` was removed; tmux repro
f_undo_move_loses_file.sh)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, state_at, until

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("key", ["u", "n"])
async def test_taking_an_accepted_move_back_keeps_the_moved_file(
        tmp_path: Path, key: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("precious content\n")
    session = tmp_path / "session.md"
    session.write_text("## Turn 1\n> move\n\n```console\n:mv a.py b.py\n```\n")
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await until(pilot, lambda: state_at(app, 0, 0) is OpState.ACCEPTED)
        assert sorted(p.name for p in root.iterdir()) == ["b.py"]
        (root / "a.py").write_text("my new file\n")
        app.review.outside_changed(["a.py"])  # (the watcher is off)
        await pilot.press(key)
        await until(pilot, lambda: set(app.review.conflicts) == {"a.py", "b.py"})
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert (root / "a.py").read_text() == "my new file\n"
        assert (root / "b.py").read_text() == "precious content\n"
        if key == "u":  # the move's row, pending again, says why each end waits
            view = app.screen.query_one(OpDetail).view
            assert view is not None
            lines = view.explanation.plain.split("\n")
            assert any(line.startswith("b.py: waits for a.py") for line in lines), lines


async def test_u_u_u_on_a_swap_keeps_the_file_whose_path_the_user_holds(tmp_path: Path) -> None:
    """y y y on a swap through tmp.py, the user's line added to a.py, then u u u: the last
    u removed tmp.py, A's only copy, while a.py was in conflict (QA s47 helper-154 H4,
    tmux repro swap_undo_workbench.sh)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("A content\n")
    (root / "b.py").write_text("B content\n")
    session = tmp_path / "session.md"
    session.write_text("## Turn 1\n> swap\n\n```console\n:mv a.py tmp.py\n:mv b.py a.py\n"
                       ":mv tmp.py b.py\n```\n\n### Changed files:\n- a.py\n- b.py\n")
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        for pos in range(3):
            await until(pilot, lambda at=pos: state_at(app, 0, at) is OpState.PENDING)
            await pilot.press("y")
            await until(pilot, lambda at=pos: state_at(app, 0, at) is OpState.ACCEPTED)
            await app.workers.wait_for_complete()
        assert {p.name: p.read_text() for p in root.iterdir()} == {
            "a.py": "B content\n", "b.py": "A content\n"}
        (root / "a.py").write_text("B content\nuser edit\n")
        app.review.outside_changed(["a.py"])  # (the watcher is off)
        for _undo in range(3):
            await pilot.press("u")
            await app.workers.wait_for_complete()
            await pilot.pause()
        disk = {p.name: p.read_text() for p in root.iterdir()}
        assert disk["a.py"] == "B content\nuser edit\n"
        assert "A content\n" in disk.values(), disk
