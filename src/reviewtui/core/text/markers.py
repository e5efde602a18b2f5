"""Elision markers and truncation placeholders: the lines a model writes instead of code.

The one detector behind the matcher (a marker in SEARCH pairs with one in REPLACE and
stands for the file lines between them; an unpaired one in REPLACE would be written
literally), the engine (a full file carrying one would truncate the file it replaces)
and lint's ``placeholder`` rule. Pure: it reads only the strings it is handed.

Two kinds of line stand for code that is not shown:

* an **elision**: an ellipsis (``...`` or ``…``) that stands alone, bare or inside a
  comment or brackets, with at most a few words saying what it skips:
  ``...``, ``# ...``, ``/* ... */``, ``{/* ... */}``, ``[...]``,
  ``// ... existing code ...``, ``# ... (rest of the method)``, ``// other helpers ...``;
* a **placeholder phrase**: a comment (or a bare line of prose) that says code was left
  out, with no ellipsis: ``# rest of file unchanged``, ``// your code here``,
  ``# (unchanged code omitted for brevity)``.

Every elision is a placeholder; ``is_placeholder`` is the question the consumers ask.

What is deliberately *not* a placeholder, because real code and real comments look like it
(each case was seen in real sources: CPython and site-packages, node_modules, C headers,
Markdown docs, and the Aider transcripts in ``../shared/corpus``):

* JavaScript spread and rest, Go and C variadics: ``{...props}``, ``...rest,``,
  ``[...state.items, x]``, ``args ...string``: the ellipsis is glued to a name or sits
  inside code, never standing alone;
* strings: ``print("...")``, ``"..."``, ``label = "rest of file unchanged"``;
* Python's Ellipsis: ``x = ...``, ``def f(): ...``, and a bare ``...`` that is the whole
  body of a block (a stub or Protocol method, also after a docstring) -- only
  ``is_placeholder_at`` can tell, from the neighbouring lines;
* doctest continuation prompts (``...     yield 1``, a lone ``...`` between ``>>>``
  lines or under ``Traceback (most recent call last):``);
* YAML's document end, a bare ``...``;
* comments that trail off or pick up with an ellipsis: ``# ... and near 1.0.``,
  ``# integer should give a TypeError ...``, ``// Loading...``, ``# TODO: retry...``;
* comments that merely mention old code: ``# existing code relies on this flag``,
  ``# cache the remaining lines``, ``# other imports``, ``# tests below``.

A placeholder line the file really contains (a Markdown code sample with ``// ...``, a
doctest) is real content, not truncation: ``find_placeholder`` and
``placeholder_indices`` take the existing lines and skip those.

A whole file (a full-file write, or a file as an edit would leave it: ``whole=True``)
tells more than a fragment, whose first line may sit inside a string or a code fence.
There an ellipsis line is also content when it is inside a Python string literal (a
docstring's usage example), inside a fenced code block of a Markdown file, or the body of
a commented-out block (``#   if x:`` then ``#       ...``). Formats that carry exact text
(unified diffs, apply_patch, Claude Code, tool calls) are never judged at all: their
operations are ``literal``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence

from reviewtui.core.text.lazy_pattern import LazyPattern

# The patterns of this module look only at lines with an ellipsis or a phrase's cue in
# them (most files have none): compiled on first use (start-up).
# Comment openers of the languages models write, longest first: HTML, JSX, C-style,
# shell/Python, SQL/Lua/Haskell, Lisp/asm/ini, TeX/Erlang. A bare "*" (a line inside a
# /* */ block, or a Markdown bullet) is not peeled: C headers are full of " * ..." lines
# that elide prose in documentation, not code.
_COMMENT_OPEN = LazyPattern(r"^(?:<!--|\{/\*+|/\*+|//+|#+|--+|;+|%+)\s*")
_BRACKETS = {"[": "]", "(": ")", "{": "}", "<": ">"}
_DOTS_ONLY = re.compile(r"\.{3,}")
# An ellipsis that stands apart: at the start not glued to a name ("...props" is a spread),
# at the end after a space ("Loading..." is prose, "other helpers ..." is a marker).
_LEADING_DOTS = LazyPattern(r"^\.{3,}(?![\w$])")
_TRAILING_DOTS = LazyPattern(r"\s\.{3,}$")
# What prose never contains but code does: assignments, statements, calls, blocks, tags.
_CODE = LazyPattern(r"[=;{}<>`]|\w\(|:$")
_WORD = LazyPattern(r"[a-z_]+")
# An ellipsis on both ends ("... declarations go here ...") frames a description of the
# skipped lines; beyond this many words it is a sentence ("... and near MIN ..." is two).
_FRAMED_WORDS = 4
# Words that say code was skipped, wherever they sit next to an ellipsis ...
_OMISSION_WORDS = frozenset({
    "existing", "unchanged", "remaining", "remainder", "omitted", "elided", "truncated",
    "snip", "snipped", "etc",
})
# ... and words that do so only as the first word beside it: "# ... other methods",
# "// rest of your options ..."; "# cache the rest ..." is a comment.
_OMISSION_LEADS = frozenset({
    "rest", "other", "others", "more", "your", "previous", "original", "same", "keep",
    "all", "everything",
})

# The placeholder phrases. Each must be the *whole* comment (after its brackets and
# trailing dots are dropped): a comment that only mentions "existing code" in a sentence
# is prose. Each names a kind of code, so "rest of the loop handles errors" and
# "existing tests pass unchanged" stay comments.
_KIND = (r"(?:code|codes|file|function|functions|method|methods|class|classes|module|"
         r"component|components|implementation|body|logic|lines?|content|fields|imports|"
         r"tests|props|styles|markup|cases|handlers|definitions|properties|config|"
         r"configuration|options|arguments|helpers|setup|stuff)")
_STATE = (r"(?:(?:is|are|remains?|stays?|goes|go|was|were|left|kept)\s+)?"
          r"(?:unchanged|the\s+same|as\s+(?:before|is)|omitted|elided|truncated|"
          r"not\s+shown|intact|here|kept|above|below)")
_LEAD = r"(?:(?:keep|leave)\s+)?(?:all\s+)?(?:(?:the|your|our|my|this)\s+)?"
_PHRASE = LazyPattern(  # compiled on first use (start-up)
    rf"""(?:
        # rest of the file / the remainder of your existing code [is unchanged]
        {_LEAD}(?:rest|remainder)\s+of\s+(?:(?:the|your|this)\s+)?(?:\w+\s+)?{_KIND}
            (?:\s+{_STATE})?
        # existing code / unchanged imports: placeholders even with no state said ...
        # ("# existing file" alone labels a test case: a file or line needs a state)
      | {_LEAD}(?:existing|unchanged)\s+(?:\w+\s+)?{_KIND}\s+{_STATE}
      | {_LEAD}(?:existing|unchanged)\s+(?:\w+\s+)?(?!(?:file|line)\b){_KIND}
        # ... but "previous implementation", "other methods", "old code", "remaining
        # lines" label real code too, so they need a state: "other methods unchanged"
      | {_LEAD}(?:previous|original|remaining|old|other)\s+(?:\w+\s+)?{_KIND}\s+{_STATE}
        # imports unchanged / code omitted / everything else stays the same
      | (?:everything\s+else|all\s+else|the\s+rest|rest|(?!line\b){_KIND})\s+
            (?:(?:is|are|remains?|stays?)\s+)?
            (?:unchanged|the\s+same|as\s+(?:before|is)|omitted|elided|truncated|not\s+shown)
        # your code here / implementation goes here ("tests here" is a section label)
      | (?:(?:your|the)\s+)?(?:own\s+)?(?:code|implementation|logic|content)\s+
            (?:goes\s+)?here
      | same\s+as\s+before
      | (?:omitted|elided|truncated|snipped?)
    )(?:\s+for\s+brevity)?""",
    re.IGNORECASE | re.VERBOSE,
)
# Every phrase above holds one of these: most lines of code leave on this cheap search
# (of the lowered line; IGNORECASE would make it eight times slower).
_PHRASE_CUE = re.compile(
    r"rest|remainder|existing|unchanged|previous|original|remaining|old|other|else|omitted"
    r"|elided|truncated|snip|here|same|as\s+(?:before|is)|not\s+shown"
)
# A bare line of prose (no comment marker) is a placeholder only in the unmistakable
# forms: docstrings are full of sentences such as "other arguments stay the same." and
# lines that read "omitted.".
_BARE_PHRASE = LazyPattern(  # compiled on first use (start-up)
    rf"""{_LEAD}(?:rest|remainder)\s+of\s+(?:(?:the|your|this)\s+)?(?:\w+\s+)?{_KIND}
            (?:\s+{_STATE})?
      | {_LEAD}existing\s+(?:\w+\s+)?{_KIND}(?:\s+{_STATE})?
      | (?:everything|all)\s+else\s+(?:(?:is|stays?|remains?)\s+)?
            (?:unchanged|the\s+same|as\s+(?:before|is))""",
    re.IGNORECASE | re.VERBOSE,
)
# The words a phrase of either pattern can start with, and end with (before "for
# brevity"). An ASCII line whose first or last word is none of these matches neither, and
# leaves without compiling them (the compile costs more than an ``apply`` of a hundred
# edits spends on every other line).
_KIND_WORDS = frozenset(_KIND[3:-1].replace("lines?", "line|lines").split("|"))
_FIRST_WORDS = _KIND_WORDS | {
    "keep", "leave", "all", "the", "your", "our", "my", "this", "rest", "remainder",
    "existing", "unchanged", "previous", "original", "remaining", "old", "other",
    "everything", "own", "same", "omitted", "elided", "truncated", "snippe", "snipped",
}
_LAST_WORDS = _KIND_WORDS | {
    "unchanged", "same", "before", "is", "omitted", "elided", "truncated", "shown",
    "intact", "here", "kept", "above", "below", "snippe", "snipped",
}
# Where a bare "..." line is valid syntax: Python's Ellipsis, YAML's document end.
_PYTHON = (".py", ".pyi")
_YAML = (".yml", ".yaml")
_TRIPLE_QUOTES = ('"""', "'''")
_ONE_LINE_STRING = LazyPattern(r"""[rRuUbBfF]{0,2}(["']).*\1""")
_TRACEBACK = LazyPattern(r"Traceback \(most recent \w+ last\):")


