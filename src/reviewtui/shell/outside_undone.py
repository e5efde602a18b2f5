"""An outside change that took back what an accepted operation wrote, and that alone:
found from the operation's own lines (:func:`undone_outside`), so that taking its accept
back (``outside.take_back``) leaves the disk as the user left it (``git checkout -p``, an
editor saving a buffer read before the accept). Moved out of :mod:`.outside` whole."""

from __future__ import annotations

from reviewtui.core.engine import OpKey
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.diagnostics import edit_span
from reviewtui.core.review.rebase import OutsideLayer, apply_layer, split_lines

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review


def put_back(undo: OutsideLayer | None, data: bytes | None) -> bytes | None:
    """``data`` with a change put back by its text (``undo``, from :func:`undone_outside`);
    None when that does not go."""
    if undo is None or data is None:
        return None
    done = apply_layer(undo, data, excerpt=True)
    return done.data if done.ok and done.data != data else None


def undone_outside(review: Review, key: OpKey, path: str) -> OutsideLayer | None:
    """Whether an outside change kept on top of ``path`` (its layer) undid the change
    that the accepted operation ``key`` made, and that alone of it: its lines are on disk
    as they were before it, while the draft holds its change (``git checkout -p``, an
    editor saving a buffer read before the accept). Its change is put back by its own
    text (:func:`~reviewtui.core.review.rebase.apply_layer`): on disk it must change
    nothing, in the draft it must. That put-back (a layer) when so, else None."""
    record = review._records[path]
    result = review.result(key)
    before, after = result.outcome.before_state, result.outcome.after_state
    layer = record.layer
    if (layer is None or layer.ours is None or layer.theirs is None or not result.landed
            or not isinstance(before, FileState) or not isinstance(after, FileState)
            or before.binary or after.binary):
        return None
    span, shift = edit_span(result), after.line_count - before.line_count
    if span is not None and _on_disk(after, span, shift, layer.theirs):
        return None  # its change and the lines around it are on disk as written
    undo = _undo_of(span, before.data, after.data, shift)
    if _still_there(undo, layer.ours, layer.theirs):
        return None
    # Its lines as they were, with their context, found as they are on disk: undone
    # there. Else its change put back must leave the disk as it is (the outside change
    # also touched the lines around it). The search comes first: a change that only
    # deleted or only inserted lines is put back by a hunk with as little context as
    # its excerpt needs, which the disk's own copy of the lines does not stop.
    if not (undo.theirs and undo.theirs.strip() and b"\n" + undo.theirs in b"\n" + layer.theirs):
        on_disk = apply_layer(undo, layer.theirs, excerpt=True)
        if not (on_disk.ok and on_disk.data == layer.theirs):
            return None
    return undo if put_back(undo, layer.ours) is not None else None


def _still_there(undo: OutsideLayer, ours: bytes, disk: bytes) -> bool:
    """Whether every line the operation wrote (in its excerpt, ``undo.ours``, and not in
    the lines it replaced, ``undo.theirs``) is on disk as often as the review wrote it:
    then the outside change did not undo it, whatever it did around it (QA s34 helper-98
    r61: "import re" put between the accepted "import json" and "import os" read as the
    insertion undone; its accept was taken back and, rejected, its line stayed on disk
    under a "rejected" status)."""
    from collections import Counter

    added = Counter(split_lines(undo.ours or b"")) - Counter(split_lines(undo.theirs or b""))
    written = [line for line in added if line.strip()]
    if not written:
        return False  # it only removed lines (or blank ones): the excerpts decide
    wrote, now = Counter(split_lines(ours)), Counter(split_lines(disk))
    return all(now[line] >= wrote[line] for line in written)


def _undo_of(span: tuple[int, int] | None, before: bytes, after: bytes,
             shift: int) -> OutsideLayer:
    """An operation's change put back, as a layer: around the lines it replaced
    (``span``, 1-based in ``before``) with a few lines of context, not the whole file, so
    that each accept on a long file costs its own lines, not a diff of the file."""
    if span is None:  # a whole-file rewrite: the whole file
        return OutsideLayer(after, before)
    old, new = split_lines(before), split_lines(after)
    lo = max(0, span[0] - 1 - _UNDO_CONTEXT)
    hi = min(len(old), span[1] + _UNDO_CONTEXT)
    return OutsideLayer(b"".join(new[lo : hi + shift]), b"".join(old[lo:hi]))


_UNDO_CONTEXT = 3  # lines each side of a change put back (apply_layer widens as it needs)


def _on_disk(after: FileState, span: tuple[int, int], shift: int, disk: bytes) -> bool:
    """Whether the lines an operation wrote, with their context, occur in ``disk`` as it
    wrote them: one search of the disk's bytes, no line split of either file (an outside
    change elsewhere in a long file with many accepts). False only means "look closer"."""
    lo = max(0, span[0] - 1 - _UNDO_CONTEXT)
    hi = min(after.line_count, span[1] + shift + _UNDO_CONTEXT)
    newline = after.newline
    try:
        excerpt = (newline.join(after.line_view[lo:hi]) + newline).encode()
    except UnicodeEncodeError:
        return False
    return bool(excerpt.strip()) and excerpt in disk
