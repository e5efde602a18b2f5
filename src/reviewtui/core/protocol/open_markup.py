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

_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "docs", "i18n"})
# an element's tag: its attributes may quote a ">" or a "<" ("n < 1", a Vue generic
# "Record<string, unknown>") or hold a {..} expression (Svelte's {step < 1}: QA s50
# helper-195); a quoted value on one line, so an unclosed quote does not run on
# (a quoted value on one line may hold a "<" or a ">", one over lines neither; an
# expression one level of braces deep: Astro's class:list={['a', { b }]}, QA s50
# helper-196; read possessively, so no reading is tried twice)
_MARK = re.compile(r"<!--|<!\[CDATA\[|<(/?)(script|style|textarea|title|xmp|docs|i18n|pre|code"
                   r"|template|listing|noscript)(?=[\s/>])((?:\"[^\"\n]*\"|'[^'\n]*'"
                   r"|\"[^\"<>]*\"|'[^'<>]*'|\{(?:[^{}\n]|\{[^{}\n]*\})*\}|[^<>\"'])*+)>", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_ENDS = {name: re.compile(rf"</{name}\s*>", re.I) for name in _RAW}
_PHP = re.compile(r"<\?(?:php\b|=)?(?:.*?\?>|.*\Z)", re.I | re.S)
# a template language's own tags and comments (Jinja, Twig, Liquid, Blade, Handlebars,
# ERB, JSP, Razor): code, not markup ({{ x | replace('<pre>', ..) }}, {# <script> #})
_TEMPLATE = re.compile(r"\{\{!--|\{\{|\{!!|\{%|\{#|<%")
_RAZOR = re.compile(r"\{\{!--|\{\{|\{!!|\{%|\{#|<%|@\*")  # (@* .. *@ in Razor files only:
# elsewhere it is XPath's @*, QA s50 helper-203)
# ({#if}: Svelte's own blocks; XSLT's {{ and @*, SVG: no templates; Jekyll's feed.xml is
# Liquid: QA s50 helper-202, 203)
_UNTEMPLATED = (".svelte", ".xsl", ".xslt", ".svg")
# (a template's tag: {% name with its whitespace marks, {{ name }}, {{ $t(..) }}, {{~, <%
# code, <%= <%# <%@ <%-- without a space, {{!-- --}}, @* *@, {!! !!}: QA s50 helper-202)
_TEMPLATED = re.compile(r"\{%[-+~]?\s*\w|\{\{[-~{#/!>^&]?\s*[\w.'\"($@][^{}\n]*\}\}|<%[=#@-]"
                        r"|<%\s|\{!!")
_TEMPLATE_END = {"{{!--": "--}}", "{{": "}}", "{!!": "!!}", "{%": "%}", "{#": "#}", "<%": "%>",
                 "@*": "*@"}


def open_markup(lines: Sequence[str], php: bool = False, path: str = "") -> int | None:
    """The index of the line opening the outermost such element, comment or section
    ``lines`` leave open; None when all close. ``php``: the file's ``<?php .. ?>`` code is
    no markup (its own reader reads it); an Astro component's frontmatter is read as
    TypeScript; template tags are no markup but in a Svelte component (``{#if}``)."""
    text = "".join(line + "\n" for line in lines)
    if php:  # (each code section as blanks of its length: offsets and lines kept)
        text = _PHP.sub(_blank, text)
    if path.endswith(".astro") and text.startswith("---\n"):
        close = text.find("\n---\n", 3)
        if close < 0:
            return 0
        from reviewtui.core.protocol.open_literals import open_literal

        front = open_literal("ts", lines[1:text.count("\n", 0, close) + 1])
        if front is not None:
            return front + 1
        text = _blank_span(text, 0, close + 4)
    if not path.endswith(_UNTEMPLATED) and _TEMPLATED.search(text):
        # (a template's tags are read only in a file that shows one: a page of prose about
        # "{{" (Rust's edition guide), an XSL translate('{}', '{{{') is plain markup)
        text, block = _without_template_tags(
            text, _RAZOR if path.endswith((".cshtml", ".razor")) else _TEMPLATE)
        if block is not None:
            return text.count("\n", 0, block)
    return _read(text)


def _read(text: str) -> int | None:
    """What ``text`` leaves open, as ``open_markup`` says."""
    opened: list[tuple[str, int]] = []  # (name, offset) of the nesting elements open
    counts: dict[str, int] = {}  # how many of each are open (a stray end tag: none)
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
        name, closing, rest = m.group(2), m.group(1), m.group(3)
        if name not in (name.lower(), name.upper()):
            continue  # (<Code>, IEnumerable<Style>: a component, a type, no element)
        name = name.lower()
        if closing:
            if counts.get(name):  # (an end tag of nothing open: stray, left alone)
                at = next(k for k in range(len(opened) - 1, -1, -1) if opened[k][0] == name)
                for gone, _ in opened[at:]:
                    counts[gone] -= 1
                del opened[at:]
        elif _QUOTED.sub("", rest).rstrip().endswith("/"):
            continue  # (<code/>: empty)
        elif name in _RAW:
            close_tag = _ENDS[name].search(text, pos)
            if close_tag is None:
                return _outermost(text, opened, start)
            pos = close_tag.end()
        else:
            opened.append((name, start))
            counts[name] = counts.get(name, 0) + 1
    return _outermost(text, opened, None)


def _without_template_tags(text: str, marks: re.Pattern[str]) -> tuple[str, int | None]:
    """``text`` with each template tag or comment blanked (to the first one not closed:
    what follows is left as it is); and the offset of the outermost block tag left open
    (``{% for %}`` with no ``{% endfor %}``, a Jekyll ``{% highlight %}`` or
    ``{% capture %}`` holding a sample: QA s50 helper-195), or None. A raw block's text is
    text: its tags are not read. Every look goes on from the last one's find (the first
    end, newline or element tag after a place is that after any earlier place, while it
    lies ahead): linear (QA s50 helper-197: 32,000 {{ skipped at an element took 9.6 s)."""
    parts, pos = [], 0
    blocks: list[tuple[str, int]] = []
    open_count: dict[str, int] = {}  # how many of each name are open
    ahead: dict[str, int] = {}  # the last find of each end, a newline ("\n"), a tag ("<")

    def next_at(key: str, at: int) -> int:
        found = ahead.get(key, -2)
        if found == -1 or found >= at:
            return found
        if key in ("<", "T"):  # (an element's tag; another template mark)
            tag = (_MARK if key == "<" else marks).search(text, at)
            found = -1 if tag is None else tag.start()
        else:
            found = text.find(key, at)
        ahead[key] = found
        return found

    while (m := marks.search(text, pos)) is not None:
        end_mark = _TEMPLATE_END[m.group()]
        close = next_at(end_mark, m.end())
        if close < 0:  # (no end after it: no tag, a {{ of prose; read on, QA s50 helper-201)
            parts.append(text[pos:m.end()])
            pos = m.end()
            continue
        close += len(end_mark)
        if -1 < next_at("\n", m.end()) < close and (
                -1 < next_at("<", m.end()) < close or -1 < next_at("T", m.end()) < close):
            # A tag or comment over lines holding an element's tag or another template
            # mark: prose's {{, {# or ${# paired with an end lines on, or template code
            # quoting markup, cannot be told apart. Blanked, it hid a <pre> (QA s50
            # helper-196, 201); read as prose, its words "{% raw %}" opened tags
            # (helper-200); telling a quote of code from prose's apostrophe was fooled
            # both ways (helper-198, 199). Held at its mark: the cheap mistake.
            return "".join(parts) + text[pos:], m.start()
        parts += [text[pos:m.start()], _blank(text[m.start():close])]
        pos = close
        tag = _BLOCK_TAG.match(text, m.start()) if m.group() == "{%" else None
        if tag is None:
            continue
        name = tag.group(2)
        if name is None:  # (Tornado's {% end %}: closes the nearest)
            if blocks:
                open_count[blocks.pop()[0]] -= 1
            continue
        if (name == "block" and _SHORT_BLOCK.match(text, tag.end())) or (
                name == "trans" and not tag.group(1)
                and not _TRANS_BLOCK.match(text, tag.end())):
            # (Twig's {% block title 'Home' %}; Django's {% trans "x" %}, {% trans var %},
            # where Jinja's {% trans %}, {% trans count=n %} open a block: QA s50 helper-198)
            continue
        if tag.group(1):  # (an end tag: closes the nearest of its name and what is inside)
            if open_count.get(name):  # (a stray one costs no search: helper-198)
                at = next(k for k in range(len(blocks) - 1, -1, -1) if blocks[k][0] == name)
                for gone, _ in blocks[at:]:
                    open_count[gone] -= 1
                del blocks[at:]
        elif name in _RAW_BLOCKS:
            end = re.compile(r"\{%[-+~]?\s*end" + name + r"\b[^%]*%\}").search(text, pos)
            if end is None:
                return "".join(parts) + text[pos:], blocks[0][1] if blocks else m.start()
            parts.append(_blank(text[pos:end.end()]))
            pos = end.end()
            # (a find inside the raw text lies behind: looked for again when asked)
        else:
            blocks.append((name, m.start()))
            open_count[name] = open_count.get(name, 0) + 1
    return "".join(parts) + text[pos:], blocks[0][1] if blocks else None


# a template's block tags, each closed by its end tag (Jinja, Django, Twig, Liquid); a
# raw block's text is no template code (Django's {% trans "x" %} stands alone, Jinja's
# {% trans %} .. {% endtrans %} is a block: QA s50 helper-196, 197)
_BLOCK_TAG = re.compile(r"\{%[-+~]?\s*(end)?(if|for|block|macro|call|filter|raw|verbatim|capture"
                        r"|comment|highlight|with|autoescape|spaceless|unless|case|tablerow"
                        r"|apply|embed|sandbox|blocktrans|trans)?\b(?(2)|(?=\s*[-+~]?%\}))")
# (Twig's short block: a name, then a value; not "-%}", "scoped", "required")
_SHORT_BLOCK = re.compile(r"\s+[\w.]+\s+(?![-+~]?%\})(?!(?:scoped|required)\b)[^\s%]")
_TRANS_BLOCK = re.compile(r"\s*(?:[-+~]?%\}|(?:trimmed|notrimmed)\b|\w+\s*=)")
_RAW_BLOCKS = frozenset({"raw", "verbatim", "comment", "highlight"})


def _blank(found: re.Match[str] | str) -> str:
    """A piece of text as blanks, its newlines kept (offsets and lines stay)."""
    piece = found if isinstance(found, str) else found.group()
    return re.sub(r"[^\n]", " ", piece)


def _blank_span(text: str, start: int, stop: int) -> str:
    return text[:start] + _blank(text[start:stop]) + text[stop:]


def _outermost(text: str, opened: list[tuple[str, int]], last: int | None) -> int | None:
    """The line of the outermost open element, else of ``last``; None if neither."""
    at = opened[0][1] if opened else last
    return None if at is None else text.count("\n", 0, at)
