"""The blocks a view leaves open that its engine closes in the same file (rule ``cut-off``,
read by ``open_markup.py`` once a view's tags are read): Blade's and EJS's.

A sample of the view's own cut it there (QA s53 helper-220: a Laravel Markdown mail's
``<x-mail::message>`` around its install sample, an EJS ``<% if (user) { %>``: written
cut, exit 0). Each engine compiles the view to code its ends close: a view whose text
stops inside a block does not compile.

- Blade: ``@if (..)`` .. ``@endif``, ``@foreach``, ``@section('x')`` .. ``@endsection``
  (or ``@show``, ``@stop``), ``@push``, ``@component``, ``@auth`` .., and an anonymous
  component's ``<x-alert>`` .. ``</x-alert>``. Echoes, comments, ``@verbatim`` and
  ``@php`` blocks hold no directive; ``@@if`` is text; ``@section('title', 'Home')`` and
  ``@slot('x', 'y')`` with a second argument stand alone, as ``@empty`` without one does
  (``@forelse``'s).
- EJS: the braces of its scriptlets' code (``<% .. %>``, ``<%_ .. %>``), read together
  with JS's strings and comments; outputs and comments hold none.

One pass forward each. Pure.
"""

from __future__ import annotations

import re

from reviewtui.core.protocol.template_code import bracket_end

# (in a component's tag, an echo {{ .. }}, a directive's or PHP's brackets, @class([..
# $n > 0]) and the => and -> in them, are no end: filament's summary row, QA s53
# helper-224)
_PAREN = r"\((?:[^()\"']|\"[^\"]*\"|'[^']*'|\((?:[^()\"']|\"[^\"]*\"|'[^']*')*\))*\)"
_TOKENS = re.compile(r"\{\{--|(?<!@)\{\{|\{!!|@@|(?<![\w@])@([A-Za-z]\w*)"
                     r"|<(/?)(x-[\w:.-]+)(?:\s(?:\{\{(?:[^}]|\}(?!\}))*\}\}|" + _PAREN
                     + r"|[=-]>|[^<>\"']|\"[^\"]*\"|'[^']*')*?)?(/?)>")
_SKIP = {"{{--": "--}}", "{{": "}}", "{!!": "!!}"}
# Each block directive (lower case: PHP's method names, Blade's compilers, ignore case)
# and the block it opens; those that take no argument.
_OPENS = {"if": "if", "hassection": "if", "sectionmissing": "if", "unless": "unless",
          "isset": "isset", "empty": "empty", "auth": "auth", "guest": "guest",
          "production": "production", "env": "env", "session": "session",
          "context": "context", "switch": "switch", "for": "for", "foreach": "foreach",
          "forelse": "forelse", "while": "while", "once": "once", "push": "push",
          "pushonce": "pushonce", "pushif": "pushif", "prepend": "prepend",
          "prependonce": "prependonce", "section": "section", "component": "component",
          "slot": "slot", "error": "error", "can": "can", "cannot": "cannot",
          "canany": "canany", "fragment": "fragment", "componentfirst": "componentfirst",
          # (Livewire's)
          "persist": "persist", "teleport": "teleport"}
_BARE = frozenset({"auth", "guest", "production", "once"})
_CLOSES = {**{"end" + name: name for name in set(_OPENS.values())},
           "show": "section", "stop": "section", "append": "section", "overwrite": "section"}
_ONE_LINE = frozenset({"section", "slot"})  # (a second argument: no block)
_SPACE = re.compile(r"[ \t]*")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", re.S)


