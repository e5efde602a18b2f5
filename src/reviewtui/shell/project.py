"""A project on disk as the engine sees it: a base tree and the project's rules."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from reviewtui.core.engine import Rules
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.links import link_state
from reviewtui.core.errors import ConfigError
from reviewtui.core.model.records import ConsoleCommand, Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import ReservedRules, other_spellings, unread_dir_of
from reviewtui.core.protocol.config import CONFIG_NAME, ProjectConfig, parse_config
from reviewtui.core.record import record, replace
from reviewtui.shell.loader import read_input, read_text
from reviewtui.shell.snapshot import DiskSnapshot, read_listed, read_snapshot


@record(frozen=True, slots=True)
class Project:
    root: Path | None
    tree: Tree
    rules: Rules
    config: ProjectConfig
    leftovers: tuple[str, ...] = ()  # temp files of interrupted atomic writes


# A folder whose listing comes from elsewhere: a commit's tree that a command only reads
# (shell/git_tree.py), for an empty temporary folder made for it. Put and taken away by
# that code (:func:`stand_in`), in this process only: nothing on disk can add one.
_STAND_INS: dict[str, tuple[DiskSnapshot, Callable[[str], bytes]]] = {}


def stand_in(root: Path, snap: DiskSnapshot, read: Callable[[str], bytes]) -> Callable[[], None]:
    """Make :func:`load_project` of ``root`` take ``snap`` as its listing and ``read(path)``
    as each listed file's bytes (read when first needed, or at once when not ``lazy``);
    returns what ends that."""
    key = os.path.realpath(root)
    _STAND_INS[key] = (snap, read)

    def end() -> None:
        _STAND_INS.pop(key, None)

    return end


def tree_from_snapshot(snap: DiskSnapshot, root: Path | None = None,
                       read: Callable[[str], bytes] | None = None) -> Tree:
    """The files, and the links as links (the engine refuses paths through them); a file
    listed and not read (``snap.unread``) is read when first needed, by ``read(path)``,
    else from ``root``."""
    files: dict[str, FileState] = {path: FileState.from_bytes(data, mode=mode)
                                   for path, (data, mode) in snap.files.items()}
    if snap.unread:
        from reviewtui.core.model.unread import UnreadFile

        if read is None:
            assert root is not None
            read = partial(read_listed, root)
        files.update((path, UnreadFile(partial(read, path), mode))
                     for path, mode in snap.unread.items())
    # A link named like a folder reviewtui never reads (.venv) stays out, as that folder
    # would: the engine still knows it from the rules, and refuses paths through it.
    files.update((path, link_state(os.fsencode(target)))
                 for path, target in snap.symlinks.items()
                 if unread_dir_of(path + "/x") is None)
    return Tree.from_files(files)


def _read_config(file: Path) -> bytes:
    """The config file's bytes, checked to be UTF-8 (the error names the bad byte's line)."""
    try:
        data = read_input(file, "config file")
        data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        read_text(file)  # raises the loader's message for the same file
        raise
    return data


def _refuse_outside_link(file: Path, directory: Path) -> None:
    """A ``reviewtui.toml`` that is a symbolic link leading out of its folder is refused,
    as git refuses a linked ``.gitattributes``: the folder (a cloned project, a downloaded
    session) is not the reviewer's, and its link would make reviewtui read, and act on,
    a file of the reviewer's own from elsewhere. A link to a file inside the folder is
    read as that file."""
    if not file.is_symlink():
        return
    home = os.path.realpath(directory)
    if os.path.commonpath([home, os.path.realpath(file)]) != home:
        raise ConfigError(
            f"{CONFIG_NAME} is a symbolic link that leads out of {directory}: a project's "
            "configuration is read only from inside it (replace the link by the file)",
            source=str(file), rule="config-link")


def load_config(*candidates: Path | None) -> ProjectConfig:
    """The first ``reviewtui.toml`` of ``candidates`` (folders), or the defaults."""
    for directory in candidates:
        if directory is None:
            continue
        file = directory / CONFIG_NAME
        if file.is_file():
            _refuse_outside_link(file, directory)
            # One read: the checks and the digest the reviewer trusts come from the same
            # bytes, taken before any operation is applied (a session may edit this file).
            from reviewtui.shell.trust import config_digest  # a project without one: never

            data = _read_config(file)
            config = parse_config(data.decode("utf-8-sig"), str(file))
            return replace(config, digest=config_digest(data))
    return ProjectConfig()


def load_project(root: Path | None, *, config_dirs: tuple[Path | None, ...] = (),
                 lazy: bool = False) -> Project:
    """Read ``root`` (None: an empty project) and its ``reviewtui.toml``.

    ``lazy``: list the files, and read each only when something needs its content
    (:mod:`reviewtui.core.model.unread`): for a command that runs once and ends (``apply``,
    ``check``, ``export``); a review that watches the disk then reads at once the files its
    session names (:func:`read_now`: an outside change to them is told from what they held
    when it opened). A folder made for a commit's tree (:func:`stand_in`) is listed from
    that tree, and read from git."""
    if root is None:
        config = load_config(*config_dirs)
        rules = Rules(ReservedRules.from_patterns(config.reserved, source=config.source))
        return Project(None, Tree(), rules, config)
    standing = _STAND_INS.get(os.path.realpath(root)) if _STAND_INS else None
    snap, read = standing or (read_snapshot(root, contents=not lazy), None)
    config = load_config(root, *config_dirs)
    tree = tree_from_snapshot(snap, root, read)
    if standing is not None and not lazy:
        for state in tree.states():  # read now, as a folder would be (its bytes are git's)
            _ = state.data
    rules = Rules(
        reserved=ReservedRules.from_patterns(config.reserved, source=config.source),
        symlinks=dict(snap.symlinks),  # raw link targets, as the kernel reads them
        root=str(root.resolve()),
        spellings=other_spellings([*tree.paths(), *snap.symlinks], snap.spelled_folders),
    )
    return Project(root, tree, rules, config, tuple(snap.leftovers))


def named_paths(session: Session) -> set[str] | None:
    """Every path an operation of ``session`` names (normalised), when those are all it
    can touch: None when a console command may reach paths it does not name (a folder, a
    glob; only an importer's commands name each file exactly, ``literal``)."""
    raw: set[str] = set()  # (a long session names the same few paths again and again)
    for turn in session.turns:
        for op in turn.reply.ops:
            if isinstance(op, ConsoleCommand):
                if not op.literal:
                    return None
                raw.update(op.args)
            else:
                raw.add(op.path)
    return {path for path in map(normalize_or_none, raw) if path}


def read_now(tree: Tree, paths: set[str]) -> None:
    """Read every listed file of ``tree`` at ``paths`` now (``load_project(lazy=True)``
    reads each when first needed): a review that watches the disk tells an outside change
    to them from what they held when it opened."""
    for path in paths:
        state = tree.get(path)
        if state is not None:
            _ = state.data
