"""When the cyclic garbage collector runs in the workbench: never under a key.

A long session keeps about a million records alive, most of them frozen once opened and
evaluated (``gc.freeze``: the collector does not walk them). What a key makes is not:
a reject on a 50,000-operation session leaves ~30,000 new records, and the collections
they set off (each a walk of everything not frozen, tens of milliseconds) landed inside
the next keys -- a full one held the event loop for a quarter of a second.

Two rules here:

- While a review job runs, and until the screen has drawn what it did and no new job came
  for :data:`QUIET` seconds, the collector is off (:func:`hold` / :func:`release`, used by
  :class:`~reviewtui.ui.review_jobs.ReviewJobs`). Reference counting still frees what a key
  drops; the walks it owes (and a freeze, below: 50-200 ms on a 50,000-operation session)
  run while the reviewer reads, not in the moment after a key, when the next key of a
  quick run of them comes. So, too, from the workbench's start to its first frame
  (:func:`hold_first_frame`).
- When, between keys, the collector has more than :data:`FREEZE_ABOVE` objects of its own
  to walk (the first decision builds the engine's plan, ~50,000 records; the screen's own
  widgets after the first frame), :func:`idle` collects and freezes them: later walks
  skip them. A freeze also keeps for good whatever of the screen's that dies later in a
  reference cycle (Textual's drawn lines are such cycles; ~1,500 objects a freeze,
  measured), so a per-key freeze grew without end (~236,000 objects after 360 keys):
  here at most :data:`FREEZES` freezes happen in a process, which bounds what can be kept.
"""

from __future__ import annotations

import gc
import sys

FREEZE_ABOVE = 100_000  # objects the collector walks, between keys, before it freezes them
FREEZES = 4  # at most this many freezes here in one process (each keeps ~1,500 objects)
# Seconds from a drawn frame to the collector's walk (and to other work that holds the GIL,
# such as the prefetch): the terminal driver's writer thread sends the frame meanwhile.
AFTER_DRAW = 0.05
# Seconds without a new review job before the collector walks again (and may freeze).
QUIET = 0.5


class _Policy:
    holds = 0  # review jobs (or their drawing) under way
    was_on = False  # whether the collector was on when the first hold came
    freezes_left = FREEZES
    freezes = 0  # done so far (tests)
    base = 0  # objects the collector walked when the workbench started (or at a freeze)
    seen = -1  # collections of the middle generation when :func:`idle` last counted
    first_frame = False  # the hold of :func:`hold_first_frame` is on


policy = _Policy()


def hold() -> None:
    """No collection from now until the matching :func:`release`."""
    if policy.holds == 0:
        policy.was_on = gc.isenabled()
        gc.disable()
    policy.holds += 1


def release() -> None:
    """The end of a :func:`hold`; the last one turns the collector back on (if it was)."""
    if policy.holds == 0:
        return
    policy.holds -= 1
    if policy.holds == 0 and policy.was_on:
        gc.enable()


def release_all() -> None:
    """Every hold ended (the app is closing with a job's drawing still awaited)."""
    policy.first_frame = False
    if policy.holds:
        policy.holds = 1
        release()


def hold_first_frame() -> None:
    """No collection until :func:`first_frame_drawn`: the workbench builds and draws its
    first frame (the screen's widgets and thousands of turn rows, which each walk visited:
    ~0.1 s of a 5,000-turn session's first frame)."""
    if not policy.first_frame:
        policy.first_frame = True
        hold()


def first_frame_drawn() -> None:
    """The end of :func:`hold_first_frame`'s hold (once: the screen and the app both say
    so, whichever comes first ends it)."""
    if policy.first_frame:
        policy.first_frame = False
        release()


def held() -> bool:
    return policy.holds > 0


def _live() -> int:
    """What the process holds, in the interpreter's memory blocks (about one an object).
    Not ``len(gc.get_objects())``: that list takes a reference to every object, also to
    a tuple another thread is building from a generator, whose resize then fails
    (``SystemError: Objects/tupleobject.c: bad argument to internal function``: a
    project check's worker failed so in the suite, 2026-12-07)."""
    return sys.getallocatedblocks()


def start() -> None:
    """The workbench starts: what the collector walks now is not the workbench's (the
    process's own, a test runner's) and does not count towards a freeze."""
    policy.base = _live()


def idle() -> bool:
    """Between keys: freeze what the collector would walk, if the process has grown by more
    than :data:`FREEZE_ABOVE` objects (memory blocks) since :func:`start` or the last
    freeze and freezes are left. True if it froze."""
    if policy.holds or not gc.isenabled() or policy.freezes_left <= 0:
        return False
    # Objects reach the oldest generation only when the middle one is collected: until
    # it has been again, they have not piled up (and counting them all takes ~10 ms).
    middle = gc.get_stats()[1]["collections"]
    if middle == policy.seen:
        return False
    policy.seen = middle
    if _live() - policy.base <= FREEZE_ABOVE:
        return False
    gc.collect()  # what is garbage now is freed, not frozen
    gc.freeze()
    policy.freezes_left -= 1
    policy.freezes += 1
    policy.base = _live()  # (what is frozen now is walked no more)
    return True


def reset(freezes: int = FREEZES) -> None:
    """Forget the holds, the freezes made and the counts (tests; the collector is turned
    back on). The count at the last start goes too: a workbench of an earlier test counted
    more objects than are left after it, and the growth since would read as negative."""
    release_all()
    policy.freezes_left = freezes
    policy.freezes = 0
    policy.base = 0
    policy.seen = -1
