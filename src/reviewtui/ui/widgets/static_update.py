"""Updating a Static without laying out the whole screen when its size cannot change.

``Static.update`` asks for a layout of the screen by default: every widget is placed
and drawn again. On the review screen that is tens of milliseconds of event loop (500 turn
rows, the diff) for a status line or a title that keeps its size. Here the layout is
skipped for a widget of a fixed height whose width does not follow its content, and for
one whose height follows its content (``height: auto``: the operation's subtitle and
explanation) when the new content has as many lines at its width as the old one.
While a review job's result is shown, the explanation keeps its height (``hold_height``):
a shorter one leaves blank lines rather than moving the diff below it.
"""

from __future__ import annotations

from textual.css.scalar import Scalar, Unit
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
    floor = styles.min_height
    if (height.unit is not Unit.AUTO or not size.width or styles.max_height is not None
            or (floor is not None and floor.unit is not Unit.CELLS)):
        widget.update(content)
        return
    widget.update(content, layout=False)
    widget.clear_cached_dimensions()
    lines = widget.get_content_height(size, Size(size.width, size.height), size.width)
    if max(lines, int(floor.value) if floor is not None else 0) != size.height:
        widget.refresh(layout=True)  # its lines changed: what is below it moves


def hold_height(widget: Static, hold: bool) -> None:
    """``hold``: the widget's next content keeps at least its present height (a shorter
    one leaves blank lines: nothing below it moves, no layout); else the floor goes.
    The floor is set as a rule alone, without the layout a style change asks for: it
    matters only if the height changes, and then :func:`update_static` lays out."""
    floor = widget.styles.min_height
    want = Scalar(widget.size.height, Unit.CELLS, Unit.HEIGHT) if (
        hold and widget.is_mounted and widget.size.height) else None
    if want == floor:
        return
    if want is not None:
        widget.styles.set_rule("min_height", want)
        return
    widget.styles.min_height = None  # a layout: the height may now shrink
