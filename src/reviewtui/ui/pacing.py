"""How a long background thread shares the interpreter with the screen's thread.

Python code runs one thread at a time. A thread that computes for seconds (lint of a
50,000-operation session: ~10 s) keeps the interpreter until it is asked to give it up;
the screen's thread gives it up at every write to the terminal and every wait for input,
and each time waited up to the switch interval (5 ms) to get it back: a key took ~120 ms
instead of ~35 while the lint ran (tmux, 140x45). Three remedies, used together:

- :func:`pause` after each unit of work (a turn): a short sleep hands the interpreter over
  at once to whoever waits for it;
- :func:`quick_switches` around the work: a shorter switch interval, so that a wait in the
  middle of a unit is short too. The interval is the process's, so the first thread in
  lowers it and the last one out puts it back, however they overlap;
- :func:`hold_for_input`: the app calls it for every key and mouse press, and :func:`pause`
  then waits until :data:`INPUT_HOLD` has passed since the last one: what the key sets off
  (its review job, the drawing of the result) runs with the interpreter to itself. The
  work waits while the reviewer types, and goes on in the pauses between.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

PAUSE = 0.0005  # seconds a background thread sleeps after each unit of work
SWITCH = 0.001  # the switch interval while one runs (Python's default: 0.005)
INPUT_HOLD = 0.15  # seconds after a key or click during which background work waits

_lock = threading.Lock()
_users = 0
_saved = 0.0
_held_until = 0.0  # time.monotonic() until which pause() waits (hold_for_input)


def hold_for_input() -> None:
    """A key or click came: background work waits for the next :data:`INPUT_HOLD` seconds
    (at its next :func:`pause`)."""
    global _held_until
    _held_until = time.monotonic() + INPUT_HOLD


def pause() -> None:
    """Let the screen's thread run, if it waits (called between units of work); while
    input is held (:func:`hold_for_input`), wait until the hold is over."""
    time.sleep(PAUSE)
    while (left := _held_until - time.monotonic()) > 0:
        time.sleep(min(left, INPUT_HOLD))


@contextmanager
def quick_switches() -> Iterator[None]:
    """The switch interval at most :data:`SWITCH` while the block runs (and while any other
    thread's block does); then as it was before the first of them."""
    global _users, _saved
    with _lock:
        if _users == 0:
            _saved = sys.getswitchinterval()
            sys.setswitchinterval(min(_saved, SWITCH))
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                sys.setswitchinterval(_saved)
