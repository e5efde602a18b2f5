"""Where a program's text ends inside a multi-line string or comment, for the languages
``open_strings.py`` does not read itself: the C family (JavaScript and TypeScript, Go,
Rust, Java, Kotlin, Scala, Swift, C#, C and C++, CSS), TOML and Ruby.

A sample reply that a file shows inside such a string (a template literal, a Go or Rust
raw string, a text block, a TOML ``\"\"\"`` string, a Ruby here-document) or a block
comment may close the fence around the file at its own ``` line: the file as read then
ends inside that string (QA s48: src/app.py written from the rest of tool.js, exit 0).

Each family is read by a small scanner of its own, not by Pygments' lexers: those recover
from what they cannot match by going back to their root state at a line's end, and a few
say nothing of where an unterminated string began, so a text cut inside a string does not
reliably end in a string token; a hand-written scanner says exactly that, in one pass.
Strings that cannot span lines (most quotes) end at the line's end whatever follows, so a
quote misread (a lifetime, an apostrophe in JSX text) does not carry past its line; but
it may hide an opener later on that line (QA85): so C++'s digit separators (1'000) are no
quotes, an unquoted CSS url(..) no comment, a ``/`` after ``i++``, ``x!`` divides and one
after ``if (..)`` opens a regex, and a JavaScript file is read a second time with JSX text
(between tags) read as text: it is open if either reading ends open. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


class _Lang:
    """What a C-family language's scanner looks for (each a flag of the family)."""

    def __init__(self, *, line: str = "//", nested: bool = False, tick: str = "",
                 triple: str = "", triple_escapes: str = '"', multiline_quote: bool = False,
                 rust: bool = False, regex: bool = False, cpp_raw: bool = False,
                 csharp: bool = False, apostrophe: bool = True, raw_apostrophe: bool = False,
                 block: bool = True, digit_separator: bool = False, jsx: bool = False,
                 url: bool = False, holes: bool = False, swift_raw: bool = False) -> None:
        self.line = line  # the line comment's opener ("" none)
        self.nested = nested  # block comments nest (Rust, Kotlin, Scala, Swift)
        self.tick = tick  # a backtick opens: "template" (JS), "raw" (Go), "line" (a name)
        self.triple = triple  # the quote characters a triple of opens a multi-line string
        self.triple_escapes = triple_escapes  # the quotes whose triples take \\ escapes
        self.multiline_quote = multiline_quote  # "..." may span lines (Rust)
        self.rust = rust  # raw strings r#"..."#; ' opens a char or is a lifetime
        self.regex = regex  # / may open a regular expression literal (JavaScript)
        self.apostrophe = apostrophe  # ' opens a (one-line) string or a character
        self.raw_apostrophe = raw_apostrophe  # ... which takes no escapes (TOML)
        self.digit_separator = digit_separator  # ... not after a number: 1'000 (C++14)
        self.jsx = jsx  # < may open a JSX element, whose text is no code
        self.holes = holes  # "..${'"'}.." (Kotlin, Scala): a hole's quotes do not close it
        parts = []
        if line:
            parts.append(f"(?P<line>{re.escape(line)})")
        if block:
            parts.append(r"(?P<block>/\*)")
        if cpp_raw:
            parts.append(r'(?P<cppraw>R"([^()\\\s]{0,16})\()')
        if rust:
            parts.append(r'(?P<rustraw>r(#*)")')
        if swift_raw:  # #"..."#, #"""...."""# (no escapes but \#)
            parts.append(r'(?P<swiftraw>(#+)("(?:"")?))')
        if csharp:
            parts.append(r'(?P<verbatim>(?:\$@|@\$?)")|(?P<csraw>\$*"{3,})|(?P<csinterp>\$")')
        if triple:
            parts.append(f"(?P<triple>{'|'.join(q * 3 for q in triple)})")
        parts.append(r'(?P<quote>")')
        if apostrophe:
            parts.append(r"(?P<apos>')")
        if tick:
            parts.append(r"(?P<tick>`)")
        if regex:
            parts.append(r"(?P<slash>/)")
        if url:  # CSS: url(http://x/*.png) unquoted is one token, no comment in it
            parts.append(r"(?P<url>url\((?=\s*[^\s\"']))")
        if jsx:
            parts.append(r"(?P<lt>(?<!<)<(?=[A-Za-z>]))")
        firsts = {part[part.index(">") + 1:].lstrip("(?:\\")[:1] for part in parts}
        firsts |= set("@$" if csharp else "")
        self.code = _marks(parts, firsts)
        # (in a JS template's ${..}, braces too: the one closing it goes back to the text)
        self.inner = _marks([*parts, r"(?P<brace>[{}])"], firsts | {"{", "}"})


