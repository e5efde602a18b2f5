"""What each ``reviewtui`` subcommand does: load, evaluate, report."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from reviewtui.cli import EXIT_FINDINGS, EXIT_OK, gitsource
from reviewtui.cli.report import (
    HELD_OPEN,
    PARTIAL,
    STOPPED,
    Places,
    diagnostic_lines,
    disk_json,
    finding_line,
    forced_line,
    has_errors,
    outcome_line,
    session_json,
    skipped_line,
    skipped_summary,
)
from reviewtui.core.engine import (
    OpResult,
    Policy,
    SessionRun,
    evaluate_session,
    file_text_for,
)
from reviewtui.core.engine.decisions import Decision, OpKey, Verdict
from reviewtui.core.errors import InputLimitError, UsageError
from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.lint.rules import lint_reply, lint_session, problem_finding
from reviewtui.core.model.outcome import FAILED, Outcome, Status
from reviewtui.core.model.records import Session, Turn
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.record import replace
from reviewtui.core.review.landed import diagnose_landed, introduced
from reviewtui.core.review.plan import op_path
from reviewtui.core.text.limits import place
from reviewtui.core.text.plural import plural
from reviewtui.shell.disk import scratch_copy
from reviewtui.shell.loader import LoadedSession, gc_paused, load_session, read_text
from reviewtui.shell.project import load_project

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:  # imported where used: ``check`` and ``lint`` need none of them
    import argparse  # the namespace of a plain check/apply is not argparse's

    from reviewtui.core.model.tree import Tree
    from reviewtui.core.protocol.config import ProjectConfig
    from reviewtui.core.review.diagnostics import Diagnostic
    from reviewtui.shell.git_commit import CommitReport
    from reviewtui.shell.replay_report import ReplayReport
    from reviewtui.shell.review import Review

def _project_for(loaded: LoadedSession, root: str | None) -> tuple[Path | None, str]:
    if root is not None:
        return Path(root), root
    if loaded.base is not None:
        return loaded.base, str(loaded.base)
    return None, ""


def _checked_tree(args: argparse.Namespace, loaded: LoadedSession, root: Path | None,
                  disk: Tree) -> tuple[Tree, list[str]]:
    """The tree ``check`` evaluates: the disk, or with a review of the session saved for
    this ``--root`` the files before that review wrote them (shell/export.py
    ``reviewed_base``; ``--from-disk``: the disk all the same)."""
    if (root is None or args.root is None or getattr(args, "from_disk", False)
            or getattr(args, "git_range", None) or getattr(args, "worktree", False)):
        return disk, []
    from reviewtui.shell.statepath import state_path_for

    state_path = state_path_for(loaded)[0]
    if not os.path.lexists(state_path):  # (anything else there is said, not skipped)
        return disk, []
    from reviewtui.shell.export import reviewed_base  # (the review: only with a state)

    return reviewed_base(loaded, root, state_path, disk, format=_format(args))


def _format(args: argparse.Namespace) -> str | None:
    """``--format``, None for auto-detection (also when the command has no such option)."""
    chosen = getattr(args, "format", None)
    return None if chosen in (None, "auto") else str(chosen)


def _print_json(doc: object) -> None:
    import json  # here: only --json needs it

    print(json.dumps(doc, indent=2, ensure_ascii=False))


def _project_checks(config: ProjectConfig, run: SessionRun, *, trust_now: bool
                    ) -> tuple[dict[OpKey, tuple[Diagnostic, ...]], str | None]:
    """The diagnostics of the project's ``[checks]`` on ``run``, and the note to print about
    them (``shell.checks``). Without ``[checks]`` there is neither, and that machinery
    (the trust store, process spawning, json) is not even imported."""
    if not config.checks:
        return {}, None
    from reviewtui.shell.checks import check_run, checks_to_run

    checks, note = checks_to_run(config, trust_now=trust_now)
    return check_run(run, checks), note


@gitsource.sourced(keep=False, head_root=True)
def check(args: argparse.Namespace) -> int:
    loaded = load_session(args.session, format=_format(args), root=args.root)
    root, root_label = _project_for(loaded, args.root)
    project = load_project(root, config_dirs=(loaded.directory,), lazy=True)
    if root is not None:  # as a review of it would refuse them (rule review-file)
        from reviewtui.shell.statepath import review_files

        project = replace(project, rules=replace(project.rules,
                                                 own=review_files(root, loaded.file, None)))
    tree, notes = _checked_tree(args, loaded, root, project.tree)
    for note in notes:
        print(note, file=sys.stderr if args.json else sys.stdout)
    if root is not None and loaded.session.format in ("git", "unified"):
        # (as apply reads a plain diff on a git checkout: by git's rules, a saved review's)
        from reviewtui.shell.state import StateFile
        from reviewtui.shell.state_git_apply import with_saved_rules
        from reviewtui.shell.statepath import state_path_for

        loaded = with_saved_rules(loaded, root, StateFile(state_path_for(loaded)[0],
                                                          read_only=True))
    run = evaluate_session(loaded.session, tree, rules=project.rules, policy=Policy.headless())
    findings = lint_session(loaded.session, file_text_for(run))
    source = str(loaded.file)
    where = Places(source)
    if getattr(args, "git_range", None) or getattr(args, "worktree", False):
        # A temporary file, gone when check ends: named by the commits, and the title
        where = Places.by_commit(source, loaded.session.turns,
                                 loaded.file.read_text(encoding="utf-8").splitlines())
        source, root_label = loaded.session.title, args.git_repository
    extra, checks_note = _project_checks(project.config, run,
                                         trust_now=getattr(args, "trust_checks", False))
    if checks_note:  # on stderr with --json, so stdout stays one JSON document
        print(checks_note, file=sys.stderr if args.json else sys.stdout)
    if loaded.format_note:
        print(f"note: {loaded.format_note}", file=sys.stderr)
    if args.json:
        doc = session_json(source, loaded.session.title, loaded.session.turns, findings, run,
                           root_label or None, extra)
        _print_json(doc)
    else:
        if root is None:
            print(f"{source}: note: no --root and no base/ folder: evaluating against an "
                  "empty project")
        for finding in findings:
            print(finding_line(where, finding))
        # Operations that introduce a syntax error (checked once); of them, those that do
        # not land as they are: needing a decision (a near match), or failed (refused).
        broken = undecided = failing = 0
        for turn in run.turns:
            for result in turn.results:
                print(outcome_line(where, result))
                own = introduced(result)
                broken += bool(own)
                if own and not result.landed:
                    if result.outcome.status in FAILED:
                        failing += 1
                    else:
                        undecided += 1
                for line in diagnostic_lines(result, extra.get(result.key, ()), own):
                    print(line)
        print(_summary(run, findings, broken, undecided, failing))
    return EXIT_FINDINGS if has_errors(findings, run) else EXIT_OK


def _summary(run: SessionRun, findings: list, broken: int,  # type: ignore[type-arg]
             undecided: int, failing: int) -> str:
    """The closing line of ``check``. ``broken``: operations that introduce a syntax error,
    ``undecided`` of them needing a decision first (a near match, say) and ``failing`` of
    them not applied (refused as a duplicate line, say): said apart, in the words of the
    counts before them, so the count of those that land reads as the statistics' (which
    count landed ones)."""
    apart = [f"{undecided} of them {'needs' if undecided == 1 else 'need'} a decision"
             if undecided else "",
             f"{failing} of them {'fails' if failing == 1 else 'fail'}" if failing else ""]
    said = ", ".join(part for part in apart if part)
    results = [r for t in run.turns for r in t.results]
    landed = sum(r.landed for r in results)
    failed = sum(r.outcome.status in FAILED for r in results)
    return (f"{plural(len(run.turns), 'turn')}, {plural(len(results), 'operation')}: "
            f"{landed} apply, "
            f"{failed} fail, {len(results) - landed - failed} need a decision; "
            f"{plural(len(findings), 'lint finding')}"
            + (f"; {broken} introduce syntax errors" if broken else "")
            + (f" ({said})" if said else ""))


def lint(args: argparse.Namespace) -> int:
    path = Path(args.file)
    text = read_text(path, "reply file")
    try:
        reply = parse_reply_text(text)
    except InputLimitError as err:  # a giant edit number: say which line
        raise place(err, text, str(path)) from None
    findings = lint_reply(reply)
    if args.json:
        doc = {"file": str(path), "findings": [f.to_json() for f in findings]}
        _print_json(doc)
    else:
        for finding in findings:
            print(finding_line(Places(str(path)), finding))
    return EXIT_FINDINGS if has_errors(findings, None) else EXIT_OK


def parse_turns(spec: str, session: Session) -> tuple[int, int]:
    """``N``, ``A-B``, ``A-`` (to the last turn) or ``-B`` (from the first). ``A-`` was
    read as ``A`` alone: a partly applied project under a clean summary."""
    count = len(session.turns)
    return span_of(spec, count, "--turns", "turn", "turns")


def span_of(spec: str, last: int, option: str, what: str, rule: str) -> tuple[int, int]:
    """(first, last) of ``N``, ``A-B``, ``A-`` (to ``last``) or ``-B`` (from 1), each
    within 1..``last``; a clear usage error otherwise (``what``: a turn, a line)."""
    head, dash, tail = spec.strip().partition("-")
    try:
        a = int(head) if head else 1
        b = (int(tail) if tail else last) if dash else a
    except ValueError:
        raise UsageError(f"{option} takes N, A-B, A- or -B, not {spec!r}", rule=rule) from None
    if not head and not tail:
        raise UsageError(f"{option} takes N, A-B, A- or -B, not {spec!r}", rule=rule)
    if a > b:
        raise UsageError(f"{option} {spec} is backwards: {what} {a} comes after {what} {b}",
                         rule=rule)
    if a < 1 or b > last:
        raise UsageError(f"{option} {spec} is outside 1-{last}", rule=rule)
    return a, b


def _apply_usage(args: argparse.Namespace) -> None:
    """What ``apply`` refuses whatever the session: before a git source is copied."""
    if not args.yes:
        raise UsageError("apply writes files without asking: pass --yes to accept every "
                         "operation that applies cleanly ('reviewtui check' previews)",
                         rule="confirm")
    if getattr(args, "branch", None) and not getattr(args, "commit", False):
        raise UsageError("--branch names where --commit puts the commits: add --commit",
                         rule="branch")


@gitsource.sourced(keep=True, usage=_apply_usage)
def apply(args: argparse.Namespace) -> int:
    from reviewtui.shell.outside import MSG_BEING_WRITTEN
    from reviewtui.shell.review import Review
    from reviewtui.shell.state import check_state_path

    loaded = load_session(args.session, format=_format(args), root=args.root)
    _check_commit_options(args, loaded.file)
    turns = parse_turns(args.turns, loaded.session) if args.turns else None
    if turns is not None and not getattr(args, "commit", False):  # (--commit: its own)
        _whole_sources(loaded.session, turns)
    if args.root is not None:
        root = Path(args.root)
    elif loaded.base is not None:
        root = scratch_copy(loaded.base, "apply")
        print(f"scratch copy of {loaded.base}: {root}")
    else:
        raise UsageError("no --root given and the session has no base/ folder to copy",
                         rule="root")
    state = check_state_path(Path(args.state)) if args.state else None
    # The workbench's replay path: content guard, atomic writes, the same messages.
    # The collector is off meanwhile (as for reading a session): the engine makes a tuple
    # of lines for each version of each file (10,000 lines each in a big file), and each
    # young-generation collection walks the new ones -- about a tenth of an apply of 191
    # edits. They hold no cycles, so reference counting frees them when the review
    # closes and that walk never happens; what is still alive when the collector comes
    # back is frozen, not walked (gc_paused: ~30 ms more), and so are the few cyclic
    # objects of the run (an apply ends its process).
    # The session as read above, not read and parsed again (with --root only: a scratch
    # copy is another root, against which absolute paths read otherwise).
    reuse = loaded if args.root is not None else None
    with gc_paused(), Review.open(args.session, root, state_path=state,
                                  persist=state is not None, format=_format(args),
                                  loaded=reuse, lazy=True) as review:
        _print_problems(review)
        opened = review.last_report
        wanted = review.applicable(turns, accept_fuzzy=args.accept_fuzzy)
        strict_skips: list[str] = []
        held: dict[OpKey, str] = {}
        if getattr(args, "strict", False):
            wanted, strict_skips, held = _strict(review, wanted)
        partial: dict[OpKey, str] = {}
        wanted, partial = _whole_files_only(review, wanted, turns,
                                            moves_only=getattr(args, "partial", False))
        held.update((key, why if why.startswith(STOPPED) else f"{PARTIAL}{why}")
                    for key, why in partial.items())
        _commit_possible(review, args)
        report = review.decide_many(wanted, by_draft=turns is not None)
        committed = _commit(review, args)
        first, last = turns or (1, max((t.index for t in review.session.turns), default=0))
        picked = [t for t in review.session.turns if first <= t.index <= last]
        # What the session holds and no operation carries (an edit cut off, a line that
        # is not a hunk header, a copy): nothing can write it, so it is said, and the
        # exit code says not everything was applied.
        lost = [problem_finding(p, t.index) for t in picked for p in t.reply.problems
                if p.severity == "error"]
        # Warnings too (a Claude Code call with no result, which may have run, is not
        # replayed: apply said nothing of it, QA s45 helper-138 #9). Those that are a change
        # the agent made or may have made and no operation carries (``unmade``: a
        # sub-agent's edits kept elsewhere, a notebook edit, a shell edit, a call with no
        # result) mean the disk is not what the session made: exit 1 (QA s47 helper-148
        # F2); the others leave the exit as it is.
        warned = [problem_finding(p, t.index) for t in picked for p in t.reply.problems
                  if p.severity == "warning"]
        unmade = sum(p.unmade for t in picked for p in t.reply.problems)
        # And the rules of severity error, as check reports them: a reply with no footer
        # (cut off?), prose in the patch stream, a recap in a full file (QA s47
        # helper-147 H4: a cut reply's full file written, exit 0, where check exits 1).
        ruled = _rule_errors(review, picked)
        chosen = [t for t in review.draft.turns if first <= t.index <= last]
        results = [replace(r, outcome=_as_written(review, r, by_draft=turns is not None))
                   for t in chosen for r in t.results]
        # A file another program holds open for writing is not written (shell/writers.py):
        # its operations are not applied, and an apply ends; it says so and exits 1.
        for landed in results:
            if landed.landed and (path := op_path(landed)) in report.held:
                held[landed.key] = f"{HELD_OPEN}{path}"
        skipped = [r for r in results if not r.landed or r.outcome.status is Status.CONFLICT
                   or held.get(r.key, "").startswith(HELD_OPEN)]
        source = str(loaded.file)
        where = Places(source)
        # The project's own checks on what landed, once its configuration is trusted.
        extra, checks_note = _project_checks(review.config, review.draft,
                                             trust_now=getattr(args, "trust_checks", False))
        if checks_note:
            print(checks_note, file=sys.stderr if args.json else sys.stdout)
        if args.json:
            doc = session_json(source, review.session.title, picked, lost + ruled, review.draft,
                               str(root), extra)
            # Each operation as it ended on disk (written, forced in, conflicting).
            by_key = {r.key: r for r in results}
            for turn_doc in doc["turns"]:  # type: ignore[attr-defined]
                for pos, op_doc in enumerate(turn_doc["ops"]):
                    result = by_key.get((turn_doc["index"], pos))
                    if result is not None:
                        op_doc.update(disk_json(result, accept_fuzzy=args.accept_fuzzy))
            doc["written"], doc["removed"] = report.written, report.removed
            doc["conflicts"] = report.conflicts
            doc["held_open"] = report.held  # open for writing elsewhere: not written
            doc["strict_skipped"] = strict_skips
            doc["partial_files"] = sorted({p for p in partial.values() if p[0] != "\0"})
            # (turn, position) of the sections after a failing one of their patch (Codex's)
            doc["codex_stopped"] = sorted([*key] for key, why in partial.items()
                                          if why.startswith(STOPPED))
            doc["messages"] = _messages(root, opened) + _messages(root, report)
            _print_json(doc)
        else:
            for finding in (*lost, *ruled, *warned):
                print(finding_line(where, finding))
            for result in skipped:
                print(skipped_line(where, result, held.get(result.key)))
            skipped_keys = {r.key for r in skipped}
            for result in results:
                if result.key not in skipped_keys and result.outcome.status is not Status.APPLIED:
                    print(forced_line(where, result, accept_fuzzy=args.accept_fuzzy))
            written = diagnose_landed([r for r in results if r.key not in skipped_keys])
            for result in results:
                if result.landed:
                    for line in diagnostic_lines(result, extra.get(result.key, ()),
                                                 written.get(result.key, ())):
                        print(f"{where(result.op.span.start)}: turn {result.key[0]}: "
                              f"{line.strip()}")
            for line in _messages(root, opened) + _messages(root, report):
                if not line.endswith(MSG_BEING_WRITTEN):  # (a workbench's promise, not apply's)
                    print(line)
            if not review.session.turns:  # (a file that is no session: not a success)
                print(f"{source}: no turns in it, so nothing to apply ('reviewtui check' "
                      "says how it was read)")
            print(f"{len(results) - len(skipped)} of {plural(len(results), 'operation')} "
                  f"applied; {plural(len(report.written), 'file')} written, "
                  f"{len(report.removed)} removed"
                  + (f", {plural(len(report.conflicts), 'conflict')}" if report.conflicts
                     else "")
                  + skipped_summary(skipped, held)
                  + (f"; {plural(len(lost), 'part')} of the session not read as operations "
                     "(above)" if lost else "")
                  + (f"; {plural(len(ruled), 'error')} of the protocol's rules (above)"
                     if ruled else "")
                  + (f"; {plural(len(warned), 'warning')} (above)" if warned else "")
                  + (f", {unmade} of them {'a change' if unmade == 1 else 'changes'} the "
                     "session made or may have made that the replay does not make"
                     if unmade else "")
                  + f" under {root}")
    if committed is not None:
        print(committed.summary(), file=sys.stderr if args.json else sys.stdout)
    return (EXIT_OK if not skipped and not report.conflicts and not lost and not ruled
            and not unmade and review.session.turns else EXIT_FINDINGS)


def _rule_errors(review: Review, picked: list[Turn]) -> list[Finding]:
    """The findings of severity error of the rules about how a File Ops reply is written
    (its footer, prose in the patch stream, a recap in a full file) in the ``picked``
    turns, as ``check`` reports them. The rules about what the operations do need the
    files (a 10,000-line file read for each: +0.3 s on an apply of 191 edits) and say
    what the operations' own outcomes say already (a refused path, a placeholder)."""
    from reviewtui.core.lint import prose, structure
    from reviewtui.core.lint.base import LintContext
    from reviewtui.core.lint.rules import FILEOPS_FORMATS

    if review.session.format not in FILEOPS_FORMATS:
        return []
    rules = [r for r in (*prose.RULES, *structure.RULES) if r.severity is Severity.ERROR]
    found: list[Finding] = []
    for turn in picked:
        context = LintContext(turn.reply, None)
        for r in rules:
            found += r.run(context, turn.index)
    return found


