"""The review's own files, which an agent's change may never name.

With ``reviewtui mcp --session`` inside the project, the live session, its review state
(``<session>.review.json``) and that state's blob folder are files of the tree like any
other. An agent that rewrote or removed them would rewrite the record of what it did, or
the reviewer's decisions. Pure: the shell says where those files are, relative to the root.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from reviewtui.core.errors import PathRefused
from reviewtui.core.paths.safety import normalize_path

# The fields of a tool call that name a path (``toolcalls`` format).
PATH_FIELDS = ("path", "file_path", "from", "to")


def own_file_named(raw_paths: Iterable[str], session: str, own: Iterable[str]) -> str | None:
    """The first of ``raw_paths`` that names one of the review's own files, else None.

    ``session`` is the live session's path relative to the root; ``own`` are the review's
    files there (the session, the state, the blob folder). A path names them when it is
    one of them, lies inside one (a blob), is a folder holding one (a move or removal of
    it would take them along), or is a sibling whose name starts with the session's name
    and a dot (the state's temporary and moved-aside copies). Paths are literal in a tool
    call (no globs). A path normalize_path refuses is left to the engine, which refuses it.
    """
    own = tuple(own)
    above = {folder for path in own for folder in _folders_above(path)}
    folder, name = posixpath.split(session)
    for raw in raw_paths:
        try:
            rel = normalize_path(raw)
        except PathRefused:
            continue
        if (rel in own or rel in above or any(rel.startswith(path + "/") for path in own)
                or (posixpath.dirname(rel) == folder
                    and posixpath.basename(rel).startswith(name + "."))):
            return raw
    return None


def _folders_above(path: str) -> Iterable[str]:
    path = posixpath.dirname(path)
    while path:
        yield path
        path = posixpath.dirname(path)


def refusal(raw: str) -> str:
    """What the agent is told instead of recording the call."""
    return (f"path {raw!r} is refused: it is this review's own file (the live session, its "
            "review state or their folder); nothing was recorded or written, change only "
            "the project's files")
