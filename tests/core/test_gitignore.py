"""The gitignore subset the watcher understands, checked against git's documented rules."""

from __future__ import annotations

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
