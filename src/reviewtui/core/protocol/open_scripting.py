"""Where a Lua, Dart, Groovy, Elixir, SQL, HCL (Terraform), PowerShell, R, Julia, Haskell,
Clojure, Erlang or Nim program's text ends inside a multi-line string or comment, or a
Makefile's inside a ``define``: a sample reply the file shows in one (a Lua ``[[..]]``
string, a Dart or Groovy ``'''``, an Elixir heredoc or sigil, a PostgreSQL ``$$`` function
body, a Terraform ``<<EOF`` heredoc, a PowerShell ``@"..."@`` here-string) closes the
fence around the file at its own ``` line, and the rest of the file is read as other
blocks (``cut.py``, rule ``cut-off``).

These languages do not fit ``open_literals.py``'s C-family scanner: their strings open
code again (Dart's and Groovy's ``${..}``, Elixir's ``#{..}``) inside strings that span
lines, they have delimiters of their own (Lua's levels of ``=``, SQL's ``$tag$``, Elixir's
sigils, Groovy's slashy strings). So one pass over the text keeps a stack of what is open:
code at the bottom, a string on it, a hole's code on that, and so on; a hole ends at the
bracket matching its opener (``}``; PowerShell's and Julia's ``$(..)``: ``)``); an HCL
heredoc's body runs unread to its marker's line. Strings that cannot span lines (Dart's
and Groovy's ``'..'`` and ``".."``, Lua's quotes but for a ``\\`` before the newline,
HCL's, Nim's, Haskell's but for a gap) end at their line's end, so a quote misread cannot
carry past its line; a character literal (``'"'``, Erlang's ``$"``, Clojure's ``\\"``) is
passed over, never a string. Every look goes forward from where the last one
ended, and one that finds no close ends the reading: linear in the text. Pure.

Decisions where a language is ambiguous: a ``/`` in Groovy opens a slashy string only where
a value must start (after ``=``, ``(``, ``,``, ``~`` and such, or ``return``), never after a
name, a number or a closing bracket. SQL is read in the dialect a file shows (QA s50
helper-190: a MySQL dump's ``'O\\'Brien'`` read as standard SQL left a string open, a
correct file held; the same quote before a real sample hid it, a file written cut, exit 0):
MySQL (a ``mysql`` or ``mariadb`` fence, a ``DELIMITER`` line, or a ``\\'`` right before a
letter, which no standard string shows): ``\\`` escapes, ``#`` comments, backquoted names,
comments not nesting; SQLite and T-SQL (their fences): ``[..]`` and backquoted names,
comments not nesting in SQLite; else standard SQL and PostgreSQL: comments nest,
``E'..'`` takes ``\\`` escapes. Every dialect skips what no SQL string can span: a line
opened by ``#``, a psql meta-command (``\\echo``), an SQL*Plus ``PROMPT`` or ``REM`` line,
the data of a ``COPY .. FROM stdin`` up to its ``\\.`` line; and reads Oracle's
``q'[..]'`` quotes. PowerShell's ``#`` and ``<#`` open comments only where a token may
start (``foo#bar`` is one word); a here-string's ``"@`` closes at the very start of a line
(after blanks it is the here-string's text, as PowerShell reads it). Haskell's ``--``
inside an operator (``-->``) is none, and ``[name|..|]`` quotes text in a file naming
``QuasiQuotes``, or where it ends its line (else ``[x|x<-xs]`` is a list). A Makefile is
read for ``define`` alone (a recipe is shell, one line at a time). OCaml is read apart:
its comments hold strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

# How a string reads: (its close, the regex of its escapes ("" none), the opener of a hole
# of code in it ("" none), whether it ends at its line's end, whether its close stands at
# a line's start: an Elixir heredoc's)
_Spec = tuple[str, str, str, bool, bool]

_ESCAPE = r"\\."
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}


class _Frame:
    """What is open: code (the bottom, or a hole in a string: ``spec`` None) or a string."""

    __slots__ = ("depth", "one_line", "opener", "spec")

    def __init__(self, opener: int, spec: _Spec | None, one_line: bool = False) -> None:
        self.opener, self.spec = opener, spec
        self.one_line = one_line if spec is None else spec[3]  # (a hole: its string's)
        self.depth = 0  # braces open in a hole's code


class _Script:
    """A language's reading: the marks searched for in its code (``code`` at the bottom,
    ``inner`` in a hole, which its closing bracket and newlines end), how each opener's
    string reads; its block comments' marks, and where a here-document's body ends (a
    pattern of its ``{tag}``, searched from the line after its opener)."""

    def __init__(self, code: str, specs: dict[str, _Spec], *, nested: bool = False,
                 blocks: tuple[tuple[str, str], ...] = (("/*", "*/"),), pair: str = "{}",
                 heredoc: str = "") -> None:
        self.code = re.compile(code, re.S)
        self.inner = re.compile(f"{code}|(?P<brace>[{re.escape(pair)}])|(?P<nl>\\n)", re.S)
        self.specs = specs  # by the opener's text, lower-cased
        self.nested = nested  # block comments nest
        self.blocks = dict(blocks)  # a block comment's close, by its opener
        self.pair = pair  # the brackets a hole opens and closes with
        self.heredoc = heredoc


def _quotes(escape: str, hole: str, one_line: bool, marks: str) -> dict[str, _Spec]:
    """The specs of the quotes ``marks`` (each its own close), alike."""
    return {q: (q, escape, hole, one_line, False) for q in marks}


def _triples(escape: str, hole: str) -> dict[str, _Spec]:
    """The specs of ``'''`` and ``\"\"\"`` strings spanning lines."""
    return {q * 3: (q * 3, escape, hole, False, False) for q in "'\""}


# (an SQL*Plus REM or PROMPT line's word, but a column's: remark text DEFAULT '..')
_TYPES = (r"(?i:(?:tiny|medium|long)?text|n?varchar2?|n?char|n?clob|(?:tiny|medium|long)?blob"
          r"|(?:tiny|small|medium|big)?int(?:eger)?|number|numeric|decimal|real|float|double"
          r"|bool(?:ean)?|date(?:time)?|time(?:stamp)?|interval|jsonb?|xml|uuid|enum|set|bit"
          r"|(?:var)?binary|bytea|money|(?:big)?serial|inet|cidr)")
# what follows a string no standard SQL ends there: a letter ('O\'Brien'), a number ('5\' 10')
_NO_STRING_END = re.compile(r"[^\W_]|[ \t]+\d")
_LUA_ESCAPE = r"\\z\s*|\\."  # (\z skips the blanks and newlines after it; \ + newline: one)
# SQL, every dialect: what runs to its line's end (a comment, a line opened by #, a psql
# meta-command, an SQL*Plus PROMPT or REM line: at a line's start only, not before an "=",
# an indented "prompt" being a column's name and "remark = '..'" an assignment, QA s50
# helper-191), COPY's data, Oracle's q'[..]' quotes.
_SQL_ANY = (r"(?P<line>--|(?m:^)[ \t]*(?:\#|\\)"
            r"|(?m:^)(?i:prompt|rem|remark)(?=[ \t]*(?:\r?\n|$)|[ \t]+(?!=[^=]|:=|"
            + _TYPES + r"\b)\S))"
            r"|(?P<copy>(?m:^)[ \t]*(?i:copy)\b[^;\n]*\b(?i:from)[ \t]+(?i:stdin)\b[^\n]*)"
            r"|(?P<qquote>(?<![\w$])[qQ]'(?P<qd>\S))|(?P<block>/\*)")
_SQL_CODE = _SQL_ANY + r"|(?P<dollar>\$(?:[^\W\d]\w*)?\$)|(?P<string>(?<![\w$])[eE]'|['\"`])"
_SQL_NAMES = _SQL_ANY + r"|(?P<string>(?<![\w$])[eE]'|['\"`[])"  # (SQLite, T-SQL: no $$)
_MYSQL_QUOTES = {"'": ("'", r"''|\\.", "", False, False),
                 '"': ('"', r'""|\\.', "", False, False), "`": ("`", "``", "", False, False)}
_SQL_QUOTES = {**_quotes("''", "", False, "'"), **_quotes('""', "", False, '"'),
               "`": ("`", "``", "", True, False)}
_SYMBOL = r"!#$%&*+./<=>?@\\^|~:-"
_HASKELL = (rf"(?P<block>\{{-)|(?P<line>(?<![{_SYMBOL}])--+(?![{_SYMBOL}]))"
            r"|(?P<skip>(?<![\w'])'(?:\\.[^'\n]{0,9}|[^'\\\n])')|(?P<string>\"\"\"|\")")
_HASKELL_STRING = {'"': ('"', r"\\\s+\\|\\.", "", True, False),
                   '"""': ('"""', _ESCAPE, "", False, False)}  # (GHC 9.12's)
SCRIPTS = {
    "lua": _Script(r"(?P<long>(?:--)?\[(?P<eq>=*)\[)|(?P<line>--)|(?P<string>[\"'])",
                   _quotes(_LUA_ESCAPE, "", True, "\"'")),
    "dart": _Script(r"(?P<line>//)|(?P<block>/\*)"
                    r"|(?P<string>(?<![\w$])r(?:'''|\"\"\"|'|\")|'''|\"\"\"|'|\")",
                    {**_triples(_ESCAPE, "${"), **_quotes(_ESCAPE, "${", True, "\"'"),
                     **{"r" + q: (q, "", "", len(q) == 1, False)
                        for q in ("'''", '"""', "'", '"')}}, nested=True),
    "groovy": _Script(r"(?P<line>//)|(?P<block>/\*)"
                      r"|(?P<string>'''|\"\"\"|'|\"|(?<![\w$])\$/)|(?P<slash>/)",
                      {"'''": ("'''", _ESCAPE, "", False, False),
                       '"""': ('"""', _ESCAPE, "${", False, False),
                       "'": ("'", _ESCAPE, "", True, False), '"': ('"', _ESCAPE, "${", True, False),
                       "$/": ("/$", r"\$\$|\$/", "${", False, False),
                       "/": ("/", r"\\/", "${", False, False)}),
    "elixir": _Script(r"(?P<line>\#)|(?P<char>\?(?:\\.|[^\n]))"
                      r"|(?P<sigil>~(?P<name>[a-z]|[A-Z][A-Z0-9]*)(?P<delim>\"\"\"|'''|[/|\"'(\[{<]))"
                      r"|(?P<string>\"\"\"|'''|[\"'])",
                      {**{q: (q, _ESCAPE, "#{", False, True) for q in ('"""', "'''")},
                       **_quotes(_ESCAPE, "#{", False, "\"'")}),
}


