"""The threat suite: every promise in the README, attacked.

Each module is named for a class of threat (``test_hostile_<threat>.py``) and each test for one
attack. Path attacks use the ``arena`` fixture: a project root with a canary file and a canary
folder beside it, checked byte for byte after the attack; sessions and state files go in
``arena.work`` (also beside the root, not checked).

Test module names must be unique across ``tests/`` (there are no ``__init__.py`` files).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass
class Arena:
    """A project root with canaries outside it."""

    base: Path
    root: Path
    canary: Path
    canary_dir: Path
    work: Path  # sessions, state files, anything a test writes on purpose outside the root

    def outside_fingerprint(self) -> dict[str, str]:
        """Path -> kind and content hash of everything beside the root (not inside it)."""
        seen: dict[str, str] = {}
        for dirpath, dirnames, filenames in os.walk(self.base, followlinks=False):
            here = Path(dirpath)
            if any(here == d or d in here.parents for d in (self.root, self.work)):
                dirnames[:] = []  # not walked at all: a test may build a very deep tree there
                continue
            for name in [*dirnames, *filenames]:
                path = here / name
                if path in (self.root, self.work):
                    continue
                rel = str(path.relative_to(self.base))
                if path.is_symlink():
                    seen[rel] = "link:" + os.readlink(path)
                elif path.is_file():
                    st = path.stat()
                    digest = hashlib.sha256(path.read_bytes()).hexdigest()
                    seen[rel] = f"file:{st.st_mode:o}:{digest}"
                else:
                    seen[rel] = f"dir:{path.stat().st_mode:o}"
        return seen


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    """Yield an arena; after the test, nothing outside the root may have changed."""
    root = tmp_path / "project"
    root.mkdir()
    canary = tmp_path / "canary.txt"
    canary.write_bytes(b"canary: must never change\n")
    canary_dir = tmp_path / "outside_dir"
    canary_dir.mkdir()
    (canary_dir / "target.txt").write_bytes(b"outside\n")
    work = tmp_path / "work"
    work.mkdir()
    made = Arena(tmp_path, root, canary, canary_dir, work)
    before = made.outside_fingerprint()
    yield made
    assert made.outside_fingerprint() == before, "something outside the project root changed"
