"""The ``reviewtui`` command line: argument parsing and dispatch, nothing more."""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from reviewtui import __version__
from reviewtui.cli.visible_output import visible_output
from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.text.visible import visible

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    import argparse
    from typing import Any, NoReturn

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
EXIT_PIPE = 128 + 13  # killed by SIGPIPE, as a shell reports it for cat or git


def _columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing shutil (and with it bz2,
    lzma and zlib) for every command: the width argparse wraps help and usage to."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return 80
    try:
        return os.get_terminal_size(stdout.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):  # closed, detached, not a terminal
        return 80


SESSION_FORMATS = ("auto", "fileops", "chat", "apply_patch", "aider", "unified", "claude",
                   "toolcalls", "git")


def _add_format(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=SESSION_FORMATS, default="auto",
                         help="the session's format (default: auto, detected from the "
                         "content); see docs/formats.md")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only`` (a subcommand, or ``--help``), only that
    subcommand's options are built: the others keep their name and help."""
    from reviewtui.cli import gitsource
    from reviewtui.cli.parsers import Parser, Subcommands

    parser = Parser(prog="reviewtui", description="Review what an AI model did to a codebase.")
    parser.add_argument("--version", action="version", version=f"reviewtui {__version__}")
    # prog: what argparse would work out by formatting the usage line ("reviewtui": no
    # positionals yet), without building a help formatter for it.
    sub = parser.add_subparsers(dest="command", parser_class=Parser, action=Subcommands,
                                prog=parser.prog)
    assert isinstance(sub, Subcommands)
    sub.only = only

    check = sub.add_parser("check", help="parse, lint and evaluate a session (writes nothing)")
    check.add_argument("session", nargs="?", help="a session file or a session directory")
    gitsource.add_options(check)
    _add_format(check)
    check.add_argument("--root", help="the project the session edits (default: the "
                       "session directory's base/, else an empty tree)")
    check.add_argument("--json", action="store_true", help="one JSON document on stdout")
    check.add_argument("--from-disk", action="store_true",
                       help="with a saved review of the session: check the disk as it is, "
                       "not the files as they were before the review wrote them")
    check.add_argument("--trust-checks", action="store_true",
                       help="trust this exact reviewtui.toml (remembered per content hash) "
                       "and run its [checks] commands on scratch copies")

    lint = sub.add_parser("lint", help="parse and lint a single model reply")
    lint.add_argument("file", help="a file holding one reply")
    lint.add_argument("--json", action="store_true", help="one JSON document on stdout")

    apply = sub.add_parser("apply", help="write the session's applicable operations to disk")
    apply.add_argument("session", nargs="?", help="a session file or a session directory")
    gitsource.add_options(apply)
    _add_format(apply)
    apply.add_argument("--root", help="the project to write to (default: a scratch copy of "
                       "the session directory's base/)")
    apply.add_argument("--yes", action="store_true",
                       help="accept every operation that applies cleanly (required)")
    apply.add_argument("--turns", help="only these turns: 3, 1-3, 3- (to the last) or -3")
    apply.add_argument("--accept-fuzzy", action="store_true",
                       help="also accept near matches (needs_review)")
    apply.add_argument("--trust-checks", action="store_true",
                       help="trust and run the project's reviewtui.toml [checks] on what "
                       "was applied, and report their findings")
    apply.add_argument("--strict", action="store_true",
                       help="leave pending every operation that introduces a syntax error")
    apply.add_argument("--partial", action="store_true",
                       help="unified diffs, git ranges, apply_patch: write a file even when "
                       "only some of its hunks apply (default: such a file is not written)")
    apply.add_argument("--json", action="store_true", help="one JSON document on stdout")
    apply.add_argument("--state", help="record the decisions in this review state file, so "
                       "the workbench can resume and 'restore' can roll back (default: none)")
    apply.add_argument("--commit", action="store_true",
                       help="with --git/--worktree: commit the accepted turns, one commit "
                       "per turn that changed a file (see 'With git' in the README)")
    apply.add_argument("--branch", metavar="NAME",
                       help="with --commit: on a new branch NAME from the review's base, "
                       "instead of the checked-out one")

    restore = sub.add_parser("restore", help="put a checkpoint of a saved review back on disk")
    restore.add_argument("session", help="a session file or a session directory")
    _add_format(restore)
    restore.add_argument("--root", required=True, help="the project the review writes to")
    restore.add_argument("--checkpoint", required=True, type=int, metavar="N",
                         help="0 is the project before turn 1, N the project after turn N")
    restore.add_argument("--yes", action="store_true",
                         help="write the files (without it: list what would change)")
    restore.add_argument("--state", help="the review state file (default: "
                         "<session file>.review.json)")

    review = sub.add_parser("open", help="review a session in the workbench (the default)")
    review.add_argument("session", nargs="?", help="a session file or a session directory")
    gitsource.add_options(review)
    _add_format(review)
    review.add_argument("--root", help="the project to write to (default: a scratch copy of "
                        "the session directory's base/)")
    review.add_argument("--dry-run", action="store_true",
                        help="never write to disk (workshops, demos)")
    review.add_argument("--state", help="the review state file (default: "
                        "<session file>.review.json)")
    review.add_argument("--no-watch", action="store_true",
                        help="do not watch the project for outside changes")
    review.add_argument("--present", action="store_true",
                        help="presenter mode: narration panel, autoplay, clicker keys")
    review.add_argument("--live", action="store_true",
                        help="a live session that `reviewtui mcp` is still recording: new "
                        "operations appear as they arrive")
    review.add_argument("--gate", choices=("review", "auto", "record"), default="review",
                        help="with --live: which arriving operations this workbench accepts "
                        "by itself (default review: none; see `reviewtui mcp --help`)")

    view = sub.add_parser("view", help="a file with line numbers or ids, or its outline")
    view.add_argument("file", help="the file to show")
    view.add_argument("--hash", action="store_true", help="line ids (12:a3) instead of numbers")
    view.add_argument("--range", help="only lines A-B (or one line N)")
    view.add_argument("--all", action="store_true",
                      help="the whole file even when it is long (no outline)")

    demo = sub.add_parser("demo", help="the bundled workshop-tour session, on a scratch copy")
    demo.add_argument("--dry-run", action="store_true", help="never write, even to the copy")
    demo.add_argument("--present", action="store_true",
                      help="presenter mode: narration panel, autoplay, clicker keys")

    serve = sub.add_parser("serve", help="serve the workbench as a web page (textual-serve)")
    serve.add_argument("session", nargs="?", help="a session file or a session directory "
                       "(default: the bundled workshop-tour)")
    serve.add_argument("--root", help="the project every browser connection writes to "
                       "(default: a fresh scratch copy of base/ per connection)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on "
                       "(default: 127.0.0.1; any other address lets others in: see README)")
    serve.add_argument("--port", type=int, default=8000, help="default: 8000")
    serve.add_argument("--dry-run", action="store_true",
                       help="the served workbench never writes to disk")
    serve.add_argument("--public-url", metavar="URL", help="the address browsers use to "
                       "reach this server, when it is not http://HOST:PORT (a proxy, or "
                       "--host 0.0.0.0 reached by IP)")

    # The subcommands with modules of their own: imported when their options are built or
    # their help is listed (``--help``); another subcommand's run needs only their names,
    # for the choices in the usage line.
    for name in ("export", "stats", "mcp"):
        if only in (None, "-h", "--help", name):
            importlib.import_module(f"reviewtui.cli.{name}").add_parser(sub)
        else:
            sub.add_parser(name)
    return parser


