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
from collections.abc import Callable

from reviewtui.core.protocol.open_markup import blank

# C#'s tokens that may hold a bracket: verbatim and raw strings (over lines), strings and
# characters (one line), comments; and the brackets.
_CS = re.compile(r'(?P<markup>@<(?P<tag>[A-Za-z][\w:.-]*))|(?P<verbatim>\$*@\$*")'
                 r'|(?P<raw>\$*"{3,})|(?P<string>\$*")'
                 r"|(?P<char>'(?:[^'\\\n]|\\.)+')|(?P<line>//[^\n]*)|(?P<block>/\*)"
                 r"|(?P<open>[(\[{])|(?P<close>[)\]}])")
_VERBATIM_REST = re.compile(r'(?:[^"]|"")*+"')
_STRING_REST = re.compile(r'(?:[^"\\\n]|\\.)*+"')
# PHP's: strings over lines (a backslash escaping), comments, brackets.
_PHP = re.compile(r"(?P<single>')|(?P<double>\")|(?P<line>//[^\n]*|#[^\n]*)|(?P<block>/\*)"
                  r"|(?P<open>[(\[{])|(?P<close>[)\]}])")
_SINGLE_REST = re.compile(r"(?:[^'\\]|\\.)*+'", re.S)
_DOUBLE_REST = re.compile(r'(?:[^"\\]|\\.)*+"', re.S)


def bracket_end(text: str, at: int, php: bool = False, depth: int = 0) -> int | None:
    """Where the bracket at ``at`` closes (after it), its C# (or PHP) code read between:
    strings and comments hold no bracket; None when the text ends first, or a C# string
    that must close on its line does not. ``depth``: how deep in interpolated strings'
    holes this reading is (past 40 it says None: 500 nested ``$"{$"{`` overflowed the
    stack, QA s52 helper-215)."""
    if depth > 40:
        return None
    nesting = depth
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
        elif kind == "markup":  # (a Razor delegate's markup, @<span>..</span>: no code)
            close = text.find("</" + m.group("tag"), pos)
            if close < 0:
                return None
            pos = close
        elif kind in ("verbatim", "string") and "$" in m.group():
            found = _interpolated_end(text, pos, verbatim=kind == "verbatim", depth=nesting)
            if found is None:
                return None
            pos = found
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


def _interpolated_end(text: str, pos: int, *, verbatim: bool, depth: int = 0) -> int | None:
    """Where a C# interpolated string whose text starts at ``pos`` ends (after its quote):
    a hole ``{..}`` is code, its strings closing nothing (``$@"{F(")")}"``); ``{{`` is a
    brace. None when the text ends first (or a line does, for one not verbatim)."""
    while (m := _INTERPOLATED.search(text, pos)) is not None:
        mark, pos = m.group(), m.end()
        if mark == "{":
            end = bracket_end(text, m.start(), depth=depth + 1)
            if end is None:
                return None
            pos = end
        elif mark == "\n" and not verbatim:
            return None
        elif mark.startswith("\\") and verbatim:
            pos = m.start() + 1
        elif mark == '"':
            return pos
    return None


_INTERPOLATED = re.compile(r'\{\{|""|\\.|[{"\n]', re.S)
_RAZOR_BLOCK = re.compile(r"@(if|foreach|for|while|switch|using|lock|try|do|section|helper)\b")
_RAZOR_NAME = re.compile(r"@(?:await\s+)?[\w.]*")
_RAZOR_MEMBER = re.compile(r"(?:\.[A-Za-z_]\w*)*")
_RAZOR_NEXT = re.compile(r"(else\s+if|else|catch|finally|while)\b")
# Whether a construct's word takes a condition before its "{": 2 one it must have, 1 one it
# may have (catch), 0 none; @section and @helper take a name first.
_CONDITION = {"if": 2, "foreach": 2, "for": 2, "while": 2, "switch": 2, "using": 2,
              "lock": 2, "helper": 2, "catch": 1}
