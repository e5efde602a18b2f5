"""Updating a Static without laying out the whole screen when its size cannot change.

``Static.update`` asks for a layout of the screen by default: every widget is placed
and drawn again. On the review screen that is tens of milliseconds of event loop (500 turn
rows, the diff) for a status line or a title that keeps its size. Here the layout is
asked for only when the widget's size may change: its width follows its content, or its
height does and the new content's height differs from the laid-out one.
"""

from __future__ import annotations

from typing import cast

from textual.css.scalar import Unit
from textual.css.styles import RulesMap
from textual.visual import VisualType
from textual.widgets import Static


def update_static(widget: Static, content: VisualType = "") -> None:
    """``widget.update(content)``, with a screen layout only if its size may change."""
    styles = widget.styles
    width, height = styles.width, styles.height
    if not widget.is_mounted or widget.size.area == 0 or (
            width is not None and width.unit is Unit.AUTO):
        widget.update(content)
        return
    if height is not None and height.unit is Unit.CELLS:
        widget.update(content, layout=False)  # a fixed number of lines: nothing moves
        return
    shown = widget.content_size
    widget.update(content, layout=False)
    if widget.visual.get_height(cast(RulesMap, styles), shown.width) != shown.height:
        widget.refresh(layout=True)
