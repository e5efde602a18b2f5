"""The raw view reads the session file again (loader.read_text with the loaded session's
sha256): the lines of the file as it was loaded, and a refusal once the file on disk is
another one."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.core.digests import sha256
from reviewtui.core.errors import SessionFormatError
from reviewtui.shell.loader import read_text


def test_the_loaded_file_gives_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "session.md"
    data = "\ufeff## Turn 1\r\n> go\u2028on\n\n--- File: a.py ---\n".encode()
    path.write_bytes(data)
    assert read_text(path, sha=sha256(data).hexdigest()).splitlines() == [
        "## Turn 1", "> go", "on", "", "--- File: a.py ---"]


def test_a_session_changed_on_disk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "session.md"
    path.write_text("## Turn 1\n> go\n")
    loaded_sha = sha256(path.read_bytes()).hexdigest()
    path.write_text("## Turn 1\n> something else\n")
    with pytest.raises(SessionFormatError) as caught:
        read_text(path, sha=loaded_sha)
    assert caught.value.rule == "session-changed"
    assert str(path) in str(caught.value)
    path.unlink()
    with pytest.raises(SessionFormatError) as gone:
        read_text(path, sha=loaded_sha)
    assert gone.value.rule == "unreadable"
