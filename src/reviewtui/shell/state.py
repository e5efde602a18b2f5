"""The review state file: decisions and disk bookkeeping that survive anything.

``<session file>.review.json`` (or ``--state PATH``) holds, with a format version:

* ``log``: every decision as it was made, append-only. ``decide`` entries carry one or
  more items keyed by turn, operation position, path and edit number plus a hash of the
  operation's text; ``undo`` / ``redo`` entries step through them, so undo and redo are
  exact and history is never rewritten; ``restore`` entries record checkpoint restores.
* ``orphaned``: decisions whose operation's text changed since: reported on load, never applied.
* ``ui``: what the workbench shows (current checkpoint, selected operation).
* ``paths``: per path the workbench wrote or must watch: the original content (the
  base), what it last saw on disk, what it last wrote, any outside layer, and the other
  ends of the moves that write was one end of (``moved_with``). Contents
  live in a content-addressed blob folder beside the file (``<state>.blobs/<sha256>``),
  written before the state that names them, so the state file itself stays small.
* ``folders`` (when any): the folders the review made, and those it found on disk when it
  created a file in them, which no removal takes (``core/review/folders.py``).

Every save is atomic (temp file, fsync, rename, directory fsync), with a new ``nonce``
(statemark.py). A state file that cannot be read is moved aside to
``<file>.corrupt-<timestamp>`` with a message; loading never raises for a bad file.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from reviewtui.core.errors import (
    DiskError,
    InputLimitError,
    StateFormatError,
    UsageError,
)
from reviewtui.core.record import field, record
from reviewtui.core.review.folders import FolderLedger
from reviewtui.core.review.log import (
    DecisionItem,
    Folded,
    LogEntry,
    LogKind,
    _expect,
    _is_count,
    drop_in_force,
    fold,
    op_fingerprint,
    op_label,
    reconcile_log,
    time_spent,
)

# The decision log moved to reviewtui.core.review.log; its names stay importable here.
from reviewtui.core.review.plan import PathRecord
from reviewtui.core.text.limits import load_json
from reviewtui.shell.disk import LINK_MODE, TEMP_SUFFIX, atomic_write, is_temp_name
from reviewtui.shell.loader import read_input
from reviewtui.shell.statepath import blob_dir_for

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

# Re-exported: the decision log moved to reviewtui.core.review.log.
__all__ = [
    "PathRecord",
    "DecisionItem",
    "Folded",
    "LogEntry",
    "LogKind",
    "StateFormatError",
    "drop_in_force",
    "fold",
    "op_fingerprint",
    "op_label",
    "reconcile_log",
    "time_spent",
]

STATE_FORMAT = "reviewtui-review-state"
STATE_VERSION = 2  # 2: the log's older entries may be in segment blobs ("log_segments")
# A log whose entries not yet in a segment take more than this (encoded) has them sealed
# into a new segment blob (written once), so a save rewrites what came since, not the whole
# log: with 25,000 decisions in force the state file was 3.7 MB, rewritten on every key.
SEAL_BYTES = 1 << 16
_SHA_RE = re.compile(r"^[0-9a-f]{64}\Z")
_MAX_DEPTH = 8  # the deepest legitimate value: doc > log > entry > items > item > list
PERMISSION_BITS = 0o777  # no setuid, setgid or sticky bit ever comes from a state file


def check_state_path(path: Path) -> Path:
    """``path`` if it is a regular file or absent; anything else is a usage error.

    A device, FIFO, socket, folder or symbolic link (to anything) at the state path would
    be replaced by the first save (or hang the first read): refused before either.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise UsageError(f"cannot use as the review state: {exc.strerror}",
                         source=str(path), rule="state-path") from None
    if stat.S_ISLNK(info.st_mode):
        kind = "a symbolic link"
    elif stat.S_ISREG(info.st_mode):
        return path
    elif stat.S_ISDIR(info.st_mode):
        kind = "a folder"
    elif stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
        kind = "a device"
    elif stat.S_ISFIFO(info.st_mode):
        kind = "a FIFO"
    else:
        kind = "not a regular file"
    raise UsageError(f"the review state must be a regular file or not exist; this is {kind}",
                     source=str(path), rule="state-path")


