"""The commands that open the workbench: ``open`` (and ``open --live``), ``demo``, and
``serve`` (the workbench as a web page). Only these load the UI stack."""

from __future__ import annotations

import sys
from pathlib import Path

from reviewtui.cli import EXIT_OK, gitsource
from reviewtui.cli.commands import _format

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    import argparse

DEMO_SESSION = Path(__file__).resolve().parents[3] / "sample_sessions" / "workshop-tour"


@gitsource.sourced(keep=True)
def open_workbench(args: argparse.Namespace) -> int:
    from reviewtui.shell.review import Review
    from reviewtui.shell.state import check_state_path
    from reviewtui.ui.app import ReviewApp

    root = Path(args.root) if args.root else None
    state = check_state_path(Path(args.state)) if args.state else None
    live = getattr(args, "live", False)
    fmt = _format(args)
    if live:
        from reviewtui.core.errors import UsageError
        from reviewtui.shell.live_paths import live_state_path, prepare_live_session

        if state is not None and state.resolve() != live_state_path(
                Path(args.session)).resolve():
            # The MCP server reads the decisions beside the session: another file was
            # decided in and never read there (QA s46 helper-141 F7).
            raise UsageError("--live keeps the review state beside the session, where the "
                             f"MCP server reads it ({live_state_path(Path(args.session))}): "
                             "leave --state out", rule="live-state")
        state = prepare_live_session(Path(args.session), root)
        fmt = "toolcalls"
    # The first frame paints before the rest is evaluated (ui/evaluating.py). The files
    # the session names are read at opening, the rest of the project when first needed
    # (shell/resume.py); a live session names new files as it grows: read whole.
    review = Review.open(args.session, root, dry_run=args.dry_run, state_path=state,
                         format=fmt, first_frame=True, lazy=not live)
    try:
        ReviewApp(review, watch=not args.no_watch, present=getattr(args, "present", False),
                  live=getattr(args, "gate", "review") if live else None).run()
    finally:
        review.close()
    for path in sorted(review.held_paths):  # (q asked first: said again where it stays)
        print(f"reviewtui: {review.root / path}: open for writing in another program, so "
              "the accepts there are not written yet"
              + ("; opening this review again writes them" if review.state_path is not None
                 and not review.scratch else ""), file=sys.stderr)
    if review.scratch and review.dry_run and state is None:
        # A dry run wrote nothing there and saved no state: the copy is base/ alone.
        import shutil

        shutil.rmtree(review.root, ignore_errors=True)
    elif review.scratch:
        # Kept (it holds what was accepted), but not resumed: the next open of the session
        # makes a fresh copy. Said, so a half-done review is not taken for a saved one.
        print(f"reviewed on a scratch copy: {review.root} (kept; opening the session again "
              "starts a fresh copy: --root DIR reviews a folder you keep, and resumes)")
    return EXIT_OK


def demo(args: argparse.Namespace) -> int:
    """The workshop tour in the workbench, on a scratch copy: the sample stays untouched."""
    import argparse

    ns = argparse.Namespace(session=str(DEMO_SESSION), root=None, state=None,
                            dry_run=getattr(args, "dry_run", False), no_watch=False,
                            present=getattr(args, "present", False))
    return open_workbench(ns)


def serve(args: argparse.Namespace) -> int:
    """The workbench as a web page: one ``reviewtui open`` process per browser connection."""
    from reviewtui.shell.serve import check_listen, plan_serve, run_server

    plan = plan_serve(args.session or DEMO_SESSION, args.root, host=args.host, port=args.port,
                      dry_run=args.dry_run, public_url=args.public_url)
    check_listen(plan)  # before the address is printed
    if plan.warning:
        print(f"reviewtui: warning: {plan.warning}", file=sys.stderr)
    print(f"reviewtui: open {plan.address} in a browser (Ctrl+C stops the server)",
          flush=True)
    run_server(plan)
    return EXIT_OK
