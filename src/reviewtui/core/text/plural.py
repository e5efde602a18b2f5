"""Counted nouns for messages: "1 line", "2 lines", never "1 lines" or "file(s)"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``many`` or noun + "s") unless 1."""
    word = noun if count == 1 else (many if many is not None else noun + "s")
    return f"{count} {word}"
