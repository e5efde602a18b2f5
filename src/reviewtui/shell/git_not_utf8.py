"""Files git diffs as text that are not UTF-8 text, in a range's ``git log``: taken as
binary files, so the range can be reviewed at all.

Git calls a file text when it holds no NUL byte; a review reads UTF-8 alone, and one such
diff in a range (a Latin-1 source, a compressed test fixture with no NUL: ripgrep's
``tests/data/sherlock.br``) made the whole range unreadable ("not UTF-8 text ...
[encoding]"). :func:`binary_where_not_utf8` finds the paths whose diffs do not decode,
and runs ``git log`` again with an attributes file that calls them ``binary``: their
changes come as git's binary patches, replayed byte for byte and shown as binary files,
like any other binary file of the range. The attributes file is given as
``core.attributesFile`` for that one run, after the lines of the one git would read
otherwise (yours, which may call other files binary); the repository's own
``.gitattributes`` weigh more, so a path they give a diff (a driver: ``*.cs diff=csharp``)
keeps its text diffs, which are then written as git's binary patch of the blobs their
``index`` lines name (:func:`as_binary_patches`). A commit message that is not UTF-8, or a
path git quotes (a control character, a quote, a backslash), leaves the range refused,
the message naming it.

A file not UTF-8 before the range whose own diffs are UTF-8 (hunks away from its other
bytes) is marked too (:func:`not_utf8_before`): read as text, its edits were refused as
text edits of a binary file (helper-103, QA s35). A checkout that converts line endings
(``core.autocrlf``) writes a marked file otherwise than git stores it: its binary patches
carry what git's checkout writes (``shell/git_checkout.py``)
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from reviewtui.core.errors import GitError
from reviewtui.core.importers.gitbinary import write_literal
from reviewtui.shell.git import Repo

# The two file lines of a text diff (prefixes a/ and b/ as DIFF_ARGS sets them; git ends
# the line with a tab when the name holds a blank); a path git quotes (it holds a quote, a
# backslash or a control character) starts with '"' instead, and is not read here.
_FILE_LINE = re.compile(rb"^(?:---|\+\+\+) [ab]/(.+?)\t?$", re.MULTILINE)
# What a name read that way must not hold (git would have quoted it).
_SPECIAL = re.compile(r"[\x00-\x1f\x7f\\\"]")


def attributes_pattern(path: str) -> str:
    """An attributes-file pattern matching ``path`` (from the top of the repository) and
    nothing else: the wildcard characters escaped, the whole quoted C-style so that
    blanks, a leading ``#`` or ``!`` read as part of the name (git 2.x reads such
    patterns; an older one matches nothing, and the range is refused as before)."""
    globbed = "".join("\\" + c if c in "\\*?[" else c for c in "/" + path)
    return '"' + globbed.replace("\\", "\\\\").replace('"', '\\"') + '"'


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _named(raw: bytes) -> str | None:
    """A path as a file line names it, when an attributes file can name it too."""
    path = raw.decode("utf-8") if is_utf8(raw) else None
    return path if path is not None and not _SPECIAL.search(path) else None


def not_utf8_paths(log: bytes) -> list[str]:
    """The paths of the file diffs in ``log`` that are not UTF-8 and can be named in an
    attributes file, in order, each once. Text that is not UTF-8 elsewhere (a commit
    message, a path git quotes) is left for the reader to name."""
    paths: list[str] = []
    for piece in log.split(b"\ndiff --git ")[1:]:  # (before the first: a header, a message)
        # A piece runs to the next diff: its own file diff, then maybe the next commit's
        # header (whose message, if not UTF-8, marking cannot help).
        body = piece.partition(b"\nFrom ")[0]
        if is_utf8(body):
            continue
        for found in _FILE_LINE.finditer(body.split(b"\n@@", 1)[0]):
            path = _named(found.group(1))
            if path is not None and path not in paths:
                paths.append(path)
    return paths


# A text diff's index line (the blob before, the mode when unchanged) and the file line
# right after it: one scan of the whole log finds each file's blob before each change.
# (Matched where ``bytes.find`` finds "\nindex ": a MULTILINE scan cost 127 ms on 37 MB.)
_BEFORE = re.compile(rb"index ([0-9a-f]{40}(?:[0-9a-f]{24})?)\.\.[0-9a-f]+( [0-7]+)?\n"
                     rb"--- a/([^\n]+?)\t?\n")


def not_utf8_before(repo: Repo, log: bytes) -> list[str]:
    """The paths the range edits whose version before its first edit there is text to
    git (no NUL byte) but not UTF-8: a review reads such a file as binary, so a commit
    whose own hunks miss those bytes (a UTF-8 diff) would be a text edit of a binary file,
    refused (helper-103, QA s35: jq's ``manual.yml``, 20 edits of one range). Found from
    each file's first text diff in the log (its ``index`` line names the blob before; one
    ``cat-file`` reads them all). A submodule's or a link's change is not a file's text."""
    first: dict[bytes, bytes] = {}
    at = log.find(b"\nindex ")
    while at >= 0:
        found = _BEFORE.match(log, at + 1)
        at = log.find(b"\nindex ", at + 7)
        if (found is None or found.group(2) in (b" 160000", b" 120000")
                or found.group(1).strip(b"0") == b""):
            continue
        first.setdefault(found.group(3), found.group(1))
    named = {path: sha.decode() for raw, sha in first.items()
             if (path := _named(raw)) is not None}
    if not named:
        return []
    paths, shas = list(named), list(named.values())
    try:
        blobs = repo.blobs(shas, paths)
    except GitError:  # (a partial clone: the range is read as it is, and says what it lacks)
        return []
    return [path for path, blob in zip(paths, blobs, strict=True)
            if b"\0" not in blob and not is_utf8(blob)]


