"""A folder standing where a replay is to remove a file, found before anything is written.

Replay writes first and removes after (``replay.write_in_order``: a file's last copy is
never removed before the write that replaces it). A removal that then meets a folder
(the user replaced the file with one) fails after the writes it goes with are made: an
accepted ``:mv a b`` wrote ``b`` and left the user's folder ``a``, half a move, and a file
the user later put back at ``a`` was taken away to ``b`` with no decision on it (QA round
129w). :func:`folders_in_the_way` looks first, so the planner holds the move whole.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from reviewtui.core.model.tree import FileState, Tree
from reviewtui.shell.disk import IN_THE_WAY
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review


def folders_in_the_way(review: Review, changes: Iterable[tuple[str, FileState | None]],
                       report: ReplayReport) -> bool:
    """Mark each path of ``changes`` the replay would remove where the disk holds a folder
    as unwritable (in conflict, tried again once the folder is gone, as a write that met
    one is); True when any was, so the replay is planned again without it. One ``lstat``
    a removal, nothing read: the removal reads the file itself (compare-and-swap); a link
    on the way found here only makes a conflict, as the removal would refuse it."""
    from reviewtui.shell.outside_returns import move_taken_back  # (a cycle)

    found = False
    for path, state in changes:
        if state is not None or path in review._unwritable:
            continue
        try:
            mode = os.lstat(review.root / path).st_mode
        except (OSError, ValueError):
            continue  # (gone, or unreadable: the removal itself says what is wrong there)
        # (The end of a move the draft takes back, a folder now where the review wrote the
        # file: the user took that file away. The move back writes the original, as when
        # the file is deleted: held, the original was never written back, QA round 129w
        # fuzz seed 8538. The removal meets the folder and is in conflict.)
        record = review._records.get(path)
        if stat.S_ISDIR(mode) and (record is None or not move_taken_back(review, path, record)):
            review._unwritable[path] = IN_THE_WAY
            review._refused_by_disk.add(path)
            report.note(path, f"conflict - {IN_THE_WAY}; nothing written there")
            found = True
    return found


def settle_folders(review: Review, tree: Tree) -> None:
    """Forget "a folder is in the way" at each path the draft no longer changes (it wants
    there what the review last saw: nothing, mostly). The mark is for a write or removal
    the folder refused; kept after the draft has taken that back, it held the other ends
    of the moves through the path, and the move back was never written (QA round 129w
    fuzz seed 8831: every accept undone, the original stayed at the moves' destination).
    The folder itself is the user's: nothing is written there either way."""
    from reviewtui.shell.replay import same, want_at  # (replay calls this: a cycle)

    for path in [path for path, why in review._unwritable.items() if why == IN_THE_WAY]:
        wanted = want_at(review, path, tree)
        if wanted.ok and same(wanted.state, review._seen(path)):
            del review._unwritable[path]
            review._refused_by_disk.discard(path)


def folders_gone(review: Review, paths: Iterable[str], report: ReplayReport) -> None:
    """The folder that stood in the way at each of ``paths`` is gone (a file there again,
    or nothing). Where it had replaced a file the review saw, the accepts naming the path
    decided since the review last wrote there were made while that file was not there
    (held by the folder's conflict, never written): they go back to pending, as one log
    step, each said, so no operation takes the file there now (the user's) without a
    decision (QA round 129w: the accepted ``:mv a b`` moved the user's new ``a`` to
    ``b``). Must run before the path is read again: ``seen`` is still the file before
    the folder. Where no file was (a move's destination), the move lands now as it was
    accepted (QA s37 helper-112 M1)."""
    from reviewtui.core.engine import Decision, Verdict
    from reviewtui.core.record import replace
    from reviewtui.core.review.log import DecisionItem, fold
    from reviewtui.shell.outside import pending_again  # (outside calls this: a cycle)
    from reviewtui.shell.outside_returns import op_names

    paths = {path for path in paths if review._seen(path) is not None}
    if not paths:
        return
    now = review._folded.decisions()
    taken: dict[tuple[int, int], DecisionItem] = {}
    for path in sorted(paths):
        record = review._records.get(path)
        at = None if record is None else next(
            (n for n in (record.written_at, record.saved_written_at) if n is not None), None)
        then = fold(review._log[:at]).decisions() if at is not None else {}
        for key, decision in sorted(now.items()):
            if (decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED) and key in review._ops
                    and key not in taken and then.get(key) != decision
                    and path in op_names(review, key)):
                taken[key] = replace(DecisionItem.for_op(key, review._ops[key], decision),
                                     decision=Decision())
    pending_again(review, tuple(taken[key] for key in sorted(taken)), report, lambda item: (
        "accepted while a folder stood where its file was, and never written; the folder "
        "is gone, and what is there now is not the file it was accepted for: its accept "
        "was taken back and it is pending again (accept it again to have it act on what is "
        "there now)"))


def in_users_folder_over_absence(review: Review, path: str, session_paths: set[str]) -> bool:
    """Whether ``path``, a file no operation names, is in a folder the user made where the
    review's own content is the absence of a file: one the accepts made (or wrote) and
    then removed or moved away, nothing of the draft at it or under it, pinned or not.
    Such a file is left out of the base, as the user's file there is kept as a layer over
    that absence (``outside_returns.left_empty``): taken in, the folder turned the
    accepts' file into a path conflict, so they were taken back on their own and the
    move's destination removed (QA round 129w). A write there later (the move taken
    back) meets the folder and is in conflict, nothing written. A folder the accepts
    moved away whole is not such a path: a file saved in it is taken in, and the move
    that would now take it too is taken back (``test_command_paths_pinned``)."""
    parts = path.split("/")
    ends = (review._target(), review.evaluation.tree_at(None))  # (pinned, and not)
    for n in range(1, len(parts)):
        folder = "/".join(parts[:n])
        if folder in session_paths and review.base.get(folder) is None and all(
                tree.get(folder) is None and not tree.is_dir(folder) for tree in ends
        ) and accepted_file_at(review, folder):
            return True
    return False


def accepted_file_at(review: Review, path: str) -> bool:
    """Whether an accept in force acts on a file at ``path`` in the draft: an edit or a
    whole file there, or a command that moved or removed the file there (not a folder it
    named)."""
    from reviewtui.core.engine import Verdict
    from reviewtui.core.engine.file_edits import normalize_or_none
    from reviewtui.core.model.records import Edit, FullFile

    for turn in review.draft.decided_turns():
        for result in turn.results:
            if result.decision.verdict not in (Verdict.ACCEPTED, Verdict.EDITED):
                continue
            op = result.op
            if isinstance(op, Edit | FullFile):
                if normalize_or_none(op.path) == path:
                    return True
            elif any(path in pair for pair in result.outcome.changes):
                return True
    return False


def still_relinked(review: Review, path: str, disk: FileState | None) -> bool:
    """Whether ``path``, in conflict as a link made outside where the review wrote a file
    (or a file where it made a link), still is one: a link saved again there (the same
    target, or another) is not the path given back. Taken as readable again, its conflict
    went and the replay removed the user's link, the draft no longer wanting a file there
    (QA round 129w, fuzz seed 3695)."""
    from reviewtui.core.engine.links import is_link
    from reviewtui.shell.outside import MSG_RELINKED, MSG_UNLINKED  # (a cycle)

    if disk is None:
        return False
    reason = review._unwritable.get(path)
    return (reason == MSG_RELINKED and is_link(disk)) or (
        reason == MSG_UNLINKED and not is_link(disk))
