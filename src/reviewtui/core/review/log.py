"""The decision log: what the reviewer decided, undid, redid and restored, in order.

Pure records and folds (no I/O): a :class:`LogEntry` per step, :func:`fold` reading the
log into the decisions in force and what undo / redo would do, :func:`reconcile_log`
checking a saved log against the session it is opened with, :func:`time_spent` per
operation. The state file (``reviewtui.shell.state``) stores these records as JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from itertools import count
from pathlib import Path

from reviewtui.core.digests import sha256
from reviewtui.core.engine.decisions import Decision, OpKey, Verdict
from reviewtui.core.engine.lineage import BETWEEN, CHANGE
from reviewtui.core.engine.structural import READINGS
from reviewtui.core.errors import StateFormatError
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile, Operation, Session
from reviewtui.core.record import field, record, replace

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

    from reviewtui.core.engine.lineage import Origin, Pin

_MAX_COUNT = 2**31 - 1  # turns, positions, edit numbers, checkpoints
_MAX_SECONDS = 10.0**9


def _moves_pin(text: str) -> bool:
    """Whether ``text`` is a command's pinned paths (``N:`` and a SHA-256 in hex)."""
    number, colon, digest = text.partition(":")
    return (bool(colon) and number.isascii() and number.isdigit() and len(number) <= 10
            and len(digest) == 64
            and all(c in "0123456789abcdef" for c in digest))


class LogKind(StrEnum):
    DECIDE = "decide"
    UNDO = "undo"
    REDO = "redo"
    RESTORE = "restore"


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise StateFormatError(message)