SCRIPTS.update({
    "sql": _Script(_SQL_CODE, {**_SQL_QUOTES, "e'": ("'", r"''|\\.", "", False, False)},
                   nested=True),
    "mysql": _Script(_SQL_ANY + r"|(?P<hash>\#)|(?P<string>['\"`])", _MYSQL_QUOTES),
    # (MySQL's strings in a file that shows PostgreSQL's $$ too: a model mixes them, QA s50
    # helper-195: read as MySQL alone, a sample in the $$ string was missed)
    "mysql$": _Script(_SQL_ANY + r"|(?P<dollar>\$(?:[^\W\d]\w*)?\$)|(?P<hash>\#)"
                      r"|(?P<string>['\"`])", _MYSQL_QUOTES),
    # (SQLite and T-SQL: [..] quotes a name; SQLite's comments do not nest)
    "sqlite": _Script(_SQL_NAMES, {**_SQL_QUOTES, "e'": _SQL_QUOTES["'"],
                                   "[": ("]", "", "", True, False)}),
    "tsql": _Script(_SQL_NAMES, {**_SQL_QUOTES, "e'": _SQL_QUOTES["'"],
                                 "[": ("]", "]]", "", True, False)}, nested=True),
    # HCL (Terraform): "..." ends with its line but for a ${..} or %{..} hole's text; a
    # heredoc <<EOF or <<-EOF ends at a line of its marker, indented or not (HCL 2: both)
    "hcl": _Script(r"(?P<line>\#|//)|(?P<block>/\*)|(?P<string>\")"
                   r"|(?P<heredoc><<-?(?P<tag>[A-Za-z_][\w-]*)[ \t\r]*\n)",
                   {'"': ('"', r"\\.|\$\$\{|%%\{", "${ %{", True, False)},
                   heredoc=r"^[ \t]*{tag}[ \t\r]*$"),
    # PowerShell: a backtick escapes in code and "..", '' is a quote in '..', $(..) a
    # hole; a here-string @".."@ (a hole too) closes at the very start of a line (one after
    # blanks is its text); # and <# open comments only where a token may start (foo#bar)
    "powershell": _Script(r"(?P<skip>`.)|(?P<block>(?<![^\s;(){}|&=,\"'])<\#)"
                          r"|(?P<line>(?<![^\s;(){}|&=,\"'])\#)"
                          r"|(?P<string>@[\"'](?=[ \t\r]*\n)|[\"'])",
                          {'"': ('"', r'`.|""', "$(", False, False),
                           "'": ("'", "''", "", False, False),
                           # (closed by "@ at the very line's start: an indented one is
                           # text, '@types/node' in a YAML body, QA s50 helper-194)
                           '@"': ('\n"@', "`[^\n]", "$(", False, False),
                           "@'": ("\n'@", "", "", False, False)},
                          blocks=(("<#", "#>"),), pair="()"),
    # Erlang: $" is a character; OTP 27's """ closes on a line of its own, and its sigils
    # (~s[..], ~B<..>, ~"..": no holes) close at their delimiter's pair, over lines
    "erlang": _Script(r"(?P<line>%)|(?P<skip>\$(?:\\\^?)?.)"
                      r"|(?P<esigil>~[bBsS]?(?P<edelim>\"\"\"|[/|\"'`#(\[{<]))"
                      r"|(?P<string>\"\"\"|[\"'])",
                      {'"""': ('"""', "", "", False, True),
                       **_quotes(_ESCAPE, "", False, "\"'")}),
    # Clojure: \" and \; are characters; #"..", a regex, reads as a string
    "clojure": _Script(r"(?P<line>;)|(?P<skip>\\.)|(?P<string>\")",
                       _quotes(_ESCAPE, "", False, '"')),
    # R: raw strings r"(..)", r"--[..]--" (R 4.0); backquoted names span lines too
    "r": _Script(r"(?P<line>\#)|(?P<raw>(?<![\w.])[rR](?P<rq>[\"'])(?P<rd>-*)(?P<rb>[(\[{]))"
                 r"|(?P<string>[\"'`])", _quotes(_ESCAPE, "", False, "\"'`")),
    # Julia: $(..) holes; 'x' a character but x' a transpose; raw"..", r"..", any
    # name's string: no holes; #= =# nests
    "julia": _Script(r"(?P<block>\#=)|(?P<line>\#)"
                     r"|(?P<skip>(?<![\w)\]}'.])'(?:\\.[^'\n]{0,9}|[^'\\\n])')"
                     r"|(?P<prefixed>(?<![\w.])[^\W\d]\w*(?P<pq>\"\"\"|\"|```|`))"
                     r"|(?P<string>\"\"\"|\"|```|`)",
                     {**{q: (q, _ESCAPE, "$(", False, False) for q in ('"""', '"', "```", "`")},
                      **{"r" + q: (q, r'\\[\\"`]', "", False, False)
                         for q in ('"""', '"', "```", "`")}},
                     nested=True, blocks=(("#=", "=#"),), pair="()"),
    # Nim: """ has no escapes and closes at a run's last three quotes; ".." and r".." end
    # with their line (a name's: "" a quote); #[ ]# nests, ##[ ]## in itself; 'x' a char
    "nim": _Script(r"(?P<block>\#\#?\[)|(?P<line>\#)|(?P<skip>'(?:\\.[^'\n]{0,9}|[^'\\\n])')"
                   r"|(?P<prefixed>(?<![\w.])[^\W\d]\w*(?P<pq>\"\"\"|\"))|(?P<string>\"\"\"|\")",
                   {'"""': ('"""', '"(?="{3})', "", False, False),
                    '"': ('"', _ESCAPE, "", True, False),
                    'r"""': ('"""', '"(?="{3})', "", False, False),
                    'r"': ('"', '""', "", True, False)},
                   nested=True, blocks=(("#[", "]#"), ("##[", "]##"))),
    # Haskell: {- -} nests; -- opens a comment but in an operator (-->, <--); a string's
    # gap \  \ spans lines, else it ends with its line; 'x' is a character, x' a name
    # (a [name| ending its line is a quasi-quote whatever the file says: QuasiQuotes may be
    # on in the project's .cabal, QA s50 helper-194; no list comprehension is written so)
    "haskell": _Script(_HASKELL + r"|(?P<quasi>\[[^\W\d][\w.']*\|(?=[ \t]*\r?\n))",
                       _HASKELL_STRING, nested=True, blocks=(("{-", "-}"),)),
    # (with QuasiQuotes on, [name| .. |] quotes text over lines)
    "haskell-qq": _Script(_HASKELL + r"|(?P<quasi>\[[^\W\d][\w.']*\|)", _HASKELL_STRING,
                          nested=True, blocks=(("{-", "-}"),)),
})
# PowerShell reads each of these as the quote it stands for (its tokenizer's
# IsDoubleQuote, IsSingleQuote): a string opened by one closes at any of its kind
_PS_QUOTES = str.maketrans("\u201c\u201d\u201e\u2018\u2019\u201a\u201b", "\"\"\"''''")
_SQL_INFOS = {**dict.fromkeys(("mysql", "mariadb"), "mysql"),
              **dict.fromkeys(("sqlite", "sqlite3"), "sqlite"),
              **dict.fromkeys(("tsql", "t-sql", "mssql", "sqlserver", "transact-sql"), "tsql")}
