"""What a git range's history says of its files' attributes and renames, for the
checkout forms (:mod:`reviewtui.shell.git_checkout`).

The range's commits may change ``.gitattributes``. Each distinct set of them is an
*attribute state* (:func:`attribute_states`: the start's, then each first-parent commit's
that changes one, from one listing of A's tree and one ``git log --raw``); a turn is read by
its commit's (:func:`commit_of_turn`). From them:

- :func:`encoded_writes`: the files git writes re-encoded (a ``working-tree-encoding``
  other than UTF-8) by the commit that writes them, or by B: refused, as the review writes
  UTF-8 (:func:`refused_where_encoded`).
- :func:`stable_paths`: the paths whose converting attributes no state changes, nor the
  working tree: A's checkout forms hold for them throughout.
- :func:`pure_renames`: the blob of each rename with no content change, which git's diff
  does not name (the checkout compares its forms at both paths).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from reviewtui.core.errors import GitError
from reviewtui.core.model.records import (
    CommandName,
    ConsoleCommand,
    Edit,
    FileBlock,
    FullFile,
    Session,
    Turn,
)
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import TypeGuard

ATTRIBUTES = ".gitattributes"


def encoded_writes(repo: Repo, base: str, head: str, session: Session
                   ) -> dict[tuple[int, str], str]:
    """The files the range writes to which git gives a ``working-tree-encoding`` (a
    ``.gitattributes`` of an index of each attribute state, ``check-attr --cached``): git
    writes them re-encoded, the review as UTF-8, which ``--commit`` then committed garbled,
    exit 0 (QA s38 helper-117 N2, older). Keyed (turn, path): a file is read by the
    attributes of the commit that writes it (helper-118 F4: an encoding a middle commit
    set, or the start gave and the range took away, was missed when only the last commit
    was read; helper-119 F6: reading every commit's for every file refused one that a later
    commit gave an encoding and the next took away); turn 0, every turn: by the last
    commit's, those a fresh checkout of it writes. Binary patches too (helper-119 F2: a
    NUL in UTF-8 text makes git's diff binary, and git still re-encodes it)."""
    writes = [(turn, op.path) for turn in session.turns for op in turn.reply.ops
              if isinstance(op, (Edit, FullFile)) and op.git_forms is not None
              and plain_path(op.path)
              and not (isinstance(op, FullFile) and op.payload is None and not op.lines)]
    if not writes:
        return {}
    found: dict[tuple[int, str], str] = {}
    with tempfile.TemporaryDirectory(prefix="reviewtui-attributes-") as tmp:
        try:
            states, governing = attribute_states(repo, base, head)
            commit_of = commit_of_turn(session, len(governing))
            asked: dict[int, dict[str, list[int]]] = {}  # state -> path -> turns (0: all)
            for turn, path in writes:
                at = commit_of.get(turn.index)
                for state, key in (((governing[at], turn.index),) if at is not None
                                   else ((n, 0) for n in range(len(states)))):
                    asked.setdefault(state, {}).setdefault(path, []).append(key)
                asked.setdefault(governing[-1] if governing else 0, {}).setdefault(
                    path, []).append(0)
            for state, paths in asked.items():
                env = {"GIT_INDEX_FILE": str(Path(tmp) / f"index{state}")}
                repo.git("update-index", "-z", "--index-info", env=env, input=states[state])
                for path, encoding in _encodings(repo, env, list(paths)).items():
                    for key in paths[path]:
                        found.setdefault((key, path), encoding)
        except GitError:
            return {}
    return found


def _encodings(repo: Repo, env: dict[str, str], paths: list[str]) -> dict[str, str]:
    """The non-UTF-8 ``working-tree-encoding`` the index ``env`` names gives each path."""
    out = repo.git("check-attr", "--cached", "-z", "--stdin", "working-tree-encoding",
                   env=env, input=b"".join(path.encode("utf-8", "surrogateescape") + b"\0"
                                           for path in paths))
    fields = out.split(b"\0")
    return {fields[at].decode("utf-8", "surrogateescape"): fields[at + 2].decode(
                "utf-8", "replace")
            for at in range(0, len(fields) - 2, 3)
            if fields[at + 2] not in (b"unspecified", b"unset", b"set")
            and fields[at + 2].upper().replace(b"-", b"") != b"UTF8"}  # (none: helper-118 F5)