def _text(line: str) -> str:
    """The line stripped, with the typographic ellipsis spelt as three dots."""
    return line.strip().replace("\u2026", "...")


def without_comment_close(body: str) -> str:
    """``body`` without a comment's closing marker (``*/``, ``*/}``, ``-->``) at its end and
    the blanks before it -- what ``re.sub(r"\\s*(?:\\*+/\\}?|-->)$", "", body, count=1)``
    gives, in linear time: searched, that pattern tried every start in a run of blanks, and
    8,000 spaces took a second (a crafted line, quadratic)."""
    tail = "\n" if body.endswith("\n") else ""  # ("$" also matches before a last newline)
    core = body[: len(body) - len(tail)]
    if core.endswith("-->"):
        head = core[:-3]
    elif core.endswith("*/}"):
        head = core[:-2].rstrip("*")
    elif core.endswith("*/"):
        head = core[:-1].rstrip("*")
    else:
        return body
    return head.rstrip() + tail


def _unwrap(text: str) -> tuple[str, bool]:
    """Peel comment markers and one pair of brackets; say whether anything was peeled."""
    body = _COMMENT_OPEN.sub("", text, count=1)
    body = without_comment_close(body).strip()
    wrapped = body != text
    if len(body) >= 2 and _BRACKETS.get(body[0]) == body[-1]:
        body = body[1:-1].strip()
        wrapped = True
    return body, wrapped


