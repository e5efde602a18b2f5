"""The review report: per turn the request and every operation's decision, status,
method and findings; the totals; the files; the operation ledger. As Markdown for
people and as JSON (the same content) for tools."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reviewtui.core.engine.decisions import REJECTED_MESSAGE
from reviewtui.core.export.accepted import Accepted, OpRow, Totals, op_rows, totals
from reviewtui.core.export.patch import FilePatch, file_patches, origins
from reviewtui.core.lint.findings import Finding
from reviewtui.core.model.records import ConsoleCommand, Edit
from reviewtui.core.text.plural import plural

REPORT_FORMAT = "reviewtui-export"
REPORT_VERSION = 1


def _rows(accepted: Accepted) -> list[tuple[list[OpRow], list[Finding]]]:
    return [op_rows(accepted, pos) for pos in range(len(accepted.session.turns))]


def _files(accepted: Accepted) -> list[FilePatch]:
    return file_patches(accepted.base, accepted.result, origins(accepted.run))


def _change(patch: FilePatch) -> str:
    if patch.old is None:
        return "added"
    if patch.new is None:
        return "removed"
    if patch.old_path != patch.new_path:
        return "moved" if patch.old.data == patch.new.data else "moved and changed"
    return "changed" if patch.old.data != patch.new.data else "mode changed"


# -- JSON --------------------------------------------------------------------------


def _row_json(row: OpRow) -> dict[str, object]:
    data: dict[str, object] = {"position": row.position, "kind": str(row.op.kind),
                               "title": row.title}
    if isinstance(row.op, ConsoleCommand):
        data["command"] = row.op.text
    else:
        data["path"] = row.op.path
        if isinstance(row.op, Edit):
            data["edit"] = row.op.label
    data["decision"] = row.decision
    if row.reason:
        data["reason"] = row.reason
    if row.waits_on:
        data["waits_on"] = row.waits_on
    data["landed"] = row.landed
    data.update(row.outcome.to_json())
    data["findings"] = [f.to_json() for f in row.findings]
    return data


def report_json(accepted: Accepted) -> dict[str, object]:
    per_turn = _rows(accepted)
    every = [row for rows, _ in per_turn for row in rows]
    turns = []
    for turn, turn_result, (rows, loose) in zip(accepted.session.turns, accepted.run.turns,
                                                per_turn, strict=True):
        turns.append({
            "index": turn.index,
            "request": turn.request,
            "span": turn.span.as_list(),
            "need": list(turn.reply.need),
            "ops": [_row_json(row) for row in rows],
            "findings": [f.to_json() for f in loose],
            "ledger": list(turn_result.ledger),
        })
    files = [{"path": p.path, "change": _change(p), "from": p.old_path,
              "binary": bool((p.old and p.old.binary) or (p.new and p.new.binary))}
             for p in _files(accepted)]
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "session": accepted.source,
        "title": accepted.session.title,
        "decisions": "review" if accepted.reviewed else "apply",
        "state": accepted.state,
        "totals": totals(accepted, every).to_json(),
        "files": files,
        "turns": turns,
        "findings": [f.to_json() for f in accepted.findings if f.turn is None],
    }


# -- Markdown ----------------------------------------------------------------------


def _code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds."""
    runs = [len(run) for run in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _quote_block(text: str) -> list[str]:
    if not text:
        return ["> (no request)"]
    return [f"> {line}" if line else ">" for line in text.split("\n")]


def _finding_line(finding: Finding) -> str:
    return (f"lint {_code(finding.rule)} ({finding.severity}, line {finding.span.start}): "
            f"{finding.message}")


def _lines(span: tuple[int, int] | None) -> str:
    return f"{span[0]}-{span[1]}" if span else ""


def _totals_md(t: Totals) -> list[str]:
    out = [f"- {plural(t.turns, 'turn')}, {plural(t.operations, 'operation')}: "
           f"{t.landed} in the accepted "
           f"result, {t.failed} failed",
           f"- files: {t.added} added, {t.changed} changed, {t.removed} removed",
           "", "| Status | Operations |", "| --- | ---: |"]
    out += [f"| {status} | {count} |" for status, count in t.by_status.items()]
    out += ["", "| Decision | Operations |", "| --- | ---: |"]
    out += [f"| {decision} | {count} |" for decision, count in t.by_decision.items()]
    if t.findings:
        out += ["", "| Lint findings | Count |", "| --- | ---: |"]
        out += [f"| {severity} | {count} |" for severity, count in t.findings.items()]
    return out


def _waiting(row: OpRow) -> str:
    return (f"not in the accepted result yet: it lands on what {row.waits_on} writes, and "
            "is written once that one is accepted")


def _op_details(row: OpRow) -> list[str]:
    outcome = row.outcome
    out = [f"{row.position}. {_code(row.title)}: {outcome.message or outcome.status}"]
    if row.reason:
        out.append(f"   - {REJECTED_MESSAGE}: {row.reason}")
    if row.waits_on:
        out.append(f"   - {_waiting(row)}")
    if outcome.hint and outcome.hint not in outcome.message:
        out.append(f"   - hint: {outcome.hint}")
    if outcome.rule:
        out.append(f"   - rule: {_code(outcome.rule)}")
    out += [f"   - candidate lines {c.start}-{c.end}: {round(c.similarity * 100)}% similar, "
            f"{c.diagnosis}" for c in outcome.candidates]
    out += [f"   - {_finding_line(f)}" for f in row.findings]
    return out


def _turn_md(turn_index: int, request: str, need: Iterable[str], rows: list[OpRow],
             loose: list[Finding]) -> list[str]:
    out = [f"## Turn {turn_index}", "", *_quote_block(request), ""]
    if rows:
        out += ["| # | Operation | Decision | Status | Method | Lines |",
                "| ---: | --- | --- | --- | --- | --- |"]
        out += [f"| {row.position} | {_cell(row.title)} | {row.decision} | "
                f"{row.outcome.status} | {_cell(row.outcome.method)} | "
                f"{_lines(row.outcome.lines)} |" for row in rows]
        out.append("")
        for row in rows:
            out += _op_details(row)
        out.append("")
    else:
        out += ["No operations.", ""]
    if loose:
        out += ["Findings about the reply as a whole:", ""]
        out += [f"- {_finding_line(f)}" for f in loose]
        out.append("")
    needed = list(need)
    if needed:
        out += ["Need: " + ", ".join(_code(path) for path in needed), ""]
    return out


def report_markdown(accepted: Accepted) -> str:
    session = accepted.session
    per_turn = _rows(accepted)
    every = [row for rows, _ in per_turn for row in rows]
    title = session.title or accepted.source
    out = [f"# Review report: {title}", "",
           f"- session: {_code(accepted.source)}",
           f"- decisions: {accepted.decided_by}",
           *_totals_md(totals(accepted, every)), ""]
    session_findings = [f for f in accepted.findings if f.turn is None]
    if session_findings:
        out += ["Findings about the session:", ""]
        out += [f"- {_finding_line(f)}" for f in session_findings]
        out.append("")
    files = _files(accepted)
    out += ["## Files", ""]
    if files:
        out += ["| File | Change |", "| --- | --- |"]
        for patch in files:
            change = _change(patch)
            if patch.old_path not in (None, patch.path):
                change += f" (from {_code(patch.old_path or '')})"
            out.append(f"| {_cell(_code(patch.path))} | {_cell(change)} |")
    else:
        out.append("The accepted result changes no file.")
    out.append("")
    for turn, (rows, loose) in zip(session.turns, per_turn, strict=True):
        out += _turn_md(turn.index, turn.request, turn.reply.need, rows, loose)
    out += _statistics_md(accepted)
    out += ["## Operation ledger", "",
            "Every change the accepted operations made, in the order it ran, with the file",
            "revisions before and after (no content).", "", "```text"]
    for turn_result in accepted.run.turns:
        out += [f"turn {turn_result.index}: {line}" for line in turn_result.ledger]
    out += ["```", ""]
    return "\n".join(out)


def _statistics_md(accepted: Accepted) -> list[str]:
    """The session statistics of ``reviewtui stats``, as a block of plain text."""
    from reviewtui.core.review.stats import session_stats, stats_lines  # stats imports export

    return ["## Statistics", "", "```text", *stats_lines([session_stats(accepted)]), "```", ""]
