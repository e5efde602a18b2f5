"""The file-tree API an agent uses (seed 001: discover, locate, inspect, mutate, verify).

Reads answer from the disk as it is now. Every mutation is recorded in the live session
first (:mod:`reviewtui.shell.live`), evaluated by the same engine as every session, and
then applied by the gate or by the reviewer; the answer says which. Nothing here writes
the project except through a :class:`~reviewtui.shell.review.Review` holding the root
lock. The MCP wiring is in :mod:`reviewtui.shell.agent_server`; this class is plain Python
so it can be tested and measured without a protocol in between.
"""

from __future__ import annotations

import os
import stat
from functools import partial
from pathlib import Path
from typing import Any

from reviewtui.core.agent import answers as agent
from reviewtui.core.agent.frames import Block, carry_call, disk_frame
from reviewtui.core.agent.outline import OUTLINE_MAX, outline
from reviewtui.core.agent.own_files import PATH_FIELDS, own_file_named, refusal
from reviewtui.core.engine import Verdict
from reviewtui.core.engine.lineage import carried_start
from reviewtui.core.engine.links import is_link, link_target
from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.export.patch import unified_patch
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.importers.toolcalls import LINE_KEYS, sent_revision
from reviewtui.core.model.edit_shapes import STALE_REVISION, content_revision
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import Edit
from reviewtui.core.model.tree import FileState
from reviewtui.core.paths.safety import (
    escapes_via_symlink,
    generated_file,
    glob_match,
    link_target_in_root,
    normalize_path,
    unread_dir_of,
)
from reviewtui.core.record import replace
from reviewtui.core.review.plan import op_path
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.core.text.line_frames import Frames
from reviewtui.shell.disk import target_path
from reviewtui.shell.live import (
    ON_CONFLICT,
    ON_PENDING,
    ON_UNWRITTEN,
    Gate,
    LiveSession,
    Recorded,
    Settled,
)
from reviewtui.shell.live_paths import live_state_path
from reviewtui.shell.live_waits import pinned_before, rejected_cause
from reviewtui.shell.project import Project, load_project
from reviewtui.shell.regex_search import PatternError, bounded_search
from reviewtui.shell.replay import same
from reviewtui.shell.review import Review
from reviewtui.shell.statepath import blob_dir_for

LS_MAX = 300
_LINE_ADDRESSED = frozenset({"line_replace", "batch_edit", "insert"})  # calls by line number


