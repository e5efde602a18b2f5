"""Helpers for the state and decision threats: sessions as Markdown, forged state files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reviewtui.shell.state import STATE_FORMAT, STATE_VERSION, blob_dir_for
from reviewtui.shell.stateseal import sealed

Edit = tuple[str, str, str]  # (path, search, replace); text without its last newline


def write_markdown_session(path: Path, turns: Sequence[Sequence[Edit]]) -> Path:
    """A File Ops Protocol session with one search/replace block per edit."""
    parts = ["# Session: hostile\n"]
    for number, edits in enumerate(turns, start=1):
        parts.append(f"\n## Turn {number}\n> request {number}\n")
        for file, search, replace in edits:
            parts.append(f"\n--- File: {file} ---\n<<<<<<< SEARCH\n{search}\n=======\n"
                         f"{replace}\n>>>>>>> REPLACE\n")
        names = sorted({file for file, _, _ in edits}) or ["x"]
        parts.append("\n### Changed files:\n" + "".join(f"- {n}\n" for n in names))
    path.write_text("".join(parts))
    return path


def put_blob(state_path: Path, data: bytes) -> str:
    sha = hashlib.sha256(data).hexdigest()
    blobs = blob_dir_for(state_path)
    blobs.mkdir(parents=True, exist_ok=True)
    (blobs / sha).write_bytes(data)
    return sha


def forge_state(state_path: Path, *, log: list[Any] | None = None,
                paths: dict[str, Any] | None = None, seal: bool = True,
                **extra: Any) -> Path:
    """A forged state file naming the arena's project as its root and, unless ``seal`` is
    False, sealed with this machine's key: the worst case, a state every check before
    the records passes (the reviewer's own, damaged or edited; a key stolen), so that
    its decisions are taken in and what its records claim is what a test tries. A state
    without this machine's seal decides nothing on any root, and one naming another root
    or none nothing either: tests/hostile/test_hostile_state_foreign.py. ``root=...`` in
    ``extra`` names another."""
    project = state_path.parent.parent / "project"
    doc: dict[str, Any] = {"format": STATE_FORMAT, "version": STATE_VERSION,
                           "session": {"file": "s.md", "sha256": ""},
                           "root": str(project.resolve()) if project.is_dir() else None,
                           "log": log or [], "orphaned": [], "ui": {}, "paths": paths or {}}
    doc.update(extra)
    data = (json.dumps(doc, indent=1) + "\n").encode()
    state_path.write_bytes(sealed(data) if seal else data)
    return state_path


def accept_entry(turn: int, pos: int, path: str, op_hash: str,
                 verdict: str = "accepted") -> dict[str, Any]:
    return {"kind": "decide", "items": [{"turn": turn, "pos": pos, "path": path, "edit": None,
                                         "op": op_hash, "verdict": verdict,
                                         "replacement": None, "force": False}]}
