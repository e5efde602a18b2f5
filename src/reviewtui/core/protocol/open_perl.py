"""Where a Perl program's text ends inside a string, a quote-like literal, a here-document,
a ``format`` or a POD block.

In Perl every string spans lines: ``"..."``, ``'...'``, backquotes, ``q qq qw qx m qr s tr
y`` with any delimiter (a bracket pair nests: ``qq{a {b} c}``), here-documents (``<<"EOF"``,
``<<'EOF'``, ``<<EOF``, ``<<~EOF``, several on a line, each body after that line) and POD
(``=head1`` at a statement's start, to ``=cut``). A sample reply shown in one of them closes
the fence around the file at its own ``` line; the file as read then ends inside it.

Perl finds a literal's end before it reads what is inside (``"@{[ "x" ]}"`` ends at the
second quote), so a literal is its delimiters and backslashes only. What is hard is where
one starts: a ``/`` opens a regex only where a term may start (after an operator, an
opening bracket, ``split``, ``and``...; ``//`` after an operand is defined-or), else it
divides, and the regex must close on its line, or within 40 lines after ``=~``, ``(``,
``=``, ``,`` or such a word, where nothing else may stand (``/x`` regexes span lines): a
``/`` misread as a regex stays a division, the misread goes no further. ``<<`` opens a
here-document before a quote, ``~`` or a name where a term may start or after a
filehandle (``print STDERR <<EOF``, ``print $fh <<EOF``); ``1 << 2``, ``$x<<EOF`` and
``MASK<<BITS`` shift. ``s``, ``y``, ``q``... open no literal as a hash key (``$h{q}``, ``y
=> 1``), a method (``->s``), a file test (``-s $f``), a sub's name or a variable's
(``$y``), nor before a space and ``,`` ``;`` ``=`` ``#`` (``s,a,b,`` does). ``$#``,
``$'``, ``$"`` and the glob ``*"`` are variables, no comment or quote. ``__END__`` and
``__DATA__`` end the code: what follows is data, nothing is open there. POD is not closed
by the end of the file: a file whose code ends in POD with no ``=cut`` (perl reads that)
is held, as a file cut inside it would look the same. A ``.pl`` or ``.t`` file may be
another language's: one that reads as Prolog (``head :- body.``) is read for its block
comments, one in TADS or with no sign of Perl (``use``, ``my $``, ``sub``, POD...) not at
all. One pass, each search forward from the last: linear. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CODE = re.compile(
    r"""(?P<newline>\n)|(?P<comment>\#)
    |(?P<var>\$\#?\$*(?:\^\w|\w+(?:(?:::|'(?=[A-Za-z_]))\w+)*|::\w+|[^\s\w{\#])?
             |@\$*(?:\w+(?:::\w+)*|::\w+)?)
    |(?P<heredoc><<(?P<tilde>~?)(?:[ \t]*(?P<q>["'`])(?P<qword>[^"'`\n]*)(?P=q)
                                    |(?P<bs>\\?)(?P<hword>[A-Za-z_]\w*)))
    |(?P<word>[A-Za-z_]\w*(?:::\w+)*)|(?P<number>\d[\w.]*)
    |(?P<glob>\*(?=[^\s\w{*$@%&]))|(?P<quote>["'`])|(?P<slash>/)|(?P<arrow>->)|(?P<fat>=>)""", re.X)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_QUOTE_OPS = frozenset({"q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y"})
_TWO_PARTS = frozenset({"s", "tr", "y"})
# after these words a term starts: a / opens a regex, a << a here-document
_TERM_WORDS = frozenset({
    "split", "grep", "map", "join", "return", "and", "or", "not", "xor", "if", "unless",
    "while", "until", "elsif", "push", "unshift", "when", "print", "printf", "say", "die",
    "warn", "eq", "ne", "lt", "gt", "le", "ge", "cmp", "croak", "confess", "carp",
    "local", "defined", "ok", "like", "unlike"})  # (Test::More's: ok /re/, 'name')
_TERM_AFTER = frozenset("(,=[{;!&|?:.+-*/%<>~^\\")
_OPERAND_END = frozenset('$0"')  # (what ends a variable, a number, a literal, read last)
_REGEX_ONLY = frozenset("(,=~")  # (after these a / opens a regex, never divides)
_REGEX_LINES = 40
_DELIMITER_NOT = frozenset(")]}")  # (after s, y, q...: a bareword, a key, not a quote)
_DELIMITER_TOUCHING = frozenset(",;=#")  # (no delimiter after a space: y => 1, (x, y))
_CUT = re.compile(r"^=cut(?![A-Za-z]).*\n?", re.M)
# what a .pl file in Prolog (a clause's head :- its body) or a .t file in TADS shows
_PROLOG = re.compile(r"\A/\*|^(?::-|[a-z]\w*(?:\(.*\))?[ \t]*:-)", re.M)
_TADS = re.compile(r"^\ufeff?\#(?:charset|include)[ \t]+[\"<]", re.M)
_PERL = re.compile(r"^[ \t]*(?:(?:my|our|local)[ \t]*[$@%(]|use[ \t]+[\w:]+.*;|sub[ \t]+\w"
                   r"|package[ \t]+[\w:]+[ \t]*[;{]|print\b.*;|\#!.*perl"
                   r"|=(?:head[1-6]|pod|encoding|over|item|begin|for)\b)", re.M)
# (signs no Prolog file shows: a Perl file is read as Perl whatever Prolog it quotes)
# (my(X) :- .. is a Prolog clause, my ($a) Perl's; QA s50 helper-193)
_SURELY_PERL = re.compile(r"\A\ufeff?\#!.*perl|^[ \t]*(?:(?:my|our|local)[ \t]*\(?[ \t]*[$@%]"
                          r"|use[ \t]+(?:strict|warnings|utf8|lib|v?5[\d.]*|[A-Z][\w:]*)\b[^\n]*;"
                          r"|package[ \t]+[\w:]+[ \t]*[;{]|sub[ \t]+\w+[ \t]*\{)", re.M)


def open_perl(lines: Sequence[str], ambiguous: bool = False) -> int | None:
    """The index of the line opening the string, here-document, ``format`` or POD block
    ``lines``, a Perl program, leave open; None when all close. A file whose suffix
    another language uses too (``ambiguous``: ``.pl``, ``.t``) is read as Prolog (its
    block comments) when it reads so, and not at all when it reads as TADS or shows no
    sign of Perl."""
    text = "".join(line + "\n" for line in lines)
    if ambiguous and _PROLOG.search(text) and not _SURELY_PERL.search(text):
        opened = _open_prolog(text)  # (a head :- body line in a Perl heredoc took the
        # whole file for Prolog, its strings unread: QA s50 helper-191 w7)
    elif ambiguous and (_TADS.search(text) or not _PERL.search(text)):
        return None  # (TADS, or text: the Polish translation of Vim's tutor, tutor.pl)
    else:
        opened = _Reader(text).read()
    return None if opened is None else text.count("\n", 0, opened)


class _Reader:
    """One reading of a program's text: where it is, what was read last (for a ``/``, a
    ``<<`` or a POD line: may a term or a statement start there?)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.last = ""  # the last code character read ("" none yet; a literal's: '"')
        self.word = ""  # ... the word it ends, if it ends one
        self.dead_line = -1  # the line end before which a / looked for a regex in vain

    def read(self) -> int | None:
        text, end = self.text, len(self.text)
        pending: list[tuple[int, str, bool]] = []  # here-documents opened on this line
        pos = self._pods(0)
        while 0 <= pos < end:
            m = _CODE.search(text, pos)
            if m is None:
                return None
            kind, start = m.lastgroup, m.start()
            self._note(text[pos:start])
            pos = m.end()
            if kind == "newline":
                for opener, word, indented in pending:
                    pos = _body_end(text, pos, word, indented)
                    if pos < 0:
                        return opener
                pending.clear()
                if self.last in ("", ";", "{", "}"):  # (a statement may start: POD too)
                    pos = self._pods(pos)
            elif kind == "comment":
                pos = text.find("\n", pos)
                pos = end if pos < 0 else pos
            elif kind == "var":
                self.last, self.word = "$", ""
            elif kind == "glob":  # (*" the glob of $": where a term may start)
                if self._term_may_start() and text[pos:pos + 1] != "(":
                    pos += 1
                    self.last, self.word = "$", ""
                else:
                    self.last, self.word = "*", ""
            elif kind == "number":
                self.last, self.word = "0", ""
            elif kind == "arrow":
                self.last, self.word = ">", "->"
            elif kind == "fat":
                self.last, self.word = ",", ""
            elif kind == "heredoc":
                word = m.group("qword") if m.group("q") else m.group("hword")
                bare = not (m.group("q") or m.group("bs") or m.group("tilde"))
                if self._heredoc_may_start(start, bare):
                    pending.append((start, word, bool(m.group("tilde"))))
                    self.last, self.word = '"', ""
                else:  # (a shift: 1 << 2, $x<<EOF)
                    pos = start + 2
                    self.last, self.word = "<", ""
            elif kind == "word":
                pos = self._word(m.group(), start, pos)
                if pos < 0:
                    return start
                if pos == end + 1:  # (__END__, __DATA__: the rest is data)
                    return None
            elif kind == "quote":
                pos = _close(text, pos, m.group())
                if pos < 0:
                    return start
                self.last, self.word = '"', ""
            elif kind == "slash":
                pos = self._slash(start, pos)
        if pos < 0:  # (a POD block with no =cut)
            return -1 - pos
        return pending[0][0] if pending else None

    def _note(self, code: str) -> None:
        """Take the plain code read between two marks (operators, brackets, spaces)."""
        code = code.rstrip()
        if code.endswith(("++", "--")) and (
                code[-3:-2].isalnum() or code[-3:-2] in ("_", ")", "]", "}")
                or (len(code) == 2 and self.last in _OPERAND_END)):
            self.last, self.word = "0", ""  # ($i++ / 2: a postfix ++ ends an operand)
        elif code:
            self.last, self.word = code[-1], ""

    def _term_may_start(self) -> bool:
        """Whether a term may start here (a ``/`` opens a regex): after an operator or an
        opening bracket, or a word such as ``split``."""
        if self.last in _TERM_AFTER or self.last == "":
            return self.word != "->"
        return self.word in _TERM_WORDS

    def _heredoc_may_start(self, at: int, bare: bool) -> bool:
        """Whether a ``<<`` at ``at`` opens a here-document: where a term may start, after
        a filehandle (``print STDERR <<EOF``, ``print $fh <<EOF``, ``print {$fh} <<EOF``:
        spaced before, not after) or a sub's name; quoted, ``<<~`` or ``<<\\`` wherever a
        number, a ``)`` or a ``]`` does not end an operand before it. ``1 << 2``,
        ``$x<<EOF``, ``MASK<<BITS`` shift."""
        if not bare:
            return self.last not in ("0", ")", "]")
        spaced = self.text[at - 1:at] in (" ", "\t")
        if self.last in ("$", "}"):  # (print $fh <<EOF, print {$fh} <<EOF)
            return spaced
        if self.word and self.word != "->":
            return spaced or not self.word.isupper()
        return self._term_may_start()

    def _word(self, word: str, start: int, pos: int) -> int:
        """Read a word at ``start``: a quote-like operator's literal (where it ends, -1 if it
        does not), ``__END__`` (the text's length + 1), ``format`` (its picture lines)."""
        text = self.text
        before = text[start - 1:start] if start else ""
        if word in ("__END__", "__DATA__") and self._first_on_line(start):
            return len(text) + 1
        prev_word = self.word
        # (a method's name is no function's: $post->like / $n divides, QA s50 helper-193)
        self.last, self.word = "a", "" if prev_word == "->" else word
        if word == "format" and self._first_on_line(start):
            picture = re.compile(r"[ \t]*(?:[\w:]+[ \t]*)?=[ \t]*\n").match(text, pos)
            if picture is not None:
                close = re.compile(r"^\.[ \t]*\r?$", re.M).search(text, picture.end())
                self.last, self.word = ";", ""
                return -1 if close is None else close.end()
            return pos
        if word not in _QUOTE_OPS or before in ("$", "@", "%", ":", "'", "\\") or (
                before in ("&", "*", "-") and text[start - 2:start - 1] != before) or (
                prev_word in ("sub", "->")):
            return pos
        k = pos
        while k < len(text) and text[k] in " \t":
            k += 1
        delim = text[k:k + 1]
        if not delim or delim.isalnum() or delim == "_" or delim in _DELIMITER_NOT or (
                delim in _DELIMITER_TOUCHING and k > pos) or delim in "\n\r" or (
                text[k:k + 2] in ("=>", "==", "=~")):
            return pos
        pos = _close(text, k + 1, delim)
        if pos >= 0 and word in _TWO_PARTS:
            if delim in _PAIRS:  # (s{a} {b}: the second part's own delimiters)
                k = pos
                while k < len(text) and text[k] in " \t\r\n":
                    k += 1
                if k >= len(text):
                    return -1
                pos = _close(text, k + 1, text[k])
            else:
                pos = _close(text, pos, delim)
        self.last, self.word = '"', ""
        return _flags(text, pos)

    def _first_on_line(self, start: int) -> bool:
        """Whether only spaces are before ``start`` on its line (looked back over them only:
        a long line's words are not each looked back from)."""
        k = start
        while k > 0 and self.text[k - 1] in " \t":
            k -= 1
        return k == 0 or self.text[k - 1] == "\n"

    def _slash(self, start: int, pos: int) -> int:
        """Read a ``/`` at ``start``: a regex's start where a term may start and the regex
        closes on its line (or, after ``=~``, ``(``, ``=``, ``,`` or ``split``..., where
        nothing but a regex may stand, within ``_REGEX_LINES`` lines: ``/x`` regexes span
        lines), then after it; else a division (after the ``/``)."""
        text = self.text
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        if line_end != self.dead_line and self._term_may_start():
            stop = line_end
            if self.last in _REGEX_ONLY or self.word in _TERM_WORDS:
                for _ in range(_REGEX_LINES):
                    stop = text.find("\n", stop + 1)
                    if stop < 0:
                        stop = len(text)
                        break
            close = _close(text, pos, "/", stop)
            if close >= 0:
                self.last, self.word = '"', ""
                return _flags(text, close)
            self.dead_line = line_end  # (no later / on this line is looked through again)
        elif text[pos:pos + 1] == "/":  # (//, //=: defined-or, no empty regex after it)
            pos += 1
        self.last, self.word = "/", ""
        return pos

    def _pods(self, pos: int) -> int:
        """Skip the POD blocks that start at ``pos`` (each a line ``=word`` to its ``=cut``
        line): where the code goes on, or ``-1 - pos`` if a block has no ``=cut``."""
        while self.text.startswith("=", pos) and self.text[pos + 1:pos + 2].isalpha():
            close = _CUT.search(self.text, pos)
            if close is None:
                return -1 - pos
            pos = close.end()
        return pos


def _flags(text: str, pos: int) -> int:
    """After a literal's close at ``pos``, where its flags end (``/x/gi``, ``s{a}{b}ge``:
    no word of their own, such as ``s`` opening another)."""
    if pos < 0:
        return pos
    while text[pos:pos + 1].isalpha():
        pos += 1
    return pos


def _close(text: str, pos: int, delim: str, stop: int = -1) -> int:
    """Where a literal opened by ``delim`` before ``pos`` ends (after its closing
    delimiter: a bracket pair nests, a backslash escapes), before ``stop`` if given; -1 if
    it does not."""
    stop = len(text) if stop < 0 else stop
    close = _PAIRS.get(delim, delim)
    if delim == "\\":  # (s\a\b\: no escapes)
        close_at = text.find(delim, pos, stop)
        return -1 if close_at < 0 else close_at + 1
    if close == delim:
        marks = re.compile(r"\\.|" + re.escape(delim), re.S)
    else:
        marks = re.compile(rf"\\.|{re.escape(delim)}|{re.escape(close)}", re.S)
    depth = 0
    for mark in marks.finditer(text, pos, stop):
        token = mark.group()
        if token == close:
            if not depth:
                return mark.end()
            depth -= 1
        elif token == delim:
            depth += 1
    return -1


_PROLOG_MARK = re.compile(r"%|/\*|0'(?:\\.|''|.)|[\"'`]")
_PROLOG_QUOTED = {q: re.compile(rf"(?:[^{q}\\\n]|\\.|{q}{q})*+(?:{q}|\n|$)") for q in "\"'`"}


def _open_prolog(text: str) -> int | None:
    """Prolog: the offset of a block comment left open, or None (quotes end at their
    line's end: a misread one goes no further)."""
    pos = 0
    while (mark := _PROLOG_MARK.search(text, pos)) is not None:
        token, pos = mark.group(), mark.end()
        if token == "%":
            pos = text.find("\n", pos)
            if pos < 0:
                return None
        elif token == "/*":
            close = text.find("*/", pos)
            if close < 0:
                return mark.start()
            pos = close + 2
        elif token in _PROLOG_QUOTED:
            pos = _PROLOG_QUOTED[token].match(text, pos).end()  # type: ignore[union-attr]
    return None


def _body_end(text: str, pos: int, word: str, indented: bool) -> int:
    """Where a here-document's body from ``pos`` ends (after its terminator line: exactly
    ``word``, or indented for ``<<~``), or -1."""
    indent = r"[ \t]*" if indented else ""
    close = re.compile(rf"^{indent}{re.escape(word)}\r?$\n?", re.M).search(text, pos)
    return -1 if close is None else close.end()
