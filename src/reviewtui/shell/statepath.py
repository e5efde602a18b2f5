"""Where a review's state is kept when the caller does not say.

Beside the session (``<session file>.review.json``) as a rule. A single transcript file
(Claude Code, chat or tool-call JSON: usually in a download folder or a tool's own
directory; an Aider history, usually in the project root it edits) and a session whose
folder is not writable keep it under
``$XDG_STATE_HOME/reviewtui/`` (default ``~/.local/state/reviewtui/``), in a file named
after the session and keyed by a hash of its absolute path. A state file already beside a
transcript (saved before it moved) is still used there, so no decision is left behind.
"""

from __future__ import annotations

import os
from pathlib import Path

from reviewtui.core.digests import sha256
from reviewtui.shell.loader import LoadedSession
from reviewtui.shell.statemark import mark_path
from reviewtui.shell.userkey import state_home

TRANSCRIPTS = frozenset({"claude", "chat", "toolcalls", "aider"})


def default_state_path(session_file: Path) -> Path:
    """Beside the session: ``<session file>.review.json``."""
    return session_file.with_name(session_file.name + ".review.json")


def blob_dir_for(state_path: Path) -> Path:
    """The state's blob folder: ``<state without .json>.blobs`` (``s.md.review.blobs``)."""
    name = state_path.name.removesuffix(".json")
    return state_path.with_name(name + ".blobs")


def review_files(root: Path, session_file: Path, state_path: Path | None) -> dict[str, str]:
    """The review's own files that lie inside ``root``, root-relative, with what each is
    (``Rules.own``): the session file, its review state (``state_path``, and the default
    one beside the session, which a later review of it reads), the state's ``.written``
    mark and blob folder. A session that wrote them would overwrite the reviewer's
    decisions with its own text (QA s47 helper-147 M1: the workbench then rewrote the two
    in turn, for as long as it was open)."""
    home = os.path.realpath(root)
    files: list[tuple[Path, str]] = [(session_file, "the session file")]
    states = [default_state_path(session_file)]
    if state_path is not None:
        states.append(state_path)
    for state in states:
        files += [(state, "the review state"),
                  (mark_path(state), "the review state's .written mark"),
                  (blob_dir_for(state), "the review state's blob folder")]
    own: dict[str, str] = {}
    for path, what in files:
        # (the folder resolved, not the name: a state that is a link is refused elsewhere)
        full = os.path.join(os.path.realpath(path.parent), path.name)
        if os.path.commonpath([home, full]) == home and full != home:
            own.setdefault(Path(os.path.relpath(full, home)).as_posix(), what)
    return own


def state_path_for(loaded: LoadedSession) -> tuple[Path, str]:
    """(the state file, a note saying where it is when that is not beside the session)."""
    beside = default_state_path(loaded.file)
    transcript = loaded.directory is None and loaded.session.format in TRANSCRIPTS
    writable = os.access(loaded.file.parent, os.W_OK)
    if writable and (not transcript or beside.is_file()):
        return beside, ""  # (a review already saved beside a transcript stays there)
    resolved = str(loaded.file.resolve())
    key = sha256(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    path = state_home() / f"{loaded.file.name}-{key}.review.json"
    why = "a single transcript file" if transcript else "its folder is not writable"
    return path, f"review state kept in {path} ({why}; --state chooses another place)"
