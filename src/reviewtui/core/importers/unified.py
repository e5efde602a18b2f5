"""Unified diffs: ``diff -u``, ``git diff`` and ``git format-patch`` series.

Each file section becomes operations; a whole diff is one turn, and a ``format-patch``
series (``From <sha> ...`` mails) one turn per commit, its subject as the request.

* ``@@ -a,b +c,d @@`` hunk: an :class:`Edit`; context and ``-`` lines are SEARCH,
  context and ``+`` lines REPLACE. ``c`` is only a ``line_hint``: a match right there
  wins, otherwise the content alone decides (so a diff taken against a slightly
  different tree still lands, or reports where it nearly does);
* ``--- /dev/null`` or ``new file mode``: a :class:`FullFile` of the ``+`` lines;
* ``+++ /dev/null`` or ``deleted file mode``: a literal ``:rm``;
* ``rename from`` / ``rename to``: a literal ``:mv`` (refused when the target exists),
  then the hunks, which edit the new path;
* ``\\ No newline at end of file``: the file's final newline afterwards;
* ``GIT binary patch`` (``literal``/``delta``): a :class:`FullFile` carrying the bytes;
  ``Binary files a/x and b/x differ`` (no data): one that cannot apply (``diff-binary``);
* ``new file mode``/``new mode``: the file's mode afterwards (``120000``: a symbolic link);
* ``index A..B`` in full: both on the section's last operation (``GitForms``);
* copies cannot be replayed: a problem on the turn (``diff-copy``).

Hunks are read by their line counts, as ``git apply`` does; a hunk that ends before its
counts say is kept with a ``diff-hunk-count`` warning; ``-``/``+`` lines after its counted
end are ``diff-hunk-overrun`` (its file not read, see ``hunkbody``); a ``diff --git``
header carrying no change is ``diff-empty-section``. Where a hunk sits is kept as git
reads it: one without trailing context ends at the file's end, one from line 1 starts it. A
new file's ``+a\r`` lines keep their CR, and a hunk records which of its lines end in CR
and whether its line 1 starts with a byte order mark (``LineBytes``: written as git would
where the old side agrees with the file). Only a diff whose every hunk header ends in CR is
read as transported with CRLF.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reviewtui.core.importers.common import (
    Change,
    command,
    ends_as,
    format_error,
    problem,
    relative_path,
    removals_first,
    turns_from_changes,
)
from reviewtui.core.importers.diffpaths import (
    Prefixes,
    compared_folders_dropped,
    diff_path,
    epoch_dated,
    git_header_paths,
    prefix_pair,
    unquote,
)
from reviewtui.core.importers.gitbinary import BinaryPatchError, read_hunk
from reviewtui.core.importers.hunkbody import HUNK, hunk_lines, overrun
from reviewtui.core.importers.hunkbody import Hunk as _Hunk
from reviewtui.core.importers.mails import is_cover_letter, mail_parts, mail_subject
from reviewtui.core.importers.notutf8 import (
    foreign_lines,
    hold_section,
    refuse_encoded,
    utf8_sections,
)
from reviewtui.core.importers.renames import renames_in_order
from reviewtui.core.model.records import (
    CommandName,
    EarlierHunks,
    Edit,
    FileBytes,
    FullFile,
    LineBytes,
    Operation,
    ParseProblem,
    Session,
    Span,
    Turn,
)
from reviewtui.core.paths.safety import respelled
from reviewtui.core.record import field, record
from reviewtui.core.record import replace as replace_record
from reviewtui.core.text.limits import parse_int
from reviewtui.core.text.lines import split_lines

_BOM = "\ufeff"

BAD_HUNK = "diff-bad-hunk"
ORPHAN_HUNK = "diff-orphan-hunk"
BLANK_BETWEEN = "diff-blank-between-hunks"
BINARY = "diff-binary"
COPY = "diff-copy"
LONE_CR = "diff-lone-cr"  # a line ending in a CR of its own: not edited byte for byte
PATH_SPELLING = "diff-path-spelling"  # a name the canonical spelling would change
MODE = "diff-mode"
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000  # a submodule: the tree records the commit it is checked out at
_SUBPROJECT = re.compile(r"Subproject commit ([0-9a-f]{4,64}(?:-dirty)?)")
NO_DIFF = "no-diff"
EMPTY_SECTION = "diff-empty-section"


@record(slots=True)
class _Section:
    start: int
    old: str | None = None
    new: str | None = None
    new_file: bool = False
    deleted: bool = False
    rename_from: str | None = None
    rename_to: str | None = None
    copy: bool = False
    binary: bool = False
    mode_change: bool = False
    new_mode: int | None = None  # "new file mode" / "new mode"
    old_mode: int | None = None  # "old mode" / "deleted file mode" / the index line's
    old_id: str = ""
    new_id: str = ""
    payload: FileBytes | None = None
    binary_error: str = ""
    unread: bool = False  # a hunk header could not be read: the hunks after it are lost
    hunks: list[_Hunk] = field(default_factory=list)
    end: int = 0


def import_unified(text: str, source: str, *, root: str | None = None,
                   literal: bool = False,
                   exists: Callable[[str], bool] | None = None) -> Session:
    """``text`` as a session; with ``literal`` its file operations come marked literal
    (what :func:`~reviewtui.model.records.literal_session` would make of them).
    ``exists``: whether the project holds a file at a path (see
    :func:`~reviewtui.core.importers.diffpaths.compared_folders_dropped`). Sections that
    are not UTF-8 text (decoded with ``surrogateescape``) are not read, each said."""
    lines = split_lines(text)
    raw: Sequence[str] = lines  # no CR at all, or CRLF is the transport's: none in content
    if "\r" in text:
        raw = text.split("\n")
        headers = [line for line in raw if line.startswith("@@ -")]
        if headers and all(h.endswith("\r") for h in headers):
            raw = lines
    turns: list[Turn] = []
    found_any = cover = False
    foreign, held = foreign_lines(text, lines), set[str]()
    for start, patch, stop in mail_parts(text, lines):
        notes: list[ParseProblem] = []
        refuse_encoded(lines, start, stop, source)  # (a mail's headers, if it is one)
        if patch == start and is_cover_letter(lines, start, stop):
            cover = True  # (no '---' and stat: a patch numbered 0 has them, QA s47 H6)
            continue  # (its --interdiff is the series' change since v1, not one more)
        sections = _sections(lines, raw, patch, stop, notes)
        if foreign or held:
            sections = utf8_sections(sections, foreign, start, stop, notes, source, held)
        copied = {s.old for s in sections if s.copy and s.old}
        for s in sections:  # (QA s45 helper-139 #10: a -B rewrite lost what b copies)
            if s.old in copied and not s.copy and not s.unread:
                notes.append(problem(COPY, f"the change to {s.old!r} is not applied: the "
                                     "diff also copies it, which reviewtui cannot do, and "
                                     "the copy needs it as it was", s.start + 1))
                hold_section(s, [s.old], held)
        if exists is not None:
            compared_folders_dropped(sections, exists)
        if not sections and not notes:
            continue
        found_any = True
        changes = [ends_as(change, s.new_id, s.old_id) for s in sections
                   if (change := _change(s, lines, notes, root, literal)) is not None]
        span = Span(start + 1, max(start + 1, stop))
        request = mail_subject(lines, start, stop)
        turns.extend(turns_from_changes(len(turns) + 1, request,
                                        removals_first(renames_in_order(changes)), span, notes))
    if not found_any:
        raise format_error(source, None, NO_DIFF, "a series' cover letter ([PATCH 0/n]) and "
                           "no patch: it holds no change" if cover else "no 'diff --git' line "
                           "and no '---'/'+++' file header followed by a hunk: this is not a "
                           "unified diff")
    return Session(source, "", "", tuple(turns), format="unified")


def _sections(lines: Sequence[str], raw: Sequence[str], start: int, stop: int,
              notes: list[ParseProblem]) -> list[_Section]:
    sections: list[_Section] = []
    prefixes = prefix_pair(lines, start, stop)  # the diff's own a/ b/, i/ w/, none...
    old_prefix, new_prefix = prefixes if prefixes is not None else (None, None)
    i = start
    while i < stop:
        line = lines[i]
        if not line:  # blank: no header starts here (a piece's stand-in lines are many)
            i += 1
            continue
        if line.startswith("diff --git "):
            section = _git_section(lines, raw, i, stop, notes, prefixes)
            if not _carries(section):  # (git apply: "No valid patches", or garbage)
                notes.append(problem(EMPTY_SECTION, f"a 'diff --git' header for "
                                     f"{section.new or section.old!r} with no hunk, mode, "
                                     "rename or new or deleted file after it: it carries no "
                                     "change, so nothing of it is read", i + 1))
                i = max(section.end, i + 1)
                continue
        elif _starts_section(lines, i, stop):
            section = _Section(i)
            section.old = diff_path(line[4:], old_prefix)
            section.new = diff_path(lines[i + 1][4:], new_prefix)
            section.new_file, section.deleted = section.old is None, section.new is None
            section.end = _read_hunks(lines, raw, i + 2, stop, section, notes)
            if section.hunks and not (section.new_file or section.deleted):
                # diff -N's epoch date: the file is made, or removed (it was left as an
                # empty file, exit 0, QA s45 helper-138 #4)
                section.new_file = epoch_dated(line[4:]) and not any(
                    h.old_count for h in section.hunks)
                section.deleted = epoch_dated(lines[i + 1][4:]) and not any(
                    h.new_count for h in section.hunks)
        else:
            if sections and line.startswith("@@ -") and HUNK.match(line):
                # A hunk after a file's diff and other text, with no file header of its
                # own: whose file it edits is not said (the one above, or one whose header
                # went missing). Not read; the file above is then not whole either (git
                # refuses the whole diff). (Before any file: a mail's message, not a diff.)
                above = sections[-1]
                notes.append(problem(ORPHAN_HUNK, "a hunk with no file header, after the "
                                     f"hunks of {above.new or above.old!r}: which file it "
                                     "edits is not said, so it is not read", i + 1))
                above.unread = True
            i += 1
            continue
        sections.append(section)
        i = max(section.end, i + 1)
    return sections


def _carries(section: _Section) -> bool:
    """Whether a file's section says any change (``git diff -w`` leaves a header alone)."""
    return bool(section.hunks or section.unread or section.new_file or section.deleted
                or section.rename_from or section.rename_to or section.copy or section.binary
                or section.mode_change)