def commit_of_turn(session: Session, commits: int) -> dict[int, int]:
    """Turn index -> the position of its commit in the range: a git session gives each
    commit one or more turns in order, all with the commit's own heading line. Empty when
    the turns do not account for ``commits`` commits so (a kept file edited by hand)."""
    starts: list[int] = []
    of: dict[int, int] = {}
    for turn in session.turns:
        if turn.heading_span is None:
            return {}
        if not starts or starts[-1] != turn.heading_span.start:
            if starts and turn.heading_span.start < starts[-1]:
                return {}
            starts.append(turn.heading_span.start)
        of[turn.index] = len(starts) - 1
    return of if len(starts) == commits else {}


def attribute_states(repo: Repo, base: str, head: str) -> tuple[list[bytes], list[int]]:
    """The distinct sets of ``.gitattributes`` files of ``base`` and of the commits of
    ``base..head`` (first parents, as the range is read), as ``update-index --index-info``
    input, and for each commit of the range the set its tree holds: one listing of
    ``base``'s tree, then the changes from one ``git log`` (a listing per commit cost 25 s
    for 50,000 files x 200 commits: QA s38 helper-117 N6)."""
    files: dict[bytes, bytes] = {}  # path -> its ls-tree line
    for entry in attribute_entries(repo, base).split(b"\0"):
        if entry:
            files[entry.rsplit(b"\t", 1)[1]] = entry
    commits = repo.git("rev-list", "--first-parent", "--reverse", f"{base}..{head}").split()
    out = repo.git("log", "--first-parent", "--diff-merges=first-parent", "--reverse",
                   "--no-renames", "--no-abbrev", "--raw", "-z", "--format=%x00commit %H",
                   f"{base}..{head}", "--", f":(glob)**/{ATTRIBUTES}")
    changes: dict[bytes, list[tuple[bytes, bytes | None]]] = {}  # commit -> (path, line)
    fields = out.split(b"\0")
    at, current = 0, b""
    while at < len(fields):
        field = fields[at].lstrip(b"\n")
        at += 1
        if field.startswith(b"commit "):
            current = field[len(b"commit "):]
        elif field.startswith(b":") and at < len(fields):
            path = fields[at]
            at += 1
            _old_mode, mode, _old, blob, _status = field[1:].split(b" ")
            kept = (path.rsplit(b"/", 1)[-1] == ATTRIBUTES.encode()
                    and mode.startswith(b"100"))  # (else removed, or not a regular file)
            changes.setdefault(current, []).append(
                (path, b"%s blob %s\t%s" % (mode, blob, path) if kept else None))
    index: dict[tuple[tuple[bytes, bytes], ...], int] = {}

    def state() -> int:
        return index.setdefault(tuple(sorted(files.items())), len(index))

    state()
    governing = []
    for commit in commits:
        for path, line in changes.get(commit, ()):
            if line is None:
                files.pop(path, None)
            else:
                files[path] = line
        governing.append(state())
    return [b"".join(line + b"\0" for _path, line in key) for key in index], governing


_CONVERSION = ("text", "eol", "crlf", "working-tree-encoding", "ident", "filter")


def stable_paths(repo: Repo, base: str, head: str, session: Session) -> set[str]:
    """Of the paths a range that changes ``.gitattributes`` writes, those whose attributes
    that convert text are the same in every attribute state of the range and in the
    working tree as it is: git checks a blob out there the same way in every commit, so
    the start's checkout forms hold throughout. A range touching some ``*.bat`` rule got no
    forms at all, and on autocrlf every new file of it was written LF where git writes
    CRLF, exit 0 (QA s39 helper-120 F2: 4 of 27 windows of curl)."""
    paths = sorted({path for turn in session.turns for op in turn.reply.ops
                    for path in ((op.path, op.git_forms.before_path)
                                 if isinstance(op, (Edit, FullFile)) and op.git_forms
                                 else op.args if is_move(op) else ())
                    if path and plain_path(path)})
    if not paths:
        return set()
    asked = b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths)
    seen: dict[bytes, set[bytes]] = {}  # path -> each state's values

    def read(*cached: str, env: dict[str, str] | None = None) -> None:
        out = repo.git("check-attr", *cached, "-z", "--stdin", *_CONVERSION, env=env,
                       input=asked)
        fields = out.split(b"\0")
        values: dict[bytes, list[bytes]] = {}
        for at in range(0, len(fields) - 2, 3):
            values.setdefault(fields[at], []).append(fields[at + 1] + b"=" + fields[at + 2])
        for path, found in values.items():
            seen.setdefault(path, set()).add(b"\0".join(found))

    with tempfile.TemporaryDirectory(prefix="reviewtui-attributes-") as tmp:
        try:
            states, _governing = attribute_states(repo, base, head)
            for n, entries in enumerate(states):
                env = {"GIT_INDEX_FILE": str(Path(tmp) / f"index{n}")}
                repo.git("update-index", "-z", "--index-info", env=env, input=entries)
                read("--cached", env=env)
            read()  # (the working tree's attribute files, yours and the review's)
        except GitError:
            return set()
    return {path.decode("utf-8", "surrogateescape") for path, values in seen.items()
            if len(values) == 1}


