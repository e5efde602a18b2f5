"""A ``### Changed files:`` footer's list item read as a path and its note."""

from __future__ import annotations

from reviewtui.core.model.records import FooterEntry, Span


def footer_entry(item: str, k: int) -> FooterEntry:
    """The entry of the footer's list item ``item`` on line ``k`` (0-based)."""
    text = item.strip()
    if text.startswith("`"):
        close = text.find("`", 1)
        if close > 0:
            return FooterEntry(text[1:close], _note(text[close + 1 :]), Span(k + 1, k + 1))
    path, _, rest = text.partition(" ")
    path = path.strip("`*")
    if path.endswith(":") and len(path) > 1:  # "- src/a.py: what changed"
        path = path[:-1]
    return FooterEntry(path, _note(rest), Span(k + 1, k + 1))


def _note(rest: str) -> str:
    return rest.strip().lstrip("—–-:").strip()
