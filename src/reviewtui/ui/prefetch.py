"""What the next operation's view needs, made while the reviewer reads this one.

Showing an operation for the first time parses its file for the symbol hints (the
header's "in class Store › def add", the collapsed rows' labels), runs its syntax check
and highlights the lines of its diff: ~10 ms of the event loop on a 400-line file, more
on a bigger one. After ``y`` or ``n`` the cursor moves to the next undecided operation,
so that work sat between the key and the screen. The review screen asks for it here,
in a worker, for the operation a decision would move to, once the current one is drawn:
by the time the key comes, it is in the caches the view reads (each keyed by content,
so a prefetch made for a file that the decision then changes is simply not used).
"""

from __future__ import annotations

from reviewtui.core.engine import OpResult
from reviewtui.core.review.diagnostics import diagnose_result
from reviewtui.ui.highlight import highlight_lines
from reviewtui.ui.opview import build_view, warm_symbols


def warm(result: OpResult) -> None:
    """Fill the caches the view of ``result`` reads (for a worker thread)."""
    warm_symbols(result)
    diagnose_result(result)
    for pane in build_view(result).panes[:1]:  # the pane shown first
        highlight_lines(pane.path, "\n".join(pane.before))
        highlight_lines(pane.path, "\n".join(pane.after))