def _as_written(review: Review, result: OpResult, *, by_draft: bool) -> Outcome:
    """An operation's outcome as apply reports it: the workbench's, or in conflict; with
    ``--turns`` (``by_draft``) a landed operation's own, as the draft wrote it (the
    workbench's view previews the pending turns before it as landed)."""
    shown = review.outcome(result.key)
    if by_draft and result.landed and shown.status is not Status.CONFLICT:
        return result.outcome
    return shown


def _strict(review: Review, wanted: list[tuple[OpKey, Decision]]
            ) -> tuple[list[tuple[OpKey, Decision]], list[str], dict[OpKey, str]]:
    """``--strict``: without syntax errors and without writes to generated files; what that
    left pending, counted by reason (for the JSON), and the reason of each held operation."""
    kept = _without_syntax_errors(review, wanted)
    held = {key: "syntax error" for key in {k for k, _ in wanted} - {k for k, _ in kept}}
    plain = []
    for key, decision in kept:
        if review.result(key).outcome.generated:
            held[key] = "generated file"
        else:
            plain.append((key, decision))
    said = []
    syntax = sum(1 for why in held.values() if why == "syntax error")
    generated = len(held) - syntax
    if syntax:
        said.append(f"{syntax} introducing syntax errors")
    if generated:
        said.append(f"{generated} writing generated files")
    return plain, said, held


