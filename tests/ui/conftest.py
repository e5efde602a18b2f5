"""UI tests run their async Pilot sessions on asyncio through anyio's pytest plugin.

anyio is already installed as a dependency of watchfiles, so no extra test plugin is needed.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
