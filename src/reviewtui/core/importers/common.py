"""What every importer shares: building replies from operations, turn order, paths.

An importer reads its format into *changes*: the operations one section of the source
asks for, in the order written (``Update File: a`` with ``Move to: b`` is a move and
the edits of ``b``). :func:`turns_from_changes` turns them into turns the engine runs
with the same meaning, and :func:`reply_from_ops` groups operations into the blocks a
:class:`Reply` holds.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterable, Sequence

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import (
    CommandName,
    ConsoleBlock,
    ConsoleCommand,
    Edit,
    FileBlock,
    FullFile,
    GitForms,
    Operation,
    ParseProblem,
    Reply,
    Span,
    Turn,
)
from reviewtui.core.record import field, record, replace

SPLIT_TURN = "split-turn"


@record(slots=True)
class Change:
    """The operations of one section of the source, in the order written."""

    ops: list[Operation] = field(default_factory=list)
    span: Span = field(default_factory=lambda: Span(1, 1))


def ends_as(change: Change, blob: str, before: str = "") -> Change:
    """``change`` with git's ids of the file its section leaves (``blob``) and finds
    (``before``), from the diff's ``index`` line, on the operation that leaves it
    (:class:`GitForms`): the last one, a mode change after it aside (it keeps the
    content). Nothing for an abbreviated or null id, a section that is not whole (its last
    operation cannot apply) or one that ends with a command. A rename finds ``before`` at
    the path it moves from (QA s38 helper-118 F3: without it a rename's file before could
    not be checked)."""
    if len(blob) != 40 or not blob.strip("0"):
        return change
    ops = change.ops
    at = len(ops) - 1
    if at > 0 and _payload(ops[at]) == "keep":
        at -= 1
    last = ops[at] if ops else None
    if isinstance(last, (Edit, FullFile)) and _payload(last) in ("", "literal", "delta"):
        moves = [op for op in ops if isinstance(op, ConsoleCommand)]
        known = len(before) == 40 and before.strip("0") and (
            not moves or (len(moves) == 1 and moves[0].name is CommandName.MV
                          and len(moves[0].args) == 2 and moves[0].args[1] == last.path))
        ops[at] = replace(last, git_forms=GitForms(
            blob, before if known else "", before_path=moves[0].args[0] if known and moves
            else ""))
    return change


def _payload(op: Operation) -> str | None:
    """The kind of a full file's bytes ("" for text); None for another operation."""
    if isinstance(op, FullFile):
        return "" if op.payload is None else op.payload.kind
    return "" if isinstance(op, Edit) else None


def problem(rule: str, message: str, start: int, end: int | None = None,
            severity: str = "error", *, unmade: bool = False) -> ParseProblem:
    return ParseProblem(rule, message, Span(start, max(start, end or start)), severity,
                        unmade)


def format_error(source: str, line: int | None, rule: str, message: str) -> SessionFormatError:
    return SessionFormatError(message, source=source, line=line, rule=rule)


def reply_from_ops(ops: Sequence[Operation], span: Span,
                   problems: Iterable[ParseProblem] = ()) -> Reply:
    """Consecutive file operations on one path share a file block; commands get their own."""
    blocks: list[FileBlock | ConsoleBlock] = []
    run: list[Edit | FullFile] = []

    def close_run() -> None:
        if run:
            first, last = run[0].span, run[-1].span
            numbered: list[Edit | FullFile] = []
            ordinal = 0
            for op in run:
                if isinstance(op, Edit):
                    ordinal += 1
                    if op.ordinal != ordinal:
                        op = replace(op, ordinal=ordinal)
                numbered.append(op)
            blocks.append(FileBlock(run[0].path, Span(first.start, first.start),
                                    Span(first.start, max(first.start, last.end)),
                                    tuple(numbered)))
            run.clear()

    for op in ops:
        if isinstance(op, ConsoleCommand):
            close_run()
            blocks.append(ConsoleBlock(op.span, (op,), fenced=False))
        else:
            if run and run[0].path != op.path:
                close_run()
            run.append(op)
    close_run()
    return Reply(span, tuple(blocks), None, (), None, (), tuple(problems))


def command(name: CommandName, args: Sequence[str], line: int,
            force: bool = False) -> ConsoleCommand:
    """A structural command naming single files literally (no globs, no directories).

    Its text is the File Ops command it amounts to (``:mv -f a b``); the source's own
    line is at its span.
    """
    words = [f":{name}", *(["-f"] if force else []), *(shlex.quote(a) for a in args)]
    return ConsoleCommand(name, tuple(args), force, " ".join(words), Span(line, line),
                          fenced=False, literal=True)


def _paths(op: Operation) -> tuple[str, ...]:
    if isinstance(op, ConsoleCommand):
        return tuple(path_key(arg) for arg in op.args if arg != "-f")
    return (path_key(op.path),)


def path_key(path: str) -> str:
    """A path as sections compare it: stripped, normalised."""
    return posixpath.normpath(path.strip()) if path.strip() else path


