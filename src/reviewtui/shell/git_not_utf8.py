"""Files git diffs as text that are not UTF-8 text, in a range's ``git log``: taken as
binary files, so the range can be reviewed at all.

Git calls a file text when it holds no NUL byte; a review reads UTF-8 alone, and one such
diff in a range (a Latin-1 source, a compressed test fixture with no NUL: ripgrep's
``tests/data/sherlock.br``) made the whole range unreadable ("not UTF-8 text ...
[encoding]"). :func:`binary_where_not_utf8` finds the paths whose diffs do not decode,
and runs ``git log`` again with an attributes file that calls them ``binary``: their
changes come as git's binary patches, replayed byte for byte and shown as binary files,
like any other binary file of the range. The attributes file is given as
``core.attributesFile`` for that one run (it takes the place of a global one you may have:
nothing of it decides what a diff holds, text conversion and external diffs being off);
the repository's own ``.gitattributes`` weigh more, so a path they call text stays text,
and the range is then refused as before, with the same message. So does a commit message
that is not UTF-8, or a path git quotes (a control character, a quote, a backslash).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

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


def not_utf8_paths(log: bytes) -> list[str] | None:
    """The paths of the file diffs in ``log`` that are not UTF-8, in order, each once;
    None when some text that is not UTF-8 is not a diff of a plainly named file (a
    commit message, a quoted path): marking paths binary would not make it readable."""
    paths: list[str] = []
    pieces = log.split(b"\ndiff --git ")
    for n, piece in enumerate(pieces):
        try:
            piece.decode("utf-8")
            continue
        except UnicodeDecodeError:
            pass
        if n == 0:
            return None  # before the first diff: the header and a commit message
        # A piece runs to the next diff: its own file diff, then maybe the next commit's
        # header. The header must decode for marking to help.
        body, _, after = piece.partition(b"\nFrom ")
        try:
            after.decode("utf-8")
        except UnicodeDecodeError:
            return None
        named = [m.group(1) for m in _FILE_LINE.finditer(body.split(b"\n@@", 1)[0])]
        if not named:
            return None
        for raw in named:
            try:
                path = raw.decode("utf-8")
            except UnicodeDecodeError:
                return None
            if _SPECIAL.search(path):
                return None
            if path not in paths:
                paths.append(path)
    return paths


def binary_where_not_utf8(repo: Repo, log_args: Sequence[str], header: bytes, data: bytes,
                          scratch: Path) -> bytes:
    """``data`` (``header`` then the output of ``git log_args``) when it is UTF-8; else
    the same log made again with the files whose diffs are not UTF-8 called binary, when
    that reads; else ``data`` as it was (the reader then names what is not UTF-8)."""
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        pass
    paths = not_utf8_paths(data[len(header):])
    if not paths:
        return data
    attributes = scratch / "not-utf8.attributes"
    attributes.write_text("".join(f"{attributes_pattern(path)} binary\n" for path in paths),
                          encoding="utf-8")
    again = header + repo.git("-c", f"core.attributesFile={attributes}", *log_args)
    try:
        again.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return again
