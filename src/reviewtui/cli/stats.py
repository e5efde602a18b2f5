"""``reviewtui stats``: what a session's replies did, or two sessions side by side."""

from __future__ import annotations

import argparse
import sys

from reviewtui.cli import SESSION_FORMATS, gitsource


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    stats = sub.add_parser(
        "stats", help="session statistics; two or more sessions side by side",
        description="Operations by kind, outcomes by status and matching method, lint "
        "findings by rule, tokens sent against the cheapest safe form, and the decisions: "
        "a review state's when one exists, else every operation that applies.")
    stats.add_argument("sessions", nargs="*", metavar="SESSION",
                       help="session files or directories (two to compare them)")
    gitsource.add_options(stats)
    stats.add_argument("--root", help="the project the sessions edit (default: each "
                       "session directory's base/)")
    stats.add_argument("--json", action="store_true", help="one JSON document on stdout")
    stats.add_argument("--session-format", choices=SESSION_FORMATS, default="auto",
                       help="the sessions' format (default: detected from the content)")


@gitsource.sourced(keep=False, session_attr="sessions")
def stats(args: argparse.Namespace) -> int:
    # Here, not at the top: building the parser must not import the engine.
    from pathlib import Path

    from reviewtui.core.review.stats import session_stats, stats_lines
    from reviewtui.shell.export import load_accepted
    from reviewtui.shell.state import read_time_spent

    chosen = None if args.session_format == "auto" else args.session_format
    found = []
    for session in args.sessions:
        accepted, problems = load_accepted(session, args.root, format=chosen)
        for problem in problems:
            print(f"reviewtui: {problem}", file=sys.stderr)
        times = read_time_spent(Path(accepted.state)) if accepted.state else {}
        found.append(session_stats(accepted, times))
    if args.json:
        import json  # here: building the parser (``--help``) does not need it

        doc: object = found[0].to_json() if len(found) == 1 else [s.to_json() for s in found]
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print("\n".join(stats_lines(found)))
    return 0
