"""A template language's own tags, comments and blocks in a markup file: code, not markup,
blanked before its elements are read (``open_markup.py``, rule ``cut-off``); and where
the file's text ends inside one. A sample reply a template shows in a comment
(``{# .. #}``, ``{{!-- --}}``, ``<%# %>``, ``@* *@``, ``{{/* */}}``), in a string of a
tag over lines (``{% set s = "..." %}``, an ERB heredoc), in a block (``{% set s %}``,
``{{#markdown}}``, ``<% .. do %>``, ``@verbatim``) or in a Razor code block closes the
fence around the file, and the rest is read as other blocks (QA s50 helper-204: each of
these written cut, exit 0).

An engine's marks are known by the file's name (Handlebars, ERB, JSP and ASP.NET, Razor,
Blade, Jinja and its kin, Liquid): in such a file every mark is a tag, and one the text
ends inside is held. A file of another name (a page, a Hugo or Jekyll layout) is read
for all of them, and only when it shows one (prose about "{{" is no template); there a
``{{`` with no end after it is prose unless a template's code follows it or it opens a
string on its line, and so is a ``{#`` inside a line before a word and a brace
(``{#get}``, ``${#}``). In a Jinja or Handlebars file a tag's end inside one of its
quoted strings is no end; elsewhere a tag over lines leaving a string open is held (QA
s51 helper-206, 207). A tag or comment over lines whose text holds an element's tag or
another mark is held at its mark (a mark of prose paired with an end lines on would hide
what it spans: QA s50 helper-196, 201, 203), unless the mark's being prose could hide
nothing: its text read alone closes all it opens (as markup, as a browser reads it, and
as template), it lies between a browser's tags and comments, the file read as markup
alone closes too, and no tag on one line in the file quotes an opener it does not close
(such a tag is blanked whatever it holds, as ever: helper-204's Hugo doc comments,
Symfony's form layouts, commented-out markup). Every look goes on from the last one's
find, and a tag's text is read again once at most: linear (QA s50 helper-197: 32,000
``{{`` skipped at an element took 9.6 s). Pure."""

from __future__ import annotations

import re

from reviewtui.core.protocol.closed_later import ASYNC_BLOCKS
from reviewtui.core.protocol.open_literals import CodeBlock, open_code_block
from reviewtui.core.protocol.open_markup import (
    START,
    Reading,
    blank,
    browser_open,
    inside_piece,
)
from reviewtui.core.protocol.template_code import (
    angular_block,
    bracket_end,
    end_past_strings,
    liquid_comment_end,
    mustache_delimiters,
    razor_block_end,
    razor_construct,
)
from reviewtui.core.protocol.view_blocks import close_block, open_block


class _Engine:
    """A template language: the marks its tags open with (a regex), and whether a file
    is known as one by its name (then a mark with no end is never prose)."""

    def __init__(self, name: str, marks: str, named: bool = True) -> None:
        self.name = name
        self.marks = re.compile(marks)
        self.named = named


# Blade's directives that take arguments (PHP): Blade compiles only those it knows, a
# "@laravel (it's great)" of prose is text (QA s52 helper-214)
_BLADE_DIRECTIVES = (r"(?:if|elseif|unless|isset|empty|auth|guest|production|env|hasSection"
                     r"|sectionMissing|session|context|switch|case|for|foreach|forelse|while"
                     r"|include|includeIf|includeWhen|includeUnless|includeFirst|each|once"
                     r"|push|pushOnce|pushIf|prepend|prependOnce|stack|section|yield|extends"
                     r"|component|slot|props|aware|error|class|style|checked|selected"
                     r"|disabled|readonly|required|json|js|method|vite|lang|choice|can"
                     r"|cannot|canany|elsecan|elsecannot|elsecanany|inject|php|dd|dump|use"
                     r"|fragment|livewire|entangle|break|continue|teleport|persist|unset"
                     r"|componentFirst|elseauth|elseguest|elseenv|includeIsolated|inert)\b")