# --- per-path bookkeeping ------------------------------------------------------------


@record(slots=True)
class ReviewState:
    """Everything the state file holds, decoded (contents still as blob hashes)."""

    session_sha: str = ""
    root: str | None = None
    log: list[LogEntry] = field(default_factory=list)
    orphaned: list[dict[str, Any]] = field(default_factory=list)
    ui: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, dict[str, Any]] = field(default_factory=dict)
    folders: FolderLedger = field(default_factory=FolderLedger)  # the replay's
    nonce: str = ""  # new at each save: see shell/statemark.py
    git_apply: dict[str, Any] | None = None  # encoded (shell/state_git_apply.py); None: none


def _is_sha(value: Any) -> bool:
    return isinstance(value, str) and _SHA_RE.match(value) is not None


def _check_content_ref(data: Any, what: str) -> None:
    if data is None:
        return
    _expect(isinstance(data, dict), f"{what} is not an object")
    _expect(_is_sha(data.get("sha")), f"{what} has no sha256")
    mode = data.get("mode")
    _expect(isinstance(mode, int) and not isinstance(mode, bool)
            and (0 <= mode <= 0o7777 or mode == LINK_MODE), f"{what} has a bad mode")


def _check_record(path: str, data: Any) -> None:
    """The shape of one ``paths`` entry: a bad one makes the whole file unreadable."""
    _expect(isinstance(data, dict), f"paths[{path[:60]!r}] is not an object")
    _check_content_ref(data.get("base"), f"paths[{path[:60]!r}].base")
    _check_content_ref(data.get("ref"), f"paths[{path[:60]!r}].ref")
    for key in ("seen", "writing"):
        _expect(data.get(key) is None or _is_sha(data.get(key)),
                f"paths[{path[:60]!r}].{key} is not a sha256")
    layer = data.get("layer")
    if layer is not None:
        _expect(isinstance(layer, dict)
                and all(layer.get(side) is None or _is_sha(layer.get(side))
                        for side in ("ours", "theirs")),
                f"paths[{path[:60]!r}].layer is not a pair of sha256")
    for flag in ("outside", "deleted"):
        _expect(isinstance(data.get(flag, False), bool), f"paths[{path[:60]!r}].{flag}")
    _expect(isinstance(data.get("note", ""), str), f"paths[{path[:60]!r}].note")
    ends = data.get("moved_with", [])
    _expect(isinstance(ends, list) and all(isinstance(end, str) for end in ends),
            f"paths[{path[:60]!r}].moved_with is not a list of paths")


def _check_depth(doc: Any) -> None:
    """No legitimate state nests deeper than a few levels; refuse what does. (A value
    inside a container at depth d is at depth d + 1; the document is at depth 1. Walked a
    level at a time, containers only: a scalar adds nothing to walk.)"""
    level = [doc] if isinstance(doc, dict | list) else []
    depth = 1
    while level:
        children = [value for container in level
                    for value in (container.values() if isinstance(container, dict)
                                  else container)]
        if not children:
            return
        depth += 1
        _expect(depth <= _MAX_DEPTH, f"nested deeper than {_MAX_DEPTH} levels")
        level = [value for value in children if isinstance(value, dict | list)]


def _ui_state(ui: Mapping[str, Any]) -> dict[str, Any]:
    """The workbench's place: only the keys it writes, each checked."""
    out: dict[str, Any] = {}
    checkpoint = ui.get("checkpoint")
    _expect(checkpoint is None or _is_count(checkpoint), "ui.checkpoint is not a count")
    if checkpoint is not None:
        out["checkpoint"] = checkpoint
    selected = ui.get("selected")
    _expect(selected is None or (isinstance(selected, list) and len(selected) == 2
                                 and all(_is_count(x) for x in selected)),
            "ui.selected is not a pair of counts")
    if selected is not None:
        out["selected"] = list(selected)
    return out


