"""The syntax report of landed operations: what a batch of them (an ``apply``) or one
of them (``check``, the statistics) brought into the files it wrote.

The checks themselves are :mod:`reviewtui.core.review.diagnostics`'s; this module decides
what to check so that a large batch costs what it changed: one check per file, against
the file before the batch, lines carried through the engine's own edit spans, and for
long Python files the edited definitions alone when they prove the answer
(:mod:`reviewtui.core.syntax.pycomments`, :mod:`~reviewtui.core.syntax.pyregions`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from reviewtui.core.engine import OpKey, OpResult
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.diagnostics import (
    Diagnostic,
    change_texts,
    check_for,
    diagnose_change,
    diagnose_result,
    edit_span,
)

_REGIONS_FROM = 1_000  # lines: below, apply parses a Python file whole


def introduced(result: OpResult) -> tuple[Diagnostic, ...]:
    """Only the diagnostics this operation introduced. A located edit of a Python file
    proved clean from its lines (as ``apply`` proves its files; in a short file, an edit
    that only adds comments) introduced none, and the file is not parsed: ``check`` asks
    this of every operation (whole parses took ~3 minutes for 50,000 operations)."""
    path, before = result.outcome.path, result.outcome.before_state
    if (path and isinstance(before, FileState) and edit_span(result) is not None
            and check_for(path) == "python" and (text := before.text_unkept()) is not None
            and _no_new_error(path, text, [result], any_size=True)):
        return ()
    return tuple(d for d in diagnose_result(result) if d.introduced)


def diagnose_landed(results: Sequence[OpResult]) -> dict[OpKey, tuple[Diagnostic, ...]]:
    """What a batch of landed operations (in the order they ran) leaves in each file.

    One check per file (:func:`diagnose_chain` of each of :func:`landed_chains`), of its
    last version against the version before the first operation on it (not every
    intermediate version: on a 10,000-line file each parse costs ~0.04 s), given to the
    last operation on it; an error a later operation of the batch fixed is not reported.
    Lines are carried through every edit's own span, so an error already there between
    two edits is not blamed on them. A Python file of 1,000 lines or more is first
    checked by its edits' tokens and edited definitions alone (``core/syntax/pytokens.py``,
    ``pyregions.py``): when they prove nothing new broke, it gets no diagnostics at all
    (``apply`` reports only what the batch introduced).
    """
    out: dict[OpKey, tuple[Diagnostic, ...]] = {}
    for chain in landed_chains(results):
        found = diagnose_chain(chain)
        if found:
            out[chain[-1].key] = found
    return out


def landed_chains(results: Sequence[OpResult]) -> list[list[OpResult]]:
    """The landed operations of each checked file that made a new version of it, in the
    order they ran, a list per file (in the order the files were first written)."""
    chain: dict[str, list[OpResult]] = {}
    checked: dict[str, bool] = {}  # path -> has a check (asked once per file, not per edit)
    for result in results:
        path = result.outcome.path
        if not result.landed or not path:
            continue
        if path not in checked:
            checked[path] = check_for(path) is not None
        if not checked[path]:
            continue
        outcome = result.outcome
        if not isinstance(outcome.after_state, FileState) and not (
                outcome.method == "new-file" and outcome.lines is not None):
            continue  # no new version (what change_texts says, without decoding)
        chain.setdefault(path, []).append(result)
    return list(chain.values())


def diagnose_chain(chain: Sequence[OpResult]) -> tuple[Diagnostic, ...]:
    """What one file's landed operations (one of :func:`landed_chains`) leave in it that
    the file before the first of them did not have; () when nothing."""
    first, result = chain[0], chain[-1]
    path = result.outcome.path
    # The text before the first operation and after the last, nothing between: an
    # intermediate version's text would be built (joined, encoded, decoded) for nothing.
    before = first.outcome.before_state
    opening = before.text if isinstance(before, FileState) else None
    ops = list(chain)
    if opening is not None and _no_new_error(path, opening, ops):
        return ()  # the edited definitions parse, before and after: nothing new
    closing = change_texts(result, before=False)
    if closing is None or closing[2] is None:
        return ()
    carried = _carried(ops) if opening is not None else None
    return tuple(diagnose_change(path, opening, closing[2], carried=carried))


class _Carried(Mapping[int, int]):
    """Where the unchanged lines of a file go through several edits in a row, each
    known by its span and its change in length (the engine's own numbers)."""

    def __init__(self, steps: list[tuple[int, int, int]], count: int) -> None:
        self._steps, self._count = steps, count

    def __getitem__(self, line: int) -> int:
        if not isinstance(line, int) or not 1 <= line <= self._count:
            raise KeyError(line)
        for first, last, shift in self._steps:
            if first <= line <= last:
                raise KeyError(line)  # replaced by this edit
            if line > last:
                line += shift
        return line

    def written(self, line: int) -> bool:
        """Whether ``line`` of the last version is one an edit wrote (no line of the first
        version is carried to it): followed back through the edits, it falls in one's
        replacement."""
        for first, last, shift in reversed(self._steps):
            if first <= line <= last + shift:
                return True
            if line > last + shift:
                line -= shift
        return False

    def __iter__(self) -> Iterator[int]:
        return (n for n in range(1, self._count + 1) if n in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _steps(results: list[OpResult]) -> tuple[list[tuple[int, int, int]], int] | None:
    """Each landed edit of a file as (first, last, shift) -- its span and its change in
    length -- and the line count before the first; None when one of them is not a located
    edit of the version the one before left."""
    steps: list[tuple[int, int, int]] = []
    previous: FileState | None = None
    count = 0
    for result in results:
        span = edit_span(result)
        before = result.outcome.before_state
        after = result.outcome.after_state
        if (span is None or not isinstance(before, FileState)
                or not isinstance(after, FileState)
                or (previous is not None and before is not previous)):
            return None
        if previous is None:
            count = before.line_count
        # line_count, not len(lines): an edited version would build a whole-file tuple.
        steps.append((span[0], span[1], after.line_count - before.line_count))
        previous = after
    return steps, count


def _carried(results: list[OpResult]) -> Mapping[int, int] | None:
    """The line map through a file's landed edits, in order; None when it cannot be
    told from the spans (then it is worked out from the texts, as for a single operation
    without a span)."""
    found = _steps(results)
    return None if found is None else _Carried(*found)


def _no_new_error(path: str, before: str, results: list[OpResult], *,
                  any_size: bool = False) -> bool:
    """Whether the edited definitions alone prove that the last of ``results`` leaves no
    syntax error ``before`` lacked (Python; ``core/syntax/pyregions.py``; lazy text).
    Under ``_REGIONS_FROM`` lines: False, or with ``any_size`` comment edits alone."""
    if check_for(path) != "python":
        return False
    found = _steps(results)
    if found is None:
        return False
    # _steps found a FileState before and after each edit: their lines are already split.
    opening, closing = results[0].outcome.before_state, results[-1].outcome.after_state
    assert isinstance(opening, FileState)
    assert isinstance(closing, FileState)
    short = closing.line_count - (not closing.final_newline) < _REGIONS_FROM
    if closing.binary or (short and not any_size):
        return False  # a small file parses whole in a few milliseconds
    from reviewtui.core.syntax.pycomments import edited_lines_parse  # (regions: if needed)

    return edited_lines_parse(before, opening, closing, found[0], comments_only=short)
