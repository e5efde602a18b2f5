"""What a git range's history says of its files' attributes and renames, for the
checkout forms (:mod:`reviewtui.shell.git_checkout`).

The range's commits may change ``.gitattributes``. Each distinct set of them is an
*attribute state* (:func:`attribute_states`: the start's, then each first-parent commit's
that changes one, from one listing of A's tree and one ``git log --raw``); a turn is read by
its commit's (:func:`commit_of_turn`). From them:

- :func:`encoded_writes`: the files git writes re-encoded (a ``working-tree-encoding``
  other than UTF-8) by the commit that writes them, or by B: refused, as the review writes
  UTF-8 (:func:`refused_where_encoded`).
- :func:`stable_paths`: the paths git checks out alike in each state that matters to them
  (and in the working tree's, where its attribute files are yours), told by what git
  makes of their attributes (:func:`checkout_rule`); those whose rules differ, for the
  checkout to compare their blobs' checkouts state by state.
- :func:`pure_renames`: the blob of each rename with no content change, which git's diff
  does not name (the checkout compares its forms at both paths).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from reviewtui.core.errors import GitError
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.records import (
    CommandName,
    ConsoleBlock,
    ConsoleCommand,
    Edit,
    FileBlock,
    FullFile,
    Session,
    Turn,
)
from reviewtui.core.record import record, replace
from reviewtui.shell.git import Repo
from reviewtui.shell.git_line_config import checkout_config
from reviewtui.shell.git_not_utf8 import global_attributes

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import TypeGuard

ATTRIBUTES = ".gitattributes"


States = tuple[list[bytes], list[int]]  # (each distinct set, the set of each commit)


def encoded_writes(repo: Repo, known: States | None, session: Session
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
    NUL in UTF-8 text makes git's diff binary, and git still re-encodes it). ``known``:
    :func:`attribute_states` (None: git could not say; nothing is found)."""
    writes = [(turn, op.path) for turn in session.turns for op in turn.reply.ops
              if isinstance(op, (Edit, FullFile)) and op.git_forms is not None
              and plain_path(op.path)
              and not (isinstance(op, FullFile) and op.payload is None and not op.lines)]
    if not writes or known is None:
        return {}
    found: dict[tuple[int, str], str] = {}
    states, governing = known
    with tempfile.TemporaryDirectory(prefix="reviewtui-attributes-") as tmp:
        try:
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
            if converts(b"working-tree-encoding", fields[at + 2], native_crlf=False)}


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


def attribute_states(repo: Repo, base: str, head: str) -> States:
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
                    and _read_as_attributes(mode))  # (else removed, or a folder)
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
CONVERTING = ("eol", "crlf", "ident", "working-tree-encoding")  # (and text, where CRLF)


def converts(name: bytes, value: bytes, native_crlf: bool) -> bool:
    """Whether the attribute ``name`` set to ``value`` (as ``check-attr`` prints it) makes
    git check a file out otherwise than it stores it (``eol=lf`` and ``text=auto`` alone do
    not, but for ``text`` where the native line ending is CRLF)."""
    return not (value == b"unspecified" or (name == b"eol" and value != b"crlf") or (
        name == b"crlf" and value in (b"unset", b"input")) or (
        name == b"text" and (not native_crlf or value == b"unset")) or name == b"filter"
        or (name == b"working-tree-encoding" and (value in (b"unset", b"set") or value.upper(
            ).replace(b"-", b"") == b"UTF8")))  # (UTF-8 is no re-encoding: helper-118 F5)


@record(frozen=True, slots=True)
class Reading:
    """What :func:`stable_paths` finds of the paths a range that changes attributes
    touches."""
    stable: frozenset[str]  # paths git checks out alike in their states (A's among them)
    converting: frozenset[str]  # of those, the paths git converts
    differing: dict[str, frozenset[int]]  # path -> the states that matter, which differ
    unsettled: frozenset[str]  # paths git may write otherwise than in those states