COMMANDS = frozenset({"check", "lint", "apply", "restore", "open", "demo", "serve", "export",
                      "stats", "view", "mcp"})


def _with_default_command(argv: list[str]) -> list[str]:
    """``reviewtui SESSION`` means ``reviewtui open SESSION``."""
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        return ["open", *argv]
    return argv


# command -> (module under reviewtui.cli, function). Imported only for the command that
# runs: ``--help`` and ``view`` need none of the engine, and no headless command imports
# the UI stack (textual, rich, pygments), which only ``open``/``demo``/``serve`` load.
_HANDLERS = {
    "check": ("commands", "check"),
    "lint": ("commands", "lint"),
    "apply": ("commands", "apply"),
    "restore": ("restore", "restore"),
    "open": ("workbench", "open_workbench"),
    "demo": ("workbench", "demo"),
    "serve": ("workbench", "serve"),
    "export": ("export", "export"),
    "stats": ("stats", "stats"),
    "view": ("view", "view"),
    "mcp": ("mcp", "run"),
}


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    module, name = _HANDLERS[command]
    found: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(f"reviewtui.cli.{module}"), name)
    return found


def _only(argv: list[str]) -> str | None:
    """The subcommand ``argv`` runs, when its first word says so (``--help``: none)."""
    if argv and (argv[0] in COMMANDS or argv[0] in ("-h", "--help")):
        return argv[0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    words = _with_default_command(list(sys.argv[1:] if argv is None else argv))
    from reviewtui.cli import quick_args  # here: it reads SESSION_FORMATS from this module

    # The plain command lines of check, apply and lint need no argparse: the same
    # namespace, without importing, building and running it (issue 13, start-up).
    args: Any = quick_args.parse(words)
    if args is None:
        parser = build_parser(only=_only(words))
        args = parser.parse_args(words)
        if args.command is None:
            args = parser.parse_args(["demo"])
    try:
        with visible_output(args.command):  # outside text never steers the terminal
            code = _handler(args.command)(args)
        sys.stdout.flush()  # here, so a reader that left early is caught below
        return code
    except ReviewtuiError as err:
        print(f"reviewtui: {visible(str(err), keep=chr(10))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_left()


# Commands that have done all their work when main() returns: no thread, no server, no
# terminal to restore. After them the process may end at once (see ``run``).
_ENDS_AT_ONCE = frozenset({"check", "lint", "apply", "restore", "view", "export", "stats",
                           "-h", "--help", "--version"})


def run() -> NoReturn:
    """The process entry point of ``reviewtui`` and ``python -m reviewtui``: ``main()``,
    then the end of the process.

    A headless command ends with ``os._exit`` once stdout and stderr are flushed: tearing
    down the ~180 modules ``check`` imported took 15-20 ms, about as long as the whole
    start of a bare interpreter (issue 13, "Headless start-up"). Nothing is lost by it:
    these commands write files through closed or raw descriptors, and the shortcut is
    only taken when no other thread runs and nothing asked for work at exit
    (``atexit``, also what ``weakref.finalize`` and ``tempfile`` use); otherwise, and for
    the workbench and servers, the interpreter ends as usual. The exit status is the
    one ``raise SystemExit(main())`` gives, 141 on a closed pipe included.
    """
    argv = sys.argv[1:]
    words = _with_default_command(argv)
    headless = bool(words) and words[0] in _ENDS_AT_ONCE
    if headless and words[0] in _HANDLERS:
        _import_uncollected(words[0])
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse: --help, --version, a usage error
        if not headless or not isinstance(stop.code, int | None):
            raise
        code = stop.code or 0
    if not headless:
        raise SystemExit(code)
    _end_at_once(code)


def _import_uncollected(command: str) -> None:
    """Import ``command``'s module (and with it the engine) with the cyclic garbage
    collector off, then freeze what the imports made.

    Importing makes tens of thousands of objects (modules, classes, functions) and no
    garbage cycles, yet each allocation burst set off a collection that walked them all
    again: ~30 collections, ~5 ms of a one-turn ``check`` (issue 13, "Headless start-up").
    Frozen, they are not walked by the collections of the work that follows either.
    Only in the process entry point: tests that call ``main()`` keep their collector.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        _handler(command)
    finally:
        gc.freeze()
        if was_on:
            gc.enable()


def _end_at_once(code: int) -> NoReturn:
    threading = sys.modules.get("threading")
    if (threading is not None and threading.active_count() > 1) or atexit._ncallbacks():
        raise SystemExit(code)  # threads to wait for, work at exit: the usual end
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # the interpreter's own last flush reports it, as before
        raise SystemExit(code) from None
    os._exit(code)


def _reader_left() -> int:
    """The output's reader stopped reading (``reviewtui check ... | head -1``).

    Python ignores SIGPIPE, so the write raised instead. Do what ``cat`` and ``git`` do,
    which die of SIGPIPE: stop quietly, with the status a shell shows for that (141). What
    was already done stays done; stdout goes to /dev/null so the interpreter's last flush
    at exit cannot complain either.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (tests)
        pass
    finally:
        os.close(devnull)
    return EXIT_PIPE