def _bare_ellipsis_is_syntax(path: str) -> bool:
    return path.lower().endswith(_PYTHON + _YAML)


def is_elision(line: str, path: str = "") -> bool:
    """A line that is only an ellipsis marker, maybe saying what it skips.

    ``...``, ``# ...``, ``/* ... */``, ``[...]``, ``// ... existing code ...``,
    ``// other helpers ...``. Judged on the line alone: a bare ``...`` in a Python or
    YAML file (``path``) is syntax until ``is_placeholder_at`` sees its neighbours.
    """
    text = _text(line)
    if "..." not in text:
        return False  # the common case, a line of code, leaves here
    body, wrapped = _unwrap(text)
    if _DOTS_ONLY.fullmatch(body):
        return wrapped or not _bare_ellipsis_is_syntax(path)
    leading = _LEADING_DOTS.match(body)
    trailing = _TRAILING_DOTS.search(body)
    if leading is None and trailing is None:
        return False  # "...props", "Loading...", "x = f(...)": the dots are part of code
    prose = body[leading.end() if leading else 0 : trailing.start() if trailing else None]
    prose = prose.strip(" .,;:")
    if _CODE.search(prose):
        return False  # "x = ...", "def f(): ...", "# ... xml_declaration = None"
    if prose[:1] + prose[-1:] in ("()", "[]"):
        prose = prose[1:-1]  # "# ... (rest of the method)"
    words = _WORD.findall(prose.lower())
    if not words:
        # "# ... ..." is a marker; "...," is Python's Ellipsis in a tuple, "# ... 42" a note.
        return wrapped and not prose.strip()
    if leading and trailing and len(words) <= _FRAMED_WORDS:
        return True  # "... declarations go here ..."
    if not _OMISSION_WORDS.isdisjoint(words) or words[0] in _OMISSION_LEADS:
        # Unwrapped, only a leading ellipsis with a telltale word: doctest continuation
        # lines ("...     return other") are code, so they need a comment or a phrase.
        return wrapped or trailing is not None or _PHRASE.fullmatch(prose) is not None
    return False