def stable_paths(repo: Repo, known: States | None, session: Session) -> Reading:
    """Of the paths a range that changes ``.gitattributes`` writes, moves or deletes:
    those git checks out the same way in each attribute state that matters to them (A's
    is one of them, always: their forms are read by A's attribute files; a range touching
    some ``*.bat`` rule got no forms at all, and on autocrlf every new file of it was
    written LF where git writes CRLF, exit 0, QA s39 helper-120 F2). The states that
    matter to a path are those its files may be written by: the start's (the working
    tree begins with its rules, and keeps them where you reject or skip the range's
    changes of them: a new file's own rule is not taken for granted, QA s38 helper-116
    R3), each commit's that writes it (or moves
    a file there; not those after a move or deletion takes it away), B's if it holds the
    path at the end, and the working tree's as it is, where its attribute files are none
    of the range's (yours). "The same way" is what git makes of the attributes
    (:func:`checkout_rule`: ``* text=auto`` dropped on autocrlf changes nothing), not
    their values: comparing values refused ``.cmd`` files renamed ``.bat`` under rules
    giving both CRLF, and ``*.c text`` added on autocrlf (helper-122 F2). Paths whose
    rules differ between those states are ``differing`` (the caller compares git's
    checkout of their blobs in each), or ``unsettled`` where yours differ (the review
    cannot write them as git would; its bytes were committed as blobs B never had,
    exit 0, helper-121 F9: they are refused). ``known``: :func:`attribute_states`; when
    git cannot say, every path is unsettled."""
    matter, touched = _states_that_matter(session, known)
    if not touched:
        return Reading(frozenset(), frozenset(), {}, frozenset())
    if known is None:
        return Reading(frozenset(), frozenset(), {}, frozenset(touched))
    states = known[0]
    rules: dict[tuple[str, int], tuple[str, str, bool]] = {}  # (path, state: -1 yours)
    with tempfile.TemporaryDirectory(prefix="reviewtui-attributes-") as tmp:
        try:
            config = checkout_config(repo)
            asked: dict[int, list[str]] = {}  # state -> the paths it matters to
            for path in touched:
                for state in matter[path]:
                    asked.setdefault(state, []).append(path)
            for state, paths in asked.items():
                env = {"GIT_INDEX_FILE": str(Path(tmp) / f"index{state}")}
                repo.git("update-index", "-z", "--index-info", env=env, input=states[state])
                rules.update(((path, state), rule) for path, rule in checkout_rules(
                    repo, paths, config, "--cached", env=env).items())
            on_disk = _working_attribute_files(repo)
            counted = not _yours_are_the_ranges(on_disk, states)
            if counted:  # (read every path by them too)
                rules.update(((path, -1), rule)
                             for path, rule in checkout_rules(repo, touched, config).items())
            literal = _spelt_as_check_attr_prints(repo, states, on_disk)
        except GitError:
            return Reading(frozenset(), frozenset(), {}, frozenset(touched))
    if literal:  # (the rules cannot be told from check-attr: the blobs' checkouts can)
        if counted:
            return Reading(frozenset(), frozenset(), {}, frozenset(touched))
        return Reading(frozenset(), frozenset(),
                       {path: frozenset(matter[path]) for path in touched}, frozenset())
    stable: set[str] = set()
    converting: set[str] = set()
    differing: dict[str, frozenset[int]] = {}
    unsettled: set[str] = set()
    for path in touched:
        found = {rules.get((path, state)) for state in matter[path]}
        yours = rules.get((path, -1))
        if yours is not None and found != {yours}:
            unsettled.add(path)
        elif len(found) > 1:  # (one state of each rule: the others check out alike)
            first: dict[tuple[str, str, bool] | None, int] = {}
            for state in sorted(matter[path]):
                first.setdefault(rules.get((path, state)), state)
            differing[path] = frozenset(first.values())
        else:
            stable.add(path)
            if found != {_AS_STORED}:
                converting.add(path)
    return Reading(frozenset(stable), frozenset(converting), differing,
                   frozenset(unsettled))


