"""Evaluating line-addressed edits (line ranges, windows, batches) against a tree.

The shapes answer with the matcher's ``MatchResult``, so the outcome, the before/after
states and the proposal are built exactly as for a search/replace edit; decisions,
forcing (the duplicate-line guard) and the ledger work unchanged.

Line numbers address the file as the turn saw it. When earlier operations of the same
turn already landed on the file, plain numbers are placed by where those landed, by
arithmetic (:mod:`reviewtui.core.engine.landings`; in a file the turn made, from the
version it made), or refused (``shifted-lines``) when they name lines one of them
replaced; a tool call's (``literal``: its agent saw the earlier call's result, and may
have counted after it) are refused. A shape written with hash ids only is checked line
by line instead, which is the point of ids. A shape whose expected revision is the file
as it is now was written against these very lines (an agent that read the file again
between calls, ``reviewtui mcp``), so its numbers are not shifted.

"The file as the turn saw it" is the file as the turn's author had it: the earlier turns
as written, every operation landed, and the turn's own moves (they run before its file
blocks: a file moved, renamed or brought back there is counted in as they left it, and
compared with the author's version of it, QA qa77), or the last whole file the
turn wrote there. Where the file the run has differs (an earlier
operation on it rejected, pending or not landed, a change outside the review), plain
numbers are carried there by a line diff when that is exact for the lines they name, else
refused (``shifted-lines``): :mod:`reviewtui.core.engine.authored` (QA s47 helper-147 H5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reviewtui.core.engine.file_edits import (
    FileContext,
    Proposal,
    _edit_outcome,
    _missing,
    check_path,
    refused,
)
from reviewtui.core.model.edit_shapes import (
    STALE_REVISION,
    Batch,
    LineRange,
    Shape,
    Window,
    apply_batch,
    apply_line_range,
    apply_window,
    content_revision,
    revision_matches,
)
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Edit
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import replace as replace_record
from reviewtui.core.text.plural import plural

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.authored import AuthoredFile
    from reviewtui.core.engine.landings import Landing

SHIFTED_LINES = "shifted-lines"
# The file as the turn's author had it (after the turn's moves, or the whole file it wrote,
# when True; else as the turn started: a tool call's), and why the run's may differ
# (asked only then): core/engine/authored.py.
Authored = Callable[[str, bool], "tuple[AuthoredFile, Callable[[], str]]"]


def _numbers_only(edit: Edit) -> bool:
    shape = edit.shape
    if isinstance(shape, Batch):
        refs = [ref for op in shape.ops for ref in (op.first, op.last)]
    elif shape is not None:
        refs = [shape.first, shape.last]
    else:
        refs = []
    return any(ref.tag is None for ref in refs)


def _as_authored(shape: Shape, path: str, edit: Edit, ctx: FileContext,
                 before: FileState | None, current: FileState, authored: Authored | None,
                 ) -> tuple[Shape, str] | Outcome:
    """``shape``'s plain numbers, which name lines of ``path`` as the turn's author had
    it, placed on ``current`` (``before``: the file as the turn's file blocks started,
    after its moves, or a tool call's as the turn started; None: the turn made it), with
    a note saying where they went; or the refusal (``shifted-lines``)."""
    landings = ctx.landed.get(path, ())
    # (the same text is not the same places: an insertion and a deletion below it leave
    # the text as it was with the lines between one down, QA s50's property test: a
    # plain number used as it was rewrote the wrong line, exit 0)
    shifted = before is None or before != current or (bool(landings) and not edit.literal)
    if shifted and edit.literal:
        # (a tool call's agent saw the earlier call's result; in a file the turn made,
        # its numbers stand as they always did)
        if before is None:
            return shape, ""
        return refused(path, SHIFTED_LINES, f"an earlier operation of this turn changed "
                       f"{path}, so line numbers the model read now point at shifted lines; "
                       "put the edits in one batch, or address lines by id",
                       before_state=current)
    note = ""
    origin, made = (before, None) if edit.literal else _counted_from(landings, before, current)
    # (a whole file the turn wrote over one it had: landings.in_turn refuses the numbers,
    # shifted or not, as which of the two versions they count in is not known)
    over = made is not None and before is not None
    if authored is not None and origin is not None and not over:
        from reviewtui.core.engine.authored import bind

        found, differs = authored(path, not edit.literal)
        # (the author's version is the one a whole file of the turn wrote: it is this
        # run's, written with other text, or it did not land here)
        why = found.made and found.made + (
            " was written here with other text" if made is not None
            and found.made.endswith(f"'s {made.title}") else " did not land here")
        bound, note = bind(shape, path, origin, found, (lambda: why) if why else differs)
        if bound is None:
            return refused(path, SHIFTED_LINES, note, before_state=current)
        shape = bound
    if not shifted and not over:
        return shape, note
    from reviewtui.core.engine.landings import in_turn

    placed = in_turn(shape, landings, before, current)
    if isinstance(placed, str):
        return refused(path, SHIFTED_LINES, f"{path} changed earlier in this turn and "
                       f"{placed}: this edit's line numbers name the file as the reply's "
                       "author read it, so it is not applied to whatever stands at them now; "
                       "merge the edits into one, send this one as a SEARCH/REPLACE edit, "
                       "or address lines by id", before_state=current)
    shape, below = placed
    return shape, "; ".join(part for part in (note, below) if part)


def _counted_from(landings: Sequence[Landing], before: FileState | None, current: FileState,
                  ) -> tuple[FileState | None, Landing | None]:
    """The version of a file this turn's numbers count in here (``before``, or the last
    whole file the turn wrote there: landings.in_turn), and that whole file's landing."""
    since = landings[-1].since if landings else 0
    if not since:
        return before, None
    made = landings[since - 1]
    if made.after is not None:
        return made.after, made
    # (a creation records no version: the next edit found it, or it is the file now)
    return (landings[since].before if since < len(landings) else current), made


