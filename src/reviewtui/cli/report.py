"""Headless reports: the text and JSON forms of a parsed and evaluated session."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence

from reviewtui.core.engine import OpResult, SessionRun, op_title
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.model.outcome import FAILED, Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile, Operation, Turn
from reviewtui.core.review.diagnostics import Diagnostic, diagnose_result
from reviewtui.core.review.landed import introduced


class Places:
    """How a report line names where in the session it comes from: ``file:line``, or (see
    :meth:`by_commit`) the commit the line lies in."""

    def __init__(self, file: str, labels: Sequence[tuple[int, str]] = ()) -> None:
        self.file = file
        self._starts = [start for start, _ in labels]  # (first line, label), in order
        self._labels = [label for _, label in labels]

    @classmethod
    def by_commit(cls, file: str, turns: Sequence[Turn], lines: Sequence[str]) -> Places:
        """For a git session in a temporary file (``check --git``/``--worktree``: the
        file is removed when the command ends, so its line numbers lead nowhere): each
        line named by its turn's commit, ``commit 1a2b3c4d5e6f``, or ``working tree``."""
        from reviewtui.core.importers.gitlog import COMMIT_LINE  # (git sessions alone)

        labels: list[tuple[int, str]] = []
        for turn in turns:
            # (a commit split into turns, a link made a file: its parts share its heading,
            # and start at a diff line; QA s36 helper-104: they read "working tree")
            at = turn.heading_span.start if turn.heading_span is not None else turn.span.start
            found = COMMIT_LINE.match(lines[at - 1]) if 0 < at <= len(lines) else None
            labels.append((min(at, turn.span.start),
                           f"commit {found.group(1)[:12]}" if found else "working tree"))
        return cls(file, labels)

    def __call__(self, line: int) -> str:
        if not self._labels:
            return f"{self.file}:{line}"
        at = bisect_right(self._starts, line) - 1
        return self._labels[at] if at >= 0 else "git session header"


def op_json(op: Operation) -> dict[str, object]:
    """The operation exactly as parsed, so other tools can consume the parse."""
    data: dict[str, object] = {"kind": str(op.kind), "span": op.span.as_list()}
    if isinstance(op, ConsoleCommand):
        data.update(path=op.path, command=op.text, name=str(op.name), args=list(op.args),
                    force=op.force)
    elif isinstance(op, Edit):
        data.update(path=op.path, edit=op.label, search=op.search, replace=op.replace)
    elif isinstance(op, FullFile):
        data.update(path=op.path, content=op.content)
        if op.mode is not None:
            data["mode"] = f"{op.mode:06o}"
        if op.payload is not None:
            data["binary"] = op.payload.kind
    return data


def outcome_line(where: Places, result: OpResult) -> str:
    outcome = result.outcome
    # (applied: how it matched; else the rule that says why not, to look up: docs)
    method = (f" ({outcome.method})" if outcome.method and outcome.status is Status.APPLIED
              else f" (rule {outcome.rule})" if outcome.rule
              and outcome.status is not Status.APPLIED
              and f"rule {outcome.rule}" not in outcome.message else "")
    turn = result.key[0]
    text = (f"{where(result.op.span.start)}: turn {turn} {op_title(result.op)}: "
            f"{outcome.status}{method} - {outcome.message}")
    lines = [text]
    if outcome.hint and outcome.status is Status.APPLIED:
        lines.append(f"    hint: {outcome.hint}")
    for cand in outcome.candidates:
        lines.append(f"    candidate lines {cand.start}-{cand.end}: "
                     f"{round(cand.similarity * 100)}% similar, {cand.diagnosis}")
    return "\n".join(lines)


def diagnostic_lines(result: OpResult, extra: Sequence[Diagnostic] = (),
                     builtin: Sequence[Diagnostic] | None = None) -> list[str]:
    """The syntax errors an operation introduces, one indented line each.

    ``extra``: the project checks' diagnostics; their notes (line 0: the check could not
    run) are shown too. ``builtin``: the built-in checks' diagnostics when the caller
    already has them (``apply`` checks each written file once); else they are computed.
    """
    path = result.outcome.path
    own = introduced(result) if builtin is None else builtin
    lines = [f"    {d.check}: {path}:{d.line}:{d.col}: {d.message} (introduced by this "
             "operation)" for d in (*own, *extra) if d.introduced]
    lines += [f"    {d.check}: {path}: note: {d.message}" for d in extra if d.line == 0]
    return lines


def disk_json(result: OpResult, *, accept_fuzzy: bool = False) -> dict[str, object]:
    """What ``apply`` did to the disk for one operation, for its JSON report.

    The engine's outcome says how the operation matched; once ``apply`` has written it,
    the report must say so. A near match (``needs_review``) accepted by ``--accept-fuzzy``
    was written: its ``status`` is ``applied``, ``match_status`` keeps what the matcher
    said and ``accepted_by`` names the option that let it in. ``written`` says whether
    the operation is in the files on disk (a conflict or a skip is not).
    """
    outcome = result.outcome
    data = outcome.to_json()
    written = result.landed and outcome.status is not Status.CONFLICT
    data["written"] = written
    if written and outcome.status is not Status.APPLIED:
        data["status"] = str(Status.APPLIED)
        data["match_status"] = str(outcome.status)
        data["forced"] = result.decision.force
        if outcome.status is Status.NEEDS_REVIEW and accept_fuzzy:
            data["accepted_by"] = "--accept-fuzzy"
            data["message"] = f"applied by --accept-fuzzy: {outcome.message}"
    return data


