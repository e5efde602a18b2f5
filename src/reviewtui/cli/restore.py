"""``reviewtui restore``: a checkpoint of a saved review put back on disk (its preview
without ``--yes``). Moved out of :mod:`.commands` whole."""

from __future__ import annotations

from pathlib import Path

from reviewtui.cli import EXIT_FINDINGS, EXIT_OK
from reviewtui.cli.commands import _format, _messages, _print_problems
from reviewtui.core.errors import UsageError
from reviewtui.core.text.plural import plural
from reviewtui.shell.loader import load_session

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    import argparse

    from reviewtui.shell.replay_report import ReplayReport
    from reviewtui.shell.review import Review


def restore(args: argparse.Namespace) -> int:
    from reviewtui.shell.outside import MSG_BEING_WRITTEN
    from reviewtui.shell.review import Review
    from reviewtui.shell.state import check_state_path
    from reviewtui.shell.statepath import state_path_for

    loaded = load_session(args.session, format=_format(args), root=args.root)
    state = (check_state_path(Path(args.state)) if args.state
             else state_path_for(loaded)[0])
    if not state.is_file():
        raise UsageError(f"no review state at {state}: restore needs the decisions and "
                         "original contents a review saved (review the session in the "
                         "workbench, or run 'apply --state FILE' first)", rule="no-state")
    from reviewtui.shell.state import StateFile

    saved, problems = StateFile(state, read_only=True).load()
    if saved is None:  # (read without moving it aside: a restore is no fresh review)
        raise UsageError(f"the review state at {state} cannot be read, and restore needs "
                         "the decisions and original contents it keeps"
                         + (f": {problems[0]}" if problems else ""), rule="state")
    root = Path(args.root)
    # Checked before opening: opening to write finishes a replay a kill cut short, and a
    # mistyped checkpoint must write nothing (QA s35 helper-100). One per turn, and 0.
    last = len(loaded.session.turns)
    if not 0 <= args.checkpoint <= last:
        raise UsageError(f"--checkpoint {args.checkpoint} is outside 0-{last}",
                         rule="checkpoint")
    # Without --yes nothing is written, not even an interrupted replay.
    with Review.open(args.session, root, state_path=state, dry_run=not args.yes,
                     read_only_state=not args.yes, format=_format(args),
                     lazy=True) as review:
        _print_problems(review)
        from reviewtui.shell.resume_aside import aside_in_force

        if aside_in_force(review):
            # Not "already matches": its decisions and originals were not taken (a state
            # saved elsewhere or before seals; QA s46 helper-143 F8).
            raise UsageError(f"the review state at {state} holds decisions set aside (it "
                             "was saved elsewhere, or before states were sealed): their "
                             "originals were not read, so there is nothing to restore from; "
                             "open the review in the workbench to read them (u takes them "
                             "in)", rule="state-aside")
        if not args.yes:
            return _restore_preview(review, root, args.checkpoint)
        opened = review.last_report  # (what reopening found: outside changes, take-backs)
        report = review.restore(args.checkpoint)
        # A conflict the opening found at the checkpoint then on disk is the restore's to
        # settle: its own report says what is left (the opening's read as three conflicts
        # after a restore that settled them all: QA s46 helper-141 F10).
        stale = set(opened.conflicts) if opened is not None else set()
        for line in [line for line in _messages(root, opened)
                     if not (line.split(": ", 1)[0] in {str(root / p) for p in stale}
                             and "conflict" in line)] + _messages(root, report):
            if not line.endswith(MSG_BEING_WRITTEN):  # (a workbench's promise)
                print(line)
        if opened is not None and (opened.written or opened.removed):
            # A replay cut short (killed while writing) is finished before anything else,
            # so the state on disk always explains the disk; its writes are counted apart
            # (they read as the restore's own, some twice: QA s34 F5).
            print(f"opening the review first finished writing its last decision: "
                  f"{plural(len(opened.written), 'file')} written, "
                  f"{len(opened.removed)} removed")
        for path in sorted(set(report.held)):
            print(f"{root / path}: open for writing in another program: not written; restore "
                  "again once it is closed")
        print(f"checkpoint {args.checkpoint} restored: "
              f"{plural(len(report.written), 'file')} written, {len(report.removed)} removed"
              + (f", {plural(len(report.conflicts), 'conflict')}" if report.conflicts else "")
              + (f", {len(set(report.held))} open elsewhere" if report.held else "")
              + f" under {root}" + _again(opened, report))
    return EXIT_OK if not report.conflicts and not report.held else EXIT_FINDINGS


def _again(opened: ReplayReport | None, report: ReplayReport) -> str:
    """How many of the restore's paths the finishing of a killed replay had just written
    (written twice, so the two counts add up to more than what changed)."""
    if opened is None:
        return ""
    again = ({*opened.written, *opened.removed} & {*report.written, *report.removed})
    return f" ({len(again)} of them written by that finishing first)" if again else ""


def _restore_preview(review: Review, root: Path, checkpoint: int) -> int:
    """What ``restore --yes`` would do, planned as it plans: exit 2 (pass --yes) while it
    would write, 1 when it would only leave files in conflict (as it would exit), else 0."""
    from reviewtui.shell.replay import change_verb

    preview = review.restore_preview(checkpoint)
    opened = review.last_report
    if opened is not None and opened.would_write:
        print(f"note: a replay was cut short (the review was killed while writing): "
              f"opening it to write first finishes that "
              f"({plural(len(set(opened.would_write)), 'file')}), then restores")
    if preview.nothing_to_do:
        print(f"the disk already matches checkpoint {checkpoint} under {root}: "
              "nothing to restore")
        return EXIT_OK
    for path, old, new in preview.changes:
        print(f"{root / path}: would {change_verb(old, new)}")
    for path, note in preview.conflicts:
        print(f"{root / path}: would be left in conflict - {note}")
    left = f"{plural(len(preview.conflicts), 'file')} in conflict"
    if not preview.changes:
        print(f"restore writes nothing under {root} and leaves {left} "
              f"(checkpoint {checkpoint})")
        return EXIT_FINDINGS
    raise UsageError(f"restore rewrites {plural(len(preview.changes), 'file')}"
                     + (f" and leaves {left}" if preview.conflicts else "")
                     + f": pass --yes to restore checkpoint {checkpoint}", rule="confirm")
