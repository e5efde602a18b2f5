"""The accepted result as a git-style unified diff against the base.

``git apply`` (and ``patch -p1``) accept the output: ``diff --git`` headers, new and
deleted files with their modes, mode changes, renames with ``rename from``/``rename
to``, and ``\\ No newline at end of file`` markers. Line endings and a byte order mark
are part of the lines, so a CRLF file is patched as CRLF. Renames are not guessed from
content: they follow the ``:mv``/``:rn``/``:undo``/``:unrm`` commands that landed. A
binary file whose content is added, removed or changed cannot be expressed as text; it
is left out and named in the notes before the first header (``git apply`` skips that
text). A binary file that is only moved or changes mode is kept, since that needs no
content.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from difflib import SequenceMatcher

from reviewtui.core.engine import SessionRun, execution_order
from reviewtui.core.engine.checkout import is_form
from reviewtui.core.engine.links import is_link
from reviewtui.core.export.forms import (
    NONE,
    Forms,
    Stored,
    landed_changes,
    landed_moves,
    removed_blobs,
)
from reviewtui.core.importers.gitbinary import blob_id, write_literal
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import record

CONTEXT = 3
_AUTOJUNK_LINES = 2000  # past this, let difflib's heuristic keep the diff fast
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n",
            "\v": "\\v", "\f": "\\f", "\r": "\\r"}


@record(frozen=True, slots=True)
class FilePatch:
    """One file's change; ``old_path``/``new_path`` are None for an added/removed file."""

    old_path: str | None
    new_path: str | None
    old: FileState | None
    new: FileState | None

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""


def origins(run: SessionRun) -> dict[str, str]:
    """Final path -> the base path its content came from, for files that moved.

    Follows every landed structural command in the order it ran: moves and renames
    carry a file's origin along, removals park it, ``:unrm`` brings it back.
    """
    origin = {path: path for path in run.checkpoint(0).paths()}
    parked: dict[str, str] = {}
    for turn in run.turns:
        for pos, op in execution_order(turn.turn):
            result = turn.results[pos]
            if not isinstance(op, ConsoleCommand) or not result.landed:
                continue
            changes = result.outcome.changes
            assert isinstance(changes, tuple)
            taken = {old: origin.pop(old, None) for old, _ in changes if old is not None}
            for old, new in changes:
                source = taken.get(old) if old is not None else None
                if new is None:
                    if old is not None and source is not None:
                        parked[old] = source
                    continue
                if old is None:
                    source = parked.pop(new, None)
                if source is not None:
                    origin[new] = source
    return {path: source for path, source in origin.items() if path != source}


def file_patches(base: Tree, result: Tree, moved: dict[str, str]) -> list[FilePatch]:
    """Every file that differs, renames paired up, sorted by the path it ends at."""
    renames: dict[str, str] = {}
    for new_path, old_path in moved.items():
        if (new_path in result and new_path not in base and old_path in base
                and old_path not in result and old_path not in renames.values()):
            renames[new_path] = old_path
    sources = set(renames.values())
    out: list[FilePatch] = []
    for path, (old, new) in base.diff(result).items():
        if path in renames:
            out.append(FilePatch(renames[path], path, base.get(renames[path]), new))
        elif path in sources:
            continue
        elif old is None:
            out.append(FilePatch(None, path, None, new))
        elif new is None:
            out.append(FilePatch(path, None, old, None))
        else:
            out.append(FilePatch(path, path, old, new))
    return sorted(out, key=lambda p: p.path)


