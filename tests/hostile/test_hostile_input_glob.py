"""Threat: a glob written to make the matcher backtrack (``:rm *a*a*a*a*a*a*a*a*a*b``).

Before: globs were regular expressions (``*`` -> ``[^/]*``), and ``*a`` repeated against a long
name of ``a``s backtracked exponentially: ``check`` hung. Now ``core.paths.glob_match`` walks
the components itself, linear in practice, with the same meaning (checked here against the
old translation on small inputs, where backtracking does not matter).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from inputkit import cli_subprocess

from reviewtui.core.paths import expand_glob, glob_match


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