def open_blade_block(text: str) -> int | None:
    """The offset of the outermost Blade block or ``<x-..>`` component ``text`` (a view,
    its tags closed) leaves open, or None."""
    blocks: list[tuple[str, int]] = []  # (name, offset) of each block open
    counts: dict[str, int] = {}  # (an end of nothing open costs no search)
    lowered = text.lower()
    pos = 0
    while (m := _TOKENS.search(text, pos)) is not None:
        pos = m.end()
        mark, name = m.group(), m.group(1)
        if mark in _SKIP:
            end = text.find(_SKIP[mark], pos)
            if end < 0:
                break  # (a tag with no end: the tags' reader says so)
            pos = end + len(_SKIP[mark])
        elif m.group(3):  # a component's tag
            component = m.group(3).lower().split(":")[0] if m.group(3).lower().startswith(
                "x-slot") else m.group(3).lower()
            if m.group(2):
                close_block(blocks, counts, "<" + component)
            elif not m.group(4):
                open_block(blocks, counts, "<" + component, m.start())
        elif name is not None:
            directive = name.lower()
            if directive in ("verbatim", "php") and not text.startswith("(", _space(text, pos)):
                end = lowered.find("@end" + directive, pos)
                if end < 0:
                    break
                pos = end + 4 + len(directive)
                continue
            arguments = None
            paren = _space(text, pos)
            if text.startswith("(", paren):
                closed = bracket_end(text, paren, php=True)
                if closed is None:
                    break
                arguments, pos = text[paren + 1:closed - 1], closed
            if directive in _CLOSES:
                close_block(blocks, counts, _CLOSES[directive])
            elif directive in _OPENS and (arguments is not None or directive in _BARE) and not (
                    directive in _ONE_LINE and arguments is not None
                    and _two_arguments(arguments)):
                open_block(blocks, counts, _OPENS[directive], m.start())
    return blocks[0][1] if blocks else None


def _space(text: str, pos: int) -> int:
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]


def open_block(blocks: list[tuple[str, int]], counts: dict[str, int], name: str,
               at: int) -> None:
    """A block of ``name`` opened at ``at``: on the stack, and counted."""
    blocks.append((name, at))
    counts[name] = counts.get(name, 0) + 1


def close_block(blocks: list[tuple[str, int]], counts: dict[str, int], name: str) -> None:
    """Close the nearest open block of ``name`` and those inside it (none: nothing; a
    stray end tag costs no search, the counts tell: QA s50 helper-198)."""
    if counts.get(name):
        k = next(k for k in range(len(blocks) - 1, -1, -1) if blocks[k][0] == name)
        for gone, _ in blocks[k:]:
            counts[gone] -= 1
        del blocks[k:]


def _two_arguments(arguments: str) -> bool:
    """Whether a directive's PHP arguments are more than one (a comma outside strings and
    brackets)."""
    depth = 0
    for char in _STRING.sub("''", arguments):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and not depth:
            return True
    return False


_EJS_TAG = re.compile(r"<%(?!%)([_#=-]?)")
# JS's tokens that may hold a brace: strings, template literals, comments, a regex literal
# (where an expression starts: after one of "(,=:[!&|?{};" or at a scriptlet's start),
# and the braces (QA s53 helper-224: a /\{/ regex opened a block)
_JS = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`|//[^\n]*|/\*"
                 r"|/(?![*/])(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/|[{}/]")
_EXPRESSION_START = frozenset("(,=:[!&|?{};")


def open_ejs_block(text: str) -> int | None:
    """The offset of the EJS scriptlet whose ``{`` ``text`` (a view, its tags closed)
    leaves open (the outermost), or None."""
    opened: list[int] = []  # the scriptlet of each brace open
    pos = 0
    while (m := _EJS_TAG.search(text, pos)) is not None:
        end = text.find("%>", m.end())
        if end < 0:
            break  # (a tag with no end: the tags' reader says so)
        if m.group(1) in ("", "_"):  # (a scriptlet: code)
            _scriptlet_braces(text, m.start(), m.end(), end, opened)
        pos = end + 2
    return opened[0] if opened else None


def _scriptlet_braces(text: str, tag: int, start: int, end: int, opened: list[int]) -> None:
    """Pair the braces of one scriptlet's code (``text[start:end]``) into ``opened``."""
    at = start
    while (token := _JS.search(text, at, end)) is not None:
        found = token.group()
        at = token.end()
        if found == "/*":  # (a comment with no end ends the code: one look, linear)
            close = text.find("*/", at, end)
            if close < 0:
                return
            at = close + 2
        elif found[0] == "/" and len(found) > 1:
            k = token.start()
            while k > start and text[k - 1].isspace():
                k -= 1
            if k > start and text[k - 1] not in _EXPRESSION_START:
                at = token.start() + 1  # (a division: a / b / c)
        elif found == "{":
            opened.append(tag)
        elif found == "}" and opened:
            opened.pop()