_ALL = (r"\{\{~?!--|\{\{-?\s*/\*|\{\{--|\{\{|\{!!|\{%|\{#|<%--|<%(?!%)")
_GENERIC = _Engine("generic", _ALL, named=False)
# (Handlebars' \{{ and Blade's @{{ are text; ERB's <%% too; Razor's @@ escapes an @)
_ENGINES = {
    # (not at the second brace of an escaped \{{{: helper-212)
    (".hbs", ".handlebars"): _Engine("handlebars", r"(?<!(?<!\\)\\)(?<!\\\{)\{\{~?!--"
                                                   r"|(?<!(?<!\\)\\)(?<!\\\{)\{\{"),
    # (no strings in its tags, and no escape: \{{#x}} opens a section, QA s52 helper-213)
    (".mustache",): _Engine("mustache", r"\{\{"),
    (".erb", ".rhtml"): _Engine("erb", r"<%(?!%)"),
    (".ejs",): _Engine("ejs", r"<%(?!%)"),  # (its scriptlets' braces: view_blocks.py)
    (".jsp", ".aspx"): _Engine("jsp", r"<%--|<%"),
    # (an expression, a call, a control block read as C#: QA s52 helper-213)
    (".cshtml", ".razor"): _Engine("razor", r"(?<!@)@(?:\*|\{|(?:code|functions)\s*\{)"
                                            r"|(?<![\w@])@(?:\(|(?:if|foreach|for|while|switch"
                                            r"|lock|try|do)\b|using\s*\(|(?:section|helper)\s+\w+(?=\s*[({/@])"
                                            r"|(?:await\s+)?[A-Za-z_][\w.]*[(\[])"),
    (".blade.php",): _Engine("blade", r"\{\{--|(?<!@)\{\{|\{!!"
                                      r"|(?<!@)@(?:verbatim|php)\b(?!\s*\()"
                                      r"|(?<![\w@])@" + _BLADE_DIRECTIVES + r"[ \t]*\("),
    (".twig", ".j2", ".jinja", ".jinja2", ".njk"): _Engine("jinja", r"\{\{|\{%|\{#"),
    (".liquid",): _Engine("liquid", r"\{\{|\{%"),
    # (Angular's interpolations, and its control blocks: QA s50's "Angular @if")
    (".component.html", ".ng.html"): _Engine("angular", r"\{\{|(?<![\w@])@(?:if|for|switch"
                                                      r"|case|default|defer|empty|placeholder"
                                                      r"|loading|error|else)\b"),
}
_END = {"{{!--": "--}}", "{{--": "--}}", "{{": "}}", "{!!": "!!}", "{%": "%}", "{#": "#}",
        "<%--": "--%>", "<%": "%>", "@*": "*@"}
_GO_COMMENT_END = re.compile(r"\s*-?\}\}|")  # (after a Go template comment's */)
# ({#if}: Svelte's own blocks; XSLT's {{ and @*, SVG: no templates; Jekyll's feed.xml is
# Liquid: QA s50 helper-202, 203)
_UNTEMPLATED = (".svelte", ".xsl", ".xslt", ".svg")
# (a template's tag: {% name with its whitespace marks, {{ name }}, {{ $t(..) }}, {{~, <%
# code, <%= <%# <%@ <%-- without a space, {{!-- --}}, @* *@, {!! !!}: QA s50 helper-202;
# a comment's mark, and a line opened by {# and a blank: helper-204)
_TEMPLATED = re.compile(r"\{%[-+~]?\s*\w|\{\{[-~{#/!>^&]?\s*[\w.'\"($@][^{}\n]*\}\}|<%[=#@-]"
                        r"|<%\s|\{!!|\{\{!--|\{\{-?\s*/\*|\{\{--|^[ \t]*\{#[-+\s]", re.M)


# What a template tag's code starts with, after {{ (a comment, a variable, a field, a
# string, a trim mark), where "{{" with no end after it is not taken for prose.
_TEMPLATE_CODE = re.compile(r"[-~]?\s*(?:[!$.'\"`#/>]|\w+\s*:=)")
# ({#get}: a word of prose and a brace; not {#if x} (a Jinja comment may start so, a
# brace on its line: QA s51 helper-209), which a page about Svelte holds for nothing)
_BRACED_WORD = re.compile(r"\w+\}")
# (a comment's mark after a tag's opening: {{!, {{~!, {{- #, <%#: no strings read)
_COMMENT_AFTER = re.compile(r"[~-]?\s*[!#]")
_BANG_AFTER = re.compile(r"[~-]?\s*!")  # ({{#if ..}} is a block's tag: its strings read)
_COMMENT_MARKS = ("{{!--", "{{--", "{{/*", "{#", "<%--", "@*")