def _parse_int(text: str) -> int:
    # Python refuses ints of 4,300+ digits with advice about sys.set_int_max_str_digits;
    # no count in a state file needs more than a handful.
    _expect(len(text.lstrip("-")) <= 19, f"an integer with {len(text)} digits")
    return int(text)


def _parse_constant(name: str) -> Any:
    raise StateFormatError(f"{name} is not a number")


def parse_state_json(raw: bytes, source: str = "") -> Any:
    """JSON as a state file may hold it: bounded ints, no NaN, bounded depth.

    For a state that fails, the bounds every outside JSON has are named first
    (:func:`load_json`: nesting and digits, an InputLimitError naming the line), then the
    state's own, tighter ones. A sound state passes its own at once: the generic ones are
    looser, and slow (a Python scan of every token: 65 ms of 175 at 5,000 log entries).
    """
    import json  # here: an apply without --state reads no state file (start-up)

    text = raw.decode("utf-8")

    def own_bounds() -> Any:
        doc = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
        _check_depth(doc)
        return doc

    with contextlib.suppress(ValueError, RecursionError, StateFormatError):
        return own_bounds()
    load_json(text, source=source)
    try:
        return own_bounds()
    except RecursionError:
        raise StateFormatError("nested too deeply") from None


def decode_state(doc: Any, blobs: BlobStore | None = None) -> ReviewState:
    """The state ``doc`` holds; its log's segments read from ``blobs`` (the state file's
    blob folder: :func:`blob_dir_for`)."""
    _expect(isinstance(doc, dict), "the document is not a JSON object")
    _expect(doc.get("format") == STATE_FORMAT, "not a reviewtui review state")
    version = doc.get("version")
    _expect(_is_count(version) and version >= 1, "no format version")
    _expect(version <= STATE_VERSION,
            f"format version {version} was written by a newer reviewtui")
    session = doc.get("session")
    _expect(isinstance(session, dict), "no session section")
    _expect(isinstance(session.get("sha256", ""), str), "bad session hash")
    log = doc.get("log", [])
    _expect(isinstance(log, list), "the log is not a list")
    segments = doc.get("log_segments", [])
    _expect(isinstance(segments, list) and (not segments or version >= 2),
            "log_segments is not a list of a version 2 state")
    orphaned = doc.get("orphaned", [])
    _expect(isinstance(orphaned, list), "orphaned is not a list")
    ui = doc.get("ui", {})
    _expect(isinstance(ui, dict), "ui is not an object")
    paths = doc.get("paths", {})
    _expect(isinstance(paths, dict) and all(isinstance(v, dict) for v in paths.values()),
            "paths is not an object of objects")
    for rel, entry in paths.items():
        _check_record(rel, entry)
    root, nonce = doc.get("root"), doc.get("nonce", "")
    _expect(root is None or isinstance(root, str), "bad root")
    _expect(isinstance(nonce, str) and len(nonce) <= 64, "bad nonce")
    return ReviewState(
        session_sha=str(session.get("sha256", "")),
        root=root,
        log=[*_segment_entries(segments, blobs), *map(LogEntry.from_json, log)],
        orphaned=[o for o in orphaned if isinstance(o, dict)],
        ui=_ui_state(ui),
        paths=paths,
        folders=FolderLedger.from_json(doc.get("folders")),
        nonce=nonce,
        git_apply=_git_apply(doc.get("git_apply")),
    )


def _git_apply(data: Any) -> dict[str, Any] | None:
    from reviewtui.shell.state_git_apply import decode_rules

    return None if data is None else dict(data) if decode_rules(data) is not None else None


