"""Syntax diagnostics in the workbench: the badge on an operation row and the lines under
its explanation. Computed on demand for the operations on screen (cached in the core)."""

from __future__ import annotations

import dataclasses

from reviewtui.core.diagnostics import diagnose_result
from reviewtui.core.engine import OpResult
from reviewtui.core.lint.project_config import CONFIG_WARNING, touches_config
from reviewtui.core.protocol.config import is_config_path
from reviewtui.ui.opview import OpView

BADGE = "!syntax"
CONFIG_BADGE = "!config"


def changes_config(result: OpResult) -> bool:
    """Does the operation write, move or remove a ``reviewtui.toml`` (what runs here)?"""
    return touches_config(result.op) or (
        bool(result.outcome.path) and is_config_path(result.outcome.path))


def op_badge(result: OpResult) -> str:
    """``!syntax`` when the operation leaves its file with a syntax error it introduced,
    ``!config`` when it changes the project's ``reviewtui.toml``."""
    badges = [BADGE] if any(d.introduced for d in diagnose_result(result)) else []
    if changes_config(result):
        badges.append(CONFIG_BADGE)
    return " ".join(badges)


def with_diagnostics(view: OpView, result: OpResult) -> OpView:
    """The view with the file's syntax diagnostics listed after the explanation."""
    if changes_config(result):
        view = _with_config_warning(view)
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


def _with_config_warning(view: OpView) -> OpView:
    text = view.explanation.copy()
    if text.plain:
        text.append("\n\n")
    text.append(f"{CONFIG_BADGE}: this operation {CONFIG_WARNING}.", style="bold red")
    return dataclasses.replace(view, explanation=text)