# A text that leaves no quoted string open, matched whole: with backslash escapes, and
# with none (Liquid's '\' is a whole string).
_CLOSED = re.compile(r"(?:[^'\"`\\]++|\\.|'(?:[^'\\]|\\.)*+'|\"(?:[^\"\\]|\\.)*+\""
                     r"|`(?:[^`\\]|\\.)*+`)*+\\?\Z", re.S)
_CLOSED_BARE = re.compile(r"(?:[^'\"`]++|'[^']*+'|\"[^\"]*+\"|`[^`]*+`)*+\Z")
_QUOTE = re.compile(r"[\\'\"`]")
_BRACKET = re.compile(r"[(\[{]")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*+'|\"(?:[^\"\\]|\\.)*+\"")


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _unbalanced(code: str) -> bool:
    """Whether ``code`` (a tag's, up to its first end) leaves a bracket open outside its
    strings (``{{ f({'a': {`` of ``{{ f({'a': {}}``)."""
    bare = _STRING.sub("", code)
    return sum(map(bare.count, "([{")) > sum(map(bare.count, ")]}"))


def read_template_tags(text: str, path: str, reading: Reading
                       ) -> tuple[str, int | None, list[int], list[int]]:
    """``text`` with its template tags, comments and blocks blanked (a raw block's
    markup kept); the offset to hold the file at (what it ends inside), or None; where
    tags over lines holding markup were blanked (``Reading.elements`` holds a raw
    element, comment or tag read across one: the mark may be prose, its words the end);
    and where each tag blanked holding a ``>`` starts (a bogus comment read across one
    is held: that ``>`` may be its end)."""
    engine = next((e for suffixes, e in _ENGINES.items() if path.endswith(suffixes)), None)
    if engine is None:
        if path.endswith(_UNTEMPLATED) or not _TEMPLATED.search(text):
            return text, None, [], []
        engine = _GENERIC
    if engine.name == "mustache" and "=" in text:
        text = mustache_delimiters(text)
    reader = _Pass(text, engine, reading)
    blanked, held, relaxed = reader.run()
    if held is None and relaxed and (inside_piece(text, relaxed) is not None or reading.opened(
            text) is not None or browser_open(text, reading.components)):
        # (a tag's mark of prose, its text blanked, a later {% comment %} read as
        # template hid a <pre> the text read as markup alone leaves open: held as before)
        held = relaxed[0]
    return blanked, held, relaxed, reader.tags


