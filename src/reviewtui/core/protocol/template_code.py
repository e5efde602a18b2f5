"""The code inside a template's tags, read as its engine reads it, for ``open_templates.py``
(rule ``cut-off``): where a Razor expression, call or control block, a Blade directive's
arguments, a Liquid comment or a Mustache text with its own delimiters ends.

Each reader goes forward once from where it is asked and answers where the construct
ends, or None when the text ends inside it (a string or bracket open: a sample the file
shows there closed the fence around it). QA s52 helper-213 found each written cut, exit
0: ``@(@"..")`` and ``@Html.Raw(@"..")`` over lines, an ``@if (..) {`` block open over
the sample, ``@include('x', ['t' => ".."])`` over lines, ``{% comment %}{% raw %}
{% endcomment %}{% endraw %}``, and Mustache's ``{{=<% %>=}}``. Pure.
"""

from __future__ import annotations

import re

# C#'s tokens that may hold a bracket: verbatim and raw strings (over lines), strings and
# characters (one line), comments; and the brackets.
_CS = re.compile(r'(?P<verbatim>\$*@\$*")|(?P<raw>\$*"{3,})|(?P<string>\$*")'
                 r"|(?P<char>'(?:[^'\\\n]|\\.)+')|(?P<line>//[^\n]*)|(?P<block>/\*)"
                 r"|(?P<open>[(\[{])|(?P<close>[)\]}])")
_VERBATIM_REST = re.compile(r'(?:[^"]|"")*+"')
_STRING_REST = re.compile(r'(?:[^"\\\n]|\\.)*+"')
# PHP's: strings over lines (a backslash escaping), comments, brackets.
_PHP = re.compile(r"(?P<single>')|(?P<double>\")|(?P<line>//[^\n]*|#[^\n]*)|(?P<block>/\*)"
                  r"|(?P<open>[(\[{])|(?P<close>[)\]}])")
_SINGLE_REST = re.compile(r"(?:[^'\\]|\\.)*+'", re.S)
_DOUBLE_REST = re.compile(r'(?:[^"\\]|\\.)*+"', re.S)


def bracket_end(text: str, at: int, php: bool = False) -> int | None:
    """Where the bracket at ``at`` closes (after it), its C# (or PHP) code read between:
    strings and comments hold no bracket; None when the text ends first, or a C# string
    that must close on its line does not."""
    depth, pos = 1, at + 1
    tokens = _PHP if php else _CS
    while (m := tokens.search(text, pos)) is not None:
        kind, pos = m.lastgroup or "", m.end()
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if not depth:
                return pos
        elif kind == "block":
            pos = text.find("*/", pos) + 2
            if pos < 2:
                return None
        elif kind == "line":
            continue
        elif kind == "raw":
            quotes = m.group().lstrip("$")
            pos = text.find(quotes, pos) + len(quotes)
            if pos < len(quotes):
                return None
        elif kind != "char":
            rest = {"verbatim": _VERBATIM_REST, "string": _STRING_REST,
                    "single": _SINGLE_REST, "double": _DOUBLE_REST}[kind].match(text, pos)
            if rest is None:
                return None
            pos = rest.end()
    return None


_RAZOR_BLOCK = re.compile(r"@(if|foreach|for|while|switch|using|lock|try|do|section)\b")
_RAZOR_NEXT = re.compile(r"\s*(?:else\s+if|else|catch|finally|while)\b")
_BLOCK_OPEN = re.compile(r"\s*(?:\w+\s*)?([({])")  # (a condition, or a section's name)
_BRACE = re.compile(r"[{}]")


def razor_construct(text: str, at: int) -> int | None:
    """For the Razor transition ``@`` at ``at`` (``@(..)``, ``@Name.Call(..)``, or a control
    block ``@if (..) {``, ``@foreach``, ``@section Name {`` ..): where the file reads on
    (after the expression; after a block's ``{``, its body being markup read as such), or
    None when the text ends inside it: the expression's brackets, or the block's (and its
    ``else``, ``catch``, ``finally``: each counted to its ``}``)."""
    block = _RAZOR_BLOCK.match(text, at)
    if block is None:
        paren = text.find("(", at)
        return None if paren < 0 else bracket_end(text, paren)
    pos = block.end()
    first: int | None = None
    if _block_brace(text, pos) is None:
        return None
    while True:
        brace = _block_brace(text, pos)
        if brace is None:  # (a do block's "while (x);" ends the chain)
            return first
        first = brace + 1 if first is None else first
        end = _braces_end(text, brace)
        if end is None:
            return None
        more = _RAZOR_NEXT.match(text, end)
        if more is None:
            return first
        pos = more.end()


