"""Fixtures for the disk-side tests (helpers live in diskkit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reviewtui.shell.review import Review


@pytest.fixture
def opened() -> Iterator[list[Review]]:
    """Reviews to close at teardown, so a failing test does not leave a lock held."""
    reviews: list[Review] = []
    yield reviews
    for review in reviews:
        review.close()
