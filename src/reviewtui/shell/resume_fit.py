"""Whether a saved path record is this review's own, on reopening (:func:`drop_unfit_records`).

The state file is untrusted: a record names a file's original, what the review last saw
and wrote there, and an outside change kept on top. Replayed, a record decides what the
next keypress writes, so only a record the disk and the session bear out is replayed; any
other is reported, the file taken as its original as it is, and the record kept under
``orphaned`` in the state file (never applied, so the content it names is not lost).
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.errors import DiskError
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import replace
from reviewtui.core.review.plan import PathRecord, move_ends
from reviewtui.core.review.rebase import OutsideLayer, apply_layer
from reviewtui.shell.outside_returns import drafted_at, set_base
from reviewtui.shell.replay import Directory, read_state, same

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review


def drop_unfit_records(review: Review) -> list[str]:
    """Saved path records the session and the disk do not explain: reported, ignored;
    their paths are returned."""
    touched: set[str] | None = None
    drafts: dict[int, Tree | None] = {}  # the draft at a log length, each made once if asked
    rules = review.rules
    theirs = links_since(review)
    if theirs:  # (not there when the review wrote what the earlier drafts want)
        rules = replace(rules, symlinks={path: target for path, target
                                         in rules.symlinks.items() if path not in theirs})

    def draft(at: int) -> Tree | None:
        if at not in drafts:
            drafts[at] = drafted_at(review, at, [], rules)
        return drafts[at]

    dropped: list[str] = []
    for path, record in sorted(review._records.items()):
        if not record.from_state:
            continue
        try:
            disk = read_state(review.root, path)
        except DiskError:
            continue  # _reconcile makes it a conflict: nothing is written there
        if isinstance(disk, Directory):
            continue
        if touched is None:
            touched = review.evaluation.op_paths(review.base)
            folders = command_paths(review)

        def targets(depth: int, path: str = path,
                    at: int | None = record.saved_written_at) -> list[FileState | None]:
            trees: list[Tree | None] = [review._target()]
            if depth >= 1:
                trees.append(draft(max(len(review._log) - 1, 0)))
            if depth >= 2 and at is not None:
                trees.append(draft(at))
            return [tree.get(path) for tree in trees if tree is not None]

        if path not in touched and path not in folders and not any(
                path.startswith(f"{name}/") for name in folders):
            why = "no operation of the session touches it"
        elif not saved_record_fits(record, disk, targets):
            why = ("the file is as this review left it: an outside change it kept over an "
                   "accept since taken back; nothing on disk vouches for the saved original"
                   if left_outside_change(record, disk)
                   else "the file is what the saved record says the review last wrote, but "
                   "the review's decisions no longer lead to it: one behind it may no longer "
                   "fit the session" if record.seen_last(disk)
                   else "the file on disk is not what this review left there")
        else:
            continue
        del review._records[path]
        set_base(review, path, disk)
        dropped.append(path)
        # Kept in the file (never applied), so an original it names is not lost.
        review.orphaned.append({"path": path, "reason": why,
                                "record": review._saved_paths.get(path)})
        where = review._state_file.path if review._state_file is not None else "state"
        review.state_problems.append(f"{where}: ignored the saved record of {path} ({why}); "
                                     "the file stays as it is and is taken as its original "
                                     "from now on; the saved record is kept in the state file")
    if dropped:
        review._evaluate_all()
    return dropped


def links_since(review: Review) -> set[str]:
    """The saved records' paths that hold a symbolic link where the review had none (its
    original and what it last wrote there are no link): the user's, made over the review's
    file or its absence. The drafts the review wrote before are evaluated without them:
    under them a command the link now refuses did not land then either, and the records
    it wrote (the move's other end) read as no draft's (QA round 129w: a link made where
    a move had written or removed the file, the move back forgotten on reopening)."""
    from reviewtui.core.engine.links import is_link

    out: set[str] = set()
    for path in review.rules.symlinks:
        record = review._records.get(path)
        if record is None or not record.from_state or any(
                state is not None and is_link(state) for state in (record.base, record.ref)):
            continue
        try:
            disk = read_state(review.root, path)
        except DiskError:
            continue
        if isinstance(disk, FileState) and is_link(disk):
            out.add(path)
    return out


def command_paths(review: Review) -> set[str]:
    """The paths the session's console commands name: each, and a file under one, is
    touched by the command whatever it is decided now and wherever it lands. A folder
    moved by a move since rejected (held by the user's file where it was) has its files'
    records checked, not ignored as of no operation, so it comes back once the file is
    gone; so has a move's destination where the user's link at its source now refuses
    the move (QA round 129w)."""
    names = {normalize_or_none(arg) for turn in review.session.turns
             for op in turn.reply.ops if isinstance(op, ConsoleCommand) for arg in op.args}
    return {name for name in names if name}


def saved_record_fits(record: PathRecord, disk: FileState | None,
                      targets: Callable[[int], list[FileState | None]]) -> bool:
    """Whether the disk is what this review could have left at its record's path.

    The disk must hold the saved original, or what the draft wanted at the last or the
    previous log entry (a crash between save and write) or at the review's last write
    there (``written_at``), with the saved outside layer on top if any; or, changed while
    closed, what the review had on disk must be one of those. Anything else means the
    record was not made by this review over this disk: it must not be replayed.
    ``targets(depth)``: those drafts at the path, the last entry's alone (0), with the
    previous entry's (1), and with the one at the last write (2); each deeper one is an
    evaluation of the session of its own, asked for only when the shallower do not fit.

    Why a draft vouches for the original a forged record could name: the layer is the
    disk less a draft over that original, so laid over any other draft over it, the
    original cancels out but where the session's own operations differ.
    """
    data = disk.data if disk is not None else None

    def content(state: FileState | None) -> bytes | None:
        return state.data if state is not None else None

    if same(disk, record.base) or data in [content(state) for state in targets(0)]:
        return True
    wanted = [content(state) for state in targets(1)]
    if data in wanted or _under_layer(record.layer, data, wanted):
        return True
    # What the review last wrote here, kept since as a conflict stopped a later write (a
    # later accept clashing with an outside change kept on top, or with the accept
    # written: QA s43 helper-133 H1, the record ignored and a later accept written over
    # the kept file on opening), and with an outside change on top: the draft at that
    # last write, no longer the last entry's (QA s42 helper-130 M1: reopened, every
    # accept on the file was taken back, also the one on disk).
    if (record.layer is not None or record.seen_last(disk)) and (
            data in (written := [content(state) for state in targets(2)])
            or _under_layer(record.layer, data, written)):
        return True
    if record.seen_last(disk):
        # As left, yet an outside write over nothing this review wanted at those entries:
        # the disk vouches for the outside write alone, not for the saved original or
        # what the review wrote (a forged record could name any original there).
        return False
    # Changed while closed: _reconcile takes the disk as the new base (fine) unless it
    # keeps the change as a layer over what the review had written; that must be ours.
    if (record.saved_seen is None and record.base is not None) or (
            record.saved_seen != (None if record.base is None else record.base.digest)
            and record.ref is not None):
        ref = content(record.ref)
        return ref in wanted or ref in [content(state) for state in targets(2)]
    return True


def _under_layer(layer: OutsideLayer | None, data: bytes | None,
                 wanted: list[bytes | None]) -> bool:
    """Whether ``data`` is the outside ``layer`` kept over one of the ``wanted`` drafts:
    as it was made over it, or laid over it again."""
    if layer is None:
        return False
    if data == layer.theirs and layer.ours in wanted:
        return True
    for want in wanted:
        applied = apply_layer(layer, want)
        if applied.ok and applied.data == data:
            return True
    return False


def left_outside_change(record: PathRecord, disk: FileState | None) -> bool:
    """The disk is what the record says was last seen there, and that is the outside
    change it kept as a layer (what the review wrote under it no longer wanted)."""
    layer = record.layer
    data = disk.data if disk is not None else None
    return (layer is not None and record.seen_last(disk)
            and data == layer.theirs)


def previous_target(review: Review) -> Tree:
    """The disk the review wanted one log entry ago (a crash between save and write)."""
    tree = drafted_at(review, max(len(review._log) - 1, 0), [])
    assert tree is not None  # (a length within the log, no saved original to place)
    return tree


def ends_not_saved(review: Review, tree: Tree) -> None:
    """A state saved before the records kept the ends of the moves their writes were
    (``PathRecord.moved_with``: none of its records has any): those ends, from the saved
    draft's moves (``tree`` its target). The review wrote the draft's moves (or holds
    them, the planner pairing those anyway), so a move taken back after an upgrade is held
    whole too: ``b.py`` kept while a new ``a.py`` is in conflict (QA s47 helper-154 M1:
    ``restore --checkpoint 0`` removed it, the only copy of the moved file)."""
    loaded = [path for path, record in review._records.items() if record.from_state]
    if not loaded or any(review._records[path].moved_with for path in loaded):
        return
    for path, ends in move_ends(review.evaluation.move_pairs(review._folded.pin), tree,
                                loaded).items():
        review._records[path].moved_with = ends
