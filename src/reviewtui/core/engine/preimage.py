"""A unified hunk with no context (``git diff -U0``) that only adds lines says nothing
about where it goes but its line number. That number is exact when the file is the one the
diff was made from: its blob id is the section's ``index OLD..NEW`` id, once the hunks of
the section before this one are taken back (each found at its own line number with its
own new lines, and replaced by its old lines). git computes the id of the file's bytes;
a checkout with CRLF line endings is stored with LF (git's clean conversion), so that
form is tried too. The id is given abbreviated (seven hex digits and up): a file with
other content has that prefix by chance about once in 2^28. Anything else -- a hunk not
found where it says, another id -- leaves the hunk to the reviewer, as before. Pure."""

from __future__ import annotations

from reviewtui.core.importers.gitbinary import stored_as
from reviewtui.core.model.records import EarlierHunks, Edit
from reviewtui.core.model.tree import FileState

_MIN_ID = 7  # hex digits: git's shortest abbreviation


# States asked lately: (preimage id, the hunks applied over it) -> the state asked about
# and whether it was that preimage with those hunks (what the next hunk of the section
# sees). The next hunk is answered by taking back only the hunk before it and finding that
# very state (the whole proof again for each of 500 additions to a 10,000-line file took
# 2 s; and on a drifted file, where it fails, every hunk with a twin asks it). Keyed by the
# hunks too: another diff of the same file with other hunks before tells nothing here. It
# only spares work: the answer is the one the whole proof gives.
_KNOWN: dict[tuple[str, EarlierHunks], tuple[FileState, bool]] = {}
_KEPT = 8


def preimage_holds(current: FileState, edit: Edit) -> bool:
    """Whether ``current`` is the file ``edit``'s section was diffed from, with the
    section's earlier hunks applied where their line numbers say (``Edit.earlier``)."""
    wanted = edit.preimage.lower()
    if len(wanted) < _MIN_ID or any(c not in "0123456789abcdef" for c in wanted):
        return False
    earlier = edit.earlier
    known = _KNOWN.get((wanted, earlier.before_last())) if earlier else None
    if known is not None and _taken_back(current, *earlier.last()) == known[0]:
        _remember((wanted, earlier), current, known[1])
        return known[1]
    state = _before_section(current, earlier)
    holds = state is not None and stored_as(state.data, wanted)
    _remember((wanted, earlier), current, holds)
    return holds


def _before_section(current: FileState, earlier: EarlierHunks) -> FileState | None:
    """``current`` with the section's earlier hunks taken back: each found at its line
    number with its new lines (taken back), or with its old lines (a hunk the reviewer
    rejected: nothing to take back, and the lines after it sit where its old side leaves
    them; QA s44 helper-136 U1: rejecting one hunk made every later hunk with a twin in
    the file ambiguous). None when a hunk is neither, or when the hunks not there change
    the line count: the line number of the hunk asking (its new side, every earlier hunk
    applied) is then not its place in this file."""
    if current.binary:
        return None
    view = current.line_view
    shift = 0
    landed: list[tuple[int, tuple[str, ...], tuple[str, ...]]] = []
    for at, old, new in earlier:
        here = at + shift
        if 0 <= here <= here + len(new) <= len(view) and tuple(view[here : here + len(new)]) == new:
            landed.append((here, old, new))
        elif 0 <= here <= here + len(old) <= len(view) \
                and tuple(view[here : here + len(old)]) == old:
            shift += len(old) - len(new)
        else:
            return None
    if shift:
        return None
    state: FileState | None = current
    for here, old, new in reversed(landed):
        state = _taken_back(state, here, old, new) if state is not None else None
    return state


def _taken_back(state: FileState, at: int, old: tuple[str, ...],
                new: tuple[str, ...]) -> FileState | None:
    """``state`` with one hunk taken back: its new lines, found at line ``at``, replaced by
    its old lines; None when they are not there."""
    if state.binary or not 0 <= at <= at + len(new) <= state.line_count:
        return None
    if tuple(state.line_view[at : at + len(new)]) != new:
        return None
    return state.splice(at, at + len(new), old)


def _remember(key: tuple[str, EarlierHunks], state: FileState, holds: bool) -> None:
    _KNOWN.pop(key, None)
    _KNOWN[key] = (state, holds)
    while len(_KNOWN) > _KEPT:
        try:  # (the workbench evaluates in a worker too: a cache, never worth a crash)
            del _KNOWN[next(iter(_KNOWN))]
        except (KeyError, RuntimeError, StopIteration):
            break