# (the mysql client's DELIMITER command: a line of its own, a delimiter of marks: $$, //, ;;)
_DELIMITER = re.compile(r"^[ \t]*(?i:delimiter)[ \t]+[^\w\s'\"]+[ \t]*\r?$", re.M)


def sql_dialect(info: str, text: str) -> str:
    """The key of ``SCRIPTS`` an SQL file is read by: its fence's dialect, else MySQL's
    where a ``DELIMITER`` line shows it, else standard SQL's (which a ``\\'`` closing a
    string before a letter turns to MySQL's: ``open_script``)."""
    return _SQL_INFOS.get(info) or ("mysql" if _DELIMITER.search(text) else "sql")


@cache
def _inside(spec: _Spec) -> re.Pattern[str]:
    """The marks a string's text is searched for: an escape, a hole's opener, its close
    (at a line's start, after blanks, for a heredoc), its line's end if it ends there."""
    close, escape, hole, one_line, own_line = spec
    marks = [f"(?P<esc>{escape})"] if escape else []
    if hole:  # (several openers: spaced)
        marks.append(f"(?P<hole>{'|'.join(map(re.escape, hole.split()))})")
    at_start = r"^[ \t]*" if own_line else ""
    marks.append(f"(?P<close>{at_start}{re.escape(close)})")
    if one_line:
        marks.append(r"(?P<nl>\n)")
    return re.compile("|".join(marks), re.S | re.M)


