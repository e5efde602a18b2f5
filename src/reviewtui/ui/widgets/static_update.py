"""Updating a Static without laying out the whole screen when its size cannot change.

``Static.update`` asks for a layout of the screen by default: every widget is placed
and drawn again. On the review screen that is tens of milliseconds of event loop (500 turn
rows, the diff) for a status line or a title that keeps its size. Here the layout is
skipped for a widget of a fixed height whose width does not follow its content, and for
one whose height follows its content (``height: auto``: the operation's subtitle and
explanation) when the new content has as many lines at its width as the old one.
"""

from __future__ import annotations

from textual.css.scalar import Unit
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import Static


def update_static(widget: Static, content: VisualType = "") -> None:
    """``widget.update(content)``; without a screen layout if it has a fixed number of
    lines, or keeps its number of lines, and its width does not follow its content
    (nothing can move)."""
    styles = widget.styles
    width, height = styles.width, styles.height
    if (not widget.is_mounted or height is None
            or (width is not None and width.unit is Unit.AUTO)):
        widget.update(content)
        return
    if height.unit is Unit.CELLS:
        widget.update(content, layout=False)
        widget.clear_cached_dimensions()  # measured for the old content (a layout clears them)
        return
    size = widget.size
    if (height.unit is not Unit.AUTO or not size.width or styles.min_height is not None
            or styles.max_height is not None):
        widget.update(content)
        return
    widget.update(content, layout=False)
    widget.clear_cached_dimensions()
    if widget.get_content_height(size, Size(size.width, size.height), size.width) != size.height:
        widget.refresh(layout=True)  # its lines changed: what is below it moves
