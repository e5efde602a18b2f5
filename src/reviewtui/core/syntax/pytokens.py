"""Edits that leave a Python file's tokens as the parser sees them: no region to parse.

An edit that only touches comments, blank lines, spaces at line ends or the text inside a
(non-f) string cannot bring in a syntax error the file did not have, as long as every
string keeps its extent and each changed string is a valid literal. :func:`quiet_changes`
finds such changes of :func:`reviewtui.core.syntax.pyregions.edits_parse_alone` with a
scan of the changed lines alone (no parse), given the lines of the file before whose start
lies inside a string (its one whole-file scan).

The *window* of a change runs from the nearest line at or above it that starts out of every
string in the file before, to the first line past it that does; the lines in between that
the change did not touch are inside strings. Changes whose windows meet are judged as one
window (two edits of one docstring); a window must not reach back into a change above. Both
versions of the window are scanned with the tokenizer's rules from their first line (out of
every token in both files: the text above is the same, or ends a window or region that
ends out of every token in both) and must end out of every token (or at the end of the
file). Then, with comments, the spaces and tabs before a comment or a line end (not after a
backslash: ``\\`` then a space is an error, ``\\`` then a newline joins lines) and blank lines
(not after a backslash, in the window or on the line above it in either file) taken out, the
two must read the same, strings aside; each string must be the same, or have the same prefix
(the word characters before its quote: at most two letters, no ``f``, since an f-string's
braces hold code, checked in the scope around it) and parse alone as a literal (escapes,
bytes that must be ASCII). What is taken out is what the tokenizer drops (comments, the
newlines of blank lines, blanks between tokens), so the parser gets the same tokens from the
window before and after, strings' values aside, with the same strings joined to the same
neighbours: it finds the same errors (below a string that gained lines, moved by them). The new
text must hold no NUL and encode as UTF-8 (each would stop the whole parse), and neither
file may hold a carriage return that does not end a line (the tokenizer takes a lone
``\\r`` for a newline; the scans here do not: see :func:`as_read`, which also gives the
scans each ``\\r\\n`` as the ``\\n`` the tokenizer reads).

A change that is not quiet goes to the region check. The two mix soundly: a region starts and
ends at lines that are unchanged, out of every string and continue no line in both files, so
never inside a window (whose inner lines are changed or in strings): each window
lies inside a region or outside all of them, and the text outside the regions, tokens
compared, is the same.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

from reviewtui.core.syntax.pystrings import _TOKENS
from reviewtui.core.text.lines import encodes_utf8

# Blanks at a line end (or the window's end), not after a backslash or other blanks (the
# whole run or none of it).
_LINE_END = re.compile(r"(?<![\\ \t])[ \t]+(?=\r?\n|\Z)")
# Blank lines: a newline (not after a backslash or a "\r") and the empty lines after it.
_BLANK = re.compile(r"(?<![\\\r])(\r?\n)(?:\r?\n)+")
_LEADING_BLANK = re.compile(r"(?:\r?\n)*")
_LONE_CR = re.compile(r"\r(?!\n)")
_PREFIXES = frozenset({"", "r", "u", "b", "br", "rb"})  # no f: an f-string holds code
_PREFIX = re.compile(r"(?<!\w)\w*+\Z")  # (each start in a run is tried once: linear)


def as_read(before: str, after: str) -> tuple[str, str] | None:
    """The two texts with each "\\r\\n" as "\\n", as the tokenizer reads them (a backslash
    before "\\r\\n" continues a line or a string); None when one holds a "\\r" that does
    not end a line (the tokenizer ends a line there too; the scans would not)."""
    if "\r" not in before and "\r" not in after:
        return before, after
    if _LONE_CR.search(before) or _LONE_CR.search(after):
        return None
    return before.replace("\r\n", "\n"), after.replace("\r\n", "\n")


def _read(window: str, at_end: bool, leading_blank: bool
          ) -> tuple[str, list[tuple[str, str]]] | None:
    """The window's code with its comments and insignificant blanks taken out and each
    string replaced by a quote (code holds no quote: one starts a string), and its strings
    with the word characters before each (its prefix, if it has one); None when a token
    runs past the window's end (unless that is the end of the file)."""
    code: list[str] = []
    strings: list[tuple[str, str]] = []
    at = 0
    for found in _TOKENS.finditer(window):
        start, end = found.span()
        if end >= len(window) and not at_end:
            return None  # a token open at the window's end: the files may differ past it
        chunk = window[at:start]
        code.append(chunk)
        token = found.group()
        if token[0] == "#":  # the comment goes, its "\r" stays (part of the line end);
            # right after a backslash its "#" stays: "\\#" is an error, "\\" a line joined
            code.append("#" if chunk.endswith("\\") else "\r" if token.endswith("\r") else "")
        else:
            code.append('"')
            prefix = _PREFIX.search(chunk)  # (\w* always matches)
            strings.append((prefix.group() if prefix else "", token))
        at = end
    code.append(window[at:])
    text = _LINE_END.sub("", "".join(code))
    if "\n\n" in text or "\n\r\n" in text:  # (a blank line; the pattern's template is slow)
        text = _BLANK.sub(r"\1", text)
    if leading_blank:
        text = text[_LEADING_BLANK.match(text).end():]  # type: ignore[union-attr]
    return text, strings