_ANGULAR = re.compile(r"@(?:else\s+if|if|for|switch|case|default|defer|empty|placeholder"
                      r"|loading|error|else)\b\s*")


def angular_block(text: str, at: int) -> int | None:
    """For an Angular control block at ``at`` (``@if (..) {``, ``} @else {``, ``@for (..;
    track x) {``, ``@switch``/``@case``, ``@defer (..) {`` and its ``@placeholder``,
    ``@loading``, ``@error``): after its ``{`` (its body is markup, read on as such), or
    None when its condition or its braces do not close (QA s50's "Angular @if"). A text
    brace must be written ``{{ '{' }}`` or ``&#123;`` in a template with control flow, so
    braces pair exactly there."""
    m = _ANGULAR.match(text, at)
    if m is None:
        return None
    pos = m.end()
    if text[pos:pos + 1] == "(":
        end = bracket_end(text, pos, php=True)  # (quotes of either kind, as JS's)
        if end is None:
            return None
        pos = end
    brace = re.compile(r"\s*\{").match(text, pos)
    if brace is None or _braces_end(text, brace.end() - 1) is None:
        return None
    return brace.end()


def _block_brace(text: str, pos: int) -> int | None:
    """The ``{`` that opens a block after ``pos`` (past its condition in parentheses or a
    section's name), or None."""
    while True:
        m = _BLOCK_OPEN.match(text, pos)
        if m is None:
            return None
        if m.group(1) == "{":
            return m.start(1)
        end = bracket_end(text, m.start(1))
        if end is None:
            return None
        pos = end


def _braces_end(text: str, brace: int) -> int | None:
    """Where the block whose ``{`` is at ``brace`` closes (after its ``}``), its braces
    counted whatever they stand in (its body is markup; a brace in a string of its code
    counts too: the safe side); None. Every brace of the text is paired in one pass, the
    first time: blocks nested 10,000 deep are not each read to their end."""
    global _PAIRED
    if _PAIRED[0] is not text:
        pairs: dict[int, int] = {}
        opened: list[int] = []
        for m in _BRACE.finditer(text):
            if m.group() == "{":
                opened.append(m.start())
            elif opened:
                pairs[opened.pop()] = m.end()
        _PAIRED = (text, pairs)
    return _PAIRED[1].get(brace)


_PAIRED: tuple[str | None, dict[int, int]] = (None, {})


_COMMENT_TAGS = re.compile(r"\{%-?\s*(comment|endcomment|raw)\b[^%]*%\}")
_ENDRAW = re.compile(r"\{%-?\s*endraw\b[^%]*%\}")


def liquid_comment_end(text: str, at: int) -> re.Match[str] | None:
    """The ``{% endcomment %}`` that ends a Liquid comment whose body starts at ``at``:
    comments in it nest, a raw block in it is skipped whole (Liquid's own reading); None."""
    depth = 1
    while (tag := _COMMENT_TAGS.search(text, at)) is not None:
        at = tag.end()
        if tag.group(1) == "raw":
            end = _ENDRAW.search(text, at)
            if end is None:
                return None
            at = end.end()
        elif tag.group(1) == "comment":
            depth += 1
        else:
            depth -= 1
            if not depth:
                return tag
    return None


def mustache_delimiters(text: str) -> str:
    """A Mustache text with its set-delimiter tags (``{{=<% %>=}}``) read: what follows one
    spelled with the default ``{{ }}`` (literal ``{{`` and ``}}`` there neutered, the tag
    blanked), lines kept."""
    opener, closer, pos = "{{", "}}", 0
    parts: list[str] = []
    while True:
        tag = re.compile(re.escape(opener) + r"=\s*(\S+?)\s+(\S+?)\s*=" + re.escape(closer)
                         ).search(text, pos)
        piece = text[pos:] if tag is None else text[pos:tag.start()]
        if (opener, closer) != ("{{", "}}"):
            piece = (piece.replace("{{", "{ ").replace("}}", "} ")
                     .replace(opener, "{{").replace(closer, "}}"))
        parts.append(piece)
        if tag is None:
            return "".join(parts)
        parts.append(re.sub(r"[^\n]", " ", tag.group()))
        opener, closer, pos = tag.group(1), tag.group(2), tag.end()
