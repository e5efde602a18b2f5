"""``reviewtui mcp``: serve the file-tree API to an agent over stdio (see shell/agent_server)."""

from __future__ import annotations

import argparse

from reviewtui.cli import EXIT_OK
from reviewtui.core.errors import UsageError


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    mcp = sub.add_parser(
        "mcp", help="serve the project to an agent over MCP (stdio); every change is reviewed",
        description="An MCP server over stdio: ls, search, read, edit, replace_lines, "
        "batch_edit, write, move, remove, status, diff. Every change is recorded in a live "
        "session that `reviewtui open --live SESSION --root DIR` reviews as it arrives.")
    mcp.add_argument("--root", required=True, help="the project the agent works on")
    mcp.add_argument("--gate", choices=("review", "auto", "record"), default="review",
                     help="review: every change waits for the reviewer (default); auto: "
                     "exact and expression-only landings are written at once (still "
                     "reviewable and undoable); record: everything that lands is written, "
                     "review happens later")
    mcp.add_argument("--session", help="the live session file (default: under "
                     "$XDG_STATE_HOME/reviewtui/live/, named after the root)")
    mcp.add_argument("--wait", type=float, default=120.0, metavar="SECONDS",
                     help="how long a call waits for the reviewer before answering "
                     "'pending review' (default: 120)")
    mcp.add_argument("--where", action="store_true",
                     help="print the live session's path and exit")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path  # here: building the parser (``--help``) does not need it

    from reviewtui.shell.live import Gate
    from reviewtui.shell.live_paths import default_session_path

    root = Path(args.root)
    if not root.is_dir():
        raise UsageError("the project root is not a directory", source=str(root), rule="root")
    session = Path(args.session) if args.session else default_session_path(root)
    if args.where:
        print(session)
        return EXIT_OK
    if not 0 <= args.wait <= 86400:
        raise UsageError("--wait takes 0 to 86400 seconds", rule="wait")
    if session.is_symlink() or (session.exists() and not session.is_file()):
        raise UsageError("the live session must be a regular file or not exist yet",
                         source=str(session), rule="live-session")
    from reviewtui.shell.agent_server import serve_stdio

    serve_stdio(root, session, Gate(args.gate), args.wait)
    return EXIT_OK