def renormalized(run: SessionRun, base: Tree, result: Tree, stored: Stored,
                 base_blobs: Mapping[str, str] | None = None) -> tuple[Tree, Tree, Stored]:
    """``base`` and ``result`` (and ``stored``) with each file whose bytes the range kept
    while its blob changed as the blobs git stores (:func:`endings_changed`; the patch
    left it out, exit 0, QA s39 helper-121 F6), by the ids the sections found and left:
    the blob the first operation on a path found there (the base's), and the one its last
    writer left, which a later deletion or move takes away, and a pure move carries to its
    new path (the blob an edit before a deletion and a move onto the path left was taken
    for the end's, and a file the range left as it was turned into it, exit 0, also on a
    plain checkout: QA s41 helper-126 H4). ``base_blobs``: a git session's base blobs (see
    ``Accepted``), the blob found where no operation on the path names it (a file moved
    away as it is, its path then given another blob of the same text: H1)."""
    found: dict[str, str] = {}
    left: dict[str, str] = {}
    removed_first: dict[str, str] = {}  # path -> the blob a deletion took from the base
    touched: set[str] = set()  # paths a landed operation changed so far
    for turn in run.turns:
        for done, _section in landed_changes(turn):
            op = done.op
            if isinstance(op, ConsoleCommand):
                for path, blob in removed_blobs((done,)).items():  # (then added again)
                    if path not in touched:
                        found.setdefault(path, blob)
                        removed_first.setdefault(path, blob)
                moves = landed_moves((done,))
                for target, source in moves.items():
                    carried = left.pop(source, None)
                    if carried is None and source not in touched and base_blobs:
                        carried = base_blobs.get(source)  # (the base's, moved as it is)
                    left.pop(target, None)
                    if carried is not None:
                        left[target] = carried
                    touched.update((target, source))
                if not moves:  # a deletion, or another command: no blob it left is told
                    for path in op.args:
                        left.pop(path, None)
                        touched.add(path)
            elif isinstance(op, (Edit, FullFile)):
                forms = op.git_forms  # (its own: another hunk's result is no blob)
                if forms is not None and forms.before_path:  # renamed with a change
                    if forms.before_blob and forms.before_path not in touched:
                        found.setdefault(forms.before_path, forms.before_blob)
                    left.pop(forms.before_path, None)
                    touched.add(forms.before_path)
                elif forms is not None and forms.before_blob and op.path not in touched:
                    found.setdefault(op.path, forms.before_blob)
                if forms is not None:
                    left[op.path] = forms.after_blob  # (a rename's too: helper-127 H2)
                else:
                    left.pop(op.path, None)
                touched.add(op.path)
    for path, blob in (base_blobs or {}).items():
        found.setdefault(path, blob)
    # A file the range deletes first, then writes again with other bytes: the patch's old
    # side is the base's blob, not its checkout (with CRLF it did not apply to A: QA s40
    # helper-124 H4; where the bytes stay, endings_changed below gives both sides).
    for path, blob in removed_first.items():
        was, now = base.get(path), result.get(path)
        if was is not None and now is not None and was.data != now.data and not is_link(was) \
                and (old := _as_blob(was.data, blob, stored.old, path)) is not None \
                and old != was.data:
            base = base.set(path, FileState.from_bytes(old, mode=was.mode))
    return endings_changed(base, result, found, left, stored)


