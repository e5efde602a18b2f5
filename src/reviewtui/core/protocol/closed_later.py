"""A file that leaves a template block open whose end stands later in the reply (rule
``cut-off``, ``cut.py``).

A fenced file's own sample (a ```` ``` ```` line inside it) closes the fence around it;
the rest of the file then follows in the reply, read as other blocks. The readers of
``open_strings.py`` tell this from the file's text alone when it stops inside something
its language must close. A template block of a name no reader knows (Eleventy's
``{% markdown %}``, a Jekyll site's own ``{% tip %}``), a Go template's ``{{ define }}``
or ``{{ range }}`` in a page of no template's name, a Svelte ``{#if}``, a Handlebars
``{{#x}}`` outside a ``.hbs`` file, a ``{#`` comment: whether the text stops inside one
cannot be told from the file, since a tag of that look may stand alone. But the rest of
a file that was cut there holds the block's end, and it follows in the reply: a file that
leaves such a block open while its end tag (``{% endtip %}``, ``{{ end }}``, ``{/if}``,
``{{/x}}``, ``#}``) stands on a later line of the reply is held. A template's blocks close
in the file that opens them, so a whole file never leaves one open; a tag that only looks
like an opener (``{% include %}``, ``{% set x = 1 %}``) has no end tag of its name
anywhere. Each text is read once (the reply's end tags once for all its files): linear.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.protocol.open_markup import blank

# Each end tag, as a key: ("%", name) {% endname %}; ("go", "") {{ end }}; ("/", name)
# Handlebars' {{/name}}; ("svelte", name) {/name}; ("#}", "") a Jinja comment's end;
# ("--}}", "") a Handlebars long comment's.
# ("html", name) an HTML element's end tag, </details> (an MDX component's, </Steps>).
_BLOCK_NAMES = (r"details|div|table|blockquote|section|center|figure|aside|article|dl|ul|ol"
                r"|main|nav|header|footer|p")
_MDX_NAMES = _BLOCK_NAMES + r"|(?-i:[A-Z][\w.]*)"  # (and MDX's components: <Steps>, <Tabs>)
_ENDS = re.compile(r"\{%[-+~]?\s*end(\w+)\b[^%]*%\}|\{\{-?\s*(end)\s*-?\}\}"
                   r"|\{\{~?\s*/\s*([\w.@:-]+)\s*~?\}\}|\{/(if|each|await|key|snippet)\s*\}"
                   r"|(#\})|(--~?\}\})|</(" + _MDX_NAMES + r")\s*>", re.I)
# (a Markdown document's HTML: an element of these opened at a line's start, its end tag
# required, in a quote too; a README's <details> around its install sample: QA s53
# helper-220. Its tag's attributes quoted or in JSX braces, over lines but no blank one.)
_TAG_REST = (r"""(?:"[^"]*"|'[^']*'|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|[^<>\n"'{]"""
             r"|\n(?![ \t]*\n))*?(/?)>")


def _elements(line_start: str, names: str) -> re.Pattern[str]:
    """An element's start tag opened at a line's start (in a quote too), or its end tag."""
    return re.compile(line_start + r"(?:> ?)*<(" + names + r")(?=[\s>/])" + _TAG_REST
                      + r"|</(" + names + r")\s*>", re.I | re.M)


_HTML_ELEMENT = _elements(r"^ {0,3}", _BLOCK_NAMES)
_MDX_ELEMENT = _elements(r"^[ \t]*", _MDX_NAMES)  # (MDX has no indented code)
# (what shows markup without being it: a comment, a <pre> or <code> element's text)
_SHOWN = (("<!--", "-->"), ("<pre", "</pre"), ("<code", "</code"))


def _html_shown_blanked(text: str) -> str:
    """``text`` with its HTML comments and ``<pre>``/``<code>`` elements blanked (lines
    kept; one with no end is left: one look each, linear)."""
    lowered = text.lower()
    pieces: list[str] = []
    pos = 0
    while True:
        starts = [(at, end) for start, end in _SHOWN if (at := lowered.find(start, pos)) >= 0]
        if not starts:
            break
        at, end_mark = min(starts)
        close = lowered.find(end_mark, at + 4)
        if close < 0:
            break
        close = lowered.find(">", close) + 1 or len(text)
        pieces += [text[pos:at], blank(text[at:close])]
        pos = close
    return "".join(pieces) + text[pos:]