def _states_that_matter(session: Session, known: States | None
                        ) -> tuple[dict[str, set[int]], list[str]]:
    """For each path the range's operations write, move or delete (in order), the
    attribute states its files may be written by (:func:`stable_paths`): the start's
    (0), that of each commit writing it or moving a file to it (every state for a turn
    whose commit is not known), and B's where it is there at the end; with the paths in
    the order first touched."""
    states, governing = known if known is not None else ([b""], [])
    commit_of = commit_of_turn(session, len(governing))
    last = governing[-1] if governing else 0
    matter: dict[str, set[int]] = {}
    there: dict[str, bool] = {}

    def visit(path: str | None, writes: bool, now: set[int]) -> None:
        if not path or not plain_path(path):
            return
        matter.setdefault(path, {0})
        if writes:
            matter[path] |= now
        there[path] = writes

    for turn in session.turns:
        at = commit_of.get(turn.index)
        now = {governing[at]} if at is not None else set(range(len(states)))
        for op in turn.reply.ops:
            if isinstance(op, (Edit, FullFile)) and op.git_forms is not None:
                source = op.git_forms.before_path
                if source and source != op.path:
                    visit(source, False, now)
                # (a link's target is no text attributes convert: it writes nothing they
                # govern, and takes the file there away; QA s40 helper-124 M2)
                visit(op.path, not (isinstance(op, FullFile) and op.mode is not None
                                    and op.mode & 0o170000 == 0o120000), now)
            elif is_move(op):
                visit(op.args[0], False, now)
                visit(op.args[1], True, now)
            elif is_deletion(op):
                visit(op.args[0], False, now)
    for path, held in there.items():
        if held:
            matter[path].add(last)
    return matter, list(matter)


_AS_STORED = ("none", "", False)


def checkout_rule(values: dict[bytes, bytes], config: tuple[str, bool]
                  ) -> tuple[str, str, bool]:
    """What git's checkout does to a file with these attribute values (as ``check-attr``
    prints them) under ``config`` (:func:`checkout_config`), as git 2.39's convert.c
    decides it: (line endings: "none", "auto" (LF to CRLF in text git finds no CR or
    binary sign in), "all" (every lone LF); the ``working-tree-encoding`` it re-encodes
    to, "" for none; whether it expands ``$Id$``). Two files with the same rule are
    checked out alike, whatever attributes gave it. Filter programs are off here."""
    text_crlf = config[1]
    act = crlf_action(values, config)
    lines = ("all" if act == "crlf" else
             "auto" if act == "auto-crlf" or (act == "auto" and text_crlf) else "none")
    encoding = values.get(b"working-tree-encoding", b"unspecified")
    named = "" if encoding in (b"unspecified", b"unset", b"set") or encoding.upper(
        ).replace(b"-", b"") == b"UTF8" else encoding.decode("utf-8", "replace").upper()
    return lines, named, values.get(b"ident") == b"set"


def crlf_action(values: dict[bytes, bytes], config: tuple[str, bool]) -> str:
    """Git's ``crlf_action`` for a file with these attribute values under ``config`` (git
    2.39 convert.c ``convert_attrs``): "binary" (no conversion), "input" (CRLF to LF on
    reading), "crlf" (that, and LF to CRLF on checkout), "auto" (either, for a file git
    finds to be text, by the configuration's line ending), "auto-lf", "auto-crlf"."""
    autocrlf, text_crlf = config

    def action(value: bytes | None) -> str:
        return {b"set": "text", b"unset": "binary", b"input": "input",
                b"auto": "auto"}.get(value or b"", "")

    act = action(values.get(b"text")) or action(values.get(b"crlf"))
    if act != "binary":
        eol = values.get(b"eol")
        if act == "auto" and eol in (b"lf", b"crlf"):
            act = "auto-" + eol.decode()
        elif eol in (b"lf", b"crlf"):
            act = "input" if eol == b"lf" else "crlf"
    if act == "text":
        act = "crlf" if text_crlf else "input"
    if not act:
        act = {"true": "auto-crlf", "input": "auto-lf"}.get(autocrlf, "binary")
    return act


