"""What evaluating a session gives: one result per operation, one per turn, and the
project rules every operation is checked against."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reviewtui.core.engine.decisions import Decision, OpKey
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import ConsoleCommand, Edit, Operation, Turn
from reviewtui.core.paths.safety import ReservedRules
from reviewtui.core.record import field, record


@record(frozen=True, slots=True)
class OpResult:
    key: OpKey
    op: Operation
    outcome: Outcome
    decision: Decision
    landed: bool  # it changed the draft
    # An accept (or edit) that lands only on what an earlier pending operation writes: not
    # in the draft until that one is accepted. Set by the exports (``shell/export.py``) to
    # name the operation it waits on; it counts as accepted (``count_label``).
    waits_on: str = ""


@record(frozen=True, slots=True)
class TurnResult:
    turn: Turn
    results: tuple[OpResult, ...]  # in reply order
    ledger: Sequence[str]  # a tuple, or a Ledger rendered when read (equal to its tuple)

    @property
    def index(self) -> int:
        return self.turn.index


@record(frozen=True, slots=True)
class Rules:
    """The project's constraints: reserved paths, the symbolic links on disk and the
    review's own files."""

    reserved: ReservedRules = field(default_factory=ReservedRules)
    symlinks: Mapping[str, str] = field(default_factory=dict)
    root: str | None = None
    # NFC path -> the name a file has on disk in another Unicode spelling (other_spellings)
    spellings: Mapping[str, str] = field(default_factory=dict)
    # The review's own files inside the root (path -> what it is, e.g. "the review state"):
    # the session file, its review state, the state's .written mark and blob folder. No
    # operation writes them (core/paths/safety.py review_file_of).
    own: Mapping[str, str] = field(default_factory=dict)


def op_title(op: Operation) -> str:
    """An operation as every report names it: ``a.py · Edit 2``, ``a.py · full file``,
    ``a · link -> target`` (a git diff's link), or a console command's text."""
    if isinstance(op, ConsoleCommand):
        return op.text
    if isinstance(op, Edit):
        return f"{op.path} · Edit {op.label}"
    if op.mode is not None:  # (git diffs: modes and links; loaded for them alone)
        from reviewtui.core.engine.filebytes import is_link_mode
        from reviewtui.core.text.visible import visible

        if is_link_mode(op.mode):
            # (its target spelt out: a newline in it forged a line of its own)
            return f"{op.path} · link -> {visible(chr(10).join(op.lines))}"
    return f"{op.path} · full file"
