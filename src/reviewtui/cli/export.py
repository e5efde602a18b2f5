"""``reviewtui export``: the accepted result as a patch, a report or canonical replies."""

from __future__ import annotations

import argparse
import sys

from reviewtui.cli import EXIT_FINDINGS, EXIT_OK, SESSION_FORMATS, gitsource
from reviewtui.core.errors import DiskError, UsageError

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import BinaryIO

    from reviewtui.core.export import Accepted

# reviewtui.core.export.FORMATS, spelt out so that building the parser (``--help``) does
# not import the engine; a test keeps the two equal.
FORMATS = ("patch", "markdown", "json", "fileops", "context")
# The formats that are the result itself (the reports list every operation, failed ones
# too): each change they leave out is named on stderr, and the export exits 1.
RESULTS = ("patch", "fileops", "series")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    export = sub.add_parser(
        "export", help="the accepted result as a patch, a review report or canonical replies",
        description="Export the accepted result: with a review state file, the reviewer's "
        "decisions; without one, every operation that applies (as 'apply --yes').")
    export.add_argument("session", nargs="?", help="a session file or a session directory")
    gitsource.add_options(export)
    export.add_argument("--format", required=True, choices=(*FORMATS, "series"),
                        help="patch: a unified diff for 'git apply'; markdown: a review "
                        "report; json: the report as data; fileops: canonical File Ops "
                        "replies (what the model should have sent); context: what the next "
                        "prompt should carry (changed ranges, rejections, Need: files); "
                        "series: with "
                        "--git/--worktree, a git format-patch series, one mail per turn, "
                        "for 'git am'")
    export.add_argument("--root", help="the project the session edits (default: the root "
                        "the review was saved for, else the session directory's base/)")
    export.add_argument("--state", help="the review state whose decisions to export "
                        "(default: <session file>.review.json when it exists)")
    export.add_argument("--output", "-o", metavar="FILE",
                        help="write here instead of standard output ('-': standard output)")
    export.add_argument("--session-format", choices=SESSION_FORMATS, default="auto",
                        help="the session's format (default: detected from the content)")


def _write_all(out: BinaryIO, data: bytes) -> None:
    """Write every byte, or raise: a buffered write can return a short count instead of
    raising when the reader leaves mid-write (``| head``), and the rest would be dropped."""
    view = memoryview(data)
    while view:
        written = out.write(view)
        if not written:  # nothing taken and no error: do not spin
            raise DiskError("standard output takes no more data", rule="write")
        view = view[written:]
    out.flush()


@gitsource.sourced(keep=False, reviewed=True)
def export(args: argparse.Namespace) -> int:
    from reviewtui.core.export import render
    from reviewtui.shell.disk import atomic_write
    from reviewtui.shell.export import load_accepted

    chosen = None if args.session_format == "auto" else args.session_format
    unreproduced: list[str] = []
    accepted, problems = load_accepted(args.session, args.root, state=args.state,
                                       format=chosen)
    for problem in problems:
        print(f"reviewtui: {problem}", file=sys.stderr)
    # Bytes as they are: a patch of a CRLF file must keep its carriage returns.
    if args.format == "series":
        from reviewtui.shell.git_commit import git_series

        data = git_series(accepted).encode("utf-8")
        if not data:  # (git am reads an empty file as "Patch format detection failed")
            raise UsageError("nothing to export: no accepted turn changes a file"
                             + (" (the operations that fail are named above)"
                                if _say_left_out(accepted, args) else ""),
                             source=accepted.session.title, rule="nothing-accepted")
    elif args.format == "fileops":  # (and what its replies cannot carry: named, exit 1)
        from reviewtui.core.export.fileops import canonical_replies

        text, unreproduced = canonical_replies(accepted)
        data = text.encode("utf-8")
    else:
        data = render(accepted, args.format).encode("utf-8")
    missing = _say_left_out(accepted, args) if args.format in RESULTS else 0
    if args.format == "fileops" and unreproduced:
        for where in unreproduced:
            print(f"reviewtui: {where}: its content cannot be re-expressed exactly as a File "
                  "Ops reply (a reply does not carry it as it is: a line the parser reads "
                  "as an edit's marker or a fence, or line endings or a last line without "
                  "a newline); the export's replies do not reproduce it", file=sys.stderr)
        missing += len(unreproduced)
    code = EXIT_FINDINGS if missing else EXIT_OK
    if args.output in (None, "-"):  # ("-": standard output, as for git and most tools)
        sys.stdout.flush()
        if sys.stdout.isatty():
            # For reading there, not for a tool: commit messages and session text can hold
            # terminal sequences (QA s36 helper-106: a markdown report cleared the screen).
            from reviewtui.core.text.visible import visible

            data = visible(data.decode("utf-8", "surrogateescape"),
                           keep="\n\t").encode("utf-8", "surrogateescape")
        _write_all(sys.stdout.buffer, data)
        return code
    from pathlib import Path  # here: building the parser (``--help``) does not need it

    target = Path(args.output).absolute()
    _check_output(target, accepted, args)
    atomic_write(target.parent, target.name, data)
    print(f"{args.format} export written to {args.output}", file=sys.stderr)
    return code


