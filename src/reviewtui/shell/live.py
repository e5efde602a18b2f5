"""A live session: an agent's tool calls recorded as a session the workbench reviews.

The coupling between the agent's server (``reviewtui mcp``) and the reviewer's workbench
(``reviewtui open --live``) is three things on disk, each of which survives either side
being killed:

* the **session file**, JSON lines of tool calls (the ``toolcalls`` format): the server only
  appends whole lines (under an ``flock`` of the file, fsynced), the workbench reads it
  again when it grows. A call is recorded before anything is evaluated or written;
* the **review state file** beside it: written only by whoever holds the root lock (the
  workbench while it is open, else the server for the moment of one write); the server
  reads it to learn the reviewer's decision;
* the **root lock**: one writer of the project at a time. Two servers on one root take
  turns for each write; a workbench holds it for as long as it is open.

Who applies an operation that lands: with ``--gate review`` always the reviewer. With
``auto`` (exact and expression-only landings) or ``record`` (anything that lands
without a near match), the server writes it itself when no workbench holds the root;
while a workbench is open, the workbench's own ``--gate`` decides (it is the reviewer's
command line, never the session's), and the server waits for that decision like any
other. The session file says nothing about gates: a session shipped by someone else
cannot accept its own operations.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

from reviewtui.core.engine import Decision, OpKey, Verdict
from reviewtui.core.engine.decisions import accept_lands
from reviewtui.core.errors import LockedError, ReviewtuiError, UsageError
from reviewtui.core.importers.toolcalls import call_problem
from reviewtui.core.lint.project_config import touches_config
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Operation
from reviewtui.core.protocol.config import is_config_path
from reviewtui.core.record import record
from reviewtui.shell.deciding import in_draft
from reviewtui.shell.live_paths import default_session_path, live_state_path
from reviewtui.shell.live_waits import decision_in, failed, pending_cause, pinned_before
from reviewtui.shell.loader import LoadedSession, input_limit, load_session
from reviewtui.shell.lock import RootLock
from reviewtui.shell.review import Review
from reviewtui.shell.state import BlobStore
from reviewtui.shell.statepath import blob_dir_for

FORMAT = "toolcalls"
AUTO_METHODS_EXCLUDED = ("near", "elision", "unicode-punctuation")  # wait for a human (F11)
_READINGS = 20  # readings of a live review taken while the state changes under them


class Gate(StrEnum):
    REVIEW = "review"
    AUTO = "auto"
    RECORD = "record"


def qualifies(gate: Gate, outcome: Outcome, op: Operation | None = None) -> bool:
    """Whether ``gate`` lets an operation with this outcome be applied without a human.

    Never one that writes, moves or removes ``reviewtui.toml``: that file holds the
    reserved paths and the checks, so an agent rewriting it would lift its own limits.
    Judged on the operation's paths (source and destination of a move) as they are
    written, and on the path the engine resolved it to."""
    if outcome.status is not Status.APPLIED or gate is Gate.REVIEW:
        return False
    if op is not None and touches_config(op):
        return False
    if outcome.path and is_config_path(outcome.path):
        return False
    if gate is Gate.RECORD:
        return True
    return not any(word in outcome.method for word in AUTO_METHODS_EXCLUDED)


@record(frozen=True, slots=True)
class Recorded:
    """A call appended to the session: where it is and what it became."""

    key: OpKey
    op: Operation
    line: int


ON_PENDING = -1  # Settled.pinned of an accept that builds on a change still pending
ON_CONFLICT = -2  # ... of an accept whose file changed outside where it writes (F4)
ON_UNWRITTEN = -3  # ... of an accept the workbench saved and has not written yet (F8)


@record(frozen=True, slots=True)
class Settled:
    """What became of a recorded operation."""

    verdict: str  # "applied", "accepted" (not written: pinned), "edited", "rejected",
    outcome: Outcome  # "pending review", or a failure status
    decision: Decision | None = None
    pinned: int | None = None  # accepted, but the disk is pinned at this earlier checkpoint
    # (or ON_PENDING: accepted, but it builds on a change still pending: not on disk yet)
    held: tuple[str, ...] = ()  # not written: open for writing in another program
    waits: str = ""  # "pending review" of a failure a pending change may explain (live_waits)


class LiveSession:
    """The server's side: record calls, evaluate them, wait for or make the decision."""

    def __init__(self, root: Path, session: Path | None = None, *, gate: Gate = Gate.REVIEW,
                 wait: float = 120.0, turn_gap: float = 60.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.root = root.resolve()
        if not self.root.is_dir():
            raise UsageError("the project root is not a directory", source=str(root),
                             rule="root")
        self.session = session if session is not None else default_session_path(self.root)
        self.state = live_state_path(self.session)
        self.gate = gate
        self.wait = wait
        self.turn_gap = turn_gap
        self.clock = clock
        self.sleep = sleep
        self._last_call: float | None = None
        self._request: str | None = None
        self._writer: Review | None = None
        self._writer_mark: tuple[int, int, int] | None = None
        self._parsed: tuple[bytes, LoadedSession] | None = None
        # The last saved_decision: (the state's hash, the call) and its answer.
        self._polled: tuple[tuple[bytes, Recorded], Decision | None] | None = None
        # The MCP server runs each call in a worker thread: appending, and everything done
        # with the one writer review, happens under this lock, one call at a time (two
        # threads in one review wrote edits answered as errors and closed it under others).
        self._lock = threading.RLock()

    # -- recording ----------------------------------------------------------------------
    def record(self, call: dict[str, Any], intent: str = "") -> Recorded:
        """Append one call (a new turn first when the intent changes or after a pause).

        Nothing is appended that the session's reader would not read back as an operation
        (it would be answered but reviewed nowhere), nor past the size a session may have
        (every later reading of it would fail)."""
        checked = _checked_call(call)
        with self._lock:
            return self._append(checked, intent)

    def _append(self, checked: bytes, intent: str) -> Recorded:
        intent = " ".join(intent.split())[:500]
        now = self.clock()
        with _appending(self.session) as fd:
            data = _read_all(fd)
            if data and not data.endswith(b"\n"):
                # A line cut short by a killed writer was never answered: drop it.
                data = data[:data.rfind(b"\n") + 1]
                os.ftruncate(fd, len(data))
            lines = data.count(b"\n")
            new_turn = (self._request is None or (intent and intent != self._request)
                        or self._last_call is None or now - self._last_call > self.turn_gap)
            out = b""
            request = self._request
            if new_turn:
                request = intent or time.strftime("agent edits, %Y-%m-%d %H:%M:%S")
                out += _jsonl({"turn": _last_turn(data) + 1, "request": request})
            out += checked
            _check_room(self.session, len(data) + len(out))
            os.write(fd, out)
            os.fsync(fd)
            self._request = request
            line = lines + out.count(b"\n")
            # Parsed while no other server can append: the writer review reuses this
            # parse (see _writer_review) instead of reading the whole file again.
            loaded = load_session(self.session, format=FORMAT, root=self.root,
                                  after=self._parsed[1] if self._parsed else None)
            self._parsed = (hashlib.sha256(data + out).digest(), loaded)
        self._last_call = now
        for turn in loaded.session.turns:
            for pos, op in enumerate(turn.reply.ops):
                if op.span.start == line:
                    return Recorded((turn.index, pos), op, line)
        raise UsageError("the call was recorded but did not become an operation",
                         source=f"{self.session}:{line}", rule="live-record")

    # -- evaluating and deciding --------------------------------------------------------
    def open_review(self, *, write: bool) -> Review:
        """A review of the live session: read-only (no lock) or the writer (root lock).
        The session is read on from where the last reading of it stopped."""
        loaded = load_session(self.session, format=FORMAT, root=self.root,
                              after=self._parsed[1] if self._parsed else None)
        if write:
            return Review.open(self.session, self.root, state_path=self.state, format=FORMAT,
                               loaded=loaded)
        return Review.open(self.session, self.root, dry_run=True, state_path=self.state,
                           read_only_state=True, format=FORMAT, loaded=loaded)

    def evaluate(self, key: OpKey) -> Outcome:
        """The operation's outcome in a read-only review, from a consistent reading.

        That review reads the state file, then the files. A workbench that saves its state
        and then writes a file (it always saves first) between the two would make its own
        write look like an outside change the operation no longer lands on: the agent was
        told ``not_found`` for an edit that was being applied. So the state is read again
        after: while it changed meanwhile, the reading is taken again."""
        return self._evaluated(key)[0]

    def _evaluated(self, key: OpKey) -> tuple[Outcome, int | None, str]:
        """:meth:`evaluate`, the checkpoint the disk is pinned at before the operation's
        turn (see :func:`pinned_before`) and the pending change a failure waits on."""
        for _attempt in range(_READINGS):
            outcome, pinned, steady, waits = self._reading(key)
            if steady:
                break
        return outcome, pinned, waits

    def _reading(self, key: OpKey) -> tuple[Outcome, int | None, bool, str]:
        """One reading (see :meth:`_evaluated`), and whether the state held still during it."""
        before = self._state_digest()
        with self.open_review(write=False) as review:
            outcome = review.outcome(key)
            pinned = pinned_before(review, key)
            decided = review.decisions.get(key)
            verdict = decided.verdict if decided is not None and pinned is None else None
            accepted = verdict not in (None, Verdict.REJECTED)
            if accepted and outcome.path in review.conflicts:  # (first: an accept stopped by
                pinned = ON_CONFLICT  # an outside change is not in the draft either, s43)
            elif accepted and not in_draft(review, key):
                pinned = ON_PENDING  # (see Settled)
            elif verdict is not None and review.last_report is not None and (
                    outcome.path in review.last_report.would_write):
                pinned = ON_UNWRITTEN
            waits = pending_cause(review, key, outcome)
        return outcome, pinned, self._state_digest() == before, waits

    def _state_digest(self) -> bytes | None:
        """The state file's content hash (not :meth:`_state_mark`: two saves in a tick)."""
        try:
            return hashlib.sha256(self.state.read_bytes()).digest()
        except OSError:
            return None

    def saved_decision(self, rec: Recorded) -> Decision | None:
        """The decision the state file holds for this operation, if any (never raises).

        Asked every 50 ms while the agent waits for the reviewer: the answer for a state
        file byte for byte the same as at the last question (its hash) is the last answer,
        not a parse of the whole decision log again (measured: 9.6 ms at 1,000 entries, a
        fifth of a core at 20 polls a second; the hash and the read, 0.12 ms)."""
        try:
            data = self.state.read_bytes()
        except OSError:
            return None
        asked = (hashlib.sha256(data).digest(), rec)
        if self._polled is not None and self._polled[0] == asked:
            return self._polled[1]
        decision = decision_in(data, rec, BlobStore(blob_dir_for(self.state)), self.root)
        self._polled = (asked, decision)
        return decision

    def _state_mark(self) -> tuple[int, int, int] | None:
        try:
            st = self.state.stat()
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _writer_review(self) -> Review | None:
        """The server's own writer review with the root's lock, or None while another
        process (a workbench, a second server) holds the root.

        Kept between calls with the lock released, so a call costs the change, not a
        reopen. It is trusted again only while the state file is exactly as it left it;
        otherwise someone else reviewed meanwhile and it starts again from the file.
        """
        cached = self._writer
        if cached is not None:
            try:
                cached.reacquire_lock()
            except LockedError:
                return None
            if self._state_mark() == self._writer_mark:
                try:
                    cached.reload_session(_parse_if_current(self._parsed, self.session))
                    cached.catch_up()
                    return cached
                except ReviewtuiError:
                    pass
            cached.abandon()
            self._writer = None
        try:
            self._writer = self.open_review(write=True)
        except LockedError:
            return None
        return self._writer

    def _park_writer(self) -> None:
        if self._writer is not None:
            try:
                self._writer.release_lock()
                self._writer_mark = self._state_mark()
            except ReviewtuiError:
                self._writer.abandon()
                self._writer = None

    def close(self) -> None:
        """At exit: the writer's state is already saved; let it go."""
        with self._lock:
            if self._writer is not None:
                self._writer.abandon()
                self._writer = None

    def try_apply(self, rec: Recorded) -> Settled | None:
        """Accept as the writer when no workbench holds the root (None: one does).

        A Settled with a decision is this call's answer: written, or (a pending decision)
        accepted but not landing on the disk and taken back; one without a decision is
        only the evaluation.
        """
        with self._lock:
            return self._apply_as_writer(rec)

    def _apply_as_writer(self, rec: Recorded) -> Settled | None:
        review = self._writer_review()
        if review is None:
            return None
        try:
            outcome = review.outcome(rec.key)
            decided = review.decisions.get(rec.key)
            if decided is not None and decided.verdict is not Verdict.PENDING:
                # A reviewer was first; never overrule.
                return _settled(decided, outcome, pinned_before(review, rec.key))
            if not qualifies(self.gate, outcome, rec.op):
                return Settled(str(outcome.status), outcome,
                               waits=pending_cause(review, rec.key, outcome))
            held = review.decide(rec.key, Decision.accept()).held
            landed = review.outcome(rec.key)
            if landed.status is Status.APPLIED and not held and in_draft(review, rec.key):
                return _settled(Decision.accept(), landed, pinned_before(review, rec.key))
            # The accept did not land (a conflict; the file held open for writing; or it
            # builds on a change still pending, which the disk lacks: QA pass 85): nothing
            # written. A gate only accepts what lands: take it back, so that the state,
            # status and diff say what the disk holds.
            review.decide(rec.key, Decision())
            return Settled("pending review", landed, Decision(), held=tuple(held))
        finally:
            self._park_writer()

    def settle(self, rec: Recorded) -> Settled:
        """Evaluate, then apply by the gate or wait for the reviewer (up to ``wait``)."""
        held, waits = False, ""  # (held: another process held the root at the call)
        if self.gate is not Gate.REVIEW:
            # One review does both when no workbench holds the root: evaluate and write.
            done = self.try_apply(rec)
            if done is not None and done.decision is not None:
                return done  # written by this gate
            held = done is None
            if done is not None:
                outcome, waits = done.outcome, done.waits
            else:
                # A workbench holds the root; under its own gate it may well decide while
                # this reading is taken: then the answer is that decision (read once).
                outcome, _pinned, steady, waits = self._reading(rec.key)
                if not steady:
                    decision = self.saved_decision(rec)
                    if decision is not None:
                        return self._decided(rec, decision)
                    outcome, _pinned, waits = self._evaluated(rec.key)
        else:
            outcome, _pinned, waits = self._evaluated(rec.key)
        if failed(outcome):  # nothing to accept, unless a pending change is why: wait then
            return self.wait_for(rec, outcome, waits=waits) if waits else Settled(
                str(outcome.status), outcome)
        if self.gate is Gate.RECORD and not qualifies(self.gate, outcome, rec.op):
            if outcome.status is Status.NEEDS_REVIEW:
                return Settled(str(outcome.status), outcome)  # a near match: reviewed later
            return Settled("pending review", outcome)  # it lands, but only a human writes it
        return self.wait_for(rec, outcome,
                             apply=held and qualifies(self.gate, outcome, rec.op))

    def wait_for(self, rec: Recorded, outcome: Outcome, *, apply: bool = False,
                 waits: str = "") -> Settled:
        """The reviewer's decision, or "pending review" after ``wait`` seconds; a failure no
        pending change explains (any more: see live_waits) is answered at once.

        ``apply``: the root was held when the call came (a workbench, or a second server
        for the moment of its own write); as soon as it is free, this gate applies.
        """
        deadline = self.clock() + self.wait
        seen = self._state_mark()
        while True:
            decision = self.saved_decision(rec)
            if decision is not None:
                return self._decided(rec, decision)
            if (now := self._state_mark()) != seen:
                seen = now
                outcome, _pinned, waits = self._evaluated(rec.key)
                if failed(outcome) and not waits:
                    return Settled(str(outcome.status), outcome)
            if apply and self._root_free():
                done = self.try_apply(rec)
                if done is not None:
                    if done.decision is not None:
                        return done
                    apply = False  # as the writer now: it no longer qualifies
            if self.clock() >= deadline:
                return Settled("pending review", outcome, waits=waits)
            self.sleep(0.05)

    def _root_free(self) -> bool:
        """Whether nobody holds the root's lock right now (a probe: taken and let go)."""
        if self._writer is not None:
            return True  # reacquiring the kept writer is itself the cheap probe
        try:
            RootLock(self.root).acquire().release()
        except LockedError:
            return False
        return True

    def _decided(self, rec: Recorded, decision: Decision) -> Settled:
        try:
            outcome, pinned, _waits = self._evaluated(rec.key)
            for _wait in range(100):  # it saves the decision first, then writes: ~2 s at most
                if pinned != ON_UNWRITTEN:
                    break
                self.sleep(0.02)
                outcome, pinned, _waits = self._evaluated(rec.key)
        except ReviewtuiError:
            outcome, pinned = Outcome(Status.APPLIED), None
        if (pinned is None and decision.verdict is not Verdict.REJECTED
                and not accept_lands(decision, outcome.status, outcome.forceable)):
            # Accepted, but it does not land as the disk now stands (the file changed
            # outside where it writes: a conflict the reviewer settles): not written.
            pinned = ON_CONFLICT
        return _settled(decision, outcome, pinned)


def _parse_if_current(parsed: tuple[bytes, LoadedSession] | None, session: Path
                      ) -> LoadedSession | None:
    """The last ``record``'s parse (with its bytes' hash) if the file is still that."""
    if parsed is None:
        return None
    digest, loaded = parsed
    try:
        if hashlib.sha256(session.read_bytes()).digest() == digest:
            return loaded
    except OSError:
        pass
    return None


@contextlib.contextmanager
def _appending(session: Path) -> Iterator[int]:
    """The session file opened for appending, under its lock (the flock of the file)."""
    try:
        session.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(session, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
    except OSError as exc:  # a folder, a link or no permission there: say so, no trace
        raise UsageError(f"cannot append to the live session: {exc.strerror}",
                         source=str(session), rule="live-session") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # releases the flock


def _settled(decision: Decision, outcome: Outcome, pinned: int | None = None) -> Settled:
    """The answer for a reviewer's decision: ``edited`` for their own replacement or
    their own SEARCH (it may have landed elsewhere), ``accepted`` for an accept the pinned
    disk does not hold yet."""
    if decision.verdict is Verdict.REJECTED:
        return Settled("rejected", outcome, decision)
    if decision.rewritten:
        return Settled("edited", outcome, decision, pinned)
    return Settled("applied" if pinned is None else "accepted", outcome, decision, pinned)


def _checked_call(call: dict[str, Any]) -> bytes:
    """The call's line for the session, or a UsageError saying why the reader would skip it."""
    line = _jsonl(call)
    problem = call_problem(line.decode("utf-8"))
    if problem is not None:
        raise UsageError(f"the call was not recorded: {problem}; nothing was written, fix "
                         "the call and send it again", rule="live-call")
    return line


def _check_room(session: Path, size: int) -> None:
    """A UsageError when the session would grow past what a reading of it accepts."""
    limit = input_limit()
    if size > limit:
        mb = 1024 * 1024
        raise UsageError(
            f"the live session is full ({size / mb:,.1f} MB with this call, a session holds "
            f"at most {limit / mb:,.0f} MB); nothing was recorded or written. The reviewer "
            "reviews this session, then the server starts a new one (--session FILE, or this "
            "file moved aside)", source=str(session), rule="live-session-full")


def _jsonl(obj: dict[str, Any]) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def _last_turn(data: bytes) -> int:
    last = 0
    for raw in data.splitlines():
        if raw.startswith(b'{"turn"'):
            with contextlib.suppress(ValueError):
                value = json.loads(raw).get("turn")
                if isinstance(value, int) and value > last:
                    last = value
    return last


def follow_session(review: Review, gate: str, *, cancelled: Callable[[], bool],
                   interval: float = 0.05, run: Callable[[Callable[[], Any]], Any] | None = None
                   ) -> Iterator[tuple[tuple[OpKey, ...], tuple[OpKey, ...], str]]:
    """The workbench's side: (new keys, keys this gate accepted, problem) as the file grows.

    Polls the file's size and modification time every ``interval`` seconds (the session
    usually lives outside the watched root). The workbench's own ``gate`` accepts what
    qualifies; under ``review`` nothing is accepted without a key press. Reading the file
    again and the gate's accepts are one piece of work handed to ``run`` (the workbench's
    queue of review jobs, so that it never changes the review under a decision or the
    screen; default: done here).
    """
    chosen = Gate(gate)

    def take_in() -> tuple[list[OpKey], list[OpKey]]:
        new = review.reload_session()
        accepted: list[OpKey] = []
        if new and chosen is not Gate.REVIEW:
            accepted = [key for key in new
                        if qualifies(chosen, review.outcome(key), review.result(key).op)]
            if accepted:
                review.decide_many([(key, Decision.accept()) for key in accepted])
        return new, accepted

    last: tuple[int, int] | None = None
    reported = ""
    while not cancelled():
        try:
            st = review.loaded.file.stat()
            seen = (st.st_size, st.st_mtime_ns)
        except OSError:
            seen = None
        if seen is not None and seen != last:
            last = seen
            try:
                new, accepted = run(take_in) if run is not None else take_in()
            except ReviewtuiError as err:
                if str(err) != reported:
                    reported = str(err)
                    yield (), (), reported
            else:
                if new:
                    yield tuple(new), tuple(accepted), ""
        time.sleep(interval)
