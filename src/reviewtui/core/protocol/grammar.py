"""Line classifiers for the File Ops reply grammar.

Each recogniser looks at one line. They are written so that the common case, a
line of code inside an edit, is rejected by a first-character test before any
regular expression runs: parsing stays linear and cheap on multi-megabyte sessions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.record import record
from reviewtui.core.text.lazy_pattern import LazyPattern
from reviewtui.core.text.limits import parse_int

# The header's grammar; header_path reads it without running the pattern (linear time).
HEADER_RE = re.compile(r"^\s*-{3}\s*File:\s*(?P<path>.*?)\s*-{3}\s*$")
SEARCH_RE = re.compile(r"^<{5,9} ?SEARCH\s*$")
DIVIDER_RE = re.compile(r"^={5,9}\s*$")
REPLACE_RE = re.compile(r"^>{5,9} ?REPLACE\s*$")
# The patterns below match only lines a first-character test let through (and most
# sessions have no such line for some of them): compiled on first use (start-up).
#
# Every whitespace run that another run, a lazy group or an optional character could share
# characters with is possessive (``\s*+``): such adjacent runs backtracked polynomially, and a
# label line of "Edit 1 @ 1", 2,000 spaces and "x" took 35 s (importers red-team finding 09).
# A run that is possessive here was maximal in every match of the plain pattern, so each
# pattern matches the same lines with the same groups (tests/core/test_grammar_linear.py).
LABEL_RE = LazyPattern(
    r"^\s*+(?:\*\*)?Edit\s++(?P<n>\d++)"
    # ``Edit 3 @ 140-148`` / ``@ 12:a3-15:f0``, optionally ``rev 3f2a9c1d``: a line range.
    r"(?:\s*+@\s*+(?P<addr>[0-9A-Fa-f:\s-]*?[0-9A-Fa-f])"
    r"(?:\s++rev\s++(?P<rev>[0-9A-Fa-f]++))?)?"
    r"\s*+:?\s*+(?:\*\*)?\s*+$"
)
# The info string is everything after the fence (fence_open splits it): no backtick in it.
FENCE_RE = LazyPattern(r"^(?P<fence>`{3,}+|~{3,}+)(?P<info>[^`]*+)$")
FOOTER_RE = LazyPattern(r"^\s*+#{1,6}+\s*+Changed files\s*+:?\s*+$", re.IGNORECASE)
NEED_RE = LazyPattern(r"^\s*+(?:\*\*)?Need\s*+:(?:\*\*)?\s*+(?P<rest>.*)$")
COMMAND_RE = LazyPattern(r"^\s*:(?P<name>[A-Za-z_][\w-]*)?(?P<rest>.*)$")
TURN_RE = re.compile(r"^##\s+Turn\s+(?P<n>\d+)\b")

CONSOLE_INFOS = frozenset({"", "console", "sh", "shell", "bash", "text"})


@record(frozen=True, slots=True)
class Fence:
    char: str
    length: int
    info: str

    def closes(self, line: str) -> bool:
        """A closing fence: the same character, at least as long, nothing after it, and
        indented by three spaces at most, as CommonMark reads it (a file's own indented
        sample, a docstring's, closed the fence around it: QA s47 helper-147 H3)."""
        if line[:4] == "    " or line[:1] == "\t":
            return False
        stripped = line.strip()
        return (
            len(stripped) >= self.length
            and stripped[0] == self.char
            and stripped == self.char * len(stripped)
        )


def fence_open(line: str) -> Fence | None:
    if not line or line[0] not in "`~":
        return None
    m = FENCE_RE.match(line)
    if m is None:
        return None
    fence = m.group("fence")
    info = m.group("info").split(maxsplit=1)
    return Fence(fence[0], len(fence), info[0].lower() if info else "")


def header_path(line: str) -> str | None:
    if line.startswith("--- File: ") and line.endswith(" ---"):
        # The usual header, without the pattern: its path is what lies between when that
        # neither starts nor ends with whitespace (tests/core/test_grammar_header_path.py).
        path = line[10:-4]
        if path and not path[0].isspace() and not path[-1].isspace() and "\n" not in path:
            return path
    stripped = line.lstrip()
    if not stripped.startswith("---"):
        return None
    # What HEADER_RE reads, in one pass: the pattern's adjacent whitespace runs around a
    # lazy path backtrack cubically ("--- File:" and 5,000 spaces took minutes).
    rest = stripped[3:].lstrip()
    if not rest.startswith("File:"):
        return None
    tail = rest[5:].rstrip()
    if not tail.endswith("---"):
        return None
    path = tail[:-3].strip()
    return None if "\n" in path else path  # (``.`` does not match a newline)


def is_search(line: str) -> bool:
    return line[:1] == "<" and SEARCH_RE.match(line) is not None


def is_divider(line: str) -> bool:
    return line[:1] == "=" and DIVIDER_RE.match(line) is not None


def is_replace(line: str) -> bool:
    return line[:1] == ">" and REPLACE_RE.match(line) is not None


def is_marker(line: str) -> bool:
    return is_search(line) or is_divider(line) or is_replace(line)


def edit_label(line: str) -> int | None:
    stripped = line.lstrip()
    if stripped[:1] not in ("E", "*"):
        return None
    m = LABEL_RE.match(line)
    return parse_int(m.group("n"), what="edit number") if m else None


def edit_address(line: str) -> tuple[str, str | None] | None:
    """The ``@`` address of a label line and its ``rev``, or None for a plain label.

    Whitespace around the hyphen or a colon is dropped (``2 - 3`` is ``2-3``). Two numbers
    separated by whitespace alone (``@ 2 3``) are no range the grammar reads: they are kept
    apart, so that the address is refused as ``bad-address``, not read as line 23 (QA s47
    helper-154 M5)."""
    m = LABEL_RE.match(line)
    if m is None or m.group("addr") is None:
        return None
    parts = m.group("addr").split()
    for before, after in zip(parts, parts[1:], strict=False):
        if before[-1] not in ":-" and after[0] not in ":-":
            return " ".join(parts), m.group("rev")
    return "".join(parts), m.group("rev")


def list_item(line: str) -> str | None:
    """The item of a ``- item`` list line (``*`` and ``+`` bullets too), or None.

    What ``^\\s*[-*+]\\s+(?P<item>.+?)\\s*$`` reads, in one pass: that pattern's lazy item
    before a whitespace run backtracked quadratically on long lines. The item is the text
    between the whitespace after the bullet and the trailing whitespace; on a line of only
    a bullet and two or more whitespace characters it is the last of them (the pattern
    gave its own run one character back).
    """
    stripped = line.lstrip()
    if stripped[:1] not in ("-", "*", "+"):
        return None
    rest = stripped[1:]
    if not rest[:1].isspace():
        return None
    item = rest.strip()
    if item:
        return item
    return rest[-1] if len(rest) >= 2 else None


def is_footer(line: str) -> bool:
    stripped = line.lstrip()
    return stripped[:1] == "#" and FOOTER_RE.match(line) is not None


def is_command(line: str) -> bool:
    return line.lstrip()[:1] == ":" and line.strip() != ":"


def turn_number(line: str) -> int | None:
    if not line.startswith("##"):
        return None
    m = TURN_RE.match(line)
    return parse_int(m.group("n"), what="turn number") if m else None


def is_turn_heading(line: str) -> bool:
    """Whether ``line`` reads as a ``## Turn N`` heading (without converting N)."""
    return line.startswith("##") and TURN_RE.match(line) is not None


def closes_before_block(fence: Fence, lines: Sequence[str], i: int, end: int) -> bool:
    """Whether ``lines[i]``, a closing fence indented past CommonMark's three spaces (to
    the code above it), closes ``fence`` all the same: the next non-blank line is a file
    header, the footer or the reply's end (read as content, it took the next file's
    header and content into the file, exit 0: QA s47 helper-154 H1)."""
    if not fence.closes(lines[i].lstrip()):
        return False
    k = next((k for k in range(i + 1, end) if lines[k].strip()), end)
    return k >= end or header_path(lines[k]) is not None or is_footer(lines[k])


def wrapper_dropped(lines: Sequence[str], first: int, stop: int) -> int:
    """``stop`` moved back over a bare fence line that ends unfenced content whose fence
    lines do not pair up: the fence that wraps the blocks after it, or closes one that
    wrapped this one (QA s47 helper-154 H6: written into both files, exit 0). A file whose
    own code blocks pair up keeps its last fence line."""
    last = lines[stop - 1].strip() if stop > first else ""
    if not last or last[0] not in "`~" or last.strip(last[0]) or fence_open(last) is None:
        return stop
    if sum(1 for line in lines[first:stop] if fence_open(line) is not None) % 2 == 0:
        return stop
    stop -= 1
    while stop > first and not lines[stop - 1].strip():
        stop -= 1
    return stop
