"""What an opening holds back from a saved review instead of writing it: the decisions of
a state that is not this machine's own (:func:`set_aside`), the accepts on a file whose
saved record cannot be read (:func:`hold_unread`), and those that would change a link the
user made where an ignored record was (:func:`hold_ignored`). Each goes back to pending
as one log step, said, that ``u`` takes back in once the reviewer has read why."""

from __future__ import annotations

import contextlib
from pathlib import Path

from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.errors import DiskError
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import replace
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind, fold
from reviewtui.core.review.plan import op_path
from reviewtui.shell.outside import pending_again
from reviewtui.shell.replay import Directory, read_state, same, want_at
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review


def set_aside(review: Review, path: Path, root: str) -> None:
    """A state saved for another folder (or for none: a state shipped beside a session, a
    hand-made one) decides nothing on its own: its decisions go back to pending as one
    step, which ``u`` takes back once the reviewer has read them, and nothing is written
    on opening (QA s45 helper-137 #1: its accepts were written at once, an ``edited``
    text only it held and a removal among them). Its history is not kept as steps: its
    decisions in force become one step under the set-aside, so no ``u`` or ``U`` reaches
    any other of its steps (QA s46 helper-144 F6: a shipped log ending in a step back to
    pending, or in an undo, had its decisions taken in by the first ``u`` or ``U``, said
    as the reviewer's own), nor any words of its own of where they came from (F9)."""
    decided = dict(fold(review._log).decisions())
    # Decisions an aside step of its own holds pending are its decisions too: a review
    # another machine opened and set aside comes back whole, under one step (QA s46
    # helper-145 F6: the second round trip emptied its log).
    applied = fold(review._log).applied
    for n, entry in enumerate(review._log):
        if entry.aside and any(entry is done for done in applied):
            before = fold(review._log[:n]).decisions()
            decided.update((item.key, before[item.key]) for item in entry.items
                           if item.key not in decided and item.key in before)
    kept = tuple(DecisionItem.for_op(key, review._ops[key], decision)
                 for key, decision in sorted(decided.items())
                 if decision.verdict is not Verdict.PENDING and key in review._ops)
    items = tuple(replace(item, decision=Decision()) for item in kept)
    here = str(review.root.resolve())
    saved = (f"for {root}" if root and root != here else
             "by another program or machine" if root else "for no folder it names")
    review._dirty = review._dirty or bool(review._log)
    review._log = [LogEntry(LogKind.DECIDE, kept)] if kept else []
    if items:
        review._log.append(LogEntry(LogKind.DECIDE, items, aside=saved[:4000]))
        review.set_aside = items
    where = (f"for {root}, and is now opened on {here}" if root and root != here else
             f"by another program or machine (it names {here} but carries no seal of this "
             "machine's)" if root else f"for no folder it names, and is now opened on {here}")
    review.state_problems.append(
        f"{path}: the review was saved {where}"
        + (f": nothing of it was written; its {len(items)} decision(s) are pending again as "
           "one step: read them, and u takes them back in (and writes them)" if items else ""))

def hold_unread(review: Review, paths: list[str], report: ReplayReport) -> None:
    """Paths whose saved record could not be read (the blob of its original is gone: the
    state file moved or copied alone, its blob folder cleared): the file on disk is taken
    as it is, so where an accept in force would write over it, the review cannot tell a
    write cut short from the user's own change since. Such accepts go back to pending, as
    one log step (u writes them), said; nothing is written there on opening (QA s46
    helper-141 F4: a removal ran again over the file the user had put back)."""
    if not paths:
        return
    differs = _differs(review, paths)
    items = tuple(DecisionItem.for_op(key, review._ops[key], Decision())
                  for key, decision in sorted(review._folded.decisions().items())
                  if decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
                  and key in review._ops and op_path(review.result(key)) in differs)
    pending_again(review, items, report, lambda item: (
        f"the saved record of {item.path} cannot be read (its original is missing), and "
        "the file is not what this accept writes: nothing is written there; it is pending "
        "again (u writes it)"))

def hold_ignored(review: Review, paths: list[str], report: ReplayReport) -> None:
    """Paths whose saved record was ignored as not this review's (``resume_fit``) where
    the disk holds a symbolic link: the link is taken as the path's original, and an
    accept in force that would remove it or write over it goes back to pending, as one
    log step (u writes it), said. The review never makes a link where its draft has a
    file, so the link is the user's, made where the review had left something else and
    kept in conflict while it was open; no text layer could carry it over the reopening
    (QA round 129w, fuzz seed 126: the link the user made where an accepted ``:rm`` had
    removed the file was removed on reopening). A regular file there is taken as any
    original (an accepted edit lands on it)."""
    from reviewtui.core.engine.links import is_link
    from reviewtui.shell.outside_returns import op_names  # (outside imports this module)

    links = []
    for path in paths:
        with contextlib.suppress(DiskError):
            disk = read_state(review.root, path)
            if isinstance(disk, FileState) and is_link(disk):
                links.append(path)
    differs = _differs(review, links)
    items = tuple(DecisionItem.for_op(key, review._ops[key], Decision())
                  for key, decision in sorted(review._folded.decisions().items())
                  if decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
                  and key in review._ops and op_names(review, key) & differs)
    pending_again(review, items, report, lambda item: (
        "it would change a symbolic link made outside the workbench (whose saved record "
        "was ignored): nothing is written there; it is pending again (u writes it)"))


def aside_in_force(review: Review) -> int:
    """How many decisions a set-aside step in force holds pending (0: none): ``u`` back
    past it takes them in; until then the review decides nothing of that state."""
    return sum(len(entry.items) for entry in fold(review._log).applied if entry.aside)


def _differs(review: Review, paths: list[str]) -> set[str]:
    """Those of ``paths`` where the draft wants other than the disk holds (a file)."""
    tree = review._target()
    differs: set[str] = set()
    for path in paths:
        try:
            disk = read_state(review.root, path)
        except DiskError:
            continue  # (a conflict: nothing is written there)
        want = want_at(review, path, tree)
        if not isinstance(disk, Directory) and not (want.ok and same(disk, want.state)):
            differs.add(path)
    return differs
