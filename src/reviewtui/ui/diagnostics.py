"""Syntax diagnostics in the workbench: the badge on an operation row and the lines under
its explanation. Computed on demand for the operations on screen (cached in the core): at
once for small files, in the screen's worker for big ones (``deferred``), so a 10,000-line
file never holds up a key."""

from __future__ import annotations

from reviewtui.core.engine import OpResult
from reviewtui.core.lint.project_config import CONFIG_WARNING, touches_config
from reviewtui.core.protocol.config import is_config_path
from reviewtui.core.record import replace
from reviewtui.core.review.diagnostics import diagnose_cached, diagnose_result
from reviewtui.ui.opview import OpView

BADGE = "!syntax"
CONFIG_BADGE = "!config"
SYNC_CHARS = 60_000  # a file before + after up to this is checked on the spot (~ms)


def changes_config(result: OpResult) -> bool:
    """Does the operation write, move or remove a ``reviewtui.toml`` (what runs here)?"""
    return touches_config(result.op) or (
        bool(result.outcome.path) and is_config_path(result.outcome.path))


def deferred(result: OpResult) -> bool:
    """Whether the check of ``result`` is neither cached nor cheap: a worker should run it."""
    if diagnose_cached(result) is not None:
        return False
    states = [result.outcome.before_state, result.outcome.after_state]
    size = sum(len(getattr(s, "data", b"")) for s in states)
    return size > SYNC_CHARS


def op_badge(result: OpResult, *, wait: bool = True) -> str:
    """``!syntax`` when the operation leaves its file with a syntax error it introduced
    (with ``wait=False`` a deferred check counts as none for now), ``!config`` when it
    changes the project's ``reviewtui.toml``."""
    badges = []
    if (wait or not deferred(result)) and any(d.introduced for d in diagnose_result(result)):
        badges.append(BADGE)
    if changes_config(result):
        badges.append(CONFIG_BADGE)
    return " ".join(badges)


def with_diagnostics(view: OpView, result: OpResult, *, wait: bool = True) -> OpView:
    """The view with the file's syntax diagnostics listed after the explanation (with
    ``wait=False``, as it is until a deferred check is done)."""
    if changes_config(result):
        view = _with_config_warning(view)
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
    return replace(view, explanation=text, marks=view.marks | marks)


def _with_config_warning(view: OpView) -> OpView:
    text = view.explanation.copy()
    if text.plain:
        text.append("\n\n")
    text.append(f"{CONFIG_BADGE}: this operation {CONFIG_WARNING}.", style="bold red")
    return replace(view, explanation=text)
