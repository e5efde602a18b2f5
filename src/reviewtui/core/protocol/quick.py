"""The common file block read in one pass: the reply parser's shortcut (issue 13).

Nearly every file block of a real session is the same shape: a header, optionally blank
lines and ``Edit N`` labels, then SEARCH / ``=======`` / REPLACE edits separated by blank
lines, up to the next header, the footer or the end of the reply. The general reading
(``_ReplyParser._file_block``) finds where the block ends, then reads its edits, a dozen
method calls and a second look at every comment line per operation; on a
50,000-operation session that was most of the time to open it.

:func:`quick_blocks` reads such blocks, one after another, in one pass over the line
signature, and builds exactly the records the general reading builds. The moment a block
holds anything else -- a fence, a near-miss of a marker, a header or footer inside an edit,
prose, a label with a line range, an edit left open, a problem of any kind -- it gives that
block up untouched and the general reading reads it from its header, so every problem is
worded and placed by the one reading that knows them. tests/core/test_parser_quick.py
compares the two readings on generated replies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.model.records import ConsoleBlock, Edit, FileBlock, Span
from reviewtui.core.protocol import grammar as g

# Searches over a line signature (reply.line_signature): the lines that can be ...
_NONBLANK = re.compile(r"[^ ]")  # ... not blank
_SEARCH_STOP = re.compile(r"[-#<=>`~]")  # ... a divider, or what the shortcut gives up at
# ... a REPLACE marker, or the same, or a second divider (an edit read more than one way:
# edit_signs.other_splits)
_REPLACE_STOP = re.compile(r"[-#<=>`~]")


def quick_blocks(lines: Sequence[str], sig: str, base: int, i: int, end: int, path: str,
                 blocks: list[FileBlock | ConsoleBlock]) -> int:
    """Read the common file blocks from the header at ``i`` (whose path is ``path``) on,
    appending them to ``blocks``; the line where the general reading takes over (the next
    header it must read, a footer, or ``end``), or -1 when the first block is not one.

    ``sig`` is the line signature of ``lines[base:]``; nothing at or past ``end`` is read.
    """
    read = 0
    while True:
        block = _block(lines, sig, base, i, end, path)
        if block is None:
            return -1 if read == 0 else i
        found, stop = block
        blocks.append(found)
        read += 1
        if stop >= end or sig[stop - base] != "-":
            return stop  # the end, or a footer
        # The next header (the block ended there because its path is not None).
        path = g.header_path(lines[stop]) or ""
        i = stop


def _hard_stop(line: str, first: str) -> bool:
    """A header or a footer (``first`` is the line's signature character)."""
    if first == "-":
        return g.header_path(line) is not None
    return first == "#" and g.FOOTER_RE.match(line) is not None


def _marker(lines: Sequence[str], sig: str, base: int, j: int, end: int, stops: re.Pattern[str],
            mark: str, marker: re.Pattern[str]) -> int:
    """The line of the next ``marker`` (whose signature character is ``mark``) from line
    ``j`` on, looking only at the lines ``stops`` finds in the signature; -1 when the
    shortcut gives up first: another marker, a fence, a header, a footer, or the end."""
    while True:
        m = stops.search(sig, j - base, end - base) if j < end else None
        if m is None:
            return -1
        j = m.start() + base
        first = sig[j - base]
        line = lines[j]
        if first == mark:
            if marker.match(line) is not None:
                return j
        elif first in "<>=":
            if g.SEARCH_RE.match(line) is not None or g.REPLACE_RE.match(line) is not None \
                    or g.DIVIDER_RE.match(line) is not None:
                return -1
        elif first in "`~" or _hard_stop(line, first):
            return -1
        j += 1


def _block(lines: Sequence[str], sig: str, base: int, i: int, end: int, path: str
           ) -> tuple[FileBlock, int] | None:
    if not path:
        return None  # "header-without-path": the general reading words it
    edits: list[Edit] = []
    label: tuple[int, int] | None = None
    k = i + 1
    while True:
        # The next non-blank line: a label, a SEARCH marker, or where the block ends.
        m = _NONBLANK.search(sig, k - base, end - base) if k < end else None
        if m is None:
            k = end
            break
        k = m.start() + base
        first = sig[k - base]
        line = lines[k]
        if first in "E*":
            number = g.edit_label(line)
            if number is None or label is not None or g.edit_address(line) is not None:
                return None
            label = (number, k)
            k += 1
            continue
        if first != "<" or g.SEARCH_RE.match(line) is None:
            if label is not None or not edits:
                return None
            if _hard_stop(line, first):
                break  # the next header, or the footer
            return None
        s = k
        j = _marker(lines, sig, base, s + 1, end, _SEARCH_STOP, "=", g.DIVIDER_RE)
        if j < 0:
            return None
        r = _marker(lines, sig, base, j + 1, end, _REPLACE_STOP, ">", g.REPLACE_RE)
        if r < 0:
            return None
        first_line = label[1] if label is not None else s
        edits.append(Edit(  # path, ordinal, number, SEARCH, REPLACE, span, their spans
            path, len(edits) + 1, label[0] if label is not None else None,
            tuple(lines[s + 1 : j]), tuple(lines[j + 1 : r]),
            Span(first_line + 1, r + 1), Span(s + 1, j + 1), Span(j + 1, r + 1)))
        label = None
        last = r
        k = r + 1
    if not edits or label is not None:
        return None
    return FileBlock(path, Span(i + 1, i + 1), Span(i + 1, last + 1), tuple(edits)), k
