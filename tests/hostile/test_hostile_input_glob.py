"""Threat: a glob written to make the matcher backtrack (``:rm *a*a*a*a*a*a*a*a*a*b``).

Before: globs were regular expressions (``*`` -> ``[^/]*``), and ``*a`` repeated against a long
name of ``a``s backtracked exponentially: ``check`` hung. Now ``core.paths.glob_match`` walks
the components itself, linear in practice, with the same meaning (checked here against the
old translation on small inputs, where backtracking does not matter).
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from inputkit import cli_subprocess

from reviewtui.core.paths.safety import expand_glob, glob_match


def test_a_backtracking_glob_ends(arena) -> None:
    (arena.root / ("a" * 200)).write_text("x\n")
    (arena.root / "keep.txt").write_text("k\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n\n```console\n:rm " + "*a" * 30 + "*b\n```\n")
    run = cli_subprocess("check", session, "--root", arena.root, timeout=60)
    assert run.code == 1, run.err  # nothing matches: the command fails, as a finding
    assert "Traceback" not in run.err


def test_many_double_stars_stay_cheap() -> None:
    pattern = "/".join(["**", "a"] * 40) + "/b"
    assert not expand_glob(pattern, ["/".join(["a"] * 200)] * 50)


def _reference(pattern: str) -> re.Pattern[str]:
    """The former regular-expression translation, kept as the meaning to preserve."""
    parts = pattern.split("/")
    parts = [p for i, p in enumerate(parts) if not (p == "**" and i and parts[i - 1] == "**")]
    pieces: list[str] = []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            pieces.append(".+" if last else "(?:[^/]+/)*")
            continue
        out: list[str] = []
        for ch in part:
            if ch == "*":
                if not out or out[-1] != "[^/]*":
                    out.append("[^/]*")
            elif ch == "?":
                out.append("[^/]")
            else:
                out.append(re.escape(ch))
        pieces.append("".join(out) + ("" if last else "/"))
    return re.compile("".join(pieces), re.DOTALL)


_PIECES = st.sampled_from(["a", "b", "*", "?", "**", "/", ".", "ab", "[", "é", ""])


@settings(max_examples=400, deadline=None)
@given(pattern=st.lists(_PIECES, max_size=8).map("".join),
       path=st.lists(st.sampled_from(["a", "b", "/", ".", "ab", "é", "["]), max_size=8)
       .map("".join))
def test_the_meaning_is_the_former_one(pattern: str, path: str) -> None:
    assert glob_match(pattern, path) == (_reference(pattern).fullmatch(path) is not None)


# -- the footer lint's globs and .gitignore rules: the same threat, the same cure ------------


def test_a_backtracking_footer_ends(arena) -> None:
    session = arena.work / "s.md"
    name = "a" * 60
    session.write_text(f"## Turn 1\n> r\n\n--- File: {name} ---\nx\n\n### Changed files:\n- "
                       + "*a" * 30 + "*b\n")
    run = cli_subprocess("check", session, "--root", arena.root, timeout=60)
    assert (run.code, run.err) == (0, "")  # the footer does not list the file: a warning
    assert "footer-mismatch" in run.out


def test_a_backtracking_gitignore_rule_ends() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from reviewtui.core.paths.gitignore import GitIgnore; "
         "print(GitIgnore.from_text('*a' * 30 + '*b').ignored('a' * 60))"],
        capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "False\n"


def _lint_reference(pattern: str) -> re.Pattern[str]:
    """The footer lint's former regex translation."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(pattern[i], re.escape(pattern[i])))
            i += 1
    return re.compile("".join(out))


@settings(max_examples=300, deadline=None)
@given(pattern=st.lists(_PIECES, max_size=8).map("".join),
       path=st.lists(st.sampled_from(["a", "b", "/", ".", "ab", "\n"]), max_size=8)
       .map("".join))
def test_the_footer_glob_means_what_it_meant(pattern: str, path: str) -> None:
    from reviewtui.core.lint.base import glob_match as lint_glob_match
    from reviewtui.core.lint.base import path_key

    assert lint_glob_match(pattern, path) == (
        _lint_reference(path_key(pattern)).fullmatch(path_key(path)) is not None)


_IGNORE = st.sampled_from(["a", "b", "/", "*", "**", "?", "[ab]", "[!a]", "\\*", ".", "!"])


@settings(max_examples=300, deadline=None)
@given(rule=st.lists(_IGNORE, min_size=1, max_size=7).map("".join),
       path=st.lists(st.sampled_from(["a", "b", "/", ".", "*", "ab"]), max_size=8)
       .map("".join))
def test_a_gitignore_rule_means_the_same_either_way(rule: str, path: str) -> None:
    from reviewtui.core.paths.gitignore import _translate
    from reviewtui.core.paths.wildcard import Wildcard

    fragment, pieces = _translate(rule)
    assert Wildcard(pieces).fullmatch(path) == (
        re.compile(fragment, re.DOTALL).fullmatch(path) is not None)
