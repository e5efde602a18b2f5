"""What every export reads: a session evaluated under the decisions being exported.

The *accepted result* is the project after every operation that landed. Without a review
it is what ``reviewtui apply --yes`` writes (every operation that applies); with a review
state it is the reviewer's draft (only what they accepted or edited). Either way it is a
:class:`~reviewtui.core.engine.SessionRun`; :class:`Accepted` wraps it with where it came
from, and :func:`op_rows` lays its operations out for the reports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reviewtui.core.engine import OpKey, OpResult, SessionRun, Verdict, file_text_for, op_title
from reviewtui.core.lint.findings import Finding
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.model.outcome import FAILED, Outcome, Status
from reviewtui.core.model.records import ConsoleCommand, Operation, Session
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import field, record

FORMATS = ("patch", "markdown", "json", "fileops", "context")


@record(frozen=True, slots=True)
class Accepted:
    """A session evaluated under the decisions an export reports.

    ``reviewed``: the decisions come from a review state file (``state``); otherwise
    every operation that applies was accepted, as ``apply --yes`` does.
    """

    run: SessionRun
    source: str
    reviewed: bool = False
    state: str | None = None
    findings: tuple[Finding, ...] = field(default=())
    # Accepts the saved review held that its opening took back (they no longer land on
    # the files as they are, or the files were put back to the original): (key, why).
    taken_back: tuple[tuple[OpKey, str], ...] = ()
    # A git session's base blob of each file the run touches whose bytes hold a CRLF
    # (path -> blob id): which blob a converting checkout's bytes stand for where no
    # operation's section names it (``core/export/forms.py``).
    base_blobs: Mapping[str, str] = field(default_factory=dict)
    # The files a landed operation left with CRLF that an explicit ``text`` (or ``eol``)
    # attribute makes ``git add`` store with LF whatever the index held (where
    # ``text=auto``/``core.autocrlf`` keep a CRLF blob's CRLF).
    always_text: frozenset[str] = frozenset()
    # The files a landed operation left with CRLF that ``git add`` stores with LF unless
    # the index holds a blob with CRLF at that path (``text=auto``, or ``core.autocrlf``
    # true or input with no ``text`` attribute): the index of the checkout reviewed is
    # the range's base.
    auto_text: frozenset[str] = frozenset()
    # Blob id -> its bytes, read from git, of each blob a section found or left where git's
    # checkout of it is not the blob with every LF written CRLF (a blob of mixed line
    # endings): its bytes cannot be told from the file on disk.
    found_blobs: Mapping[str, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, run: SessionRun, source: str, *, reviewed: bool = False,
           state: str | None = None,
           taken_back: tuple[tuple[OpKey, str], ...] = ()) -> Accepted:
        """With the session's lint findings, each turn linted against its own checkpoint."""
        findings = tuple(lint_session(run.session, file_text_for(run)))
        return cls(run, source, reviewed, state, findings, taken_back)

    @property
    def session(self) -> Session:
        return self.run.session

    @property
    def base(self) -> Tree:
        return self.run.checkpoint(0)

    @property
    def result(self) -> Tree:
        return self.run.checkpoint(len(self.run.states) - 1)

    @property
    def decided_by(self) -> str:
        """One phrase for the reports: where the decisions come from."""
        if self.reviewed:
            return f"the decisions in the review state {self.state or ''}".rstrip()
        return "every operation that applies, as with 'apply --yes'"


def left_out(accepted: Accepted) -> list[OpResult]:
    """The operations the accepted result was meant to hold and does not: without a
    review every operation that does not land (it fails, or is a near match: ``apply
    --yes`` names it and exits 1); with one, each the reviewer accepted or edited that
    does not land (nor waits on a pending one), and each accept the opening took back
    (``taken_back``). Pending and rejected operations are the reviewer's choice."""
    taken = {key for key, _ in accepted.taken_back}
    out = []
    for turn in accepted.run.turns:
        for result in turn.results:
            if result.landed or result.waits_on:
                continue
            verdict = result.decision.verdict
            if not accepted.reviewed or result.key in taken or (
                    verdict in (Verdict.ACCEPTED, Verdict.EDITED)
                    and result.outcome.status in FAILED):
                out.append(result)
    return out


@record(frozen=True, slots=True)
class OpRow:
    """One operation as the reports show it."""

    turn: int
    position: int  # 1-based, in reply order
    op: Operation
    outcome: Outcome
    decision: str
    landed: bool
    findings: tuple[Finding, ...]
    reason: str = ""  # the reviewer's reason for a rejection
    count: str = ""  # what it counts as in the totals (count_label), as everywhere else
    waits_on: str = ""  # an accept not in the result yet: the pending operation it lands on

    @property
    def title(self) -> str:
        return op_title(self.op)