_JINJA = re.compile(r"\{%[-+~]?\s*(\w+)\b((?:[^%]|%(?!\}))*)%\}")  # ({% if x == "%" %})
_GO = re.compile(r"\{\{-?[ \t]*(?:(if|range|with|define|block|try)[ \t]|end[ \t]*-?\}\})")
# (in a Go action: a string, a raw string, a rune, its end)
_GO_INSIDE = re.compile(r"\"(?:[^\"\\\n]|\\.)*(?:\"|\n|$)|`[^`]*(?:`|$)|'(?:[^'\\\n]|\\.)*'|\}\}")
_HANDLEBARS = re.compile(r"\{\{~?\s*(?:([#^])\s*[*>]?\s*|/\s*)([\w.@:-]+)")
_SVELTE = re.compile(r"\{([#/])(if|each|await|key|snippet)\b")
# (in a Svelte expression: a string, a brace; outside: an expression, an HTML comment)
_SVELTE_INSIDE = re.compile(r"'(?:[^'\\\n]|\\.)*(?:'|$)|\"(?:[^\"\\\n]|\\.)*(?:\"|$)|`[^`]*(?:`|$)"
                            r"|[{}]", re.M)
_SVELTE_OUTSIDE = re.compile(r"<!--|<(?:script|style)\b|\{")
# (a document's attribute list, ## Install {#install}, {#sec:results .c}: no comment)
_ATTRIBUTES = re.compile(r"\{#[^\W\d][\w:.-]*(?:[ \t]+(?:[^{}\"\n]|\"[^\"\n]*\")*)?\}")
# (a Jinja tag that stands alone in this form: {% set x = 1 %}, Twig's {% block t 'x' %},
# Django's {% trans "x" %}; the same names open blocks otherwise)
_STANDALONE = {"set": re.compile(r"\s*[\w.]+(?:\s*,\s*[\w.]+)*\s*=(?!=)"),
               "block": re.compile(r"\s*[\w.]+\s+(?!(?:scoped|required)\b)[^\s-]"),
               # (Django's {% trans "x" %}; {% trans user=x %}, Twig's {% trans with .. %}
               # open blocks: no Django file closes a trans, the safe side)
               "trans": re.compile(r"\s*[\"']")}
# (Nunjucks' blocks closed by an end of another name: {% asyncEach %} .. {% endeach %})
ASYNC_BLOCKS = {"asyncEach": "each", "asyncAll": "all"}
_NEVER = frozenset({"else", "elif", "elsif", "elseif", "when", "empty", "plural",
                    "pluralize", "include", "extends", "import", "from", "load", "url",
                    "static", "csrf_token", "assign", "render", "cycle", "increment",
                    "decrement", "break", "continue"})


