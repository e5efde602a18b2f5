"""What an incremental run knows of a session before evaluating anything: each turn's
operations in execution order with their normalised paths, which paths and folders each
turn names, where the command turns are, and each turn's position by number.

All of it follows from the session alone, not from the base tree, the rules or the
decisions, so every run over one :class:`~reviewtui.core.model.records.Session` object
shares one plan: the review's display and draft runs build it once, not twice. It is built
on first use, so a run that never re-evaluates never pays for it, or a few turns at a time
by a workbench between keys. One thread builds at a time (a job's thread, the loop).
"""

from __future__ import annotations

from _thread import allocate_lock  # (threading itself costs start-up)

from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.order import Step, execution_order, places
from reviewtui.core.engine.touches import Touches
from reviewtui.core.model.records import ConsoleCommand, Session


class SessionPlan:
    """The plan of one session (see the module docstring); :attr:`session` is the
    object it was made for: a grown live session is another object and gets another.

    Built whole on first use, or a few turns at a time (:meth:`build_some`): a
    workbench builds it between keys after the opening's evaluation, so the first
    decision finds it ready (at 50,000 operations it takes ~80 ms, more than a key may
    hold the event loop)."""

    __slots__ = ("_built", "_index", "_lock", "session")

    def __init__(self, session: Session) -> None:
        self.session = session
        self._lock = allocate_lock()
        self._built: _Built | None = None  # the turns built so far
        self._index: Touches | None = None

    def _get(self) -> _Built:
        """The plan of every turn (the rest built now, if need be)."""
        built = self._built
        if built is None or built.done < len(self.session.turns):
            with self._lock:
                built = self._built = self._built or _Built(self.session)
                built.extend(len(self.session.turns))
        return built

    def build_some(self, turns: int) -> bool:
        """Build the plan of ``turns`` more turns (then the path index); True while more
        remains."""
        if self._index is not None:
            return False
        total = len(self.session.turns)
        built = self._built
        if built is None or built.done < total:
            with self._lock:
                built = self._built = self._built or _Built(self.session)
                built.extend(built.done + max(1, turns))
            return True  # more turns, or the path index next
        self.touches  # noqa: B018  (built on first read)
        return False

    @property
    def ready(self) -> bool:
        """Whether everything is built (the steps and the path index)."""
        return self._index is not None

    @property
    def steps(self) -> list[tuple[Step, ...]]:
        """Each turn's steps, in execution order."""
        return self._get().steps

    @property
    def touch(self) -> list[tuple[frozenset[str], frozenset[str]]]:
        """For each turn position: the paths it names and their folders."""
        return self._get().touch

    @property
    def positions(self) -> dict[int, int]:
        """Turn number -> position."""
        return self._get().positions

    @property
    def commands(self) -> list[int]:
        """The positions of the turns holding a console command, ascending."""
        return self._get().commands

    @property
    def touches(self) -> Touches:
        """Which turns name which paths (built on first use, after the steps)."""
        index = self._index
        if index is None:
            built = self._get()
            index = self._index = Touches(built.touch, built.commands)
        return index


class _Built:
    """The plan of the session's first :attr:`done` turns."""

    __slots__ = ("commands", "done", "positions", "session", "steps", "touch", "where")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.steps: list[tuple[Step, ...]] = []
        self.touch: list[tuple[frozenset[str], frozenset[str]]] = []
        self.commands: list[int] = []
        self.positions: dict[int, int] = {}
        self.where = places(normalize_or_none)  # (each distinct path worked out once)
        self.done = 0

    def extend(self, upto: int) -> None:
        """The plan of the turns up to position ``upto`` (exclusive)."""
        turns = self.session.turns
        steps, touch, commands, positions = self.steps, self.touch, self.commands, self.positions
        where = self.where
        nothing: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        for at in range(self.done, min(upto, len(turns))):
            turn = turns[at]
            positions[turn.index] = at
            ops = turn.reply.ops  # (a property that builds the tuple: read once)
            if any(isinstance(op, ConsoleCommand) for op in ops):
                commands.append(at)
                order = execution_order(turn)
            else:
                order = list(enumerate(ops))  # file blocks alone run as written
            row: list[Step] = []
            named: dict[str, tuple[str, ...]] = {}
            for pos, op in order:
                path, above = where(op)
                row.append(Step(pos, op, path, above))
                if path:
                    named[path] = above
            steps.append(tuple(row))
            if not named:
                touch.append(nothing)
                continue
            dirs: set[str] = set()
            for above in named.values():  # (each path's folders once, not each op's)
                dirs.update(above)
            touch.append((frozenset(named), frozenset(dirs)))
        self.done = len(steps)
