"""Where a markup file's text ends inside an element or section whose end tag it must
have: a sample reply the file shows in a ``<pre>``, a ``<code>``, a ``<textarea>``, a
``<script>`` (a Vue or Svelte component's template literal), a comment or a CDATA section
closes the fence around the file at its own ``` line, and the rest is read as other
blocks (``cut.py``, rule ``cut-off``; QA s50 helper-191: a PHP template's ``<pre>``
showing a reply, the file written cut, exit 0).

HTML lets a document leave many end tags out (``</p>``, ``</li>``, even ``</body>``), but
never these: a whole file (a page, a component, a template) that opens one and stops
before its end tag was cut. Script, style, textarea and title text is raw (what looks
like a tag in it is text) up to its own end tag; ``pre``, ``code`` and ``template`` nest
and hold tags. Template languages' own tags (``{% %}``, ``{{ }}``, ``<% %>``) are left as
text: they hold no such element's end. One forward pass: linear. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_RAW = frozenset({"script", "style", "textarea", "title", "xmp"})
_NESTED = frozenset({"pre", "code", "template", "listing"})
_MARK = re.compile(r"<!--|<!\[CDATA\[|<(/?)(script|style|textarea|title|xmp|pre|code|template"
                   r"|listing)(?=[\s/>])([^<>]*)>", re.I)
_ENDS = {name: re.compile(rf"</{name}\s*>", re.I) for name in _RAW}
_PHP = re.compile(r"<\?(?:php\b|=)?(?:.*?\?>|.*\Z)", re.I | re.S)


def open_markup(lines: Sequence[str], php: bool = False) -> int | None:
    """The index of the line opening the outermost such element, comment or section
    ``lines`` leave open; None when all close. ``php``: the file's ``<?php .. ?>`` code is
    no markup (its own reader reads it)."""
    text = "".join(line + "\n" for line in lines)
    if php:  # (each code section as blanks of its length: offsets and lines kept)
        text = _PHP.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    opened: list[tuple[str, int]] = []  # (name, offset) of the nesting elements open
    pos, end = 0, len(text)
    while pos < end:
        m = _MARK.search(text, pos)
        if m is None:
            break
        start, pos = m.start(), m.end()
        mark = m.group()
        if mark in ("<!--", "<![CDATA["):
            close = text.find("-->" if mark == "<!--" else "]]>", pos)
            if close < 0:
                return _outermost(text, opened, start)
            pos = close + 3
            continue
        name, closing, rest = m.group(2).lower(), m.group(1), m.group(3)
        if closing:
            at = next((k for k in range(len(opened) - 1, -1, -1) if opened[k][0] == name),
                      None)
            if at is not None:  # (an end tag of nothing open: stray, left alone)
                del opened[at:]
        elif rest.rstrip().endswith("/"):
            continue  # (<code/>: empty)
        elif name in _RAW:
            close_tag = _ENDS[name].search(text, pos)
            if close_tag is None:
                return _outermost(text, opened, start)
            pos = close_tag.end()
        else:
            opened.append((name, start))
    return _outermost(text, opened, None)


def _outermost(text: str, opened: list[tuple[str, int]], last: int | None) -> int | None:
    """The line of the outermost open element, else of ``last``; None if neither."""
    at = opened[0][1] if opened else last
    return None if at is None else text.count("\n", 0, at)