def _marks(parts: list[str], firsts: set[str]) -> re.Pattern[str]:
    """The alternatives ``parts``, behind a class of the characters they start with (which
    the search skips to fast)."""
    return re.compile(f"(?=[{re.escape(''.join(sorted(firsts)))}])(?:{'|'.join(parts)})")


_ONE_LINE = {q: re.compile(rf"[^{q}\\\n]*(?:\\.[^{q}\\\n]*)*(?:{q}|\n|$)", re.S)
             for q in "\"'`"}
_RAW_ONE_LINE = re.compile(r"[^'\n]*(?:'|\n|$)")
_MULTI_LINE_QUOTE = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_VERBATIM = re.compile(r'[^"]*(?:""[^"]*)*"(?!")')
# a hole's code, on its line: its strings and characters, braces one deep
_HOLE = r"""(?:[^{}"'\n]|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|\{[^{}\n]*\})*+\}"""
_HOLES = re.compile(rf"""(?:[^"\\\n$]|\\.|\$(?!\{{)|\$\{{{_HOLE})*+(?:"|\n|$)""")
_CS_HOLES = re.compile(rf"""(?:[^"\\\n{{]|\\.|\{{\{{|\{{{_HOLE})*+(?:"|\n|$)""")
_VERBATIM_HOLES = re.compile(rf"""(?:[^"{{]|""|\{{\{{|\{{{_HOLE})*+"(?!")""")
_TEMPLATE = re.compile(r"\\.|`|\$\{", re.S)
_REGEX_BODY = re.compile(r"(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/")
# Characters a text's / may look through for a regex that does not close, past four times
# its size: a longer look is held (a line of x=/a[ repeated looked to the line's end at
# every /, QA s49 helper-175 S02; a cap on one regex's length read a minified 600-character
# regex as code, its backquote opening a template, helper-180 W02).
_MISSED_MOST = 100_000
_RUST_CHAR = re.compile(r"\\(?:u\{[0-9a-fA-F_]{1,8}\}|x[0-9a-fA-F]{2}|.)'|[^\\\n]'", re.S)
_COMMENT_MARKS = re.compile(r"/\*|\*/")
_REGEX_AFTER = frozenset("(,=:[!&|?{};+-*%<>~^")
_REGEX_WORDS = frozenset({"return", "typeof", "instanceof", "in", "of", "new", "delete",
                          "void", "throw", "case", "do", "else", "yield", "await"})


