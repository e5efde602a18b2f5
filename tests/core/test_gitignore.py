"""The gitignore subset the watcher understands, checked against git's documented rules."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reviewtui.core.paths.gitignore import GitIgnore

RULES = """\
# comment
\\#literal-hash

*.log
!keep.log
build/
/anchored.txt
docs/*.md
**/cache
logs/**
a/**/z.txt
trailing.txt   \n\
escaped\\ \n\
*.py[co]
"""


@pytest.mark.parametrize(("path", "is_dir", "ignored"), [
    ("debug.log", False, True),
    ("deep/in/debug.log", False, True),
    ("keep.log", False, False),
    ("deep/keep.log", False, False),
    ("build", True, True),
    ("build", False, False),  # "build/" matches directories only
    ("build/out.o", False, True),  # inside an ignored directory
    ("src/build/out.o", False, True),  # unanchored: any level
    ("anchored.txt", False, True),
    ("sub/anchored.txt", False, False),
    ("docs/a.md", False, True),
    ("docs/sub/a.md", False, False),  # "*" does not cross "/"
    ("other/docs/a.md", False, False),  # an inner "/" anchors the pattern
    ("cache", True, True),
    ("x/y/cache", True, True),
    ("logs/a/b.txt", False, True),
    ("logs", True, False),  # "logs/**" is what is inside, not the folder itself
    ("a/z.txt", False, True),
    ("a/b/c/z.txt", False, True),
    ("#literal-hash", False, True),
    ("comment", False, False),
    ("trailing.txt", False, True),
    ("escaped ", False, True),
    ("m.pyc", False, True),
    ("m.pyx", False, False),
    ("src/main.py", False, False),
])
def test_patterns(path: str, is_dir: bool, ignored: bool) -> None:
    assert GitIgnore.from_text(RULES).ignored(path, is_dir=is_dir) is ignored


def test_a_file_in_an_ignored_folder_cannot_be_re_included() -> None:
    rules = GitIgnore.from_text("out/\n!out/keep.txt\n")
    assert rules.ignored("out/keep.txt")
    rules = GitIgnore.from_text("out/*\n!out/keep.txt\n")  # the folder itself is not ignored
    assert not rules.ignored("out/keep.txt")
    assert rules.ignored("out/other.txt")


def test_empty_rules_ignore_nothing() -> None:
    assert not GitIgnore.from_text("\n# only comments\n")
    assert not GitIgnore.from_text("").ignored("anything")


def test_the_disk_side_core_modules_import_no_ui_and_no_watcher() -> None:
    import subprocess
    import sys

    code = ("import sys, reviewtui.core.paths.gitignore, reviewtui.core.review.rebase; "
            "print(sorted(m for m in ('textual', 'rich', 'watchfiles') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# Characters str.splitlines ends a line at and git does not: git ends a .gitignore line at
# "\n" alone (dropping one "\r" before it), so each is part of its pattern.
_NOT_LINE_ENDS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"]


@pytest.mark.parametrize("sep", _NOT_LINE_ENDS, ids=[f"U+{ord(c):04X}" for c in _NOT_LINE_ENDS])
def test_a_line_ends_where_git_ends_it(sep: str) -> None:
    rules = GitIgnore.from_text(f"keep{sep}me\nbuild\r\n")
    assert not rules.ignored("keep")  # not a rule of its own
    assert not rules.ignored("me")
    assert rules.ignored(f"keep{sep}me")
    assert rules.ignored("build")  # CRLF: the "\r" is the line end's


@pytest.mark.parametrize("sep", _NOT_LINE_ENDS, ids=[f"U+{ord(c):04X}" for c in _NOT_LINE_ENDS])
def test_the_same_lines_as_git_check_ignore(sep: str, tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed: the comparison with git check-ignore cannot run")
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)
    text = f"keep{sep}me\nbuild\r\n"
    (tmp_path / ".gitignore").write_bytes(text.encode())
    rules = GitIgnore.from_text(text)
    for path in ("keep", "me", f"keep{sep}me", "build", "other"):
        done = subprocess.run([git, "-c", "core.quotePath=false", "check-ignore", "-q",
                               "--no-index", "--", path], cwd=tmp_path, check=False)
        assert done.returncode in (0, 1), done
        assert rules.ignored(path) is (done.returncode == 0), (path, text)
