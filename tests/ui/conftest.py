"""UI tests run their async Pilot sessions on asyncio through anyio's pytest plugin.

anyio is already installed as a dependency of watchfiles, so no extra test plugin is needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import BLOCKS, GALLERY, TOUR, copy_session


@pytest.fixture(autouse=True)
def own_user_config(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbench remembers its layout in the user config folder: every UI test reads
    and writes a fresh one, never the developer's (a module may set its own after)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("user-config")))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def tour(tmp_path: Path) -> tuple[Path, Path]:
    """A temporary copy of the workshop tour: (session folder, project root)."""
    return copy_session(TOUR, tmp_path)


@pytest.fixture
def gallery(tmp_path: Path) -> tuple[Path, Path]:
    """A temporary copy of the UI gallery fixture: one operation per outcome."""
    return copy_session(GALLERY, tmp_path)


@pytest.fixture
def blocks(tmp_path: Path) -> tuple[Path, Path]:
    """A temporary copy of the fixture whose edit has several change blocks."""
    return copy_session(BLOCKS, tmp_path)
