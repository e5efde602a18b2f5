"""Wildcard patterns matched without backtracking.

A glob translated to a regular expression (``*`` -> ``[^/]*``) backtracks exponentially on
``*a*a*a*a*a*a*b`` against a long run of ``a``: a pattern from outside text (a footer, a
``.gitignore`` shipped with a session) could hang the process. :class:`Wildcard` runs the
same small language as a set of states advanced one character at a time (Thompson's
construction), so a match costs at most len(text) * len(pattern) steps.

The language, as parsed pieces: a literal character, one character out of a set (``?`` is
"anything but /", ``[a-z]`` a class), a repeated set (``*`` -> ``[^/]*``, ``**`` -> ``.*``),
and ``(?:.*/)?`` (any leading directories, or none).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from reviewtui.core.record import record

CharTest = Callable[[str], bool]


def not_slash(ch: str) -> bool:
    return ch != "/"


def any_char(ch: str) -> bool:
    return True


def not_newline(ch: str) -> bool:
    return ch != "\n"


def char_class(regex_class: str) -> CharTest:
    """A one-character test from a regex class such as ``[!a-z]`` already in regex form."""
    single = re.compile(regex_class, re.DOTALL)
    return lambda ch: single.fullmatch(ch) is not None


@record(frozen=True, slots=True)
class Piece:
    kind: str  # "one" (a character passing test), "many" (zero or more of them), "dirs"
    test: CharTest = any_char  # for "dirs": what the directories' characters may be


def literal(ch: str) -> Piece:
    return Piece("one", ch.__eq__)


class Wildcard:
    """A sequence of pieces, matched against whole strings."""

    __slots__ = ("_edges", "_skips", "_accept")

    def __init__(self, pieces: list[Piece]) -> None:
        # Node i is "before piece i"; "dirs" uses a second node for "inside the .*".
        edges: list[list[tuple[CharTest, int]]] = []
        skips: list[list[int]] = []
        for piece in pieces:
            here = len(edges)
            if piece.kind == "one":
                edges.append([(piece.test, here + 1)])
                skips.append([])
            elif piece.kind == "many":
                edges.append([(piece.test, here)])
                skips.append([here + 1])
            else:  # dirs: "" or anything ending with "/"
                after = here + 2
                inside = [(piece.test, here + 1), ("/".__eq__, after)]
                edges.append(inside)
                skips.append([after])
                edges.append(inside)
                skips.append([])
        self._accept = len(edges)
        edges.append([])
        skips.append([])
        self._edges = edges
        self._skips = skips

    def _closure(self, nodes: set[int]) -> set[int]:
        stack = list(nodes)
        while stack:
            for target in self._skips[stack.pop()]:
                if target not in nodes:
                    nodes.add(target)
                    stack.append(target)
        return nodes

    def fullmatch(self, text: str) -> bool:
        current = self._closure({0})
        for ch in text:
            current = self._closure({target for node in current
                                     for test, target in self._edges[node] if test(ch)})
            if not current:
                return False
        return self._accept in current