def evaluate_shaped(
    tree: Tree, edit: Edit, ctx: FileContext, replace: Sequence[str] | None = None,
    *, seen: Tree | None = None, opened: Tree | None = None,
    authored: Authored | None = None,
) -> tuple[Outcome, Proposal | None]:
    """Evaluate ``edit`` (whose ``shape`` is set); ``seen`` is the tree the turn started
    from, ``opened`` the one its file blocks started from (after its moves: what a
    model's numbers count in; a tool call's count in ``seen``), ``authored`` the files as
    the turn's author had them (plain numbers address those:
    :func:`reviewtui.core.engine.authored.bind`)."""
    shape = edit.shape
    assert shape is not None
    checked = check_path(edit.path, ctx, exact=edit.literal, names_file=True)
    if isinstance(checked, Outcome):
        return checked, None
    path = checked
    current = tree.get(path)
    if current is None:
        return _missing(path, ctx), None
    if current.binary:
        return refused(path, "binary", f"{path} is a binary file; it can be moved or removed "
                       "but not text-edited"), None
    expected = shape.expected_revision
    # The revision (a hash of the file's bytes, built for an edited version) only when
    # the shape names one: a plain range or window costs what it changes.
    sent = getattr(shape, "sent", None)
    if (expected is not None and sent is not None and sent.expected_revision is not None
            and not revision_matches(expected, current.digest)
            and revision_matches(sent.expected_revision, current.digest)):
        # Carried past a pending change that is not there (rejected, or not accepted in
        # the disk draft): the file is as the agent read it, its own numbers apply.
        shape, expected = sent, sent.expected_revision
    if expected is not None and not revision_matches(expected, current.digest):
        actual = content_revision(current.data)
        return refused(path, STALE_REVISION, f"{path} changed since the model read it: "
                       f"expected revision {expected}, actual {actual}; the edit is not "
                       "applied to shifted lines: view the file again",
                       before_state=current), None
    counted = seen if edit.literal or opened is None else opened
    before = counted.get(path) if counted is not None else None
    note = ""
    if expected is None and _numbers_only(edit):
        placed = _as_authored(shape, path, edit, ctx, before, current, authored)
        if isinstance(placed, Outcome):
            return placed, None
        shape, note = placed
    lines = current.line_view  # (the shared chunks of an edited version: no whole tuple)
    new_lines = tuple(edit.replace_lines if replace is None else replace)
    if isinstance(shape, LineRange):
        result = apply_line_range(lines, shape, new_lines)
    elif isinstance(shape, Window):
        result = apply_window(lines, shape, edit.search_lines, new_lines, path=path,
                              literal=edit.literal)
    else:
        result = apply_batch(lines, shape)
    outcome, proposal = _edit_outcome(path, current, result, edit.final_newline)
    if result.status is Status.APPLIED:
        message = (f"{result.method} {path}: lines {result.start + 1}-{result.end} -> "
                   f"{plural(len(result.new_lines), 'line')}")
    else:
        message = result.hint or outcome.message
    if note:  # (the numbers were carried into the file as it is now)
        hint = "; ".join(part for part in (outcome.hint, note) if part)
        return replace_record(outcome, message=message, hint=hint), proposal
    return replace_record(outcome, message=message), proposal
