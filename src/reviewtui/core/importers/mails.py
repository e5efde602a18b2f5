"""The mails of a ``git format-patch`` series (or ``git log -p``) in a unified diff: where
each commit starts, and its subject. Used by :mod:`reviewtui.core.importers.unified`."""

from __future__ import annotations

import re
from collections.abc import Sequence

COMMIT = re.compile(r"^From [0-9a-f]{7,40} ")
_COMMIT_AT = re.compile(COMMIT.pattern.removeprefix("^"))  # matched at a line's start


def commit_lines(text: str) -> list[int]:
    """The 0-based numbers of the lines :data:`COMMIT` matches (found with ``str.find``:
    a long diff has few of them)."""
    starts = [0] if text.startswith("From ") else []
    at = text.find("\nFrom ")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\nFrom ", at + 1)
    found: list[int] = []
    line, counted = 0, 0
    for at in starts:
        if _COMMIT_AT.match(text, at):
            line += text.count("\n", counted, at)
            counted = at
            found.append(line)
    return found


def mail_subject(lines: Sequence[str], start: int, stop: int) -> str:
    """A format-patch mail's Subject (continuation lines joined), without ``[PATCH n/m]``."""
    for i in range(start, min(stop, start + 40)):
        if lines[i].startswith("Subject: "):
            subject = lines[i][9:]
            k = i + 1
            while k < stop and lines[k].startswith((" ", "\t")) and lines[k].strip():
                subject += " " + lines[k].strip()
                k += 1
            return re.sub(r"^\[PATCH[^\]]*\]\s*", "", subject).strip()
        if lines[i].startswith(("diff --git ", "--- ")):
            break
    return ""