def _segment_entries(segments: list[Any], blobs: BlobStore | None) -> list[LogEntry]:
    """The log entries of a state's segments, in order; each blob must be there, hold the
    bytes its name hashes to (``BlobStore.get``), and hold as many entries as the state
    says. Together they are bounded as one state file is (``input_limit``)."""
    from reviewtui.shell.loader import input_limit

    entries: list[LogEntry] = []
    budget = input_limit()
    for n, segment in enumerate(segments, 1):
        _expect(isinstance(segment, dict) and _is_sha(segment.get("sha256"))
                and _is_count(segment.get("entries")),
                f"log segment {n} is not a sha256 and a count of entries")
        data = blobs.get(segment["sha256"]) if blobs is not None else None
        _expect(data is not None, f"log segment {n} ({segment['sha256'][:12]}) is missing "
                "or damaged in the blob folder")
        assert data is not None
        budget -= len(data)
        _expect(budget >= 0, "the log's segments are larger than a review state may be")
        found = parse_state_json(data)
        _expect(isinstance(found, list) and len(found) == segment["entries"],
                f"log segment {n} does not hold the {segment['entries']} entries it should")
        entries.extend(map(LogEntry.from_json, found))
    return entries


class Encoded(str):
    """JSON text already encoded: :func:`state_text` writes it as it is."""

    __slots__ = ()


