"""Updating a Static without laying out the whole screen when its size cannot change.

``Static.update`` asks for a layout of the screen by default: every widget is placed
and drawn again. On the review screen that is tens of milliseconds of event loop (500 turn
rows, the diff) for a status line or a title that keeps its size. Here the layout is
skipped for a widget of a fixed height whose width does not follow its content.
"""

from __future__ import annotations

from textual.css.scalar import Unit
from textual.visual import VisualType
from textual.widgets import Static


def update_static(widget: Static, content: VisualType = "") -> None:
    """``widget.update(content)``; without a screen layout if it has a fixed number of
    lines and its width does not follow its content (nothing can move)."""
    styles = widget.styles
    width, height = styles.width, styles.height
    if (not widget.is_mounted or height is None or height.unit is not Unit.CELLS
            or (width is not None and width.unit is Unit.AUTO)):
        widget.update(content)
        return
    widget.update(content, layout=False)
    widget.clear_cached_dimensions()  # measured for the old content (a layout clears them)
