"""Python edits that only add a comment at line ends: proved from the changed lines alone.

``apply`` asks of each Python file it writes whether the edits brought a syntax error into
it (:func:`reviewtui.core.syntax.pyregions.edits_parse_alone`). When every changed line is
its old self with blanks and maybe a ``#`` comment added at its end (``# noqa``,
``# type: ignore[...]``, ``# pragma: no cover``), :func:`appended_comments` answers from
those lines, without the scan of the whole file for strings that the token and region
checks start from (about 2 ms for 10,000 lines). Wherever the old line's end lies, the
parser reads the same:

* out of every token, in brackets or not: a comment, which the tokenizer drops;
* in a comment: more of that comment;
* in a triple-quoted string that is not an f-string: more of its text. The added text
  holds no quote, no backslash, no brace and nothing outside printable ASCII (a tab
  aside), so it cannot end the string, escape a character, or put a non-ASCII byte in a
  bytes literal;
* in a one-line string: with no backslash at the line's end, only an unterminated one
  reaches it -- an error the file had already, on the same line.

So the tokens are the same, comments and the values of strings aside, and so are the errors
(or none). Not proved here, because the line's end may matter (the token and region checks
decide as before): a changed line whose old text, or the line above it, ends with a
backslash; a changed line among the lines of a triple-quoted f-string (a ``#`` in its braces
is an error in 3.11: see :func:`_fstring_lines`); a carriage return in the file; "coding" in
the added text (a comment on one of the first two lines can declare the encoding); a change
that adds or removes lines.
Only on Python 3.11 (as ``pyregions._SUPPORTED``): 3.12 tokenizes f-strings differently.
:func:`edited_lines_parse`, what ``apply``'s report calls, asks this first and loads the
region check only when it does not prove the edits. A property test holds both to whole
parses.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from reviewtui.core.text.lazy_pattern import LazyPattern

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.model.filestate import FileState
    from reviewtui.core.syntax.pylines import Change

# Blanks, then maybe a comment of printable ASCII without quotes, backslash or braces.
# (Compiled on first use, as the openers below are: ``check`` imports this module for every
# Python edit and most never get this far; the three cost ~0.3 ms at start-up.)
_ADDED = LazyPattern(r"[ \t]*(?:#[\t\x20\x21\x23-\x26\x28-\x5b\x5d-\x7a\x7c\x7e]*)?")
# A triple quote after an f-string prefix (f, rf, fr in any case). The quote comes first in
# the pattern, so the search runs from one triple quote to the next (a literal prefix).
_FSTRING_OPENERS = tuple(LazyPattern(quote + f"(?:(?<=[fF]{quote})|(?<=[fF][rR]{quote}))")
                         for quote in ('"""', "'''"))


def edited_lines_parse(before: str, opening: FileState, closing: FileState,
                       steps: Sequence[tuple[int, int, int]], *,
                       comments_only: bool = False) -> bool:
    """``edits_parse_alone`` for a file that ``steps`` (each edit's ``(first, last, shift)``,
    1-based lines, in order, as the engine reports them) took from ``opening`` (whose text
    is ``before``) to ``closing``, a long file with no CR (its lines are the split text).
    Edits that keep the line count and only add comments are answered first, without
    loading the region check: line i after is then line i before, and only the lines in
    the edits' spans can differ. ``comments_only``: that answer alone (else False)."""
    if (sys.version_info < (3, 12) and not any(shift for _, _, shift in steps)
            and opening.line_count == closing.line_count
            and opening.final_newline == closing.final_newline):
        spans = sorted({line for first, last, _ in steps for line in range(first - 1, last)})
        if appended_comments(before, opening.lines, closing.line_view,
                             [(line, line + 1, line, line + 1) for line in spans]):
            return True
    if comments_only:
        return False  # (the regions' check is not loaded: a whole parse is cheaper)
    from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

    def after() -> str:
        return closing.text or ""  # (not binary: the caller checks)

    return edits_parse_alone(before, after, changes_of(steps), before_lines=opening.lines,
                             after_lines=closing.line_view,
                             after_final_newline=closing.final_newline)


def appended_comments(before: str, old: Sequence[str], new: Sequence[str],
                      changes: Sequence[Change]) -> bool:
    """True when each of ``changes`` (``(lo, hi, old_lo, old_hi)``: ``new[lo:hi]`` in place
    of ``old[old_lo:old_hi]``) keeps its lines, each as it was or with blanks and a comment
    added at its end, as the module's doc says; False: not proved here. ``before``: the text
    of the file before, ``old`` and ``new`` the two versions' lines split at "\\n"."""
    if not changes or "\r" in before:
        return False
    edited: list[int] = []  # the lines of ``old`` that got a comment (ascending)
    for lo, hi, old_lo, old_hi in changes:
        if hi - lo != old_hi - old_lo or hi > len(new) or old_hi > len(old):
            return False
        for at in range(hi - lo):
            now, was = new[lo + at], old[old_lo + at]
            if now == was:
                continue
            if (not now.startswith(was) or was.endswith("\\")
                    or (old_lo + at > 0 and old[old_lo + at - 1].endswith("\\"))):
                return False
            added = now[len(was) :]
            if _ADDED.fullmatch(added) is None or "coding" in added:
                return False
            edited.append(old_lo + at)
    return not any(first <= line <= last for first, last in _fstring_lines(before)
                   for line in edited)


def _fstring_lines(text: str) -> list[tuple[int, int]]:
    """The lines (0-based, first and last) of every triple-quoted f-string in ``text``:
    from each f-string prefix's triple quote to the next such quote. That is where the
    string ends when no backslash lies between; with one there, or no quote to end it, the
    whole text is given. A prefix in a comment or a string gives lines too: stricter."""
    spans: list[tuple[int, int]] = []
    for pattern in _FSTRING_OPENERS:
        line, at = 0, 0  # the line of offset ``at`` (newlines counted once, in order)
        for found in pattern.compiled().finditer(text):
            start, quote = found.start(), found.group()
            end = text.find(quote, found.end())
            if end < 0 or text.find("\\", found.end(), end) >= 0:
                return [(0, len(text))]  # (more than any line number)
            line += text.count("\n", at, start)
            at = start
            spans.append((line, line + text.count("\n", start, end)))
    return spans