_NAME = re.compile(r"\s+[A-Za-z_]\w*")
_IF = re.compile(r"if\b")
_WHEN = re.compile(r"when\b")
_SPACE = re.compile(r"\s*")


def razor_construct(text: str, at: int) -> int | None:
    """For the Razor transition ``@`` at ``at`` (``@(..)``, ``@Name.Call(..)``, or a control
    block ``@if (..) {``, ``@foreach``, ``@section Name {``, ``@helper Name(..) {`` ..):
    where the file reads on (after the expression; after a block's ``{``, its body being
    markup read as such), or None when the text ends inside it: the expression's
    brackets, or the block's (and its ``else``, ``catch``, ``finally``: each counted to
    its ``}``; comments may stand between them, as Razor reads: QA s53 helper-220)."""
    block = _RAZOR_BLOCK.match(text, at)
    if block is None:  # (an expression: its chain of calls and indexers, .A(..).B[..])
        pos = _RAZOR_NAME.match(text, at).end()  # type: ignore[union-attr]
        while text[pos:pos + 1] in ("(", "["):
            end = bracket_end(text, pos)
            if end is None:
                return None
            pos = _RAZOR_MEMBER.match(text, end).end()  # type: ignore[union-attr]
        return pos
    brace, _ = _brace_after(text, block.end(), block.group(1))
    if brace < 0:
        return None
    first = brace + 1
    while True:
        end = _braces_end(text, brace)
        if end is None:
            return None
        more = _skip_trivia(text, end)
        found = None if more < 0 else _RAZOR_NEXT.match(text, more)
        if found is None:
            return first
        brace, _ = _brace_after(text, found.end(), found.group(1).split()[-1])
        if brace == -2:
            return None  # (the text ends in its condition)
        if brace < 0:  # (a do block's "while (x);" ends the chain)
            return first


def _skip_trivia(text: str, pos: int) -> int:
    """Past the blanks and comments (``//``, ``/* */``, ``@* *@``) from ``pos``; -1 when
    the text ends inside a comment."""
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        two = text[pos:pos + 2]
        if two not in ("//", "/*", "@*"):
            return pos
        end = _TEXT_END[two](text, pos + 2)  # (a comment's end, as code reads it)
        if end < 0:
            return len(text) if two == "//" else -1
        pos = end


def _brace_after(text: str, pos: int, word: str) -> tuple[int, int]:
    """The ``{`` a construct's ``word`` (``if``, ``section``, ``else``..) ending at ``pos``
    opens after its name, its condition and comments: (its offset, where the reading
    stopped); -1 for none, -2 when the text ends inside the condition or a comment."""
    if word == "else":  # (else /* c */ if (..): an else if, comments between)
        after = _skip_trivia(text, pos)
        if after >= 0 and _IF.match(text, after):
            word, pos = "if", after + 2
    if word in ("section", "helper"):
        name = _NAME.match(text, pos)
        if name is None:
            return -1, pos
        pos = name.end()
    condition = _CONDITION.get(word, 0)
    pos = _skip_trivia(text, pos)
    if condition and text.startswith("(", pos):
        end = bracket_end(text, pos)
        if end is None:
            return -2, len(text)
        pos = _skip_trivia(text, end)
        if word == "catch" and pos >= 0 and _WHEN.match(text, pos):  # (its filter)
            return _brace_after(text, pos + 4, "if")
    elif condition == 2:
        return -1, pos
    if pos < 0:
        return -2, len(text)
    return (pos if text.startswith("{", pos) else -1), pos


# The words that open a block with a brace in a page: a construct's (@if, @section Name,
# @code, @{), or a chain's after a block's "}" (else, else if, catch, finally).
_HEADS = re.compile(r"(?<![\w@])@(?:(if|foreach|for|while|switch|using|lock|section|helper|try"
                    r"|do|code|functions)\b|(?=\{))"
                    r"|(?<![\w.@])(else\s+if|catch|finally|else)\b")
_BLOCKS: tuple[str | None, frozenset[int]] = (None, frozenset())