def _git_section(lines: Sequence[str], raw: Sequence[str], i: int, stop: int,
                 notes: list[ParseProblem], prefixes: Prefixes | None = None) -> _Section:
    section = _Section(i)
    section.old, section.new = git_header_paths(lines[i][len("diff --git "):], prefixes)
    i += 1
    while i < stop:
        line = lines[i]
        if line.startswith(("--- ", "@@ ", "diff --git ")):
            break
        if line.startswith("new file mode"):
            section.new_file = True
            section.new_mode = _mode(line)
        elif line.startswith("deleted file mode"):
            section.deleted = True
            section.old_mode = _mode(line)
        elif line.startswith("rename from "):
            section.rename_from = unquote(line[len("rename from "):])
        elif line.startswith("rename to "):
            section.rename_to = unquote(line[len("rename to "):])
        elif line.startswith(("copy from ", "copy to ")):
            section.copy = True
        elif line.startswith("old mode "):
            section.mode_change = True
            section.old_mode = _mode(line)
        elif line.startswith("new mode "):
            section.mode_change = True
            section.new_mode = _mode(line)
        elif line.startswith("index "):
            _index_line(line, section)
        elif line.startswith(("Binary files ", "GIT binary patch")):
            section.binary = True
            _binary(lines, i, stop, section)
            i += 1
            while i < stop and not lines[i].startswith("diff --git "):
                i += 1
            break
        elif not line.startswith(("similarity index", "dissimilarity index")):
            break
        i += 1
    if i + 1 < stop and lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
        old_prefix, new_prefix = prefixes if prefixes is not None else (None, None)
        old, new = diff_path(lines[i][4:], old_prefix), diff_path(lines[i + 1][4:], new_prefix)
        if old is None:
            section.new_file = True
        else:
            section.old = old
        if new is None:
            section.deleted = True
        else:
            section.new = new
        i += 2
    section.end = _read_hunks(lines, raw, i, stop, section, notes)
    return section


