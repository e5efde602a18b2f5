"""Syntax diagnostics in the workbench: the badge on an operation row and the lines under
its explanation. Computed on demand for the operations on screen (cached in the core): at
once for small files, in the screen's worker for big ones (``deferred``), so a 10,000-line
file never holds up a key."""

from __future__ import annotations

import dataclasses

from reviewtui.core.diagnostics import diagnose_cached, diagnose_result
from reviewtui.core.engine import OpResult
from reviewtui.ui.opview import OpView

BADGE = "!syntax"
SYNC_CHARS = 60_000  # a file before + after up to this is checked on the spot (~ms)


def deferred(result: OpResult) -> bool:
    """Whether the check of ``result`` is neither cached nor cheap: a worker should run it."""
    if diagnose_cached(result) is not None:
        return False
    states = [result.outcome.extra.get(k) for k in ("before_state", "after_state")]
    size = sum(len(getattr(s, "data", b"")) for s in states)
    return size > SYNC_CHARS


def op_badge(result: OpResult, *, wait: bool = True) -> str:
    """``!syntax`` when the operation leaves its file with a syntax error it introduced.
    With ``wait=False`` a deferred check answers "" for now."""
    if not wait and deferred(result):
        return ""
    return BADGE if any(d.introduced for d in diagnose_result(result)) else ""


def with_diagnostics(view: OpView, result: OpResult, *, wait: bool = True) -> OpView:
    """The view with the file's syntax diagnostics listed after the explanation (with
    ``wait=False``, as it is until a deferred check is done)."""
    if not wait and deferred(result):
        return view
    found = diagnose_result(result)
    if not found:
        return view
    text = view.explanation.copy()
    path = result.outcome.path
    text.append(f"\n\nsyntax check ({found[0].check}) of {path} as this operation leaves it:",
                style="bold")
    for diag in found:
        style, note = ("red", "introduced by this operation") if diag.introduced else (
            "dim", "already there before it")
        text.append(f"\n  line {diag.line}, column {diag.col}: ", style=style)
        text.append(diag.message, style=style)
        text.append(f"  ({note})", style="dim")
    marks = frozenset(d.line for d in found if d.introduced and d.line > 0)
    return dataclasses.replace(view, explanation=text, marks=view.marks | marks)