class LaterEnds:
    """The end tags a reply's lines hold: for each, the last line it stands on (read
    once, when a file first leaves a block open)."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self._last: dict[tuple[str, str], int] | None = None

    def last(self, key: tuple[str, str]) -> int:
        """The index of the last line holding end tag ``key``, or -1."""
        if self._last is None:
            self._last = {}
            for at, line in enumerate(self._lines):
                for m in _ENDS.finditer(line):
                    jinja, go, handlebars, svelte, comment, long_comment, html = m.groups()
                    found = (("%", jinja) if jinja else ("go", "") if go
                             else ("/", handlebars) if handlebars else ("svelte", svelte)
                             if svelte else ("#}", "") if comment else ("--}}", "")
                             if long_comment else ("html", html.lower()))
                    self._last[found] = at
        return self._last.get(key, -1)


# What shows tags without being them, blanked before they are counted: raw, verbatim and
# comment blocks, each engine's comments, a Handlebars raw block (a page documenting Liquid
# shows {% raw %}{% if x %}{% endraw %}: no block of its own). Each opener's end is looked
# for once: a kind whose end is not there is not looked for again (linear).
_NOT_TAG_OPENERS = re.compile(r"\{%[-+~]?\s*(raw|verbatim|comment)\b[^%]*%\}"
                              r"|((?<![{$])\{#(?!(?:if|each|await|key|snippet)\b))|(\{\{~?!--)"
                              r"|(\{\{~?!)|(\{\{-?\s*/\*)|\{\{\{\{(\w+)\}\}\}\}")
_NOT_TAG_ENDS = {"raw": r"\{%[-+~]?\s*endraw\b[^%]*%\}",
                 "verbatim": r"\{%[-+~]?\s*endverbatim\b[^%]*%\}",
                 "comment": r"\{%[-+~]?\s*endcomment\b[^%]*%\}", 2: r"#\}", 3: r"--~?\}\}",
                 4: r"\}\}", 5: r"\*/"}
# (a document's code spans: Markdown's and RST's runs of backticks, <code> on a line; not
# Org's ~..~ nor AsciiDoc's +..+, which a template's ~{% if x %}~ reads as: helper-217)
_SPAN = re.compile(r"(?<!`)(`++)[^\n]{1,400}?(?<!`)\1(?!`)"
                   r"|<code\b[^>\n]{0,200}>[^\n]{0,400}?</code>")
_SPAN_WIDE = re.compile(_SPAN.pattern + r"|(?<!\w)([~=+])(?=\S)[^\n]{0,200}?(?<=\S)\2(?!\w)")


def _not_tags(text: str) -> str:
    """``text`` with what shows tags without being them blanked (lines kept)."""
    pieces: list[str] = []
    pos, at, missing = 0, 0, set()
    while (m := _NOT_TAG_OPENERS.search(text, at)) is not None:
        kind: str | int = m.group(1) or next((n for n in (2, 3, 4, 5) if m.group(n)), 6)
        key = (kind, m.group(6)) if kind == 6 else (kind, "")
        end_pattern = (r"\{\{\{\{/" + re.escape(m.group(6)) + r"\}\}\}\}" if kind == 6
                       else _NOT_TAG_ENDS[kind])
        end = None if key in missing else re.compile(end_pattern).search(text, m.end())
        if end is None:
            missing.add(key)
            at = m.end()
            continue
        pieces += [text[pos:m.start()], blank(text[m.start():end.end()])]
        pos = at = end.end()
    return "".join(pieces) + text[pos:]


def _document_code(text: str, wide: bool = False, markdown: str = "") -> str:
    """A document's text with its closed fenced code samples (indented too: a list item's)
    and its backtick code spans blanked. ``wide``: a second reading, where more is taken
    for code: ``<pre>`` blocks, Org's ``#+BEGIN_SRC``, AsciiDoc's ``----`` and ``....``
    listings, an RST literal block after ``::``, an indented code block after a blank
    line, Org's and AsciiDoc's spans (QA s52 helper-216). Either reading may hide a block
    the other shows (a setext heading's underline, a rule or a list item's indented text
    reads like such a sample: helper-217, 218), so both are counted. A ``markdown``
    document's second reading takes Markdown's forms alone (``<pre>``, indented): a
    Jekyll page's ``----`` rule, ``~`` or ``::`` is text there (QA s53 helper-220)."""
    lines = text.split("\n")
    spans = _SPAN_WIDE if wide and not markdown else _SPAN
    opened: tuple[str, int] | None = None  # (what closes it, its first line)
    literal = False  # (in an indented block: RST's after "::", Markdown's after a blank)
    for k, line in enumerate(lines):
        stripped = line.strip()
        if opened is not None:
            if _closes(opened[0], stripped):
                for inside in range(opened[1], k + 1):
                    lines[inside] = " " * len(lines[inside])
                opened = None
            continue
        if literal and (not stripped or line[:1] in (" ", "\t")):
            lines[k] = " " * len(line)
            continue
        literal = False
        close = _code_opener(stripped, wide, markdown)
        if close is not None and not (close == "</pre>" and "</pre>" in stripped.lower()):
            opened = (close, k)
            continue
        if wide and stripped and line[:4] == "    " and not (lines[k - 1].strip() if k else ""):
            literal = True
            lines[k] = " " * len(line)
            continue
        lines[k] = spans.sub(lambda found: " " * len(found.group()), line)
        literal = wide and not markdown and stripped.endswith("::")
    return "\n".join(lines)


