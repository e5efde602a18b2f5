"""Test-wide setup: snapshot SVGs live in the top-level ``snapshots/`` folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest_textual_snapshot

SNAPSHOT_DIR = Path(__file__).resolve().parents[1] / "snapshots"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


class _TopLevelSVGExtension(pytest_textual_snapshot.SVGImageExtension):  # type: ignore[misc]
    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(SNAPSHOT_DIR / test_location.basename)


# snap_compare looks the extension up on the plugin module at call time.
pytest_textual_snapshot.SVGImageExtension = _TopLevelSVGExtension


def _private_user_folders() -> None:
    """Keep the tests away from the user's own reviewtui settings and state.

    The workbench remembers its layout in ``$XDG_CONFIG_HOME/reviewtui/layout.toml``; a panel
    hidden in a real session must not change what a snapshot test draws, and no test may
    write into the real config or state folders. Each test process gets its own empty ones.
    """
    import atexit
    import os
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="reviewtui-tests-home-"))
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    for name, folder in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")):
        (base / folder).mkdir()
        os.environ[name] = str(base / folder)


_private_user_folders()
