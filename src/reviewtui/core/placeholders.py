"""Elision markers and truncation placeholders: the lines a model writes instead of code.

Shared by the matcher (paired elisions), the engine (truncated full files) and lint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# A line that is only an ellipsis, bare or wrapped in a comment of some language:
# "...", "# ...", "// ... existing code ...", "/* ... */", "<!-- ... -->", "-- ...".
_ELISION_RE = re.compile(
    r"^\s*(?:#|//|/\*|<!--|--|;|%)?\s*(?:\.{3,}|…)\s*"
    r"(?:(?:existing|unchanged|remaining|other|rest of(?: the)?|more)\b[\w .,'-]*?)?"
    r"\s*(?:\.{3,}|…)?\s*(?:\*/|-->)?\s*$",
    re.IGNORECASE,
)
# Prose that stands for code the model left out.
_PLACEHOLDER_RE = re.compile(
    r"(?:rest of (?:the )?(?:file|code|function|class|module|implementation)"
    r"(?: \w+)*? (?:unchanged|remains?|stays?|as before|omitted|here)"
    r"|(?:existing|unchanged|remaining|previous) (?:code|content|implementation|lines)"
    r"(?: \w+)*? (?:here|unchanged|omitted|remains?|as before|goes here)"
    r"|\.\.\. ?(?:existing|unchanged|rest|remaining)\b"
    r"|same as before)",
    re.IGNORECASE,
)


def is_elision(line: str) -> bool:
    """A line that is only an elision marker (``...``, ``// ... existing code ...``)."""
    stripped = line.strip()
    return bool(stripped) and ("..." in stripped or "…" in stripped) and bool(
        _ELISION_RE.match(stripped)
    )


def is_placeholder(line: str) -> bool:
    """An elision marker, or a comment/prose line saying code was left out."""
    return is_elision(line) or bool(_PLACEHOLDER_RE.search(line))


def find_placeholder(
    lines: Sequence[str], existing: Iterable[str] = ()
) -> tuple[int, str] | None:
    """The first placeholder line that the existing file does not itself contain.

    A line such as ``...`` is legitimate code in Python stubs; when the file already
    has that exact line, seeing it again in new content is no sign of truncation.
    """
    known = {line.strip() for line in existing}
    for index, line in enumerate(lines):
        if is_placeholder(line) and line.strip() not in known:
            return index, line
    return None