def _block_braces(text: str) -> frozenset[int]:
    """Every ``{`` of ``text`` a Razor construct opens a block with: ``@if (..) {`` (its
    condition over lines, with strings and comments of any kind), ``@{``, ``@section X
    {``, ``} else {``.. One pass forward: a construct inside another's condition (a
    lambda's) is passed with it; after 64 constructs whose condition the text ends in,
    the rest is not looked for (each was read to the end: QA s53 helper-220's 100 KB of
    braces took 4 s when each brace looked back at 600 characters)."""
    global _BLOCKS
    if _BLOCKS[0] is not text:
        found: set[int] = set()
        pos, unended = 0, 0
        while unended < 64 and (m := _HEADS.search(text, pos)) is not None:
            pos = m.end()
            if m.group(2) is not None and not _after_block(text, m.start()):
                continue
            word = (m.group(1) or m.group(2) or "").split()
            if not word:  # (@{)
                found.add(m.end())
                continue
            brace, stop = _brace_after(text, m.end(), word[-1])
            if brace >= 0:
                found.add(brace)
            unended += brace == -2
            pos = max(stop, pos)
        _BLOCKS = (text, frozenset(found))
    return _BLOCKS[1]


def _after_block(text: str, at: int) -> bool:
    """Whether a chain's word at ``at`` follows a ``}``, blanks and comments between."""
    k = at
    for _ in range(64):
        while k and text[k - 1].isspace():
            k -= 1
        if k and text[k - 1] == "}":
            return True
        opener = "/*" if text.endswith("*/", 0, k) else "@*" if text.endswith("*@", 0, k) else ""
        if opener:
            k = text.rfind(opener, 0, k - 2)
        else:
            k = text.find("//", text.rfind("\n", 0, k) + 1, k)  # (a // comment's line)
        if k < 0:
            return False
    return False


_ANGULAR = re.compile(r"@(?:else\s+if|if|for|switch|case|default|defer|empty|placeholder"
                      r"|loading|error|else)\b\s*")
_SPACED_BRACE = re.compile(r"\s*\{")


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
    brace = _SPACED_BRACE.match(text, pos)
    if brace is None or _braces_end(text, brace.end() - 1, code=False) is None:
        return None
    return brace.end()


def razor_block_end(text: str, brace: int) -> int | None:
    """Where a Razor code block (``@{``, ``@code {``) whose ``{`` is at ``brace`` closes,
    its markup's text holding no brace of it; None."""
    return _braces_end(text, brace)