def _is_phrase(line: str) -> bool:
    """A comment (or a bare line of prose) saying code was left out, without an ellipsis
    standing alone: ``# rest of file unchanged``, ``// your code here``."""
    text = _text(line)
    if _PHRASE_CUE.search(text.lower()) is None:
        return False
    body, wrapped = _unwrap(text)
    if not wrapped and _CODE.search(body):
        return False  # print("rest of file unchanged") is code
    body = body.rstrip(" .:")
    if body[:1] + body[-1:] in ("()", "[]"):
        body = body[1:-1].strip(" .")  # "# (unchanged code omitted for brevity)"
    phrase = _PHRASE if wrapped else _BARE_PHRASE
    body = " ".join(body.split())
    return bool(body) and _may_be_phrase(body) and phrase.fullmatch(body) is not None


def _may_be_phrase(body: str) -> bool:
    """False when ``body`` (words parted by single spaces) cannot match ``_PHRASE`` or
    ``_BARE_PHRASE``: both start with one of ``_FIRST_WORDS`` and end with one of
    ``_LAST_WORDS``, maybe then "for brevity", each a whole word. Only ASCII is judged
    (there ``lower`` is the patterns' IGNORECASE; elsewhere "ſ" matches "s")."""
    if not body.isascii():
        return True
    words = body.lower().split(" ")
    if words[0] not in _FIRST_WORDS:
        return False
    if len(words) > 2 and words[-2:] == ["for", "brevity"] and words[-3] in _LAST_WORDS:
        return True
    return words[-1] in _LAST_WORDS