class _Pass:
    """One forward reading of a text's template marks (``strict``: the text inside a tag
    whose end is that, read to see that it closes all it opens)."""

    def __init__(self, text: str, engine: _Engine, reading: Reading, strict: str = "") -> None:
        self.text, self.engine, self.reading, self.strict = text, engine, reading, strict
        self.parts: list[str] = []
        self.pos = 0
        self.blocks: list[tuple[str, int]] = []  # (name, offset) of the blocks open
        self.open_count: dict[str, int] = {}  # how many of each name are open
        self.relaxed: list[int] = []  # where tags were blanked on the strength of their text
        self.tags: list[int] = []  # where each tag blanked holding a ">" starts
        self.quoting = False  # whether a tag on one line opening markup was blanked
        self.ahead: dict[str, int] = {}  # the last find of each end, "\n", "<" and a mark
        self.code = CodeBlock()

    def run(self) -> tuple[str, int | None, list[int]]:
        while (m := self.engine.marks.search(self.text, self.pos)) is not None:
            directive = m.group()[0] == "@" and m.group() != "@*"
            held = self._directive(m) if directive else self._tag(m)
            if held is None and self.quoting and self.relaxed:
                # (a tag on one line is blanked whatever markup it quotes, as ever: in a
                # file that shows one, none over lines is blanked for its text, so none
                # held before is written now, QA s50 helper-204's reading)
                held = self.relaxed[0]
            if held is not None:
                return self._rest(), held, self.relaxed
        return self._rest(), self.blocks[0][1] if self.blocks else None, self.relaxed

    def _rest(self) -> str:
        return "".join(self.parts) + self.text[self.pos:]

    def _next(self, key: str, at: int) -> int:
        """Where ``key`` (an end; "<" an element's tag; "T" a mark) is next found from
        ``at``, or -1: the last find is kept while it lies ahead."""
        found = self.ahead.get(key, -2)
        if found == -1 or found >= at:
            return found
        if key in ("<", "T"):
            tag = (START if key == "<" else self.engine.marks).search(self.text, at)
            found = -1 if tag is None else tag.start()
        else:
            found = self.text.find(key, at)
        self.ahead[key] = found
        return found

    def _tag(self, m: re.Match[str]) -> int | None:
        """Read the tag or comment ``m`` opens: where to hold, or None (read on)."""
        text, start = self.text, m.start()
        mark = m.group() if m.group() in _END else (
            "{{!--" if m.group() == "{{~!--" else "{{/*" if m.group()[1] == "{" else "<%")
        end_mark = "*/" if mark == "{{/*" else _END[mark]
        # (Handlebars' long comment ends at --}} or --~}}, looked for from its own --:
        # {{!--}} and {{~!---}} are whole, QA s51 helper-209, 210)
        after = m.end() - 2 if mark == "{{!--" else m.end()
        close = self._next(end_mark, after)
        if mark == "{{!--":
            strip = self._next("--~}}", after)
            if strip > -1 and (close < 0 or strip < close):
                close, end_mark = strip, "--~}}"
        if close < 0:  # (none after it: inside a tag whose end is the same, that one's)
            if end_mark == self.strict or self._prose(m):
                self.parts.append(text[self.pos:m.end()])
                self.pos = m.end()
                return None
            return start
        quoted = False  # whether the tag's code up to its end leaves a string open
        read_on = False  # whether the tag was read on past an end inside its strings
        if (not self.strict and mark not in _COMMENT_MARKS
                and (_COMMENT_AFTER if mark != "{{" else _BANG_AFTER).match(text, m.end()) is None
                and (_QUOTE.search(text, m.end(), close) is not None
                     or (self.engine.name == "handlebars"  # ({{[a}}..]}}: helper-212)
                         and text.find("[", m.end(), close) >= 0)
                     or (self.engine.name in ("jinja", "generic")  # ({{ f({'a': {}}..)
                         and _BRACKET.search(text, m.end(), close) is not None))):
            # (a page of no engine's name whose tag leaves brackets open at its first end
            # is read as Jinja reads it: no other engine takes that tag so, QA s52 helper-213)
            # (and a quote before the end of its end's line: a string it goes on into;
            # Perl's {{{{{$x\n}}}}} in a ChangeLog's <pre> is none)
            # (Jinja's marks only: a <% tag's Groovy or Ruby block spans tags)
            jinja = self.engine.name == "jinja" or (
                self.engine.name == "generic" and mark in ("{{", "{%")
                and _unbalanced(text[m.end():close])
                and _QUOTE.search(text, m.end(), _line_end(text, close)) is not None)
            if jinja or self.engine.name == "handlebars":
                # Jinja, Twig, Nunjucks, Handlebars read a tag's strings (\" escapes): an end
                # inside one is no end, ``{{ f('{{ x }}..') }}`` goes on (QA s51 helper-206's
                # W1: read to that first }}, the rest of the string, a sample, was prose);
                # held where none comes, or where the longer text opens markup.
                real = end_past_strings(text, m.end(), end_mark,
                                         handlebars=self.engine.name == "handlebars",
                                         brackets=jinja)
                if real is None or (real != close and self._opens(text[m.end():real])):
                    return start  # ({{ it's }} <pre> 'x }}: the <pre> hidden)
                read_on, close = real != close, real
            else:
                # Liquid, ERB, Blade, Django end a tag at its first end whatever it quotes,
                # and their strings are read otherwise ('\' is whole in Liquid): a tag is
                # not read on (QA s51 helper-207: a longer tag swallowed an {% unless %}),
                # but one over lines is not blanked for its text when, read with escapes
                # or without, it leaves a string open holding another mark (below).
                # (only with another mark before that end: a string quoting a tag, whose
                # end was taken for this one's; Rust's lifetimes in a page's code, 'a,
                # quote nothing)
                quoted = -1 < self._next("T", m.end()) < close and (
                    _CLOSED.match(text, m.end(), close) is None
                    or _CLOSED_BARE.match(text, m.end(), close) is None)
        stop = close + len(end_mark)
        if mark == "{{/*":
            stop = _GO_COMMENT_END.match(text, stop).end()  # type: ignore[union-attr]
        markup = -1 < self._next("<", m.end()) < close
        if not -1 < self._next("\n", m.end()) < close:
            if (read_on and -1 < self._next("T", m.end()) < close
                    and not self._self_contained(m.end(), close, end_mark)):
                # (a quote the engine reads as none, a regex's r/'/, a segment's [it's],
                # read on over another mark on the line, {{#each}} or {{!--: held unless
                # the longer text closes all it opens, as over lines: QA s51 helper-208)
                return start
            self.quoting = self.quoting or (markup and self._opens(text[m.end():close]))
        elif markup or -1 < self._next("T", m.end()) < close:
            # Over lines, holding an element's tag or another mark: a {{ or ${# of prose
            # paired with an end lines on, or a comment's mark named in prose, would hide
            # what it spans (QA s50 helper-196, 201, 203). Blanked only when its text
            # closes all it opens, read as markup and as template; else held at its mark.
            if self.strict or quoted or not self._self_contained(m.end(), close, end_mark):
                return start  # (inside a tag's text, held: one reading of each text)
            self.relaxed.append(start)
        self.parts += [text[self.pos:start], blank(text[start:stop])]
        if text.find(">", start, stop) >= 0:
            self.tags.append(start)
        self.pos = stop
        if mark == "{%":
            return self._block_tag(start)
        if mark == "{{" and self.engine.name in ("handlebars", "mustache"):
            return self._handlebars_block(start)
        elif mark == "<%" and self.engine.name == "erb":
            self._erb_block(start, text[m.end():close])
        return None

    def _prose(self, m: re.Match[str]) -> bool:
        """Whether a mark with no end after it is prose: in a file not known as a template
        by its name, a ``{{`` (prose about "{{": QA s50 helper-201), a ``{#`` inside a line
        before a word (``{#get}``, ``${#arr}``); never inside a tag read alone."""
        if self.strict or self.engine.named or m.group() not in ("{{", "{#"):
            return False
        line_end = self.text.find("\n", m.end(), m.end() + 120)  # (bounded: linear)
        after = self.text[m.end():line_end if line_end >= 0 else m.end() + 120]
        if m.group() == "{{":
            # Not what a template's code starts with ({{ $s := `..`, {{ "..", {{! ..,
            # {{ .Field, {{- ..), nor a string opened on its line ({{ f("..): a tag of the
            # file's own whose end lies past the cut (QA s51 helper-206's W2).
            # (a line going on past the look is no prose's: its string may open later,
            # QA s51 helper-209)
            # (nor one leaving a bracket open, {{ f( with its string on the next line: s52)
            return (_TEMPLATE_CODE.match(after) is None and _CLOSED.match(after) is not None
                    and not _unbalanced(after)
                    and (line_end >= 0 or m.end() + 120 >= len(self.text)))
        k = m.start()
        if self.text[k - 1:k] == "$":  # (${#}, ${# }: a shell's or Perl's, QA s50 helper-204)
            return True
        while k and self.text[k - 1] in " \t":
            k -= 1
        # Inside a line, a word and a brace ({#get}); else a Jinja comment ({#TODO ..,
        # {#<p>.., {#****: QA s51 helper-206's W3).
        return not (k == 0 or self.text[k - 1] == "\n") and _BRACED_WORD.match(after) is not None

    def _opens(self, inside: str) -> bool:
        """Whether ``inside``, a tag's text, read alone as markup opens what it does not
        close (``{{ '<pre>' }}``; not ``<a href=%q><code>%s</code></a>``), read as
        ``Reading.opened`` reads and as a browser does."""
        return self.reading.opened(inside) is not None or browser_open(
            inside, self.reading.components)

    def _self_contained(self, after: int, close: int, end_mark: str) -> bool:
        """Whether the text of a tag (``after``..``close``) read alone closes all it opens:
        as markup, and as template (its tags, comments and blocks; a mark with the same
        end as the tag's ends with it), then as markup again."""
        inside = self.text[after:close]
        if self._opens(inside):
            return False
        inner = _Pass(inside, self.engine, self.reading, end_mark)
        blanked, held, _ = inner.run()
        return held is None and (not inner.parts or (  # (no tag in it: read already)
            self.reading.opened(blanked, (), inner.tags) is None
            and not browser_open(blanked, self.reading.components)))

    def _directive(self, m: re.Match[str]) -> int | None:
        """A Razor code block (``@{``, ``@code {``, ``@functions {``: C#, read to its ``}``),
        or Blade's ``@verbatim`` (its markup kept, its marks text) or ``@php`` (code) up to
        its end: where to hold, or None."""
        text, start = self.text, m.start()
        if (self.engine.name == "blade" and m.group().endswith("(")) or (
                self.engine.name == "razor" and not m.group().startswith(_RAZOR_CODE)
                ) or self.engine.name == "angular":
            # (a Blade directive's PHP arguments; a Razor expression, call or block: its
            # code blanked, a block's body read on as markup)
            end = (bracket_end(text, m.end() - 1, php=True) if self.engine.name == "blade"
                   else razor_construct(text, start) if self.engine.name == "razor"
                   else angular_block(text, start))
            if end is None:
                return start
            self.parts += [text[self.pos:start], blank(text[start:end])]
            self.pos = end
            return None
        if m.group().endswith("{"):  # (the code is kept: its markup read as before)
            if open_code_block("csharp", text, m.end() - 1, self.code) is not None or (
                    razor_block_end(text, m.end() - 1) is None):
                return start  # (C# read alone, or with its markup's text: QA s53 helper-220)
            self.parts.append(text[self.pos:self.code.end])
            self.pos = self.code.end
            return None
        name = m.group()[1:]
        end = text.find("@end" + name, m.end())
        if end < 0:
            return start
        inside = text[m.end():end]
        self.parts += [text[self.pos:start], blank(m.group()),
                       inside if name == "verbatim" else blank(inside), blank("@end" + name)]
        self.tags += [start, end]  # (a > in each: held across, whatever it holds)
        self.pos = end + 4 + len(name)
        return None

    def _open(self, name: str, start: int) -> None:
        open_block(self.blocks, self.open_count, name, start)

    def _close(self, name: str) -> None:
        close_block(self.blocks, self.open_count, name)

    def _block_tag(self, start: int) -> int | None:
        """A ``{% %}`` tag just blanked: a block's start or end (a raw block read to its
        end here); where to hold, or None."""
        text = self.text
        tag = _BLOCK_TAG.match(text, start)
        if tag is None:
            return None
        name = ASYNC_BLOCKS.get(tag.group(2), tag.group(2))
        if tag.group(2) in ("each", "all") and not tag.group(1):
            return None  # (only Nunjucks' {% asyncEach %} .. {% endeach %}: helper-213)
        if name in _LIQUID_BLOCKS and self.engine.name != "liquid":
            return None  # (django-pipeline's {% stylesheet 'x' %}, wagtail's {% paginate %})
        if name is None:  # (Tornado's {% end %}: closes the nearest)
            if self.blocks:
                self.open_count[self.blocks.pop()[0]] -= 1
            return None
        if not tag.group(1) and (
                (name == "block" and _SHORT_BLOCK.match(text, tag.end()))
                or (name == "trans" and not _TRANS_BLOCK.match(text, tag.end()))
                or (name == "set" and not _SET_BLOCK.match(text, tag.end()))):
            # (Twig's {% block title 'Home' %}; Django's {% trans "x" %}, {% trans var %},
            # where Jinja's {% trans %}, {% trans count=n %} open a block: QA s50 helper-198;
            # {% set x = 1 %}, where {% set x %} opens one: helper-204)
            return None
        if tag.group(1):
            self._close(name)
        elif name in _RAW_BLOCKS:
            # (Django's {% verbatim x %} ends only at {% endverbatim x %}: helper-213)
            # (its end is "end" and its own words exactly, as Django's lexer compares
            # them: no "{%-", one blank as it has; helper-214)
            named = _NAMED_VERBATIM.match(text, start) if name == "verbatim" else None
            end = (re.compile(r"\{%\s*" + re.escape("end" + named.group(1)) + r"\s*%\}")
                   if named else re.compile(r"\{%[-+~]?\s*end" + name + r"\b[^%]*%\}")
                   ).search(text, self.pos)
            if name == "comment" and self.engine.name in ("liquid", "generic"):
                end = liquid_comment_end(text, self.pos)
            if end is None:
                return self.blocks[0][1] if self.blocks else start
            inside = text[self.pos:end.start()]
            # (raw and verbatim text is output as it is: its markup is read, QA s50
            # helper-204's <pre> opened in a {% raw %}; a comment's, a highlighted
            # sample's, a doc's or a schema's is not output as markup)
            self.parts += [inside if name in ("raw", "verbatim") else blank(inside),
                           blank(end.group())]
            self.tags.append(end.start())
            self.pos = end.end()
        else:
            self._open(name, start)
        return None

    def _handlebars_block(self, start: int) -> int | None:
        """A ``{{#name}}`` or ``{{^name}}`` (Handlebars, Mustache) opens a block its
        ``{{/name}}`` closes (``{{#> layout}}``, ``{{#*inline}}`` too); in a file so named
        only (Cargo's changelog names a "{{#options}} block" in prose). A raw block
        (``{{{{raw}}}}``) is read to its end here: where to hold, or None."""
        blocks = _MUSTACHE_BLOCK if self.engine.name == "mustache" else _HANDLEBARS_BLOCK
        tag = blocks.match(self.text, start)
        if tag is not None:
            if tag.group(1) == "/":
                self._close("#" + tag.group(2))
            else:
                self._open("#" + tag.group(2), start)
        elif (raw := _HANDLEBARS_RAW.match(self.text, start)) is not None and not raw.group(1):
            return self._raw_block(start)
        return None

    def _raw_block(self, start: int) -> int | None:
        """A Handlebars raw block from its ``{{{{name ..}}}}`` at ``start``, read as
        handlebars@4's lexer reads it: its content is text (no tag in it is read; its
        markup is output as it is), each ``{{{{`` in it not followed by ``/`` opens one level
        more, and ``{{{{/name}}}}`` with no blank closes one (``{{{{/raw }}}}`` is text); the
        block ends where the levels do (QA s51 helper-206; s52 helper-213: a ``{{/each}}``
        in one closed the real ``{{#each}}``, a nested level's end closed it early). Where
        to hold (no end), or None."""
        text = self.text
        opened = text.find("}}}}", start)
        if opened < 0:
            return start
        at, depth = opened + 4, 1
        while depth:
            found = text.find("{{{{", at)
            if found < 0:
                return start
            end = _RAW_END.match(text, found)
            if end is not None:
                depth -= 1
                at = end.end()
            else:
                depth += text[found + 4:found + 5] != "/"
                at = found + 4
        self.parts += [blank(text[self.pos:opened + 4]),  # (the opener's start: blanked)
                       text[opened + 4:found], blank(text[found:at])]
        self.tags.append(found)
        self.pos = at
        return None

    def _erb_block(self, start: int, code: str) -> None:
        """An ERB tag whose Ruby opens a block (``.. do %>``, ``<% if x %>``) or ends
        one (``<% end %>``); a comment, ``<%#``, neither."""
        if code.startswith("#"):
            return
        if _ERB_END.match(code):
            self._close("end")
        elif _ERB_BRACE_END.match(code):
            self._close("}")
        elif (_ERB_OPENS.match(code) or _ERB_DO.search(code)) and not _ERB_ENDS.search(code):
            self._open("end", start)  # (not <% if x then y end %>: on its own)
        elif _ERB_BRACE.search(code):
            self._open("}", start)  # (<% list.each { |i| %> .. <% } %>: QA s51 helper-206)


