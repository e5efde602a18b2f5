"""How a unified diff names its files: ``---``/``+++`` paths and the two paths of a
``diff --git`` line, git's ``a/``/``b/`` prefixes dropped and its C-style quoting
(``"caf\\303\\251.txt"``) undone. Used by :mod:`reviewtui.core.importers.unified`."""

from __future__ import annotations

import re

DEV_NULL = "/dev/null"


def diff_path(raw: str) -> str | None:
    """A ``---``/``+++`` path: None for /dev/null; the git ``a/``/``b/`` prefix dropped."""
    raw = raw.split("\t", 1)[0].rstrip()
    path = unquote(raw)
    if path == DEV_NULL:
        return None
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def git_header_paths(rest: str) -> tuple[str | None, str | None]:
    """The two paths of ``diff --git a/x b/x`` (quoted, or split where both halves agree)."""
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
    """Git's C-style quoting (``"caf\\303\\251.txt"``) undone; other paths as they are."""
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
            out.append(_ESCAPES.get(nxt, ord(nxt) if ord(nxt) < 128 else 63))
            i += 2
            continue
        out.extend(char.encode("utf-8"))
        i += 1
    return out.decode("utf-8", errors="replace")