def _say_left_out(accepted: Accepted, args: argparse.Namespace) -> int:
    """Name on stderr each operation the result leaves out (see
    :func:`reviewtui.core.export.accepted.left_out`), as ``apply`` names it, and each
    change a working tree's review left out (``git-skipped``); the count."""
    from reviewtui.cli.report import Places, finding_line, outcome_line
    from reviewtui.core.engine import op_title
    from reviewtui.core.export.accepted import left_out
    from reviewtui.core.importers.gitlog import SKIPPED

    missing = left_out(accepted)
    skipped = [f for f in accepted.findings if f.rule == SKIPPED]
    if not missing and not skipped:
        return 0
    where = Places(accepted.source)
    if getattr(args, "git_range", None) or getattr(args, "worktree", False):
        from pathlib import Path

        # A temporary session file, gone when the export ends: named by the commits.
        where = Places.by_commit(accepted.source, accepted.session.turns,
                                 Path(accepted.source).read_text(encoding="utf-8").splitlines())
    taken = dict(accepted.taken_back)
    for result in missing:
        if result.key in taken:
            print(f"{where(result.op.span.start)}: turn {result.key[0]} "
                  f"{op_title(result.op)}: {taken[result.key]}", file=sys.stderr)
        else:
            print(outcome_line(where, result), file=sys.stderr)
    for finding in skipped:
        print(finding_line(where, finding), file=sys.stderr)
    count = len(missing) + len(skipped)
    print(f"reviewtui: {count} change{'' if count == 1 else 's'} left out of the export "
          "(named above)", file=sys.stderr)
    return count


def _check_output(target: Path, accepted: Accepted, args: argparse.Namespace) -> None:
    """``--output`` never replaces what the export reads or reviews: the session (or its
    ``base/``), its review state, or a file of the project the session changes; and it
    writes into a folder that exists (it made missing ones, wherever the path said).
    (``--output ws/session.md`` replaced the session it was exporting: found by
    helper-73.)"""
    from pathlib import Path

    def inside(path: Path, folder: Path) -> bool:
        return path == folder or folder in path.parents

    resolved = target.resolve()
    if not target.parent.is_dir():
        raise UsageError(f"--output {args.output}: the folder {target.parent} does not exist",
                         rule="output")
    if resolved.is_dir():
        raise UsageError(f"--output {args.output} is a folder: name a file", rule="output")
    source = Path(accepted.source).resolve()
    if resolved == source:
        raise UsageError(f"--output {args.output} is the session being exported",
                         source=str(source), rule="output")
    session = Path(args.session).resolve() if args.session else None
    if session is not None and session.is_dir() and inside(resolved, session / "base"):
        raise UsageError(f"--output {args.output} is inside the session's base/",
                         source=str(session), rule="output")
    from reviewtui.shell.statemark import mark_path
    from reviewtui.shell.statepath import blob_dir_for, default_state_path
    from reviewtui.shell.userkey import state_home

    # (reviewtui's own folder: a transcript's review state, the state's seal key, the
    # temp-name key; QA s53 helper-225 overwrote each)
    if inside(resolved, state_home().resolve()):
        raise UsageError(f"--output {args.output} is in reviewtui's own state folder "
                         f"({state_home()})", rule="output")

    # (the state read, and the one beside the session a later review reads, each with its
    # .written mark and blob folder: QA s53 helper-221 overwrote the mark, and the default
    # state before any existed, the next command then reporting a corrupt state)
    for state in {default_state_path(source), *([Path(accepted.state)] if accepted.state
                                                 else [])}:
        state = state.resolve()
        if resolved in (state, mark_path(state)) or inside(resolved, blob_dir_for(state)):
            raise UsageError(f"--output {args.output} is the review's state (or its mark "
                             "or blob folder)", source=str(state), rule="output")
    if args.root:
        root = Path(args.root).resolve()
        if inside(resolved, root):
            rel = resolved.relative_to(root).as_posix()
            changed = {path for turn in accepted.session.turns for op in turn.reply.ops
                       if isinstance(path := getattr(op, "path", None), str)}
            if rel in changed:
                raise UsageError(f"--output {args.output} is {rel}, a file of the project "
                                 "the session changes", source=str(root), rule="output")