def is_move(op: object) -> TypeGuard[ConsoleCommand]:
    """Whether ``op`` is a git source's rename (``:mv old new``, literal)."""
    return (isinstance(op, ConsoleCommand) and op.literal and op.name is CommandName.MV
            and len(op.args) == 2)


def pure_renames(repo: Repo, base: str, head: str) -> dict[tuple[int, str, str], str]:
    """(position of the commit in the range, old path, new path) -> blob of each rename
    with no content change (``R100``) of the range's first-parent commits."""
    commits = {sha: n for n, sha in enumerate(repo.git(
        "rev-list", "--first-parent", "--reverse", f"{base}..{head}").split())}
    out = repo.git("log", "--first-parent", "--diff-merges=first-parent", "-M", "--raw",
                   "-z", "--no-abbrev", "--diff-filter=R", "--format=%x00commit %H",
                   f"{base}..{head}", "--")
    found: dict[tuple[int, str, str], str] = {}
    fields = out.split(b"\0")
    at, current = 0, -1
    while at < len(fields):
        field = fields[at].lstrip(b"\n")
        at += 1
        if field.startswith(b"commit "):
            current = commits.get(field[len(b"commit "):], -1)
        elif field.startswith(b":") and at + 1 < len(fields):
            old, new = fields[at], fields[at + 1]
            at += 2
            _old_mode, mode, old_blob, blob, status = field[1:].split(b" ")
            if status == b"R100" and old_blob == blob and mode.startswith(b"100"):
                found[(current, old.decode("utf-8", "surrogateescape"),
                       new.decode("utf-8", "surrogateescape"))] = blob.decode()
    return found


def refused_where_encoded(session: Session, encoded: dict[tuple[int, str], str]) -> Session:
    """``session`` with each file operation :func:`encoded_writes` names refused
    (``GitForms.encoding``)."""
    if not encoded:
        return session

    def each(turn: Turn) -> Turn:
        def refused(op: Edit | FullFile) -> Edit | FullFile:
            forms = op.git_forms
            encoding = encoded.get((turn.index, op.path)) or encoded.get((0, op.path))
            if forms is None or forms.encoding or not encoding:
                return op
            return replace(op, git_forms=replace(forms, encoding=encoding))

        return each_op(turn, refused)

    return replace(session, turns=tuple(each(turn) for turn in session.turns))


def plain_path(path: str) -> bool:
    """A path git could have written (relative, no ``..``): the only ones read back."""
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\0" not in path \
        and not any(part in ("", ".", "..") for part in parts)


def touches_attributes(session: Session) -> bool:
    """Whether an operation of the range names a ``.gitattributes``: an edit, a new or
    deleted one, one moved away or into place (a command's every argument: QA s37
    helper-111 F2, a range deleting it was written by A's rules)."""
    return any(name.rstrip("/").rsplit("/", 1)[-1] == ATTRIBUTES
               for turn in session.turns for op in turn.reply.ops
               for name in (op.args if isinstance(op, ConsoleCommand) else (op.path,)))


def attribute_entries(repo: Repo, commit: str) -> bytes:
    """``update-index --index-info`` input for ``commit``'s ``.gitattributes`` files (its
    ``ls-tree`` lines: mode, type, id, path)."""
    listing = repo.git("ls-tree", "-r", "-z", "--full-tree", commit)
    name = ATTRIBUTES.encode()
    return b"".join(entry + b"\0" for entry in listing.split(b"\0")
                    if b"\t" in entry and entry.startswith(b"100")
                    and entry.rsplit(b"\t", 1)[1].rsplit(b"/", 1)[-1] == name)


def each_op(turn: Turn, change: Callable[[Edit | FullFile], Edit | FullFile]) -> Turn:
    """``turn`` with ``change`` made to each file operation (the same turn if none)."""
    blocks = []
    for block in turn.reply.blocks:
        if isinstance(block, FileBlock):
            ops = tuple(change(op) for op in block.ops)
            if any(new is not old for new, old in zip(ops, block.ops, strict=True)):
                block = replace(block, ops=ops)
        blocks.append(block)
    if all(new is old for new, old in zip(blocks, turn.reply.blocks, strict=True)):
        return turn
    return replace(turn, reply=replace(turn.reply, blocks=tuple(blocks)))