def open_script(language: str, lines: Sequence[str], info: str = "") -> int | None:
    """The index of the line opening the string or comment ``lines``, a program in
    ``language`` (a key of ``SCRIPTS``; ``sql``: its dialect by ``info``, the fence's
    language, and the text), leave open; None when all close."""
    text = "".join(line + "\n" for line in lines)
    if language == "haskell" and "QuasiQuotes" in text:
        language = "haskell-qq"
    if language == "powershell":  # (its curly quotes are quotes: “..” is "..")
        text = text.translate(_PS_QUOTES)
    if language != "sql":
        opened = _scan(SCRIPTS[language], text)
        return None if opened is None else text.count("\n", 0, opened)
    dialect = sql_dialect(info, text)
    signs: list[int] = []
    opened = _scan(SCRIPTS[dialect], text, signs if dialect == "sql" else None)
    if signs:  # ('O\\'Brien': a string closed at \\' before a letter, which no standard
        # string shows, and MySQL reads as an escape: QA s50 helper-190 H1, W1)
        opened = _scan(SCRIPTS["mysql$"], text)
    return None if opened is None else text.count("\n", 0, opened)


def _scan(script: _Script, text: str, signs: list[int] | None = None) -> int | None:
    """The offset of what opens the outermost string or comment ``text`` leaves open; into
    ``signs`` (standard SQL) where a ``'..'`` string closes at a ``\\'`` before a letter."""
    stack = [_Frame(0, None)]
    end = len(text)
    pos = text.find("\n") + 1 if text.startswith("#!") else 0  # (a #! line: no code)
    while pos < end:
        top = stack[-1]
        if top.spec is not None:  # a string's text
            mark = _inside(top.spec).search(text, pos)
            if mark is None:
                return stack[1].opener
            pos = mark.end()
            if mark.lastgroup == "hole":
                stack.append(_Frame(top.opener, None, top.one_line))
            elif mark.lastgroup == "close":
                stack.pop()
                if (signs is not None and top.spec[1] == "''" and text[pos - 2:pos] == "\\'"
                        and _NO_STRING_END.match(text, pos)):
                    signs.append(pos)
            elif mark.lastgroup == "nl":  # (a one-line string ends with its line)
                _end_line(stack)
            continue
        m = (script.inner if len(stack) > 1 else script.code).search(text, pos)
        if m is None:
            break
        kind, start, pos = m.lastgroup, m.start(), m.end()
        outer = stack[1].opener if len(stack) > 1 else start
        if kind == "line" or kind == "hash":
            pos = text.find("\n", pos)  # (the newline itself is read: it may end a hole)
            pos = end if pos < 0 else pos
        elif kind == "copy":  # (COPY .. FROM stdin: data lines up to a line "\.")
            data = _COPY_END.search(text, pos)
            if data is None:
                return start
            pos = data.end()
        elif kind == "qquote":  # (Oracle: q'[..]', q'!..!')
            quote = m.group("qd")
            stack.append(_Frame(start, (_PAIRS.get(quote, quote) + "'", "", "", False, False)))
        elif kind == "block":
            pos = _close_comment(text, pos, script, m.group())
            if pos < 0:
                return outer
        elif kind == "long":  # Lua: [[..]], [==[..]==], --[[..]]: to the same level's close
            pos = text.find("]" + m.group("eq") + "]", pos)
            if pos < 0:
                return outer
            pos += len(m.group("eq")) + 2
        elif kind == "dollar":  # SQL: $$..$$, $tag$..$tag$; not a name's $ (a$b$)
            if text[start - 1:start].isalnum() or text[start - 1:start] in ("_", "$"):
                pos = start + 1
                continue
            pos = text.find(m.group(), pos)
            if pos < 0:
                return outer
            pos += len(m.group())
        elif kind == "char" and (text[start - 1:start].isalnum()
                                 or text[start - 1:start] in ("_", "?", "!")):
            pos = start + 1  # (Elixir: a name's ?, valid?("x"), not a character)
        elif kind == "sigil":
            delim = m.group("delim")
            stack.append(_Frame(start, (_PAIRS.get(delim, delim), _ESCAPE,
                                        "#{" if m.group("name").islower() else "",
                                        False, len(delim) == 3)))
        elif kind == "esigil":  # (Erlang's: escapes read in every kind, the safe side)
            delim = m.group("edelim")
            stack.append(_Frame(start, (_PAIRS.get(delim, delim), _ESCAPE, "", False,
                                        len(delim) == 3)))
        elif kind == "slash":
            if _value_may_start(text, start):
                stack.append(_Frame(start, script.specs["/"]))
        elif kind == "string":
            stack.append(_Frame(start, script.specs[m.group().lower()]))
        elif kind == "heredoc":  # (HCL's <<EOF, <<-EOF): a body up to its marker's line
            close = _heredoc_end(script.heredoc, m.group("tag")).search(text, pos)
            if close is None:
                return outer
            pos = close.end()
        elif kind == "raw":  # (R: r"(..)", r"--[..]--"): to the same dashes' close
            quote = m.group("rq")
            pos = text.find(_PAIRS[m.group("rb")] + m.group("rd") + quote, pos)
            if pos < 0:
                return outer
            pos += len(m.group("rd")) + 2
        elif kind == "prefixed":  # (Julia's raw"..", Nim's r"..", a name's: no holes)
            stack.append(_Frame(start, script.specs["r" + m.group("pq")]))
        elif kind == "quasi":  # (Haskell: [name| .. |])
            pos = text.find("|]", pos)
            if pos < 0:
                return outer
            pos += 2
        elif kind == "brace":
            if m.group() == script.pair[0]:
                top.depth += 1
            elif top.depth:
                top.depth -= 1
            else:  # the hole closes: its string goes on
                stack.pop()
        elif kind == "nl" and top.one_line:  # (a one-line string's hole ends with its line)
            _end_line(stack)
    return stack[1].opener if len(stack) > 1 else None


