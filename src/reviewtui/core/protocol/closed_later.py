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

# Each end tag, as a key: ("%", name) {% endname %}; ("go", "") {{ end }}; ("/", name)
# Handlebars' {{/name}}; ("svelte", name) {/name}; ("#}", "") a Jinja comment's end;
# ("--}}", "") a Handlebars long comment's.
_ENDS = re.compile(r"\{%[-+~]?\s*end(\w+)\s*[-+~]?%\}|\{\{-?\s*(end)\s*-?\}\}"
                   r"|\{\{~?\s*/\s*([\w.@:-]+)\s*~?\}\}|\{/(if|each|await|key|snippet)\}"
                   r"|(#\})|(--~?\}\})")
_JINJA = re.compile(r"\{%[-+~]?\s*(\w+)\b([^%]*)%\}")
_GO = re.compile(r"\{\{-?[ \t]*(?:(if|range|with|define|block|try)\b|end[ \t]*-?\}\})")
_HANDLEBARS = re.compile(r"\{\{~?\s*(?:([#^])\s*[*>]?\s*|/\s*)([\w.@:-]+)")
_SVELTE = re.compile(r"\{([#/])(if|each|await|key|snippet)\b")
# (a Jinja tag that stands alone in this form: {% set x = 1 %}, Twig's {% block t 'x' %},
# Django's {% trans "x" %}; the same names open blocks otherwise)
_STANDALONE = {"set": re.compile(r"[^=]*=(?!=)"), "block": re.compile(r"\s*[\w.]+\s+\S"),
               "trans": re.compile(r"\s*[\"'\w]")}
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
                    jinja, go, handlebars, svelte, comment, long_comment = m.groups()
                    found = (("%", jinja) if jinja else ("go", "") if go
                             else ("/", handlebars) if handlebars else ("svelte", svelte)
                             if svelte else ("#}", "") if comment else ("--}}", ""))
                    self._last[found] = at
        return self._last.get(key, -1)


def open_blocks(text: str) -> list[tuple[tuple[str, str], int]]:
    """The blocks ``text`` leaves open, each as its end tag's key (see ``LaterEnds``) and
    the offset of the last opener of it that no end follows."""
    found: list[tuple[tuple[str, str], int]] = []
    stacks: dict[tuple[str, str], list[int]] = {}

    def opened(key: tuple[str, str], at: int) -> None:
        stacks.setdefault(key, []).append(at)

    def closed(key: tuple[str, str]) -> None:
        if stacks.get(key):
            stacks[key].pop()

    if "{%" in text:
        for m in _JINJA.finditer(text):
            name, rest = m.group(1), m.group(2)
            name = {"asyncEach": "each", "asyncAll": "all"}.get(name, name)
            if name.startswith("end"):
                closed(("%", name[3:]))
            elif name not in _NEVER and not (
                    (pattern := _STANDALONE.get(name)) and pattern.match(rest)):
                opened(("%", name), m.start())
    if "{{" in text:
        for m in _GO.finditer(text):
            if m.group(1):
                opened(("go", ""), m.start())
            else:
                closed(("go", ""))
        for m in _HANDLEBARS.finditer(text):
            if m.group(1):
                opened(("/", m.group(2)), m.start())
            else:
                closed(("/", m.group(2)))
        comment = text.rfind("{{!--")
        if comment >= 0 and text.find("--}}", comment + 3) < 0 and text.find(
                "--~}}", comment + 3) < 0:
            opened(("--}}", ""), comment)
    if "{#" in text:
        for m in _SVELTE.finditer(text):
            if m.group(1) == "#":
                opened(("svelte", m.group(2)), m.start())
            else:
                closed(("svelte", m.group(2)))
        comment = text.rfind("{#")
        if (text.find("#}", comment) < 0 and _SVELTE.match(text, comment) is None
                and text[comment - 1:comment] != "$"):  # (${#arr}: a shell's length)
            opened(("#}", ""), comment)
    for key, starts in stacks.items():
        if starts:
            found.append((key, starts[-1]))
    return sorted(found, key=lambda item: item[1])


def closed_later(content: Sequence[str], ends: LaterEnds, after: int
                 ) -> tuple[int, str, int] | None:
    """For a file whose text is ``content`` (its lines), a block it leaves open whose end
    tag stands on a line of the reply past index ``after``: the line (index in
    ``content``) of its opener, the end tag's look and the reply line's index; None."""
    text = "\n".join(content)
    if "{" not in text:
        return None
    for key, start in open_blocks(text):
        line = ends.last(key)
        if line > after:
            kind, name = key
            look = {"%": f"{{% end{name} %}}", "go": "{{ end }}", "/": f"{{{{/{name}}}}}",
                    "svelte": f"{{/{name}}}", "#}": "#}", "--}}": "--}}"}[kind]
            return text.count("\n", 0, start), look, line
    return None
