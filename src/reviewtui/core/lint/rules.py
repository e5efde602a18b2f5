"""The rule registry and the entry points: ``lint_reply`` and ``lint_session``.

``RULES`` lists every id a finding can carry, in the order the docs present them:
first the problems the parser reports while reading (their checks live in the
parser, so ``check`` is ``None``), then the lint rules grouped by what they look at.
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.lint import (
    cost,
    edits,
    paths,
    placeholders,
    project_config,
    prose,
    structure,
)
from reviewtui.core.lint.base import FileText, LintContext, Rule
from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.model.records import ParseProblem, Reply, Session

E, W = Severity.ERROR, Severity.WARNING

PARSER_RULES: tuple[Rule, ...] = (
    Rule("unclosed-fence", E, "a code fence that is never closed"),
    Rule("cut-off", E, "a block the reply may hold only part of (its fence never closes, or "
         "the reply stops in it with no footer): not read as operations"),
    Rule("header-without-path", E, "a '--- File: ---' header that names no path"),
    Rule("empty-file-block", E, "a file header followed by neither edits nor content"),
    Rule("edit-without-header", E, "a search/replace edit before any file header"),
    Rule("unterminated-edit", E, "a SEARCH block missing its '=======' or REPLACE marker"),
    Rule("stray-marker", E, "a '=======' or '>>>>>>> REPLACE' marker with no SEARCH before it"),
    Rule("dangling-label", E, "an 'Edit N' label not followed by a SEARCH block"),
    Rule("malformed-marker", E, "a line typed as a SEARCH marker that is not one ('<<<< SEARCH')"),
    Rule("bad-address", E, "an 'Edit N @' label whose line range the grammar cannot read"),
    Rule("indented-block", E, "a block indented like a list item: its content not read"),
    Rule("second-footer", E, "a second '### Changed files:' footer"),
    Rule("unknown-command", E, "a ':' command the protocol does not define"),
    Rule("bad-command-arguments", E, "a console command with the wrong number of arguments"),
    Rule("no-turns", W, "a session file without any '## Turn N' heading"),
    Rule("bare-reply", W, "a file without '## Turn N' headings read as one reply"),
    Rule("turn-number", W, "a '## Turn N' heading whose number is not its position"),
)

LINT_RULES: tuple[Rule, ...] = (
    *prose.RULES,
    *structure.RULES,
    *paths.RULES,
    *edits.RULES,
    *placeholders.RULES,
    *cost.RULES,
    *project_config.RULES,
)

RULES: tuple[Rule, ...] = PARSER_RULES + LINT_RULES
RULES_BY_ID: dict[str, Rule] = {r.id: r for r in RULES}

# Rules about what any change does, whatever format it was written in. The others judge
# how a File Ops reply is written (footer, prose, labels, cost) and are not reported for
# imported formats (Codex patches, Aider histories, diffs, Claude Code transcripts).
GENERIC_RULES = frozenset({"absolute-path", "backslash-path", "parent-path", "placeholder",
                           "config-change", "generated-file"})
FILEOPS_FORMATS = frozenset({"fileops", "chat"})


def rule_ids() -> tuple[str, ...]:
    return tuple(r.id for r in RULES)


def problem_finding(problem: ParseProblem, turn: int | None = None) -> Finding:
    """A parser problem as a finding, with the parser's own id, severity, span and message."""
    try:
        severity = Severity(problem.severity)
    except ValueError:
        severity = Severity.ERROR
    return Finding(problem.rule, severity, problem.span, problem.message, turn=turn)


def lint_reply(
    reply: Reply, *, turn: int | None = None, file_text: FileText | None = None,
    fileops: bool = True,
) -> list[Finding]:
    """Every finding for one reply, sorted by span.

    ``file_text(path)`` gives a file's content as this turn's file blocks see it
    (after the turn's own moves and renames), or ``None`` when the file does not
    exist. Without it, the rules that need file content are skipped, and an empty
    SEARCH counts as an error because nothing shows the file is new. With
    ``fileops=False`` (an imported format) only ``GENERIC_RULES`` run.
    """
    ctx = LintContext(reply, file_text)
    found = [problem_finding(p, turn) for p in reply.problems]
    for r in LINT_RULES:
        if fileops or r.id in GENERIC_RULES:
            found.extend(r.run(ctx, turn))
    return sorted(found, key=Finding.sort_key)


def lint_session(
    session: Session,
    file_text_for_turn: Callable[[int], FileText] | None = None,
    *, pace: Callable[[], None] | None = None,
) -> list[Finding]:
    """The session's own problems plus every turn's findings, in turn then line order.

    A session problem that sits inside a turn (a wrong ``## Turn N`` heading) is
    attributed to that turn. For an imported format (``session.format``) the File Ops
    rules are left out; the importer's own problems are reported as they are.
    ``pace``: called after each turn (the workbench's lint thread lets the screen's
    thread take the interpreter there).
    """
    fileops = session.format in FILEOPS_FORMATS
    found: list[Finding] = []
    for problem in session.problems:
        owners = [t.index for t in session.turns
                  if t.span.start <= problem.span.start <= t.span.end]
        found.append(problem_finding(problem, owners[0] if len(owners) == 1 else None))
    for turn in session.turns:
        file_text = file_text_for_turn(turn.index) if file_text_for_turn is not None else None
        found.extend(lint_reply(turn.reply, turn=turn.index, file_text=file_text,
                                fileops=fileops))
        if pace is not None:
            pace()
    return sorted(found, key=Finding.sort_key)