def binary_where_not_utf8(repo: Repo, log_args: Sequence[str], header: bytes, data: bytes,
                          scratch: Path, *, utf8: bool = False) -> bytes:
    """``data`` (``header`` then the output of ``git log_args``; ``utf8``: known to be
    UTF-8) when it is UTF-8 and edits no file that is not (:func:`not_utf8_before`);
    else the same log made again with those files and the ones whose diffs are not UTF-8
    called binary. When that is not UTF-8 either, what is left is what marking cannot
    help, and the reader names it (the first log would name a file the marking fixes)."""
    log = data[len(header):]
    # (``utf8``: the caller read it as UTF-8 already; a scan costs ~0.1 s on 37 MB.)
    paths = list(dict.fromkeys([*([] if utf8 or is_utf8(log) else not_utf8_paths(log)),
                                *not_utf8_before(repo, log)]))
    if not paths:
        return data
    attributes = scratch / "not-utf8.attributes"
    # The attributes file git would read otherwise (the user's own, say calling some other
    # file binary) comes first; these lines, later, weigh more.
    attributes.write_bytes(global_attributes(repo) + "".join(
        f"{attributes_pattern(path)} binary\n" for path in paths).encode("utf-8"))
    marked = repo.git("-c", f"core.attributesFile={attributes}", *log_args)
    return header + as_binary_patches(repo, marked, set(paths))


# Where a file's diff ends: the next file's diff, or the next commit (LOG_FORMAT's line).
_SECTION_END = re.compile(rb"\n(?=diff --git |From [0-9a-f]{40} )")
_SECTION = re.compile(rb"^diff --git ", re.MULTILINE)
_INDEX = re.compile(rb"^index ([0-9a-f]{40})\.\.([0-9a-f]{40})(?: [0-7]+)?$", re.MULTILINE)


def as_binary_patches(repo: Repo, log: bytes, paths: set[str]) -> bytes:
    """``log`` with each text diff of one of ``paths`` that the marking left text (the
    repository's own ``.gitattributes`` name a diff driver for it, ``*.cs diff=csharp``,
    and weigh more) given as git's binary patch of the two blobs its ``index`` line names,
    as ``git log --binary`` writes one: its edits were refused as text edits of a binary
    file (Newtonsoft.Json's Latin-1 ``AssemblyInfo.cs``), or the whole range as not UTF-8
    (QA s40). A diff whose blobs cannot be read stays as it is."""
    found: list[tuple[int, int, bytes, bytes]] = []  # (hunks start, section end, old, new)
    for match in _SECTION.finditer(log):  # (a message's lines are indented, a hunk's marked)
        start = match.start()
        after = _SECTION_END.search(log, start + 1)
        end = after.end() if after is not None else len(log)
        hunks, first = log.find(b"\n--- ", start, end), log.find(b"\n@@", start, end)
        if hunks < 0 or first < 0:
            continue  # (a binary patch, a mode change, a rename alone)
        index = _INDEX.search(log, start, hunks)
        if index is not None and any(_named(name.group(1)) in paths for name in
                                     _FILE_LINE.finditer(log, hunks, first)):
            found.append((hunks + 1, end, index.group(1), index.group(2)))
    if not found:
        return log
    ids = sorted({blob.decode() for _a, _b, old, new in found for blob in (old, new)
                  if blob.strip(b"0")})
    try:
        blobs = dict(zip(ids, repo.blobs(ids), strict=True))
    except GitError:
        return log
    out, at = [], 0
    for hunks, end, old, new in found:
        was, now = blobs.get(old.decode(), b""), blobs.get(new.decode(), b"")
        out += [log[at:hunks], b"GIT binary patch\n", "".join(
            line + "\n" for line in (*write_literal(now), *write_literal(was))).encode()]
        at = end
    out.append(log[at:])
    return b"".join(out)


_GLOBAL_LIMIT = 1 << 20  # bytes of a global attributes file taken along (more: none)


def global_attributes(repo: Repo) -> bytes:
    """The attributes file git reads for this repository besides its own (core.attributesFile,
    else ``$XDG_CONFIG_HOME/git/attributes`` or ``~/.config/git/attributes``), ending with
    a newline; nothing when there is none, or it is not a regular file of at most 1 MiB
    (the repository's config may name a FIFO: never opened)."""
    named = repo.git("config", "--get", "core.attributesFile", ok=(0, 1)).decode(
        "utf-8", "replace").strip()
    if named:
        where = Path(os.path.expanduser(named))
        if not where.is_absolute():
            where = repo.top / where
    else:
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
        where = Path(xdg) / "git" / "attributes"
    try:
        found = os.stat(where)
        if not stat.S_ISREG(found.st_mode) or found.st_size > _GLOBAL_LIMIT:
            return b""
        data = where.read_bytes()[:_GLOBAL_LIMIT]
    except OSError:
        return b""
    return data if not data or data.endswith(b"\n") else data + b"\n"
