"""The mails of a ``git format-patch`` series (or ``git log -p``) in a unified diff: where
each commit starts, where its patch starts after its message, and its subject. Used by
:mod:`reviewtui.core.importers.unified`."""

from __future__ import annotations

import re
from collections.abc import Sequence

# git's mbox line: a whole commit id, or a short one with git's fixed date. A message
# line such as "From 20240101 onwards" starts no mail (QA s46 helper-143 F3b: the mail
# was cut there and its quoted diff read whole).
# An mbox a mail client saved starts each mail with its postmark, the sender and an
# asctime date: "From alice@example.com Sat Jan  1 00:00:00 2022" (QA s46 helper-145:
# such a mail was read whole, its message's quoted diff applied).
COMMIT = re.compile(r"^From (?:[0-9a-f]{40} |[0-9a-f]{7,39} Mon Sep 17 00:00:00 2001|\S+ +"
                    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep"
                    r"|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \d{4}[ \t\r]*$)", re.MULTILINE)
# (matched at a line's start)
_COMMIT_AT = re.compile(COMMIT.pattern.removeprefix("^"), re.MULTILINE)
_STAT_LINE = re.compile(r" .* \| +(\d+( [+-]*)?|Bin( .*)?)")  # " f | 2 +-", " g | Bin ..."
_STAT_SUMMARY = re.compile(r" \d+ files? changed\b")
# The other lines git can write between the ``---`` and the stat's summary: ``--raw``
# (``:100644 100644 587be6b bdc955b M<tab>f.txt``), ``--numstat`` (``1<tab>1<tab>f.txt``,
# ``-<tab>-<tab>bin.dat``), and ``--stat-count``'s `` ...``; after it, ``--dirstat``'s
# `` 100.0% d/e/`` (QA s46 helper-146 F4: such a mail was read whole, its quoted diff
# applied).
_STAT_MORE = re.compile(r":[0-7]{6} [0-7]{6} [0-9a-f]{4,64}(?:\.\.\.)? [0-9a-f]{4,64}"
                        r"(?:\.\.\.)? [ACDMRTUX][0-9]{0,3}\t.+|(?:\d+|-)\t(?:\d+|-)\t.+| \.\.\.")
_DIRSTAT = re.compile(r" +\d{1,3}\.\d% .+/")


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
    hunk quoted there rewrote a file the commit never touched, exit 0). A run inside a
    hunk's body, as its counts say, is the diff's own lines (a removed ``--`` line and
    context lines like a stat, its blank context line stripped of its space by a mailer:
    helper-143 F1, helper-144 F2; a check of the stat's names against the diff read real
    mails whole: quoted names, ``--compact-summary``, a file made a link, helper-145 F1).
    The stat may come with git's ``--raw``, ``--numstat``, ``--stat-count``, ``--dirstat``
    and ``--summary`` lines. A mail without a stat (``git format-patch --no-stat``,
    ``--numstat`` or ``--shortstat`` alone, which write no ``---`` line; a hand-made one)
    is read whole, as ``git am`` reads it."""
    short: set[int] = set()  # hunk headers whose body ran short: no hunks (see below)
    for _ in range(64):
        found, ran_short = _separator(lines, start, stop, short)
        if ran_short is None:
            return found
        short.add(ran_short)
    return found


def _separator(lines: Sequence[str], start: int, stop: int,
               short: set[int]) -> tuple[int, int | None]:
    """:func:`patch_start`'s scan, hunk headers in ``short`` read as no hunks; and the
    first hunk header whose body ran short of its counts (a diff excerpt quoted in a
    message with lines left out: read as a hunk, it swallowed the separator and the mail
    was read whole, its quoted diff applied: QA s46 helper-146 F1), None when none did."""
    found = start
    hunk = [0, 0]  # the old and new lines still to come in the hunk being read
    head_at = -1
    for i in range(start, stop):
        line = lines[i]
        if hunk[0] > 0 or hunk[1] > 0:
            if not _count(line, hunk):
                return found, head_at
            continue
        if i not in short and (head := _HUNK_HEAD.match(line)) is not None:
            hunk[:] = [int(head.group(1) or 1), int(head.group(2) or 1)]
            head_at = i
            continue
        if line == "-- " and found > start:
            break  # (git's signature after the patch: what follows is no part of it, H7)
        if line != "---":
            continue
        k = i + 1
        while k < stop and (_STAT_LINE.fullmatch(lines[k]) or _STAT_MORE.fullmatch(lines[k])):
            k += 1
        if k >= stop or not _STAT_SUMMARY.match(lines[k]):
            continue
        k += 1
        while k < stop and (lines[k].startswith(_SUMMARY_MORE) or _DIRSTAT.fullmatch(lines[k])):
            k += 1
        if k + 1 < stop and not lines[k] and lines[k + 1].startswith(_DIFF_HEADS):
            found = k + 1
    return found, (head_at if hunk[0] > 0 or hunk[1] > 0 else None)


_HUNK_HEAD = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def _count(line: str, hunk: list[int]) -> bool:
    """One body line of a hunk, counted off what is still to come (``hunk``); False when
    it is no hunk line, or more than the counts allow: the hunk ran short."""
    sign = line[:1]
    if sign == "-" and hunk[0] > 0:
        hunk[0] -= 1
    elif sign == "+" and hunk[1] > 0:
        hunk[1] -= 1
    elif sign in (" ", "") and hunk[0] > 0 and hunk[1] > 0:  # ("": its space stripped)
        hunk[0] -= 1
        hunk[1] -= 1
    elif sign != "\\":
        hunk[:] = [0, 0]
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


_COVER = re.compile(r"Subject: \[[^\]]*?\b0+/[0-9]+\]")


def is_cover_letter(lines: Sequence[str], start: int, stop: int) -> bool:
    """Whether the mail in ``lines[start:stop]`` is a series' cover letter (``[PATCH
    0/2]``): what it holds is no change of its own (QA s46 helper-145 F10: the interdiff
    of ``--cover-letter --interdiff=v1`` was replayed as a patch over the series)."""
    for i in range(start, min(stop, start + 40)):
        if _COVER.match(lines[i]):
            return True
        if not lines[i].strip():
            return False
    return False


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