def _mode(line: str) -> int | None:
    word = line.rsplit(" ", 1)[-1]
    return int(word, 8) if re.fullmatch(r"[0-7]{6}", word) else None


def _index_line(line: str, section: _Section) -> None:
    """``index OLD..NEW [MODE]``: the blob ids, and the mode when it did not change."""
    match = re.match(r"^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]{6}))?\s*$", line)
    if match is None:
        return
    section.old_id, section.new_id = match.group(1), match.group(2)
    if match.group(3) and section.old_mode is None:
        section.old_mode = int(match.group(3), 8)


def _binary(lines: Sequence[str], i: int, stop: int, section: _Section) -> None:
    """The forward hunk of a ``GIT binary patch``; ``Binary files ... differ`` has none."""
    if not lines[i].startswith("GIT binary patch") or i + 1 >= stop:
        section.payload = FileBytes("missing", old_id=section.old_id, new_id=section.new_id)
        return
    try:
        hunk = read_hunk(lines, i + 1, stop)
    except BinaryPatchError as err:
        section.payload = FileBytes("missing")
        section.binary_error = str(err)
        return
    full = len(section.old_id) == 40 and len(section.new_id) == 40
    section.payload = FileBytes(hunk.kind, hunk.data, section.old_id if full else "",
                                section.new_id if full else "")


