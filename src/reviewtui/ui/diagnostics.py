"""Syntax diagnostics in the workbench: the badge on an operation row and the lines under
its explanation. Computed on demand for the operations on screen (cached in the core): at
once for small files, in the screen's worker for big ones (``deferred``), so a 10,000-line
file never holds up a key."""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.engine import OpResult
from reviewtui.core.lint.project_config import CONFIG_WARNING, touches_config
from reviewtui.core.model.tree import FileState
from reviewtui.core.protocol.config import is_config_path
from reviewtui.core.record import replace
from reviewtui.core.review.diagnostics import Diagnostic, diagnose_cached, diagnose_result
from reviewtui.ui.opview import OpView

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.text import Text

BADGE = "!syntax"
CONFIG_BADGE = "!config"
SYNC_CHARS = 60_000  # a file before + after up to this is checked on the spot (~ms)
KNOWN_SIZE = 512  # results whose diagnostics are remembered (a screen shows one turn)

# The core's cache is keyed by the texts' digests: finding an entry decodes and hashes the
# file before and after the operation. Every decision re-badges its turn's rows and shows
# an operation, which asked that (several times per row) on the event loop. An ``OpResult``
# never changes, so what the core found for one is remembered here by the object itself
# (held, so its id cannot be reused while the entry lives).
_known: dict[int, tuple[OpResult, tuple[Diagnostic, ...]]] = {}


def _remembered(result: OpResult) -> tuple[Diagnostic, ...] | None:
    """The diagnostics of ``result`` if they are computed already (else None)."""
    hit = _known.get(id(result))
    if hit is not None and hit[0] is result:
        return hit[1]
    found = diagnose_cached(result)
    if found is not None:
        _remember(result, found)
    return found


def _remember(result: OpResult, found: tuple[Diagnostic, ...]) -> None:
    if len(_known) >= KNOWN_SIZE:
        _known.clear()
    _known[id(result)] = (result, found)


def _diagnostics(result: OpResult, *, wait: bool) -> tuple[Diagnostic, ...] | None:
    """The diagnostics of ``result``; None when they are not computed and ``wait`` is
    False and the file is too big to check on the spot (a worker does it)."""
    found = _remembered(result)
    if found is None and (wait or not _too_big(result)):
        found = diagnose_result(result)
        _remember(result, found)
    return found


def _too_big(result: OpResult) -> bool:
    """Too big to check on the spot: the file before or after the operation holds more
    than half of ``SYNC_CHARS`` (a version made by an edit is measured without building
    its bytes, ``FileState.larger_than``)."""
    return any(isinstance(state, FileState) and state.larger_than(SYNC_CHARS // 2)
               for state in (result.outcome.before_state, result.outcome.after_state))


def changes_config(result: OpResult) -> bool:
    """Does the operation write, move or remove a ``reviewtui.toml`` (what runs here)?"""
    return touches_config(result.op) or (
        bool(result.outcome.path) and is_config_path(result.outcome.path))


def deferred(result: OpResult) -> bool:
    """Whether the check of ``result`` is neither cached nor cheap: a worker should run it."""
    return _remembered(result) is None and _too_big(result)


def op_badge(result: OpResult, *, wait: bool = True) -> str:
    """``!syntax`` when the operation leaves its file with a syntax error it introduced
    (with ``wait=False`` a deferred check counts as none for now), ``!config`` when it
    changes the project's ``reviewtui.toml``."""
    badges = []
    found = _diagnostics(result, wait=wait)
    if found and any(d.introduced for d in found):
        badges.append(BADGE)
    if changes_config(result):
        badges.append(CONFIG_BADGE)
    return " ".join(badges)


def with_diagnostics(view: OpView, result: OpResult, *, wait: bool = True) -> OpView:
    """The view with the file's syntax diagnostics listed after the explanation (with
    ``wait=False``, as it is until a deferred check is done)."""
    if changes_config(result):
        view = _with_config_warning(view)
    found = _diagnostics(result, wait=wait)
    if not found:
        return view
    text = view.explanation.copy()
    path = result.outcome.path
    text.append(f"\n\nsyntax check ({found[0].check}) of {path} as this operation leaves it:",
                style="bold")
    from reviewtui.core.syntax.problems import MAX_PROBLEMS  # (loaded with the first check)

    append_findings(text, found, limit=MAX_PROBLEMS)
    marks = frozenset(d.line for d in found if d.introduced and d.line > 0)
    return replace(view, explanation=text, marks=view.marks | marks)


OLD_LINES_SHOWN = 6  # line numbers named in the one line of problems already there


def append_findings(text: Text, found: Sequence[Diagnostic], *, named: bool = False,
                    limit: int | None = None) -> None:
    """List ``found`` under a heading in ``text``: each one the operation introduced on its
    own line (red); those already there before it on their own lines too when there is one,
    else in one dim line that counts them and names their lines. (A grammar that misreads a
    file's macros, jq's ``builtin.c`` say, reports seven problems in valid code, and they
    pushed the diff down on every operation of that file.) ``named``: each line starts
    with the check's name (the project's checks); a finding at line 0 is a note.
    ``limit``: the check kept only the first ``limit`` of each kind, so that many may
    stand for more, and the listing says so."""
    before = [d for d in found if not d.introduced and d.line > 0]
    introduced = sum(1 for d in found if d.introduced and d.line > 0)
    together = len(before) > 1
    for diag in found:
        if diag.line == 0:  # a note: the check could not run
            text.append(f"\n  {diag.check}: {diag.message}", style="yellow")
            continue
        if together and not diag.introduced:
            continue
        style, note = ("red", "introduced by this operation") if diag.introduced else (
            "dim", "already there before it")
        where = f"{diag.check}, line" if named else "line"
        text.append(f"\n  {where} {diag.line}, column {diag.col}: ", style=style)
        text.append(diag.message, style=style)
        text.append(f"  ({note})", style="dim")
    if together:
        lines = sorted({d.line for d in before})
        shown = ", ".join(map(str, lines[:OLD_LINES_SHOWN])) + (
            ", …" if len(lines) > OLD_LINES_SHOWN else "")
        count = (f"{len(before)} or more" if limit is not None and len(before) >= limit
                 else str(len(before)))
        text.append(f"\n  {count} problems already there before it, at lines {shown}",
                    style="dim")
    if limit is not None and introduced >= limit:
        text.append(f"\n  (the first {limit} it introduced are listed; there may be more)",
                    style="dim")


def _with_config_warning(view: OpView) -> OpView:
    text = view.explanation.copy()
    if text.plain:
        text.append("\n\n")
    text.append(f"{CONFIG_BADGE}: this operation {CONFIG_WARNING}.", style="bold red")
    return replace(view, explanation=text)
