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

from reviewtui.core.text.visible import HIDDEN_LETTERS

TAB_SIZE = 4
# Control characters would move the terminal's cursor: show their Unicode pictures.
_CONTROL = {c: 0x2400 + c for c in range(0x20) if c != 0x09} | {0x7F: 0x2421}
# Characters that take no cell or reorder what follows, which the review would otherwise
# show as nothing (the app's last filter drops them before the terminal): a file changed
# to hold one must not look like one that does not. One picture each, so every offset
# into the line (changed words, syntax colours) stays right: a line break JSON and the
# terminal leave alone (NEL, U+2028, U+2029) is "␤"; a C1 control, a bidirectional
# embedding, override, isolate or mark ("Trojan Source"), a zero-width space, word joiner
# or byte order mark, a soft hyphen, an invisible operator, a Hangul filler (drawn blank,
# yet a letter: a JavaScript name no one sees) is "⍰"; a blank that is not a space (a
# no-break space, the typographic spaces, the ideographic space, the blank Braille
# pattern: ``if␣x`` is not ``if x`` to a parser) is "␣". (Zero-width joiners, which shape
# scripts and emoji, stay.)
_NEWLINE, _HIDDEN, _BLANK = 0x2424, 0x2370, 0x2423
_CONTROL |= {c: _HIDDEN for c in range(0x80, 0xA0)} | {
    0x85: _NEWLINE, 0x2028: _NEWLINE, 0x2029: _NEWLINE} | {
    c: _HIDDEN for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F,
                         0x061C, 0x200B, 0x2060, 0xFEFF)} | {
    c: _HIDDEN for c in (*HIDDEN_LETTERS, 0xAD, 0x180E, *range(0x2061, 0x2065),
                         *range(0x206A, 0x2070), *range(0xFFF9, 0xFFFC))} | {
    c: _BLANK for c in (0xA0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000, 0x2800)}


def sanitize(text: str) -> str:
    return text.translate(_CONTROL)


_CONTROL_BUT_NEWLINE = {c: to for c, to in _CONTROL.items() if c != 0x0A}


def sanitize_text(text: str) -> str:
    """:func:`sanitize` for a text of several lines: its line breaks stay."""
    return text.translate(_CONTROL_BUT_NEWLINE)


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
