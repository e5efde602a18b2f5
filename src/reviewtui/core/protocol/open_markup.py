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
and hold tags. Such a tag is read as a browser reads it: a value quoted after its ``=``
runs to its closing quote, over lines and ``>`` too. Where a browser and this reading may
part (a ``<`` inside a tag, a bogus comment ``<!x ..>``), each way is read, and the file
is open if one says so; and a text a browser reads as ending inside such a tag or a
comment is open. A Svelte or Astro component's ``{..}`` expressions are read as
JavaScript (a template literal left open in one). A template language's own tags,
comments and blocks are read by ``open_templates.py``: code, not markup. A few forward
passes: linear. Pure.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence

from reviewtui.core.protocol.open_literals import CodeBlock, open_code_block

_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "docs", "i18n"})
_NESTING = frozenset({"pre", "code", "template", "listing", "noscript"})
_NAMES = "script|style|textarea|title|xmp|docs|i18n|pre|code|template|listing|noscript"
# where such an element's tag, a comment, a CDATA section or a bogus comment starts
START = re.compile(rf"<!--|<!\[CDATA\[|<[!?]|<(/?)({_NAMES})(?=[\s/>])", re.I)
BOGUS = re.compile(r"<(?:!(?!--|\[CDATA\[)|\?)")
# in a tag: a value quoted after its "=", an expression (Svelte, Astro), its ">" (any
# other quote is a character of a name, as a browser reads it), a "<"
_IN_TAG = re.compile(r"=\s*([\"'])|[<>{]")
_PLAIN_TAG = re.compile(r"[^\"'=<>{]*+(?:=(?!\s*[\"'])[^\"'=<>{]*+)*+>")  # (none of them)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_ENDS = {name: re.compile(rf"</{name}\s*>", re.I) for name in _RAW}
_PHP = re.compile(r"<\?(?:php\b|=)?(?:.*?\?>|.*\Z)", re.I | re.S)
# (a component's name in mixed case, <Code>, or a type's, IEnumerable<Style>, is no
# element where components are: elsewhere HTML's names are read in any case, QA s50
# helper-204's <Pre>)
_COMPONENTS = (".vue", ".svelte", ".astro", ".jsx", ".tsx", ".cshtml", ".razor")
# (a Svelte or Astro component's {..} is code: read as JS, Astro's with its JSX)
_EXPRESSIONS = {".svelte": "js", ".astro": "jsx"}
_EXPRESSION_STOPS = re.compile(r"<!--|<([A-Za-z][\w:.-]*)|\{")
_NO_TAG = -2


def open_markup(lines: Sequence[str], php: bool = False, path: str = "") -> int | None:
    """The index of the line opening the outermost such element, comment or section
    ``lines`` leave open; None when all close. ``php``: the file's ``<?php .. ?>`` code is
    no markup (its own reader reads it); an Astro component's frontmatter is read as
    TypeScript; template tags are read by the file's name (``open_templates.py``)."""
    text = "".join(line + "\n" for line in lines)
    if php:  # (each code section as blanks of its length: offsets and lines kept)
        text = _PHP.sub(blank, text)
    if path.endswith(".astro") and text.startswith("---\n"):
        close = text.find("\n---\n", 3)
        if close < 0:
            return 0
        from reviewtui.core.protocol.open_literals import open_literal

        front = open_literal("ts", lines[1:text.count("\n", 0, close) + 1])
        if front is not None:
            return front + 1
        text = blank(text[:close + 4]) + text[close + 4:]
    reading = Reading(path)
    from reviewtui.core.protocol.open_templates import read_template_tags

    view = text  # (before its tags are blanked: a Blade view's directives)
    text, held, relaxed, tags = read_template_tags(text, path, reading)
    if held is None and reading.expression:
        held = reading.open_expression(text)
    if held is None:
        held = reading.opened(text, relaxed, tags)
    if held is None:
        from reviewtui.core.protocol.open_xml import is_xml, open_xml_element

        if is_xml(path, text):  # (XML closes every element: open_xml.py)
            held = open_xml_element(text)
    if held is None and path.endswith((".blade.php", ".ejs")):  # (blocks its engine closes)
        from reviewtui.core.protocol.view_blocks import open_blade_block, open_ejs_block

        held = (open_blade_block if path.endswith(".php") else open_ejs_block)(view)
    return None if held is None else text.count("\n", 0, held)


