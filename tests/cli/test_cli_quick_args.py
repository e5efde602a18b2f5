"""``cli/quick_args.py`` reads the plain command lines of ``check``, ``apply`` and ``lint``
without argparse (issue 13, "Headless start-up"): what it reads must be what argparse
reads, and what it does not read goes to argparse.
"""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reviewtui.cli import SESSION_FORMATS, build_parser, main
from reviewtui.cli.quick_args import COMMANDS, parse


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(action for action in parser._actions
               if isinstance(action, argparse._SubParsersAction))
    found: argparse.ArgumentParser = sub._name_parser_map[command]
    return found


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_table_says_what_the_parser_says(command: str) -> None:
    parser = _subparser(command)
    positional_dest, options = COMMANDS[command]
    declared: dict[str, tuple[str, object]] = {}
    positionals = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:
            positionals.append((action.dest, action.nargs, action.default))
            continue
        assert len(action.option_strings) == 1, action.option_strings
        if isinstance(action, argparse._StoreTrueAction):
            declared[action.option_strings[0]] = (action.dest, "flag")
            assert action.default is False
            continue
        assert type(action) is argparse._StoreAction
        assert (action.nargs, action.type, action.required) == (None, None, False)
        takes = "value" if action.choices is None else tuple(action.choices)
        declared[action.option_strings[0]] = (action.dest, takes)
        assert action.default == ("auto" if action.dest == "format" else None)
    assert declared == options
    git = "--git" in options
    assert positionals == [(positional_dest, "?" if git else None, None)]
    assert sorted(parser._defaults) == (["git_parser"] if git else [])
    groups = [sorted(a.dest for a in group._group_actions)
              for group in parser._mutually_exclusive_groups]
    assert groups == ([["git_range", "worktree"]] if git else [])


_WORDS = ["check", "apply", "lint", "open", "s.md", "other.md", "", "a b", "r", "1-3",
          "-", "--", "-h", "--help", "--version", "-x", "-1", "--bogus", "--ro", "--root=r",
          "--json=1", "--git=a..b", "a..b", "NAME", *SESSION_FORMATS, "patch",
          *sorted({option for _, options in COMMANDS.values() for option in options})]


def _argparse(words: list[str]) -> dict[str, object] | None:
    """argparse's namespace (its git_parser as a mark), or None when it stops."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            found = vars(build_parser(only=words[0]).parse_args(words))
    except SystemExit:
        return None
    if "git_parser" in found:
        assert isinstance(found["git_parser"], argparse.ArgumentParser)
        found["git_parser"] = "the parser"
    return found


@settings(max_examples=600)
@given(st.sampled_from(sorted(COMMANDS)), st.lists(st.sampled_from(_WORDS), max_size=7))
@example("check", ["s.md", "--root", "r"])
@example("apply", ["s.md", "--root", "r", "--yes", "--turns", "1-3", "--format", "aider"])
@example("lint", ["s.md", "--json"])
@example("check", ["--worktree", "--root", "r"])
def test_a_line_it_reads_means_the_same_to_argparse(command: str, rest: list[str]) -> None:
    words = [command, *rest]
    quick = parse(words)
    if quick is None:
        return  # argparse reads it (or reports it) as before: main() hands it over
    got = vars(quick)
    if "git_parser" in got:
        assert got["git_parser"] is None
        got = {**got, "git_parser": "the parser"}
    assert got == _argparse(words)


@st.composite
def _plain_lines(draw: st.DrawFn) -> list[str]:
    """A line of the command's own options in a random order, mostly one it reads."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    positional, options = COMMANDS[command]
    odd = st.sampled_from(["", "-v", "patch", "--json"])  # read by argparse, or refused
    chunks = [[draw(st.sampled_from(["s.md", "x y.md", "check", "1-3"]) | odd)]] \
        if draw(st.booleans()) else []
    # each option at most once but now and then, as argparse allows
    for option in draw(st.lists(st.sampled_from(sorted(options)), max_size=6,
                                unique=draw(st.integers(0, 9)) > 0)):
        takes = options[option][1]
        if takes == "flag":
            chunks.append([option])
        else:
            usual = st.sampled_from(["v", "1-3", "a..b"] if takes == "value" else takes)
            chunks.append([option, draw(usual | odd if draw(st.integers(0, 9)) == 0
                                        else usual)])
    return [command, *(word for chunk in draw(st.permutations(chunks)) for word in chunk)]


@pytest.mark.slow
@settings(max_examples=400)
@given(_plain_lines())
def test_a_plain_line_means_the_same_to_argparse(words: list[str]) -> None:
    quick = parse(words)
    want = _argparse(words)
    if quick is None:  # argparse reads it (or stops at it) as before
        return
    got = vars(quick)
    if "git_parser" in got:
        got = {**got, "git_parser": "the parser"}
    assert got == want


def test_most_plain_lines_are_read() -> None:
    read = []

    @settings(max_examples=200, database=None)
    @given(_plain_lines())
    def count(words: list[str]) -> None:
        read.append(parse(words) is not None)

    count()
    assert sum(read) > len(read) // 4


@pytest.mark.parametrize("words", [
    ["check", "s.md", "--root", "r"],
    ["check", "--root", "r", "--json", "s.md", "--format", "fileops"],
    ["check", "--git", "a..b"],
    ["check", "--worktree", "--trust-checks"],
    ["apply", "s.md", "--root", "r", "--yes"],
    ["apply", "--yes", "--turns", "2", "--state", "st.json", "--accept-fuzzy", "--strict",
     "--partial", "--json", "--commit", "--branch", "b", "s.md"],
    ["lint", "reply.md"],
    ["lint", "--json", "reply.md"],
    ["check", "s.md", "--root", "a", "--json", "--root", "b", "--json"],  # b, as argparse
])
def test_the_plain_lines_are_read_without_argparse(words: list[str]) -> None:
    quick = parse(words)
    assert quick is not None
    assert quick.command == words[0]
    want = _argparse(words)
    assert want is not None
    if "git_parser" in want:
        want["git_parser"] = None
    assert vars(quick) == want


@pytest.mark.parametrize("words", [
    [], ["--help"], ["--version"], ["open", "s.md"], ["stats", "s.md"], ["check"],
    ["check", "s.md", "-h"], ["check", "s.md", "--ro", "r"], ["check", "s.md", "--root=r"],
    ["check", "s.md", "--root"], ["check", "s.md", "--root", "-r"], ["check", "a", "b"],
    ["check", "--git", "a..b", "--worktree"],
    ["check", "s.md", "--format", "patch"], ["check", ""], ["check", "--", "s.md"],
    ["apply", "s.md", "--bogus"], ["lint"], ["lint", "--json"],
])
def test_the_other_lines_go_to_argparse(words: list[str]) -> None:
    assert parse(words) is None


def test_a_usage_error_is_argparse_s(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["check", "s.md", "--root"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: reviewtui check")
    assert "error: argument --root: expected one argument" in err


def test_check_without_a_session_still_shows_the_usage(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["check", ""])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: reviewtui check")
    assert "the following arguments are required: session" in err
