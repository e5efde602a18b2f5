"""The reviewer's decisions, and which outcomes join the draft without one."""

from __future__ import annotations

from enum import StrEnum

from reviewtui.core.model.outcome import Status
from reviewtui.core.record import field, record

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.lineage import Pin

OpKey = tuple[int, int]  # (turn index, position of the operation in its reply)


class Verdict(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    EDITED = "edited"  # accepted with the reviewer's own replacement text


@record(frozen=True, slots=True)
class Decision:
    verdict: Verdict = Verdict.PENDING
    replacement: tuple[str, ...] | None = None  # EDITED: new REPLACE (or full-file) lines
    force: bool = False  # a human accepts a near match or a duplicate-line refusal
    reason: str = ""  # REJECTED: the reviewer's one-line reason, for the next prompt
    # ACCEPTED at lines the reviewer chose (1-based, inclusive), which held ``anchor``
    # when they chose them: see reviewtui.core.engine.placed.
    placement: tuple[int, int] | None = None
    anchor: tuple[str, ...] | None = None
    # ACCEPTED / EDITED with the reviewer's own SEARCH: the matching cascade runs on it.
    search: tuple[str, ...] | None = None
    # An accepted ``:undo``: the command it took back when the reviewer accepted it. It
    # lands only while that is still the command it takes back (core/engine/commands.py).
    undoes: str | None = None
    # An accepted ``:mv`` or ``:rn``: how it read when the reviewer accepted it (``into``
    # or ``to`` a folder it names, a rename of a ``path`` or of ``names``: READINGS in
    # reviewtui.core.engine.structural). It keeps that meaning whatever is made there since.
    reading: str | None = None
    # An accepted ``:mv``, ``:rn`` or ``:rm``: the paths it moved or removed when the
    # reviewer accepted it (``N:digest``: :func:`reviewtui.core.engine.commands.moves_pin`).
    # It lands only while it does that again: never on a file made since that a glob, a
    # folder or a part of names now takes in.
    moves: str | None = None
    # An accepted or edited SEARCH edit: the origins of the lines it replaced where the
    # reviewer saw it land. It lands only on lines with those origins (see
    # reviewtui.core.engine.lineage): never somewhere an earlier decision moved it to.
    # Not compared: an accept is the same decision wherever it was pinned (the pin is
    # where it lands as shown, which only deciding.py takes).
    at: Pin | None = field(default=None, compare=False)

    @classmethod
    def accept(cls, *, force: bool = False) -> Decision:
        return cls(Verdict.ACCEPTED, force=force)

    @classmethod
    def reject(cls, reason: str = "") -> Decision:
        return cls(Verdict.REJECTED, reason=" ".join(reason.split()))

    @classmethod
    def place(cls, placement: tuple[int, int], anchor: tuple[str, ...]) -> Decision:
        """Accept an edit at these lines of the current file, which hold ``anchor``."""
        return cls(Verdict.ACCEPTED, placement=placement, anchor=anchor)

    @classmethod
    def with_search(cls, search: tuple[str, ...],
                    replacement: tuple[str, ...] | None = None) -> Decision:
        """Accept an edit with its SEARCH rewritten (and its replacement, if edited)."""
        verdict = Verdict.EDITED if replacement is not None else Verdict.ACCEPTED
        return cls(verdict, replacement=replacement, search=search)

    @classmethod
    def edit(cls, replacement: tuple[str, ...]) -> Decision:
        return cls(Verdict.EDITED, replacement=replacement)

    @property
    def rewritten(self) -> bool:
        """The reviewer's own text went in: their replacement, or their own SEARCH (which
        can make the operation land elsewhere than where its author aimed it)."""
        return self.verdict is Verdict.EDITED or (
            self.verdict is Verdict.ACCEPTED and self.search is not None)


PENDING = Decision()
# What a rejected operation's outcome says (and, with the reviewer's reason, the reports).
REJECTED_MESSAGE = "rejected by the reviewer"


@record(frozen=True, slots=True)
class Policy:
    """Which outcomes a *pending* operation needs to join the draft.

    Headless ``apply --yes`` takes ``applied`` only (``--accept-fuzzy`` adds
    ``needs_review``); the workbench previews pending operations the same way. Refusals
    and ambiguity are never accepted without a human, and ``force`` is never implied.
    """

    pending_joins: frozenset[Status] = frozenset({Status.APPLIED})

    @classmethod
    def headless(cls, *, accept_fuzzy: bool = False) -> Policy:
        statuses = {Status.APPLIED}
        if accept_fuzzy:
            statuses.add(Status.NEEDS_REVIEW)
        return cls(frozenset(statuses))

    @classmethod
    def decided_only(cls) -> Policy:
        """Only what the reviewer accepted: what live replay writes to disk."""
        return cls(frozenset())


def accept_lands(decision: Decision, status: Status, forceable: bool) -> bool:
    """Whether an accepting ``decision`` makes an operation with this outcome land.

    Only an applied outcome, or a forceable one (a near match, a duplicate-line refusal)
    under a forced accept: an accept of anything else would be recorded without doing
    anything, and could land wherever a later change of the file lets it.
    """
    if decision.verdict not in (Verdict.ACCEPTED, Verdict.EDITED):
        return True
    return status is Status.APPLIED or (decision.force and forceable)


def status_words(status: Status) -> str:
    """An outcome's status as a sentence reads it: "an operation that is a near match",
    "... that is not found"."""
    return "a near match" if status is Status.NEEDS_REVIEW else str(status).replace("_", " ")


def refusal_hint(status: Status, *, forceable: bool = False) -> str:
    """What the reviewer can do instead, for an outcome an accept cannot apply to."""
    if status is Status.REFUSED and forceable:  # the duplicate-line guard
        return ("a guard refuses it, which a human may overrule: force it (F) after a "
                "look, or reject it")
    return {
        Status.AMBIGUOUS: "it matches in several places: edit it to pick one, or reject it",
        Status.NOT_FOUND: "its text is not in the file: edit it, or reject it",
        Status.REFUSED: "a safety rule refuses it: reject it",
        Status.NEEDS_REVIEW: "it only nearly matches: force it (F) after a look, or edit it",
    }.get(status, "reject it, or edit it")