def _c_like(lang: _Lang, text: str, block: CodeBlock | None = None) -> int | None:
    """The offset of what opens a multi-line string or comment ``text`` leaves open (a JS
    template literal whose ``${`` is open: the template's), or None. With ``block``, only
    the block of code whose ``{`` is at ``block.brace`` is read: None when it closes (its
    end then in ``block.end``), else what it leaves open (the ``{`` when nothing in it)."""
    # the holes open: a JS template's ${ or a JSX element's { (its element's reading kept):
    # [opener, brace depth in the hole] (a JSX element's: and the element's state after;
    # a block read alone: [its {, depth, -1])
    templates: list[list[int]] = [] if block is None else [[block.brace, 0, -1]]
    pos, end = (0, len(text)) if block is None else (block.brace + 1, len(text))
    # (characters looked through for regular expressions that did not close: a file's
    # blocks share the count, or a line of {(/[)} would look to its end at each one)
    missed = 0 if block is None else block.missed
    while pos < end:
        m = (lang.inner if templates else lang.code).search(text, pos)
        if m is None:
            break
        kind, start, pos = m.lastgroup, m.start(), m.end()
        if kind == "line":
            pos = text.find("\n", pos)
            while lang.digit_separator and pos > 0 and text[pos - 1] == "\\":
                pos = text.find("\n", pos + 1)  # (C: a // comment's line continued, H05)
            if pos < 0:
                break
        elif kind == "block":
            pos = _close_comment(text, pos, lang.nested)
            if pos < 0:
                return start
        elif kind == "triple":
            close = m.group()
            if close[0] in lang.triple_escapes:
                pos = _close_escaped(text, pos, close)
            else:
                pos = text.find(close, pos)
                pos = pos if pos < 0 else pos + 3
            if pos < 0:
                return start
            while text[pos:pos + 1] == close[0]:  # (quotes just before the close are text)
                pos += 1
        elif kind == "quote" and lang.multiline_quote:
            q = _MULTI_LINE_QUOTE.match(text, pos)
            if q is None:
                return start
            pos = q.end()
        elif kind == "apos" and lang.digit_separator and text[start - 1:start].isalnum() \
                and _word_before(text, start)[:1].isdigit():
            continue  # (a digit separator: 1'000, 0xFF'FF)
        elif kind == "url":  # (unquoted, to its ) on the line; not a name's: my-url(
            paren, newline = text.find(")", pos), text.find("\n", pos)
            if not (text[start - 1:start].isalnum() or text[start - 1:start] in ("-", "_")) and (
                    paren >= 0 and (newline < 0 or paren < newline)) and not any(
                    quote in text[pos:paren] for quote in "\"'"):
                pos = paren + 1  # (a quote before the ): read as code, url($x + ")"), W09)
        elif kind == "apos" and lang.raw_apostrophe:
            pos = _RAW_ONE_LINE.match(text, pos).end()  # type: ignore[union-attr]
        elif kind == "quote" and lang.holes and (q := _HOLES.match(text, pos)) is not None:
            pos = q.end()
        elif kind in ("quote", "apos") and not (kind == "apos" and lang.rust):
            pos = _ONE_LINE[m.group()].match(text, pos).end()  # type: ignore[union-attr]
        elif kind == "apos":  # Rust: a character ('x', '\n', '"') or a lifetime ('a)
            c = _RUST_CHAR.match(text, pos)
            pos = c.end() if c is not None else pos
        elif kind in ("rustraw", "cppraw") and _word_before(text, start) not in (
                ("", "b", "c") if kind == "rustraw" else ("", "u8", "u", "U", "L")):
            pos = start + 1  # (a name's last letter: MACRO_R"x", not a raw string)
        elif kind == "rustraw":
            close = '"' + m.group(m.lastindex + 1)  # type: ignore[operator]
            pos = text.find(close, pos)
            if pos < 0:
                return start
            pos += len(close)
        elif kind == "cppraw":
            close = ")" + m.group(m.lastindex + 1) + '"'  # type: ignore[operator]
            pos = text.find(close, pos)
            if pos < 0:
                return start
            pos += len(close)
        elif kind == "csinterp":  # C# $"..{'"'}..": a hole's quotes do not close it
            q = _CS_HOLES.match(text, pos) or _ONE_LINE['"'].match(text, pos)
            pos = q.end()  # type: ignore[union-attr]
        elif kind == "swiftraw":
            hashes = m.group().rstrip('"')
            close = m.group()[len(hashes):] + hashes  # (its quotes, then as many #)
            pos = text.find(close, pos)
            if pos < 0:
                return start
            pos += len(close)
        elif kind == "verbatim":  # C# @"..": "" is a quote in it
            q = (_VERBATIM_HOLES if "$" in m.group() else _VERBATIM).match(text, pos)
            if q is None:
                return start
            pos = q.end()
        elif kind == "csraw":  # C# """..""" (3 quotes or more, closed by as many)
            close = '"' * m.group().count('"')
            pos = text.find(close, pos)
            if pos < 0:
                return start
            pos += len(close)
        elif kind == "tick" and lang.tick == "raw":  # Go: `..` to the next backtick
            pos = text.find("`", pos)
            if pos < 0:
                return start
            pos += 1
        elif kind == "tick" and lang.tick == "template":
            pos = _template(text, pos, start, templates)
            if pos < 0:
                return start
        elif kind == "tick":  # a name in backticks (Kotlin, Scala, Swift): one line
            pos = _ONE_LINE["`"].match(text, pos).end()  # type: ignore[union-attr]
        elif kind == "slash":
            if _regex_may_start(text, start):
                line_end = text.find("\n", pos)
                line_end = end if line_end < 0 else line_end
                r = _REGEX_BODY.match(text, pos, line_end)
                if r is not None:
                    pos = r.end()
                else:  # (no regex: a division after all; what the failed look cost is
                    missed += line_end - pos  # counted: a line of x=/a[ tried each /)
                    if block is not None:
                        block.missed = missed
                    if missed > _MISSED_MOST + 4 * end:
                        return start  # (held: never quadratic, never a guess)
        elif kind == "lt":
            if _regex_may_start(text, start) and not _GENERIC.match(text, start):
                pos = _jsx(text, pos - 1, [start, 0, 0, 0], templates)
                if pos < 0:
                    return start
        elif kind == "brace" and templates:
            if m.group() == "{":
                templates[-1][1] += 1
            elif templates[-1][1]:
                templates[-1][1] -= 1
            else:  # the ${ closes: the template goes on (or the { the JSX element)
                hole = templates.pop()
                opener = hole[0]
                if len(hole) == 3 and block is not None:  # (the block read alone ends)
                    block.end = pos
                    return None
                if len(hole) == 2:
                    pos = _template(text, pos, opener, templates)
                else:
                    pos = _jsx(text, pos, hole[2:], templates)
                if pos < 0:
                    return opener
    return templates[-1][0] if templates else None


