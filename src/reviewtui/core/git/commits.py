"""One commit per turn whose accepted operations changed something.

A turn's commit holds the files that changed between the draft's checkpoint before the
turn and the one after it, so the commits replay the accepted result turn by turn. Its
message is the turn's request (the first line cut to 72 characters, the rest in the
body) and two trailers: the decision counts and the session.
"""

from __future__ import annotations

from collections.abc import Mapping

from reviewtui.core.engine import Decision, OpKey, SessionRun, Verdict
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import record

SUBJECT_LIMIT = 72
TRAILER_REVIEWED = "Reviewed-by"
TRAILER_SESSION = "Review-session"


@record(frozen=True, slots=True)
class Counts:
    accepted: int = 0
    edited: int = 0
    rejected: int = 0
    pending: int = 0

    def phrase(self) -> str:
        parts = [f"accepted {self.accepted}", f"edited {self.edited}",
                 f"rejected {self.rejected}"]
        if self.pending:
            parts.append(f"pending {self.pending}")
        return ", ".join(parts)


@record(frozen=True, slots=True)
class PlannedCommit:
    turn: int
    message: str
    changes: Mapping[str, FileState | None]  # path -> content after (None: removed)
    counts: Counts


def counts_for(keys: list[OpKey], decisions: Mapping[OpKey, Decision]) -> Counts:
    tally = {Verdict.ACCEPTED: 0, Verdict.EDITED: 0, Verdict.REJECTED: 0, Verdict.PENDING: 0}
    for key in keys:
        verdict = decisions[key].verdict if key in decisions else Verdict.PENDING
        tally[verdict] += 1
    return Counts(tally[Verdict.ACCEPTED], tally[Verdict.EDITED], tally[Verdict.REJECTED],
                  tally[Verdict.PENDING])


def _one_line(text: str) -> str:
    return " ".join(text.split())


def split_subject(request: str, fallback: str) -> tuple[str, str]:
    """(subject of at most 72 characters, body): a longer first line is cut at a word
    and its whole text starts the body."""
    lines = request.strip().splitlines()
    first = _one_line(lines[0]) if lines else ""
    rest = "\n".join(line.rstrip() for line in lines[1:]).strip("\n")
    if not first:
        return fallback, rest
    if len(first) <= SUBJECT_LIMIT:
        return first, rest
    cut = first[: SUBJECT_LIMIT - 3]
    if " " in cut[SUBJECT_LIMIT // 2:]:
        cut = cut[: cut.rindex(" ")]
    body = first + ("\n\n" + rest if rest else "")
    return cut.rstrip() + "...", body


def commit_message(request: str, turn: int, session: str, counts: Counts) -> str:
    subject, body = split_subject(request, f"reviewtui: turn {turn}")
    # Trailers must be the last paragraph; a body that ends in "Key: value" lines would
    # swallow them, which is harmless: git reads them all as trailers.
    trailers = (f"{TRAILER_REVIEWED}: reviewtui; {counts.phrase()}\n"
                f"{TRAILER_SESSION}: {_one_line(session)} turn {turn}\n")
    parts = [subject]
    if body:
        parts.append(body)
    parts.append(trailers)
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def plan_commits(run: SessionRun, decisions: Mapping[OpKey, Decision],
                 session: str) -> list[PlannedCommit]:
    """The commits of the draft ``run``: one per source commit that changed a file.

    A git commit is one turn, or several in a row when its diff reuses a path it removes
    (a link made a file: the removal, then the new file; see ``split_for_order``). Those
    parts share the commit's heading and message, and make one commit again: a commit of
    the removal alone was a tree the history never held (QA pass 84b)."""
    plans: list[PlannedCommit] = []
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
        if not changes:
            continue
        keys = [result.key for part in parts for result in part.results]
        counts = counts_for(keys, decisions)
        plans.append(PlannedCommit(first.index,
                                   commit_message(first.request, first.index, session, counts),
                                   changes, counts))
    return plans