def checkout_rules(repo: Repo, paths: list[str], config: tuple[str, bool], *cached: str,
                   env: dict[str, str] | None = None) -> dict[str, tuple[str, str, bool]]:
    """:func:`checkout_rule` of each path, by the attribute files ``env``'s index holds
    (``--cached``), or by the working tree's."""
    return {path: checkout_rule(found, config)
            for path, found in attr_values(repo, paths, _CONVERSION, *cached, env=env).items()}


def attr_values(repo: Repo, paths: list[str], names: Sequence[str], *cached: str,
                env: dict[str, str] | None = None) -> dict[str, dict[bytes, bytes]]:
    """Path -> attribute -> value as ``check-attr`` prints it (``set``, ``unset``, ...)."""
    fields = repo.git("check-attr", *cached, "-z", "--stdin", *names, env=env, input=b"".join(
        path.encode("utf-8", "surrogateescape") + b"\0" for path in paths)).split(b"\0")
    values: dict[str, dict[bytes, bytes]] = {}
    for at in range(0, len(fields) - 2, 3):
        named = values.setdefault(fields[at].decode("utf-8", "surrogateescape"), {})
        named[fields[at + 1]] = fields[at + 2]
    return values


# A converting attribute given the value "set", "unset" or "unspecified" in so many words:
# check-attr prints it as it prints "text", "-text" or no rule, and git reads it as a value
# it does not know (QA s40 helper-123 F2: "-text" then "text=unset eol=crlf" read as one
# rule, written LF where git writes CRLF, exit 0).
_LITERAL = re.compile(rb"(?:^|[ \t])(?:text|crlf|eol|ident|working-tree-encoding)="
                      rb"(?:set|unset|unspecified)(?=[ \t\r\n]|$)", re.MULTILINE)


def _spelt_as_check_attr_prints(repo: Repo, states: list[bytes],
                                on_disk: dict[bytes, bytes]) -> bool:
    """Whether an attribute file of the range's states, or ``.git/info/attributes``, or
    the user's global one, or one in the working tree (``on_disk``), gives a converting
    attribute a value check-attr prints as it prints another rule (:data:`_LITERAL`)."""
    blobs = sorted({line.partition(b"\t")[0].split()[2].decode() for state in states
                    for line in state.split(b"\0") if line})
    info = repo.git("rev-parse", "--git-path", "info/attributes").strip()
    texts = [*repo.blobs(blobs), global_attributes(repo), *on_disk.values(),
             _regular_file(repo.top / os.fsdecode(info)) or b""]
    return any(_LITERAL.search(text) for text in texts)


def _working_attribute_files(repo: Repo) -> dict[bytes, bytes]:
    """The working tree's ``.gitattributes`` files, tracked or not (ignored ones aside), as
    the bytes each holds (a link: its target), by path; a FIFO or the like is not opened
    (a deleted one is not held)."""
    listed = repo.git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
                      f":(glob)**/{ATTRIBUTES}")
    held: dict[bytes, bytes] = {}
    for name in set(listed.split(b"\0")) - {b""}:
        data = _regular_file(repo.top / os.fsdecode(name), links=True)
        if data is not None:
            held[name] = data
    return held


def _regular_file(path: Path, *, links: bool = False) -> bytes | None:
    """The bytes of ``path`` where it is a regular file (or, with ``links``, a link: its
    target); None otherwise, or unreadable."""
    try:
        if links and path.is_symlink():
            return os.fsencode(os.readlink(path))
        return path.read_bytes() if stat.S_ISREG(os.stat(path).st_mode) else None
    except OSError:
        return None


def _yours_are_the_ranges(on_disk: dict[bytes, bytes], states: list[bytes]) -> bool:
    """Whether the working tree's attribute files (``on_disk``) are those of one of the
    range's states: the same paths, each holding that state's blob (as it is, or with CRLF
    where the checkout wrote it so): the start's, or a state the review wrote them up to
    (compared with HEAD instead, a review that had written B's rules read them as yours on
    every later reading, and refused the files it had written: QA s40 helper-123 F3). Else
    they are yours, and whatever is written is committed by them."""
    held = {name: {blob_id(data).encode(), blob_id(data.replace(b"\r\n", b"\n")).encode()}
            for name, data in on_disk.items()}
    for state in states:
        entries = {}
        for line in state.split(b"\0"):
            if line:
                meta, _, path = line.partition(b"\t")
                entries[path] = meta.split()[2]
        if entries.keys() == held.keys() and all(entries[path] in ids
                                                 for path, ids in held.items()):
            return True
    return False