def _read_hunks(lines: Sequence[str], raw: Sequence[str], i: int, stop: int,
                section: _Section, notes: list[ParseProblem]) -> int:
    while i < stop and lines[i].startswith("@@"):
        match = HUNK.match(lines[i])
        if match is None:
            notes.append(problem(BAD_HUNK, f"{lines[i]!r} is not a hunk header "
                                 "('@@ -a,b +c,d @@'); the rest of this file's diff is skipped",
                                 i + 1))
            section.unread = True
            i += 1
            while i < stop and not _starts_section(lines, i, stop):
                i += 1  # (its hunks too: the rest of this file's diff)
            return i
        a, b, c, d = (parse_int(n or "1", what="hunk header number", line=i + 1)
                      for n in match.groups())  # (a missing count means one line)
        hunk = _Hunk(i, a, b, c, d)
        i = hunk_lines(lines, raw, i + 1, stop, hunk, notes)
        extra = overrun(lines, hunk, section.new or section.old, stop, _starts_section)
        if extra is not None:
            notes.append(extra)
            if extra.severity == "error":  # (its "-"/"+" lines after it: not read)
                section.unread = True
                while i < stop and not _starts_section(lines, i, stop):
                    i += 1  # (not the hunk either: the rest of this file's diff)
                return i
        section.hunks.append(hunk)
        # Blank lines and then another hunk: a slip between two hunks of this file (git
        # refuses the diff, GNU patch drops the hunk). Nothing else can start there.
        after = i
        while after < stop and not lines[after]:
            after += 1
        if after > i and after < stop and HUNK.match(lines[after]):
            notes.append(problem(BLANK_BETWEEN, f"blank line{'s' if after - i > 1 else ''} "
                                 f"between two hunks of {section.new or section.old!r}: "
                                 "read as a slip, the hunk after them as this file's", i + 1,
                                 after, severity="warning"))
            i = after
    return i


def _starts_section(lines: Sequence[str], i: int, stop: int) -> bool:
    """Whether a file's section starts at ``lines[i]`` (as :func:`_sections` reads one)."""
    line = lines[i]
    return line.startswith("diff --git ") or (
        line.startswith("--- ") and i + 2 < stop and lines[i + 1].startswith("+++ ")
        and HUNK.match(lines[i + 2]) is not None)


def _was_link(section: _Section) -> bool:
    """Whether the diff's old side of the file is a symbolic link."""
    return section.old_mode is not None and section.old_mode & 0o170000 == LINK_MODE


