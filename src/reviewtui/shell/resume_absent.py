"""Reopened over a user's file where the saved accepts had left nothing.

A file the accepts make and then remove or move away, decided in one step ("accept
all", or backwards), never reaches the disk: the replay has nothing to write there, so
no path record is saved for it. Open, the review knows such an absence for its own
(``outside_returns.left_empty``) and keeps a file the user makes there as theirs, an
outside layer over it. Closed, nothing said so: on reopening the user's file was read
as the path's original, the removal no longer landed on it and was taken back, and the
file-making accept wrote its content over the user's (QA round 129w).

:func:`keep_users_over_absence` finds those files on reopening and makes them what they
are while the review is open: the review's absence there is its content and the user's
file an outside change kept on top, written by nothing. :func:`place_saved_base` does
the same for a user's file where the review had moved a folder away: the records of the
folder's files are kept under it, so a move back it holds still comes back.
"""

from __future__ import annotations

from reviewtui.core.engine import OpKey, Verdict
from reviewtui.core.engine.links import is_link
from reviewtui.core.errors import DiskError, PathRefused
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.plan import PathRecord
from reviewtui.shell.in_the_way import accepted_file_at
from reviewtui.shell.outside import absorb
from reviewtui.shell.outside_returns import op_names, set_base
from reviewtui.shell.replay import Directory, read_state, same
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review

_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)


def keep_users_over_absence(review: Review, report: ReplayReport) -> None:
    """Reopened: a file on disk at a path the saved accepts name, with no saved record,
    that the draft would change, and where the draft over no file at all wants none, each
    of those accepts landing (it makes one and takes it away again), is the user's, made
    while the review was closed over the review's absence: kept as an outside layer over
    it (``absorb``), as it is when made while the review is open. A file that was there
    when the review was saved has no record only where the draft left it as it was, so
    the draft with it wants it unchanged: never taken for one. Must run before the saved
    records are checked: what the review wrote elsewhere (the destination of the move)
    fits only the draft without the user's file. A folder there, its files without saved
    records, is the user's as well: its files are left out of the base, as while the
    review is open (``in_the_way.in_users_folder_over_absence``)."""
    naming: dict[str, list[OpKey]] = {}
    for key, decision in review._folded.decisions().items():
        if decision.verdict in _ACCEPTING and key in review._ops:
            for path in op_names(review, key):
                naming.setdefault(path, []).append(key)
    ends = (review._target(), review.evaluation.tree_at(None))
    found: dict[str, FileState] = {}
    folders: dict[str, dict[str, FileState | None]] = {}  # a user's folder: its files
    for path in sorted(naming):
        # The base as loaded is the disk (records aside): read from disk only what is
        # found there, a few paths, not every path the accepts name.
        state = review.base.get(path)
        if state is None:
            under = {name: review.base.get(name) for name in review.base.files_under(path)}
            if under and accepted_file_at(review, path) and not any(
                    name in review._saved_paths for name in under) and isinstance(
                    _read(review, path), Directory):
                folders[path] = under
            continue
        if path in review._saved_paths or path in review._records:
            continue
        # (A link is no text to keep over an absence, and the engine refuses to write
        # through it anyway: a link there takes the accepts back as it does while open.)
        if not is_link(state) and any(not same(tree.get(path), state) for tree in ends) \
                and isinstance(disk := _read(review, path), FileState) and not is_link(disk):
            found[path] = disk
    if not found and not folders:
        return
    changes: dict[str, FileState | None] = {path: None for path in found}
    for under in folders.values():
        changes.update(dict.fromkeys(under))
    for path in changes:
        set_base(review, path, None)
    review._evaluate_all()
    ends = (review._target(), review.evaluation.tree_at(None))
    landed = {result.key for turn in review.draft.turns for result in turn.results
              if result.landed}

    def absent(path: str) -> bool:
        # The absence must be the accepts' own doing, each landing without the file (one
        # that finds nothing to edit or remove leaves nothing too: a file it was given
        # for); under a folder, no file of the draft either.
        return all(key in landed for key in naming[path]) and all(
            tree.get(path) is None and not tree.is_dir(path) for tree in ends)

    kept = {path: disk for path, disk in found.items() if absent(path)}
    dropped = {path: under for path, under in folders.items() if not absent(path)}
    back: dict[str, FileState | None] = {path: disk for path, disk in found.items()
                                         if path not in kept}
    for under in dropped.values():
        back.update(under)
    for path, state in back.items():
        if state is not None:
            set_base(review, path, state)
    if back:
        review._evaluate_all()
    for path, disk in sorted(kept.items()):
        review._records[path] = PathRecord(base=None, seen=None, ref=None)
        absorb(review, path, disk, report)


def place_saved_base(review: Review, path: str, record: PathRecord) -> PathRefused | None:
    """Put a saved record's original at ``path`` in the base tree; the refusal when it
    cannot go there. Where the review last saw nothing at ``path`` (its folder moved
    away), a regular file where the record has a folder on its way, with no saved record
    of its own, is the user's, made where the review had moved that folder away (its
    absence there; while the review was open, or closed): it is taken out of the base,
    as it is while the review is open (the user's file is on disk alone, and the write
    under it fails and is in conflict), so the record is kept and the move taken back
    still comes back once the file is gone (QA round 129w: on reopening the record was
    ignored, the move's destination taken as an original and the folder never came
    back). A link there is not: nothing is placed under a link."""
    base = record.base
    try:
        review.base = review.base.apply({path: base})
        return None
    except PathRefused as refused:
        if record.saved_seen is not None:
            return refused
        parts = path.split("/")
        on_the_way = ["/".join(parts[:n]) for n in range(1, len(parts))]
        users = [folder for folder in on_the_way if folder not in review._saved_paths
                 and isinstance(state := review.base.get(folder), FileState)
                 and not is_link(state)]
        if not users:
            return refused
        tried = review.base
        try:
            review.base = review.base.apply({**dict.fromkeys(users), path: base})
        except PathRefused:
            review.base = tried
            return refused
        return None


def _read(review: Review, path: str) -> FileState | Directory | None:
    """What the disk holds at ``path`` now; None also when it cannot be read."""
    try:
        return read_state(review.root, path)
    except DiskError:
        return None
