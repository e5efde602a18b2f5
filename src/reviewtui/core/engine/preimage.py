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

import hashlib

from reviewtui.core.model.records import Edit
from reviewtui.core.model.tree import FileState

_MIN_ID = 7  # hex digits: git's shortest abbreviation


def preimage_holds(current: FileState, edit: Edit) -> bool:
    """Whether ``current`` is the file ``edit``'s section was diffed from, with the
    section's earlier hunks applied where their line numbers say (``Edit.earlier``)."""
    wanted = edit.preimage.lower()
    if len(wanted) < _MIN_ID or any(c not in "0123456789abcdef" for c in wanted):
        return False
    state = current
    for at, old, new in reversed(edit.earlier):
        if state.binary or not 0 <= at <= at + len(new) <= state.line_count:
            return False
        if tuple(state.line_view[at : at + len(new)]) != new:
            return False
        state = state.splice(at, at + len(new), old)
    data = state.data
    forms = [data, data.replace(b"\r\n", b"\n")] if b"\r\n" in data else [data]
    return any(hashlib.sha1(b"blob %d\0" % len(form) + form,
                            usedforsecurity=False).hexdigest().startswith(wanted)
               for form in forms)