def _whole_files_only(review: Review, wanted: list[tuple[OpKey, Decision]],
                      turns: tuple[int, int] | None, *, moves_only: bool = False
                      ) -> tuple[list[tuple[OpKey, Decision]], dict[OpKey, str]]:
    """Without ``--partial``: the operations of a file whose patch does not apply whole are
    held back (see core/review/whole_files.py), with that file's path; with it
    (``moves_only``), those of a file a move takes whose patch does not apply whole."""
    from reviewtui.core.engine.codex_seek import CODEX_REFUSED  # here: apply only
    from reviewtui.core.review.whole_files import codex_stops, moves_not_whole, partial_files

    keys = {key for key, _ in wanted}

    def failed(key: OpKey) -> bool:
        return key not in keys and review.result(key).decision.verdict is Verdict.PENDING

    if moves_only:
        held = moves_not_whole(review.session, keys, failed, turns)
    else:  # (a chunk Codex refused too holds its patch, not the file's later ones)
        held = partial_files(review.session, keys, failed, turns, lambda key: review.result(
            key).outcome.rule == CODEX_REFUSED)
        held.update((key, STOPPED + why) for key, why in codex_stops(
            review.session, keys - held.keys(), lambda key: failed(key) or key in held,
            turns).items())
    return [(key, decision) for key, decision in wanted if key not in held], held


