"""What keeps ``reviewtui check``'s start-up short without changing what it does (issue 13,
"Headless start-up"): the parser's other subcommands share one empty parser, a report
line and its newline never compile the control-character pattern, and the diagnostics'
cache keys are BLAKE2b digests (hashlib, which loads OpenSSL, is not imported).
The imports themselves are pinned by tests/cli/test_cli_lean_check_imports.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reviewtui.core.text.visible as visible_module
from reviewtui.cli import COMMANDS, build_parser
from reviewtui.core.review import diagnostics
from reviewtui.core.text.content import content_key


def _subparsers(parser: object) -> dict[str, object]:
    found = [action for action in getattr(parser, "_actions", [])
             if getattr(action, "_name_parser_map", None) is not None]
    assert len(found) == 1
    return dict(found[0]._name_parser_map)


@pytest.mark.parametrize("only", sorted(COMMANDS | {"--help"}))
def test_every_other_subcommand_shares_one_empty_parser(only: str) -> None:
    by_name = _subparsers(build_parser(only=only))
    assert sorted(by_name) == sorted(COMMANDS)
    others = {id(parser) for name, parser in by_name.items() if name != only}
    assert len(others) == 1
    shared = next(parser for name, parser in by_name.items() if name != only)
    # no option of any subcommand was added to it, nor a group's (--git, --worktree)
    assert [action.dest for action in shared._actions] == []  # type: ignore[attr-defined]
    assert shared._mutually_exclusive_groups == []  # type: ignore[attr-defined]
    if only in COMMANDS:  # the subcommand that runs has a parser of its own, with -h
        own = by_name[only]
        assert id(own) not in others
        assert "help" in [action.dest for action in own._actions]  # type: ignore[attr-defined]


def test_the_whole_parser_has_a_parser_per_subcommand() -> None:
    by_name = _subparsers(build_parser())
    assert len({id(parser) for parser in by_name.values()}) == len(COMMANDS)


@pytest.mark.parametrize("keep", ["\n\t", "\n", "\t"])
@given(line=st.text(st.characters().filter(str.isprintable)))
def test_a_printable_line_with_kept_characters_does_not_compile_the_pattern(
        keep: str, line: str) -> None:
    text = line + keep
    saved = list(visible_module._hidden)
    visible_module._hidden.clear()
    try:
        assert visible_module.visible(text, keep=keep) == text
        assert visible_module._hidden == []
    finally:
        visible_module._hidden[:] = saved


def test_a_hidden_character_next_to_a_kept_one_is_still_escaped() -> None:
    assert visible_module.visible("a\x1b[2K\n", keep="\n\t") == "a\\u001b[2K\n"
    assert visible_module.visible("\u202e\t", keep="\t") == "\\u202e\t"
    assert visible_module.visible("x\n\x85", keep="\n") == "x\n\\u0085"


@given(st.binary(max_size=200))
def test_the_diagnostics_cache_key_is_a_256_bit_blake2b_digest(data: bytes) -> None:
    assert content_key(data) == hashlib.blake2b(data, digest_size=32).hexdigest()
    text = data.decode("utf-8", "surrogateescape")  # (lone surrogates included)
    assert diagnostics._digest(text) == content_key(text.encode("utf-8", "surrogatepass"))


def test_texts_that_differ_get_different_cache_keys() -> None:
    assert diagnostics._digest("x = 1\n") != diagnostics._digest("x = 2\n")
    assert diagnostics._digest(None) == "-"


_Repl = str | Callable[[re.Match[str]], str]
_SUBS: list[tuple[str, _Repl]] = [(r"^(?:<!--|//+|#+)\s*", ""), (r"\s*(?:\*+/|-->)$", "!"),
                                  (r"a+", lambda m: "<a>")]


@pytest.mark.parametrize(("pattern", "repl"), _SUBS)
@given(text=st.text(alphabet="a#/<!-*> \n", max_size=30), count=st.integers(0, 2))
def test_a_lazy_pattern_substitutes_and_finds_as_the_compiled_one(
        pattern: str, repl: _Repl, text: str, count: int) -> None:
    from reviewtui.core.text.lazy_pattern import LazyPattern

    lazy, eager = LazyPattern(pattern), re.compile(pattern)
    assert lazy.sub(repl, text, count) == eager.sub(repl, text, count)
    assert lazy.findall(text) == eager.findall(text)


def test_the_grammar_s_rarely_needed_patterns_wait_for_their_first_line() -> None:
    """A fresh interpreter: importing the reply parser compiles none of the patterns for
    labels, fences, footers, Need: lines and console commands (list items need none)."""
    import subprocess
    import sys

    code = ("import reviewtui.core.protocol.reply, reviewtui.core.text.markers as m, "
            "reviewtui.core.protocol.grammar as g\n"
            "names = ['LABEL_RE', 'FENCE_RE', 'FOOTER_RE', 'NEED_RE', 'COMMAND_RE']\n"
            "print(sum(getattr(g, n)._compiled is not None for n in names), "
            "sum(getattr(m, n)._compiled is not None for n in ['_COMMENT_OPEN', '_FENCE', "
            "'_BLOCK_OPENER']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["0", "0"]


def test_typed_s_decorators_leave_the_implementation_in_place() -> None:
    from reviewtui.core.typed import dataclass_transform, overload

    @overload
    def twice(x: int) -> int: ...
    @overload
    def twice(x: str) -> str: ...
    def twice(x: int | str) -> int | str:
        return x * 2

    assert twice(2) == 4
    assert twice("ab") == "abab"

    @dataclass_transform()
    def decorate(cls: type) -> type:
        return cls

    assert decorate(int) is int


def test_a_record_tells_a_class_variable_from_a_field_with_and_without_typing() -> None:
    """typing imported by the class's module: ``ClassVar`` is no field; in a fresh
    interpreter that never imports typing, records are built without it."""
    import subprocess
    import sys

    from reviewtui.core.record import record

    @record(frozen=True)
    class Counted:
        limit: ClassVar[int] = 3
        name: str

    assert Counted("x").name == "x"
    assert Counted.limit == 3
    assert Counted.__match_args__ == ("name",)
    code = ("import sys\nfrom reviewtui.core.model.records import Edit\n"
            "from reviewtui.core.record import record\n"
            "@record(frozen=True, slots=True)\nclass P:\n    a: int\n    b: str = 'x'\n"
            "print(P(1), P.__match_args__, 'typing' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "P(a=1, b='x') ('a', 'b') False"


def _interior_by_difflib(search: tuple[str, ...], replace: tuple[str, ...]
                         ) -> tuple[int, int] | None:
    """What ``interior_unchanged`` answered before it skipped short texts."""
    import difflib

    from reviewtui.core.lint.tokens import MERGE_GAP

    ops = difflib.SequenceMatcher(None, list(search), list(replace),
                                  autojunk=False).get_opcodes()
    for k in range(1, len(ops) - 1):
        tag, i1, i2, _, _ = ops[k]
        if tag == "equal" and i2 - i1 >= MERGE_GAP:
            return i1, i2
    return None


_LINES = st.lists(st.sampled_from(["a", "b", "c", ""]), max_size=7).map(tuple)


@given(_LINES, _LINES)
def test_interior_unchanged_skips_only_texts_too_short_to_hold_a_run(
        search: tuple[str, ...], replace: tuple[str, ...]) -> None:
    from reviewtui.core.lint.edits import interior_unchanged

    assert interior_unchanged(search, replace) == _interior_by_difflib(search, replace)


def test_the_shortest_texts_with_an_interior_run() -> None:
    from reviewtui.core.lint.edits import interior_unchanged

    assert interior_unchanged(("x", "a", "b"), ("a", "b", "y")) == (1, 3)  # 3 + 3 lines
    assert interior_unchanged(("a", "b"), ("x", "a", "b", "y")) == (0, 2)  # 2 + 4 lines


@pytest.mark.parametrize("columns", ["20", "80"])
def test_the_subcommands_prog_is_the_one_argparse_works_out(
        columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    monkeypatch.setenv("COLUMNS", columns)
    stock = argparse.ArgumentParser(prog="reviewtui")
    stock.add_argument("--version", action="version", version="x")
    worked_out = stock.add_subparsers(dest="command")
    by_name = _subparsers(build_parser())
    assert {name: parser.prog for name, parser in by_name.items()} == {  # type: ignore[attr-defined]
        name: f"{worked_out._prog_prefix} {name}" for name in COMMANDS}


@given(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xef\xbb"]),
       st.binary(max_size=40))
def test_the_loader_decodes_as_the_utf_8_sig_codec(lead: bytes, rest: bytes) -> None:
    from reviewtui.shell.loader import decode_utf8_sig

    data = lead + rest
    try:
        want: object = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        want = ("error", exc.start, exc.end)
    try:
        got: object = decode_utf8_sig(data)
    except UnicodeDecodeError as exc:
        got = ("error", exc.start, exc.end)
    assert got == want


@given(st.sampled_from(["notes", ".x", "a.b"]), st.sampled_from(["", "tmp", ".reviewtui-tmp",
                                                                ".reviewtui-tmpx", "\n"]))
def test_a_temp_name_is_told_as_by_the_whole_pattern(stem: str, tail: str) -> None:
    from reviewtui.shell import disk

    made = disk.temp_name(stem)
    pattern = re.compile(disk._TEMP_RE.pattern, disk._TEMP_RE.flags)
    for name in (made, made + tail, stem + tail, "." + stem + "." + "0" * 24 + tail):
        match = pattern.fullmatch(name)
        want = match is not None and match["tag"] == disk._tag(match["name"], match["nonce"],
                                                               disk._temp_key() or b"")
        assert disk.is_temp_name(name) == want
    assert disk.is_temp_name(made)