class Reading:
    """How a markup file's elements are read, by its name: whether a name in mixed case
    is a component's (no element), and the language of its ``{..}`` expressions."""

    def __init__(self, path: str) -> None:
        self.components = path.endswith(_COMPONENTS)
        self.expression = next((lang for suffix, lang in _EXPRESSIONS.items()
                                if path.endswith(suffix)), "")
        self.block = CodeBlock()
        self.lt_in_tag = False  # whether a "<" ended a tag in the last reading

    def opened(self, text: str, relaxed: Sequence[int] = (), tags: Sequence[int] = ()
               ) -> int | None:
        """The offset of the outermost element, comment or section ``text`` leaves open,
        read every way this module reads (``elements``; a browser's last piece), or None.
        ``relaxed``, ``tags``: as ``elements`` takes them."""
        held = self.elements(text, relaxed, tags)
        if held is None and self.lt_in_tag:  # (<pre a=x <p>: no tag, as read before)
            held = self.elements(text, relaxed, tags, skip=True)
        if held is None and BOGUS.search(text):
            held = self.elements(text, relaxed, tags, bogus=True)
        return self.ends_in_piece(text) if held is None else held

    def elements(self, text: str, relaxed: Sequence[int] = (), tags: Sequence[int] = (),
                 nested: bool = False, skip: bool = False, bogus: bool = False) -> int | None:
        """The offset of the outermost element, comment or section ``text`` leaves open,
        or None. ``relaxed``: where template tags over lines were blanked on the strength
        of their text (``open_templates.py``): a raw element, comment or tag read across
        one is held (the tag's mark may be prose, and its words the end of it). A ``<``
        inside a tag ends it there (``<pre{{ x }}</pre>`` in Jekyll's compress layout: the
        element opens and closes); ``skip``: it makes no tag. ``bogus``: a bogus comment
        (``<?x ..>``, ``<!x ..>``) is read to its ``>`` (held when it runs across one of
        ``tags``, where a tag holding a ``>`` was blanked: that may be its end); else it
        is text. ``nested``: ``text`` is a tag's value (its values are not read again)."""
        opened: list[tuple[str, int]] = []  # (name, offset) of the nesting elements open
        counts: dict[str, int] = {}  # how many of each are open (a stray end tag: none)
        pos, end = 0, len(text)
        if not nested:
            self.lt_in_tag = False
        while pos < end:
            m = START.search(text, pos)
            if m is None:
                break
            start, pos = m.start(), m.end()
            mark = m.group()
            if mark in ("<!--", "<![CDATA["):
                pos = _comment_end(text, pos) if mark == "<!--" else text.find("]]>", pos) + 3
                if pos < 3 or _across(relaxed, start, pos):
                    return _outermost(opened, start)
                continue
            if m.group(2) is None:  # (a bogus comment: hides what a browser's hides)
                if bogus:
                    pos = text.find(">", pos) + 1
                    if pos == 0 or _across(tags, start, pos):
                        return _outermost(opened, start)
                continue
            name, closing = m.group(2), m.group(1)
            if self.components and name not in (name.lower(), name.upper()):
                continue  # (<Code>, IEnumerable<Style>: a component, a type, no element)
            name = name.lower()
            tag_end = self._tag_end(text, pos, nested, skip)
            if tag_end == _NO_TAG:
                continue
            if tag_end < 0 or _across(relaxed, start, tag_end):
                return _outermost(opened, start)
            pos = tag_end
            if closing:
                if counts.get(name):  # (an end tag of nothing open: stray, left alone)
                    at = next(k for k in range(len(opened) - 1, -1, -1) if opened[k][0] == name)
                    for gone, _ in opened[at:]:
                        counts[gone] -= 1
                    del opened[at:]
            elif _QUOTED.sub("", text[m.end():pos]).rstrip(">").rstrip().endswith("/"):
                continue  # (<code/>: empty)
            elif name in _RAW:
                close_tag = _ENDS[name].search(text, pos)
                if close_tag is None or _across(relaxed, start, close_tag.start()):
                    return _outermost(opened, start)
                pos = close_tag.end()
            else:
                opened.append((name, start))
                counts[name] = counts.get(name, 0) + 1
        return _outermost(opened, None)

    def ends_in_piece(self, text: str) -> int | None:
        """Where the tag of such an element, or the comment, that a browser reading
        ``text`` ends inside starts (a quoted value, a ``<`` in a tag read past), or
        None."""
        last = None
        for piece in _pieces(text):
            last = piece
        if last is None or last[1] >= 0:
            return None
        start, _, name, closing = last
        if not name:
            return start if text.startswith(("<!--", "<![CDATA["), start) else None
        if name not in _RAW | _NESTING or (
                self.components and text[start + 1 + closing].isupper()):
            return None
        return start

    def open_expression(self, text: str) -> int | None:
        """The offset of what a Svelte or Astro component's ``{..}`` expression, in its
        text or a tag, leaves open (a template literal, a string, a comment, or the
        expression itself), or of a tag the text ends inside; None when all close. A
        tag's quoted values are text (Astro's set:text="Array<{"); its script and style
        are JS and CSS, its comments text (each left open: held by ``elements``)."""
        pos = 0
        while (m := _EXPRESSION_STOPS.search(text, pos)) is not None:
            if m.group() == "{":
                opened = open_code_block(self.expression, text, m.start(), self.block)
                if opened is not None:
                    return opened
                pos = self.block.end
            elif m.group() == "<!--":
                pos = _comment_end(text, m.end())
                if pos < 0:
                    return None
            elif (tag_end := self._tag_end(text, m.end(), False, False)) < 0:
                return m.start()
            else:
                pos = tag_end
                raw = m.group(1).lower()
                if raw in ("script", "style"):
                    close_tag = _ENDS[raw].search(text, pos)
                    if close_tag is None:
                        return None
                    pos = close_tag.end()
        return None

    def _tag_end(self, text: str, pos: int, nested: bool, skip: bool) -> int:
        """Where the tag whose name ends at ``pos`` ends: after its ``>``, or at a ``<``
        (``_NO_TAG`` when ``skip``); -1 when the text ends inside it, or a value of it
        over lines holds an element, a comment or a section it does not close (a quote
        of prose or an expression misread would hide it: QA s50 helper-195, 196)."""
        if (plain := _PLAIN_TAG.match(text, pos)) is not None:
            return plain.end()
        while (m := _IN_TAG.search(text, pos)) is not None:
            if m.group() == ">":
                return m.end()
            if m.group() == "<":
                self.lt_in_tag = True
                return _NO_TAG if skip else m.start()
            if m.group() == "{":
                if not self.expression:
                    pos = m.end()
                    continue
                if open_code_block(self.expression, text, m.start(), self.block) is not None:
                    return -1
                value, pos = m.start() + 1, self.block.end - 1
            else:
                close = text.find(m.group(1), m.end())
                if close < 0:
                    return -1
                value, pos = m.end(), close
            if text.find("\n", value, pos) >= 0 and START.search(text, value, pos) and (
                    nested or self.elements(text[value:pos], nested=True) is not None):
                return -1
            pos += 1
        return -1


