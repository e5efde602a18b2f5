"""Symbolic links in the root, seen by an agent (QA pass 74, repro 4): `ls` listed a link as
a binary file as long as its target's name and `read` said it did not exist. A link is
listed as a link, with its target when that stays inside the root, and `read` says where
it leads; nothing is ever read through a link, least of all one leading out of the root."""

from __future__ import annotations

import os
from pathlib import Path

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import LiveSession


def linked_project(tmp_path: Path) -> AgentTools:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "app.py").write_text("A = 1\n")
    (root / "src" / "m.py").write_text("M = 1\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    os.symlink(outside / "secret.txt", root / "out.txt")  # absolute, out of the root
    os.symlink("app.py", root / "inner.py")
    os.symlink(root / "app.py", root / "absolute.py")  # absolute, inside
    os.symlink("src", root / "lsrc")  # a folder
    os.symlink("../../outside/secret.txt", root / "src" / "up.txt")  # relative, out
    os.symlink("..", root / "parent")
    os.symlink("parent/outside/secret.txt", root / "chain.txt")  # through a link, out
    return AgentTools(LiveSession(root, tmp_path / "s.jsonl", wait=0))


def test_ls_lists_a_link_as_a_link_never_followed_out_of_the_root(tmp_path: Path) -> None:
    rows = linked_project(tmp_path).ls().splitlines()
    assert [row for row in rows if "symlink" in row] == [
        "absolute.py  -> app.py  [symlink]",
        "chain.txt  -> outside the root  [symlink]",
        "inner.py  -> app.py  [symlink]",
        "lsrc  -> src  [symlink]",
        "out.txt  -> outside the root  [symlink]",
        "parent  -> outside the root  [symlink]",
        "src/up.txt  -> outside the root  [symlink]",
    ]
    assert not any("binary" in row for row in rows), rows


def test_read_says_where_a_link_leads_and_reads_nothing_through_it(tmp_path: Path) -> None:
    tools = linked_project(tmp_path)
    answers = {path: tools.read(path) for path in (
        "inner.py", "absolute.py", "lsrc/m.py", "out.txt", "src/up.txt",
        "parent/outside/secret.txt", "chain.txt", "missing.py")}
    assert answers == {
        "inner.py": "error: inner.py is a symbolic link to app.py; read app.py",
        "absolute.py": "error: absolute.py is a symbolic link to app.py; read app.py",
        "lsrc/m.py": "error: lsrc is a symbolic link to src; read src/m.py",
        "out.txt": "error: out.txt is a symbolic link that leads out of the project root; "
                   "it is not read",
        "src/up.txt": "error: src/up.txt is a symbolic link that leads out of the project "
                      "root; it is not read",
        "parent/outside/secret.txt": "error: parent is a symbolic link that leads out of the "
                                     "project root; it is not read",
        # Its target's name stays inside; reading there meets the next link, and stops.
        "chain.txt": "error: chain.txt is a symbolic link to parent/outside/secret.txt; "
                     "read parent/outside/secret.txt",
        "missing.py": "error: missing.py does not exist (ls lists the files)",
    }
    assert not any("secret\n" in answer for answer in answers.values())