def endings_changed(base: Tree, result: Tree, found: Mapping[str, str],
                    left: Mapping[str, str], stored: Stored, *, every: bool = False
                    ) -> tuple[Tree, Tree, Stored]:
    """``base`` and ``result`` with each file they hold as the same bytes while the blob
    changed from ``found[path]`` to ``left[path]`` (a commit turning CRLF into LF, or
    back, on a checkout that writes both as one CRLF file) as those blobs, and ``stored``
    without its forms for them (which would make both sides one blob again). The blobs
    are told from the bytes (as they are, or with CRLF made LF). ``every``: each file of
    ``left`` whose blobs are told so, changed bytes too (a series' mail: its section
    names the blobs, which a moment's forms may not know: the same CRLF bytes stood for
    the CRLF blob in one mail and the LF blob in the next), and each file it removes whose
    blob ``found`` names (a deletion's)."""
    changed: dict[str, tuple[FileState | None, FileState | None]] = {}
    if every:
        for path, blob in found.items():
            was = base.get(path)
            if path not in left and was is not None and not is_link(was) \
                    and result.get(path) is None \
                    and (old := _as_blob(was.data, blob, stored.old, path)) is not None:
                changed[path] = (FileState.from_bytes(old, mode=was.mode), None)
    for path, blob in left.items():
        was, now = base.get(path), result.get(path)
        if now is None or is_link(now) or (was is not None and is_link(was)):
            continue  # (a file holding a NUL is converted too, under a text attribute)
        if not every and (path not in found or was is None or was.data != now.data):
            continue
        old = (_as_blob(was.data, found[path], stored.old, path)
               if was is not None and path in found else None)
        new = _as_blob(now.data, blob, stored.new, path)
        if new is None or (old is None and was is not None):
            continue
        if every or old != new:
            changed[path] = (None if old is None or was is None
                             else FileState.from_bytes(old, mode=was.mode),
                             FileState.from_bytes(new, mode=now.mode))
    if not changed:
        return base, result, stored
    for path, (old_state, new_state) in changed.items():
        if old_state is not None:
            base = base.set(path, old_state)
        if new_state is not None:
            result = result.set(path, new_state)
    return base, result, stored.without(changed)


def _as_blob(data: bytes, blob: str, forms: Forms, path: str) -> bytes | None:
    """The blob ``blob`` from bytes that hold it as it is, with CRLF, or as the moment's
    ``forms`` of ``path`` say (a blob of mixed endings, all CRLF on disk: its commit
    making it all LF was left out, exit 0: QA s42 helper-128 H2); None: none of those."""
    if blob_id(data) == blob:
        return data
    if is_form(True, data, blob):
        return data.replace(b"\r\n", b"\n")
    known = forms.get((path, data))
    return known if known is not None and blob_id(known) == blob else None


def unified_patch(base: Tree, result: Tree, moved: dict[str, str] | None = None,
                  *, notes: Sequence[str] = (), stored: Stored | None = None) -> str:
    """The patch text, ``notes`` before the first header (binary files included, in git's
    binary form: ``stored`` gives the blob of a file written as a checkout converts it,
    see :mod:`reviewtui.core.export.forms`)."""
    bodies = [_file_diff(patch, stored if stored is not None else NONE)
              for patch in file_patches(base, result, moved or {})]
    preamble = "".join(f"{line}\n" for line in notes) + ("\n" if notes and bodies else "")
    return preamble + "".join(bodies)


def _mode(state: FileState) -> str:
    if is_link(state):
        return "120000"
    return "100755" if state.mode & 0o111 else "100644"


def _file_diff(patch: FilePatch, stored: Stored) -> str:
    old, new = patch.old, patch.new
    # Text in a checkout's form: as git stores it, each side by the forms of its moment.
    old = _stored_state(stored.old, patch.old_path or patch.path, old)
    new = _stored_state(stored.new, patch.new_path or patch.path, new)
    if old is not None and new is not None and is_link(old) != is_link(new):
        # A link becoming a file or back: git writes a removal and a new file.
        return (_file_diff(FilePatch(patch.old_path or patch.path, None, old, None), stored)
                + _file_diff(FilePatch(None, patch.new_path or patch.path, None, new),
                             stored))
    # A link's target is text (git writes it as a one-line file without a newline).
    binary = ((old is not None and old.binary and not is_link(old))
              or (new is not None and new.binary and not is_link(new)))
    # A binary file's sides, as git stores them (a file holding a NUL under a text
    # attribute is converted: its bytes may stay while its blob changes).
    was = _as_stored(stored.old, patch.old_path or patch.path, old) if binary else None
    now = _as_stored(stored.new, patch.new_path or patch.path, new) if binary else None
    content_changed = (old is None or new is None or old.data != new.data
                       or (binary and was != now))
    a = _quote("a/" + (patch.old_path or patch.path))
    b = _quote("b/" + (patch.new_path or patch.path))
    lines = [f"diff --git {a} {b}"]
    if old is None:
        assert new is not None
        lines.append(f"new file mode {_mode(new)}")
    elif new is None:
        lines.append(f"deleted file mode {_mode(old)}")
    else:
        if _mode(old) != _mode(new):
            lines += [f"old mode {_mode(old)}", f"new mode {_mode(new)}"]
        if patch.old_path != patch.new_path:
            lines += [f"similarity index {_similarity(old, new, was != now)}%",
                      f"rename from {_quote(patch.old_path or '')}",
                      f"rename to {_quote(patch.new_path or '')}"]
    if binary and content_changed:
        # git's own binary form (``git diff --binary``): the full blob ids, which git apply
        # insists on for binary patches, then the new content and, in reverse, the old;
        # each as git stores it.
        lines.append(f"index {_blob(was)}..{_blob(now)}")
        lines.append("GIT binary patch")
        lines += write_literal(now if now is not None else b"")
        lines += write_literal(was if was is not None else b"")
        return "".join(line + "\n" for line in lines)
    header = "".join(line + "\n" for line in lines)
    if not content_changed:
        return header
    old_lines = _lines(old)
    new_lines = _lines(new)
    if not old_lines and not new_lines:
        return header
    minus = a if old is not None else "/dev/null"
    plus = b if new is not None else "/dev/null"
    return header + f"--- {minus}\n+++ {plus}\n" + "".join(_hunks(old_lines, new_lines))