def is_placeholder(line: str, path: str = "") -> bool:
    """An elision marker or a placeholder phrase: a line standing for code not shown.

    Judged on the line alone; ``is_placeholder_at`` also looks at the neighbours, which
    a bare ``...`` needs in Python and in doctests.
    """
    return is_elision(line, path) or _is_phrase(line)


def may_hold_placeholder(lines: Iterable[str]) -> bool:
    """False when no line of ``lines`` is a placeholder, wherever it stands (in any file,
    by any neighbours: :func:`is_placeholder_at` says False for each): none holds an
    ellipsis or a phrase cue, which every marker and phrase needs. One look at the joined
    text, not a test of each line (a match in a line is one in the joined text too)."""
    text = "\n".join(lines)
    return ("..." in text or "\u2026" in text
            or _PHRASE_CUE.search(text.lower()) is not None)


def is_placeholder_at(lines: Sequence[str], at: int, path: str = "") -> bool:
    """Whether ``lines[at]`` stands for code not shown, reading its neighbours.

    A bare ``...`` is a marker unless it is syntax where it stands: YAML's document end
    (``path`` says YAML), a doctest line, or, in Python (or when the path is unknown,
    as in the matcher), Ellipsis as the whole body of a block. A placeholder phrase that
    continues the sentence of the comment above it (``# ... we use this for`` then
    ``# the rest of the tests.``) is prose. Every other line is judged by
    ``is_placeholder``.
    """
    line = lines[at]
    if _DOTS_ONLY.fullmatch(_text(line)) is None:
        if not is_placeholder(line, path):
            return False
        return is_elision(line, path) or not _continues_sentence(lines, at)
    lowered = path.lower()
    if lowered.endswith(_YAML) or _in_doctest(lines, at):
        return False
    if lowered and not lowered.endswith(_PYTHON):
        return True  # JavaScript "case x:" then "...": no language here uses a bare "..."
    return not _ellipsis_body(lines, at)


# Words a sentence cannot end on: a comment line ending with one goes on below.
_OPEN_ENDED = frozenset({
    "a", "an", "the", "of", "for", "to", "and", "or", "with", "in", "on", "by", "from",
    "that", "which", "as", "than", "into", "onto", "at", "is", "are", "be",
})


def _continues_sentence(lines: Sequence[str], at: int) -> bool:
    """A comment line that goes on with the sentence of the comment line above it: that
    one ends with a comma or a word no sentence ends on ("... we can use X for")."""
    above = _nearest(lines, range(at - 1, -1, -1))
    if above is None:
        return False
    marker = _COMMENT_OPEN.match(lines[at].strip())
    previous = lines[above].strip()
    if marker is None or not previous.startswith(marker.group().strip() or "\0"):
        return False
    text = _COMMENT_OPEN.sub("", previous, count=1).rstrip()
    if text.endswith(","):
        return True
    words = _WORD.findall(text.lower()[-20:])
    return bool(words) and text[-1:].isalpha() and words[-1] in _OPEN_ENDED


def _in_doctest(lines: Sequence[str], at: int) -> bool:
    """A bare ``...`` that is a doctest prompt (an empty continuation line) or a
    doctest's elided traceback: a ``>>>``/``...`` prompt or a traceback header next to it."""
    above = _nearest(lines, range(at - 1, -1, -1))
    while above is not None and _DOTS_ONLY.fullmatch(lines[above].strip()):
        above = _nearest(lines, range(above - 1, -1, -1))  # "  ..." twice in a traceback
    below = _nearest(lines, range(at + 1, len(lines)))
    for near in (above, below):
        text = "" if near is None else lines[near].strip()
        if text.startswith((">>> ", "... ")) or text == ">>>":
            return True
    return above is not None and _TRACEBACK.fullmatch(lines[above].strip()) is not None


