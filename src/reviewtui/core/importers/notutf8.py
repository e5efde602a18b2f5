"""A diff in which some files' changes are not UTF-8 text.

Git calls a file text when it holds no NUL byte, so ``git diff > x.diff`` writes a Latin-1
source or a compressed fixture as text hunks. A review reads UTF-8 alone; such a diff file
was refused whole (``[encoding]``), the UTF-8 files' changes with it, where ``git apply``
applies them all (QA s44 helper-134 M5). The loader decodes a unified diff that is not
UTF-8 with ``surrogateescape`` (each undecodable byte a lone surrogate, U+DC80-U+DCFF);
here each file section holding such a byte is left out, with a problem naming the file
and the line (``diff-not-utf8``); a byte outside every section (a mail's message, text
between files) leaves the whole diff refused as before, naming it. No undecodable byte
reaches an operation: what is read is UTF-8 text. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.importers.common import format_error, problem
from reviewtui.core.model.records import ParseProblem

NOT_UTF8 = "diff-not-utf8"
ENCODING = "encoding"  # the loader's rule for a file that is not UTF-8 text
_FOREIGN = re.compile("[\udc80-\udcff]")

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Protocol, TypeVar

    class _Section(Protocol):
        start: int
        end: int
        old: str | None
        new: str | None

    S = TypeVar("S", bound=_Section)


def foreign_lines(text: str, lines: Sequence[str]) -> list[tuple[int, int]]:
    """(0-based index, first undecodable byte) of each line holding one, ascending (none
    in an ASCII text, told in constant time)."""
    if text.isascii() or not _FOREIGN.search(text):
        return []
    return [(at, ord(found.group()) - 0xDC00) for at, line in enumerate(lines)
            if (found := _FOREIGN.search(line))]


def utf8_sections(sections: Sequence[S], foreign: Sequence[tuple[int, int]], start: int,
                  stop: int,
                  notes: list[ParseProblem], source: str) -> list[S]:
    """``sections`` (of lines ``[start, stop)``) without those holding a line of
    ``foreign``, each said in ``notes``. SessionFormatError for such a line outside every
    section."""
    kept: list[S] = []
    for section in sections:
        inside = [(at, byte) for at, byte in foreign
                  if section.start <= at < max(section.end, section.start + 1)]
        if not inside:
            kept.append(section)
            continue
        name = section.new or section.old or ""
        (at, byte), *_ = inside
        notes.append(problem(NOT_UTF8, f"the change to {_named(name)} is not UTF-8 text "
                             f"(byte 0x{byte:02X} at line {at + 1}): reviewtui reads UTF-8 "
                             "text only; not applied; apply it with git apply (a range "
                             "read with --git takes such a file as a binary file)",
                             section.start + 1, section.end))
    for at, byte in foreign:
        if start <= at < stop and not any(s.start <= at < max(s.end, s.start + 1)
                                          for s in sections):
            raise format_error(source, at + 1, ENCODING, f"not UTF-8 text: byte 0x{byte:02X} "
                               "outside any file's diff (a message, or text between "
                               "files): reviewtui reads UTF-8 text only")
    return kept


def _named(name: str) -> str:
    """A path for a message, quoted, an undecodable byte written as ``\\xNN``."""
    if not _FOREIGN.search(name):
        return repr(name)
    raw = name.encode("utf-8", "surrogateescape")
    return "'" + raw.decode("utf-8", "backslashreplace") + "'"