def _code_opener(stripped: str, wide: bool, markdown: str = "") -> str | None:
    """What closes the code sample a document's line (stripped) opens, or None: a fenced
    sample's fence, and in the ``wide`` reading the other forms."""
    if stripped[:3] in ("```", "~~~"):
        run = len(stripped) - len(stripped.lstrip(stripped[0]))
        return stripped[:run] if stripped[0] == "~" or "`" not in stripped[run:] else None
    if not wide:
        return None
    lowered = stripped.lower()
    if lowered.startswith("<pre"):
        return "</pre>"
    if markdown:
        return None
    if lowered.startswith("#+begin_"):
        return "#+end_" + lowered[8:].split(" ")[0]
    if len(stripped) >= 4 and set(stripped) in ({"-"}, {"."}):
        return stripped
    return None


def _closes(close: str, stripped: str) -> bool:
    """Whether a line (stripped) closes a document's code sample that ``close`` ends."""
    if close[:3] in ("```", "~~~"):
        return stripped.startswith(close) and not stripped.lstrip(close[0])
    if close == "</pre>":
        return "</pre>" in stripped.lower()
    if close.startswith("#+end_"):
        return stripped.lower().startswith(close)
    return stripped == close


def open_blocks(text: str, document: bool = False, go: bool = True, ci: bool = False,
                markdown: str = "") -> list[tuple[tuple[str, str], int]]:
    """The blocks ``text`` leaves open, each as its end tag's key (see ``LaterEnds``) and
    the offset of the last opener of it that no end follows; tags in raw blocks and
    comments are not counted. A ``document`` (Markdown, plain text) is read outside its
    code samples and spans, both ways (:func:`_document_code`; a tag shown there is a
    mention: QA s52 helper-215), and its ``{#`` comments are counted (``{#id}`` is an
    attribute list). A ``.txt`` or ``.md`` may be a template (Helm's NOTES.txt, a Hugo
    archetype: helper-216).
    Without ``go`` (a Handlebars file, whose inline ``{{if a 'b'}}`` is no Go action) Go's
    blocks are not counted."""
    if document:  # (two readings of its code samples, each counted: their union)
        # (HTML elements in the first reading only: a list item's indented </details>
        # is no sample, pyenv's README)
        found = dict(_open_blocks(_document_code(text, wide=True, markdown=markdown), True,
                                  go, ci))
        for key, at in _open_blocks(_document_code(text), True, go, ci, markdown):
            found[key] = min(at, found.get(key, at))
        return sorted(found.items(), key=lambda item: item[1])
    return _open_blocks(text, False, go, ci)


def _open_blocks(text: str, document: bool, go: bool, ci: bool, markdown: str = ""
                 ) -> list[tuple[tuple[str, str], int]]:
    text = _not_tags(text)
    stacks: dict[tuple[str, str], list[int]] = {}

    def opened(key: tuple[str, str], at: int) -> None:
        stacks.setdefault(key, []).append(at)

    def closed(key: tuple[str, str]) -> None:
        if stacks.get(key):
            stacks[key].pop()

    actions = _go_actions(text, ci) if "{{" in text else []
    if actions and "{%" in text:  # (an output's string holds no tag: {{ "{% endif %}" }})
        pieces, pos = [], 0
        for start, end in actions:
            pieces += [text[pos:start], blank(text[start:end])]
            pos = end
        text_tags = "".join(pieces) + text[pos:]
    else:
        text_tags = text
    last = text_tags.rfind("%}")
    if last >= 0:  # (no tag after the last "%}": each look ends at one, linear)
        for m in _JINJA.finditer(text_tags, 0, last + 2):
            name, rest = m.group(1), m.group(2)
            name = ASYNC_BLOCKS.get(name, name)
            if name.startswith("end"):
                closed(("%", name[3:]))
            elif name not in _NEVER and not (
                    (pattern := _STANDALONE.get(name)) and pattern.match(rest)):
                opened(("%", name), m.start())
    if "{{" in text:
        for at, _ in actions:  # (each a whole action: a tag in its string is none)
            if go and (action := _GO.match(text, at)) is not None:
                if action.group(1):
                    opened(("go", ""), at)
                else:
                    closed(("go", ""))
            elif (bars := _HANDLEBARS.match(text, at)) is not None:
                if bars.group(1):
                    opened(("/", bars.group(2)), at)
                else:
                    closed(("/", bars.group(2)))
        comment = text.rfind("{{!--")
        if comment >= 0 and text.find("--}}", comment + 3) < 0 and text.find(
                "--~}}", comment + 3) < 0:
            opened(("--}}", ""), comment)
    if document and "{#" in text:
        # (the first {# no #} follows, _not_tags left: a Jinja comment, but a Svelte
        # block's mention, a shell's ${#arr}, an attribute list, {#install}, {#sec:x .c})
        at = text.find("{#")
        while at >= 0:
            if not (_SVELTE.match(text, at) or text[at - 1:at] in ("$", "{")
                    or _ATTRIBUTES.match(text, at) or text[at + 2:at + 3].isdigit()):
                opened(("#}", ""), at)
                break
            at = text.find("{#", at + 2)
    if "{#" in text:
        for at in _svelte_tags(text):
            if (tag := _SVELTE.match(text, at)) is not None:
                if tag.group(1) == "#":
                    opened(("svelte", tag.group(2)), at)
                else:
                    closed(("svelte", tag.group(2)))
    if markdown and "<" in text:  # (its HTML elements whose end tag is required)
        pattern = _MDX_ELEMENT if markdown == "mdx" else _HTML_ELEMENT
        for m in pattern.finditer(_html_shown_blanked(text)):
            if m.group(1) and not m.group(2):
                opened(("html", m.group(1).lower()), m.start())
            elif m.group(3):
                closed(("html", m.group(3).lower()))
    found = [(key, starts[-1]) for key, starts in stacks.items() if starts]
    return sorted(found, key=lambda item: item[1])