class AgentTools:
    """One agent's view of one project root."""

    def __init__(self, live: LiveSession) -> None:
        self.live = live
        self.root: Path = live.root
        self._own = _own_files(live)

    @classmethod
    def open(cls, root: Path, session: Path | None = None, *, gate: Gate = Gate.REVIEW,
             wait: float = 120.0) -> AgentTools:
        return cls(LiveSession(root, session, gate=gate, wait=wait))

    # -- discover, locate, inspect ------------------------------------------------------
    def _project(self) -> Project:
        return load_project(self.root)

    def ls(self, glob: str = "**") -> str:
        project = self._project()
        entries: list[agent.FileEntry] = []
        matched = 0
        for path, state in sorted(project.tree.items()):
            if glob not in ("", "**", "*") and not glob_match(glob, path):
                continue
            matched += 1
            if len(entries) >= LS_MAX:
                continue
            marks: list[str] = []
            if project.rules.reserved.reserved_by(path):
                marks.append("reserved")
            if generated_file(path):
                marks.append("generated")
            if is_link(state):  # its target's name only: a link is never followed
                entries.append(agent.FileEntry(path, 0, 0, "", (*marks, "symlink"),
                                               _link_to(project, path, link_target(state))))
                continue
            if state.text is None:
                marks.append("binary")
            entries.append(agent.FileEntry(path, len(state.data),
                                           len(state.lines) if state.text is not None else 0,
                                           content_revision(state.data), tuple(marks)))
        return agent.manifest(entries, capped=matched - len(entries) or None)

    def search(self, pattern: str, regex: bool = False, glob: str = "**") -> str:
        project = self._project()
        files = {path: state for path, state in sorted(project.tree.items())
                 if state.text is not None
                 and (glob in ("", "**", "*") or glob_match(glob, path))}
        try:
            if regex:  # bounded: a backtracking pattern would hold the interpreter
                hits, total = bounded_search(files.items(), pattern)
            else:
                hits, total = agent.search_lines(files.items(), pattern, regex=False)
        except PatternError as exc:
            return f"error: {exc}"
        return agent.search_answer(hits, total, files)

    def read(self, path: str, first: int | None = None, last: int | None = None,
             ids: bool = False) -> str:
        try:
            rel = normalize_path(path)
        except ReviewtuiError as err:
            return f"error: {err}"
        state = self._disk_state(rel)  # this one file, not a walk of the whole project
        if state is None and (spelled := self._project().rules.spellings.get(rel)):
            # On disk decomposed (as macOS writes names): ls lists it, so it is read; the
            # change tools refuse it until it is renamed (QA pass 85: "does not exist").
            found = self._disk_state(spelled, as_named=True)
            if found is not None and found.text is not None:
                return (agent.read_answer(rel, found, content_revision(found.data),
                                          first=first, last=last, hashed=ids)
                        + f"\n(on disk as a decomposed spelling of {rel}: changes to it are "
                        "refused until a person renames it to the composed spelling, NFC)")
        if state is None and (self.root / rel).is_dir() and self._link_note(rel) is None:
            return f"error: {rel} is a folder; ls lists its files (e.g. glob='{rel}/**')"
        if state is None:
            return self._link_note(rel) or f"error: {rel} does not exist (ls lists the files)"
        if state.text is None:
            return f"{rel}: binary, {len(state.data)} bytes, rev {content_revision(state.data)}"
        whole_and_long = first is None and last is None and len(state.lines) > agent.READ_MAX_LINES
        # One entry past the cap says whether the outline was cut (QA pass 85: it ended
        # without saying so).
        entries = ([(e.number, e.text) for e in outline(rel, state.lines, OUTLINE_MAX + 1)]
                   if whole_and_long else [])
        return agent.read_answer(rel, state, content_revision(state.data), first=first,
                                 last=last, hashed=ids, outline=entries[:OUTLINE_MAX],
                                 outline_cut=len(entries) > OUTLINE_MAX)

    # -- mutate ---------------------------------------------------------------------------
    def mutate(self, call: dict[str, Any], intent: str = "") -> str:
        if self._own is not None:
            named = own_file_named((call[field] for field in PATH_FIELDS
                                    if isinstance(call.get(field), str)), *self._own)
            if named is not None:
                return f"error: {refusal(named)}"
        if call.get("tool") in ("delete", "move"):
            for field in PATH_FIELDS:
                raw = call.get(field)
                if isinstance(raw, str) and raw.rstrip().endswith(("/", "\\", "/.")):
                    # (QA s32 F12: "remove Makefile/" deleted the file Makefile)
                    return (f"error: {raw.strip()!r} ends with a slash, so it names a folder: "
                            "a file is removed or moved by its own name; nothing was recorded "
                            "[folder-path]")
        if (call.get("tool") in _LINE_ADDRESSED and isinstance(call.get("path"), str)
                and (state := self._disk_state(call["path"])) is not None):
            # Line numbers mean the file as it is now. Sent without a revision, the call
            # is recorded with this one: a change waiting for the reviewer landed on
            # other lines once the user had edited the file (QA pass 84a, repro-3).
            if call.get("expectedRevision") is None:
                call = {**call, "expectedRevision": content_revision(state.data)}
            call = self._in_review_frame(call, state)
        elif call.get("tool") in ("write", "delete") and isinstance(call.get("path"), str):
            call = {**call, **_as_it_is(self._disk_state(call["path"]), call["tool"])}
        try:
            rec = self.live.record(call, intent)
        except ReviewtuiError as err:
            return f"error: {err}"
        try:
            settled = self.live.settle(rec)
        except ReviewtuiError as err:
            # Recorded: the change is in the session, pending review, whatever stopped its
            # evaluation now (a reviewtui.toml being edited); said so, so the agent does not
            # send it again (QA s46 helper-141 F3: answered as never recorded).
            return (f"recorded as op {rec.key[0]}.{rec.key[1] + 1}, pending review; it could "
                    f"not be evaluated now: {err}. Call status later; do not send the change "
                    "again.")
        return self._answer(rec, settled)

    def _in_review_frame(self, call: dict[str, Any], disk: FileState) -> dict[str, Any]:
        """A line-addressed call sent against the disk, its numbers carried into the
        review's version of the file when that differs (a change waiting for the
        reviewer, an outside change kept over the review's) and the lines it names are
        certainly the same lines there (``core/agent/frames.py``); else as sent, to be
        refused with the revision it names (QA s32 F6: every such call was refused)."""
        revision = content_revision(disk.data)
        if disk.text is None or sent_revision(call.get("expectedRevision")) != revision:
            return call  # not read from the disk as it is: the engine's guard answers
        try:
            with self.live.open_review(write=False) as review:
                review.finish_evaluation()
                rel = normalize_path(call["path"])
                version, decided = review.display.final.get(rel), review.draft.final.get(rel)
        except ReviewtuiError:
            return call
        if not isinstance(version, FileState) or version.text is None:
            return call
        mine = content_revision(version.data)
        if mine == revision:
            return call
        block: Block
        if isinstance(decided, FileState) and decided.data == disk.data:
            block = partial(carried_start, decided, version)
        else:  # an outside change on disk: no history to follow, its text and a diff
            block = Frames(disk.lines, version.lines).block
        carried = carry_call(call, disk.lines, version.line_count, block)
        if carried is None:
            return call
        # The call as sent stays with it: should the file be as the agent read it when the
        # reviewer decides (the pending change it was carried past rejected), its own
        # numbers apply (QA s34 helper-98 r12: it was refused though its line never moved).
        as_sent: dict[str, Any] = {key: call[key] for key in LINE_KEYS if key in call}
        return {**carried, "expectedRevision": mine,
                "sent": {**as_sent, "expectedRevision": revision}}

    def _answer(self, rec: Recorded, settled: Settled) -> str:
        outcome = settled.outcome
        if settled.waits and settled.verdict == "pending review":  # (said below)
            outcome = replace(outcome, message="", candidates=())
        path = outcome.path or getattr(rec.op, "path", "")
        revision = None
        state: FileState | None = None
        if path:
            state = self._disk_state(path)
            revision = content_revision(state.data) if state is not None else "absent"
        decision = settled.decision
        landed = settled.verdict in ("applied", "edited") and settled.pinned is None
        written, replaced = _rewritten(rec, settled)
        own = None  # the review's version's revision, when the answer's lines are its
        if isinstance(rec.op, Edit):
            outcome, own = disk_frame(outcome, state, landed)
        shape = getattr(rec.op, "shape", None)
        seen = outcome.before_state
        if (outcome.rule == STALE_REVISION and revision is not None and shape is not None
                and shape.expected_revision != revision and isinstance(seen, FileState)):
            # "actual" is the disk's revision, the one a read gives (not the review's
            # version's, which no answer names: QA s32 F6)
            outcome = replace(outcome, message=outcome.message.replace(
                f"actual {content_revision(seen.data)};", f"actual {revision};", 1))
            sent = getattr(shape, "sent", None)
            if sent is not None and sent.expected_revision:
                # A carried call names the revision the agent sent, and the lines it read
                # there, not the review's version it was carried to (QA s34 helper-98 r12).
                outcome = replace(outcome, message=outcome.message.replace(
                    f"expected revision {shape.expected_revision},",
                    f"expected revision {sent.expected_revision} (its lines {sent}, carried "
                    f"to {shape} of the review's version, revision "
                    f"{shape.expected_revision}),", 1))
        ids = agent.new_ids(rec.op, outcome) if landed else ""
        text = agent.outcome_answer(rec.op, outcome, revision=own or revision, key=rec.key,
                                    verdict=settled.verdict, written=written, ids=ids,
                                    reason=decision.reason if decision is not None else "",
                                    landed=landed, replaced=replaced)
        if (outcome.rule == STALE_REVISION and shape is not None and revision is not None
                and shape.expected_revision == revision):
            # (QA s32 F6: "view the file again" could not help: read gives this revision)
            text += (f"\n{path} on disk is at that revision, but the review's version of it "
                     "differs (a change still waiting for the reviewer, or one made outside "
                     "the review and kept over its changes), and the lines this call names "
                     "are not certainly the same lines there (they or the lines around them "
                     "differ, or they occur more than once): line numbers cannot be placed. "
                     "Send this change as an edit (search/replace), which is placed by "
                     "content, or wait for the reviewer.")
        elif own is not None:
            text += (f"\n(rev {own} and these line numbers are the review's version of {path}: "
                     f"the file on disk, rev {revision}, differs by a change waiting for the "
                     f"reviewer or one made outside the review. Numbers sent with rev {own} "
                     f"are read in that version, with rev {revision} in the file on disk.)")
        if settled.held:
            text += (f"\nnot written yet: {', '.join(settled.held)} is open for writing in "
                     "another program, so nothing is written there; it waits for the "
                     "reviewer. Call status later; do not send the change again.")
        elif settled.verdict == "pending review" and settled.waits:
            text += (f"\nnot written yet: as the review stands it is "
                     f"{str(outcome.status).replace('_', ' ')}, but {settled.waits}, which "
                     "waits for the reviewer, changes that path before it; once that is "
                     "decided it lands or fails. Call status later; do not send the change "
                     "again.")
        elif settled.verdict == "pending review":
            text += ("\nnot written yet: the reviewer has not decided. Call status later; "
                     "do not send the change again.")
        elif outcome.status is Status.NOT_FOUND and settled.decision is None:
            with self.live.open_review(write=False) as review:
                built_on = rejected_cause(review, rec.key, outcome)
            if built_on:
                text += (f"\nit may have built on {built_on}, which the reviewer rejected: "
                         "its lines are not in the file. Read the file again before sending "
                         "a change there.")
        elif settled.pinned == ON_PENDING:
            text += ("\nnot written yet: the reviewer accepted it, but it builds on a change "
                     "still pending review, which the disk does not hold; it is written when "
                     "that one is accepted. Call status later; do not send the change again.")
        elif settled.pinned == ON_UNWRITTEN:
            text += ("\nnot written yet: the reviewer accepted it and the workbench is writing "
                     "it. Call status later; do not send the change again.")
        elif settled.pinned == ON_CONFLICT:
            text += (f"\nnot written: the reviewer accepted it, but {path} was changed outside "
                     "where it writes, so nothing of it is on disk; the reviewer settles that "
                     "conflict. Call status later; do not send the change again.")
        elif settled.pinned is not None:
            text += (f"\nnot written yet: the reviewer keeps the disk at checkpoint "
                     f"{settled.pinned}, before this turn; it is written when they unpin. "
                     "Call status later; do not send the change again.")
        return text

    def _disk_state(self, path: str, *, as_named: bool = False) -> FileState | None:
        """One file as it is on disk now (None: absent, unreadable or not ours to read).

        The tree reader's rules: no link on the way, nothing in a folder it does not read,
        regular files only (a FIFO would hang the read). ``as_named``: ``path`` is a name
        as it is on disk, not normalised (a decomposed spelling).
        """
        try:
            rel = path if as_named else normalize_path(path)
            if unread_dir_of(rel) is not None:
                return None
            target = target_path(self.root, rel)
            if not stat.S_ISREG(target.lstat().st_mode):
                return None
            return FileState.from_bytes(target.read_bytes())
        except (ReviewtuiError, OSError):
            return None

    def _link_note(self, rel: str) -> str | None:
        """What to answer when a symbolic link is on ``rel``'s way: where it leads, if
        inside the root (read there), else that it is not read. Only links are read."""
        if unread_dir_of(rel) is not None:
            return None
        parts = rel.split("/")
        for end in range(1, len(parts) + 1):
            prefix = "/".join(parts[:end])
            try:  # the folders before it are not links: this lstat follows none
                mode = os.lstat(self.root / prefix).st_mode
                if stat.S_ISLNK(mode):
                    target = link_target_in_root(prefix, os.readlink(self.root / prefix),
                                                 str(self.root))
                    break
            except OSError:
                return None
            if not stat.S_ISDIR(mode):
                return None
        else:
            return None
        if target is None:
            return (f"error: {prefix} is a symbolic link that leads out of the project "
                    "root; it is not read")
        there = "/".join(part for part in (target, *parts[end:]) if part) or "."
        return f"error: {prefix} is a symbolic link to {target or '.'}; read {there}"

    # -- verify -------------------------------------------------------------------------
    def _reading(self) -> Review | str:
        """A read-only review of the live session, or what to answer instead."""
        if not self.live.session.exists():
            return "no changes recorded in this session yet"
        try:
            return self.live.open_review(write=False)
        except ReviewtuiError as err:
            return f"error: {err}"

    def status(self) -> str:
        review = self._reading()
        if isinstance(review, str):
            return review
        with review:
            rows: list[str] = []
            decisions = review.decisions
            not_on_disk = self._not_on_disk(review)
            conflicts = review.conflicts
            for turn in review.session.turns:
                for pos, op in enumerate(turn.reply.ops):
                    key = (turn.index, pos)
                    outcome = review.outcome(key)
                    decision = decisions.get(key)
                    word = ("edited" if decision is not None and decision.rewritten else
                            str(decision.verdict) if decision is not None
                            and decision.verdict is not Verdict.PENDING else
                            "pending review" if outcome.status.value in ("applied",
                                                                         "needs_review")
                            else str(outcome.status))
                    pin = pinned_before(review, key)
                    if word in ("accepted", "edited") and pin is not None:
                        word += f", not written yet (disk pinned at checkpoint {pin})"
                    elif (word in ("accepted", "edited")
                          and (path := op_path(review.result(key))) in conflicts):
                        # (QA pass s28: "accepted" for the edit of a file deleted outside,
                        # while diff said nothing was accepted and written)
                        word += f", {_conflict_words(conflicts[path].kind)}"
                    elif word in ("accepted", "edited") and key in not_on_disk:
                        word += f", {NOT_ON_DISK}"
                    elif (word == "rejected"
                          and (path := op_path(review.result(key))) in conflicts):
                        # (QA s32 F9: the reject of a write whose file the user changed
                        # since could not take it back: its content is still on disk)
                        kept = _conflict_words(conflicts[path].kind, "not taken off the disk")
                        word += f", {kept}"
                    line = f"op {key[0]}.{pos + 1} {agent.operation_summary(op)}: {word}"
                    if decision is not None and decision.reason:
                        line += f" (reason: {decision.reason})"
                    rows.append(line)
            return "\n".join(rows) if rows else "no operations recorded yet"

    def _not_on_disk(self, review: Review) -> set[tuple[int, int]]:
        """The accepted operations the disk does not hold yet (:data:`NOT_ON_DISK`): of
        each file a read-only review would write, those after the last whose result is
        what the disk holds (QA pass s28: an earlier operation of that file, written
        before the kill, was said not to be)."""
        unwritten = _unwritten(review)
        if not unwritten:
            return set()
        chains: dict[str, list[tuple[tuple[int, int], FileState | None]]] = {}
        for turn in review.draft.turns:
            for result in turn.results:
                path = op_path(result)
                if result.landed and path in unwritten:
                    after = result.outcome.after_state
                    chains.setdefault(path, []).append(
                        (result.key, after if isinstance(after, FileState) else None))
        missing: set[tuple[int, int]] = set()
        for path, chain in chains.items():
            disk = self._disk_state(path)
            held = [pos for pos, (_, after) in enumerate(chain) if same(after, disk)]
            written_to = held[-1] if held else -1
            missing.update(key for key, _ in chain[written_to + 1 :])
        return missing

    def diff(self, path: str | None = None) -> str:
        rel = None
        if path:
            try:
                rel = normalize_path(path)
            except ReviewtuiError as err:  # answered like read: no traceback, the reason
                return f"error: {err}"
        review = self._reading()
        if isinstance(review, str):
            return review
        with review:
            base = review.base
            result = review.draft.states[-1].tree
            if rel is not None:
                base = base.apply({p: None for p in base if p != rel})
                result = result.apply({p: None for p in result if p != rel})
            text = unified_patch(base, result)
            unwritten = sorted(_unwritten(review) & (set(result.diff(base)) if rel is None
                                                     else {rel}))
        if text and unwritten:
            text += f"\n{', '.join(unwritten)}: {NOT_ON_DISK}\n"
        return text or "nothing accepted and written yet"


