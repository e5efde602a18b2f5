"""A text's lines as every reader of sessions and files counts them: split at ``\\n`` alone.

``str.splitlines`` also splits at a lone ``\\r``, form feed, vertical tab, U+001C-U+001E,
U+0085, U+2028 and U+2029. JSON leaves the last three raw inside a string, and source
files hold form feeds; a line count that splits there disagrees with every span.
"""

from __future__ import annotations

from collections.abc import Iterator


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` and drop one trailing ``\\r`` per line (CRLF sessions)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return lines


def iter_lines(text: str) -> Iterator[str]:
    """The lines of :func:`split_lines`, one at a time (a format detector reads a few of a
    long text)."""
    at, size = 0, len(text)
    while at < size:
        end = text.find("\n", at)
        if end < 0:
            end = size
        line = text[at:end]
        yield line[:-1] if line.endswith("\r") else line
        at = end + 1


def encodes_utf8(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8: no surrogate (a name git read with surrogate
    escapes for bytes that are not UTF-8, a lone one from JSON)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