def _get(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    _expect(isinstance(value, kind) and not (kind is int and isinstance(value, bool)),
            f"field {name!r} is missing or not {kind.__name__}")
    return value


def _is_count(value: Any) -> bool:
    """A turn, position, edit number or checkpoint: a non-negative int of sane size."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_COUNT


def _get_count(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    _expect(isinstance(value, int) and _is_count(value),
            f"field {name!r} is missing or not a count in 0-{_MAX_COUNT}")
    assert isinstance(value, int)
    return value


def op_fingerprint(op: Operation) -> str:
    """A hash of the operation's text: a decision applies only to the text it was made on."""
    if isinstance(op, Edit):
        body = f"edit\0{op.path}\0{op.search}\0{op.replace}"
    elif isinstance(op, FullFile):
        body = f"full\0{op.path}\0{op.content}"
        if op.mode is not None or op.payload is not None:  # binary patches, modes, links
            data = op.payload.data if op.payload is not None else b""
            kind = op.payload.kind if op.payload is not None else ""
            ids = f"{op.payload.old_id}..{op.payload.new_id}" if op.payload is not None else ""
            body += f"\0{op.mode}\0{kind}\0{ids}\0{sha256(data).hexdigest()}"
    else:
        body = f"console\0{op.text}"
    return sha256(body.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def op_label(op: Operation) -> tuple[str, int | None]:
    """(path as written, edit number or None): how a decision names its operation."""
    if isinstance(op, ConsoleCommand):
        return op.text, None
    if isinstance(op, Edit):
        return op.path, op.label
    return op.path, None


@record(frozen=True, slots=True)
class DecisionItem:
    turn: int
    pos: int
    path: str
    edit: int | None
    op_hash: str
    decision: Decision

    @property
    def key(self) -> OpKey:
        return (self.turn, self.pos)

    @classmethod
    def for_op(cls, key: OpKey, op: Operation, decision: Decision) -> DecisionItem:
        path, edit = op_label(op)
        return cls(key[0], key[1], path, edit, op_fingerprint(op), decision)

    def describe(self) -> str:
        edit = f", Edit {self.edit}" if self.edit is not None else ""
        return f"turn {self.turn}, operation {self.pos + 1} ({self.path}{edit})"

    def to_json(self) -> dict[str, Any]:
        decision = self.decision
        return {
            "turn": self.turn, "pos": self.pos, "path": self.path, "edit": self.edit,
            "op": self.op_hash, "verdict": str(decision.verdict),
            "replacement": list(decision.replacement) if decision.replacement is not None
            else None,
            "force": decision.force,
            **({"reason": decision.reason} if decision.reason else {}),
            **({"placement": list(decision.placement), "anchor": list(decision.anchor or ())}
               if decision.placement is not None else {}),
            **({"search": list(decision.search)} if decision.search is not None else {}),
            **({"undoes": decision.undoes} if decision.undoes is not None else {}),
            **({"reading": decision.reading} if decision.reading is not None else {}),
            **({"moves": decision.moves} if decision.moves is not None else {}),
            **({"at": [list(end) if isinstance(end, tuple) else end for end in decision.at]}
               if decision.at is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> DecisionItem:
        _expect(isinstance(data, dict), "a decision is not an object")
        replacement = data.get("replacement")
        _expect(replacement is None or (isinstance(replacement, list)
                and all(isinstance(x, str) for x in replacement)), "bad replacement")
        edit = data.get("edit")
        _expect(edit is None or _is_count(edit), "bad edit number")
        reason = data.get("reason", "")  # absent in state files older than reasons
        _expect(isinstance(reason, str), "bad reason")
        force = data.get("force", False)
        _expect(isinstance(force, bool), "bad force flag")
        verdict = _get(data, "verdict", str)
        _expect(verdict in set(Verdict), f"unknown verdict {verdict[:20]!r}")
        op_hash = _get(data, "op", str)
        # One that matches no operation is only orphaned; the bound keeps the file small.
        _expect(len(op_hash) <= 64, "bad operation hash")
        placement, anchor = _placement(data)
        undoes = data.get("undoes")  # absent in older state files: not checked then
        _expect(undoes is None or (isinstance(undoes, str) and len(undoes) <= 4096
                                   and verdict == "accepted"), "bad undone command")
        reading = data.get("reading")  # absent in older state files: read as the tree says
        _expect(reading is None or (isinstance(reading, str) and reading in READINGS
                                    and verdict == "accepted"),
                "bad command reading")
        moves = data.get("moves")  # absent in older state files: not checked then
        _expect(moves is None or (isinstance(moves, str) and _moves_pin(moves)
                                  and verdict == "accepted" and edit is None),
                "bad command paths")
        decision = Decision(Verdict(verdict),
                            tuple(replacement) if replacement is not None else None,
                            force, reason, placement, anchor, _search(data), undoes,
                            reading, moves, _pin(data))
        return cls(_get_count(data, "turn"), _get_count(data, "pos"),
                   _get(data, "path", str), edit, op_hash, decision)


def _placement(data: dict[str, Any]) -> tuple[tuple[int, int] | None, tuple[str, ...] | None]:
    """A placed edit's lines and the text they held (absent in older state files)."""
    lines = data.get("placement")
    if lines is None:
        return None, None
    _expect(isinstance(lines, list) and len(lines) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in lines)
            and 1 <= lines[0] <= lines[1] < 2**31, "bad placement")
    anchor: Any = data.get("anchor")
    _expect(isinstance(anchor, list) and all(isinstance(x, str) for x in anchor)
            and len(anchor) == lines[1] - lines[0] + 1, "bad placement anchor")
    _expect(data.get("verdict") == "accepted", "a placement belongs to an accepted edit")
    return (lines[0], lines[1]), tuple(anchor)


def _pin(data: dict[str, Any]) -> Pin | None:
    """Where an accepted edit was seen landing (absent in older state files: not checked
    then), as :func:`reviewtui.core.engine.lineage.pin` makes it."""
    raw: Any = data.get("at")
    if raw is None:
        return None
    _expect(data.get("verdict") in ("accepted", "edited"),
            "a landing pin belongs to an accepted or edited edit")
    _expect(isinstance(raw, list) and len(raw) == 5 and raw[2] in (CHANGE, BETWEEN)
            and _is_count(raw[3]) and isinstance(raw[4], str) and len(raw[4]) <= 16,
            "bad landing pin")
    ends: list[Origin] = []
    for end in raw[:2]:
        _expect(isinstance(end, list) and end[:1] in (["o"], ["b"]), "bad landing pin")
        counts = end[1:] if end[0] == "o" else end[2:]
        _expect(len(end) == (4 if end[0] == "o" else 3)
                and all(_is_count(n) for n in counts)
                and (end[0] == "o" or (isinstance(end[1], str) and len(end[1]) <= 64)),
                "bad landing pin")
        ends.append(tuple(end))
    return ends[0], ends[1], raw[2], raw[3], raw[4]


def _search(data: dict[str, Any]) -> tuple[str, ...] | None:
    """The reviewer's own SEARCH for an edit (absent in older state files)."""
    search: Any = data.get("search")
    if search is None:
        return None
    _expect(isinstance(search, list) and all(isinstance(x, str) for x in search),
            "bad search")
    _expect(data.get("verdict") in ("accepted", "edited"),
            "a rewritten SEARCH belongs to an accepted or edited edit")
    return tuple(search)


@record(frozen=True, slots=True)
class LogEntry:
    kind: LogKind  # a plain string is turned into its LogKind
    items: tuple[DecisionItem, ...] = ()
    checkpoint: int | None = None  # restore: the checkpoint on disk (None: the latest)
    seconds: float | None = None  # decide: the reviewer's time since their previous step
    # decide: the step set aside the decisions of a state not this machine's own, saved
    # as they were (where it was saved: "for /x/y", "by another program or machine"):
    # said on every opening while in force, and by the undo that takes them back in (QA
    # s46 helper-141 F1: the MCP server opened such a state, saved it as its own, and
    # the workbench never said what one more u would take in).
    aside: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, LogKind):
            object.__setattr__(self, "kind", LogKind(self.kind))

    def to_json(self) -> dict[str, Any]:
        if self.kind == "decide":
            data: dict[str, Any] = {"kind": "decide",
                                    "items": [item.to_json() for item in self.items]}
            if self.seconds is not None:
                data["seconds"] = round(self.seconds, 1)
            if self.aside:
                data["aside"] = self.aside
            return data
        if self.kind == "restore":
            return {"kind": "restore", "checkpoint": self.checkpoint}
        return {"kind": str(self.kind)}

    @classmethod
    def from_json(cls, data: Any) -> LogEntry:
        _expect(isinstance(data, dict), "a log entry is not an object")
        kind = _get(data, "kind", str)
        if kind == "decide":
            items = data.get("items")
            _expect(isinstance(items, list), "a decide entry has no items")
            seconds = data.get("seconds")
            _expect(seconds is None or (isinstance(seconds, int | float)
                                        and not isinstance(seconds, bool)
                                        and 0 <= seconds <= _MAX_SECONDS),
                    "bad seconds")
            aside = data.get("aside", "")
            _expect(isinstance(aside, str) and len(aside) <= _MAX_ASIDE, "bad aside")
            return cls(LogKind.DECIDE, tuple(DecisionItem.from_json(item) for item in items),
                       seconds=float(seconds) if seconds is not None else None, aside=aside)
        if kind == "restore":
            checkpoint = data.get("checkpoint")
            _expect(checkpoint is None or _is_count(checkpoint), "bad checkpoint")
            return cls(LogKind.RESTORE, checkpoint=checkpoint)
        _expect(kind in ("undo", "redo"), f"unknown log entry kind {kind!r}")
        return cls(LogKind(kind))


_versions = count(1)  # each fold's number: unique in the process (Folded.version)
_KEEP = 8  # steps a fold remembers the changed keys of (Folded.changed_since)
_ABSENT = None  # an undo record's "the key had no decision before"


@record(slots=True)
class Folded:
    """The log read from the start: decisions in force, and what undo / redo would do.

    ``version`` numbers this fold; ``history`` holds, for up to ``_KEEP`` folds before it,
    each one's version and the keys whose decisions may differ from it to the next, so a
    run last given the decisions of an earlier fold learns which keys to compare
    (:meth:`changed_since`) instead of comparing every decision in force."""

    applied: list[LogEntry] = field(default_factory=list)
    undone: list[LogEntry] = field(default_factory=list)  # most recently undone last
    pin: int | None = None
    version: int = field(default_factory=lambda: next(_versions))
    history: tuple[tuple[int, frozenset[OpKey]], ...] = ()
    # decisions(), worked out once for the entries it was worked out from (a replay asks
    # several times: 12 ms a time with 25,000 decisions in force), and for each applied
    # entry the decisions its keys had before it (what taking it back restores).
    _memo: tuple[int, LogEntry | None, dict[OpKey, Decision],
                 list[dict[OpKey, Decision | None]]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def decisions(self) -> dict[OpKey, Decision]:
        """The decisions in force (a new dict: the caller may change it)."""
        return dict(self.in_force())

    def in_force(self) -> Mapping[OpKey, Decision]:
        """The decisions in force, not copied: read it, never change it."""
        applied = self.applied
        last = applied[-1] if applied else None
        memo = self._memo
        if memo is None or memo[0] != len(applied) or memo[1] is not last:
            out: dict[OpKey, Decision] = {}
            memo = self._memo = (len(applied), last, out,
                                 [_apply(entry, out) for entry in applied])
        return memo[2]

    def changed_since(self, version: int | None) -> frozenset[OpKey] | None:
        """The keys whose decisions may differ between the fold numbered ``version`` and
        this one (a superset); None when that fold is not among the last ones remembered."""
        if version == self.version:
            return frozenset()
        for at, (since, _) in enumerate(self.history):
            if since == version:
                return frozenset().union(*(keys for _, keys in self.history[at:]))
        return None


def _apply(entry: LogEntry, out: dict[OpKey, Decision]) -> dict[OpKey, Decision | None]:
    """Apply ``entry``'s items to ``out``; what its keys held before (its undo record)."""
    before: dict[OpKey, Decision | None] = {}
    for item in entry.items:
        key = item.key
        if key not in before:
            before[key] = out.get(key, _ABSENT)
        if item.decision.verdict is Verdict.PENDING:
            out.pop(key, None)
        else:
            out[key] = item.decision
    return before


_MAX_ASIDE = 4096  # characters of a set-aside step's note (a folder's name)
_STEP_WORDS = {Verdict.ACCEPTED: "accept", Verdict.REJECTED: "reject",
               Verdict.EDITED: "edit", Verdict.PENDING: "return to pending"}
_STEPS_WORDS = {Verdict.ACCEPTED: "accepts", Verdict.REJECTED: "rejects",
                Verdict.EDITED: "edits", Verdict.PENDING: "returns to pending"}


def describe_step(entry: LogEntry, *, redo: bool = False) -> str:
    """What an undo (or redo) of ``entry`` takes back (or makes again), in a line: its one
    decision by turn and operation, or its decisions counted by kind and their turns.
    Paths and commands come from the session: the caller shows it as plain text."""
    done = "redone" if redo else "undone"
    items = entry.items
    if entry.aside:
        return (f"set aside again: {len(items)} decision(s) of the review state saved "
                f"{entry.aside}" if redo else f"taken in: the {len(items)} decision(s) of "
                f"the review state saved {entry.aside}, set aside when it was opened")
    if not items:
        return f"{done}: a step with no decisions"
    if len(items) == 1:
        item = items[0]
        name = f"Edit {item.edit} · {item.path}" if item.edit is not None else item.path
        return (f"{done}: the {_STEP_WORDS[item.decision.verdict]} of turn {item.turn} · "
                f"{name}")
    counts: dict[Verdict, int] = {}
    for item in items:
        counts[item.decision.verdict] = counts.get(item.decision.verdict, 0) + 1
    kinds = [f"{count} {_STEP_WORDS[verdict]}" if count == 1 else
             f"{count} {_STEPS_WORDS[verdict]}" for verdict, count in counts.items()]
    turns = sorted({item.turn for item in items})
    where = f"turn {turns[0]}" if len(turns) == 1 else f"turns {turns[0]}-{turns[-1]}"
    if len(kinds) == 1:
        return f"{done}: {kinds[0]} in {where}"
    return f"{done}: {len(items)} decisions in {where} ({', '.join(kinds)})"


def fold(log: Iterable[LogEntry], previous: Folded | None = None) -> Folded:
    """The log read from the start. ``previous``: the fold of the log before its latest
    entries; when this one only adds applied entries to it (a decision, a redo) or only
    takes its last ones back (an undo), its decisions are carried on from there, the
    entries added applied or those taken back undone from their undo records, instead of
    read again from every entry (a bulk accept of 25,000 operations made each later
    decision read them all, twice), and the keys they name are the change (``history``)."""
    folded = Folded()
    for entry in log:
        if entry.kind == "decide":
            folded.applied.append(entry)
            folded.undone.clear()
        elif entry.kind == "undo" and folded.applied:
            folded.undone.append(folded.applied.pop())
        elif entry.kind == "redo" and folded.undone:
            folded.applied.append(folded.undone.pop())
        elif entry.kind == "restore":
            folded.pin = entry.checkpoint
    memo = previous._memo if previous is not None else None
    if memo is None or previous is None:
        return folded
    before, now = previous.applied, folded.applied
    if memo[0] != len(before) or memo[1] is not (before[-1] if before else None):
        return folded
    kept = min(len(before), len(now))
    if not all(a is b for a, b in zip(before[:kept], now[:kept], strict=True)):
        return folded  # (a log rewritten: read whole when asked)
    out, records = dict(memo[2]), memo[3][:kept]
    keys: set[OpKey] = set()
    for undo in reversed(memo[3][kept:]):
        for key, was in undo.items():  # taken back: each key as it was before it
            keys.add(key)
            if was is _ABSENT:
                out.pop(key, None)
            else:
                out[key] = was
    for entry in now[kept:]:
        records.append(_apply(entry, out))
        keys.update(item.key for item in entry.items)
    folded._memo = (len(now), now[-1] if now else None, out, records)
    folded.history = (*previous.history[1 - _KEEP:], (previous.version, frozenset(keys)))
    return folded


def _ops_by_key(session: Session) -> dict[OpKey, Operation]:
    return {(turn.index, pos): op for turn in session.turns
            for pos, op in enumerate(turn.reply.ops)}


def _relocate(item: DecisionItem, session: Session) -> DecisionItem | None:
    """The same operation text elsewhere in its turn, if it is there exactly once."""
    for turn in session.turns:
        if turn.index != item.turn:
            continue
        hits = [pos for pos, op in enumerate(turn.reply.ops)
                if op_fingerprint(op) == item.op_hash]
        if len(hits) == 1:
            return replace(item, pos=hits[0])
    return None


def reconcile_log(log: Sequence[LogEntry], session: Session, state_file: Path
                  ) -> tuple[list[LogEntry], list[dict[str, Any]], list[str]]:
    """(log to use, orphaned items, problems): every mismatch reported one by one.

    When nothing is orphaned the log is returned as saved. Otherwise it is rewritten
    into an equivalent canonical form without the orphans (the decisions in force, then
    the undone ones followed by as many ``undo`` entries), so undo and redo still step
    through the same decisions.
    """
    ops = _ops_by_key(session)
    problems: list[str] = []
    orphaned: list[dict[str, Any]] = []
    changed = False

    def check(item: DecisionItem) -> DecisionItem | None:
        nonlocal changed
        op = ops.get(item.key)
        if op is not None and op_fingerprint(op) == item.op_hash:
            return item
        changed = True
        moved = _relocate(item, session)
        if moved is not None:
            problems.append(f"{item.describe()}: the operation moved to position "
                            f"{moved.pos + 1} of its turn; the decision follows it")
            return moved
        why = ("no longer exists in the session" if op is None
               else "has different text in the session now")
        problems.append(f"{item.describe()}: the operation {why}; the decision "
                        f"({item.decision.verdict}) is kept under 'orphaned' in "
                        f"{state_file.name} and not applied")
        orphaned.append({**item.to_json(), "reason": why})
        return None

    checked: list[LogEntry] = []
    for entry in log:
        if entry.kind != "decide":
            checked.append(entry)
            continue
        items = tuple(kept for kept in (check(item) for item in entry.items) if kept)
        checked.append(replace(entry, items=items))
    if not changed:
        return list(log), orphaned, problems
    return _canonical(fold(checked)), orphaned, problems


def _canonical(folded: Folded) -> list[LogEntry]:
    """A log that folds to ``folded``: what is in force, then the undone steps undone."""
    canonical = [e for e in folded.applied if e.items]
    undone = [e for e in folded.undone if e.items]
    canonical += list(reversed(undone)) + [LogEntry(LogKind.UNDO)] * len(undone)
    if folded.pin is not None:
        canonical.append(LogEntry(LogKind.RESTORE, checkpoint=folded.pin))
    return canonical


def drop_in_force(log: Sequence[LogEntry], keys: set[OpKey]
                  ) -> tuple[list[LogEntry], list[DecisionItem]]:
    """The log without the decisions in force for ``keys`` (undo / redo steps kept).

    Returns the rewritten log and the items taken out (for the ``orphaned`` list).
    """
    folded = fold(log)
    dropped: list[DecisionItem] = []
    applied: list[LogEntry] = []
    for entry in folded.applied:
        kept = tuple(item for item in entry.items if item.key not in keys)
        dropped += [item for item in entry.items if item.key in keys]
        applied.append(replace(entry, items=kept))
    folded.applied = applied
    return _canonical(folded), dropped


def time_spent(log: Iterable[LogEntry]) -> dict[tuple[int, int], float]:
    """Seconds the reviewer spent per decided operation; a bulk step shares its time."""
    spent: dict[tuple[int, int], float] = {}
    for entry in log:
        if entry.kind != "decide" or entry.seconds is None or not entry.items:
            continue
        share = entry.seconds / len(entry.items)
        for item in entry.items:
            key = (item.turn, item.pos)
            spent[key] = spent.get(key, 0.0) + share
    return spent
