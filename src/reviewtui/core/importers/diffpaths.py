"""How a unified diff names its files: ``---``/``+++`` paths and the two paths of a
``diff --git`` line, their prefixes dropped and git's C-style quoting
(``"caf\\303\\251.txt"``) undone. Used by :mod:`reviewtui.core.importers.unified`.

The prefixes are the diff's own: git's ``a/`` and ``b/`` by default, ``i/`` and ``w/``
(or ``c/``, ``o/``) with ``diff.mnemonicPrefix``, any pair with ``--src-prefix`` and
``--dst-prefix``, none with ``--no-prefix``; ``diff -ruN old new`` names each file under
the two folders compared. :func:`prefix_pair` reads them from the diff's headers: a file
named on both sides as ``P/path`` and ``Q/path`` (P and Q different) shows the pair, one
named the same on both sides shows there is none. Without that evidence a path loses a
leading ``a/`` or ``b/``, as before. (Kept as a path, a prefix made a new file land in a
made-up folder, ``w/src/new.js``, with exit 0.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

DEV_NULL = "/dev/null"

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Protocol

    class _Hunk(Protocol):
        old_count: int

    class _Section(Protocol):
        old: str | None
        new: str | None
        new_file: bool

        @property
        def hunks(self) -> Sequence[_Hunk]: ...

# The prefixes of the old and the new side (each "" or ending in "/"); None: not known.
Prefixes = tuple[str, str]


def diff_path(raw: str, prefix: str | None = None) -> str | None:
    """A ``---``/``+++`` path: None for /dev/null; ``prefix`` (that side's, see
    :func:`prefix_pair`) dropped, or without one a git ``a/``/``b/`` prefix."""
    path = _raw_path(raw)
    if path == DEV_NULL:
        return None
    if prefix is not None:
        return path[len(prefix):] if prefix and path.startswith(prefix) else path
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def prefix_pair(lines: Sequence[str], start: int, stop: int) -> Prefixes | None:
    """The prefixes the diff in ``lines[start:stop]`` gives its old and new paths, by
    the most of its files: ``("a/", "b/")``, ``("i/", "w/")``, ``("", "")`` (none)...
    None when no file shows them (a single new file, say) or two pairs tie."""
    votes: Counter[Prefixes] = Counter()
    i = start
    while i < stop:
        line = lines[i]
        if line.startswith("diff --git "):
            found = _header_pair(line[len("diff --git "):])
            if found is not None:
                votes[found] += 1
        elif line.startswith("--- ") and i + 1 < stop and lines[i + 1].startswith("+++ "):
            old, new = _raw_path(line[4:]), _raw_path(lines[i + 1][4:])
            found = _pair(old, new) if DEV_NULL not in (old, new) else None
            if found is not None:
                votes[found] += 1
            i += 1
        i += 1
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def _raw_path(raw: str) -> str:
    """A ``---``/``+++`` path as written: up to a tab (a date may follow), unquoted. Before
    a tab the name is whole, trailing blanks and all: git ends a name that has them with a
    tab (``--- a/a.txt \t``), and ``a.txt`` is another file."""
    name, tab, _ = raw.partition("\t")
    return unquote(name if tab else name.rstrip())


_STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d+)? ([+-])(\d\d)(\d\d)\s*$")


def epoch_dated(raw: str) -> bool:
    """Whether a ``---``/``+++`` line's date (after its tab) is the Unix epoch, in any
    zone: how ``diff -N`` marks the side of a file that does not exist (``diff -ruN``
    writes no ``/dev/null``)."""
    _, tab, date = raw.partition("\t")
    found = _STAMP.match(date.strip()) if tab else None
    if found is None:
        return False
    from calendar import timegm  # (a diff -ruN file header alone)

    *stamp, sign, zone_h, zone_m = found.groups()
    offset = (int(zone_h) * 3600 + int(zone_m) * 60) * (1 if sign == "+" else -1)
    try:
        return timegm(tuple(int(part) for part in stamp)) - offset == 0
    except ValueError:  # (no such date: month 13)
        return False


def _pair(old: str, new: str) -> Prefixes | None:
    """The prefixes ``old`` and ``new`` show when they name one file: ("", "") when they
    are the same, (P/, Q/) when they differ in their first folder alone."""
    if old == new:
        return ("", "")
    head_old, sep_old, rest_old = old.partition("/")
    head_new, sep_new, rest_new = new.partition("/")
    if sep_old and sep_new and rest_old and rest_old == rest_new and head_old and head_new:
        return head_old + "/", head_new + "/"
    return None


def _header_pair(rest: str) -> Prefixes | None:
    """:func:`_pair` of a ``diff --git`` line's two paths (a rename shows nothing)."""
    return next((found for left, right in _splits(rest)
                 if (found := _pair(left, right)) is not None), None)


def _splits(rest: str) -> Iterator[tuple[str, str]]:
    """The ways a ``diff --git`` line's ``rest`` may hold its two paths: the two quoted
    tokens, or (unquoted, a path may hold spaces) each split at a space, leftmost first."""
    if rest.startswith('"'):
        first, _, tail = _split_quoted(rest)
        yield first, unquote(tail.strip())
        return
    at = rest.find(" ")
    while at > 0:
        yield rest[:at], rest[at + 1:]
        at = rest.find(" ", at + 1)


