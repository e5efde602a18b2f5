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
