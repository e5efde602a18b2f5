"""What evaluating an operation produced: statuses, match results and outcome records."""

from __future__ import annotations

from enum import StrEnum

from reviewtui.core.record import record

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.model.tree import FileState


class Status(StrEnum):
    APPLIED = "applied"
    NEEDS_REVIEW = "needs_review"  # landed only by a near match: a human must look
    AMBIGUOUS = "ambiguous"  # two or more locations: never pick one
    NOT_FOUND = "not_found"
    REFUSED = "refused"  # a rule forbids it (path, reserved, binary, guard, truncation)
    CONFLICT = "conflict"  # the disk changed under it (filled in by the disk shell)
    REJECTED = "rejected"  # the reviewer said no
    SKIPPED = "skipped"  # not evaluated (e.g. turn outside --turns)


# An operation with one of these did not land because it cannot (whether it was left
# pending or accepted): "failed" in every count (core/export/accepted.py's count_label).
FAILED = frozenset({Status.AMBIGUOUS, Status.NOT_FOUND, Status.REFUSED, Status.CONFLICT})


class Diagnosis(StrEnum):
    WHITESPACE_ONLY = "whitespace only"
    CONTENT_DIFFERS = "content differs"
    STALE = "probably stale"
    NOTHING_SIMILAR = "nothing similar"
    PART_OF_A_LINE = "part of a line"  # SEARCH's text is in the file, inside lines
    # An accepted SEARCH now matches other lines than the reviewer saw it replace
    # (reviewtui.core.engine.lineage): where it would land now.
    MOVED = "not where it was accepted"


@record(frozen=True, slots=True)
class Candidate:
    """A region close to a SEARCH that did not match. Lines are 1-based, inclusive."""

    start: int
    end: int
    similarity: float  # 0.0 .. 1.0
    diagnosis: Diagnosis
    preview: tuple[str, ...] = ()

    def lines_named(self) -> str:
        """``line 4`` or ``lines 2-4``, as a message names them."""
        return f"line {self.start}" if self.start == self.end else (
            f"lines {self.start}-{self.end}")

    def to_json(self) -> dict[str, object]:
        return {
            "lines": [self.start, self.end],
            "similarity": round(self.similarity * 100),
            "diagnosis": str(self.diagnosis),
            "preview": list(self.preview),
        }


@record(frozen=True, slots=True)
class MatchResult:
    """The matcher's answer for one search/replace against one file's lines.

    ``start``/``end`` are 0-based, end-exclusive indexes into the file lines that the
    edit replaces; ``new_lines`` is what goes there, already re-expressed in the file's
    own conventions (indentation style, punctuation is kept as the model wrote it in
    new text). ``locations`` are 1-based inclusive ranges (every one, when ambiguous).
    """

    status: Status
    method: str = ""
    start: int = 0
    end: int = 0
    new_lines: tuple[str, ...] = ()
    locations: tuple[tuple[int, int], ...] = ()
    candidates: tuple[Candidate, ...] = ()
    hint: str = ""
    rule: str = ""
    similarity: float | None = None


@record(frozen=True, slots=True)
class Outcome:
    """The result of evaluating one operation in its turn, for the reviewer and the CLI."""

    status: Status
    method: str = ""
    lines: tuple[int, int] | None = None  # 1-based inclusive range in the file before
    locations: tuple[tuple[int, int], ...] = ()
    candidates: tuple[Candidate, ...] = ()
    message: str = ""
    hint: str = ""
    rule: str = ""
    similarity: float | None = None
    before: str = ""  # the region's text before (for the diff view)
    after: str = ""  # the region's text after
    path: str = ""  # the normalised path the operation acted on
    forceable: bool = False
    # What evaluation saw and made, for the diff view, diagnostics and the next edit.
    before_state: FileState | None = None  # the file before the operation
    after_state: FileState | None = None  # the file as the operation leaves it
    cursor: int | None = None  # 0-based index just past the lines it wrote (Edit.follows)
    generated: str = ""  # the built-in generated-file label of ``path`` (a lock file...)
    changes: tuple[tuple[str | None, str | None], ...] = ()  # a command's (old, new) paths
    undid: str = ""  # a ``:undo``: the command it takes back where it is now ("": none)
    reading: str = ""  # a ``:mv``/``:rn`` that ran: how it read (engine.structural.READINGS)
    moves: str = ""  # a command that took paths: what an accept pins (commands.moves_pin)
    engine_outcome: Outcome | None = None  # under CONFLICT: what the engine found itself
    # A git range on a checkout that re-encodes or expands the file (engine/checkout.py):
    # the blob git stores for ``after_state``'s bytes (an export carries the blob).
    stored: bytes | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "status": str(self.status),
            "method": self.method,
            "lines": list(self.lines) if self.lines else None,
            "locations": [list(loc) for loc in self.locations],
            "candidates": [c.to_json() for c in self.candidates],
            "message": self.message,
        }
        if self.hint:
            data["hint"] = self.hint
        if self.rule:
            data["rule"] = self.rule
        if self.similarity is not None:
            data["similarity"] = round(self.similarity * 100)
        return data