def encode_state(state: ReviewState, session_file: Path,
                 entry: Callable[[LogEntry], Any] = LogEntry.to_json,
                 segments: Sequence[tuple[str, int]] = ()) -> dict[str, Any]:
    """The state file's document (``entry``: what a log entry becomes in it;
    ``segments``: the sha256 and entry count of each segment blob holding the log's first
    entries, which the document's log then leaves out). Version 1 without segments: a
    reviewtui before them reads it."""
    sealed = sum(count for _, count in segments)
    doc: dict[str, Any] = {
        "format": STATE_FORMAT,
        "version": 2 if segments else 1,
        "session": {"file": str(session_file.resolve()), "sha256": state.session_sha},
        "root": state.root,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if segments:
        doc["log_segments"] = [{"sha256": sha, "entries": count} for sha, count in segments]
    return doc | {
        "log": [entry(item) for item in state.log[sealed:]],
        "orphaned": state.orphaned,
        "ui": state.ui,
        "paths": state.paths,
        **({} if state.folders.empty else {"folders": state.folders.to_json()}),
        **({} if state.git_apply is None else {"git_apply": state.git_apply}),
        "nonce": state.nonce,
    }


# --- the files -----------------------------------------------------------------------


class BlobStore:
    """Content-addressed, write-once file contents: ``<dir>/<sha256>``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._known: set[str] = set()

    def put(self, data: bytes, sha: str | None = None, *, check: bool = False) -> str:
        """Store ``data`` (``sha``: its sha256, when the caller already has it). ``check``:
        a blob already there under that name is read first, and written again unless it
        holds these bytes (a log segment: the review cannot go on without it)."""
        import hashlib  # file contents: OpenSSL's (a plain apply stores none: start-up)

        sha = sha or hashlib.sha256(data).hexdigest()
        if sha in self._known:
            return sha
        if not (self.directory / sha).is_file() or (check and self.get(sha) is None):
            if self.directory.is_symlink():
                raise DiskError("the blob folder is a symbolic link: reviewtui will not "
                                "write through it", source=str(self.directory), rule="state")
            self.directory.mkdir(parents=True, exist_ok=True)
            atomic_write(self.directory, sha, data, 0o600)
        self._known.add(sha)
        return sha

    def get(self, sha: str) -> bytes | None:
        """The blob's bytes; None when it is missing, damaged or not a regular file (a
        FIFO put in its place hung every reading of the state: QA pass s28; a link is not
        followed)."""
        if not _SHA_RE.match(sha):
            return None
        try:
            fd = os.open(self.directory / sha, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(fd, "rb", closefd=False) as stream:
                data = stream.read()
        except OSError:
            return None
        finally:
            os.close(fd)
        import hashlib

        if hashlib.sha256(data).hexdigest() != sha:
            return None  # damaged: better unknown than wrong
        self._known.add(sha)
        return data

    def collect(self, keep: set[str]) -> int:
        """Remove blobs nothing refers to any more; returns how many went."""
        removed = 0
        if not self.directory.is_dir():
            return 0
        for entry in self.directory.iterdir():
            if _SHA_RE.match(entry.name) and entry.name not in keep:
                with contextlib.suppress(OSError):
                    entry.unlink()
                    self._known.discard(entry.name)
                    removed += 1
        return removed


class StateFile:
    """Loading (never raising for a bad file) and atomic saving of one state file."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only  # load it, never write it (previews)
        self.blobs = BlobStore(blob_dir_for(path))
        # Each log entry's JSON as the last save wrote it, by identity (entries never change).
        self._entries: dict[int, tuple[LogEntry, Encoded]] = {}
        # The segment blobs holding the log's first entries (the entries, by identity, and
        # the blob's sha256), as loaded or last saved.
        self._sealed: list[tuple[tuple[LogEntry, ...], str]] = []
        self.nonce = ""  # the last save's (shell/statemark.py)
        self.sealed_here = False  # the loaded state carries this machine's seal

    def load(self) -> tuple[ReviewState | None, list[str]]:
        """The saved state and problems to show; raises only for a file over the size limit
        (InputLimitError: it may well be sound, so it is neither moved aside nor replaced)."""
        check_state_path(self.path)  # a FIFO would hang the read, a device feed it
        try:
            raw = read_input(self.path, "review state")
        except FileNotFoundError:
            return None, []
        except OSError as exc:
            return None, [f"{self.path}: cannot read the review state ({exc.strerror}); "
                          "starting without it"]
        try:
            doc = parse_state_json(raw, str(self.path))
            state = decode_state(doc, self.blobs)
            from reviewtui.shell.stateseal import sealed_here  # (a saved review alone)

            self.sealed_here = sealed_here(raw)
            at = 0
            self._sealed = []
            for segment in doc.get("log_segments", []):
                entries = tuple(state.log[at:at + segment["entries"]])
                self._sealed.append((entries, segment["sha256"]))
                at += len(entries)
            return state, []
        except InputLimitError as exc:  # nested too deep, a giant number: corrupt as well
            return None, [self._move_aside(f"line {exc.line}: {exc.message} [{exc.rule}]")]
        # The state's shape; JSON, UTF-8; a verdict.
        except (StateFormatError, ValueError, KeyError, TypeError) as exc:
            why = " ".join((str(exc) or type(exc).__name__).split())[:200]
            return None, [self._move_aside(why)]

    def _move_aside(self, why: str) -> str:
        if self.read_only:  # a preview writes nothing, nor moves anything
            return f"{self.path}: the review state cannot be read ({why}); left as it is"
        stamp = time.strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            return (f"{self.path}: the review state cannot be read ({why}) nor moved aside "
                    f"({exc.strerror}); starting a fresh review")
        return (f"{self.path}: the review state cannot be read ({why}); it was moved aside "
                f"to {aside.name} and a fresh review starts")

    def _entry_text(self, entry: LogEntry) -> Encoded:
        """The JSON of ``entry``: as the last save wrote it, or encoded now (one line)."""
        known = self._entries.get(id(entry))
        if known is None or known[0] is not entry:
            known = self._entries[id(entry)] = (entry, Encoded(_encoder()(entry.to_json())))
        return known[1]

    def remove_leftovers(self) -> None:
        """Temp files of saves (and blob writes) that a killed process left behind."""
        # Only names reviewtui's own writer makes (self-checking): a user's file that merely
        # ends in the same suffix is never touched.
        pattern = f".{self.path.name}.*{TEMP_SUFFIX}"
        leftovers = list(self.path.parent.glob(pattern))
        if self.blobs.directory.is_dir():
            leftovers += self.blobs.directory.glob(f"*{TEMP_SUFFIX}")
        for leftover in leftovers:
            if not is_temp_name(leftover.name):
                continue
            with contextlib.suppress(OSError):
                leftover.unlink()

    def log_blobs(self) -> set[str]:
        """The segment blobs the last save or load refers to (kept by a blob collection)."""
        return {sha for _, sha in self._sealed}

    def _seal(self, log: Sequence[LogEntry]) -> list[tuple[str, int]]:
        """The segments for ``log``: those already written that are still its first entries
        (by identity: a log reconciled at resume is another list), and a new one of the
        entries after them when they have grown past ``SEAL_BYTES``. The blob is written
        (and synced) before the state file that names it."""
        at, kept = 0, []
        for entries, sha in self._sealed:
            end = at + len(entries)
            if end > len(log) or any(a is not b for a, b in zip(entries, log[at:end],
                                                                 strict=True)):
                break
            kept.append((entries, sha))
            at = end
        texts = [self._entry_text(entry) for entry in log[at:]]
        if sum(map(len, texts)) > SEAL_BYTES:
            data = ("[\n" + ",\n".join(texts) + "\n]\n").encode("utf-8")
            kept.append((tuple(log[at:]), self.blobs.put(data, check=True)))
        self._sealed = kept
        return [(sha, len(entries)) for entries, sha in kept]

    def save(self, state: ReviewState, session_file: Path) -> None:
        segments = self._seal(state.log)
        from reviewtui.shell.stateseal import sealed as with_seal  # (a saved review alone)

        data = with_seal(state_text(encode_state(state, session_file, self._entry_text,
                                              segments)).encode("utf-8"))
        self.nonce = state.nonce
        sealed = sum(count for _, count in segments)
        self._entries = {id(entry): self._entries[id(entry)] for entry in state.log[sealed:]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DiskError(f"cannot create the folder for the review state: {exc.strerror}",
                            source=str(self.path), rule="state") from None
        try:
            check_state_path(self.path)  # again: the save replaces what is at the path
        except UsageError as err:
            raise DiskError(err.message, source=err.source, rule=err.rule) from None
        atomic_write(self.path.parent, self.path.name, data, 0o644)


_dump: Callable[[Any], str] | None = None


def _encoder() -> Callable[[Any], str]:
    """json's C encoder, made once (``json.dumps`` with an argument makes a new encoder
    for each call, the most of a short entry's cost)."""
    global _dump
    if _dump is None:
        import json

        _dump = json.JSONEncoder(ensure_ascii=False).encode
    return _dump


def state_text(doc: Mapping[str, Any]) -> str:
    """The state file's JSON: a line for each top-level key, and for each log entry and
    path record, each written by json's C encoder. (``indent=1`` made json use its Python
    encoder: ~10 ms a save at 600 log entries against ~2, and a save follows every key.)"""
    dump = _encoder()
    lines = []
    for key, value in doc.items():
        if isinstance(value, list) and value:
            inner = ",\n  ".join(item if isinstance(item, Encoded) else dump(item)
                                 for item in value)
            lines.append(f" {dump(key)}: [\n  {inner}\n ]")
        elif isinstance(value, dict) and value:
            inner = ",\n  ".join(f"{dump(name)}: {dump(item)}" for name, item in value.items())
            lines.append(f" {dump(key)}: {{\n  {inner}\n }}")
        else:
            lines.append(f" {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def read_time_spent(path: Path) -> dict[tuple[int, int], float]:
    """``time_spent`` of a saved review, read without side effects ({} if unreadable)."""
    try:
        saved = decode_state(parse_state_json(read_input(path, "review state"), str(path)),
                             BlobStore(blob_dir_for(path)))
    # No timing is better than a crash.
    except (OSError, StateFormatError, ValueError, KeyError, TypeError, InputLimitError):
        return {}
    return time_spent(saved.log)