def _ellipsis_body(lines: Sequence[str], at: int) -> bool:
    """A bare ``...`` that is Python's Ellipsis as the whole body of a block (a stub).

    It closes the block (nothing follows at its depth) and opens it: the statement
    above ends with ``:``, with only comments or a docstring between. Followed by more
    of the block, a ``...`` stands for elided lines.
    """
    depth = _depth(lines[at])
    below = _nearest(lines, range(at + 1, len(lines)))
    if below is not None and _depth(lines[below]) >= depth:
        return False
    above = _nearest(lines, range(at - 1, -1, -1))
    while above is not None and lines[above].lstrip().startswith("#"):
        above = _nearest(lines, range(above - 1, -1, -1))
    if above is not None:
        opening = _docstring_start(lines, above)
        if opening is not None:
            above = _nearest(lines, range(opening - 1, -1, -1))
    return above is not None and _code_part(lines[above]).endswith(":")


def _docstring_start(lines: Sequence[str], end: int) -> int | None:
    """Where the string literal closing on line ``end`` opens, if that line ends one."""
    text = lines[end].strip()
    for quote in _TRIPLE_QUOTES:
        if not text.endswith(quote):
            continue
        if text.lstrip("rRuUbBfF").startswith(quote) and len(text) >= 2 * len(quote) + 1:
            return end  # """One line."""
        for k in range(end - 1, -1, -1):
            if quote in lines[k]:
                return k
        return None
    return end if _ONE_LINE_STRING.fullmatch(text) else None


def _code_part(line: str) -> str:
    """The line without a trailing ``# comment`` (one after the last quote, to be safe)."""
    hash_at = line.rfind("#")
    if hash_at > max(line.rfind('"'), line.rfind("'")):
        line = line[:hash_at]
    return line.rstrip()


def _nearest(lines: Sequence[str], order: range) -> int | None:
    """The first non-blank line in ``order``."""
    return next((k for k in order if lines[k].strip()), None)


def _depth(line: str) -> int:
    return len(line[: len(line) - len(line.lstrip())].expandtabs(4))


def placeholder_indices(
    lines: Sequence[str], path: str = "", existing: Iterable[str] = (), *,
    whole: bool = False, among: range | None = None,
) -> list[int]:
    """Indexes of the placeholder lines, skipping any line the existing file has.

    A line such as ``// ...`` in a Markdown code sample, or a doctest's ``...``, is
    real content when the file already contains it (compared stripped): seeing it again
    in new content is no sign of truncation. ``whole``: ``lines`` are a whole file, so
    string literals, Markdown code fences and commented-out blocks can be told (see the
    module's docstring). ``among``: only these indexes are judged (the lines an edit
    writes), the others are context.
    """
    hits = [at for at in (among if among is not None else range(len(lines)))
            if is_placeholder_at(lines, at, path)]
    if hits:
        # Read the existing file only when there is a candidate: it is often a whole file
        # (the lint rule passes one for every edit), the candidates are few or none.
        known = {line.strip() for line in existing}
        hits = [at for at in hits if lines[at].strip() not in known]
    if hits and whole:
        # Only a bare ellipsis (maybe commented) is content there: a worded marker such as
        # "# ... existing code ..." is the classic truncation even in a docstring or sample.
        bare = [at for at in hits if _bare_marker(lines[at])]
        content = _content_lines(lines, path, bare).intersection(bare) if bare else set()
        hits = [at for at in hits if at not in content and not _commented_body(lines, at)]
    return hits


def _bare_marker(line: str) -> bool:
    """An ellipsis alone, maybe in a comment or brackets: ``...``, ``# ...``, ``[...]``."""
    return _DOTS_ONLY.fullmatch(_unwrap(_text(line))[0]) is not None


def find_placeholder(
    lines: Sequence[str], existing: Iterable[str] = (), path: str = ""
) -> tuple[int, str] | None:
    """The first placeholder line of a whole file that the existing file does not itself
    contain, if any."""
    found = placeholder_indices(lines, path, existing, whole=True)
    return (found[0], lines[found[0]]) if found else None