def _whole_sources(session: Session, turns: tuple[int, int]) -> None:
    """``--turns`` takes a source patch the importer split into turns whole, or refuses:
    its parts run together (a swap's first move alone lost the file it wrote over: QA s46
    helper-144 F5)."""
    from reviewtui.core.review.whole_files import source_units

    for unit in source_units(session, 1, len(session.turns)):
        inside = [turn.index for turn in unit if turns[0] <= turn.index <= turns[1]]
        if inside and len(inside) < len(unit):
            raise UsageError(f"--turns {turns[0]}-{turns[1]} cuts a patch the session split "
                             f"into turns {unit[0].index}-{unit[-1].index}, which run "
                             "together: take them all", rule="turns")


def _check_commit_options(args: argparse.Namespace, session_file: Path) -> None:
    """Before anything is written: --commit needs a git session."""
    if not getattr(args, "commit", False):
        return
    from reviewtui.shell.git import origin_of  # here: an apply without --commit needs no git

    if origin_of(session_file) is None:
        raise UsageError("--commit needs a session from git (--git A..B or --worktree); "
                         "'export --format patch' gives a patch of any session",
                         source=str(session_file), rule="not-git")


def _commit_possible(review: Review, args: argparse.Namespace) -> None:
    """``apply --commit``: what would refuse the commit whatever is written (an untracked
    file, HEAD moved, a staged change) refuses it before anything is written."""
    if getattr(args, "commit", False):
        from reviewtui.shell.git_commit import check_before_writing

        if args.turns:  # not half a commit, nor a resumed review's accepts outside them
            first, last = parse_turns(args.turns, review.session)
            turns = review.session.turns
            for inside, beside in ((first - 1, first - 2), (last - 1, last)):
                if (0 <= inside < len(turns) and 0 <= beside < len(turns)
                        and turns[inside].heading_span is not None
                        and turns[inside].heading_span == turns[beside].heading_span):
                    raise UsageError(
                        f"--turns {args.turns}: turns {min(inside, beside) + 1} and "
                        f"{max(inside, beside) + 1} are parts of one commit (its diff "
                        "removes a path and then reuses it), which --commit commits whole: "
                        "take both", rule="turns-split-commit")
            outside = sorted({key[0] for key, decision in review.decisions.items()
                              if decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
                              and not first <= key[0] <= last})
            if outside:
                raise UsageError(
                    f"--turns {args.turns}: this review already holds accepted turns "
                    f"{', '.join(map(str, outside))} (an earlier apply or open of it), "
                    "which --commit would commit too: commit them all without --turns, "
                    "or start the review over"
                    + (f" (delete {review.state_path}, and {review.root} if reviewtui "
                       "made that copy)" if review.state_path else ""),
                    rule="turns-resumed")
        check_before_writing(review, args.branch)


def _commit(review: Review, args: argparse.Namespace) -> CommitReport | None:
    """``apply --commit [--branch NAME]``: the accepted turns as commits."""
    if not getattr(args, "commit", False):
        return None
    from reviewtui.shell.git_commit import commit_review

    return commit_review(review, args.branch)


def _without_syntax_errors(review: Review,
                           wanted: list[tuple[OpKey, Decision]]) -> list[tuple[OpKey, Decision]]:
    """``--strict``: leave pending every operation that introduces a syntax error.

    Judged on the display run (every applicable operation joins it), which is the draft
    these accepts would make; a later edit of the same file then sees the file as if the
    skipped one had landed, and if it no longer applies it is reported as skipped too.
    """
    return [(key, decision) for key, decision in wanted if not introduced(review.result(key))]


def _messages(root: Path, report: ReplayReport | None) -> list[str]:
    if report is None:
        return []
    return [f"{root / path}: {text}" for path, text in report.events]


def _print_problems(review: Review) -> None:
    for problem in review.state_problems:
        print(f"reviewtui: {problem}", file=sys.stderr)