def forced_line(where: Places, result: OpResult, *, accept_fuzzy: bool = False) -> str:
    """The text report's line for an operation written although it did not match cleanly."""
    outcome = result.outcome
    how = " by --accept-fuzzy" if accept_fuzzy and outcome.status is Status.NEEDS_REVIEW else ""
    return (f"{where(result.op.span.start)}: turn {result.key[0]} {op_title(result.op)}: "
            f"applied ({outcome.method}, {outcome.status} accepted{how}) - {outcome.message}")


def finding_line(where: Places, finding: Finding) -> str:
    return f"{where(finding.span.start)}: {finding.rule} {finding.severity} {finding.message}"


def has_errors(findings: Sequence[Finding], run: SessionRun | None) -> bool:
    if any(f.severity is Severity.ERROR for f in findings):
        return True
    if run is None:
        return False
    return any(r.outcome.status in FAILED for t in run.turns for r in t.results)


def session_json(source: str, title: str, turns: Sequence[Turn], findings: Sequence[Finding],
                 run: SessionRun | None, root: str | None,
                 extra: Mapping[OpKey, Sequence[Diagnostic]] | None = None) -> dict[str, object]:
    """``extra``: more diagnostics per operation (the project checks), after the built-in."""
    by_turn: dict[int | None, list[Finding]] = {}
    for finding in findings:
        by_turn.setdefault(finding.turn, []).append(finding)
    results = {t.index: t for t in run.turns} if run is not None else {}
    out_turns = []
    for turn in turns:
        ops = []
        turn_result = results.get(turn.index)
        for pos, op in enumerate(turn.reply.ops):
            data = op_json(op)
            if turn_result is not None:
                data.update(turn_result.results[pos].outcome.to_json())
                result = turn_result.results[pos]
                data["diagnostics"] = [d.to_json() for d in (
                    *diagnose_result(result), *(extra or {}).get(result.key, ()))]
            ops.append(data)
        out_turns.append({
            "index": turn.index,
            "request": turn.request,
            "span": turn.span.as_list(),
            "ops": ops,
            "need": list(turn.reply.need),
            "findings": [f.to_json() for f in by_turn.get(turn.index, [])],
            "ledger": list(turn_result.ledger) if turn_result is not None else [],
        })
    return {
        "session": source,
        "title": title,
        "root": root,
        "turns": out_turns,
        "findings": [f.to_json() for f in by_turn.get(None, [])],
    }


# Why apply held an operation back (the value of its held reason, after the prefix).
PARTIAL = "partial file: "
HELD_OPEN = "open elsewhere: "
STOPPED = "\0stopped: "  # a section after a failing one of its patch (Codex's order)


def skipped_line(where: Places, result: OpResult, held: str | None) -> str:
    """An operation apply did not write, saying why: never "applied" for one it skipped."""
    status = result.outcome.status
    if held is not None and held.startswith(HELD_OPEN):
        why = (f"{held[len(HELD_OPEN):]} is open for writing in another program, and nothing "
               "is written under a program that may save over it: apply again once it is "
               "closed")
    elif held is not None and held.startswith(STOPPED):
        why = held[len(STOPPED):]
    elif held is not None and held.startswith(PARTIAL):
        why = (f"other operations of {held[len(PARTIAL):]} did not apply, and a file's patch "
               "is written whole or not at all: the file is left as it is (--partial writes "
               "the hunks that apply)")
    elif held == "syntax error":
        why = "held back by --strict: it would leave its file with a syntax error"
    elif held is not None:
        why = "held back by --strict: it writes a generated file"
    elif status in (Status.APPLIED, Status.NEEDS_REVIEW):
        why = ("a near match: pass --accept-fuzzy, or review it" if status is
               Status.NEEDS_REVIEW else "an earlier operation of its file was not applied")
    else:
        return outcome_line(where, result)
    return (f"{where(result.op.span.start)}: turn {result.key[0]} "
            f"{op_title(result.op)}: skipped - {why}")


def skipped_summary(skipped: list[OpResult], held: dict[OpKey, str]) -> str:
    """"; skipped 3: 1 by --strict (syntax error), 2 not_found"."""
    if not skipped:
        return ""
    reasons: dict[str, int] = {}
    for result in skipped:
        why = held.get(result.key)
        reason = ("held back: file not whole" if why is not None and why.startswith(PARTIAL)
                  else "held back: Codex stopped before it" if why is not None
                  and why.startswith(STOPPED)
                  else "not written: file open elsewhere" if why is not None
                  and why.startswith(HELD_OPEN)
                  else f"by --strict ({why})" if why is not None
                  # (never "applied" for one it skipped: its line says why)
                  else "after an operation not applied" if result.outcome.status
                  is Status.APPLIED
                  else f"held ({result.outcome.rule})" if result.outcome.rule.startswith(
                      "codex-") else str(result.outcome.status))
        reasons[reason] = reasons.get(reason, 0) + 1
    parts = ", ".join(f"{count} {reason}" for reason, count in reasons.items())
    return f"; skipped {len(skipped)}: {parts}"