def split_for_order(changes: Sequence[Change]) -> list[list[Change]]:
    """Cut the changes into runs the engine's turn order replays as written.

    In a turn the engine runs moves first, then file operations, then removals. A move
    of a path something earlier in the run touched, or anything touching a path an
    earlier change removes, or a path under it or above it (a file replaced by a folder
    of the same name, or the reverse), would then run out of order: such a change starts
    a run.
    """
    parts: list[list[Change]] = [[]]
    touched: set[str] = set()
    removed: set[str] = set()
    above: set[str] = set()  # the folders above a removed path
    for change in changes:
        paths = {p for op in change.ops for p in _paths(op)}
        moves = {p for op in change.ops if isinstance(op, ConsoleCommand)
                 and op.name is CommandName.MV for p in _paths(op)}
        if parts[-1] and (moves & touched or not above.isdisjoint(paths) or any(
                not removed.isdisjoint(with_folders(p)) for p in paths)):
            parts.append([])
            touched, removed, above = set(), set(), set()
        parts[-1].append(change)
        touched |= paths
        for op in change.ops:
            if isinstance(op, ConsoleCommand) and op.name is CommandName.RM:
                for p in _paths(op):
                    removed.add(p)
                    above.update(with_folders(p)[1:])
    return parts


def with_folders(path: str) -> list[str]:
    """``path`` and every folder above it (``a/b/c``: ``a/b/c``, ``a/b``, ``a``)."""
    parts = path.split("/")
    return ["/".join(parts[:n]) for n in range(len(parts), 0, -1)]


def removals_first(changes: Sequence[Change]) -> list[Change]:
    """A diff's sections in the order a replay needs: a section that only removes paths
    goes before an earlier section that makes a path under or above one of them (git
    orders ``x`` before ``x/inner``: a folder replaced by a file of its name came as "make
    ``x``", then "remove ``x/inner``"). A diff describes two snapshots, so the order of
    its sections means nothing else; a removal of the very path made stays after it (a
    link made a file: the removal, then the new file, already in order)."""
    out: list[tuple[int, Change]] = []  # (the position to sort by, the change)
    made: dict[str, int] = {}  # a path an earlier section touches -> its first position
    above: dict[str, int] = {}  # a folder above such a path -> the first position
    for n, change in enumerate(changes):
        paths = [p for op in change.ops for p in _paths(op)]
        if change.ops and all(isinstance(op, ConsoleCommand) and op.name is CommandName.RM
                              for op in change.ops):
            clashes = [above[p] for p in paths if p in above] + [
                made[f] for p in paths for f in with_folders(p)[1:] if f in made]
            if clashes:
                out.append((min(clashes), change))  # (sorted before that one: below)
                continue
        out.append((n, change))
        for p in paths:
            made.setdefault(p, n)
            for folder in with_folders(p)[1:]:
                above.setdefault(folder, n)
    # Stable: a removal moved to position k goes before the section at k (it is sorted
    # by (k, 0) against that section's (k, 1)).
    keyed = [(at, 0 if at != n else 1, n, change)
             for n, (at, change) in enumerate(out)]
    return [change for _, _, _, change in sorted(keyed, key=lambda item: item[:3])]


def turns_from_changes(first_index: int, request: str, changes: Sequence[Change], span: Span,
                       problems: Sequence[ParseProblem] = (),
                       heading: Span | None = None) -> list[Turn]:
    """One turn, or several when the written order needs it (each says why)."""
    parts = split_for_order(changes)
    turns: list[Turn] = []
    for number, part in enumerate(parts):
        ops = [op for change in part for op in change.ops]
        notes = list(problems) if number == 0 else []
        if len(parts) > 1:
            start = part[0].span.start if part else span.start
            notes.append(problem(SPLIT_TURN, f"part {number + 1} of {len(parts)}: this "
                                 "source reuses a path it moves or removes, so its sections "
                                 "are split into turns that run in the order written",
                                 start, severity="info"))
        if len(parts) == 1:
            part_span = span
        else:
            part_span = Span(part[0].span.start, part[-1].span.end) if part else span
        turns.append(Turn(first_index + number, request, reply_from_ops(ops, part_span, notes),
                          part_span, heading))
    return turns


_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")


def relative_path(path: str, bases: Iterable[str | None]) -> str:
    """``path`` relative to the first base it lies under; unchanged when relative or outside.

    An absolute path outside every base stays absolute, so the engine refuses it with
    the ``absolute-path`` rule instead of writing somewhere unexpected.
    """
    windows = bool(_WINDOWS_ABS.match(path))
    if not (path.startswith("/") or windows):
        return path
    probe = path.replace("\\", "/") if windows else path
    probe = posixpath.normpath(probe)
    for base in bases:
        if not base:
            continue
        root = posixpath.normpath(base.replace("\\", "/") if _WINDOWS_ABS.match(base) else base)
        if probe == root:
            continue
        prefix = root.rstrip("/") + "/"
        if probe.startswith(prefix):
            return probe[len(prefix):]
    return path