def _word_before(text: str, at: int) -> str:
    """The run of name characters that ends at ``at`` (a string's prefix, or a name)."""
    k = at
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
        k -= 1
    return text[k:at]


def _close_comment(text: str, pos: int, nested: bool) -> int:
    """Where the block comment opened before ``pos`` ends (after its ``*/``), or -1."""
    if not nested:
        close = text.find("*/", pos)
        return close + 2 if close >= 0 else -1
    depth = 1
    for mark in _COMMENT_MARKS.finditer(text, pos):
        depth += 1 if mark.group() == "/*" else -1
        if not depth:
            return mark.end()
    return -1


def _close_escaped(text: str, pos: int, close: str) -> int:
    """Where a string whose text may escape characters with ``\\`` ends (after ``close``),
    or -1."""
    pattern = re.compile(r"\\.|" + re.escape(close), re.S)
    for mark in pattern.finditer(text, pos):
        if mark.group() == close:
            return mark.end()
    return -1


def _template(text: str, pos: int, opener: int, templates: list[list[int]]) -> int:
    """Read a JS template literal from ``pos``: where it closes, or where a ``${`` in it
    opens (the template then pushed on ``templates``, to go on at its ``}``); -1 if
    neither comes."""
    for mark in _TEMPLATE.finditer(text, pos):
        if mark.group() == "`":
            return mark.end()
        if mark.group() == "${":
            templates.append([opener, 0])
            return mark.end()
    return -1


_JSX_TEXT = re.compile(r"[<{]")
_GENERIC = re.compile(r"<\s*[A-Za-z_$][\w$]*\s*(?:,|extends\b)")  # (.tsx: <T,>(x) => x)
_JSX_TAG = re.compile(r"\"[^\"]*\"|'[^']*'|[\"'{>]|/>")
_LOOK_BACK = 400  # (how far the ( of a ) is looked for, on its line)


