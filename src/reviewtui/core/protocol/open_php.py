"""Where a PHP file's text ends inside a string, a here-document or a block comment.

In PHP every string spans lines: ``"..."``, ``'...'``, the backquoted command, a heredoc
``<<<EOT`` and a nowdoc ``<<<'EOT'`` (its closing marker, since PHP 7.3, may be indented
and followed by ``;``, ``,``, ``)``). A sample reply shown in one of them (a usage text,
a template) closes the fence around the file at its own ``` line; the file as read then
ends inside that string (the rest of it was read as another file's block).

The text outside ``<?php ... ?>`` (and ``<?= ... ?>``) is HTML, not code: a quote there
opens nothing, and a file in HTML with no PHP tag is read as all text. A line comment ends
at its line's end or at a ``?>`` (which goes back to HTML); ``#[`` opens an attribute (PHP
8), not a comment. In a ``"..."`` string, a heredoc or a command, ``{$..}`` and ``${..}``
hold code whose quotes do not close the string; a heredoc's body is read to its closing
line whatever it holds. ``__halt_compiler();`` ends the code: what follows is data. One
pass, every search forward from where the last one stopped: linear. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_OPEN_TAG = re.compile(r"<\?(?:php(?=[\s]|$)|=|(?=[\s]))", re.I)
_CODE = re.compile(
    r"""(?P<close>\?>)|(?P<line>\#(?!\[)|//)|(?P<block>/\*)
    |(?P<heredoc><<<[ \t]*(?P<q>["']?)(?P<word>[^\W\d]\w*)(?P=q)\r?\n)
    |(?P<quote>["'`])|(?P<brace>[{}])|(?P<halt>__halt_compiler\b)""", re.X | re.I)
_LINE_END = re.compile(r"\n|\?>")
_IN_QUOTE = {q: re.compile(rf"\\.|{q}" + (r"|\{\$|\$\{" if q != "'" else ""), re.S)
             for q in "\"'`"}


def open_php(lines: Sequence[str]) -> int | None:
    """The index of the line opening the string, heredoc or comment ``lines``, a PHP
    file, leave open; None when all close."""
    text = "".join(line + "\n" for line in lines)
    # what is open: (opener, quote) for a string, (opener, "") for a {$..} hole's code
    stack: list[tuple[int, str]] = []
    depth = [0]  # braces open in the code of each hole (and, unused, the file's)
    pos, end = 0, len(text)
    html = True
    while pos < end:
        if html:
            tag = _OPEN_TAG.search(text, pos)
            if tag is None:
                return None
            pos, html = tag.end(), False
            continue
        if stack and stack[-1][1]:  # inside a string
            opener, quote = stack[-1]
            mark = _IN_QUOTE[quote].search(text, pos)
            if mark is None:
                return text.count("\n", 0, opener)
            pos = mark.end()
            if mark.group() == quote:
                stack.pop()
            elif mark.group() in ("{$", "${"):
                stack.append((opener, ""))
                depth.append(0)
                pos -= mark.group() == "{$"  # (the $ of {$x} is the hole's code)
            continue
        m = _CODE.search(text, pos)
        if m is None:
            break
        kind, start, pos = m.lastgroup, m.start(), m.end()
        if kind == "close" and not stack:
            html = True
        elif kind == "line":
            stop = _LINE_END.search(text, pos)
            if stop is None:
                break
            pos = stop.start() if stop.group() == "?>" else stop.end()
        elif kind == "block":
            close = text.find("*/", pos)
            if close < 0:
                return text.count("\n", 0, start)
            pos = close + 2
        elif kind == "heredoc":
            marker = re.compile(rf"^[ \t]*{re.escape(m.group('word'))}(?!\w)", re.M)
            if (closing := marker.search(text, pos)) is None:
                return text.count("\n", 0, start)
            pos = closing.end()
        elif kind == "quote":
            stack.append((start, m.group()))
        elif kind == "brace" and stack:  # in a hole's code
            if m.group() == "{":
                depth[-1] += 1
            elif depth[-1]:
                depth[-1] -= 1
            else:  # the hole closes: its string goes on
                stack.pop()
                depth.pop()
        elif kind == "halt" and not stack:
            return None
    if stack:
        return text.count("\n", 0, stack[0][0])
    return None