def _end_line(stack: list[_Frame]) -> None:
    """At a newline: end the one-line strings open, and the holes in them."""
    while len(stack) > 1 and stack[-1].one_line:
        stack.pop()


def _close_comment(text: str, pos: int, script: _Script, opener: str) -> int:
    """Where the block comment ``opener`` opened before ``pos`` ends (after its close), or
    -1; when comments nest, only its own opener nests in it (Nim's ``##[`` holds ``#[``)."""
    closer = script.blocks[opener]
    if not script.nested:
        close = text.find(closer, pos)
        return close + len(closer) if close >= 0 else -1
    depth = 1
    for mark in _comment_marks(opener, closer).finditer(text, pos):
        depth += 1 if mark.group() == opener else -1
        if not depth:
            return mark.end()
    return -1


@cache
def _comment_marks(opener: str, closer: str) -> re.Pattern[str]:
    return re.compile(f"{re.escape(opener)}|{re.escape(closer)}")


@cache
def _heredoc_end(pattern: str, tag: str) -> re.Pattern[str]:
    """The line that ends a here-document opened with ``tag``."""
    return re.compile(pattern.format(tag=re.escape(tag)), re.M)


_COPY_END = re.compile(r"^\\\.[ \t\r]*$", re.M)
_VALUE_AFTER = frozenset("=(,[:!&|?{;+-*%<>~^")
_VALUE_WORDS = frozenset({"return", "case", "in", "assert", "yield", "throw", "else"})


