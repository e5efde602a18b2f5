"""``apply`` and plain line numbers (QA s47 helper-147 H5): turn 2's ``Edit 1 @ 6`` was
written against the file after turn 1 (two imports added). Headless, a turn 1 whose
SEARCH is stale does not land, and turn 2 replaced ``def g():``; now it is refused,
naming turn 1. Applied a turn at a time with no saved state (``--turns 1``, then
``--turns 2`` on the project turn 1 left), the numbers address that project as before,
not the project with turn 1 applied once more."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main

BASE = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n"
SESSION = """## Turn 1
> imports

--- File: a.py ---
Edit 1
<<<<<<< SEARCH
{search}
=======
{search}
import sys
import re
>>>>>>> REPLACE

### Changed files:
- a.py

## Turn 2
> f returns 10

--- File: a.py ---
Edit 1 @ 6
=======
    return 10
>>>>>>> REPLACE

### Changed files:
- a.py
"""


def _project(tmp_path: Path, search: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(BASE)
    session = tmp_path / "session.md"
    session.write_text(SESSION.format(search=search))
    return str(session), root


def test_numbers_after_a_turn_that_did_not_land_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    session, root = _project(tmp_path, "import os.path", monkeypatch)
    assert main(["apply", session, "--root", str(root), "--yes"]) == 1
    assert (root / "a.py").read_text() == BASE
    assert "turn 1's a.py · Edit 1, which did not land" in capsys.readouterr().out


def test_turns_applied_one_at_a_time_address_the_project_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = _project(tmp_path, "import os", monkeypatch)
    assert main(["apply", session, "--root", str(root), "--yes", "--turns", "1"]) == 0
    assert main(["apply", session, "--root", str(root), "--yes", "--turns", "2"]) == 0
    meant = BASE.replace("import os\n", "import os\nimport sys\nimport re\n")
    assert (root / "a.py").read_text() == meant.replace("return 1", "return 10")
