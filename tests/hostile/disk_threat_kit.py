"""Shared by the disk threat modules: the ``arena`` fixture's shape.

Sessions and projects are written with ``diskkit`` (tests/support), as in the other disk tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol


class Arena(Protocol):
    """The conftest ``arena`` fixture's shape (importing conftest clashes across folders)."""

    root: Path
    work: Path
    canary: Path
    canary_dir: Path
