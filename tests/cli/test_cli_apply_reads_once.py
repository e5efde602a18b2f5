"""``apply --root`` reads and parses its session once (the review opens on that very
reading); without ``--root`` the review reads it again against the scratch copy, whose
absolute paths differ. Either way the files written are the same as a plain ``Review``."""

from __future__ import annotations

from pathlib import Path

import pytest

import reviewtui.shell.loader as loader
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

FILE = "def f():\n    return 1\n\n\ndef g():\n    return 3\n"
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

## Turn 2
--- File: m.py ---
<<<<<<< SEARCH
    return 3
=======
    return 4
>>>>>>> REPLACE

### Changed files:
- (above)
"""


def _setup(where: Path) -> tuple[Path, Path]:
    where.mkdir()
    session = where / "s.md"
    session.write_text(SESSION)
    root = where / "proj"
    root.mkdir()
    (root / "m.py").write_text(FILE)
    return session, root


def test_apply_with_a_root_parses_the_session_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    parsed: list[str] = []
    real = loader.import_session

    def counting(text, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(loader, "import_session", counting)
    session, root = _setup(tmp_path / "cli")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert len(parsed) == 1
    capsys.readouterr()
    # The slow path: a review that reads the session itself, every operation accepted.
    slow_session, slow_root = _setup(tmp_path / "slow")
    with Review.open(slow_session, slow_root, persist=False) as review:
        review.decide_many([((turn.index, pos), Decision.accept())
                            for turn in review.session.turns
                            for pos in range(len(turn.reply.ops))])
    assert (root / "m.py").read_bytes() == (slow_root / "m.py").read_bytes()
    assert (root / "m.py").read_text() == FILE.replace("1", "2").replace("3", "4")
