"""An edit that can be read at more than one divider: the reading found in the file, or none.

A File Ops edit whose lines between its SEARCH and REPLACE markers hold several
divider-like lines (``=======``: a quoted git conflict, an RST title underline) says
where SEARCH ends only by what the file holds. Each reading is evaluated as an edit of
its own; the one whose SEARCH is found is the edit. When SEARCH is found under more than
one reading, which one the model meant cannot be told, and the edit is refused
(``ambiguous-divider``) rather than written the first way (QA s47 helper-147 H6: the
conflict's own divider was taken, the file ended with more conflict markers, exit 0).
A REPLACE that holds an underline still lands: only its first reading is found.
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Edit, Span
from reviewtui.core.record import replace as replace_record

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.file_edits import Proposal

    Evaluated = tuple[Outcome, Proposal | None]

AMBIGUOUS_DIVIDER = "ambiguous-divider"
# A reading whose SEARCH is not in the file, or is no anchor at all (it ends before the
# first line), is not a reading the file supports; any other outcome is.
_NOT_THERE = frozenset({"empty-search"})


def readings(edit: Edit) -> tuple[Edit, ...]:
    """The edit read at its first divider, then at each of its :attr:`Edit.other_splits`."""
    first = replace_record(edit, other_splits=())
    return (first, *(replace_record(
        first, search_lines=split.search_lines, replace_lines=split.replace_lines,
        search_span=Span(edit.search_span.start, split.line),
        replace_span=Span(split.line, edit.replace_span.end),
    ) for split in edit.other_splits))


def divider_lines(edit: Edit) -> tuple[int, ...]:
    """The source lines (1-based) of the edit's divider-like lines."""
    return (edit.search_span.end, *(split.line for split in edit.other_splits))


def evaluate_readings(edit: Edit, evaluate: Callable[[Edit], Evaluated]) -> Evaluated:
    """``evaluate`` (one edit's evaluation) applied to the reading the file supports."""
    results = [evaluate(reading) for reading in readings(edit)]
    if results[0][0].rule in _NOT_THERE:
        # An empty SEARCH on an existing file: refused as it was. Every later reading's
        # SEARCH starts with this one's, so one is found alone only where this one is not
        # counted (QA s47 helper-154 H2: an RST overline in its REPLACE landed garbled).
        return results[0]
    found = [at for at, (outcome, _) in enumerate(results) if _supported(outcome)]
    lines = divider_lines(edit)
    if len(found) == 1:
        at = found[0]
        outcome, proposal = results[at]
        if at == 0:
            return outcome, proposal
        note = (f"SEARCH read up to the divider on line {lines[at]}: of the "
                f"{len(lines)} lines that can be its '=======', only that reading is "
                "found in the file")
        return replace_record(outcome, message=f"{outcome.message} ({note})"), proposal
    first = results[0][0]
    if not found or all(results[at][0].status is Status.REFUSED
                        and results[at][0].rule == first.rule for at in found):
        return results[0]  # found nowhere, or refused the same way whichever is meant
    where = ", ".join(str(lines[at]) for at in found)
    message = (f"the edit has {len(lines)} lines that can be its '=======' divider (lines "
               f"{', '.join(map(str, lines))}), and SEARCH is found in {first.path} whichever of "
               f"lines {where} ends it: where SEARCH ends cannot be told, so nothing is "
               "applied. Quote no '=======' line in a SEARCH: change such lines "
               "with a line-range edit ('Edit N @ A-B') or send the whole file, fenced")
    return Outcome(Status.REFUSED, rule=AMBIGUOUS_DIVIDER, message=message, path=first.path,
                   before_state=first.before_state), None


def _supported(outcome: Outcome) -> bool:
    return outcome.status is not Status.NOT_FOUND and outcome.rule not in _NOT_THERE