# a template's block tags, each closed by its end tag (Jinja, Django, Twig, Liquid,
# Nunjucks and Eleventy, Shopify); a raw block's text is no template code (Django's
# {% trans "x" %} stands alone, Jinja's {% trans %} .. {% endtrans %} is a block: QA s50
# helper-196, 197; set, blocktranslate, renderTemplate, doc: helper-204)
_BLOCK_TAG = re.compile(r"\{%[-+~]?\s*(end)?(if|for|block|macro|call|filter|raw|verbatim|capture"
                        r"|comment|highlight|with|autoescape|spaceless|unless|case|tablerow"
                        r"|apply|embed|sandbox|blocktranslate|blocktrans|trans|set|doc|schema"
                        r"|renderTemplate|javascript|stylesheet|style|form|paginate|cache"
                        r"|localize|language|timezone|ifchanged|asyncEach|asyncAll|each|all)?\b(?(2)|(?=\s*[-+~]?%\}))")
# (Twig's short block: a name, then a value; not "-%}", "scoped", "required")
_SHORT_BLOCK = re.compile(r"\s+[\w.]+\s+(?![-+~]?%\})(?!(?:scoped|required)\b)[^\s%]")
_TRANS_BLOCK = re.compile(r"\s*(?:[-+~]?%\}|(?:trimmed|notrimmed)\b|\w+\s*=)")
_SET_BLOCK = re.compile(r"\s+[\w.]+\s*(?:\|[^%=]*)?[-+~]?%\}")  # ({% set x | upper %})
_RAZOR_CODE = ("@{", "@code", "@functions")  # (C# blocks, read as C#)
_NAMED_VERBATIM = re.compile(r"\{%\s*(verbatim\s+\S(?:[^%]*\S)?)\s*%\}")
_RAW_BLOCKS = frozenset({"raw", "verbatim", "comment", "highlight", "doc", "schema"})
# (Shopify's, blocks in a .liquid file only: elsewhere tags of these names stand alone)
_LIQUID_BLOCKS = frozenset({"doc", "schema", "javascript", "stylesheet", "style", "form",
                            "paginate"})
