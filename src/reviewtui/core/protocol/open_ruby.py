"""Where a Ruby program's text ends inside a string, a regular expression, a ``%`` literal,
a here-document or an ``=begin`` comment, strings spanning lines read (QA85 helper-175
21-35: a multi-line ``"..."``, ``'...'``, ``%q{..}`` or ``%r{..}`` holding a sample reply
was not read at all, and a regex, ``%w[don't]``, ``?#`` or ``"#{'"'}"`` on a line hid the
here-document opened after it: the rest of the file was written as another file's block,
exit 0).

One pass over the text, a stack of what is open: code, and in it a string of any kind
(its closing character, the bracket it nests, whether ``#{..}`` opens code in it); a
here-document's body is read at the end of the line that opens it, up to its terminator
line. A ``/``, a ``%`` or a ``?`` opens a literal where a value may start (after an
operator, an opening bracket, a keyword, or a method's name and a space: ``gsub /x/``),
else it is an operator. ``open_literals.py`` keeps its line-bound reading too: the file is
open if either says so. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

_CODE = re.compile(
    r"""(?P<comment>\#)|(?P<newline>\n)|(?P<begin>^=begin(?=[ \t\n]|$))|(?P<end>^__END__\n)
    |(?P<gvar>\$[\"'`/\\])|(?P<char>\?(?:\\.|[^\s\w\\])(?![\w]))
    |(?P<heredoc><<(?P<how>[~-]?)(?:(?P<word>[A-Za-z_]\w*)|(?P<q>[\"'`])(?P<qword>[^\"'`\n]+)(?P=q)))
    |(?P<percent>%(?P<kind>[qQwWiIrsx]?)(?P<delim>[^\w\s]))
    |(?P<quote>[\"'`])|(?P<slash>/)|(?P<brace>[{}])""", re.M | re.X | re.S)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_VALUE_AFTER = frozenset("(,=[!&|?{;+-*%<>~^:\n")  # (not "}": a block's end, then x / n)
_VALUE_WORDS = frozenset({"if", "elsif", "unless", "while", "until", "when", "and", "or",
                          "not", "return", "then", "do", "else", "case", "in", "yield",
                          "puts", "print", "p", "raise", "break", "next"})


class _Frame:
    """What is open: code (the bottom frame, each ``#{..}``: ``close`` empty) or a string."""

    __slots__ = ("close", "depth", "interpolate", "nest", "opener")

    def __init__(self, opener: int, close: str = "", nest: str = "",
                 interpolate: bool = False) -> None:
        self.opener, self.close, self.nest, self.interpolate = opener, close, nest, interpolate
        self.depth = 0  # brackets nested in a string, braces in code


@cache
def _inside(close: str, nest: str, interpolate: bool) -> re.Pattern[str]:
    """The marks a string's text is searched for: an escape, ``#{``, its close, the bracket
    that nests in it."""
    marks = [r"\\.", re.escape(close)]
    if interpolate:
        marks.insert(1, r"\#\{")
    if nest:
        marks.append(re.escape(nest))
    return re.compile("|".join(marks), re.S)


def open_ruby(lines: Sequence[str]) -> int | None:
    """The index of the line opening what ``lines``, a Ruby program, leave open, or None."""
    text = "".join(line + "\n" for line in lines)
    stack = [_Frame(0)]
    pending: list[tuple[int, str, bool]] = []  # here-documents opened on this line
    pos, end = 0, len(text)
    while pos < end:
        frame = stack[-1]
        if frame.close:  # a string
            mark = _inside(frame.close, frame.nest, frame.interpolate).search(text, pos)
            if mark is None:
                return text.count("\n", 0, frame.opener)
            token, pos = mark.group(), mark.end()
            if token == "#{":
                stack.append(_Frame(frame.opener))
            elif token == frame.nest:
                frame.depth += 1
            elif token == frame.close and frame.depth:
                frame.depth -= 1
            elif token == frame.close:
                stack.pop()
            continue
        m = _CODE.search(text, pos)
        if m is None:
            break
        kind, start, pos = m.lastgroup, m.start(), m.end()
        if kind == "comment":
            pos = text.find("\n", pos)
            pos = end if pos < 0 else pos
        elif kind == "newline":
            for opener, word, indented in pending:
                pos = _heredoc_end(text, pos, word, indented)
                if pos < 0:
                    return text.count("\n", 0, opener)
            pending.clear()
        elif kind == "begin":
            close = re.compile(r"^=end(?=[ \t\n])", re.M).search(text, pos)
            if close is None:
                return text.count("\n", 0, start)
            pos = close.end()
        elif kind == "end" and len(stack) == 1:
            return None
        elif kind == "char" and (text[start - 1:start].isalnum()
                                 or text[start - 1:start] in ("_", ")", "]", "}")):
            pos = start + 1  # (a method's ?: x.empty?)
        elif kind == "heredoc":
            word = m.group("word") or m.group("qword")
            if m.group("how") or m.group("q") or (
                    _value_may_start(text, start, start + 2) and word != "self"
                    and not text[max(0, start - 40):start].rstrip().endswith("class")):
                pending.append((start, word, bool(m.group("how"))))
            else:
                pos = start + 2  # (a shift: x << y, x<<y)
        elif kind == "percent":
            letter, delim = m.group("kind"), m.group("delim")
            if letter or _value_may_start(text, start, start + 1):
                nest = delim if delim in _PAIRS else ""
                stack.append(_Frame(start, _PAIRS.get(delim, delim), nest,
                                    letter in ("", "Q", "W", "I", "r", "x")))
            else:
                pos = start + 1  # (x % y)
        elif kind == "quote":
            stack.append(_Frame(start, m.group(), "", m.group() != "'"))
        elif kind == "slash" and _value_may_start(text, start, pos):
            stack.append(_Frame(start, "/", "", True))
        elif kind == "brace" and len(stack) > 1:
            if m.group() == "{":
                frame.depth += 1
            elif frame.depth:
                frame.depth -= 1
            else:  # the #{ closes: its string goes on
                stack.pop()
    if len(stack) > 1:
        return text.count("\n", 0, stack[1].opener)
    return None


def _heredoc_end(text: str, pos: int, word: str, indented: bool) -> int:
    """Where the body of a here-document, from ``pos``, ends (after its terminator line:
    exactly ``word``, or indented for ``<<~``/``<<-``), or -1."""
    indent = r"[ \t]*" if indented else ""
    close = re.compile(rf"^{indent}{re.escape(word)}\r?\n", re.M).search(text, pos)
    return -1 if close is None else close.end()


def _value_may_start(text: str, at: int, after: int) -> bool:
    """Whether a literal may open at ``at`` (``/``, ``%``, ``<<``, ``?``): where a value may
    start, or after a method's name and a space with none after it (``gsub /x/``)."""
    if text[at - 1:at] == ":" and text[at - 2:at - 1] != ":":
        return False  # (a symbol: inject(:/), :%, :<<; QA s49 helper-180 W04, H02)
    k = at - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    if k < 0 or text[k] in _VALUE_AFTER:
        return True
    if not (text[k].isalnum() or text[k] in "_?!"):
        return False
    j = k + 1
    while k >= 0 and (text[k].isalnum() or text[k] == "_"):
        k -= 1
    word = text[k + 1:j]
    if word in _VALUE_WORDS:
        return True
    if word == "def" or text[k:k + 1] in ("@", "$"):
        return False  # (def /(o): a method's name; @w /2, $x /2: a variable divided, W08)
    spaced = j < at and text[after:after + 1] not in (" ", "\t", "\n", "=", "")
    return spaced and not word[:1].isdigit() and not word[:1].isupper()