def _change(section: _Section, lines: Sequence[str], notes: list[ParseProblem],
            root: str | None, literal: bool = False) -> Change | None:
    line = section.start + 1
    span = Span(line, max(line, section.end))
    if section.copy:
        notes.append(problem(COPY, f"a copy to {section.new!r}: reviewtui has no copy "
                             "operation; apply it by hand", line))
        return None
    old = relative_path(section.rename_from or section.old or "", (root,))
    new = relative_path(section.rename_to or section.new or section.old or "", (root,))
    for name in {old, new} - {""}:
        if (canonical := respelled(name)) is not None:
            spell = repr if name.isascii() and canonical.isascii() else ascii  # (NFD as NFC)
            notes.append(problem(PATH_SPELLING, f"the diff names {spell(name)}, which reviewtui "
                                 f"would write as {spell(canonical)}, another file: not "
                                 "applied", line))
            return None
    if any(mode is not None and mode & 0o170000 == GITLINK_MODE
           for mode in (section.old_mode, section.new_mode)):
        # A submodule's commit (added, moved, removed, renamed) is not a file's content
        # (not text to write, nor a folder to :rm): one operation that cannot apply says so.
        before, after = _submodule_commits(section)
        payload = FileBytes("submodule", old_id=before, new_id=after)
        return Change([FullFile(new, (), span, payload=payload, literal=literal)], span)
    if any(hunk.lone_cr for hunk in section.hunks) and not (section.new_file
                                                             or section.deleted):
        # Edits carry lines, and a CR ending a line is dropped as a line ending: the
        # written file lost it ("x\r" became "y"), exit 0. Refused rather than wrong.
        notes.append(problem(LONE_CR, f"the change to {new!r} edits a last line that ends "
                             "in a lone carriage return (no newline after it), which "
                             "reviewtui cannot write byte for byte: not applied; apply it "
                             "with git apply", line))
        return None
    if not (section.new_file or section.deleted) and any(
            text.endswith("\r") for hunk in section.hunks
            for text in (*hunk.search, *hunk.replace)):
        # A line ending in CR before its CRLF ("q\r\r\n"): that CR is content, which the
        # matcher drops as a stray line ending, so it matched loosely and wrote another
        # file than git's, exit 0 (QA pass s28: a removed stray CR "applied" with the file
        # unchanged; trailing blanks of added lines dropped). Refused rather than wrong.
        notes.append(problem(LONE_CR, f"the change to {new!r} edits or passes a line that "
                             "ends in a carriage return before its line ending, which "
                             "reviewtui cannot match byte for byte: not applied; apply it "
                             "with git apply", line))
        return None
    if section.deleted:
        removal = command(CommandName.RM, [old], line)
        if section.hunks and not section.binary:  # what it removes, to check it is that
            removal = replace_record(removal, expect=tuple(
                text.rstrip("\r") for hunk in section.hunks for text in hunk.search))
        if section.old_id.strip("0"):  # and git's id of it (binary files, -D diffs)
            removal = replace_record(removal, expect_blob=section.old_id)
        if section.old_mode is not None:  # and whether it is a link (same id as a file)
            removal = replace_record(removal, expect_link=_was_link(section))
        return Change([removal], span)
    mode = section.new_mode if section.new_file or section.mode_change else None
    ops: list[Operation] = []
    if section.rename_to and old != new:
        ops.append(command(CommandName.MV, [old, new], line))
    if section.binary:
        if section.binary_error:
            notes.append(problem(BINARY, f"the binary patch of {new!r} cannot be read: "
                                 f"{section.binary_error}", line))
        ops.append(FullFile(new, (), span, mode=mode, payload=section.payload,
                            literal=literal))
        return Change(ops, span)
    if section.new_file:
        added = [text for hunk in section.hunks for text in hunk.added]
        no_eol = bool(section.hunks) and section.hunks[-1].new_no_eol
        first = section.hunks[0].header + 2 if section.hunks else line
        full = FullFile(new, tuple(added), Span(first, max(first, section.end)),
                        final_newline=not no_eol or not added, mode=mode, literal=literal,
                        creates=True)
        return Change([full, *_unread(section, new, span, literal)], span)
    if mode is None and _was_link(section):
        mode = section.old_mode  # a link's new target (the index line's mode: no change)
    if mode is not None and mode & 0o170000 == LINK_MODE:
        # A link's new target, or a file turned into a link: one operation (its target the
        # new content), never an edit that writes the target as text.
        target = [line for hunk in section.hunks for line in hunk.added]
        was = (tuple(line for hunk in section.hunks for line in hunk.search)
               if _was_link(section) and section.hunks else None)
        ops.append(FullFile(new, tuple(target), span, final_newline=False, mode=mode,
                            literal=literal, was=was))
        return Change(ops, span)
    plain = bool(section.old_id)  # every hunk so far carries its text alone (see below)
    hunks = tuple((hunk.new_start - 1 if hunk.new_count else hunk.new_start,
                   tuple(hunk.search), tuple(hunk.replace)) for hunk in section.hunks)
    for ordinal, hunk in enumerate(section.hunks, start=1):
        edit = _edit(new, hunk, ordinal, literal)
        plain = plain and _plain(hunk)
        if plain:  # (the section's preimage id and earlier hunks: see Edit.preimage)
            edit = replace_record(edit, preimage=section.old_id,
                                  earlier=EarlierHunks(hunks, ordinal - 1))
        ops.append(edit)
    if mode is not None:
        # A mode change (with or without hunks): the content as the hunks leave it.
        ops.append(FullFile(new, (), span, mode=mode, payload=FileBytes("keep"),
                            literal=literal))
    ops.extend(_unread(section, new, span, literal))
    if not ops:
        return None
    return Change(ops, span)