def _braces_end(text: str, brace: int, code: bool = True) -> int | None:
    """Where the block whose ``{`` is at ``brace`` closes (after its ``}``): its braces
    paired outside the markup elements in it (Razor reads an element's text as markup, so
    ``<p>Close it with }.</p>`` closes nothing: QA s52 helper-214), and outside what its
    code holds as text (C#'s strings, characters and comments, an ``@:`` line, HTML and
    Razor comments: helper-215), read only where code stands (a URL's ``//`` or an inch
    mark in an element's text is markup: helper-216); None. Every brace of the text is
    paired in one pass, the first time: blocks nested 10,000 deep are not each read to
    their end, and a comment or string with no end ends the pass."""
    global _PAIRED
    if _PAIRED[0] is not text or _PAIRED[2] != code:
        pairs: dict[int, int] = {}
        opened: list[tuple[int, int]] = []  # (offset, element depth)
        elements: list[str] = []
        raw = ""  # the script or style element whose text this is (no tag in it)
        pos = 0
        # (code where a brace opened at this element depth is open, a block's body; markup
        # at the top and in an element's text: helper-217)
        while (m := (_IN_CODE if (in_code := code and bool(opened)
                                  and opened[-1][1] == len(elements))
                     else _IN_MARKUP if code else _IN_ANGULAR).search(text, pos)) is not None:
            pos = m.end()
            mark = m.group()
            if raw and m.group("name") is not None:
                if not (m.group("end") and m.group("name").lower() == raw):
                    continue  # (a script's text: '</div>' in its strings is no tag; its
                raw = ""  # Razor blocks and braces read on: QA s53 helper-220, 224)
            if mark == "{" and code and not in_code and m.start() not in _block_braces(text):
                continue  # (a brace of an element's text or the page's: markup's)
            if m.lastgroup == "line":  # (in markup, a line of code: a comment, a statement)
                continue
            if m.lastgroup == "expr":  # (a Razor expression in markup: its strings' tags)
                end = razor_construct(text, m.start())
                if end is None:
                    break
                pos = end
                continue
            if m.lastgroup == "interp":  # (Angular's {{ .. }} and @let ..; with strings)
                end = _expression_end(text, pos, "}}" if mark == "{{" else ";")
                if end < 0:
                    break
                pos = end
            elif m.lastgroup == "text":  # (a comment, a string, a line of text: to its end)
                bare = mark.replace("$", "")  # (an interpolated string reads as its kind)
                key = ('"""' if bare.startswith('"""') else '@"' if bare.startswith('@"')
                       else bare[:2] if bare[:2] in _TEXT_END else bare[:1])
                if "$" in mark and key in ('"', '@"'):  # (its holes' strings: helper-218)
                    found = _interpolated_end(text, pos, verbatim=key == '@"')
                    end = -1 if found is None else found
                else:
                    end = _TEXT_END[key](text, pos)
                if end < 0 and key in ('"', "'"):
                    # (a quote its line does not close: the rest of the line is its text)
                    line_end = text.find("\n", pos)
                    pos = len(text) if line_end < 0 else line_end
                    continue
                if end < 0:
                    break
                pos = end
            elif mark == "{":
                opened.append((m.start(), len(elements)))
            elif mark == "}":
                if opened and opened[-1][1] == len(elements):
                    pairs[opened.pop()[0]] = m.end()
            elif m.group("end"):  # an end tag: closes the nearest of its name
                name = m.group("name").lower()
                if name in elements:
                    del elements[len(elements) - 1 - elements[::-1].index(name):]
                    while opened and opened[-1][1] > len(elements):
                        opened.pop()  # (a brace in the element's text: markup's)
            elif in_code and not _statement_start(text, m.start()):
                pos = m.start() + 1  # (C#'s "<": i <max && j > 0 is no element)
            elif not m.group("empty") and (name := m.group("name").lower()) not in _VOID:
                elements.append(name)
                if name in ("script", "style"):
                    raw = name
        _PAIRED = (text, pairs, code)
    return _PAIRED[1].get(brace)


def _after(close: str) -> Callable[[str, int], int]:
    def end(text: str, pos: int) -> int:
        found = text.find(close, pos)
        return found if found < 0 else found + len(close)
    return end


def _string_end(pattern: re.Pattern[str]) -> Callable[[str, int], int]:
    def end(text: str, pos: int) -> int:
        found = pattern.match(text, pos)
        return -1 if found is None else found.end()
    return end


# where a piece of code's text ends, by how it opens
_TEXT_END: dict[str, Callable[[str, int], int]] = {
    "/*": _after("*/"), "<!": _after("-->"), "@*": _after("*@"), "//": _after("\n"),
    "@:": _after("\n"), '@"': _string_end(_VERBATIM_REST), '"': _string_end(_STRING_REST),
    '"""': _after('"""'),
    "'": _string_end(re.compile(r"(?:[^'\\\n]|\\.)'"))}
_TAG = (r"|(?:(?<![\w.])<|<(?=/))(?P<end>/?)(?P<name>[A-Za-z][\w:.-]*)"
        r"(?:\s(?:[^<>\"']|\"[^\"]*\"|'[^']*')*?)?(?P<empty>/?)>")
# where code stands: what holds text (C#'s strings, characters and comments, HTML and
# Razor comments, an @: line), a brace, an element's tag (not a type's List<string>)
_IN_CODE = re.compile(r"(?P<text>\$*\"\"\"|\$?@\$?\"|\$?\"|'(?=(?:[^'\\\n]|\\.)')|//|/\*|<!--|@\*"
                      r"|@:)|[{}]" + _TAG)
