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

import dataclasses
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import ParseProblem, Reply, Session, Span, Turn

MARKER = "# reviewtui git session: "
KINDS = ("range", "worktree")
COMMIT_LINE = re.compile(r"^From ([0-9a-f]{7,64}) ")
# What ``git log`` prints per commit (``%B`` indented by four spaces on every line).
LOG_FORMAT = ("From %H Mon Sep 17 00:00:00 2001%nParents: %P%nSubject: %s%n%n"
              "%w(0,4,4)%B%w(0,0,0)")

MERGE = "git-merge"
EMPTY = "git-empty"
SKIPPED = "git-skipped"


@dataclass(frozen=True, slots=True)
class GitOrigin:
    """Where a git session came from (its header)."""

    kind: str  # "range" or "worktree"
    base: str  # the commit the review starts from
    head: str  # the range's last commit (the base itself for a working tree)
    worktree: str = ""
    skipped: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
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
    lines.extend(f"# skipped {json.dumps([path, why], ensure_ascii=False)}"
                 for path, why in origin.skipped)
    return "".join(line + "\n" for line in lines)


def read_origin(text: str, source: str = "session") -> GitOrigin:
    """The header of a git session; a clean error naming the line when it is malformed."""
    lines = text.lstrip("\ufeff").split("\n")
    if not lines or not lines[0].startswith(MARKER):
        raise SessionFormatError(f"not a reviewtui git session (no {MARKER.strip()!r} line)",
                                 source=source, line=1, rule="git-header")
    kind = lines[0][len(MARKER):].strip()
    if kind not in KINDS:
        raise SessionFormatError(f"unknown git session kind {kind!r}", source=source, line=1,
                                 rule="git-header")
    fields: dict[str, str] = {}
    skipped: list[tuple[str, str]] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.startswith("# "):
            break
        name, _, value = line[2:].partition(" ")
        try:
            if name == "skipped":
                path, why = json.loads(value)
                skipped.append((str(path), str(why)))
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
                     fields.get("worktree", ""), tuple(skipped))


def commits_in(lines: Sequence[str]) -> list[CommitInfo]:
    """The commits of a ``git log`` text written with :data:`LOG_FORMAT`."""
    starts = [i for i, line in enumerate(lines) if COMMIT_LINE.match(line)]
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


def import_git(text: str, source: str, *, root: str | None = None) -> Session:
    """A git session file (see the module docstring) as a session."""
    from reviewtui.core.importers.unified import import_unified  # not for detection

    origin = read_origin(text, source)
    lines = text.split("\n")
    commits = commits_in(lines)
    try:
        wanted = bool(commits) or origin.kind == "worktree"
        diffs = import_unified(text, source, root=root).turns if wanted else ()
    except SessionFormatError:  # not a single diff in the whole range
        diffs = ()
    turns: list[Turn] = []
    if origin.kind == "worktree":
        turns.extend(_worktree_turns(origin, diffs))
    for commit in commits:
        mine = [t for t in diffs if commit.start < t.span.start <= commit.stop]
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
            extra = tuple(notes) if number == 0 else ()
            reply = dataclasses.replace(turn.reply, problems=extra + turn.reply.problems)
            turns.append(Turn(len(turns) + 1, commit.message, reply, turn.span,
                              Span(commit.start + 1, commit.start + 1)))
    title = (f"git {origin.base[:12]}..{origin.head[:12]}" if origin.kind == "range"
             else f"git working tree over {origin.base[:12]}")
    return Session(source, title, "", tuple(turns), format="git")


def _worktree_turns(origin: GitOrigin, diffs: Sequence[Turn]) -> list[Turn]:
    """A working tree's changes: one turn (split only when the diff's order needs it)."""
    notes = tuple(_note(SKIPPED, f"{path}: {why}; left as it is on disk", 1)
                  for path, why in origin.skipped)
    request = f"Uncommitted changes over {origin.base[:12]}"
    if not diffs:
        reply = Reply(Span(1, 1), (), None, (), None, (), notes)
        return [Turn(1, request, reply, Span(1, 1))]
    out: list[Turn] = []
    for number, turn in enumerate(diffs):
        extra = notes if number == 0 else ()
        reply = dataclasses.replace(turn.reply, problems=extra + turn.reply.problems)
        out.append(Turn(number + 1, request, reply, turn.span))
    return out