def _jsx(text: str, pos: int, element: list[int], templates: list[list[int]]) -> int:
    """Read a JSX element from ``pos`` (a tag's ``<``, the text after a tag, or the inside
    of a tag after a ``{..}`` in it): its text is no code. ``element`` is its state:
    [opener, depth of tags open, inside a tag (1), the tag a closing one (1)]. Where the element
    ends (after its last tag's ``>``); or, at a ``{`` (JS code, to the ``}`` that goes
    back to the element), after it, the element pushed on ``templates``; -1 if neither."""
    while True:
        if not element[2]:  # text: to the next tag or {
            mark = _JSX_TEXT.search(text, pos)
            if mark is None:
                return -1
            pos = mark.end()
            if mark.group() == "{":
                templates.append([element[0], 0, *element])
                return pos
            if text[pos:pos + 1] == "/":
                element[2], element[3] = 1, 1
                pos += 1
            elif re.match(r"[A-Za-z>]", text[pos:pos + 1]):
                element[2], element[3] = 1, 0
            continue  # (else a < in text: not JSX, read as text)
        mark = _JSX_TAG.search(text, pos)
        if mark is None or mark.group() in ("\"", "'"):
            return -1
        pos = mark.end()
        if mark.group() == "{":
            templates.append([element[0], 0, *element])
            return pos
        if mark.group() in (">", "/>"):
            element[2] = 0
            if mark.group() == ">":
                element[1] += -1 if element[3] else 1
            if element[1] <= 0:
                return pos


def _regex_may_start(text: str, at: int) -> bool:
    """Whether a ``/`` at ``at`` may open a regular expression (not divide): after an
    operator, an opening bracket, a keyword such as ``return``, or the ``)`` of an
    ``if (..)``; not after a postfix ``++``, ``--`` or TypeScript's ``x!``."""
    k = at - 1
    while k >= 0 and text[k] in " \t\r\n":
        k -= 1
    if k >= 0 and text[k] in "+-!" and k and (
            (text[k] != "!" and text[k - 1] == text[k] and k > 1 and _operand_end(text, k - 2))
            or (text[k] == "!" and _operand_end(text, k - 1)
                and _word_before(text, k) not in _REGEX_WORDS)):
        return False  # (i++ / 2, m.get(k)! / 2: division; return!/"/: a regex, W01)
    if k >= 0 and text[k] == ")":
        return _after_control(text, k)
    if k < 0 or text[k] in _REGEX_AFTER:
        return True
    if not (text[k].isalnum() or text[k] in "_$"):
        return False
    word_end = k + 1
    while k >= 0 and (text[k].isalnum() or text[k] in "_$"):
        k -= 1
    return text[k + 1:word_end] in _REGEX_WORDS


def _operand_end(text: str, k: int) -> bool:
    """Whether the character at ``k`` may end an operand (a name, a number, a bracket)."""
    return k >= 0 and (text[k].isalnum() or text[k] in "_$)]")


def _after_control(text: str, close: int) -> bool:
    """Whether the ``)`` at ``close`` ends an ``if (..)``, ``while (..)``, ``for (..)`` (its
    ``(`` looked for on its line, not far): a ``/`` after it opens a regex."""
    depth = 0
    stop = max(text.rfind("\n", 0, close), close - _LOOK_BACK)
    for k in range(close, stop, -1):
        if text[k] == ")":
            depth += 1
        elif text[k] == "(":
            depth -= 1
            if not depth:
                j = k
                while j > 0 and text[j - 1] in " \t":
                    j -= 1
                word = _word_before(text, j)
                return word in ("if", "while", "for", "with") and (
                    text[j - len(word) - 1:j - len(word)] != ".")  # (o.if(3) / 2: W05)
    return False


_JS = _Lang(tick="template", regex=True)
_JSX = _Lang(tick="template", regex=True, jsx=True)
C_FAMILY = {
    "js": _JS,
    "ts": _JS,
    "go": _Lang(tick="raw"),
    "rust": _Lang(nested=True, multiline_quote=True, rust=True),
    "java": _Lang(triple='"'),
    "kotlin": _Lang(nested=True, tick="line", triple='"', triple_escapes="", holes=True),
    "scala": _Lang(nested=True, tick="line", triple='"', triple_escapes="", holes=True),
    "swift": _Lang(nested=True, tick="line", triple='"', apostrophe=False, swift_raw=True,
                   regex=True),
    "csharp": _Lang(csharp=True),
    "c": _Lang(cpp_raw=True, digit_separator=True),
    "css": _Lang(line="", url=True),
    "scss": _Lang(url=True),
    "toml": _Lang(line="#", block=False, triple="\"'", raw_apostrophe=True),
}


