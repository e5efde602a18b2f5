"""A diff in which some files' changes are not UTF-8 text.

Git calls a file text when it holds no NUL byte, so ``git diff > x.diff`` writes a Latin-1
source or a compressed fixture as text hunks. A review reads UTF-8 alone; such a diff file
was refused whole (``[encoding]``), the UTF-8 files' changes with it, where ``git apply``
applies them all (QA s44 helper-134 M5). The loader decodes a unified diff that is not
UTF-8 with ``surrogateescape`` (each undecodable byte a lone surrogate, U+DC80-U+DCFF);
here each file section holding such a byte is read as unreadable, with a problem naming
the file and the line (``diff-not-utf8``): one operation that cannot apply stands for it,
so that file is held, and the other files are read. A byte outside every section (a
mail's message, text between files) or in a file's name leaves the whole diff refused as
before, naming it. No undecodable byte reaches an operation. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.importers.common import format_error, problem
from reviewtui.core.model.records import ParseProblem

NOT_UTF8 = "diff-not-utf8"
ENCODED = "mail-encoded"
ENCODING = "encoding"  # the loader's rule for a file that is not UTF-8 text
_FOREIGN = re.compile("[\udc80-\udcff]")

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any, Protocol, TypeVar

    class _Section(Protocol):
        start: int
        end: int
        old: str | None
        new: str | None
        hunks: list[Any]
        unread: bool
        new_file: bool
        deleted: bool
        mode_change: bool
        rename_from: str | None
        rename_to: str | None
        new_mode: int | None

    S = TypeVar("S", bound=_Section)


def foreign_lines(text: str, lines: Sequence[str]) -> list[tuple[int, int]]:
    """(0-based index, first undecodable byte) of each line holding one, ascending (none
    in an ASCII text, told in constant time)."""
    if text.isascii() or not _FOREIGN.search(text):
        return []
    return [(at, ord(found.group()) - 0xDC00) for at, line in enumerate(lines)
            if (found := _FOREIGN.search(line))]


def utf8_sections(sections: Sequence[S], foreign: Sequence[tuple[int, int]], start: int,
                  stop: int, notes: list[ParseProblem], source: str,
                  held: set[str] | None = None) -> list[S]:
    """``sections`` (of lines ``[start, stop)``), each holding a line of ``foreign`` read
    as not read at all: its hunks dropped, one operation that cannot apply standing for it
    (``unread``), so that the file is held as for a hunk that cannot be read, and a later
    commit's change to it is not written over a file this one left out (QA s45 helper-139
    #4: a series' second mail was applied on a file without its first); said in
    ``notes``. ``held``: the paths held so by earlier commits of a series, which grows:
    a later change to one of them (a rename of it, say) is held too (helper-140 F3: the
    rename was read as applying, and exported). SessionFormatError for such a line
    outside every section, or in a path."""
    held = set() if held is None else held
    for section in sections:
        if section.unread:
            continue  # (held already: an encoded mail's, a copy's)
        inside = [(at, byte) for at, byte in foreign
                  if section.start <= at < max(section.end, section.start + 1)]
        names = [name for name in (section.old, section.new) if name]
        if not inside and held.intersection(names):
            notes.append(problem(NOT_UTF8, f"the change to {_named(names[-1])} follows one "
                                 "that is not UTF-8 text or not read (said above): not "
                                 "applied either", section.start + 1, section.end))
            hold_section(section, names, held)
            continue
        if not inside:
            continue
        (at, byte), *_ = inside
        if bad := [name for name in names if _FOREIGN.search(name)]:
            raise format_error(source, at + 1, ENCODING, f"not UTF-8 text: byte 0x{byte:02X} "
                               f"in the name of a file ({_named(bad[0])}): reviewtui "
                               "reads UTF-8 text only")
        notes.append(problem(NOT_UTF8, f"the change to {_named(names[-1])} is not UTF-8 "
                             f"text (byte 0x{byte:02X} at line {at + 1}): reviewtui reads "
                             "UTF-8 text only; not applied, nor any later change to that "
                             "file; apply it with git apply (a range read with --git takes "
                             "such a file as a binary file)", section.start + 1, section.end))
        hold_section(section, names, held)
    for at, byte in foreign:
        if start <= at < stop and not any(s.start <= at < max(s.end, s.start + 1)
                                          for s in sections):
            raise format_error(source, at + 1, ENCODING, f"not UTF-8 text: byte 0x{byte:02X} "
                               "outside any file's diff (a message, or text between "
                               "files): reviewtui reads UTF-8 text only")
    return list(sections)


_ENCODED = re.compile(r"Content-Transfer-Encoding:\s*(quoted-printable|base64)\s*$",
                      re.IGNORECASE)


_MULTIPART = re.compile(r"Content-Type:\s*multipart/", re.IGNORECASE)


def refuse_encoded(lines: Sequence[str], start: int, stop: int, source: str) -> None:
    """A SessionFormatError when the headers of the mail at ``start`` (up to its first blank
    line) say its body is quoted-printable or base64: read as it is, ``=3D`` was written
    for ``=`` (QA s46 helper-144 F8: exit 0; ``git am`` decodes it), and a base64 mail's
    changes went unread without a word while a later mail's landed on its files (helper-145
    F8): the whole diff is refused, said. A line of the message saying so is no header."""
    multipart = False
    for n in range(start, stop):
        line = lines[n].rstrip("\r")
        if not line:
            break
        multipart = multipart or _MULTIPART.match(line) is not None
        if (found := _ENCODED.match(line)) is not None:
            raise format_error(source, n + 1, ENCODED, f"this mail is "
                               f"{found.group(1).lower()}-encoded, and reviewtui reads a diff "
                               "as it is: decode it first (git am does)")
    if not multipart:
        return
    # A multipart mail (format-patch --attach or --inline): each part's own headers follow
    # a boundary line (QA s46 helper-146 F5: a quoted-printable patch part was read as it
    # is, =3D written, exit 0).
    for n in range(start + 1, stop):  # (a part's header: after its boundary or another)
        if lines[n - 1].startswith(("--", "Content-")) and (
                found := _ENCODED.match(lines[n].rstrip("\r"))):
            raise format_error(source, n + 1, ENCODED, f"a part of this mail is "
                               f"{found.group(1).lower()}-encoded, and reviewtui reads a diff "
                               "as it is: decode it first (git am does)")


def hold_section(section: _Section, names: list[str], held: set[str]) -> None:
    """The section read as not read: no hunks, one operation that cannot apply."""
    section.hunks = []
    section.unread = True
    section.new_file = section.deleted = section.mode_change = False
    section.rename_from = section.rename_to = None  # (no move of it either)
    section.new_mode = None
    held.update(names)


def _named(name: str) -> str:
    """A path for a message, quoted, an undecodable byte written as ``\\xNN``."""
    if not _FOREIGN.search(name):
        return repr(name)
    raw = name.encode("utf-8", "surrogateescape")
    return "'" + raw.decode("utf-8", "backslashreplace") + "'"
