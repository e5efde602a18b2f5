"""``apply`` runs with the cyclic collector off (the engine's per-version line tuples
hold no cycles) and leaves it as it found it, also when the apply fails."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import reviewtui.cli.commands as commands
from reviewtui.cli import main

FILE = "def f():\n    return 1\n"
SESSION = """\
## Turn 1
--- File: m.py ---
<<<<<<< SEARCH
    return 1
=======
    return 2
>>>>>>> REPLACE

### Changed files:
- (above)
"""


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    root = tmp_path / "proj"
    root.mkdir()
    (root / "m.py").write_text(FILE)
    return session, root


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_off_during_the_apply_and_on_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[bool] = []
    real = commands.diagnose_landed

    def spying(results):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(results)

    monkeypatch.setattr(commands, "diagnose_landed", spying)
    session, root = _setup(tmp_path)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert (root / "m.py").read_text() == "def f():\n    return 2\n"
    assert seen == [False]
    assert gc.isenabled()
    capsys.readouterr()


@pytest.mark.usefixtures("collector_on")
def test_a_failing_apply_turns_the_collector_back_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def failing(results):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setattr(commands, "diagnose_landed", failing)
    session, root = _setup(tmp_path)
    with pytest.raises(RuntimeError, match="boom"):
        main(["apply", str(session), "--root", str(root), "--yes"])
    assert gc.isenabled()
    capsys.readouterr()
