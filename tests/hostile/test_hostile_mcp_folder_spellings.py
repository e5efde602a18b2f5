"""``remove`` and ``move`` name files by their own names, as ``write`` and ``edit`` do: a
folder's spelling of a file (``Makefile/``, ``README.md//``, ``app.js/.``) is refused and
nothing is recorded (QA pass s32, F12: under ``--gate auto`` each deleted the file at once,
and the session kept the odd spelling)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession


@pytest.mark.parametrize("spelling", ["Makefile/", "Makefile//", "Makefile/.", "Makefile\\",
                                      " Makefile/ "])
def test_a_file_named_as_a_folder_is_neither_removed_nor_moved(tmp_path: Path,
                                                               spelling: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "Makefile").write_text("all:\n\ttrue\n")
    session = tmp_path / "s.jsonl"
    tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    try:
        removed = tools.mutate({"tool": "delete", "path": spelling})
        moved = tools.mutate({"tool": "move", "from": spelling, "to": "GNUmakefile"})
        moved_to = tools.mutate({"tool": "move", "from": "Makefile", "to": "build/"})
    finally:
        tools.live.close()
    for answer in (removed, moved, moved_to):
        assert answer.startswith("error: "), answer
        assert "ends with a slash, so it names a folder" in answer
        assert "nothing was recorded [folder-path]" in answer
    assert (root / "Makefile").read_text() == "all:\n\ttrue\n"
    assert not (root / "GNUmakefile").exists()
    assert not session.exists() or "Makefile" not in session.read_text()