_COMMENT_END = re.compile(r"--!?>")


def _comment_end(text: str, pos: int) -> int:
    """Where a comment opened right before ``pos`` ends (after its ``-->``), or -1: as a
    browser reads it, ``<!-->`` and ``<!--->`` are whole, and ``--!>`` closes one too."""
    for whole in (">", "->"):
        if text.startswith(whole, pos):
            return pos + len(whole)
    close = _COMMENT_END.search(text, pos)
    return -1 if close is None else close.end()


# what a browser reads as one piece: a tag (of any name; its text up to a value quoted
# after its "=" read at once), a comment, a bogus comment (<!x ..>, <?x ..>, </ ..>), a
# CDATA section
_PIECE = re.compile(r"<(?:!--|!\[CDATA\[|[!?]|(/?)([A-Za-z][^\s/>]*)"
                    r"(?:[^\"'=>]++|=(?!\s*[\"']))*+(>)?|/)")
_RAW_TEXT = {name: re.compile(rf"</{name}[\s/>]", re.I) for name in _RAW}
# text, and tags of other names with no quoted value and no template mark ("{", "<",
# "@"): read past at once (no piece to say)
_PLAIN = re.compile(rf"(?:[^<]++|<(?![A-Za-z!?/])|<(?!/?(?:{_NAMES})[\s/>])/?[A-Za-z][^\s/>{{<@]*"
                    r"(?:[^\"'=>{<@]++|=(?!\s*[\"']))*+>)*+", re.I)
