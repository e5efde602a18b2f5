"""Session statistics: what a model's replies did, per turn and for the whole session.

Pure: everything is read from an :class:`~reviewtui.core.export.Accepted` (an evaluated
session with its lint findings and where its decisions come from). Counts:

* operations by kind (edit, full file, console command);
* outcomes by status; file operations that located their text by matching method
  (``exact``, each normalisation, ``near``, ``new-file``...); failures by reason (their
  rule, else their status);
* lint findings by rule;
* tokens: the operations the model sent against the cheapest safe form of what landed
  (the operations of the canonical File Ops replies of ``export --format fileops``), one
  token per four characters (``core/lint/tokens.py``). Operations that did not land cost
  their tokens and add nothing to the cheapest form: a turn whose edits all failed shows
  its whole cost as waste;
* the decisions (accepted, rejected, edited, forced, pending; "not applied" without a
  review);
* syntax errors introduced by an operation that landed (``core/review/diagnostics.py``). They
  cost a parse of every file version a landed operation made (about 1.5 s on the 4 MB Aider
  history): ``session_stats(..., syntax=False)`` leaves them out (``syntax_checked`` says
  so) and :func:`with_syntax` adds them, so a screen can show the rest first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from reviewtui.core.engine import TurnResult
from reviewtui.core.export.accepted import Accepted, count_label
from reviewtui.core.export.fileops import plan_cost, plan_turn, sent_cost
from reviewtui.core.model.outcome import FAILED, Status
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.record import record, replace
from reviewtui.core.review.landed import introduced
from reviewtui.core.text.plural import plural

LOCATED = frozenset({Status.APPLIED, Status.NEEDS_REVIEW})


def _sorted(counter: Mapping[str, int]) -> dict[str, int]:
    """Largest first, then by name: the order the reports and charts show."""
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


@record(frozen=True, slots=True)
class Stats:
    """The counts for one turn (``turn`` is its index) or a whole session (``None``)."""

    turn: int | None
    operations: int
    landed: int  # changed the draft
    by_kind: dict[str, int]
    by_status: dict[str, int]
    by_method: dict[str, int]
    failures: dict[str, int]  # failed operations by rule
    findings: dict[str, int]  # lint findings by rule
    decisions: dict[str, int]
    tokens_sent: int
    tokens_cheapest: int
    syntax_errors: int  # landed operations that introduce a syntax error
    review_seconds: float = 0.0  # the reviewer's time on this turn's decisions
    timed: int = 0  # decided operations with a recorded time
    syntax_checked: bool = True  # False: syntax_errors was not counted (it reads 0)
    waiting: int = 0  # accepts (counted accepted) not landed yet: they wait on a pending one

    @property
    def failed(self) -> int:
        """Failed as the status line counts it (``count_label``): a forced operation that
        landed is not failed, though its outcome is a refusal or a near match."""
        return self.decisions.get("failed", 0)

    @property
    def overhead_percent(self) -> int:
        """How much more the model sent than the cheapest safe form (0 when not more)."""
        if self.tokens_cheapest <= 0 or self.tokens_sent <= self.tokens_cheapest:
            return 0
        return round(100 * (self.tokens_sent - self.tokens_cheapest) / self.tokens_cheapest)

    def to_json(self) -> dict[str, object]:
        return {
            "turn": self.turn, "operations": self.operations, "landed": self.landed,
            "failed": self.failed, "by_kind": self.by_kind,
            "by_status": self.by_status, "by_method": self.by_method,
            "failures": self.failures, "findings": self.findings, "decisions": self.decisions,
            "tokens": {"sent": self.tokens_sent, "cheapest": self.tokens_cheapest},
            "syntax_errors": self.syntax_errors,
            "review_seconds": round(self.review_seconds, 1), "timed_decisions": self.timed,
            "waiting": self.waiting,
        }


@record(frozen=True, slots=True)
class SessionStats:
    source: str
    title: str
    decided_by: str
    total: Stats
    turns: tuple[Stats, ...]

    def to_json(self) -> dict[str, object]:
        return {"session": self.source, "title": self.title, "decided_by": self.decided_by,
                "total": self.total.to_json(), "turns": [t.to_json() for t in self.turns]}


def _syntax_errors(result: TurnResult) -> int:
    """The landed operations of a turn that introduce a syntax error."""
    return sum(1 for op in result.results if op.landed and introduced(op))


def session_stats(accepted: Accepted,
                  time_spent: Mapping[tuple[int, int], float] | None = None, *,
                  syntax: bool = True) -> SessionStats:
    """``time_spent``: seconds per decided operation (turn, position), from a review.

    ``syntax=False``: the syntax errors are not counted (see :func:`with_syntax`).
    """
    spent = time_spent or {}
    run = accepted.run
    turns: list[Stats] = []
    for position, (turn, result) in enumerate(zip(accepted.session.turns, run.turns,
                                                  strict=False)):
        kinds: Counter[str] = Counter()
        statuses: Counter[str] = Counter()
        methods: Counter[str] = Counter()
        failures: Counter[str] = Counter()
        decisions: Counter[str] = Counter()
        for op in result.results:
            outcome = op.outcome
            kinds[str(op.op.kind)] += 1
            statuses[str(outcome.status)] += 1
            is_file_op = not isinstance(op.op, ConsoleCommand)
            if is_file_op and outcome.status in LOCATED and outcome.method:
                methods[outcome.method] += 1
            label = count_label(op, accepted.reviewed)
            if outcome.status in FAILED and label == "failed":
                failures[outcome.rule or str(outcome.status)] += 1
            decisions[label] += 1
        broken = _syntax_errors(result) if syntax else 0
        findings = Counter(f.rule for f in accepted.findings if f.turn == turn.index)
        plan = plan_turn(result, run.states[position], run.checkpoint(position + 1))
        landed = sum(op.landed for op in result.results)
        times = [spent[op.key] for op in result.results if op.key in spent]
        waiting = sum(1 for op in result.results if accepted.reviewed and op.waits_on)
        turns.append(Stats(turn.index, len(result.results), landed, _sorted(kinds),
                           _sorted(statuses), _sorted(methods), _sorted(failures),
                           _sorted(findings),
                           _sorted(decisions), sent_cost(turn), plan_cost(plan), broken,
                           sum(times), len(times), syntax, waiting))
    total = _sum(turns, Counter(f.rule for f in accepted.findings))
    return SessionStats(accepted.source, accepted.session.title, accepted.decided_by, total,
                        tuple(turns))


def with_syntax(stats: SessionStats, accepted: Accepted) -> SessionStats:
    """``stats`` counted with ``syntax=False``, now with the syntax errors counted."""
    if stats.total.syntax_checked:
        return stats
    turns = tuple(replace(t, syntax_errors=_syntax_errors(result), syntax_checked=True)
                  for t, result in zip(stats.turns, accepted.run.turns, strict=False))
    total = replace(stats.total, syntax_errors=sum(t.syntax_errors for t in turns),
                    syntax_checked=True)
    return replace(stats, total=total, turns=turns)


def _merge(parts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    counter: Counter[str] = Counter()
    for part in parts:
        counter.update(part)
    return _sorted(counter)


def _sum(turns: Sequence[Stats], findings: Mapping[str, int]) -> Stats:
    return Stats(
        None, sum(t.operations for t in turns), sum(t.landed for t in turns),
        _merge(t.by_kind for t in turns),
        _merge(t.by_status for t in turns), _merge(t.by_method for t in turns),
        _merge(t.failures for t in turns), _sorted(findings),
        _merge(t.decisions for t in turns), sum(t.tokens_sent for t in turns),
        sum(t.tokens_cheapest for t in turns), sum(t.syntax_errors for t in turns),
        sum(t.review_seconds for t in turns), sum(t.timed for t in turns),
        all(t.syntax_checked for t in turns), sum(t.waiting for t in turns))


# -- text ---------------------------------------------------------------------------------

BAR_WIDTH = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: int, largest: int, width: int = BAR_WIDTH) -> str:
    """A horizontal bar in block characters, ``width`` cells for ``largest``."""
    if largest <= 0 or value <= 0:
        return ""
    eighths = max(1, round(8 * width * value / largest))
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


SECTIONS = (
    ("operations by kind", "by_kind"), ("outcomes by status", "by_status"),
    ("matching methods", "by_method"), ("failures by reason", "failures"),
    ("lint findings by rule", "findings"), ("decisions", "decisions"),
)


def duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m {rest:02d}s" if minutes else f"{rest}s"


def _review_time(stats: Stats) -> str:
    if not stats.timed:
        return "-"
    mean = stats.review_seconds / stats.timed
    return (f"{duration(stats.review_seconds)} over {plural(stats.timed, 'decision')} "
            f"(~{duration(mean)} each)")


def stats_lines(stats: Sequence[SessionStats], *, turns: bool = True) -> list[str]:
    """Plain text: one column per session (side by side when there are two or more)."""
    labels = [s.title or s.source for s in stats]
    rows: list[tuple[str, list[str]]] = [("session", labels)]
    # Where the decisions come from: a saved review's, or "every operation that applies"
    # without one (the workbench's S shows its own review's: said, so the two can differ).
    rows.append(("decisions from", [s.decided_by for s in stats]))
    totals = [s.total for s in stats]
    rows.append(("turns", [str(len(s.turns)) for s in stats]))
    rows.append(("operations", [str(t.operations) for t in totals]))
    rows.append(("landed / failed", [f"{t.landed} / {t.failed}" for t in totals]))
    if any(t.waiting for t in totals):  # accepted, landing once a pending one is accepted
        rows.append(("accepted, waiting", [str(t.waiting) for t in totals]))
    rows.append(("tokens sent / cheapest",
                 [f"~{t.tokens_sent} / ~{t.tokens_cheapest}"
                  + (f" (+{t.overhead_percent}%)" if t.overhead_percent else "")
                  for t in totals]))
    rows.append(("introduce syntax errors", [str(t.syntax_errors) for t in totals]))
    if any(t.timed for t in totals):
        rows.append(("review time", [_review_time(t) for t in totals]))
    for heading, name in SECTIONS:
        keys: list[str] = []
        for total in totals:
            keys += [k for k in getattr(total, name) if k not in keys]
        if not keys:
            continue
        rows.append((f"{heading}:", ["" for _ in stats]))
        for key in keys:
            rows.append((f"  {key}", [str(getattr(t, name).get(key, 0)) for t in totals]))
    width = max(len(label) for label, _ in rows) + 2
    columns = [max(len(values[i]) for _, values in rows) + 2 for i in range(len(stats))]
    out = [label.ljust(width) + "".join(v.ljust(c) for v, c in zip(values, columns,
                                                                    strict=True)).rstrip()
           for label, values in rows]
    if turns and len(stats) == 1:
        # A turn without operations (most of a long chat history: Aider's 1,776 turns hold
        # 531 operations) is counted, not listed (the JSON lists every turn).
        quiet = sum(1 for t in stats[0].turns if not t.operations)
        out += ["", "per turn" + (f" ({plural(quiet, 'turn')} without operations not listed)"
                                  if quiet else "") + ":"]
        for t in stats[0].turns:
            if not t.operations:
                continue
            out.append(f"  turn {t.turn}: {plural(t.operations, 'operation')}, "
                       f"{t.landed} landed, "
                       f"{t.failed} failed, ~{t.tokens_sent} tokens sent "
                       f"(cheapest ~{t.tokens_cheapest})"
                       + (f", {plural(t.syntax_errors, 'syntax error')}"
                          if t.syntax_errors else "")
                       + (f", {t.waiting} accepted waiting on a pending operation "
                          "(not landed yet)" if t.waiting else ""))
    return out