# (a name may be a segment, {{#[my-list] x}}; Mustache's {{<parent}} and {{$block}} open
# blocks too: QA s52 helper-213)
_BLOCK_NAME = r"(\[(?:\\.|[^\]])*\]|[\w.@:$-]+)"
_HANDLEBARS_BLOCK = re.compile(r"\{\{~?\s*([#^/])\s*[*>]?\s*" + _BLOCK_NAME)
_MUSTACHE_BLOCK = re.compile(r"\{\{~?\s*([#^/<$])\s*[*>]?\s*" + _BLOCK_NAME)
_HANDLEBARS_RAW = re.compile(r"\{\{\{\{\s*(/?)\s*([\w.@:-]+)")
# (a raw block's end, as handlebars@4 lexes it: a name of ID characters, no blank)
_RAW_END = re.compile(r"\{\{\{\{/[^\s!\"#%-,./;->@\[-^`{-~]+\}\}\}\}")
_ERB_OPENS = re.compile(r"[-=]?\s*(?:if|unless|case|while|until|for|begin)\b")
# (a comment may follow: <% rows.each do |r| # r's cells %>, QA s51 helper-207)
_ERB_DO = re.compile(r"\bdo\s*(?:\|[^|]*\|)?\s*(?:#[^\n]*)?-?\s*\Z")
_ERB_BRACE = re.compile(r"\{\s*(?:\|[^|]*\|)?\s*(?:#[^\n]*)?-?\s*\Z")
_ERB_BRACE_END = re.compile(r"-?\s*\}\s*-?\s*\Z")
_ERB_END = re.compile(r"-?\s*end\b")
_ERB_ENDS = re.compile(r"\bend\s*-?\s*\Z")