def _value_may_start(text: str, at: int) -> bool:
    """Whether a Groovy ``/`` at ``at`` opens a slashy string: where a value must start
    (after an operator, an opening bracket, ``return``; at the file's start), not after a
    name, a number, a closing bracket or a postfix ``++``/``--`` (a division)."""
    k = at - 1
    while k >= 0 and text[k] in " \t\r\n":
        k -= 1
    if k < 0:
        return True
    if text[k] in "+-" and text[k - 1:k] == text[k]:
        return False  # (i++ / 2)
    if text[k] in _VALUE_AFTER:
        return True
    word_end = k + 1
    while k >= 0 and (text[k].isalnum() or text[k] == "_"):
        k -= 1
    return text[k + 1:word_end] in _VALUE_WORDS and text[k:k + 1] != "."


_MAKE_DEFINE = re.compile(r"(?:(?:override|export|private|unexport)[ \t]+)*define(?:[ \t]|$)")


def open_make(lines: Sequence[str]) -> int | None:
    """The index of the line opening a Makefile's ``define`` a reply's sample may have cut
    (no ``endef`` after it), or None. GNU make reads a body's lines not opened by a tab for
    ``define`` (one deeper) and ``endef`` (one out, a comment after it allowed); a recipe
    line (a tab first) or a comment continued by a ``\\`` opens none."""
    opened, depth, continued = 0, 0, False
    for index, line in enumerate(lines):
        was_continued, continued = continued, line.endswith("\\") and (
            len(line) - len(line.rstrip("\\"))) % 2 == 1
        if line.startswith("\t") or (was_continued and not depth):
            continue
        word = line.lstrip(" \t")
        if depth:
            if word.startswith("define") and word[6:7] in ("", " ", "\t"):
                depth += 1
            elif word.startswith("endef") and word[5:6] in ("", " ", "\t", "#"):
                depth -= 1
            continue
        if _MAKE_DEFINE.match(word):
            opened, depth = index, 1
    return opened if depth else None


