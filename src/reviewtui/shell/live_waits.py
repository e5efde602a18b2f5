"""What a live call waits on: a pending change its failure depends on (QA pass s32, F2
and F5), the checkpoint the disk is pinned at (:func:`pinned_before`), or the reviewer's
decision as the state file holds it (:func:`decision_in`).

The workbench shows, and the server evaluates, pending operations as landing. An edit of a
file whose removal waits for the reviewer is then "not found" there, although the disk
still holds the file and the edit lands once the removal is rejected: answering the agent
``not_found`` at once was a promise the review did not keep (the workbench's own gate
later wrote the edit). Such a call waits for the reviewer like any change built on a
pending one, and says which one; a failure no pending change explains is answered at
once, also while a call waits (its predecessor rejected, the file deleted outside).
"""

from __future__ import annotations

import json
from pathlib import Path

from reviewtui.core.agent import answers as agent
from reviewtui.core.engine import Decision, OpKey, Verdict
from reviewtui.core.errors import StateFormatError
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.shell.replay import nested
from reviewtui.shell.state import BlobStore, decode_state, fold, op_fingerprint

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.live import Recorded
    from reviewtui.shell.review import Review

_MAY_LAND = (Status.APPLIED, Status.NEEDS_REVIEW)


def failed(outcome: Outcome) -> bool:
    """An outcome nobody could accept as it stands."""
    return outcome.status not in _MAY_LAND


def pending_cause(review: Review, key: OpKey, outcome: Outcome) -> str:
    """For a failed ``outcome`` of the operation at ``key``: the latest earlier operation
    still pending review that the workbench shows landing on the same path, or on one in
    it or around it ("op 1.1 :rm src/a.py"), which may be why; "" when none (or it did not
    fail)."""
    if not failed(outcome):
        return ""
    path = outcome.path or getattr(review.result(key).op, "path", "") or ""
    cause = ""
    for turn in review.display.turns:
        for result in turn.results:
            if result.key >= key:
                return cause
            if not result.landed or result.decision.verdict is not Verdict.PENDING:
                continue
            op = result.op
            paths = ({p for change in result.outcome.changes for p in change if p}
                     if isinstance(op, ConsoleCommand) else {getattr(op, "path", "")})
            paths.add(result.outcome.path or "")
            # The same path, or a folder of the other's: a pending write into build/
            # makes "build" a folder in the review (QA s32 F15: a write of the file
            # "build" was refused "it is a directory", with none on disk).
            if path and any(p == path or nested(p, path) for p in paths if p):
                cause = (f"op {result.key[0]}.{result.key[1] + 1} "
                         f"{agent.operation_summary(op)}")
    return cause


def rejected_cause(review: Review, key: OpKey, outcome: Outcome) -> str:
    """For an edit at ``key`` not found: the latest earlier operation of its file that the
    reviewer rejected and that wrote the edit's first SEARCH line ("op 1.1 edit notes.txt"),
    which it may have built on; "" when none (QA s44 helper-135 F6: the answer said only
    "SEARCH not found", naming nothing)."""
    op = review.result(key).op
    if outcome.status is not Status.NOT_FOUND or not isinstance(op, Edit):
        return ""
    first = next((line.strip() for line in op.search_lines if line.strip()), "")
    cause = ""
    for turn in review.display.turns:
        for result in turn.results:
            if result.key >= key:
                return cause
            wrote = (result.op.replace_lines if isinstance(result.op, Edit)
                     else result.op.lines if isinstance(result.op, FullFile) else ())
            if (result.decision.verdict is Verdict.REJECTED and first
                    and getattr(result.op, "path", "") == op.path
                    and any(line.strip() == first for line in wrote)):
                cause = (f"op {result.key[0]}.{result.key[1] + 1} "
                         f"{agent.operation_summary(result.op)}")
    return cause


def pinned_before(review: Review, key: OpKey) -> int | None:
    """The checkpoint the disk is pinned at (``ctrl+t``) when ``key``'s turn lies past it:
    an accept of that operation is recorded but not written until the reviewer unpins.
    Checkpoint n is the draft after its first n turns."""
    pin = review.disk_checkpoint
    if pin is None:
        return None
    turns = [turn.index for turn in review.session.turns]
    return pin if key[0] in turns and turns.index(key[0]) >= pin else None


def decision_in(data: bytes, rec: Recorded, blobs: BlobStore, root: Path) -> Decision | None:
    """The decision a state file's bytes hold for ``rec`` (None: none, or unreadable, or
    made for another operation at that key, or in a state not this machine's own for
    ``root``, which decides nothing: QA s46 helper-141 F2, a shipped state answered the
    agent ``applied`` for a change nobody made); ``blobs``: its blob folder (log segments)."""
    from reviewtui.shell.stateseal import can_seal, sealed_here

    try:
        doc = json.loads(data.decode("utf-8"))
        saved = decode_state(doc, blobs)
    except (StateFormatError, ValueError, KeyError, TypeError, RecursionError):
        return None
    if not sealed_here(data) and (can_seal() or saved.root != str(root.resolve())):
        return None
    folded = fold(saved.log)
    for entry in folded.applied:
        for item in entry.items:
            if item.key == rec.key and item.op_hash != op_fingerprint(rec.op):
                return None
    decision = folded.decisions().get(rec.key)
    if decision is None or decision.verdict is Verdict.PENDING:
        return None
    return decision
