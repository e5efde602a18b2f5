"""A file deleted outside that comes back, and the base a path is read against.

Moved out of :mod:`.outside`: what the review does when a path it had seen deleted is
there again (:func:`returned`: as the review left it, or as the session started from;
:func:`revive`: other bytes over what the review wrote), and :func:`set_base`, which
every outside change that gives a path a new original goes through; and which links on
disk are the review's own (:func:`foreign_links`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from reviewtui.core.engine import OpKey, Policy, Verdict, evaluate_session
from reviewtui.core.engine.decisions import Decision
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.lineage import remember
from reviewtui.core.engine.links import is_link, link_state
from reviewtui.core.errors import PathRefused
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import replace
from reviewtui.core.review.log import DecisionItem, fold
from reviewtui.core.review.plan import PathRecord, move_ends
from reviewtui.core.review.rebase import apply_layer
from reviewtui.shell.replay import same
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine import Rules
    from reviewtui.shell.review import Review


def returned(review: Review, path: str, record: PathRecord, disk: FileState,
             report: ReplayReport) -> bool:
    """A file deleted outside comes back (a folder moved away and back, git stash pop):
    as the review left it, the review goes on from where it was (the accepts land again,
    an outside change kept on it is kept again); as the session started from, it is put
    back (see :func:`absorb`). False for other bytes: a new file, taken as one."""
    if record.gone is None:
        return False
    base, seen, ref, layer = record.gone
    if not (same(disk, seen) or (same(disk, base) and not same(seen, base))):
        return False
    if not set_base(review, path, base):
        return False
    since = _decided_since(review, path, record.gone_at)
    record.gone = record.gone_at = None
    record.base, record.deleted, record.note = base, False, ""
    if same(disk, seen):
        record.seen, record.ref, record.layer = disk, ref, layer
        report.note(path, "put back outside the workbench as the review left it")
        if since:  # (the replay makes it match them: helper-105, it went unsaid)
            report.note(path, decided_away(since), tell=True)
    else:
        record.put_back_from = seen.data if seen is not None else None
        record.seen = record.ref = disk
        record.layer = None
        report.put_back.append(path)
    return True


def revive(review: Review, path: str, record: PathRecord, disk: FileState) -> list[str]:
    """A file the review had written, deleted outside, made again with other bytes (an
    editor saving by delete and create, a tool regenerating it): the record is put back
    as it was before the deletion, so the new bytes are read as an outside change over
    what the review wrote (kept on top), as they would be had the watcher not seen the
    file gone between. (Back as the review left it or as the session started from:
    :func:`returned`; a file the review had not written is taken as new, as in place.)

    Returns the operations on ``path`` decided otherwise since the review last wrote it
    (while it was away): the file is written as they now say, under the change on top,
    and the reviewer is told which (helper-101: a reject made while the file was away
    came off it with only "rebased over an outside change" to say so)."""
    if record.gone is None:
        return []
    base, seen, ref, layer = record.gone
    if (seen is None or ref is None or same(disk, seen) or same(disk, base)
            or (layer is None and same(seen, base))):
        return []
    if not set_base(review, path, base):
        return []
    since = _decided_since(review, path, record.gone_at)
    record.gone = record.gone_at = None
    record.base, record.seen, record.ref, record.layer = base, seen, ref, layer
    record.deleted, record.note = False, ""
    return since


def _decided_since(review: Review, path: str, at: int | None) -> list[str]:
    """The operations on ``path`` whose decision in force differs from the one after the
    log's first ``at`` entries, each described as the notices describe it, with the
    decision now ("rejected"; "pending" for one undone)."""
    if at is None or not 0 <= at <= len(review._log):
        return []
    then = fold(review._log[:at]).decisions()
    now = review._folded.decisions()
    changed = []
    for key in sorted(set(then) | set(now)):
        if key in review._ops and then.get(key) != now.get(key):
            decision = now.get(key, Decision())
            item = DecisionItem.for_op(key, review._ops[key], decision)
            if item.path == path:
                changed.append(f"{item.describe()} {decision.verdict}")
    return changed


def move_taken_back(review: Review, path: str, record: PathRecord) -> bool:
    """Whether the disk at ``path`` is one end of a move the draft takes back (a file the
    review moved there or away, ``PathRecord.moved_with``, that the draft's moves no
    longer pair it with): a file deleted there then is the one that held the move back
    (the user's, or the other file of a swap), not the original the move back brings."""
    if not record.moved_with:
        return False
    if record.ref is None:  # (the review last removed it: the file deleted was the user's)
        return True
    now = move_ends(review.evaluation.move_pairs(review._folded.pin), review._target(), [path])
    return not set(record.moved_with) <= set(now.get(path, ()))


def decided_away(since: list[str]) -> str:
    """The notice naming what was decided on a file while it was away (deleted outside):
    what the replay then does with the file (written, rebased, in conflict) it says."""
    return ("deleted, then made again outside the workbench; decided while it was away: "
            + ", ".join(since))


def set_base(review: Review, path: str, state: FileState | None) -> bool:
    """Take ``state`` as the base for ``path``; False when the tree cannot hold it. The
    base it replaces is remembered, so accepts pinned on its lines are followed into the
    new one (``core/engine/lineage.py``) instead of landing wherever their text is."""
    record = review._records.get(path)  # (its base as read: the tree's may be unread)
    if record is not None and isinstance(record.base, FileState) and record.base is not state:
        remember(record.base)
    try:
        review.base = review.base.set(path, state) if state is not None else without(review, path)
    except PathRefused as err:  # a file where the tree has a folder, or the reverse
        review._unwritable[path] = err.message
        return False
    return True


def without(review: Review, path: str) -> Tree:
    return review.base.remove(path) if path in review.base else review.base


def forget_unfit_gone(review: Review) -> None:
    """Reopened: each deleted file's saved before-state (``PathRecord.gone``, from the
    state file, which is untrusted) is kept only when :func:`saved_gone_fits` one of the
    drafts the review can have written there; else the file, if it comes back, is taken
    as new (as when nothing was saved), and the reviewer is told. Files deleted at the
    same decision (a folder moved away) are checked with one evaluation per draft."""
    groups: dict[int, list[tuple[str, PathRecord]]] = {}
    for path, record in review._records.items():
        if record.from_state and record.gone is not None:
            groups.setdefault(record.gone_at if record.gone_at is not None else -1,
                              []).append((path, record))
    for at, group in groups.items():
        # The draft at the decision named, and at the end of the log: a log rewritten on
        # loading (an orphaned decision) has other lengths, and one with no decision
        # since the write ends at that draft anyway. Both are the session's own.
        # (The second is evaluated only for records the first does not explain.)
        left = group
        for n in dict.fromkeys((at, len(review._log))):
            tree = drafted_at(review, n, group)
            if tree is not None:
                left = [(p, r) for p, r in left if not saved_gone_fits(r, tree.get(p))]
            if not left:
                break
        where = review._state_file.path if review._state_file is not None else "state"
        for path, record in left:
            record.gone = record.gone_at = None
            review.state_problems.append(
                f"{where}: ignored what the saved review says {path} was before it was "
                "deleted outside (the session does not bear it out); if the file comes "
                "back it is taken as a new file")


def drafted_at(review: Review, at: int, group: list[tuple[str, PathRecord]],
               rules: Rules | None = None) -> Tree | None:
    """The draft after the log's first ``at`` entries, over the originals the saved
    records of ``group`` name, under ``rules`` (the review's by default); None when that
    cannot be (an ``at`` past the log, an original the tree cannot hold)."""
    if not 0 <= at <= len(review._log):
        return None
    folded = fold(review._log[:at])
    tree = review.base
    try:
        for path, record in group:
            assert record.gone is not None
            base = record.gone[0]
            tree = tree.set(path, base) if base is not None else (
                tree.remove(path) if path in tree else tree)
    except PathRefused:
        return None
    states = evaluate_session(review.session, tree, rules=rules or review.rules,
                              policy=Policy.decided_only(),
                              decisions=folded.decisions()).states
    pin = folded.pin
    return (states[-1] if pin is None or pin >= len(states) else states[pin]).tree


def saved_gone_fits(record: PathRecord, wanted: FileState | None) -> bool:
    """Whether the session explains a saved before-state: what the review had written
    there (``ref``) is ``wanted``, a draft over the saved original, and what was on disk
    (``seen``) is that or the original with no layer, or that under the saved outside
    layer (which must then make it: a layer the disk does not show would be written on
    top of every later draft). As a saved record must fit the disk: an original named by
    the state file alone must never be written back."""
    assert record.gone is not None
    base, seen, ref, layer = record.gone
    if seen is None or ref is None or not same(ref, wanted):
        return False
    if layer is None:
        return same(seen, ref) or same(seen, base)
    applied = apply_layer(layer, ref.data)
    return applied.ok and applied.data == seen.data


def forget_own_links(review: Review) -> None:
    """Reopened: the links on disk the review made are not the engine's to refuse."""
    review.rules = replace(review.rules, symlinks=foreign_links(review, review.rules.symlinks))


def foreign_links(review: Review, links: Mapping[str, str]) -> dict[str, str]:
    """The disk's ``links`` but those the review made: a link to the target the review last
    saw there as its own link (reopened: wrote there, its draft a link, its bytes hashed).
    The engine takes a disk link its base lacks for one at every turn: the review's own,
    made by a late turn, refused the earlier turns that put a file at its path, and their
    accepts were taken back on the watcher's event for it, and on reopening (QA s40
    helper-125 m2 b: an export then left them out, exit 1). A hash says nothing of a
    link: one made outside to the bytes of the file the review wrote there is not its own
    (QA s42 helper-128 H1: it was replaced with a file)."""
    out = {}
    for path, target in links.items():
        record = review._records.get(path)
        if record is None or not _own_link(record, link_state(os.fsencode(target))):
            out[path] = target
    return out


def _own_link(record: PathRecord, link: FileState) -> bool:
    if not record.from_state:
        return record.seen is not None and is_link(record.seen) and record.seen.data == link.data
    ref = record.ref  # (reopened: what was seen is a hash of bytes alone)
    return (ref is not None and is_link(ref) and ref.data == link.data
            and link.digest in (record.saved_seen, record.saved_writing))


def respell(review: Review, paths: Iterable[str]) -> bool:
    """Tell the engine about names made outside in another Unicode spelling (a file or a
    folder the watcher saw appear decomposed, as macOS writes names): an accept of the
    composed spelling would write a second one that looks the same (QA s53 helper-225).
    True when any was new."""
    from reviewtui.core.paths.safety import other_spellings

    found: dict[str, str] = {}
    gone: set[str] = set()  # (names no longer there: their refusal goes, helper-226)
    for raw in paths:
        full = os.path.join(review.root, raw)
        if raw.isascii():
            continue
        if not os.path.lexists(full):
            gone.update((raw, raw + "/"))
            continue
        folder = os.path.isdir(full) and not os.path.islink(full)
        named = other_spellings([] if folder else [raw], [raw] if folder else [])
        for composed, name in named.items():
            if not os.path.lexists(os.path.join(review.root, composed.rstrip("/"))):
                found[composed] = name  # (both spellings there: the composed one is its own)
    spellings = review.rules.spellings
    kept = {composed: name for composed, name in spellings.items() if name not in gone}
    if len(kept) == len(spellings) and all(
            spellings.get(composed) == name for composed, name in found.items()):
        return False
    review.rules = replace(review.rules, spellings={**kept, **found})
    return True


def left_empty(review: Review, path: str, record: PathRecord) -> bool:
    """Whether the review's own content at ``path`` is its absence: it wrote there (the
    last write a removal), or an accepted operation names the path (a file made and
    removed or moved away by accepts written in one step never reached the disk: QA s53
    helper-227). A user's file that appears there is theirs, over the review's absence,
    not a new original the accepts rewrite."""
    if {record.written_at, record.saved_written_at} != {None}:
        return True
    if record.deleted:  # (deleted outside: the absence is the user's doing, not the review's)
        return False
    return any(decision.verdict is Verdict.ACCEPTED and path in op_names(review, key)
               for key, decision in review.decisions.items())


def op_names(review: Review, key: OpKey) -> set[str]:
    """The paths an operation acts on: an edit's file, a command's arguments, and what its
    last evaluation moved or removed (a ``:mv`` undone after its destination changed
    outside is stuck there too; an ``:undo`` names no path of its own)."""
    op = review._ops.get(key)
    raw = [op.path] if isinstance(op, Edit | FullFile) else getattr(op, "args", ())
    names = {name for name in map(normalize_or_none, raw) if name}
    result = review.evaluation.peek(key)
    if result is not None:
        names.update(end for pair in result.outcome.changes for end in pair if end)
    return names