def _statement_start(text: str, at: int) -> bool:
    """Whether a tag at ``at`` in C# code starts a statement (Razor reads markup there):
    first on its line, or after ``{``, ``}``, ``;``, ``:``, another tag's ``>``, a
    templated delegate's ``@`` (``f = @<p>..</p>;``) or a comment's ``*/``."""
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    return not k or text[k - 1] in "\n{};:>@" or text.endswith("*/", 0, k)


# (a Razor expression or call, @(..), @Html.Raw(..): its strings hold no tag, QA s53
# helper-220)
_RAZOR_EXPRESSION = (r"|(?P<expr>(?<![\w@])@(?:\(|(?!(?:if|foreach|for|while|switch|using"
                     r"|lock|section|helper|try|do|code|functions)\b)"
                     r"(?:await\s+)?[A-Za-z_][\w.]*[(\[]))")
# in an element's text: a brace (markup's), a tag, an HTML or Razor comment, an @: line,
# and a line that is code, not text: a block's // comment or statement (var x = "}";)
# nested in an element (QA s52 helper-217: a } in them closed the block)
_IN_MARKUP = re.compile(r"(?P<line>^[ \t]*(?://[^\n<]*$|(?:var|string|int|bool|char|const|double"
                        r"|decimal|object|dynamic)\b[^\n<]*;[ \t]*$))|(?P<text><!--|@\*|@:)"
                        r"|[{}]" + _RAZOR_EXPRESSION + _TAG, re.M)
# (Angular, read as markup: an interpolation {{ .. }} and an @let .. ; are expressions,
# their strings holding no brace: {{ '}' }}, QA s52 helper-218)
_IN_ANGULAR = re.compile(r"(?P<interp>\{\{|@let\b)|(?P<text><!--)|[{}]" + _TAG)
_EXPRESSION = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`]*`|\}\}|;")


def _expression_end(text: str, pos: int, close: str) -> int:
    """Where an expression from ``pos`` ends, after ``close`` (``}}`` or ``;``) outside
    its strings; -1."""
    while (m := _EXPRESSION.search(text, pos)) is not None:
        pos = m.end()
        if m.group() == close:
            return pos
    return -1


_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})


_PAIRED: tuple[str | None, dict[int, int], bool] = (None, {}, True)


# (Liquid's tokens left to right: an output tag {{ .. }} is one, the "{% endcomment %}"
# in its string no tag: QA s52 helper-214)
_COMMENT_TAGS = re.compile(r"\{%-?\s*(comment|endcomment|raw)\b[^%]*%\}")
_ENDRAW = re.compile(r"\{%-?\s*endraw\b[^%]*%\}")


def liquid_comment_end(text: str, at: int) -> re.Match[str] | None:
    """The ``{% endcomment %}`` that ends a Liquid comment whose body starts at ``at``:
    comments in it nest, a raw block in it is skipped whole, and its tokens are read left
    to right, an output tag ``{{ .. }}`` being one (the ``"{% endcomment %}"`` in its
    string no tag: QA s52 helper-214); None. Linear: an output with no end is looked for
    once."""
    depth = 1
    outputs = True  # (whether an output tag may still end)
    while (tag := _COMMENT_TAGS.search(text, at)) is not None:
        output = text.find("{{", at, tag.start()) if outputs else -1
        if output >= 0:
            end = text.find("}}", output + 2)
            if end < 0:
                outputs = False
            else:
                at = end + 2
                continue
        at = tag.end()
        if tag.group(1) == "raw":
            raw_end = _ENDRAW.search(text, at)
            if raw_end is None:
                return None
            at = raw_end.end()
        elif tag.group(1) == "comment":
            depth += 1
        else:
            depth -= 1
            if not depth:
                return tag
    return None


