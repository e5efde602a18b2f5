"""Syntax diagnostics in the workbench: the badge on an operation row and the lines under
its explanation. Computed on demand for the operations on screen (cached in the core)."""

from __future__ import annotations

import dataclasses

from reviewtui.core.diagnostics import diagnose_result
from reviewtui.core.engine import OpResult
from reviewtui.ui.opview import OpView

BADGE = "!syntax"


def op_badge(result: OpResult) -> str:
    """``!syntax`` when the operation leaves its file with a syntax error it introduced."""
    return BADGE if any(d.introduced for d in diagnose_result(result)) else ""


def with_diagnostics(view: OpView, result: OpResult) -> OpView:
    """The view with the file's syntax diagnostics listed after the explanation."""
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
