"""Where a live review's files are: the session the agent's calls are appended to (by
default under ``$XDG_STATE_HOME``, outside the project) and its review state beside it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from reviewtui.core.errors import UsageError


def default_session_path(root: Path) -> Path:
    """``$XDG_STATE_HOME/reviewtui/live/<hash of the root>.jsonl``: outside the project."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    full = str(root.resolve()).encode("utf-8", "surrogateescape")
    short = root.resolve().name.encode("utf-8", "surrogateescape")[:100]  # (< 255: F14)
    return Path(base, "reviewtui", "live", f"{short.decode('utf-8', 'ignore')}-"
                f"{hashlib.sha256(full).hexdigest()[:12]}.jsonl")


def live_state_path(session: Path) -> Path:
    return session.with_name(session.name + ".review.json")


def prepare_live_session(session: Path, root: Path | None) -> Path:
    """For ``open --live``: the session file exists (empty until the agent's first call)."""
    if root is None:
        raise UsageError("--live needs --root: the project the agent works on",
                         rule="live-root")
    # Checked before anything is made (QA s46 helper-141 F11: a refused root left the
    # session file and its folders; a FIFO hung the workbench on a blank screen).
    if not root.is_dir():
        raise UsageError("the project root is not a directory", source=str(root), rule="root")
    if session.is_symlink() or (session.exists() and not session.is_file()):
        raise UsageError("the live session must be a regular file or not exist yet",
                         source=str(session), rule="live-session")
    if not session.exists():
        try:
            session.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(session, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600))
        except OSError as exc:
            raise UsageError(f"cannot create the live session: {exc.strerror}",
                             source=str(session), rule="live-session") from None
    return live_state_path(session)
