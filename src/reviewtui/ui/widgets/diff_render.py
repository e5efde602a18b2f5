"""Rendering helpers shared by the diff widgets (``DiffView``, ``BlockPicker``).

Outside text goes through :func:`sanitize` before it is drawn; styles from component
classes are split into the layer each widget paints (:func:`fg`, :func:`bg`); and
:func:`text_strip` turns a ``Text`` into a ``Strip`` keeping its own style.
"""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

TAB_SIZE = 4
# Control characters would move the terminal's cursor: show their Unicode pictures.
_CONTROL = {c: 0x2400 + c for c in range(0x20) if c != 0x09} | {0x7F: 0x2421}


def sanitize(text: str) -> str:
    return text.translate(_CONTROL)


def fg(style: Style) -> Style:
    """The foreground layer of ``style``: colour and weight, no background."""
    return Style(color=style.color, bold=style.bold, italic=style.italic, dim=style.dim)


def bg(style: Style, *, bold: bool = False) -> Style:
    """The background layer of ``style`` (and its boldness, when ``bold``)."""
    return Style(bgcolor=style.bgcolor, bold=style.bold) if bold else Style(
        bgcolor=style.bgcolor)


def as_style(style: str | Style) -> Style:
    return style if isinstance(style, Style) else Style.parse(style)


def text_strip(text: Text, console: Console) -> Strip:
    """``text`` as a strip. Text.render drops the text's own style when it has no spans:
    it is applied here."""
    if not text.spans:
        return Strip([Segment(text.plain, as_style(text.style))], text.cell_len)
    return Strip(text.render(console), text.cell_len)
