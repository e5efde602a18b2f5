"""Hash-addressed lines: ``12:a3`` is line 12, whose content hashes to ``a3``.

A model copies an id instead of counting lines, and the engine checks it: when line 12
no longer hashes to ``a3`` the id is stale and the edit is refused naming that line and
its current id. Nothing is resolved to a neighbour by guesswork.

The tag is the low byte of CRC-32 (``zlib.crc32``) of the line's UTF-8 text with trailing
whitespace stripped, as two lowercase hex digits. Why this shape:

* the number carries the position, so the tag only has to notice a changed line; two
  hex digits miss a change with odds 1 in 256 per line referenced (a range checks both
  ends, 1 in 65,536), and they cost one token where four cost two, on every viewed line;
* trailing whitespace is stripped because editors and formatters drop it silently and
  it never changes what a line means;
* octofs (seed 003) tags each line with 4 hex digits of FNV-1a over ``position:content``
  and no number: the tag alone must be unique, so position has to be hashed in and 16
  bits are needed to keep collisions rare across a long file. Carrying the number
  explicitly lets the tag be smaller and makes a moved line's id say *where* it was.

Pure: standard library only.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from reviewtui.core.errors import StaleRef
from reviewtui.core.record import record
from reviewtui.core.text.limits import parse_int
from reviewtui.core.text.plural import plural

TAG_WIDTH = 2
# Possessive runs: plain ones next to each other backtracked quadratically ("1", 8,000
# spaces and "x": 0.43 s); each was maximal in every match, so the readings are the same
# (tests/core/test_regex_linear.py).
_REF_RE = re.compile(r"^\s*+(?P<n>[0-9]++)\s*+(?::\s*+(?P<tag>[0-9A-Fa-f]++))?\s*+$")


def line_tag(line: str) -> str:
    """The two-hex-digit content tag of one line (trailing whitespace ignored)."""
    return f"{zlib.crc32(line.rstrip().encode('utf-8')) & 0xFF:02x}"


def line_id(number: int, line: str) -> str:
    """``number:tag`` for a 1-based line number."""
    return f"{number}:{line_tag(line)}"


def line_ids(lines: Sequence[str], start: int = 1) -> list[str]:
    """The ids of ``lines``, numbered from ``start``."""
    return [line_id(start + k, line) for k, line in enumerate(lines)]


@record(frozen=True, slots=True)
class LineRef:
    """A line as a model addressed it: a 1-based number, optionally with a content tag."""

    number: int
    tag: str | None = None

    def __str__(self) -> str:
        return str(self.number) if self.tag is None else f"{self.number}:{self.tag}"


def parse_ref(text: str | int) -> LineRef | None:
    """``"12"``, ``12`` or ``"12:a3"`` as a :class:`LineRef`; None if it is neither."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return LineRef(text) if text >= 0 else None
    m = _REF_RE.match(text)
    if m is None:
        return None
    tag = m.group("tag")
    return LineRef(parse_int(m.group("n"), what="line number"), tag.lower() if tag else None)


def parse_range(text: str) -> tuple[LineRef, LineRef] | None:
    """``"140-148"``, ``"12:a3-15:f0"`` or a single ``"7"`` as (first, last)."""
    parts = text.split("-")
    if len(parts) == 1:
        ref = parse_ref(parts[0])
        return (ref, ref) if ref is not None else None
    if len(parts) != 2:
        return None
    first, last = parse_ref(parts[0]), parse_ref(parts[1])
    if first is None or last is None:
        return None
    return first, last


def resolve(lines: Sequence[str], ref: LineRef) -> int:
    """The 0-based index ``ref`` names, or :class:`StaleRef` saying why not."""
    if not 1 <= ref.number <= len(lines):
        raise StaleRef("line-out-of-range", f"line {ref} is outside the file, which has "
                       f"{plural(len(lines), 'line')}", ref)
    at = ref.number - 1
    if ref.tag is not None and line_tag(lines[at]) != ref.tag:
        raise StaleRef("stale-line-id", f"line id {ref} is stale: line {ref.number} is now "
                       f"{line_id(ref.number, lines[at])} ({lines[at].strip()!r}); view the "
                       f"region again and use its current ids{_elsewhere(lines, ref)}", ref)
    return at


def _elsewhere(lines: Sequence[str], ref: LineRef, shown: int = 3) -> str:
    """Where lines with the stale tag are now, nearest first: a hint, never a guess.

    The edit is still refused; the reviewer (or the model's next turn) decides whether
    the content moved there or the tag merely collides (1 in 256).
    """
    near = sorted((n for n, line in enumerate(lines, start=1) if line_tag(line) == ref.tag),
                  key=lambda n: abs(n - ref.number))[:shown]
    if not near:
        return ""
    ids = ", ".join(line_id(n, lines[n - 1]) for n in near)
    return f" (tag {ref.tag} is now on {ids})"