def git_header_paths(rest: str, prefixes: Prefixes | None = None
                     ) -> tuple[str | None, str | None]:
    """The two paths of ``diff --git a/x b/x`` (quoted, or split where both halves agree),
    without ``prefixes`` (see :func:`prefix_pair`; None: a git ``a/``/``b/`` dropped)."""
    if prefixes is not None:
        return _header_paths(rest, prefixes)
    if rest.startswith('"'):
        first, _, tail = _split_quoted(rest)
        second = unquote(tail.strip())
        return _strip_prefix(first), _strip_prefix(second)
    if rest.startswith("a/") and (len(rest) - 1) % 2 == 0:
        half = (len(rest) - 1) // 2
        left, right = rest[:half], rest[half + 1:]
        if right.startswith("b/") and left[2:] == right[2:]:
            return left[2:], right[2:]
    at = rest.rfind(" b/")
    if at > 0:
        return _strip_prefix(rest[:at]), _strip_prefix(rest[at + 1:])
    parts = rest.split(" ", 1)
    return parts[0], parts[-1]


def _strip_prefix(path: str) -> str:
    return path[2:] if path.startswith(("a/", "b/")) else path


def _header_paths(rest: str, prefixes: Prefixes) -> tuple[str, str]:
    """:func:`git_header_paths` with known prefixes: split where both sides, without
    them, name the same file; else (a rename) before the new side's prefix."""
    old_prefix, new_prefix = prefixes

    def strip(path: str, prefix: str) -> str:
        return path[len(prefix):] if prefix and path.startswith(prefix) else path

    splits = list(_splits(rest))
    if rest.startswith('"'):
        first, second = splits[0]
        return strip(first, old_prefix), strip(second, new_prefix)
    for left, right in splits:  # where both sides name one file under these prefixes
        if _pair(left, right) == prefixes:
            return strip(left, old_prefix), strip(right, new_prefix)
    at = rest.rfind(" " + new_prefix) if new_prefix else rest.find(" ")
    if at > 0:
        return strip(rest[:at], old_prefix), strip(rest[at + 1:], new_prefix)
    parts = rest.split(" ", 1)
    return parts[0], parts[-1]


def _split_quoted(text: str) -> tuple[str, int, str]:
    """The first C-quoted token of ``text`` (unquoted), its end, and the rest."""
    i = 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return unquote(text[: i + 1]), i + 1, text[i + 1:]
        i += 1
    return unquote(text), len(text), ""


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def unquote(path: str) -> str:
    """Git's C-style quoting (``"caf\\303\\251.txt"``) undone; other paths as they are.

    The name is the bytes the escapes spell: those that are not UTF-8 are kept as they are
    (``surrogateescape``, as a name read from the disk), never replaced. A replacement
    character made two names one: a diff deleting ``x\\377.txt`` deleted ``x<U+FFFD>.txt``,
    another file (QA pass s31, from a real commit of sharkdp/bat). An escape git does not write
    stays as written, backslash and all, for the same reason."""
    if len(path) < 2 or not (path.startswith('"') and path.endswith('"')):
        return path
    body = path[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if re.fullmatch(r"[0-7]{3}", body[i + 1 : i + 4]):
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
            else:
                out.extend(f"\\{nxt}".encode("utf-8", "surrogateescape"))
            i += 2
            continue
        out.extend(char.encode("utf-8", "surrogateescape"))
        i += 1
    return out.decode("utf-8", errors="surrogateescape")


def compared_folders_dropped(sections: Sequence[_Section],
                             exists: Callable[[str], bool]) -> None:
    """Paths under one or more folders more than the headers show, read against the project.

    ``diff -ruN old/proj new/proj`` names ``old/proj/x`` and ``new/proj/x``: the pair
    read from the headers is ``old/``, ``new/``, and ``proj/x`` is not in the project
    (``proj`` is the project); the modifications are then refused, and a new file would
    be written as ``proj/new.c``, a folder too deep. When no file the diff modifies or
    deletes is in the project, every path of the diff lies under the same folders, and
    without them every such file is, those folders are dropped too. (A diff of new files
    alone shows nothing either way: read as the headers say, as ``git apply`` does.)"""
    olds = [s.old for s in sections if s.old is not None and not s.new_file
            and any(hunk.old_count for hunk in s.hunks)]  # (diff -N: "-0,0" makes one)
    if not olds or any(exists(path) for path in olds):
        return
    paths = [path for s in sections for path in (s.old, s.new) if path is not None]
    for depth in (1, 2, 3):
        heads = {tuple(path.split("/", depth)[:depth]) for path in paths}
        if len(heads) != 1 or any(path.count("/") < depth for path in paths):
            return
        cut = len("/".join(next(iter(heads)))) + 1
        if all(exists(path[cut:]) for path in olds):
            for s in sections:
                s.old = s.old[cut:] if s.old is not None else None
                s.new = s.new[cut:] if s.new is not None else None
            return