_TAG_STOP = re.compile(r"=\s*([\"'])|>")


def _pieces(text: str) -> Iterator[tuple[int, int, str, bool]]:
    """Each piece a browser reads in ``text`` as plain markup but a plain tag of another
    name: (start, end, its name when a tag's, in lower case, whether an end tag); end -1
    when the text ends inside it (a tag's value quoted after its ``=`` runs to its quote;
    a ``<`` in a tag is of a name; a raw text element's tag runs to its end tag's ``>``)."""
    at = 0
    while (m := _PIECE.search(text, _PLAIN.match(text, at).end())  # type: ignore[union-attr]
           ) is not None:
        name, at = m.group(2), m.end()
        if name is None:
            if m.group() == "<!--":
                at = _comment_end(text, at)
            else:  # (a bogus comment, a CDATA section: to its > or ]]>)
                ends = "]]>" if m.group() == "<![CDATA[" else ">"
                at = text.find(ends, at)
                at = at + len(ends) if at >= 0 else -1
            yield m.start(), at, "", False
        else:
            name = name.lower()
            if m.group(3) is None:
                while (stop := _TAG_STOP.search(text, at)) is not None and stop.group() != ">":
                    close = text.find(stop.group(1), stop.end())
                    at = close + 1 if close >= 0 else len(text)
                at = -1 if stop is None else stop.end()
            raw = None if m.group(1) else _RAW_TEXT.get(name)
            if at >= 0 and raw is not None and text[at - 2] != "/":  # (<script/>: empty)
                close_tag = raw.search(text, at)
                at = -1 if close_tag is None else text.find(">", close_tag.end() - 1)
                at = at + 1 if at >= 0 else -1
            yield m.start(), at, name, bool(m.group(1))
        if at < 0:
            return


def browser_open(text: str, components: bool) -> bool:
    """Whether ``text``, read as plain markup as a browser reads it (every tag's quoted
    values, bogus comments), ends inside a piece or with such an element open."""
    opened: list[str] = []
    counts = dict.fromkeys(_NESTING, 0)
    for start, end, name, closing in _pieces(text):
        if end < 0:
            return True
        if name not in _NESTING or (components and text[start + 1 + closing].isupper()):
            continue  # (<Code>: a component's, in a file of components)
        if closing:
            if counts[name]:
                while (gone := opened.pop()) != name:
                    counts[gone] -= 1
                counts[name] -= 1
        elif not _QUOTED.sub("", text[start:end - 1]).rstrip().endswith("/"):
            opened.append(name)
            counts[name] += 1
    return bool(opened)


def inside_piece(text: str, starts: Sequence[int]) -> int | None:
    """The first of ``starts`` (of tags blanked on the strength of their text) that a
    browser reading ``text`` as plain markup meets inside a piece (a tag's value, a
    comment, a script's text), or None: a template mark of prose inside a tag, its text
    leaving the tag (``<div title="{{`` .. ``"><pre>``), would else hide what it opens."""
    for start, end, _, _ in _pieces(text):
        k = bisect_right(starts, start)
        if k < len(starts) and (end < 0 or starts[k] < end):
            return starts[k]
    return None


def _across(starts: Sequence[int], start: int, stop: int) -> bool:
    """Whether one of ``starts`` (of blanked template tags) lies in ``start``..``stop``."""
    if not starts:
        return False
    at = bisect_right(starts, start)
    return at < len(starts) and starts[at] < stop


def blank(found: re.Match[str] | str) -> str:
    """A piece of text as blanks, its newlines kept (offsets and lines stay)."""
    piece = found if isinstance(found, str) else found.group()
    return re.sub(r"[^\n]", " ", piece) if "\n" in piece else " " * len(piece)


def _outermost(opened: list[tuple[str, int]], last: int | None) -> int | None:
    """The offset of the outermost open element, else ``last``; None if neither."""
    return opened[0][1] if opened else last
