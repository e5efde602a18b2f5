"""Git as a session source: a commit range, or a working tree's uncommitted changes.

The shell (:mod:`reviewtui.shell.git`) runs ``git log -p`` (or ``git diff``) once and
writes its output, under a short header of its own, to a session file; this module reads
that file back. The text is what git printed, so every span points at a line the
reviewer can open:

.. code-block:: text

    # reviewtui git session: range            (or: worktree)
    # base 3f2a...                            the commit the review starts from
    # head 9c1b...                            the last commit of the range
    # worktree "/path/to/checkout"            where git was run (JSON string)
    # skipped ["path", "why"]                 a change left out, one per line
    # staged "path"                           a reviewed path git's index stages
    From <sha> Mon Sep 17 00:00:00 2001       one per commit, as format-patch writes
    Parents: <sha> [<sha>...]
    Subject: <subject>

        <the whole message, every line indented by four spaces>

    diff --git a/x b/x
    ...

The diffs are read by :func:`~reviewtui.core.importers.unified.import_unified` (renames,
modes, binary patches: whatever it supports). Because git indents every message line,
no message can forge a ``From``, ``diff --git`` or ``---`` line at the start of a line:
only git's own header and diff lines start there. Each commit is one turn (a rename then
reuse of the same path may split it, as in any unified diff), its whole message the
request; a commit without a diff is an empty turn with a note, a merge a turn against
its first parent with a note.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import ParseProblem, Reply, Session, Span, Turn
from reviewtui.core.record import record, replace
from reviewtui.core.text.lines import encodes_utf8

MARKER = "# reviewtui git session: "
KINDS = ("range", "worktree")
COMMIT_LINE = re.compile(r"^From ([0-9a-f]{7,64}) ")
# What ``git log`` prints per commit (``%B`` indented by four spaces on every line).
LOG_FORMAT = ("From %H Mon Sep 17 00:00:00 2001%nParents: %P%nSubject: %s%n%n"
              "%w(0,4,4)%B%w(0,0,0)")

MERGE = "git-merge"
EMPTY = "git-empty"
SKIPPED = "git-skipped"
STAGED = "git-staged"


@record(frozen=True, slots=True)
class GitOrigin:
    """Where a git session came from (its header)."""

    kind: str  # "range" or "worktree"
    base: str  # the commit the review starts from
    head: str  # the range's last commit (the base itself for a working tree)
    worktree: str = ""
    skipped: tuple[tuple[str, str], ...] = ()
    staged: tuple[str, ...] = ()  # a working tree's paths whose change the index stages


@record(frozen=True, slots=True)
class CommitInfo:
    sha: str
    parents: tuple[str, ...]
    subject: str
    message: str
    start: int  # 0-based line of "From"
    stop: int  # 0-based line after the commit's text


def looks_like_git_session(text: str) -> bool:
    return text.lstrip("\ufeff").startswith(MARKER)


def header_text(origin: GitOrigin) -> str:
    """The header :func:`read_origin` reads back (the shell puts git's output after it)."""
    lines = [f"{MARKER}{origin.kind}", f"# base {origin.base}", f"# head {origin.head}"]
    if origin.worktree:
        lines.append(f"# worktree {json.dumps(origin.worktree, ensure_ascii=False)}")
    # (A name that is not UTF-8 holds surrogate escapes: written as JSON escapes, which
    # read back to the same name.)
    lines.extend(f"# skipped {json.dumps([path, why], ensure_ascii=not encodes_utf8(path))}"
                 for path, why in origin.skipped)
    lines.extend(f"# staged {json.dumps(path, ensure_ascii=not encodes_utf8(path))}"
                 for path in origin.staged)
    return "".join(line + "\n" for line in lines)


def _shown(path: str) -> str:
    """A path for a message: a byte that is not UTF-8 (a surrogate escape) as ``\\xff``."""
    if encodes_utf8(path):
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def read_origin(text: str, source: str = "session") -> GitOrigin:
    """The header of a git session; a clean error naming the line when it is malformed."""
    lines = _header_lines(text.lstrip("\ufeff"))
    if not lines or not lines[0].startswith(MARKER):
        raise SessionFormatError(f"not a reviewtui git session (no {MARKER.strip()!r} line)",
                                 source=source, line=1, rule="git-header")
    kind = lines[0][len(MARKER):].strip()
    if kind not in KINDS:
        raise SessionFormatError(f"unknown git session kind {kind!r}", source=source, line=1,
                                 rule="git-header")
    fields: dict[str, str] = {}
    skipped: list[tuple[str, str]] = []
    staged: list[str] = []
    for number, line in enumerate(lines[1:], start=2):
        name, _, value = line[2:].partition(" ")
        try:
            if name == "skipped":
                path, why = json.loads(value)
                skipped.append((str(path), str(why)))
            elif name == "staged":
                staged.append(str(json.loads(value)))
            elif name == "worktree":
                fields[name] = str(json.loads(value))
            elif name in ("base", "head"):
                if not re.fullmatch(r"[0-9a-f]{7,64}", value):
                    raise ValueError(value)
                fields[name] = value
        except ValueError:
            raise SessionFormatError(f"malformed header line {line!r}", source=source,
                                     line=number, rule="git-header") from None
    if "base" not in fields:
        raise SessionFormatError("the header names no base commit", source=source, line=1,
                                 rule="git-header")
    return GitOrigin(kind, fields["base"], fields.get("head", fields["base"]),
                     fields.get("worktree", ""), tuple(skipped), tuple(staged))


def _header_lines(text: str) -> list[str]:
    """The first line and the ``# `` lines after it (not the whole text split)."""
    lines: list[str] = []
    at = 0
    while True:
        end = text.find("\n", at)
        line = text[at:] if end < 0 else text[at:end]
        if lines and not line.startswith("# "):
            return lines
        lines.append(line)
        if end < 0:
            return lines
        at = end + 1


def _from_lines(text: str) -> list[int]:
    """The numbers of the lines that start with ``From `` (found with ``str.find``)."""
    found = [0] if text.startswith("From ") else []
    line, counted = 0, 0
    at = text.find("\nFrom ")
    while at >= 0:
        line += text.count("\n", counted, at + 1)
        counted = at + 1
        found.append(line)
        at = text.find("\nFrom ", at + 1)
    return found


def commits_in(lines: Sequence[str], candidates: Sequence[int] | None = None
               ) -> list[CommitInfo]:
    """The commits of a ``git log`` text written with :data:`LOG_FORMAT` (``candidates``:
    the numbers of the lines that start with ``From ``, when the caller knows them)."""
    if candidates is None:
        candidates = [i for i, line in enumerate(lines) if line.startswith("From ")]
    starts = [i for i in candidates if COMMIT_LINE.match(lines[i])]
    out: list[CommitInfo] = []
    for n, start in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(lines)
        match = COMMIT_LINE.match(lines[start])
        assert match is not None
        parents: tuple[str, ...] = ()
        subject = ""
        i = start + 1
        while i < stop and lines[i] and not lines[i].startswith("    "):
            if lines[i].startswith("Parents: "):
                parents = tuple(lines[i][len("Parents: "):].split())
            elif lines[i].startswith("Subject: "):
                subject = lines[i][len("Subject: "):]
            i += 1
        body: list[str] = []
        while i < stop and (not lines[i] or lines[i].startswith("    ")):
            body.append(lines[i][4:])
            i += 1
        message = "\n".join(body).strip("\n")
        out.append(CommitInfo(match.group(1), parents, subject, message or subject, start,
                              stop))
    return out


def _note(rule: str, message: str, line: int) -> ParseProblem:
    return ParseProblem(rule, message, Span(line, line), "info")


def import_git(text: str, source: str, *, root: str | None = None,
               literal: bool = False) -> Session:
    """A git session file (see the module docstring) as a session (``literal``: its file
    operations marked literal, as :func:`~reviewtui.core.importers.import_session` does)."""
    from reviewtui.core.importers.unified import import_unified  # not for detection

    origin = read_origin(text, source)
    lines = text.split("\n")
    commits = commits_in(lines, _from_lines(text))
    try:
        wanted = bool(commits) or origin.kind == "worktree"
        diffs = (import_unified(text, source, root=root, literal=literal).turns if wanted
                 else ())
    except SessionFormatError:  # not a single diff in the whole range
        diffs = ()
    turns: list[Turn] = []
    if origin.kind == "worktree":
        turns.extend(_worktree_turns(origin, diffs))
    at = 0  # the diffs' turns come in the text's order, as the commits do
    for commit in commits:
        while at < len(diffs) and diffs[at].span.start <= commit.start:
            at += 1
        end = at
        while end < len(diffs) and diffs[end].span.start <= commit.stop:
            end += 1
        mine = list(diffs[at:end])
        notes: list[ParseProblem] = []
        if len(commit.parents) > 1:
            notes.append(_note(MERGE, f"merge commit {commit.sha[:12]}: shown as one turn "
                               "against its first parent", commit.start + 1))
        if not mine:
            notes.append(_note(EMPTY, f"commit {commit.sha[:12]} changes no file",
                               commit.start + 1))
            reply = Reply(Span(commit.start + 1, commit.stop), (), None, (), None, (), ())
            mine = [Turn(0, "", reply, Span(commit.start + 1, max(commit.start + 1,
                                                                  commit.stop)))]
        for number, turn in enumerate(mine):
            reply = turn.reply
            if number == 0 and notes:
                reply = replace(reply, problems=(*notes, *reply.problems))
            turns.append(Turn(len(turns) + 1, commit.message, reply, turn.span,
                              Span(commit.start + 1, commit.start + 1)))
    title = (f"git {origin.base[:12]}..{origin.head[:12]}" if origin.kind == "range"
             else f"git working tree over {origin.base[:12]}")
    return Session(source, title, "", tuple(turns), format="git")


def _worktree_turns(origin: GitOrigin, diffs: Sequence[Turn]) -> list[Turn]:
    """A working tree's changes: one turn (split only when the diff's order needs it)."""
    notes = tuple(_note(SKIPPED, f"{_shown(path)}: {why}; left as it is on disk", 1)
                  for path, why in origin.skipped)
    if origin.staged:  # (QA s46 helper-141 F5: a plain git commit then committed a reject)
        shown = ", ".join(_shown(path) for path in origin.staged[:5]) + (
            f" and {len(origin.staged) - 5} more" if len(origin.staged) > 5 else "")
        notes += (ParseProblem(STAGED, f"git's index stages the changes to {shown}: a "
                               "reject puts the working tree back as HEAD has it, not the "
                               "index (git restore --staged FILE unstages; a plain git commit "
                               "would commit what the index holds)", Span(1, 1), "warning"),)
    request = f"Uncommitted changes over {origin.base[:12]}"
    if not diffs:
        reply = Reply(Span(1, 1), (), None, (), None, (), notes)
        return [Turn(1, request, reply, Span(1, 1))]
    out: list[Turn] = []
    for number, turn in enumerate(diffs):
        extra = notes if number == 0 else ()
        reply = replace(turn.reply, problems=extra + turn.reply.problems)
        out.append(Turn(number + 1, request, reply, turn.span))
    return out


# --- reading a range while git writes it -------------------------------------------------

# Ends the last commit of a piece where the next piece's first commit starts (it becomes
# one empty turn, dropped again).
_SENTINEL = "From " + "0" * 40 + " Mon Sep 17 00:00:00 2001\n"


class PieceImport:
    """:func:`import_git` of a range's session text, read piece by piece as git writes it.

    The text is the header, then pieces that each start at a commit line; every piece but
    the last ends where the next commit starts. A piece is read on its own text with its
    lines at the numbers they have in the whole (blank lines stand for what came before),
    so spans and turns are the same as :func:`import_git` of the whole text makes.
    :meth:`session` returns None when that would not hold (then import the whole text): a
    commit id that is not 40 hex digits, or a CRLF reading that differs from the whole's.
    """

    def __init__(self, header: str, source: str, *, root: str | None = None,
                 literal: bool = False) -> None:
        self._header = header
        self._source = source
        self._root = root
        self._literal = literal
        self._lines = header.count("\n")  # lines before the next piece
        self._turns: list[Turn] = []
        self._last = False
        self._valid = header.endswith("\n")
        self._any_cr = False
        self._headers = False  # any hunk header at all
        self._cr_headers = True  # every hunk header ends in CR
        self._cr_pieces: list[bool] = []  # the CRLF reading of each piece with a CR

    def add(self, piece: str, *, last: bool = False) -> None:
        """Read ``piece`` (``last``: the text ends with it)."""
        if self._last or not self._valid:
            self._valid = False
            return
        first = piece.split("\n", 1)[0]
        match = COMMIT_LINE.match(first) if piece else None
        if piece and (match is None or len(match.group(1)) != 40):
            self._valid = False  # the whole text decides how to read it
            return
        self._note_crlf(piece)
        pad = "\n" * (self._lines - self._header.count("\n"))
        text = self._header + pad + piece + ("" if last else _SENTINEL)
        session = import_git(text, self._source, root=self._root, literal=self._literal)
        turns = list(session.turns)
        if not last:
            turns.pop()  # the sentinel's empty turn
        offset = len(self._turns)
        self._turns.extend(Turn(t.index + offset, t.request, t.reply, t.span, t.heading_span)
                           for t in turns)
        self._lines += piece.count("\n")
        self._last = last

    def _note_crlf(self, piece: str) -> None:
        """What the whole text's CRLF reading needs (see import_unified): whether it has a
        CR, whether every hunk header ends in one; and this piece's own reading."""
        headers, every = False, True
        at = piece.find("\n@@ -")  # a piece starts with its commit line, never "@@ -"
        while at >= 0:
            end = piece.find("\n", at + 1)
            headers = True
            every = every and piece[(end if end >= 0 else len(piece)) - 1] == "\r"
            at = piece.find("\n@@ -", at + 1)
        self._headers = self._headers or headers
        self._cr_headers = self._cr_headers and every
        if "\r" in piece:
            self._any_cr = True
            self._cr_pieces.append(headers and every)

    def session(self) -> Session | None:
        """The session of the whole text (after its last piece); None: read the whole."""
        if not (self._valid and self._last):
            return None
        if self._any_cr:
            whole = self._headers and self._cr_headers
            if any(reading != whole for reading in self._cr_pieces):
                return None
        origin = read_origin(self._header, self._source)
        title = f"git {origin.base[:12]}..{origin.head[:12]}"
        if origin.kind != "range":
            return None
        return Session(self._source, title, "", tuple(self._turns), format="git")
