"""A file's patch lands whole or not at all (``apply --yes`` without ``--partial``).

Unified diffs, git ranges and Codex apply_patch carry one patch per file: its hunks were
written against one version of the file and only make sense together (``git apply`` and
``patch`` refuse the whole file when one hunk fails). When some hunks of a file apply and
others do not (the project drifted from the diff's base), writing the ones that apply
leaves a file that is neither the old one nor the one the model meant. So ``apply``
holds back every operation of that file in that turn, and the file's operations in later
turns (they were written against the result), also after a move takes it elsewhere. Pure:
keys and paths in, keys out.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.importers.common import SPLIT_TURN
from reviewtui.core.model.records import CommandName, ConsoleCommand, Operation, Session, Turn

WHOLE_FILE_FORMATS = frozenset({"unified", "git", "apply_patch"})


def file_of(op: Operation) -> str | None:
    """The file an operation belongs to: its path, or where a move takes it, or the one
    file a removal of an imported patch removes (a Delete File of the path a later move of
    the same patch takes: held with it, so the file is not removed while the move that
    would replace it fails, QA s46 helper-146 F7)."""
    if isinstance(op, ConsoleCommand):
        if op.name is CommandName.MV and len(op.args) == 2:
            return normalize_or_none(op.args[1]) or op.args[1]
        if op.name is CommandName.RM and len(op.args) == 1 and op.literal:
            return normalize_or_none(op.args[0]) or op.args[0]
        return None
    return normalize_or_none(op.path) or op.path


def _moved_from(op: Operation) -> str | None:
    """The path a move takes a file from (None: no move)."""
    if isinstance(op, ConsoleCommand) and op.name is CommandName.MV and len(op.args) == 2:
        return normalize_or_none(op.args[0]) or op.args[0]
    return None


def partial_files(session: Session, wanted: Collection[OpKey],
                  failed: Callable[[OpKey], bool], turns: tuple[int, int] | None = None,
                  contained: Callable[[OpKey], bool] = lambda _key: False
                  ) -> dict[OpKey, str]:
    """The wanted operations to hold back, each with the file whose patch is not whole.

    ``failed(key)``: the operation did not apply and the reviewer did not decide it (a
    rejection is a choice, not a failed hunk). Only formats in :data:`WHOLE_FILE_FORMATS`
    are judged, and Claude Code's calls (:func:`_calls_not_whole`); others return nothing.
    ``contained(key)``: a failed operation that holds its own turn's patch of the file but
    not the file's later turns (an apply_patch chunk Codex refused too: the later patches
    were written against the file without that patch, as Codex left it).
    """
    first, last = turns or (1, max((t.index for t in session.turns), default=0))
    if session.format == "claude":
        return _calls_not_whole(session, wanted, failed, first, last)
    if session.format not in WHOLE_FILE_FORMATS:
        return {}
    broken: dict[str, int] = {}  # path -> the first turn where its patch is not whole
    alone: set[tuple[int, str]] = set()  # (turn, path): not whole in that turn only
    groups: dict[tuple[int, str], list[OpKey]] = {}
    for turn in session.turns:
        if not first <= turn.index <= last:
            continue
        for pos, op in enumerate(turn.reply.ops):
            path = file_of(op)
            if path is None:
                continue
            key = (turn.index, pos)
            groups.setdefault((turn.index, path), []).append(key)
            if failed(key) and contained(key):
                alone.add((turn.index, path))
            elif failed(key) and path not in broken:
                broken[path] = turn.index
            source = _moved_from(op)
            if source is not None and source in broken and path not in broken:
                # A file not whole moved on: held at its new path too (a later commit's
                # rename took it there and its hunk landed on a file lacking the earlier
                # ones, a file no commit had: QA s44 helper-134 M1)
                broken[path] = turn.index
    _linked_by_moves(session, first, last, groups, broken, alone)
    held: dict[OpKey, str] = {}
    for (index, path), keys in groups.items():
        since = broken.get(path)
        if (since is None or index < since) and (index, path) not in alone:
            continue
        held.update((key, path) for key in keys if key in wanted)
    return held


def _calls_not_whole(session: Session, wanted: Collection[OpKey],
                     failed: Callable[[OpKey], bool], first: int, last: int
                     ) -> dict[OpKey, str]:
    """The edits of a Claude Code ``MultiEdit`` call (one call: its edits share their
    line) land together or not at all, as Claude Code made them: one that does not land
    holds the call's others (QA s47 helper-148 F4: the first written, the second held as
    ambiguous, a file Claude Code never had, exit 1)."""
    held: dict[OpKey, str] = {}
    for turn in session.turns:
        if not first <= turn.index <= last:
            continue
        calls: dict[tuple[int, str], list[OpKey]] = {}
        for pos, op in enumerate(turn.reply.ops):
            if not isinstance(op, ConsoleCommand) and (path := file_of(op)) is not None:
                calls.setdefault((op.span.start, path), []).append((turn.index, pos))
        for (_, path), keys in calls.items():
            if len(keys) > 1 and any(failed(key) for key in keys):
                held.update((key, path) for key in keys if key in wanted)
    return held


def _linked_by_moves(session: Session, first: int, last: int,
                     groups: dict[tuple[int, str], list[OpKey]], broken: dict[str, int],
                     alone: Collection[tuple[int, str]] = ()) -> None:
    """A move whose source other operations of the same source patch also take (an
    apply_patch swap: ``a`` moved onto ``b``, then ``b``, overwritten, moved onto ``a``;
    the importer splits it into turns that run in the order written) ties the two files:
    when one is not whole, the other is held too, from the patch's first turn (QA s46
    helper-142 M1: the first move was written over ``b`` and the second failed, so what
    ``b`` held was on disk nowhere). Sequential patches that land whole are as written."""
    for unit in source_units(session, first, last):
        start = unit[0].index
        end = unit[-1].index
        for path, since in list(broken.items()):  # (a file is whole across its patch's
            if start < since <= end:               # parts: its Delete File too, F7)
                broken[path] = start
        links = [(source, target) for source, target in _moves(unit)
                 if any((t.index, source) in groups for t in unit)]
        here = {path for index, path in alone if start <= index <= end}
        hit = {path for path, since in broken.items() if since <= end} | here
        moved = {path for pair in links for path in pair}
        for path in _tied(links, hit):
            if broken.get(path, end + 1) > start and (path in moved or path not in here):
                broken[path] = start


def _moves(unit: list[Turn]) -> list[tuple[str, str]]:
    """Each move of ``unit``: (its source, its target)."""
    return [(source, target) for turn in unit for op in turn.reply.ops
            if (source := _moved_from(op)) is not None and (target := file_of(op)) is not None]


def _tied(links: list[tuple[str, str]], paths: set[str]) -> set[str]:
    """``paths`` and every file a chain of ``links`` (moves) ties to one of them."""
    tied = set(paths)
    changed = True
    while changed:
        changed = False
        for pair in links:
            if tied.intersection(pair) and not tied.issuperset(pair):
                tied.update(pair)
                changed = True
    return tied


def source_units(session: Session, first: int, last: int) -> list[list[Turn]]:
    """The turns in ``first..last`` grouped by the source they were read from: a patch the
    importer split into turns (each part says so, ``split-turn``) is one unit."""
    units: list[list[Turn]] = []
    for turn in session.turns:
        if not first <= turn.index <= last:
            continue
        part = next((p.message for p in turn.reply.problems if p.rule == SPLIT_TURN), "")
        if part and not part.startswith("part 1 of") and units and \
                units[-1][-1].request == turn.request:
            units[-1].append(turn)
        else:
            units.append([turn])
    return units


def moves_not_whole(session: Session, wanted: Collection[OpKey],
                    failed: Callable[[OpKey], bool], turns: tuple[int, int] | None = None
                    ) -> dict[OpKey, str]:
    """With ``--partial``: the operations of a file a move takes in a turn where one of its
    operations failed, the move with them. ``--partial`` writes the hunks that apply, and
    a move is no hunk: moved without its edit, a file was written over the one at its new
    name (apply_patch's ``Move to`` overwrites it), whose content was then on disk nowhere
    (QA s46 helper-144 F4)."""
    first, last = turns or (1, max((t.index for t in session.turns), default=0))
    if session.format == "claude":
        return _calls_not_whole(session, wanted, failed, first, last)
    if session.format not in WHOLE_FILE_FORMATS:
        return {}
    held: dict[OpKey, str] = {}
    for turn in session.turns:
        if not first <= turn.index <= last:
            continue
        groups: dict[str, list[OpKey]] = {}
        moved: set[str] = set()
        for pos, op in enumerate(turn.reply.ops):
            path = file_of(op)
            if path is not None:
                groups.setdefault(path, []).append((turn.index, pos))
                if _moved_from(op) is not None:
                    moved.add(path)
        for path in moved:
            if any(failed(key) for key in groups[path]):
                held.update((key, path) for key in groups[path] if key in wanted)
    _held_with_tied_moves(session, first, last, wanted, held)
    return held


def _held_with_tied_moves(session: Session, first: int, last: int,
                          wanted: Collection[OpKey], held: dict[OpKey, str]) -> None:
    """A file held in a patch split into turns holds the files tied to it by a move of
    that patch, in every turn of it (a swap whose second move failed: the first was
    written over b, whose content was then on disk nowhere; QA s46 helper-145 F7)."""
    for unit in source_units(session, first, last):
        ops = [((turn.index, pos), op) for turn in unit
               for pos, op in enumerate(turn.reply.ops)]
        indexes = {turn.index for turn in unit}
        hit = _tied(_moves(unit), {path for key, path in held.items() if key[0] in indexes})
        for key, op in ops:
            path = file_of(op)
            if path in hit and key in wanted:
                held.setdefault(key, path)


CODEX_STOPPED = "codex-stopped"


def codex_stops(session: Session, wanted: Collection[OpKey],
                stops: Callable[[OpKey], bool], turns: tuple[int, int] | None = None
                ) -> dict[OpKey, str]:
    """The wanted operations of an apply_patch patch after its first operation that
    ``stops`` (not written: failed, or held), each with why: Codex runs a patch's sections
    in order and stops at the first that fails, the ones before it written, the ones after
    never (QA s47 helper-148 F11: a section after a failing one was written)."""
    if session.format != "apply_patch":
        return {}
    first, last = turns or (1, max((t.index for t in session.turns), default=0))
    held: dict[OpKey, str] = {}
    for unit in source_units(session, first, last):
        failing: tuple[str, int] | None = None
        for turn in unit:
            for pos, op in enumerate(turn.reply.ops):
                key = (turn.index, pos)
                if failing is None and stops(key):
                    failing = (file_of(op) or str(op), op.span.start)
                elif failing is not None and key in wanted:
                    held[key] = (f"Codex stops at a patch's first section that does not "
                                 f"apply, and {failing[0]}'s (line {failing[1]}) did not: "
                                 f"it never wrote this one (rule {CODEX_STOPPED})")
    return held
