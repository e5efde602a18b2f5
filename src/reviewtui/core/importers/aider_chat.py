"""The files in Aider's chat at each line of its history, and the file a block name means.

Aider reads the name above a SEARCH/REPLACE block against the files in the chat (its
``find_filename``): the name itself when the chat holds it, else the chat's one file of
that base name, else the chat's closest spelling (difflib, ratio 0.8 or more), else the
name as written. Its ``Applied edit to`` lines usually say where a block went, but a
reply whose blocks did not all match logs none for the blocks that did (QA s46
helper-146 F3: such a block of ``app.py`` was replayed on the root ``app.py``; Aider had
written the chat's ``src/app.py``).

The chat is read from what Aider logs about it:

* ``# aider chat started at``: a new chat, empty;
* ``> Added src/app.py to the chat.``: the file joins (the command line's files are
  announced this way too);
* ``> Removed src/app.py from the chat``: it leaves; ``> Dropping all files from the
  chat session.`` and a ``/reset`` request empty it;
* a confirmation answered yes (``> Add these files to the chat? y``, ``> Allow edits to
  file that has not been added to the chat? y``, ``> Create new file? y``): the file
  names Aider listed above it (``> src/app.py``) join; ``> Allow edits to X which was not
  previously added to chat? y`` and ``> Allow creation of new file X? y`` name theirs.

A history that does not say (a file added in a way not logged, or another Aider
process writing to the same history: its ``chat started`` line empties the chat read
here) leaves the chat short; a name is then taken as written, as before this was read.
Only blocks no ``Applied edit to`` line speaks for are resolved this way.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Sequence

STARTED = "# aider chat started at"
# (Aider's own lines end in the two blanks of a markdown line break: a line the model
# types in its reply, without them, changes no chat: QA s47 helper-149 H1)
ADDED = re.compile(r"^> (?:Added (.+?) to the chat|Moved (.+?) from read-only to editable "
                   r"files in the chat)\.?  $")
REMOVED = re.compile(r"^> (?:Removed (.+?) from the chat|Dropping (.+?) from the chat|Moved "
                     r"(.+?) from editable to read-only files in the chat|Converted (.+?) "
                     r"to read-only)\.?  $")
DROPPED = re.compile(r"^> (?:Dropping all files from the chat session|All files dropped)")
RESET = re.compile(r"^#### /(?:reset|drop)\s*$")
# (a confirmation whose subject names are the ``> name`` lines right above it)
LISTED = re.compile(r"^> (?:Add these files to the chat|Add file to the chat|Allow edits to "
                    r"file that has not been added to the chat|Create new file)\?(.*)$")
NAMED = re.compile(r"^> (?:Allow edits to (.+?) which was not previously added to chat|"
                   r"Allow creation of new file (.+?))\?(.*)$")
YES = re.compile(r"(?:^|[\s:\]])(?:y|yes|a|all)\s*$", re.IGNORECASE)
NAME_LINE = re.compile(r"^> (\S+)\s*$")


class Chat:
    """The chat's files line by line: :meth:`at` answers for any line of the history."""

    __slots__ = ("_lines", "_sets")

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines: list[int] = [-1]
        self._sets: list[frozenset[str]] = [frozenset()]
        files: set[str] = set()
        for k, line in enumerate(lines):
            changed = _change(lines, k, line, files)
            if changed:
                self._lines.append(k)
                self._sets.append(frozenset(files))

    def at(self, k: int) -> frozenset[str]:
        """The chat's files as they were at line index ``k`` (changes on ``k`` included)."""
        return self._sets[bisect.bisect_right(self._lines, k) - 1]


def _change(lines: Sequence[str], k: int, line: str, files: set[str]) -> bool:
    if line.startswith(STARTED) or DROPPED.match(line) or RESET.match(line):
        files.clear()
        return True
    if not line.startswith(">"):
        return False
    if (match := ADDED.match(line)) is not None:
        files.add(next(name for name in match.groups() if name).strip())
        return True
    if (match := REMOVED.match(line)) is not None:
        files.discard(next(name for name in match.groups() if name).strip())
        return True
    if not line.endswith("  "):
        return False
    if (match := NAMED.match(line)) is not None and YES.search(match.group(3)):
        files.add((match.group(1) or match.group(2)).strip())
        return True
    if (match := LISTED.match(line)) is not None and YES.search(match.group(1)):
        j = k - 1
        while j >= 0 and (name := NAME_LINE.match(lines[j])) is not None:
            files.add(name.group(1))
            j -= 1
        return True
    return False


def chat_file(name: str, chat: frozenset[str]) -> str | None:
    """The chat file Aider's ``find_filename`` takes the block name ``name`` for, when it
    is another file than ``name``: the first (in sorted order, as Aider lists them) whose
    base name is ``name``, else the closest spelling (``difflib.get_close_matches``, ratio
    0.8 or more); None when ``name`` is in the chat or when none is."""
    if not name or name in chat:
        return None
    files = sorted(chat)
    found = next((path for path in files if path.rsplit("/", 1)[-1] == name), None)
    if found is None:
        close = difflib.get_close_matches(name, files, n=1, cutoff=0.8)
        found = close[0] if close else None
    return found
