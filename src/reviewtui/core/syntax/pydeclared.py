"""The names a Python file declares ``global`` or ``nonlocal``, for the region check
(:mod:`reviewtui.core.syntax.pyregions`): a region parsed alone cannot see a declaration
outside it, so a name declared anywhere and written in a region sends it to the parser
with those names in hand.

Two sets: every name declared anywhere (a region in a block, whose scope may be a
function's), found at once (``str.find`` for the two words, the pattern on their lines
alone); and the names of the declarations outside every function (those can clash with
a region of the module's or a class's scope), worked out only when a region at the top
level writes one of the first set (a walk up the file from each declaration).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A global or nonlocal statement anywhere on a line (after "if x:" or ";" too; in a string
# or a comment it only adds names: stricter), its names continued past a backslash.
_DECLARES = re.compile(r"\b(?:global|nonlocal)[ \t]+((?:[\w \t,]|\\\r?\n)+)")


class Declared:
    """The declarations of one text (the file after the edits), its lines and the lines
    that start inside a string or continue the line above (``inside``)."""

    __slots__ = ("_found", "_inside", "_lines", "_outside", "_text", "every")

    def __init__(self, text: str, lines: Sequence[str], inside: set[int]) -> None:
        self._text, self._lines, self._inside = text, lines, inside
        self._found: list[tuple[int, set[str]]] = []  # each declaration's offset and names
        every: set[str] = set()
        end = -1
        for start in _keyword_lines(text):
            if start <= end:
                continue  # read with the line its backslash continues
            end = text.find("\n", start)  # the line, and those its backslashes continue
            while end > 0 and (text[end - 1] == "\\" or text[end - 2 : end] == "\\\r"):
                end = text.find("\n", end + 1)
            end = len(text) if end < 0 else end
            for found in _DECLARES.finditer(text, start, end):
                names = {name.strip(" \t\\\r\n") for name in found.group(1).split(",")}
                every.update(names)
                self._found.append((found.start(), names))
        self.every = frozenset(every)
        self._outside: frozenset[str] | None = None

    def outside(self) -> frozenset[str]:
        """The names of every declaration not known to sit in a function (its enclosing
        block headers, found by indentation, include a ``def``); a subset of ``every``."""
        if self._outside is None:
            names: set[str] = set()
            line, at = 0, 0
            for offset, declared in self._found:
                if declared <= names:
                    continue  # (a comment's "global" words too: no walk up the file)
                line += self._text.count("\n", at, offset)
                at = offset
                if not _in_function(self._lines, self._inside, line):
                    names.update(declared)
            self._outside = frozenset(names)
        return self._outside


def _keyword_lines(text: str) -> list[int]:
    """Offsets of the lines that hold ``global`` or ``nonlocal`` anywhere, in order: the
    only lines where :data:`_DECLARES` can match (its matches start at a line's start and
    end in it). ``str.find`` is far cheaper than the regex's attempt at every offset."""
    starts: set[int] = set()
    for word in ("global", "nonlocal"):
        at = text.find(word)
        while at >= 0:
            starts.add(text.rfind("\n", 0, at) + 1)
            at = text.find(word, at + len(word))
    return sorted(starts)


def _in_function(lines: Sequence[str], inside: set[int], line: int) -> bool:
    """Whether the block headers around ``line`` (each above it, less indented, skipping
    blank and comment lines and lines inside strings) include a ``def``."""
    width = len(lines[line]) - len(lines[line].lstrip(" \t"))
    if not width:
        return False  # at the top level (without this, a walk to the top of the file)
    for above in range(line - 1, -1, -1):
        text = lines[above]
        stripped = text.lstrip(" \t")
        if above in inside or not stripped.strip() or stripped.startswith("#"):
            continue
        indent = len(text) - len(stripped)
        if indent < width:
            if re.match(r"(?:async[ \t]+)?def[ \t]", stripped):
                return True
            width = indent
            if not width:
                return False
    return False
