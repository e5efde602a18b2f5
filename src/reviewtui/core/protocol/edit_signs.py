"""Signs of a broken edit where the reply parser would read a full file or one edit.

A file block with no SEARCH marker the grammar reads is taken as the file's whole content.
When that content holds what only an edit holds -- a SEARCH marker typed a little off
(``<<<< SEARCH``, ``<<<<<<< search``), an ``Edit N`` label (whose ``@`` range the grammar
cannot read: ``@ 2–3``, ``@ L2-L3``), or, unfenced, a divider followed by a REPLACE-like
marker -- it is a malformed edit, and writing it would put its label and markers in the
file in place of its lines (QA s47 helper-147 H2). Such a block is a parse problem naming
the line and the rule, never file content. A real file holding a divider and a REPLACE
marker (documentation of this protocol) is sent fenced; a fence makes its end explicit.

An edit whose lines between SEARCH and REPLACE hold several divider-like lines (a quoted
git conflict, an RST title underline) has as many readings; :func:`other_splits` lists the
ones after the first, for the engine to take the one found in the file (H6).

Other tools' marker dialects are broken edits too, never content (QA s47 helper-154 M4):
Cline's ``------- SEARCH`` / ``=======`` / ``+++++++ REPLACE`` and Aider's older
``<<<<<<< ORIGINAL`` / ``=======`` / ``>>>>>>> UPDATED``. They are refused with a message
naming the dialect, not read as edits: the grammar stays as documented. Only a fence of four
or more backticks or tildes proves that a divider followed by a REPLACE-like line is the
file's own (M3: a fenced edit missing its SEARCH line was written as the file).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.model.records import DividerSplit, ParseProblem, Span
from reviewtui.core.protocol import grammar as g
from reviewtui.core.text.lazy_pattern import LazyPattern

# Near-misses of the markers (any length of 3 or more, any case, a colon or bold after).
_SEARCH_LIKE = LazyPattern(r"^\s*+<{3,}+\s*+search[\s:*]*+$", re.IGNORECASE)
_REPLACE_LIKE = LazyPattern(r"^\s*+>{3,}+\s*+replace[\s:*]*+$", re.IGNORECASE)
# Other tools' markers (M4): Cline's SEARCH and REPLACE, Aider's older pair.
_CLINE_SEARCH = LazyPattern(r"^\s*+-{3,}+\s*+search[\s:*]*+$", re.IGNORECASE)
_CLINE_REPLACE = LazyPattern(r"^\s*+\+{3,}+\s*+replace[\s:*]*+$", re.IGNORECASE)
_ORIGINAL = LazyPattern(r"^\s*+<{3,}+\s*+original[\s:*]*+$", re.IGNORECASE)
_UPDATED = LazyPattern(r"^\s*+>{3,}+\s*+updated[\s:*]*+$", re.IGNORECASE)
_DIVIDER_LIKE = LazyPattern(r"^\s*+={3,}+\s*+$")
# An ``Edit N`` label, with whatever address or note a model puts after it.
_LABEL_LIKE = LazyPattern(r"^\s*+(?:\*\*)?Edit\s++\d++(?P<rest>(?:\s*+[@:(].*)?)$")
# The lines whose first character can make them one of the above (line signatures).
_SIGN = re.compile(r"[-+<=>]")
# A fence at least this long proves that the divider and REPLACE-like lines in it are the
# file's own (M3); a shorter one is the fence a model puts around an edit.
CONTENT_FENCE = 4

_FENCE_IT = "fence the content to send a file that holds such lines"
_FENCE_LONG = "fence the content with four backticks (````) to send a file that holds such lines"


def full_file_problem(lines: Sequence[str], sig: str, base: int, first: int, stop: int,
                      path: str, *, fenced: int) -> ParseProblem | None:
    """Why ``lines[first:stop]``, read as the full content of ``path``, is a broken edit;
    None when it is content. ``sig`` is the line signature of ``lines[base:]``; ``fenced``
    the length of the fence around the content (0: unfenced)."""
    nonblank = next((k for k in range(first, stop) if sig[k - base] != " "), stop)
    if nonblank == stop:
        return None
    label = label_rest(lines[nonblank]) if sig[nonblank - base] in "E*" else None
    divider = replace = search = original = None
    k = nonblank
    while (m := _SIGN.search(sig, k - base, stop - base)) is not None:
        k = m.start() + base
        line = lines[k]
        if is_search_like(line):
            search = k
            break
        if original is None and is_original(line):
            original = k
        elif divider is None and is_divider_like(line):
            divider = k
        elif divider is not None and replace is None and is_replace_like(line):
            replace = k
        elif original is not None and is_updated(line):
            search = original  # Aider's older pair: ORIGINAL, then UPDATED
            break
        k += 1
    return broken_edit(lines, path, nonblank, label, (search, divider, replace), fenced=fenced,
                       indented=_indented_fence(lines[nonblank]) if not fenced else False)


def broken_edit(lines: Sequence[str], path: str, first: int, label: str | None,
                signs: tuple[int | None, int | None, int | None], *, fenced: int,
                indented: bool = False) -> ParseProblem | None:
    """The problem of a full file whose first line is ``lines[first]`` (``label``: what
    :func:`label_rest` reads on it), given ``signs``: its first SEARCH-like line (or the
    ORIGINAL line of Aider's older pair), its first divider-like line and the first
    REPLACE-like line after that (None: no such line). ``fenced`` is the length of the
    fence around it (0: unfenced); ``indented``: unfenced, its first line is an indented
    fence line."""
    search, divider, replace = signs
    where = f"the block for {path!r} is not read as the file's content, and nothing in it is "\
            "applied"
    if search is not None:
        return _malformed(lines[search], search, where)
    if label is not None and (not fenced or replace is not None):
        if "@" in label:
            return _bad_address(lines[first], first, where)
        return _problem("dangling-label", f"{lines[first].strip()!r} is not followed by a "
                        f"SEARCH block: {where} ({_FENCE_IT})", first)
    if fenced < CONTENT_FENCE and divider is not None and replace is not None:
        return _problem("stray-marker", f"{lines[replace].strip()!r} after "
                        f"{lines[divider].strip()!r} (line {divider + 1}) without an opening "
                        f"'<<<<<<< SEARCH': {where} ({_FENCE_LONG})", replace)
    if indented:
        line = lines[first]
        return _problem("indented-block", f"{line.strip()!r} is indented "
                        f"({len(line) - len(line.lstrip())} characters): a fence opens only at "
                        "the start of a line, so its fence lines and indentation would be "
                        f"written into the file: {where} (write the header, the fence and the "
                        "content at the start of the line)", first)
    return None


def _indented_fence(line: str) -> bool:
    """An indented line that would open a fence at the start of a line (M7)."""
    return line[:1].isspace() and g.fence_open(line.lstrip()) is not None


def stray_problem(line: str, at: int) -> ParseProblem | None:
    """The problem of a line read as stray text (``lines[at]``) that starts a broken edit:
    a SEARCH-like marker (another tool's too), or a label with an ``@`` range the grammar
    cannot read."""
    where = "it is not read as an edit, and nothing in it is applied"
    if is_search_like(line) or is_original(line):
        return _malformed(line, at, where)
    rest = label_rest(line)
    return _bad_address(line, at, where) if rest and "@" in rest else None


def _malformed(line: str, at: int, where: str) -> ParseProblem:
    said = repr(line.strip())
    if _CLINE_SEARCH.match(line) is not None:
        said += " is Cline's SEARCH marker ('------- SEARCH' / '=======' / '+++++++ REPLACE')"
        what = "this protocol's markers are '<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE'"
    elif is_original(line):
        said += (" is Aider's older marker ('<<<<<<< ORIGINAL' / '=======' / "
                 "'>>>>>>> UPDATED')")
        what = "this protocol's markers are '<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE'"
    else:
        said += (" is not a SEARCH marker (5 to 9 '<', then 'SEARCH' after at most one "
                 "space, nothing after it)")
        what = "write '<<<<<<< SEARCH'"
    return _problem("malformed-marker", f"{said}: {what}; {where}", at)


def _bad_address(line: str, at: int, where: str) -> ParseProblem:
    return _problem("bad-address", f"{line.strip()!r}: the line range is not one the grammar "
                    "reads: write '@ 140-148' (two line numbers and a hyphen) or "
                    f"'@ 12:a3-15:f0'; {where}", at)


def is_search_like(line: str) -> bool:
    """A SEARCH marker a little off, or Cline's (``------- SEARCH``)."""
    return _SEARCH_LIKE.match(line) is not None or _CLINE_SEARCH.match(line) is not None


def is_divider_like(line: str) -> bool:
    return _DIVIDER_LIKE.match(line) is not None


def is_replace_like(line: str) -> bool:
    """A REPLACE marker a little off, or Cline's (``+++++++ REPLACE``)."""
    return _REPLACE_LIKE.match(line) is not None or _CLINE_REPLACE.match(line) is not None


def is_original(line: str) -> bool:
    """Aider's older SEARCH marker, ``<<<<<<< ORIGINAL``."""
    return _ORIGINAL.match(line) is not None


def is_updated(line: str) -> bool:
    """Aider's older REPLACE marker, ``>>>>>>> UPDATED``."""
    return _UPDATED.match(line) is not None


def label_rest(line: str) -> str | None:
    """What follows ``Edit N`` on a label-like line (``""`` for a label the grammar reads),
    else None."""
    m = _LABEL_LIKE.match(line)
    if m is None:
        return None
    return m.group("rest").strip() if g.edit_label(line) is None else ""


def _problem(rule: str, message: str, at: int) -> ParseProblem:
    return ParseProblem(rule, message, Span(at + 1, at + 1))


def other_splits(lines: Sequence[str], sig: str, base: int, s: int, j: int, r: int,
                 ) -> tuple[DividerSplit, ...]:
    """The edit whose SEARCH marker is on line ``s``, first divider on ``j`` and REPLACE
    marker on ``r``, read at each later divider line."""
    found: list[DividerSplit] = []
    k = j + 1
    while (at := sig.find("=", k - base, r - base)) >= 0:
        k = at + base
        if g.is_divider(lines[k]):
            found.append(DividerSplit(k + 1, tuple(lines[s + 1 : k]), tuple(lines[k + 1 : r])))
        k += 1
    return tuple(found)