# What an accept the disk does not hold yet is, after its writer stopped between saving
# the decision and writing it (killed): the next review that writes finishes the writes.
NOT_ON_DISK = ("not written yet (the review's writer stopped before writing it; it is "
               "written when the workbench or the server next opens the review)")


_CONFLICT_WORDS = {
    ConflictKind.DELETED: "the file was deleted outside the review",
    ConflictKind.OUTSIDE_EDIT: "the file was changed outside the review where this writes",
    ConflictKind.REBASE: "it no longer lands on the file as it was changed outside the review",
    ConflictKind.UNWRITABLE: "the path can no longer be written",
    ConflictKind.HELD: "it moves a file whose other end is in conflict, and a move is written "
                       "whole or not at all",
}


def _conflict_words(kind: ConflictKind, what: str = "not on disk") -> str:
    """What ``status`` says of an accept whose file is in conflict (not on disk as accepted;
    ``what``: "not taken off the disk" for a reject the conflict kept on disk)."""
    return f"{what}: {_CONFLICT_WORDS.get(kind, 'in conflict')}; the reviewer settles it"


def _unwritten(review: Review) -> set[str]:
    """The paths a read-only review would write to match its saved decisions."""
    report = review.last_report
    return set(report.would_write) if report is not None else set()


def _link_to(project: Project, path: str, target: str) -> str | None:
    """A link's root-relative target, None when it (or a link it goes through) leads out
    of the root."""
    rules = project.rules
    if escapes_via_symlink(path, rules.symlinks, root=rules.root):
        return None
    return link_target_in_root(path, target, str(project.root))


