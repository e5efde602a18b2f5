"""One commit per turn whose accepted operations changed something.

A turn's commit holds the files that changed between the draft's checkpoint before the
turn and the one after it, so the commits replay the accepted result turn by turn. Its
message is the turn's request (the first line cut to 72 characters, the rest in the
body) and two trailers: the decision counts and the session. A turn some of whose
operations are not in its commit (they failed, or were left pending) says which, above
the trailers: a replayed git commit must not pass for the whole of the one it came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from reviewtui.core.engine import Decision, OpKey, OpResult, SessionRun, Verdict, op_title
from reviewtui.core.engine.checkout import is_checkout_of
from reviewtui.core.export.forms import landed_moves, removed_blobs
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.outcome import FAILED, Status
from reviewtui.core.model.records import Edit, FileBytes, FullFile, Turn
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import field, record
from reviewtui.core.text.visible import visible

SUBJECT_LIMIT = 72
TRAILER_REVIEWED = "Reviewed-by"
TRAILER_SESSION = "Review-session"


@record(frozen=True, slots=True)
class Counts:
    accepted: int = 0
    edited: int = 0
    rejected: int = 0
    pending: int = 0
    failed: int = 0  # not landed because they do not apply (not found, refused...)

    def phrase(self) -> str:
        parts = [f"accepted {self.accepted}", f"edited {self.edited}",
                 f"rejected {self.rejected}"]
        if self.pending:
            parts.append(f"pending {self.pending}")
        if self.failed:
            parts.append(f"failed {self.failed}")
        return ", ".join(parts)


@record(frozen=True, slots=True)
class PlannedCommit:
    turn: int
    message: str
    changes: Mapping[str, FileState | None]  # path -> content after (None: removed)
    counts: Counts
    left_out: tuple[str, ...] = ()  # the turn's operations not in it: "title (why)"
    # path -> the git blob its change is (as stored, or as a checkout writes it): what a
    # commit on the checkout stores for it (:func:`_git_versions`)
    blobs: Mapping[str, str] = field(default_factory=dict)
    # path -> the blob the section found, for those of ``blobs`` (a change of line endings
    # alone leaves the checkout's bytes as they were: a series mail holds the blobs')
    found: Mapping[str, str] = field(default_factory=dict)
    # new path -> old path of each rename the commit made as it was (a landed ``:mv``)
    moved: Mapping[str, str] = field(default_factory=dict)
    # the number of its last turn (a commit split into parts: see plan_with_dropped)
    last: int = 0


LEFT_OUT_SHOWN = 10  # operations a message names before "and N more"


Shown = Callable[[OpKey], Status]  # an operation's status as the reviewer sees it


def _verdict(decisions: Mapping[OpKey, Decision], key: OpKey) -> Verdict:
    return decisions[key].verdict if key in decisions else Verdict.PENDING


def _status(result: OpResult, shown: Shown | None) -> Status:
    return shown(result.key) if shown is not None else result.outcome.status


def _failed(result: OpResult, verdict: Verdict, shown: Shown | None) -> bool:
    """Not in the draft because it cannot land (not because it waits for a decision)."""
    if verdict is Verdict.REJECTED or result.landed:
        return False
    return _status(result, shown) in FAILED


def counts_for(results: list[OpResult], decisions: Mapping[OpKey, Decision],
               shown: Shown | None = None) -> Counts:
    """The decisions on a commit's operations; one that is accepted (or was never decided)
    but did not land because it cannot is ``failed``, not accepted nor pending."""
    tally = {Verdict.ACCEPTED: 0, Verdict.EDITED: 0, Verdict.REJECTED: 0, Verdict.PENDING: 0}
    failed = 0
    for result in results:
        verdict = _verdict(decisions, result.key)
        if _failed(result, verdict, shown):
            failed += 1
        else:
            tally[verdict] += 1
    return Counts(tally[Verdict.ACCEPTED], tally[Verdict.EDITED], tally[Verdict.REJECTED],
                  tally[Verdict.PENDING], failed)


def not_in_commit(results: list[OpResult], decisions: Mapping[OpKey, Decision],
                  shown: Shown | None = None) -> tuple[str, ...]:
    """The operations of a commit's turns that are not in it and were not rejected, each
    as "turn 2 a.py · Edit 1 (not_found)" ("needs_review" for a near match, "pending" for
    one nobody decided that could land)."""
    out = []
    for result in results:
        verdict = _verdict(decisions, result.key)
        if result.landed or verdict is Verdict.REJECTED:
            continue
        status = _status(result, shown)
        why = str(status) if status in FAILED or status is Status.NEEDS_REVIEW else "pending"
        # (control characters spelt out: a path or a link's target is outside text, and
        # a commit message is printed by git log as it is)
        out.append(f"turn {result.key[0]} {visible(_one_line(op_title(result.op)))} ({why})")
    return tuple(out)


# What ends a line of a message and the blanks git's own cleanup drops at its ends.
_LINE_END = re.compile(r"\r\n|\r|\n")
_BLANKS = " \t\r\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def split_subject(request: str, fallback: str) -> tuple[str, str]:
    """(subject of at most 72 characters, body): a longer first line is cut at a word
    and its whole text starts the body.

    The text is kept as written but for its line ends and the blanks before them: lines
    end at a newline (or a carriage return) only, as git reads a message -- a form feed or
    a U+2028 is no line break, a no-break space no blank to drop, and a subject's double
    space stays (helper-107 F8: each was changed)."""
    lines = _LINE_END.split(request.strip(_BLANKS))
    first = lines[0].strip(_BLANKS) if lines else ""
    rest = "\n".join(line.rstrip(_BLANKS) for line in lines[1:]).strip("\n")
    if not first:
        return fallback, rest
    if len(first) <= SUBJECT_LIMIT:
        return first, rest
    cut = first[: SUBJECT_LIMIT - 3]
    if " " in cut[SUBJECT_LIMIT // 2:]:
        cut = cut[: cut.rindex(" ")]
    body = first + ("\n\n" + rest if rest else "")
    return cut.rstrip() + "...", body


def commit_message(request: str, turn: int, session: str, counts: Counts,
                   missing: tuple[str, ...] = ()) -> str:
    """The turn's request, a paragraph naming ``missing`` (see :func:`not_in_commit`) when
    there are any, and the trailers."""
    subject, body = split_subject(request, f"reviewtui: turn {turn}")
    # Trailers must be the last paragraph; a body that ends in "Key: value" lines would
    # swallow them, which is harmless: git reads them all as trailers.
    trailers = (f"{TRAILER_REVIEWED}: reviewtui; {counts.phrase()}\n"
                f"{TRAILER_SESSION}: {_one_line(session)} turn {turn}\n")
    parts = [subject]
    if body:
        parts.append(body)
    if missing:
        shown = [f"- {line}" for line in missing[:LEFT_OUT_SHOWN]]
        if len(missing) > LEFT_OUT_SHOWN:
            shown.append(f"- and {len(missing) - LEFT_OUT_SHOWN} more")
        many = "s" if len(missing) > 1 else ""
        parts.append(f"Not in this commit ({len(missing)} operation{many} of the session "
                     "that did not land):\n" + "\n".join(shown))
    parts.append(trailers)
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def plan_commits(run: SessionRun, decisions: Mapping[OpKey, Decision],
                 session: str, shown: Shown | None = None) -> list[PlannedCommit]:
    """The commits of the draft ``run``: one per source commit that changed a file (see
    :func:`plan_with_dropped`)."""
    return plan_with_dropped(run, decisions, session, shown)[0]


def plan_with_dropped(run: SessionRun, decisions: Mapping[OpKey, Decision], session: str,
                      shown: Shown | None = None) -> tuple[list[PlannedCommit], tuple[int, ...]]:
    """The commits of the draft ``run``, and the turns that make none because nothing of
    them landed while some of their operations failed (no commit or mail says they were
    in the history: said apart, QA s36).

    A git commit is one turn, or several in a row when its diff reuses a path it removes
    (a link made a file: the removal, then the new file; see ``split_for_order``). Those
    parts share the commit's heading and message, and make one commit again: a commit of
    the removal alone was a tree the history never held (QA pass 84b). ``shown``: each
    operation's status as the review shows it, when ``run`` is a review's draft (where an
    operation left pending is not evaluated): tells a failed one from a pending one."""
    plans: list[PlannedCommit] = []
    dropped: list[int] = []
    for first, last, results, changes, versions in _commits_of(run):
        if not changes:
            if any(_failed(result, _verdict(decisions, result.key), shown)
                   for result in results):
                dropped.append(first.index)
            continue
        counts = counts_for(results, decisions, shown)
        missing = not_in_commit(results, decisions, shown)
        found = {path: was for path, (_, was) in versions.items() if was}
        found.update((path, blob) for path, blob in removed_blobs(results).items()
                     if changes.get(path, 0) is None)  # (a deletion's, where it removes)
        plans.append(PlannedCommit(first.index,
                                   commit_message(first.request, first.index, session, counts,
                                                  missing),
                                   changes, counts, missing,
                                   {path: blob for path, (blob, _) in versions.items()},
                                   found, landed_moves(results), last.index))
    return plans, tuple(dropped)


def _git_versions(results: list[OpResult], after: Tree) -> dict[str, tuple[str, str]]:
    """The files ``after`` holds as exactly the blob a git diff's section left them (as
    stored, or as the checkout writes it: ``GitForms``), by path: (the blob, what a commit
    stores for them; the blob the section found, "" for a new file). Committed through
    ``git add``, the checkout's bytes could come back as another blob (QA s38 helper-118
    F1, F2)."""
    found: dict[str, tuple[str, str]] = {}
    # Only a section's last operation carries its forms; the others' files are its file
    # too (with the last hunk not found, a file that is exactly the blob the section left
    # went through git add, which stored another blob: QA s43 helper-131 H2, older).
    sections = {op.path: op.git_forms for result in results
                if isinstance(op := result.op, (Edit, FullFile)) and op.git_forms is not None}
    for result in results:
        op = result.op
        if not isinstance(op, (Edit, FullFile)) or not result.landed:
            continue
        forms = op.git_forms or sections.get(op.path)
        state = after.get(op.path)
        if forms is not None and state is not None and (
                is_checkout_of(forms, state.data) or _checkout_of_binary(op, state.data)):
            found[op.path] = (forms.after_blob, forms.before_blob)
    return found


def _checkout_of_binary(op: Edit | FullFile, data: bytes) -> bool:
    """Whether ``data`` is git's checkout of the blob ``op``'s binary patch leaves: a file
    holding a NUL under a ``text`` attribute is converted all the same, and one whose
    blob alone changed (its endings) was left out of its mail (QA s41 helper-127 L1)."""
    payload = op.payload if isinstance(op, FullFile) else None
    checkout = payload.checkout if isinstance(payload, FileBytes) else None
    return checkout is not None and checkout.new is not None and checkout.new == data


def _commits_of(run: SessionRun) -> Iterator[tuple[Turn, Turn, list[OpResult],
                                                   dict[str, FileState | None],
                                                   dict[str, tuple[str, str]]]]:
    """Each source commit of ``run``: its first and last turns, the results of its turns (parts),
    the files it changes in the draft, and the blobs of those that are git's versions of
    one, with the blobs their sections found (:func:`_git_versions`)."""
    pos = 0
    while pos < len(run.turns):
        first = run.turns[pos].turn
        end = pos + 1
        while (end < len(run.turns) and first.heading_span is not None
               and run.turns[end].turn.heading_span == first.heading_span
               and run.turns[end].turn.request == first.request):
            end += 1
        before, after = run.checkpoint(pos), run.checkpoint(end)
        changes = {path: new for path, (old, new) in before.diff(after).items()
                   if old is None or new is None or old.data != new.data
                   or (old.mode & 0o111) != (new.mode & 0o111)
                   or (old.mode & 0o170000) != (new.mode & 0o170000)}  # (a link made a file)
        parts, pos = run.turns[pos:end], end
        results = [result for part in parts for result in part.results]
        blobs = _git_versions(results, after)
        for path, (blob, found) in blobs.items():
            # Bytes kept, blob changed: a commit that only turns a CRLF blob into LF, or an
            # LF blob into CRLF, on a checkout that writes CRLF (core.autocrlf), made no
            # commit (QA s38 helper-118 F1; s39 helper-121 F6, LF to CRLF: the bytes' own
            # id is the new blob's, so the blob the section found is compared).
            was, now = before.get(path), after.get(path)
            if (path not in changes and was is not None and now is not None
                    and was.data == now.data and (found or blob_id(was.data)) != blob):
                changes[path] = now
        yield first, parts[-1].turn, results, changes, {
            path: found for path, found in blobs.items() if changes.get(path) is not None}
