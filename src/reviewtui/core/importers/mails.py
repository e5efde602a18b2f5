"""The mails of a ``git format-patch`` series (or ``git log -p``) in a unified diff: where
each commit starts, where its patch starts after its message, and its subject. Used by
:mod:`reviewtui.core.importers.unified`."""

from __future__ import annotations

import re
from collections.abc import Sequence

# git's mbox line: a whole commit id, or a short one with git's fixed date. A message
# line such as "From 20240101 onwards" starts no mail (QA s46 helper-143 F3b: the mail
# was cut there and its quoted diff read whole).
COMMIT = re.compile(r"^From (?:[0-9a-f]{40} |[0-9a-f]{7,39} Mon Sep 17 00:00:00 2001)")
_COMMIT_AT = re.compile(COMMIT.pattern.removeprefix("^"))  # matched at a line's start
_STAT_LINE = re.compile(r" .* \| +(\d+( [+-]*)?|Bin( .*)?)")  # " f | 2 +-", " g | Bin ..."
_STAT_SUMMARY = re.compile(r" \d+ files? changed\b")


def mail_parts(text: str, lines: Sequence[str]) -> list[tuple[int, int, int]]:
    """Each mail of the series (or the whole text when it holds none, or what comes before
    the first) as (its first line, where its patch starts, the line after it). A text of
    one mail without git's ``From <sha>`` line (a saved ``.eml``, headers first) is one
    mail too."""
    commits = commit_lines(text)
    if not commits:
        whole = len(lines)
        return [(0, patch_start(lines, 0, whole) if is_mail(text) else 0, whole)]
    ends = [*commits[1:], len(lines)]
    parts = [(start, patch_start(lines, start, stop), stop)
             for start, stop in zip(commits, ends, strict=True)]
    return [(0, 0, commits[0]), *parts] if commits[0] > 0 else parts


_HEADER = re.compile(r"[A-Za-z][A-Za-z0-9-]*: ")


def is_mail(text: str) -> bool:
    """Whether ``text`` starts as a mail does (past blank lines): git's ``From <sha>``
    line, or a block of header lines holding a Subject."""
    head = text.lstrip("\ufeff\r\n")[:20_000].split("\n", 60)
    if head and COMMIT.match(head[0]):
        return True
    fields: set[str] = set()
    for line in head[:60]:
        line = line.rstrip("\r")
        if not line:
            break
        if _HEADER.match(line):
            fields.add(line.split(":", 1)[0].lower())
        elif not line.startswith((" ", "\t")):
            return False
    # A mail's own two (QA s46 helper-144 F1: a File Ops session's front matter with a
    # Subject read as a mail, and a diff it writes into a file applied to the project).
    return {"from", "subject"} <= fields


def patch_start(lines: Sequence[str], start: int, stop: int) -> int:
    """Where the patch of the format-patch mail in ``lines[start:stop]`` starts: past the
    ``---`` line that ends its message, the diffstat under it and the blank line before
    the first diff header (the last such run: one quoted in the message comes before it).
    A diff quoted in the message above is message, as it reads (QA s46 helper-142 H3: a
    hunk quoted there rewrote a file the commit never touched, exit 0). The blank line
    keeps a diff's own lines from reading as one (a removed ``--`` line, context lines
    that look like a stat: helper-143 F1). A mail without that stat (``git format-patch
    --no-stat``, a hand-made one) is read whole, as ``git am`` reads it."""
    found = start
    for i in range(start, stop):
        if lines[i] != "---":
            continue
        k = i + 1
        while k < stop and _STAT_LINE.fullmatch(lines[k]):
            k += 1
        if k == i + 1 or k >= stop or not _STAT_SUMMARY.match(lines[k]):
            continue
        stat = lines[i + 1 : k]
        k += 1
        while k < stop and lines[k].startswith(_SUMMARY_MORE):
            k += 1
        if (k + 1 < stop and not lines[k] and lines[k + 1].startswith(_DIFF_HEADS)
                and _stat_fits(stat, lines, k + 1, stop)):
            found = k + 1
    return found


def _stat_fits(stat: Sequence[str], lines: Sequence[str], start: int, stop: int) -> bool:
    """Whether the diffstat ``stat`` is the one of the diff in ``lines[start:stop]``: one
    ``diff --git`` section for each of its lines, each path it names among them (a path
    cut to ``.../tail`` by its end, a rename taken as it comes). A run that only looks
    like a stat (a diff's own lines whose blank context line lost its space: QA s46
    helper-144 F2; one made up in a message: helper-143 F3) names other files, or more."""
    named = [lines[n][len("diff --git "):] for n in range(start, stop)
             if lines[n].startswith("diff --git ")]
    if len(named) != len(stat):
        return not named and len(stat) == 1  # (a diff without git's headers: its one file)
    for line in stat:
        path = line.split(" | ", 1)[0].strip()
        if "=>" in path or "{" in path or "}" in path:
            continue  # (a rename, whole or cut: "{a => b}/c", ".../b}/c")
        tail = path[3:] if path.startswith("...") else None
        if not any(path in header if tail is None else tail in header for header in named):
            return False
    return True


_SUMMARY_MORE = (" create mode ", " delete mode ", " mode change ", " rename ", " copy ",
                 " rewrite ")
_DIFF_HEADS = ("diff --git ", "diff -", "Index: ", "--- ")


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