def decision_label(result: OpResult, reviewed: bool) -> str:
    """accepted, forced, edited, rejected, pending; "not applied" when nobody accepted it;
    ", did not land" when an accepted operation no longer lands; ", waits on pending
    turn 1 Edit 1 · a.py" when it lands only on what that pending operation writes (it is
    written once that one is accepted)."""
    verdict = result.decision.verdict
    if not reviewed:
        return "accepted" if result.landed else "not applied"
    if verdict is Verdict.PENDING:
        return "pending"
    if verdict is Verdict.REJECTED:
        return "rejected"
    label = "edited" if verdict is Verdict.EDITED else "accepted"
    if ((result.landed or result.waits_on) and result.decision.force
            and result.outcome.status is not Status.APPLIED):
        label = "forced"
    if result.waits_on:
        return f"{label}, waits on {result.waits_on}"
    return label if result.landed else f"{label}, did not land"


def count_label(result: OpResult, reviewed: bool) -> str:
    """The one definition of the review counts (status line, ``S``, ``stats``, exports):
    pending, accepted, forced, edited, rejected, failed; "not applied" without a review.

    An operation that does not land because it cannot (ambiguous, not found, refused) is
    ``failed`` unless the reviewer rejected it, whether it was left pending or an accept
    of it stopped landing. An accept that waits on an earlier pending operation
    (``waits_on``) counts as accepted: the decision stands, and it is written once that one
    is accepted (rejecting that one makes it fail, and then it counts as failed).
    """
    if result.decision.verdict is Verdict.REJECTED:
        return "rejected" if reviewed else "not applied"
    if not result.landed and not result.waits_on and result.outcome.status in FAILED:
        return "failed"
    label = decision_label(result, reviewed)
    return label.split(",")[0]


def _owns(op: Operation, finding: Finding) -> bool:
    """The finding is on the operation's lines, or about its file (a header's path)."""
    if finding.span.start <= op.span.end and op.span.start <= finding.span.end:
        return True
    return bool(finding.path) and not isinstance(op, ConsoleCommand) and (
        finding.path == op.path)


def op_rows(accepted: Accepted, position: int) -> tuple[list[OpRow], list[Finding]]:
    """The operations of the turn at ``position`` (0-based) in reply order, and the turn's
    findings no operation owns."""
    turn = accepted.session.turns[position]
    results: Sequence[OpResult] = accepted.run.turns[position].results
    findings = [f for f in accepted.findings if f.turn == turn.index]
    rows: list[OpRow] = []
    owned: set[int] = set()
    for pos, result in enumerate(results):
        mine = []
        for n, finding in enumerate(findings):
            if n not in owned and _owns(result.op, finding):
                mine.append(finding)
                owned.add(n)
        rows.append(OpRow(turn.index, pos + 1, result.op, result.outcome,
                          decision_label(result, accepted.reviewed), result.landed,
                          tuple(mine),
                          result.decision.reason if accepted.reviewed and
                          result.decision.verdict is Verdict.REJECTED else "",
                          count_label(result, accepted.reviewed),
                          result.waits_on if accepted.reviewed else ""))
    return rows, [f for n, f in enumerate(findings) if n not in owned]


@record(frozen=True, slots=True)
class Totals:
    turns: int
    operations: int
    landed: int
    failed: int
    by_status: dict[str, int]
    by_decision: dict[str, int]
    findings: dict[str, int]  # by severity
    added: int
    changed: int
    removed: int

    def to_json(self) -> dict[str, object]:
        return {
            "turns": self.turns, "operations": self.operations, "landed": self.landed,
            "failed": self.failed, "by_status": self.by_status,
            "by_decision": self.by_decision, "findings": self.findings,
            "files": {"added": self.added, "changed": self.changed, "removed": self.removed},
        }


def totals(accepted: Accepted, rows: Sequence[OpRow]) -> Totals:
    by_status: dict[str, int] = {}
    by_decision: dict[str, int] = {}
    for row in rows:
        by_status[str(row.outcome.status)] = by_status.get(str(row.outcome.status), 0) + 1
        # Grouped as the status line, S and stats count (a failed operation is failed,
        # not pending), not by each row's own label.
        counted = row.count or row.decision
        by_decision[counted] = by_decision.get(counted, 0) + 1
    severities: dict[str, int] = {}
    for finding in accepted.findings:
        severities[str(finding.severity)] = severities.get(str(finding.severity), 0) + 1
    added = changed = removed = 0
    for old, new in accepted.base.diff(accepted.result).values():
        if old is None:
            added += 1
        elif new is None:
            removed += 1
        else:
            changed += 1
    return Totals(
        turns=len(accepted.session.turns), operations=len(rows),
        landed=sum(row.landed for row in rows),
        failed=sum(row.count == "failed" if row.count else row.outcome.status in FAILED
                   for row in rows),
        by_status=dict(sorted(by_status.items())), by_decision=dict(sorted(by_decision.items())),
        findings=dict(sorted(severities.items())), added=added, changed=changed,
        removed=removed)
