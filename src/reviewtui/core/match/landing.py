"""What a stage hands back to the cascade: one landing, several places, or nothing."""

from __future__ import annotations

from reviewtui.core.record import record

# The expression differences a stage may forgive, in the order a method name lists them.
INDENTATION = "indentation"
TABS = "tabs-spaces"
TRAILING = "trailing-whitespace"
PUNCTUATION = "unicode-punctuation"
BLANK_LINES = "blank-lines"
KIND_ORDER = (INDENTATION, TABS, TRAILING, PUNCTUATION, BLANK_LINES)


def method_name(kinds: frozenset[str], *, stage: str = "") -> str:
    """``stage`` followed by the forgiven kinds, joined with ``+`` ("exact" when none)."""
    parts = ([stage] if stage else []) + [kind for kind in KIND_ORDER if kind in kinds]
    return "+".join(parts) or "exact"


@record(frozen=True, slots=True)
class Landing:
    """Exactly one place for the edit. ``start``/``end`` are 0-based, end-exclusive."""

    start: int
    end: int
    new_lines: tuple[str, ...]
    kinds: frozenset[str] = frozenset()
    hints: tuple[str, ...] = ()
    similarity: float | None = None  # set by the near stage only


@record(frozen=True, slots=True)
class Ambiguity:
    """Every place a stage found; 0-based, end-exclusive spans."""

    spans: tuple[tuple[int, int], ...]
    kinds: frozenset[str] = frozenset()


@record(frozen=True, slots=True)
class Held:
    """One place, but the edit cannot be written there as meant: refused, ``hint`` says
    why (the REPLACE's new lines join file lines beyond the region that do not show how
    to indent them: ``INDENT_UNKNOWN``)."""

    rule: str
    hint: str
    kinds: frozenset[str] = frozenset()


INDENT_UNKNOWN = "indent-unknown"

Located = Landing | Ambiguity | Held | None
