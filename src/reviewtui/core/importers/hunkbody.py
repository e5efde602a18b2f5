"""A unified diff's hunk body, read by its header's line counts (see ``unified``).

A hunk is read by its counts, as ``git apply`` reads it. What lies right after the counted
end is looked at too (:func:`overrun`): a header that counts too few lines (``@@ -1,3 +1,3
@@`` over four old lines, a common model slip) leaves the rest of the hunk after it, where
``git apply`` and GNU ``patch`` drop it as trailing garbage and write a file without the
change those lines carry, exit 0. Here ``-``/``+`` lines there are a problem
(``diff-hunk-overrun``): the hunk is not read and its file's patch is not whole, so nothing
of that file is written (never a file with half the change). Context lines alone there
change nothing and are a warning. The counts are not recomputed from the body: a ``--- a/x``
line (the next file's header, or a removed ``-- a/x``), a ``-- `` mail signature and prose
after a diff make where an uncounted hunk ends a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reviewtui.core.importers.common import problem
from reviewtui.core.model.records import ParseProblem
from reviewtui.core.record import field, record

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
HUNK_COUNT = "diff-hunk-count"
HUNK_OVERRUN = "diff-hunk-overrun"
# (prose after a diff, past a blank line: a rule, "---"; a list item, "- item", "+ item")
# (a word after one space: a code line removed or added after an empty context line keeps
# its own marks, "- * doc", "-    return", and stays an overrun: QA s53 helper-226)
_PROSE = re.compile(r"---\s*$|[-+] [^\W\d_]")
_SIGNATURE = ("-- ", "--")  # git format-patch's "-- " before its version line (or a name)


@record(slots=True)
class Hunk:
    header: int  # 0-based line of "@@"
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    search: list[str] = field(default_factory=list)
    replace: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # "+" lines only, for new files
    search_crs: set[int] = field(default_factory=set)  # lines ending in CR (LineBytes)
    replace_crs: set[int] = field(default_factory=set)
    leading: int = 0  # context lines before the first change
    trailing: int = 0  # context lines after the last change
    old_no_eol: bool = False
    new_no_eol: bool = False
    lone_cr: bool = False  # a side's last line ends in a CR with no newline after it
    end: int = 0  # 0-based line after the hunk



def hunk_lines(lines: Sequence[str], raw: Sequence[str], i: int, stop: int, hunk: Hunk,
                notes: list[ParseProblem]) -> int:
    old_left, new_left = hunk.old_count, hunk.new_count
    search, replace, added = hunk.search, hunk.replace, hunk.added
    leading, trailing = hunk.leading, hunk.trailing
    changed = bool(search or replace)  # a "-" or "+" line seen: no more leading context
    side = ""
    while i < stop:
        line = lines[i]
        mark = line[:1]
        if mark == "\\":  # "\ No newline at end of file" for the line just above
            hunk.old_no_eol |= side in (" ", "-")
            hunk.new_no_eol |= side in (" ", "+")
            if side and i > 0 and raw[i - 1].endswith("\r"):
                _content_cr(hunk, side)
                hunk.lone_cr = True
        elif old_left <= 0 and new_left <= 0:
            break
        elif (mark == " " or not line) and old_left > 0 and new_left > 0:
            text = line[1:]
            if raw[i].endswith("\r"):
                hunk.search_crs.add(len(search))
                hunk.replace_crs.add(len(replace))
            search.append(text)
            replace.append(text)
            old_left -= 1
            new_left -= 1
            if not changed:
                leading += 1
            trailing += 1
        elif mark == "-" and old_left > 0:
            if raw[i].endswith("\r"):
                hunk.search_crs.add(len(search))
            search.append(line[1:])
            old_left -= 1
            trailing = 0
            changed = True
        elif mark == "+" and new_left > 0:
            if raw[i].endswith("\r"):
                hunk.replace_crs.add(len(replace))
            replace.append(line[1:])
            added.append(raw[i][1:])
            new_left -= 1
            trailing = 0
            changed = True
        else:
            break
        side = mark or " "
        i += 1
    if old_left > 0 or new_left > 0:  # (at the diff's end too: it was said for none)
        notes.append(problem(HUNK_COUNT, f"the hunk at line {hunk.header + 1} says it has "
                             f"{hunk.old_count} old and {hunk.new_count} new lines, but it "
                             "ends earlier: it is read as written", hunk.header + 1, i,
                             severity="warning"))
    hunk.leading, hunk.trailing = leading, trailing
    hunk.end = i
    return i



def _content_cr(hunk: Hunk, side: str) -> None:
    """The line above a "No newline" mark ended in CR: the file's content, not CRLF."""
    for lines, crs, marks in ((hunk.search, hunk.search_crs, " -"),
                              (hunk.replace, hunk.replace_crs, " +")):
        if side in marks:
            lines[-1] += "\r"
            crs.discard(len(lines) - 1)


def overrun(lines: Sequence[str], hunk: Hunk, path: str | None, stop: int,
            starts_section: Callable[[Sequence[str], int, int], bool]) -> ParseProblem | None:
    """What follows a hunk read to its counts and looks like more of it: an error when a
    ``-``/``+`` line follows (before another ``@@`` line or file header, past blank lines,
    which a hunk may hold as empty context lines), a warning for context lines alone right
    after it; None when nothing like a hunk line follows."""
    i, context, contiguous = hunk.end, 0, True
    while i < stop:
        line = lines[i]
        if not line:
            contiguous = False
            i += 1
            continue
        if line.startswith("@@") or _signature(lines, i, stop) or starts_section(lines, i,
                                                                                  stop):
            break
        if not contiguous and _PROSE.match(line):
            break  # (after a blank line, a Markdown rule or list item: QA s53 helper-225)
        if line[0] in "-+":
            return problem(HUNK_OVERRUN, f"the hunk at line {hunk.header + 1} says it has "
                           f"{hunk.old_count} old and {hunk.new_count} new lines, but more "
                           f"'{line[0]}' lines follow them: its header counts too few lines, "
                           f"so the diff of {path!r} is not read from that hunk on (git apply "
                           "drops such lines and writes the file without them); fix the "
                           "counts", i + 1)
        if line[0] != " ":
            break  # (prose)
        context += contiguous
        i += 1
    if not context:
        return None
    return problem(HUNK_OVERRUN, f"the hunk at line {hunk.header + 1} says it has "
                   f"{hunk.old_count} old and {hunk.new_count} new lines, and {context} more "
                   f"context line{'s' if context > 1 else ''} follow{'' if context > 1 else 's'}"
                   " them: not read (they change nothing)", hunk.end + 1, hunk.end + context,
                   severity="warning")


def _signature(lines: Sequence[str], i: int, stop: int) -> bool:
    """A mail's ``-- `` signature line: followed by text no hunk holds (git's version, a
    name). Followed by a hunk line, an ``@@`` line or nothing, it is a removed ``- ``."""
    if lines[i] not in _SIGNATURE or i + 1 >= stop:
        return False
    after = lines[i + 1]
    return bool(after) and after[0] not in " -+\\@" and not after.startswith("diff --git ")
