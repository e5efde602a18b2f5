"""Threat: a project carrying a file named as reviewtui names the temp file of an atomic
write, which the next review removed as the leftover of an interrupted write (QA s53
helper-221: ``sub/.important.txt.<nonce><tag>.reviewtui-tmp``, in a folder no operation
touched, deleted by ``apply`` with no message). The tag was a hash of the name and the
nonce alone, which anyone can compute; it is keyed now with a key of this user's
(``$XDG_STATE_HOME/reviewtui/state-key``, which seals review states too): only this
user's reviewtui makes such a name, and only such names are removed."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from diskkit import Full, make_project, tree_bytes, write_session
from reviewtui.cli import main
from reviewtui.shell import disk, userkey


def _unkeyed(name: str, nonce: str = "0123456789abcdef") -> str:
    """A temp name as any project can spell it: the tag without the key."""
    tag = hashlib.sha256(f"reviewtui-tmp\0{name}\0{nonce}".encode()).hexdigest()[:8]
    return f".{name}.{nonce}{tag}{disk.TEMP_SUFFIX}"


def test_a_temp_name_a_project_brings_is_its_file_and_stays(tmp_path: Path) -> None:
    crafted = f"sub/{_unkeyed('important.txt')}"
    leftover = f"pkg/{disk.temp_name('left.py')}"  # (one of ours: an interrupted write)
    root = tmp_path / "root"
    make_project(root, {"a.txt": "a\n", crafted: "precious\n", leftover: "half\n",
                        "pkg/left.py": "x\n"})
    session = write_session(tmp_path / "work", [[Full("a.txt", "b\n")]])
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert tree_bytes(root) == {"a.txt": b"b\n", crafted: b"precious\n",
                                "pkg/left.py": b"x\n"}
    assert not disk.is_temp_name(crafted.rsplit("/", 1)[-1])


def test_the_key_is_this_users_made_once_and_kept_private() -> None:
    key_file = userkey.state_home() / "state-key"
    assert disk._temp_key() == key_file.read_bytes()
    assert len(disk._temp_key() or b"") == 32
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    name = disk.temp_name("notes.txt")
    assert disk.is_temp_name(name)
    nonce, tag = name[len(".notes.txt."):][:16], name[len(".notes.txt."):][16:24]
    assert _unkeyed("notes.txt", nonce) != f".notes.txt.{nonce}{tag}{disk.TEMP_SUFFIX}"


def test_a_key_left_short_is_made_again_and_a_check_makes_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA s53 helper-225: a key file left empty (a run killed while making it) was never
    made again, every later run keeping a key of its own (no leftover ever cleaned); and
    a ``check`` that writes nothing made the state folder and the key."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(disk, "_TEMP_KEY", [])
    assert not disk.is_temp_name(_unkeyed("a.txt"))
    assert not (tmp_path / "state").exists()  # (asked, not made)
    key_file = tmp_path / "state" / "reviewtui" / "state-key"
    key_file.parent.mkdir(parents=True)
    key_file.write_bytes(b"")
    name = disk.temp_name("a.txt")
    assert len(key_file.read_bytes()) == 32
    monkeypatch.setattr(disk, "_TEMP_KEY", [])  # (the next run reads it)
    assert disk.is_temp_name(name)
    assert sorted(p.name for p in key_file.parent.iterdir()) == ["state-key"]
