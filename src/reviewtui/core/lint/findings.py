"""What lint reports: one ``Finding`` per broken protocol rule, with where and why."""

from __future__ import annotations

from enum import StrEnum

from reviewtui.core.model.records import Span
from reviewtui.core.record import record

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any


class Severity(StrEnum):
    """How much a finding matters to the reviewer.

    ``error`` means the reply is unsafe or cannot be applied as written; ``warning``
    means it applies but breaks a protocol rule (cost, clarity, auditability);
    ``info`` is a hint the linter cannot be sure about.
    """

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """0 for errors, 1 for warnings, 2 for info: sorts the worst first."""
        return _RANKS[self]


_RANKS = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@record(frozen=True, slots=True)
class Finding:
    """One broken rule.

    ``span`` is in the lines of the file the reply came from (the session file, or
    the message for a JSON transcript); ``path`` is the project file the finding is
    about, empty when it is about the reply as a whole; ``turn`` is the 1-based turn
    index, ``None`` for a lone reply or a session-level problem.
    """

    rule: str
    severity: Severity
    span: Span
    message: str
    path: str = ""
    turn: int | None = None

    @property
    def line(self) -> int:
        return self.span.start

    def sort_key(self) -> tuple[int, int, int, int, str, str]:
        return (
            self.turn or 0,
            self.span.start,
            self.span.end,
            self.severity.rank,
            self.rule,
            self.path,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": str(self.severity),
            "span": self.span.as_list(),
            "message": self.message,
            "path": self.path,
            "turn": self.turn,
        }