def _same_tokens(old: tuple[str, list[tuple[str, str]]],
                 new: tuple[str, list[tuple[str, str]]]) -> bool:
    """Whether two read windows give the parser the same tokens, strings' values aside."""
    if old[0] != new[0] or len(old[1]) != len(new[1]):
        return False
    for was, now in zip(old[1], new[1], strict=True):
        if was == now:
            continue
        import ast  # here: only a changed string is parsed (comment edits need none)

        prefix, token = now
        if prefix != was[0] or prefix.lower() not in _PREFIXES:
            return False
        try:
            ast.parse(prefix + token, "<string>", "eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def quiet_changes(old: Sequence[str], new: Sequence[str],
                  changes: Sequence[tuple[int, int, int, int]],
                  strings_old: set[int]) -> set[int]:
    """The indexes of ``changes`` (``(lo, hi, old_lo, old_hi)``, 0-based, ``new[lo:hi]``
    in place of ``old[old_lo:old_hi]``) that leave the parser's tokens as they were (see
    the module's doc). ``old``/``new``: the files' lines split at "\n"; ``strings_old``:
    the lines of ``old`` whose start lies inside a string."""
    quiet: set[int] = set()
    previous_end = 0
    count = len(changes)
    k = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an invalid escape warns; the file check ignores it
        while k < count:
            lo, _hi, old_lo, _old_hi = changes[k]
            start = old_lo
            while start in strings_old:
                start -= 1
            last = k  # changes whose windows meet make one window (two in one docstring)
            while True:
                end = changes[last][3]
                while end < len(old) and end in strings_old:
                    end += 1
                if last + 1 < count and end > changes[last + 1][2]:
                    last += 1
                else:
                    break
            _lo, hi, _old_lo, old_hi = changes[last]
            window = (start, end, lo - (old_lo - start), hi + (end - old_hi))
            if (start >= previous_end and old_hi <= len(old) and hi <= len(new)
                    and _quiet(old, new, *window)):
                quiet.update(range(k, last + 1))
            previous_end = old_hi
            k = last + 1
    return quiet


def _quiet(old: Sequence[str], new: Sequence[str], start: int, end: int,
           new_start: int, new_end: int) -> bool:
    """Whether ``new[new_start:new_end]`` gives the parser the tokens of
    ``old[start:end]`` (strings' values aside), both windows starting out of every token."""
    at_end = end >= len(old)
    was, now = _window(old, start, end, at_end), _window(new, new_start, new_end, at_end)
    if "\x00" in now or not (now.isascii() or encodes_utf8(now)):
        return False
    # Blank lines at the top of the window count after a backslash (above it in either
    # file: the line above may be the last of the change before).
    above = (old[start - 1] if start else "", new[new_start - 1] if new_start else "")
    leading_blank = not any(line.rstrip("\r").endswith("\\") for line in above)
    read_was = _read(was, at_end, leading_blank)
    read_now = _read(now, at_end, leading_blank)
    return read_was is not None and read_now is not None and _same_tokens(read_was, read_now)


def _window(lines: Sequence[str], start: int, end: int, at_end: bool) -> str:
    """The text of ``lines[start:end]``, each with its newline (but the file's last)."""
    if start == end:
        return ""
    return "\n".join(lines[start:end]) + ("" if at_end else "\n")