def mustache_delimiters(text: str) -> str:
    """A Mustache text with its set-delimiter tags (``{{=<% %>=}}``) followed, read tag by
    tag as Mustache reads it: each tag spelled again with ``{{ }}``, a literal ``{{`` or
    ``}}`` in the text between neutered, a set-delimiter tag blanked; a comment's text is
    no tag (``{{! use {{=<% %>=}} }}`` changes nothing: QA s52 helper-214); an opener with
    no closer after it is left as ``{{`` (the reading holds it). Lines kept; one pass."""
    if "{{=" not in text:
        return text
    opener, closer, pos = "{{", "}}", 0
    parts: list[str] = []
    while True:
        start = text.find(opener, pos)
        if start < 0:
            parts.append(_text_between(text[pos:], opener, closer))
            return "".join(parts)
        end = text.find(closer, start + len(opener))
        parts.append(_text_between(text[pos:start], opener, closer))
        if end < 0:
            parts.append("{{" + _neutered(text[start + len(opener):]))
            return "".join(parts)
        inside = text[start + len(opener):end]
        change = _SET_DELIMITERS.fullmatch(inside)
        if change is not None:
            parts.append(blank(text[start:end + len(closer)]))
            opener, closer = change.group(1), change.group(2)
        else:
            parts.append("{{" + _neutered(inside) + "}}")
        pos = end + len(closer)


_SET_DELIMITERS = re.compile(r"=\s*(\S+)\s+(\S+)\s*=", re.S)


def _neutered(piece: str) -> str:
    return piece.replace("{{", "{ ").replace("}}", "} ")


def _text_between(piece: str, opener: str, closer: str) -> str:
    """Text outside tags: as it is under the default delimiters, else with ``{{`` and
    ``}}`` neutered (text there)."""
    return piece if (opener, closer) == ("{{", "}}") else _neutered(piece)


def end_past_strings(text: str, at: int, end_mark: str, *,
                     handlebars: bool = False, brackets: bool = False) -> int | None:
    """Where ``end_mark`` is next found from ``at`` outside quoted strings (``'``, ``"``,
    `````; a backslash escapes the next character), or None: the text ends in a string
    or before the mark. ``handlebars``: its reading (a ``[..]`` segment is a name,
    ``[it's]``; a backslash escapes only a quote, ``"a\\"`` goes on: QA s51 helper-211).
    ``brackets``: Jinja's and Twig's (an end inside open brackets is no end: ``{{ f({'a':
    {}}, '..') }}`` is one tag, its ``}}`` two closing braces: QA s52 helper-213)."""
    key = (end_mark, handlebars, brackets)
    pattern = _ENDS.get(key)
    if pattern is None:
        pattern = _ENDS[key] = re.compile(re.escape(end_mark) + (
            r"|[\\'\"`\[]" if handlebars else r"|[\\'\"`]") + (r"|[(\[{)\]}]" if brackets else ""))
    quote = ""
    depth = 0  # (brackets open)
    while True:
        m = (pattern if not quote else _QUOTE_OR_SEGMENT).search(text, at)
        if m is None:
            # (a segment no bare "]" closes is held, though handlebars@4 backtracks to its
            # last "\]", {{[C:\]}}: a cut text reads so too, its "]" in the rest: helper-213)
            return None
        char, at = m.group(), m.end()
        if char == "\\":
            if not handlebars or text[at:at + 1] in ("'", '"') or (
                    quote == "]" and text[at:at + 1] == "]"):  # ([it's\]..]: helper-212)
                at += 1
        elif quote:
            quote = "" if char == quote else quote
        elif char in ("'", '"', "`"):
            quote = char
        elif char == "[" and handlebars:
            quote = "]"
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth:  # (the end's first character read alone: a closing brace, an operator)
            depth -= text[m.start()] in ")]}"
            at = m.start() + 1
        else:
            return m.start()


_ENDS: dict[tuple[str, bool, bool], re.Pattern[str]] = {}
_QUOTE_OR_SEGMENT = re.compile(r"[\\'\"`\]]")
