"""What is made while the collector is paused is frozen when it comes back: no
collection of the youngest generation walks all of it once more right after (an apply of
191 edits in 10,000-line files spent 25-40 ms there, a tenth of its time)."""

from __future__ import annotations

import gc

import pytest

from reviewtui.shell.loader import gc_paused


@pytest.mark.usefixtures("collector_on")
def test_what_the_pause_made_is_frozen_and_not_walked_after() -> None:
    walks: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            walks.append(info["generation"])

    frozen = gc.get_freeze_count()
    with gc_paused():
        made = [[n] for n in range(20_000)]  # containers the collector tracks
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen + len(made)
    assert gc.get_count()[0] < 1_000
    gc.callbacks.append(note)
    try:
        more = [[n] for n in range(500)]  # under the threshold of a young collection
    finally:
        gc.callbacks.remove(note)
    assert walks == []
    assert len(more) == 500
    made.clear()  # reference counting still frees what was frozen


@pytest.mark.usefixtures("collector_on")
def test_a_pause_inside_a_pause_leaves_the_collector_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
