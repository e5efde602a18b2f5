"""The statements around a change, as a region of :mod:`reviewtui.core.syntax.pyregions`
smaller than the definition that holds them.

A change inside a long function is first tried with the statements of its block alone:
from the nearest unchanged line above it that starts a statement at the changed lines'
indentation or less, to the next unchanged line past it at the region's indentation or
less (a clause -- ``else``, ``elif``, ``except``, ``finally`` -- at exactly that
indentation belongs to a statement of the region: the region goes on past it). Such a
line may sit inside brackets, where a ``def`` or ``class`` line never does, so the region
needs more than its shape:

* its first line is out of every bracket: from the nearest unchanged ``def``/``class``
  line above (or the top of the file, or the end of the last statement region proved,
  which its balanced brackets leave out of them too) to it, nothing changed, and the
  brackets of the file before balance outside strings and comments (the ``def``/``class``
  line itself is out of them in a file that parses, and so, with the same text between,
  in the file after: every region before it ends, balanced, where it started);
* every line of it is in the block (starts with its indentation; a line starting with
  other whitespace, such as a form feed, gives up). A comment less indented ends it when
  the next statement past the comments is at its indentation or less (not a clause at
  exactly it): comments give the parser no token and the tokenizer no indentation.

The caller then parses the region after the edits alone, as any region, and takes the
region before as whole on the same terms as a definition's
(:func:`reviewtui.core.syntax.pyregions._complete_before`), or parses it. A statement
that parses alone at the top of a module parses in a function or class body too, but for
what the symbol table ties to the scope around: ``import *``, ``:=`` and names declared
``global``/``nonlocal``, which the region check refuses in a block already.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
_DEF_OR_CLASS = re.compile(r"[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]")
_TOKENS_HINT = ('"', "'", "#")
_HEAD_MAX = 2_000  # lines from the def/class line above: farther, the definition is cheaper


def statement_region(new: Sequence[str], old: Sequence[str], k: int,
                     changes: Sequence[tuple[int, int, int, int]],
                     free: Callable[[int], bool], to_old: Callable[[int], int],
                     strip: Callable[[str], str],
                     known: int | None = None) -> tuple[int, int, str] | None:
    """(first, end, indentation) in ``new`` of the statements around ``changes[k]``, or
    None. ``free(line)``: an unchanged line of ``new`` that starts out of every string and
    continues no line, in both files. ``strip``: a text without its strings and comments.
    ``known``: where an earlier region that this one's check proved ends (see below)."""
    lo, hi, old_lo, old_hi = changes[k]
    least = None
    for line in (*new[lo:hi], *old[old_lo:old_hi]):
        stripped = line.lstrip(" \t")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        if stripped[0].isspace():
            return None
        width = len(line) - len(stripped)
        least = width if least is None else min(least, width)
    if least is None:
        return None
    first = _first_line(new, lo, least, free)
    if first is None:
        return None
    indent = new[first][: len(new[first]) - len(new[first].lstrip(" \t"))]
    # The nearest line above that starts out of every bracket of the file before: a
    # def/class line, or the end of an earlier statement region (``known``), proved: the
    # region before the edits started out of every bracket and its brackets balance
    # (whole by its shape, or parsed alone), so the line past it starts out of them too.
    anchor = first - 1
    while anchor >= 0 and anchor != known and not (
            _DEF_OR_CLASS.match(new[anchor]) and free(anchor)):
        anchor -= 1
    if (k and changes[k - 1][1] > max(anchor, 0)) or (first - anchor > _HEAD_MAX
                                                       and anchor >= 0):
        # (an edit between: the brackets before the region may differ; a definition far
        # above is cheaper to parse. At the top of a module there is none: its text down
        # to the region is counted whatever its length, a whole parse and symbol table
        # costing ~70 ms a check on 20,000 lines, QA s53 helper-221)
        return None
    head = "\n".join(old[0 if anchor < 0 else to_old(anchor) : to_old(first)])
    if any(mark in head for mark in _TOKENS_HINT):
        head = strip(head)
    if (head.count("(") + head.count("[") + head.count("{")
            != head.count(")") + head.count("]") + head.count("}")):
        return None
    end = _end_line(new, hi, indent, free)
    return None if end is None else (first, end, indent)


def _first_line(new: Sequence[str], lo: int, least: int,
                free: Callable[[int], bool]) -> int | None:
    """The nearest line above ``lo`` that starts a statement at ``least`` or less (a
    clause there lowers ``least`` to its own and the search goes on)."""
    line = lo - 1
    while line >= 0:
        text = new[line]
        stripped = text.lstrip(" \t")
        if stripped.strip() and not stripped.startswith("#"):
            if stripped[0].isspace():
                return None
            width = len(text) - len(stripped)
            if width <= least and free(line):
                if _CLAUSE.match(stripped) is None:
                    return line
                least = width
        line -= 1
    return None


def _end_line(new: Sequence[str], hi: int, indent: str,
              free: Callable[[int], bool]) -> int | None:
    """The first unchanged line from ``hi`` that starts a statement at ``indent`` (not a
    clause) or less, or the end of the file."""
    width = len(indent)
    line = hi
    while line < len(new):
        text = new[line]
        stripped = text.lstrip(" \t")
        if stripped.strip() and free(line):
            if stripped[0].isspace():
                return None
            if stripped.startswith("#"):
                if not text.startswith(indent):
                    return _before_comments(new, line, width, free)
            else:
                at = len(text) - len(stripped)
                if at < width:
                    return line
                if not text.startswith(indent):
                    return None
                if at == width and _CLAUSE.match(stripped) is None:
                    return line
        line += 1
    return line


def _before_comments(new: Sequence[str], line: int, width: int,
                     free: Callable[[int], bool]) -> int | None:
    """``line``, a comment less indented than the region, when the region may end there:
    past it and the blank and comment lines after it (each unchanged, out of every string,
    continuing no line), the next line starts a statement at the region's indentation or
    less (not a clause at exactly that indentation), or the file ends. Those lines give the
    parser no token and the tokenizer no indentation, so the region and the rest read as
    if the region ended at that statement; the region alone cannot hold a comment its
    indentation does not reach. None otherwise."""
    end = line
    while line < len(new):
        text = new[line]
        stripped = text.lstrip(" \t")
        if not free(line):
            return None
        if stripped.strip() and not stripped.startswith("#"):
            if stripped[0].isspace():
                return None
            at = len(text) - len(stripped)
            if at > width or (at == width and _CLAUSE.match(stripped) is not None):
                return None
            return end
        line += 1
    return end