def _go_actions(text: str, ci: bool = False) -> list[tuple[int, int]]:
    """Where each ``{{ .. }}`` (a Go action, a Handlebars or Jinja tag) starts and ends,
    read with its strings, raw strings and runes (``{{ $x := "{{ end }}" }}`` is one,
    ``{{ if eq .Sep '"' }}`` too); one pass. The last may run to the text's end."""
    spans: list[tuple[int, int]] = []
    at = text.find("{{")
    while at >= 0:
        if ci and text[at - 1:at] == "$":  # (Azure's, GitHub's ${{ }}: no Go's)
            at = text.find("{{", at + 2)
            continue
        pos = at + 2
        while (m := _GO_INSIDE.search(text, pos)) is not None and m.group() != "}}":
            pos = m.end()
        spans.append((at, len(text) if m is None else m.end()))
        if m is None:
            break
        at = text.find("{{", m.end())
    return spans


def _svelte_tags(text: str) -> list[int]:
    """Where each ``{`` of a Svelte tag or expression starts (``{#each xs as { id }}``
    nests; in an expression ``{'{/if}'}`` a string holds no tag; in text a quote is a
    character), outside HTML comments, scripts and styles; one pass, a brace left open
    hiding nothing."""
    starts: list[int] = []
    depth, pos = 0, 0
    while (m := (_SVELTE_INSIDE if depth else _SVELTE_OUTSIDE).search(text, pos)) is not None:
        pos = m.end()
        if m.group() == "<!--":
            end = text.find("-->", pos)
            if end < 0:
                break
            pos = end + 3
        elif m.group().startswith("<"):  # (a script's or style's text: its braces its own)
            end = text.find("</" + m.group()[1:], pos)
            pos = pos if end < 0 else end  # (none: a mention, "Svelte's <style> is scoped")
        elif m.group() == "{":
            starts.append(m.start())
            depth += 1
        elif m.group() == "}":
            depth -= 1
    return starts


def closed_later(content: Sequence[str], ends: LaterEnds, after: int, *,
                 document: bool = False, go: bool = True, ci: bool = False,
                 markdown: str = ""
                 ) -> tuple[int, str, int] | None:
    """For a file whose text is ``content`` (its lines), a block it leaves open whose end
    tag stands on a line of the reply past index ``after``: the line (index in
    ``content``) of its opener, the end tag's look and the reply line's index; None."""
    text = "\n".join(content)
    if "{" not in text and not (markdown and "<" in text):
        return None
    for key, start in open_blocks(text, document, go, ci, markdown):
        line = ends.last(key)
        if line > after:
            kind, name = key
            look = {"%": f"{{% end{name} %}}", "go": "{{ end }}", "/": f"{{{{/{name}}}}}",
                    "svelte": f"{{/{name}}}", "#}": "#}", "--}}": "--}}",
                    "html": f"</{name}>"}[kind]
            return text.count("\n", 0, start), look, line
    return None
