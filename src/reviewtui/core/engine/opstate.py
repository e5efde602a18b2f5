"""What a reviewer sees for one operation: its outcome and their decision, combined."""

from __future__ import annotations

from enum import StrEnum

from reviewtui.core.engine.decisions import Verdict
from reviewtui.core.engine.results import OpResult
from reviewtui.core.model.outcome import Status


class OpState(StrEnum):
    PENDING = "pending"  # applies exactly; waiting for a decision
    FUZZY = "applied-fuzzy"  # applies by an expression-only difference; waiting
    ACCEPTED = "accepted"
    FORCED = "forced"  # accepted by a human over a guard or a near match
    REJECTED = "rejected"
    EDITED = "edited"
    NEEDS_REVIEW = "needs-review"
    AMBIGUOUS = "ambiguous"
    NOT_FOUND = "not-found"
    REFUSED = "refused"
    CONFLICT = "conflict"

    @property
    def glyph(self) -> str:
        return _GLYPHS[self]

    @property
    def label(self) -> str:
        """A short word that carries the meaning without colour."""
        return _LABELS[self]

    @property
    def decided(self) -> bool:
        return self in DECIDED_STATES

    @property
    def failed(self) -> bool:
        return self in FAILED_STATES


# (Sets, not tuples: the review screen asks these of every operation of a changed turn,
# and a tuple's membership test compares each enum member in Python.)
DECIDED_STATES = frozenset({OpState.ACCEPTED, OpState.FORCED, OpState.REJECTED,
                            OpState.EDITED})
FAILED_STATES = frozenset({OpState.AMBIGUOUS, OpState.NOT_FOUND, OpState.REFUSED,
                           OpState.CONFLICT})


# Methods that land exactly as written: by content, by address, or whole files (a git
# binary patch is verified by blob id; a mode or a link is set as sent: they read
# "fuzzy" before, which the README defines as an approximate match: QA s36 helper-106).
EXACT_METHODS = frozenset({"exact", "new-file", "full-file", "fill-empty", "line-range",
                           "hashline", "window", "window-all", "batch", "binary-literal",
                           "binary-delta", "mode", "link", "new-link"})

_GLYPHS = {
    OpState.PENDING: "○", OpState.FUZZY: "◌", OpState.ACCEPTED: "✓", OpState.FORCED: "✓!",
    OpState.REJECTED: "✗", OpState.EDITED: "✎", OpState.NEEDS_REVIEW: "?",
    OpState.AMBIGUOUS: "≡", OpState.NOT_FOUND: "∅", OpState.REFUSED: "⊘",
    OpState.CONFLICT: "⚡",
}
_LABELS = {
    OpState.PENDING: "pending", OpState.FUZZY: "fuzzy", OpState.ACCEPTED: "accepted",
    OpState.FORCED: "forced", OpState.REJECTED: "rejected", OpState.EDITED: "edited",
    OpState.NEEDS_REVIEW: "review", OpState.AMBIGUOUS: "ambiguous",
    OpState.NOT_FOUND: "not found", OpState.REFUSED: "refused", OpState.CONFLICT: "conflict",
}
_BY_STATUS = {
    Status.NEEDS_REVIEW: OpState.NEEDS_REVIEW, Status.AMBIGUOUS: OpState.AMBIGUOUS,
    Status.NOT_FOUND: OpState.NOT_FOUND, Status.REFUSED: OpState.REFUSED,
    Status.CONFLICT: OpState.CONFLICT, Status.REJECTED: OpState.REJECTED,
}


def op_state(result: OpResult, status: Status | None = None,
             draft: OpResult | None = None) -> OpState:
    """``status`` overrides the outcome's (the disk shell reports conflicts); ``draft`` is
    the same operation's result in the decided draft (see :func:`draft_state`)."""
    status = status or result.outcome.status
    if status is Status.CONFLICT:
        return OpState.CONFLICT
    written = draft_state(result, draft)
    if written is not None:
        return written
    verdict = result.decision.verdict
    if verdict is Verdict.REJECTED:
        return OpState.REJECTED
    if verdict is Verdict.EDITED and result.landed:
        return OpState.EDITED
    if verdict is Verdict.ACCEPTED and result.landed:
        return OpState.FORCED if status is not Status.APPLIED else OpState.ACCEPTED
    if status is Status.APPLIED:
        exact = result.outcome.method in EXACT_METHODS or result.op.kind == "console"
        return OpState.PENDING if exact else OpState.FUZZY
    return _BY_STATUS.get(status, OpState.PENDING)


def draft_state(result: OpResult, draft: OpResult | None) -> OpState | None:
    """The state of an accept (or edit) that the decided draft lands but the display run
    does not (it applies a pending operation before it first, on top of which this one is
    not found): accepted, as on disk and as ``stats`` and the exports count it. None for
    every other operation (its display result says it all)."""
    if (draft is None or result.landed or not draft.landed or draft.key != result.key
            or result.decision.verdict not in (Verdict.ACCEPTED, Verdict.EDITED)):
        return None
    return op_state(draft)