def _unread(section: _Section, path: str, span: Span, literal: bool) -> list[FullFile]:
    """For a file whose diff could not be read to its end: one operation that cannot
    apply, so the file's patch is not whole and ``apply`` writes none of it (a file with
    only the hunks before the unreadable line is neither the old one nor the new)."""
    if not section.unread:
        return []
    return [FullFile(path, (), span, payload=FileBytes("unread"), literal=literal)]


def _submodule_commits(section: _Section) -> tuple[str, str]:
    """The commits a submodule's section moves it from and to ("" for none): its hunk's
    ``Subproject commit <id>`` lines (``-dirty`` after a worktree's modified checkout)."""
    found = {"-": "", "+": ""}
    for hunk in section.hunks:
        for side, lines in (("-", hunk.search), ("+", hunk.replace)):
            for line in lines:
                match = _SUBPROJECT.fullmatch(line)
                if match is not None and (side == "+" or line not in hunk.replace):
                    found[side] = match.group(1)
    return found["-"], found["+"]


def _plain(hunk: _Hunk) -> bool:
    """Whether a hunk's lines carry their text alone: no CR, no byte order mark, no
    missing final newline (a preimage is proved for plain sections only)."""
    return not (hunk.search_crs or hunk.replace_crs or hunk.old_no_eol or hunk.new_no_eol
                or hunk.lone_cr or any(line.startswith(_BOM)
                                       for line in (*hunk.search, *hunk.replace)))


def _edit(path: str, hunk: _Hunk, ordinal: int = 1, literal: bool = False) -> Edit:
    # (without a final newline on both sides the diff leaves it as the file has it: one the
    # file gained since was dropped, exit 0, QA s45 helper-138 #5)
    final = None if hunk.old_no_eol == hunk.new_no_eol else not hunk.new_no_eol
    hint = hunk.new_start - 1 if hunk.new_count else hunk.new_start
    span = Span(hunk.header + 1, max(hunk.header + 1, hunk.end))
    # Where git pins a hunk: one without trailing context ends at the end of the file, one
    # whose old side starts at line 1 starts it. A hunk with no context at all (-U0)
    # says neither, except through "\ No newline at end of file": its line number alone
    # places it, with the twin rule of any hunk (at line 1 of a drifted file holding its
    # line three times it was pinned there, exit 0, QA s45 helper-138 #6).
    context = hunk.leading + hunk.trailing > 0
    at_end = bool(hunk.search) and ((context and hunk.trailing == 0) or hunk.old_no_eol)
    at_start = bool(hunk.search) and hunk.old_start == 1 and context
    search, replace = list(hunk.search), list(hunk.replace)
    # At line 1 a byte order mark is the file's (a flag), not text to match or write.
    search_bom = bool(search) and hunk.old_start == 1 and search[0].startswith(_BOM)
    replace_bom = bool(replace) and hunk.new_start == 1 and replace[0].startswith(_BOM)
    if search_bom:
        search[0] = search[0][1:]
    if replace_bom:
        replace[0] = replace[0][1:]
    line_bytes = LineBytes(frozenset(hunk.search_crs), frozenset(hunk.replace_crs),
                           search_bom, replace_bom)
    return Edit(path, ordinal, None, tuple(search), tuple(replace), span, span,
                span, line_hint=max(hint, 0), final_newline=final, at_end=at_end,
                at_start=at_start, literal=literal, line_bytes=line_bytes)
