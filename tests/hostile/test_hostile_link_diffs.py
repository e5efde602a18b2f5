"""Diffs that make symbolic links: a link may be made, never one that leads out of the root.

Each attack is a unified diff applied with ``reviewtui apply --yes``; the arena checks
that nothing outside the root changed. A link refused is never written, not even as a
regular file holding its target; a path through a link made earlier is refused too, and
the disk layer never writes through a link made between check and write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from disk_threat_kit import Arena

from reviewtui.cli import main
from reviewtui.core.errors import DiskChanged, DiskError
from reviewtui.shell.disk import Link, write_link


def link_section(path: str, target: str) -> str:
    return (f"diff --git a/{path} b/{path}\nnew file mode 120000\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n")


def new_file_section(path: str, text: str) -> str:
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1 @@\n+{text}\n")


def apply(arena: Arena, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    patch = arena.work / "change.diff"
    patch.write_text(text)
    capsys.readouterr()
    code = main(["apply", str(patch), "--format", "unified", "--yes",
                 "--root", str(arena.root)])
    return code, capsys.readouterr().out


def check_rules(arena: Arena, text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    patch = arena.work / "change.diff"
    patch.write_text(text)
    capsys.readouterr()
    main(["check", str(patch), "--format", "unified", "--json", "--root", str(arena.root)])
    report = json.loads(capsys.readouterr().out)
    return [(op.get("rule") or "") for turn in report["turns"] for op in turn["ops"]]


def entries(root: Path) -> dict[str, str]:
    """Every name under ``root``: a link as its target, a file as its bytes."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            full = Path(folder, name)
            rel = full.relative_to(root).as_posix()
            if full.is_symlink():
                out[rel] = "-> " + os.readlink(full)
            elif full.is_file():
                out[rel] = full.read_text()
    return out


@pytest.mark.parametrize("target", [
    "../outside_dir",  # one folder up from the root
    "../../../../../../../../etc",  # far up
    "sub/../../canary.txt",  # down, then out
])
def test_a_link_to_a_relative_path_outside_is_refused(
        arena: Arena, capsys: pytest.CaptureFixture[str], target: str) -> None:
    (arena.root / "sub").mkdir()
    text = link_section("escape", target) + new_file_section("escape/target.txt", "pwned")
    assert check_rules(arena, text, capsys)[0] == "symlink-escape"
    code, out = apply(arena, text, capsys)
    assert code != 0
    assert "symlink-escape" in out or "outside the project root" in out
    assert "escape" not in entries(arena.root)


def test_a_link_to_an_absolute_path_is_refused(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    text = link_section("abs", str(arena.canary_dir))
    assert check_rules(arena, text, capsys) == ["symlink-escape"]
    code, _ = apply(arena, text, capsys)
    assert code != 0
    assert entries(arena.root) == {}


def test_a_chain_of_links_that_escapes_is_refused(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    # The project already has a link out and a link to that one; new links to either are
    # inside to a lexical reading, outside once the links are followed.
    (arena.root / "out").symlink_to(arena.canary_dir)
    (arena.root / "mid").symlink_to("out")
    text = link_section("hop", "mid") + link_section("docs/hop2", "../out/target.txt")
    assert check_rules(arena, text, capsys) == ["symlink-escape", "symlink-escape"]
    code, _ = apply(arena, text, capsys)
    assert code != 0
    assert entries(arena.root) == {"out": "-> " + str(arena.canary_dir), "mid": "-> out"}


def test_a_chain_made_in_one_diff_that_escapes_is_refused(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    # "d/up" points at the root (inside). "b" -> "d/up/.." is "d" to a lexical reading,
    # but the kernel follows d/up first: the root's parent, outside.
    (arena.root / "d").mkdir()
    (arena.root / "d" / "keep.txt").write_text("keep\n")
    text = link_section("d/up", "..") + link_section("b", "d/up/..")
    assert check_rules(arena, text, capsys) == ["", "symlink-escape"]
    code, _ = apply(arena, text, capsys)
    assert code == 1
    assert entries(arena.root) == {"d/keep.txt": "keep\n", "d/up": "-> .."}


def test_a_later_edit_through_a_new_link_is_refused(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "src").mkdir()
    (arena.root / "src" / "a.py").write_text("x = 1\n")
    text = (link_section("lib", "src") + new_file_section("lib/b.py", "pwned")
            + "diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n"
              "@@ -1 +1 @@\n-x = 1\n+x = 2\n")
    assert check_rules(arena, text, capsys) == ["", "symlink", "symlink"]
    code, _ = apply(arena, text, capsys)
    assert code == 1
    assert entries(arena.root) == {"src/a.py": "x = 1\n", "lib": "-> src"}


def test_the_disk_never_replaces_what_it_did_not_expect(arena: Arena) -> None:
    # A file appeared where a link is to be made: compare-and-swap, nothing replaced.
    (arena.root / "l").write_text("mine\n")
    with pytest.raises(DiskChanged):
        write_link(arena.root, "l", "x", expected=None)
    assert (arena.root / "l").read_text() == "mine\n"
    # A link where a file was expected, and a file where a link was: both refused.
    (arena.root / "m").symlink_to("l")
    with pytest.raises(DiskChanged):
        write_link(arena.root, "m", "x", expected=b"l")
    with pytest.raises(DiskChanged):
        write_link(arena.root, "l", "x", expected=Link(b"mine\n"))
    assert os.readlink(arena.root / "m") == "l"
    assert write_link(arena.root, "m", "x", expected=Link(b"l"))
    assert os.readlink(arena.root / "m") == "x"


def test_a_link_is_never_made_through_a_folder_link(arena: Arena) -> None:
    (arena.root / "away").symlink_to(arena.canary_dir)
    with pytest.raises(DiskError) as err:
        write_link(arena.root, "away/new", "target.txt", expected=None)
    assert err.value.rule == "symlink"
    assert sorted(os.listdir(arena.canary_dir)) == ["target.txt"]
