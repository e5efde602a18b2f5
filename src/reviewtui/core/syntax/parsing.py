"""Parse a file's text with its grammar, reusing the tree of the version before.

Trees are cached per (grammar, content hash). Given the text before an operation,
:func:`parse` finds the changed byte span (common prefix and suffix, by binary search over
``bytes`` comparisons, so it costs memory compares, not a Python loop per character), edits
the before tree to match and re-parses: tree-sitter then reuses every subtree outside the
change, so an edit in a 10,000-line file costs about the edit, not the file.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from reviewtui.core.record import record
from reviewtui.core.syntax.languages import language_for
from reviewtui.core.text.content import encoded, text_key

if TYPE_CHECKING:  # imported with the first grammar (languages.language)
    from tree_sitter import Parser, Tree

_TREES = 16  # parsed versions kept (each a few times its file): two per file chain edits
# ... and the bytes of their texts together (two versions always kept: a chain of edits
# needs the one before). A tree costs ~20 times its text unless it shares nodes with the
# version it was edited from: sixteen 3 MB JavaScript versions parsed apart held ~950 MB.
_TREE_BYTES = 12 << 20


@record(frozen=True, slots=True)
class Parsed:
    """One version of a file and its syntax tree. Do not edit ``tree`` (it is shared)."""

    grammar: str
    data: bytes
    tree: Tree


_trees: OrderedDict[tuple[str, str], Parsed] = OrderedDict()
_parsers: dict[str, Parser] = {}
# A parser is not safe to share between threads, and the workbench checks from a worker
# while a key on the event loop may ask too: one parse at a time.
_lock = threading.RLock()


def _key(grammar: str, text: str) -> tuple[str, str]:
    """A version's tree's key: its grammar and the text's content key (worked out once
    for the text object, as its bytes are: ``core/text/content.py``)."""
    return grammar, text_key(text)


def _remember(key: tuple[str, str], parsed: Parsed) -> Parsed:
    _trees[key] = parsed
    _trees.move_to_end(key)
    held = sum(len(kept.data) for kept in _trees.values())  # (16 at most)
    while len(_trees) > 2 and (len(_trees) > _TREES or held > _TREE_BYTES):
        held -= len(_trees.popitem(last=False)[1].data)
    return parsed


def common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common prefix of ``a`` and ``b``."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # invariant: a[:lo] == b[:lo]
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """The length of the longest common suffix, at most ``limit``."""
    lo, hi = 0, limit
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(data: bytes, offset: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


def parse(path: str, text: str, previous: str | None = None) -> Parsed | None:
    """The tree of ``text`` as the grammar for ``path`` reads it, or None without a grammar
    (:class:`TooSlow` where the grammar gives up).

    ``previous`` is the text this one was made from (the file before an operation): its
    tree, cached or parsed now, is edited and reused.
    """
    with _lock:
        return _parse(path, text, previous)


class TooSlow(Exception):
    """The grammar gave up on a text within its time (:func:`_budget`): some texts make
    tree-sitter's error recovery quadratic (QA s49 helper-175 S01: valid CSS holding
    ``content: "/*"``, which tree-sitter-css misreads: 100,000 lines took 132 s in
    ``check``). The text is then not checked."""

    def __init__(self, grammar: str, seconds: float) -> None:
        super().__init__(f"tree-sitter {grammar} gave up after {seconds:.1f} s")
        self.grammar, self.seconds = grammar, seconds


def _budget(size: int) -> int:
    """Microseconds a parse of ``size`` bytes may take: 1 s and 0.5 s a megabyte (a
    grammar reads several megabytes a second; a slow machine's parse of a real file
    stays well under it)."""
    return 1_000_000 + size // 2


def _run(parser: Parser, grammar: str, data: bytes, tree: Tree | None = None) -> Tree:
    """``parser.parse`` within :func:`_budget`, else :class:`TooSlow` (the parser reset
    for the next text)."""
    import warnings

    budget = _budget(len(data))
    # timeout_micros: the pinned binding's own limit, deprecated for progress_callback,
    # which crashed the process (a segmentation fault) given a callable source; the stub
    # calls the property read-only.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        parser.timeout_micros = budget  # type: ignore[misc]
    try:
        return parser.parse(data, tree) if tree is not None else parser.parse(data)
    except ValueError:  # ("Parsing failed": the time ran out)
        parser.reset()
        raise TooSlow(grammar, budget / 1e6) from None


def _parse(path: str, text: str, previous: str | None) -> Parsed | None:
    found = language_for(path)
    if found is None:
        return None
    grammar, lang = found
    data = encoded(text)
    key = _key(grammar, text)
    cached = _trees.get(key)
    if cached is not None:
        _trees.move_to_end(key)
        return cached
    parser = _parsers.get(grammar)
    if parser is None:
        from tree_sitter import Parser

        parser = _parsers[grammar] = Parser(lang)
    try:
        base = (_parse(path, previous, None) if previous is not None and previous != text
                else None)
    except TooSlow:
        base = None  # (this text may still parse in time, read afresh)
    if base is None:
        return _remember(key, Parsed(grammar, data, _run(parser, grammar, data)))
    old = base.data
    start = common_prefix(old, data)
    tail = common_suffix(old, data, min(len(old), len(data)) - start)
    old_end, new_end = len(old) - tail, len(data) - tail
    tree = base.tree.copy()
    tree.edit(start_byte=start, old_end_byte=old_end, new_end_byte=new_end,
              start_point=_point(old, start), old_end_point=_point(old, old_end),
              new_end_point=_point(data, new_end))
    return _remember(key, Parsed(grammar, data, _run(parser, grammar, data, tree)))


def cached(path: str, text: str) -> Parsed | None:
    """The tree of ``text`` if it is already parsed, else None (never parses)."""
    from reviewtui.core.syntax.languages import grammar_name

    grammar = grammar_name(path)
    if grammar is None:
        return None
    with _lock:
        return _trees.get(_key(grammar, text))


def clear_cache() -> None:
    """Forget every tree (tests and benches measure cold parses with it)."""
    with _lock:
        _trees.clear()