def attributes_changed(repo: Repo) -> bool:
    """Whether the working tree holds a ``.gitattributes`` that is not the checked-out
    commit's (changed, new or deleted): its files were written by other rules than the
    commits' (``git checkout`` itself refuses to overwrite them), and whatever is written
    there is committed by those."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all",
                   "--ignore-submodules=all", "--", f":(glob)**/{ATTRIBUTES}")
    return bool(out.strip(b"\0"))


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


def refused_where_encoded(session: Session, encoded: dict[tuple[int, str], str],
                          unsettled: set[str]) -> Session:
    """``session`` with each file operation :func:`encoded_writes` names refused
    (``GitForms.encoding``), and each on a path :func:`stable_paths` calls unsettled, or
    found at one by a rename (``GitForms.unsettled``)."""
    if not encoded and not unsettled:
        return session

    def each(turn: Turn) -> Turn:
        def refused(op: Edit | FullFile) -> Edit | FullFile:
            forms = op.git_forms
            if forms is None or forms.encoding or forms.unsettled:
                return op
            encoding = encoded.get((turn.index, op.path)) or encoded.get((0, op.path))
            if encoding:
                return replace(op, git_forms=replace(forms, encoding=encoding))
            if op.path in unsettled or forms.before_path in unsettled:
                return replace(op, git_forms=replace(forms, unsettled=(
                    op.path if op.path in unsettled else forms.before_path)))
            return op

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
    return any(names_attributes(turn) for turn in session.turns)


def names_attributes(turn: Turn) -> bool:
    """Whether an operation of ``turn`` names a ``.gitattributes`` (:func:`touches_attributes`)."""
    return any(is_attributes(name) for op in turn.reply.ops
               for name in (op.args if isinstance(op, ConsoleCommand) else (op.path,)))


def is_attributes(path: str) -> bool:
    """Whether ``path`` names a ``.gitattributes`` file."""
    return path.rstrip("/").rsplit("/", 1)[-1] == ATTRIBUTES


def attribute_entries(repo: Repo, commit: str, listing: bytes | None = None) -> bytes:
    """``update-index --index-info`` input for ``commit``'s ``.gitattributes`` files (its
    ``ls-tree`` lines: mode, type, id, path), read from ``listing`` where the caller has
    it (``ls-tree -r -z --full-tree`` of the commit)."""
    if listing is None:
        listing = repo.git("ls-tree", "-r", "-z", "--full-tree", commit)
    name = ATTRIBUTES.encode()
    return b"".join(entry + b"\0" for entry in listing.split(b"\0")
                    if b"\t" in entry and _read_as_attributes(entry)
                    and entry.rsplit(b"\t", 1)[1].rsplit(b"/", 1)[-1] == name)


def _read_as_attributes(mode: bytes) -> bool:
    """Whether git reads a ``.gitattributes`` tree entry of this mode (or ``ls-tree`` line
    starting with it) from the index: a file, and a symbolic link too, whose target text
    is read as the rules (git 2.39 checks a file out by them: QA s39 helper-121 F7)."""
    return mode.startswith((b"100", b"120000"))


def each_command(turn: Turn, change: Callable[[ConsoleCommand], ConsoleCommand]) -> Turn:
    """``turn`` with ``change`` made to each console command."""
    blocks = tuple(replace(block, commands=tuple(change(op) for op in block.commands))
                   if isinstance(block, ConsoleBlock) else block
                   for block in turn.reply.blocks)
    return replace(turn, reply=replace(turn.reply, blocks=blocks))


def is_deletion(op: object) -> TypeGuard[ConsoleCommand]:
    """Whether ``op`` is a git source's deletion naming its blob in full."""
    return (isinstance(op, ConsoleCommand) and op.literal and op.name is CommandName.RM
            and len(op.args) == 1 and len(op.expect_blob) == 40)


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
