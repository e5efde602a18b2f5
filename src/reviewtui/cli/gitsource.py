"""``--git A..B`` and ``--worktree``: git as the source of any command's session.

The options only change where the session file and the project come from; each
command then runs as it does for a session file (see :mod:`reviewtui.shell.git`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

from reviewtui.core.errors import UsageError

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:  # building the parser (``--help``) must not import the engine
    import argparse
    from pathlib import Path

    from reviewtui.shell.git_sources import GitSource


def add_options(command: argparse.ArgumentParser) -> None:
    """``--git``/``--worktree``: they stand in for the (then optional) session."""
    command.set_defaults(git_parser=command)  # for the usage error without a session
    group = command.add_mutually_exclusive_group()
    group.add_argument("--git", metavar="A..B", dest="git_range",
                       help="review the commits A..B of the git repository at --root (else "
                       "the current folder): one turn per commit, on A's tree")
    group.add_argument("--worktree", action="store_true",
                       help="review the uncommitted changes of the git working tree at "
                       "--root (else the current folder) against HEAD")


def resolve(args: argparse.Namespace, *, keep: bool, session_attr: str = "session",
            listed: bool = False, reviewed: bool = False) -> GitSource | None:
    """Fill in ``args.<session_attr>``, ``args.root`` (and ``args.state`` for a working
    tree) from the git options; None when they are not used. ``reviewed``: a range's
    review (``--state``, or the one open or apply kept) is read too, on the project it
    was made on (see :func:`_reviewed_root`)."""
    git_range = getattr(args, "git_range", None)
    worktree = getattr(args, "worktree", False)
    given = getattr(args, session_attr, None)
    if git_range is None and not worktree:
        if not given:
            # argparse's parser; None when cli/quick_args.py read the line (it leaves
            # such a line to argparse) or the namespace was made elsewhere
            parser = getattr(args, "git_parser", None)
            message = "the following arguments are required: session (or --git A..B, --worktree)"
            if parser is not None:
                parser.error(message)  # usage on stderr, exit status 2
            raise UsageError(message, rule="no-session")
        return None
    if given:
        raise UsageError("a session file and --git/--worktree exclude each other",
                         rule="git-source")
    if git_range is not None:
        from reviewtui.shell.git_sources import open_range

        source = open_range(git_range, args.root, keep=keep, listed=listed)
    else:
        from reviewtui.shell.git_worktree import open_worktree

        source = open_worktree(args.root, keep=keep)
    # The review state made for a working tree, or kept beside a range's copy of A (so
    # that apply saves there too, as open does)
    if source.state is not None and hasattr(args, "state") and args.state is None:
        args.state = str(source.state)
    if source.note:
        print(f"reviewtui: note: {source.note}", file=sys.stderr)
    value: object = [str(source.session)] if session_attr == "sessions" else str(source.session)
    setattr(args, session_attr, value)
    args.root = str(source.root)
    args.git_repository = str(source.repo.top)  # (args.root may be a temporary copy)
    if reviewed and git_range is not None and hasattr(args, "state"):
        _reviewed_root(args, source)
    return source


def _reviewed_root(args: argparse.Namespace, source: GitSource) -> None:
    """A range's review (``--state``, else the one open or apply kept for the range) read
    on the project it was made on: the range's lazy stand-in for A holds no file, and
    every file the review wrote read as deleted outside (QA s36 helper-104).

    That project is the checkout or reviewtui's copy of A, nothing else: the state file
    is untrusted (helper-105: a forged root was walked, ``/`` whole, to a traceback). The
    folder it names is matched to one of the two, by its path, or by its name when the
    repository was moved since (helper-106). A review that cannot be read so is refused,
    not passed over: exporting every operation that applies instead put the changes its
    reviewer rejected in the export (helper-106)."""
    from pathlib import Path

    from reviewtui.shell.export import saved_root_name
    from reviewtui.shell.statepath import blob_dir_for

    given = args.state is not None
    state = Path(args.state) if given else source.kept_state
    # (a kept review that is a link or a folder is refused below, not passed over)
    if state is None or not (given or state.is_file() or state.is_symlink()
                             or state.exists()):
        return
    way_out = ("" if given else " (open it once with 'reviewtui open --git "
               f"{args.git_range}' to take it up where the repository is now, or remove "
               f"{state} and {blob_dir_for(state)} to export every operation that applies, "
               "as without a review)")
    try:
        named = saved_root_name(state)
    except UsageError as err:
        if given:
            raise
        raise UsageError(f"the review kept for this range cannot be read ({err.message})"
                         f"{way_out}", source=str(state), rule="state") from None
    top, kept = (root.resolve() for root in source.kept_roots)
    try:
        project = Path(named).resolve() if named else None
    except (OSError, RuntimeError, ValueError):  # (a loop of links, a NUL: helper-107)
        project = None
    if project is not None and project not in (top, kept):
        # The repository moved: the same folder by name, where it is now.
        project = (kept if project.name == kept.name and kept.is_dir()
                   else top if project.name == top.name and not project.exists() else None)
    if project is None or not project.is_dir():
        raise UsageError(f"the review state {state} names the project {named or '(none)'}, "
                         "which is neither this checkout nor reviewtui's copy of the "
                         f"range's start: not read{way_out}", source=str(state),
                         rule="state-root")
    args.state, args.root = str(state), str(project)
    if project == top:
        source.read_on_checkout()  # (evaluated there with git's checkout forms)


def head_copy(source: GitSource) -> Path:
    """A temporary folder with HEAD's content of every path a working tree changed: the
    project a read-only ``check --worktree`` evaluates against."""
    import tempfile  # here: building the parser (``--help``) does not need it
    from pathlib import Path

    target = Path(tempfile.mkdtemp(prefix="reviewtui-git-head-"))
    source.cleanup.append(target)
    for path, state in source.repo.files(source.origin.base, source.changed).items():
        full = target / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_bytes(state.data)
    return target


def close(source: GitSource | None) -> None:
    if source is not None:
        source.close()


Handler = Callable[["argparse.Namespace"], int]


def sourced(*, keep: bool, session_attr: str = "session", head_root: bool = False,
            usage: Callable[[argparse.Namespace], None] | None = None,
            reviewed: bool = False) -> Callable[[Handler], Handler]:
    """Run a command with its session from ``--git``/``--worktree`` when given.

    ``keep``: the session (and a range's copy of A) live in ``<git dir>/reviewtui`` so a
    reopen resumes; else in temporary folders removed afterwards, and a range's A is read
    from git, not copied (such a command reads its project lazily). ``head_root``: a
    working tree is evaluated against HEAD's content (``check``), not the disk.
    ``usage``: the command's own usage checks, made first: a usage error copies nothing
    (A's tree was copied into ``<git dir>/reviewtui`` before ``apply`` said it needs
    ``--yes``). ``reviewed``: see :func:`resolve`.
    """

    def wrap(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def run(args: argparse.Namespace) -> int:
            # A dry run keeps nothing either: its session and copies are temporary.
            kept = keep and not getattr(args, "dry_run", False)
            if usage is not None:
                usage(args)
            source = resolve(args, keep=kept, session_attr=session_attr, listed=not keep,
                             reviewed=reviewed)
            try:
                if source is not None and head_root and source.origin.kind == "worktree":
                    args.root = str(head_copy(source))
                return handler(args)
            finally:
                close(source)

        return run

    return wrap
