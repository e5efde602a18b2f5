"""What the region-check tests (``test_syntax_pyregions*.py``, ``test_syntax_pystatements.py``)
share: the whole-file parse they compare with, and a file edited the way ``apply`` reports
its edits to the check."""

from __future__ import annotations

import symtable
import warnings
from typing import TypeVar

T = TypeVar("T")


def parses(text: str) -> bool:
    """Whether the whole text gets through the parser and the symbol table (the answer the
    region check must never contradict)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(text, "<t>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def edited(base: list[T], edits: list[tuple[int, int, list[T]]]
           ) -> tuple[list[T], list[tuple[int, int, int]]]:
    """``base`` with each ``(at, width, new)`` applied in order (clamped to the file), and
    the steps :func:`reviewtui.core.syntax.pyregions.changes_of` takes: (first, last,
    shift), 1-based, as the engine reports them."""
    lines, steps = list(base), []
    for at, width, new in edits:
        at = min(at, len(lines))
        end = min(at + width, len(lines))
        lines[at:end] = new
        steps.append((at + 1, end, len(new) - (end - at)))
    return lines, steps