class CodeBlock:
    """A block of code in a markup file read alone (a Razor ``@{ .. }``, a Svelte or
    Astro ``{..}`` expression): its ``{``, where it ended (after its ``}``), and what
    looks for regular expressions cost so far in the file (shared by its blocks)."""

    def __init__(self) -> None:
        self.brace = 0
        self.end = -1
        self.missed = 0


def open_code_block(language: str, text: str, brace: int, block: CodeBlock) -> int | None:
    """Read the block of ``language`` (``js``, ``jsx`` or ``csharp``) whose ``{`` is at
    ``brace`` in ``text`` to its ``}``: None when it closes (``block.end`` then after it),
    else the offset of what the text ends inside (a string, a template literal, a
    comment, or the block itself at its ``{``)."""
    block.brace = brace
    return _c_like(_JSX if language == "jsx" else C_FAMILY[language], text, block)


def open_literal(language: str, lines: Sequence[str]) -> int | None:
    """The index of the line opening a multi-line string, comment or here-document that
    ``lines``, a file of ``language`` (``C_FAMILY``'s keys, or ``ruby``), leave open; None
    when all close."""
    if language == "ruby":  # (open if either reading says so: quotes within a line, or
        from reviewtui.core.protocol.open_ruby import open_ruby  # strings spanning lines)

        opened = _open_ruby(lines)
        return open_ruby(lines) if opened is None else opened
    text = "".join(line + "\n" for line in lines)
    opened = _c_like(C_FAMILY[language], text)
    if opened is None and language == "js":  # (read again with JSX text read as text:
        opened = _c_like(_JSX, text)  # a quote or // in it hid a /* after it; QA 01-04)
    return None if opened is None else text.count("\n", 0, opened)


# -- Ruby -----------------------------------------------------------------------------------

_RUBY_HEREDOC = re.compile(r"<<([~-]?)([\"'`]?)([A-Za-z_]\w*)\2")
_RUBY_MARK = re.compile(r"\\.|[\"'`#]|<<|\$[\"'`]|\?[\"'`]", re.S)


def _open_ruby(lines: Sequence[str]) -> int | None:
    """Ruby: the line opening a here-document (``<<~EOS``, ``<<-'EOS'``, ``<<EOS``) whose
    terminator never comes, or an ``=begin`` comment no ``=end`` closes. Quotes are read
    within a line only (a string spanning lines is rare, and read so a misread quote
    cannot hide or invent a here-document past its line)."""
    k = 0
    while k < len(lines):
        line = lines[k]
        if line == "__END__":
            return None
        if line.startswith("=begin") and line[6:7] in ("", " ", "\t"):
            end = next((n for n in range(k + 1, len(lines)) if lines[n].startswith("=end")),
                       None)
            if end is None:
                return k
            k = end + 1
            continue
        at, k = k, k + 1
        for word in _ruby_heredocs(line):
            end = next((n for n in range(k, len(lines)) if lines[n].strip() == word), None)
            if end is None:
                return at
            k = end + 1
    return None


def _ruby_heredocs(line: str) -> list[str]:
    """The terminators of the here-documents ``line`` opens, in order."""
    found: list[str] = []
    quote = ""
    pos = 0
    while (mark := _RUBY_MARK.search(line, pos)) is not None:
        token, pos = mark.group(), mark.end()
        if quote:
            quote = "" if token[-1] == quote and token[0] != "\\" else quote
        elif token == "#":
            break
        elif token in ("\"", "'", "`"):
            quote = token
        elif token == "<<" and (here := _RUBY_HEREDOC.match(line, mark.start())):
            before = line[max(0, mark.start() - 80):mark.start()]  # (what is just before:
            # the whole line so far, searched at every <<, was quadratic: helper-180 S01)
            if not (here.group(1) or here.group(2)) and (
                    before[-1:].isalnum() or before[-1:] in tuple(")]}_")  # (a shift: x<<y)
                    or re.search(r"(?<![\w.])\d[\w.]*\s*$", before)  # (1 <<SHIFT, H08)
                    or here.group(3) == "self" or before.rstrip().endswith("class")):
                continue
            found.append(here.group(3))
            pos = here.end()
    return found