def _stored_state(forms: Forms, path: str, state: FileState | None) -> FileState | None:
    """``state`` as git stores it where ``forms`` know its text (binary files: as they
    are, :func:`_as_stored` reads them)."""
    if state is None or state.binary or (blob := forms.get((path, state.data))) is None:
        return state
    return FileState.from_bytes(blob, mode=state.mode)


def _as_stored(forms: Forms, path: str, state: FileState | None) -> bytes | None:
    if state is None:
        return None
    return forms.get((path, state.data), state.data)


def _blob(data: bytes | None) -> str:
    return blob_id(data) if data is not None else "0" * 40


def _lines(state: FileState | None) -> list[str]:
    """The file's lines with their endings, BOM included: what the patch must reproduce."""
    if state is None:
        return []
    text = state.data.decode("utf-8")
    parts = text.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def _similarity(old: FileState, new: FileState, other_blob: bool = False) -> int:
    if old.data == new.data:
        return 99 if other_blob else 100
    # By lines of bytes: a binary file renamed with a change has a similarity too (its
    # text lines raised UnicodeDecodeError: helper-103, QA s35); for text, the same lines.
    matcher = SequenceMatcher(None, old.data.splitlines(keepends=True),
                              new.data.splitlines(keepends=True), autojunk=True)
    return min(99, round(matcher.ratio() * 100))


def _range(start: int, stop: int) -> str:
    length = stop - start
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def _hunks(old: list[str], new: list[str]) -> Iterator[str]:
    junk = max(len(old), len(new)) > _AUTOJUNK_LINES
    matcher = SequenceMatcher(None, old, new, autojunk=junk)
    for group in matcher.get_grouped_opcodes(CONTEXT):
        i1, i2 = group[0][1], group[-1][2]
        j1, j2 = group[0][3], group[-1][4]
        yield f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                yield from (_line(" ", line) for line in old[a1:a2])
                continue
            yield from (_line("-", line) for line in old[a1:a2])
            yield from (_line("+", line) for line in new[b1:b2])


def _line(prefix: str, line: str) -> str:
    if line.endswith("\n"):
        return prefix + line
    return f"{prefix}{line}\n\\ No newline at end of file\n"


def _quote(name: str) -> str:
    """git's C-style quoting, for names with quotes, backslashes, control or non-ASCII."""
    if all(" " <= ch < "\x7f" and ch not in '"\\' for ch in name):
        return name
    out = []
    for ch in name:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif " " <= ch < "\x7f":
            out.append(ch)
        else:
            out.extend(f"\\{byte:03o}" for byte in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'