# OCaml: what its lexer reads in code and in comments alike (a comment holds strings,
# quoted strings and characters: a "*)" in one closes nothing)
# ({id|..|id}, and the quoted extensions {%ext|..|}, {%%ext id|..|id}: QA s50 helper-194)
_OCAML = re.compile(r"(?P<open>\(\*)|(?P<close>\*\))|(?P<string>\")"
                    r"|\{(?:%%?[A-Za-z_][\w.]*[ \t\r\n]*)?(?P<quoted>[a-z_0-9]*)\|"
                    r"|(?<![\w'])'(?:\\(?:[\\\"'ntbr ]|\d{3}|x[0-9a-fA-F]{2}|o[0-7]{3}"
                    r"|u\{[0-9a-fA-F]+\})|[^\\'\n])'")
_OCAML_STRING_END = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.S)


def open_ocaml(lines: Sequence[str]) -> int | None:
    """The index of the line opening the comment, string or quoted string ``{id|..|id}``
    an OCaml program's ``lines`` leave open (the outermost comment's, when in one), or
    None. Comments nest, and the strings in them are read as strings ("unterminated string
    in comment" is an error, so a correct file has none); ``'a`` is a type variable, ``'"'``
    a character."""
    text = "".join(line + "\n" for line in lines)
    pos, depth, opened = 0, 0, 0
    while (m := _OCAML.search(text, pos)) is not None:
        pos, start = m.end(), m.start()
        if m.lastgroup == "open":
            opened = start if not depth else opened
            depth += 1
        elif m.lastgroup == "close":
            depth -= 1 if depth else 0
        elif m.lastgroup == "string":
            end = _OCAML_STRING_END.match(text, pos)
            if end is None:
                return text.count("\n", 0, opened if depth else start)
            pos = end.end()
        elif m.lastgroup == "quoted":  # {|..|}, {id|..|id}
            closer = f"|{m.group('quoted')}}}"
            close = text.find(closer, pos)
            if close < 0:
                return text.count("\n", 0, opened if depth else start)
            pos = close + len(closer)
    return text.count("\n", 0, opened) if depth else None