def _rewritten(rec: Recorded, settled: Settled
               ) -> tuple[list[str] | None, list[str] | None]:
    """(what the reviewer's edit wrote, what their own SEARCH made it replace): the lines
    as they went in for an edit that landed, else the reviewer's replacement as typed."""
    decision, outcome = settled.decision, settled.outcome
    if decision is None or not decision.rewritten:
        return None, None
    located = isinstance(rec.op, Edit) and outcome.status is Status.APPLIED
    if located:
        written: list[str] | None = agent.written_lines(outcome)
    else:
        written = list(decision.replacement) if decision.replacement else None
    replaced = (outcome.before.split("\n") if outcome.before else [])
    return written, replaced if located and decision.search is not None else None


def _as_it_is(state: FileState | None, tool: str) -> dict[str, Any]:
    """What a write or a delete records of the file as it is (see the toolcalls reader):
    a write over no file is a new file's; a delete names the content it removes."""
    if tool == "write":
        return {"new": True} if state is None else {}
    return {} if state is None else {"expectedBlob": blob_id(state.data)}


def _own_files(live: LiveSession) -> tuple[str, tuple[str, ...]] | None:
    """The live session's path and the review's own files (session, state, blobs) relative
    to the root, or None when the session lies outside it (the default)."""
    folder = live.session.parent.resolve()
    if not folder.is_relative_to(live.root):
        return None
    session = (folder / live.session.name).relative_to(live.root).as_posix()
    state = live_state_path(Path(session))
    return session, (session, state.as_posix(), blob_dir_for(state).as_posix())
