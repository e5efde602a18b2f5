"""An outcome whose failure diagnosis is worked out when something first reads it.

Telling *why* an edit failed (the closest regions, whether SEARCH is in an earlier
version of the file: ``match/diagnose.py``) costs milliseconds: the stale check reads
every earlier version of the file. Whether it failed costs far less. A reject re-evaluates
every later edit of the rejected file, and the edits that now fail are diagnosed in the
display run; most of those rows are never looked at before the next decision.

:class:`DeferredOutcome` is that outcome with its status and everything the engine reads
(lines, states, cursor, forceable) known, and the three fields the diagnosis fills in
(``candidates``, ``message``, ``hint``) computed by ``explain`` on first read: ``explain``
evaluates the operation again with the diagnosis on, and must give the same outcome in
every other field (the engine's property tests check that it does). The object behaves
as the plain outcome ``explain`` gives: equal to it (either way round), the same hash and
repr, and :func:`~reviewtui.core.record.replace`, ``copy`` and ``pickle`` give plain
outcomes. Reading from two threads at once at worst explains twice, with one result.
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.model.outcome import Outcome

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

_LAZY = ("candidates", "message", "hint")
_FIELDS: tuple[str, ...] = tuple(spec.name for spec in Outcome.__record_fields__)  # type: ignore[attr-defined]
_EAGER = tuple(name for name in _FIELDS if name not in _LAZY)
# The base class's slots (a property below hides three of them; those stay unset).
_SLOT_SETTERS = tuple(Outcome.__dict__[name].__set__ for name in _EAGER)


class DeferredOutcome(Outcome):
    """An :class:`Outcome` whose ``candidates``, ``message`` and ``hint`` come from
    ``explain()`` when first read (see the module doc). Made by :func:`deferred`."""

    __slots__ = ("_explain", "_full")

    _explain: Callable[[], Outcome]
    _full: Outcome | None

    def __new__(cls, *args: Any, **fields: Any) -> Any:
        # What record's replace() (and anything else building from the class) asks for:
        # every field given, so a plain outcome.
        return Outcome(*args, **fields)

    def explained(self) -> Outcome:
        """The plain outcome this one stands for (diagnosed once, then remembered)."""
        full = self._full
        if full is None:
            full = self._explain()
            object.__setattr__(self, "_full", full)
        return full

    @property
    def candidates(self) -> Any:
        return self.explained().candidates

    @property
    def message(self) -> str:
        return self.explained().message

    @property
    def hint(self) -> str:
        return self.explained().hint

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash(self.explained())

    def __reduce__(self) -> tuple[Callable[[Outcome], Outcome], tuple[Outcome]]:
        return _same, (self.explained(),)


def deferred(quick: Outcome, explain: Callable[[], Outcome]) -> Outcome:
    """``quick`` (an outcome without its diagnosis) with ``candidates``, ``message`` and
    ``hint`` taken from ``explain()`` when first read."""
    made: DeferredOutcome = object.__new__(DeferredOutcome)
    for name, setter in zip(_EAGER, _SLOT_SETTERS, strict=True):
        setter(made, getattr(quick, name))
    object.__setattr__(made, "_explain", explain)
    object.__setattr__(made, "_full", None)
    return made


def _values(outcome: Outcome) -> tuple[object, ...]:
    return tuple(getattr(outcome, name) for name in _FIELDS)


def _same(outcome: Outcome) -> Outcome:
    return outcome