_MARKDOWN = (".md", ".markdown", ".mdx")
_FENCE = LazyPattern(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _content_lines(lines: Sequence[str], path: str, hits: Sequence[int]) -> set[int]:
    """Lines that are content of a whole file, not code: inside a Python string literal
    (not its first line), or inside a fenced code block of a Markdown file."""
    lowered = path.lower()
    if lowered.endswith(_MARKDOWN):
        return _fenced(lines)
    if (not lowered or lowered.endswith(_PYTHON)) and _maybe_in_string(lines, hits):
        return _inside_strings(lines)
    return set()


def _maybe_in_string(lines: Sequence[str], hits: Sequence[int]) -> bool:
    """Whether an odd number of triple quotes comes before some hit: only then is the
    (much dearer) tokenizer asked. A miss here only keeps the guard."""
    wanted = set(hits)
    quotes = 0
    for at, line in enumerate(lines[: max(hits) + 1]):
        if at in wanted and quotes % 2:
            return True
        if "\"\"\"" in line or "'''" in line:
            quotes += line.count('\"\"\"') + line.count("'''")
    return False


def _fenced(lines: Sequence[str]) -> set[int]:
    """Indexes between an opening code fence and its closing one (CommonMark: the same
    character, at least as long, nothing after it). An unclosed fence counts for nothing:
    its end is unknown, and a truncated file looks the same."""
    inside: set[int] = set()
    opening: tuple[str, int] | None = None
    start = 0
    for at, line in enumerate(lines):
        fence = _FENCE.match(line)
        if opening is None:
            if fence is not None and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                opening, start = (fence.group(1)[0], len(fence.group(1))), at
        elif (fence is not None and fence.group(1)[0] == opening[0]
              and len(fence.group(1)) >= opening[1] and not fence.group(2).strip()):
            inside.update(range(start + 1, at))
            opening = None
    return inside


def _inside_strings(lines: Sequence[str]) -> set[int]:
    """Indexes of lines inside a multi-line Python string literal, after its first line.
    Nothing when the text does not tokenize (an unclosed string: the end is unknown)."""
    import tokenize  # here: an exact match of a one-turn check never asks (issue 13)

    inside: set[int] = set()
    reader = io.StringIO("".join(line + "\n" for line in lines)).readline
    try:
        for token in tokenize.generate_tokens(reader):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0], token.end[0] - 1))  # 1-based rows
    except (tokenize.TokenError, SyntaxError):
        return set()
    return inside


def _commented_body(lines: Sequence[str], at: int) -> bool:
    """A commented ``...`` that is the body of a commented-out block (``#   if x:`` then
    ``#       ...``): code shown in a comment, where nothing can be truncated."""
    marker = _COMMENT_OPEN.match(lines[at].lstrip())
    if marker is None or not _DOTS_ONLY.fullmatch(_text(lines[at])[marker.end():].strip()):
        return False
    opener = marker.group().strip()
    column = len(lines[at]) - len(lines[at].lstrip())

    def uncommented(k: int) -> str | None:
        line = lines[k]
        if len(line) - len(line.lstrip()) != column or not line.lstrip().startswith(opener):
            return None
        return line.lstrip()[len(opener):]

    run_start = at
    while run_start > 0 and uncommented(run_start - 1) is not None:
        run_start -= 1
    run_end = at + 1
    while run_end < len(lines) and uncommented(run_end) is not None:
        run_end += 1
    run = [uncommented(k) or "" for k in range(run_start, run_end)]
    here = at - run_start
    above = _nearest(run, range(here - 1, -1, -1))
    # The commented line above must open a block (a keyword, a colon) and the "..." sit
    # deeper: "# Fields:" then "# ..." is a section of the file, not commented code.
    return (above is not None and _depth(run[above]) < _depth(run[here])
            and _BLOCK_OPENER.match(run[above].strip()) is not None
            and _ellipsis_body(run, here))


_BLOCK_OPENER = LazyPattern(
    r"(?:async\s+)?(?:def|class|if|elif|else|for|while|with|try|except|finally|match|case)\b")
