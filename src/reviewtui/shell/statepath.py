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

TRANSCRIPTS = frozenset({"claude", "chat", "toolcalls", "aider"})


def default_state_path(session_file: Path) -> Path:
    """Beside the session: ``<session file>.review.json``."""
    return session_file.with_name(session_file.name + ".review.json")


def state_home() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "reviewtui"


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
