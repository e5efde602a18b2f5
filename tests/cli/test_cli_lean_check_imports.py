"""``reviewtui check`` on a one-turn File Ops session loads only what that session needs
(issue 13, "Headless start-up").

The command runs in a fresh interpreter with ``-X importtime``, whose report names every
module the process imported. Readers of other formats, the loose matching stages, edit
shapes, tree-sitter, git, export, the agent and MCP servers, the TOML parser, the
process/temp-file machinery, json (``--json``, JSON sessions), the project checks
(``[checks]``) and the trust digest of a ``reviewtui.toml`` are loaded by the code that
uses them, never at start-up.
The other tests here pin what made that possible without changing behaviour: the git
header check done without the git reader, the lazily compiled patterns, and the parser
that builds only the running subcommand's options.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.cli import COMMANDS, _columns, build_parser
from reviewtui.core.importers import GIT_HEADER, detect_format
from reviewtui.core.importers.gitlog import MARKER, looks_like_git_session
from reviewtui.core.text.lazy_pattern import LazyPattern

# Loaded for other formats, other stages or other commands only (prefixes: a package and
# everything under it).
NOT_FOR_A_ONE_TURN_CHECK = (
    # the UI stack and optional extras
    "textual", "textual_serve", "rich", "pygments", "markdown_it", "tree_sitter", "mcp",
    # readers of the other formats
    "reviewtui.core.importers.aider", "reviewtui.core.importers.claude",
    "reviewtui.core.importers.codex", "reviewtui.core.importers.unified",
    "reviewtui.core.importers.toolcalls", "reviewtui.core.importers.gitbinary",
    "reviewtui.core.importers.common", "reviewtui.core.importers.gitlog",
    # the loose matching stages (an exact match needs none)
    "reviewtui.core.match.near", "reviewtui.core.match.diagnose",
    "reviewtui.core.match.expression", "reviewtui.core.match.index",
    "reviewtui.core.match.indent", "reviewtui.core.match.reexpress",
    # line-addressed edits
    "reviewtui.core.model.edit_shapes", "reviewtui.core.text.hashline",
    "reviewtui.core.engine.line_edits",
    # tree-sitter parsing and the big-file region checker
    "reviewtui.core.syntax.parsing", "reviewtui.core.syntax.languages",
    "reviewtui.core.syntax.problems", "reviewtui.core.syntax.pyregions",
    # other commands' rooms
    "reviewtui.core.git", "reviewtui.core.export", "reviewtui.core.agent",
    "reviewtui.shell.review", "reviewtui.shell.state", "reviewtui.shell.replay",
    "reviewtui.shell.git", "reviewtui.shell.watch", "reviewtui.shell.serve",
    "reviewtui.ui",
    # standard library modules nothing on this path uses
    "tomllib", "subprocess", "tempfile", "secrets", "asyncio", "email", "http",
    "shutil", "bz2", "lzma",  # argparse's help formatter imported shutil for the width
    "json",  # --json output, JSON sessions and checks, the trust file: not a text report
    "shlex",  # quoted console commands and [checks] command lines
    "reviewtui.shell.checks",  # a project without [checks]
    "reviewtui.shell.trust",  # the trusted digest of a reviewtui.toml: a project without one
    "threading",  # the matcher's lock is a _thread lock
    # @record's own bookkeeping (core/record.py): dataclasses only when something asks for
    # __dataclass_fields__, fields() or asdict(); inspect with it, or for a docstring
    "dataclasses", "inspect", "ast", "dis",
    "tokenize",  # the multi-line strings around a marker (core/text/markers.py): no marker
    # OpenSSL (~3 ms to load): the diagnostics' cache keys are BLAKE2b digests, a file
    # state's sha256 and the temp files' tags are computed where asked for
    "hashlib", "_hashlib",
    # typing (~2.5 ms): annotation-only imports sit under TYPE_CHECKING = False, and
    # overload and dataclass_transform come from core/typed.py
    "typing",
    # the parser modules of export, stats and mcp (their names suffice), console commands,
    # globs in footers and commands, and apply's whole-file holding
    "reviewtui.cli.export", "reviewtui.cli.stats", "reviewtui.cli.mcp",
    "reviewtui.core.protocol.console", "reviewtui.core.paths.wildcard",
    "reviewtui.core.review.whole_files",
    "zlib",  # the matcher's chunks of a rewritten block (loose matching)
    "difflib", "heapq",  # loose matching, diffs of bigger edits: a one-line fix needs none
    # console commands, re-evaluation after a decision
    "reviewtui.core.engine.commands", "reviewtui.core.engine.reuse",
    "encodings.utf_8_sig",  # the loader drops a BOM itself
    # argparse, and the gettext look-ups of its parsers with locale: a plain check's
    # command line is read by cli/quick_args.py
    "argparse", "gettext", "locale", "reviewtui.cli.parsers",
    # the Python check's symbol table is _symtable's function: symtable's tree of it (and
    # weakref) is not built
    "symtable", "weakref",
    "unicodedata",  # a path's NFC form and controls: ASCII paths need no tables
    # the engine's rooms for what a one-turn check never meets: a placed edit's "already
    # applied" check and the reviewer's placements, a failed SEARCH's deferred diagnosis,
    # modes and binary content
    "reviewtui.core.engine.applied", "reviewtui.core.engine.placed",
    "reviewtui.core.model.deferred", "reviewtui.core.engine.filebytes",
    "math",  # the chunk size of a file of 8,000 lines or more
)


def _heavy(module: str) -> bool:
    return any(module == name or module.startswith(name + ".")
               or module.startswith(name + "_")  # reviewtui.shell.git_sources, git_commit
               for name in NOT_FOR_A_ONE_TURN_CHECK)


def _one_turn(tmp: Path) -> tuple[Path, Path]:
    base = tmp / "base"
    base.mkdir()
    (base / "mod.py").write_text("".join(f"def f{i}(x):\n    return x + {i}\n\n"
                                         for i in range(50)))
    session = tmp / "one-turn.md"
    session.write_text("## Turn 1\n--- File: mod.py ---\n<<<<<<< SEARCH\ndef f7(x):\n"
                       "    return x + 7\n=======\ndef f7(x):\n    return x + 70\n"
                       ">>>>>>> REPLACE\n\n### Changed files:\n- mod.py\n")
    return base, session


def test_check_of_a_one_turn_session_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    base, session = _one_turn(tmp_path)
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "reviewtui", "check",
                           str(session), "--root", str(base)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "1 turn, 1 operation: 1 apply" in done.stdout  # the check really ran
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    assert {"reviewtui.core.engine.session", "reviewtui.core.lint.rules"} <= modules
    loaded = sorted(m for m in modules if _heavy(m))
    assert loaded == [], f"check of a one-turn File Ops session imported {loaded}"


def test_help_imports_argparse_and_little_else(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "reviewtui", "--help"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: reviewtui" in done.stdout
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    assert "argparse" in modules
    ours = sorted(m for m in modules if m.startswith("reviewtui.core"))
    # errors, and the escaping of control characters in error lines (cli/visible_output.py)
    assert ours == ["reviewtui.core", "reviewtui.core.errors", "reviewtui.core.text",
                    "reviewtui.core.text.visible"]
    loaded = sorted(modules & {"pathlib", "shutil", "bz2", "lzma", "urllib", "tempfile",
                               "json", "dataclasses", "inspect", "subprocess"})
    assert loaded == [], f"--help imported {loaded}"


# -- what made it possible ---------------------------------------------------------------

def test_the_git_header_detect_format_checks_is_the_git_readers() -> None:
    assert GIT_HEADER == MARKER


@given(st.sampled_from(["", "\ufeff", "\ufeff\ufeff", " ", "\n"]),
       st.sampled_from([MARKER + "range", MARKER, MARKER.strip(), "# reviewtui git",
                        "## Turn 1", "diff --git a/x b/x", "*** Begin Patch", ""]),
       st.text(max_size=30))
def test_a_git_session_is_detected_exactly_when_the_git_reader_says_so(
        lead: str, first: str, rest: str) -> None:
    text = lead + first + "\n" + rest
    assert (detect_format(text) == "git") == looks_like_git_session(text)


_PATTERNS = [
    (r"(?:rest|remainder)\s+of\s+(?:the\s+)?(\w+)", re.IGNORECASE),
    (r"^(?:sure|okay|here(?:'s|\ is))(?!\w)", re.IGNORECASE | re.VERBOSE),
    (r"a+b?", 0),
]


@pytest.mark.parametrize(("pattern", "flags"), _PATTERNS)
@given(text=st.text(alphabet="abAB rRestofhmindrlu'\n", max_size=40))
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern: str, flags: int,
                                                    text: str) -> None:
    lazy, eager = LazyPattern(pattern, flags), re.compile(pattern, flags)
    for method in ("search", "match", "fullmatch"):
        got, want = getattr(lazy, method)(text), getattr(eager, method)(text)
        assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups()))


def test_a_lazy_pattern_compiles_on_first_use_only() -> None:
    lazy = LazyPattern(r"x+")
    assert lazy._compiled is None
    assert lazy.search("axxb") is not None
    first = lazy._compiled
    assert first is not None
    lazy.fullmatch("xx")
    assert lazy._compiled is first


_COMMAND_LINES = [
    ["check", "s.md", "--root", "r", "--json", "--format", "aider"],
    ["check", "--git", "a..b"],
    ["lint", "reply.md", "--json"],
    ["apply", "s", "--yes", "--turns", "1-3", "--accept-fuzzy", "--strict", "--partial"],
    ["restore", "s", "--root", "r", "--checkpoint", "2", "--yes"],
    ["open", "s", "--dry-run", "--no-watch", "--gate", "auto", "--live"],
    ["view", "f.py", "--hash", "--range", "3-9"],
    ["demo", "--present"],
    ["serve", "--port", "9000", "--dry-run"],
    ["export", "s", "--format", "json"],
    ["stats", "s", "--json"],
    ["mcp", "--help"],
]


@pytest.mark.parametrize("argv", _COMMAND_LINES, ids=lambda argv: argv[0])
def test_a_parser_built_for_one_subcommand_parses_it_as_the_whole_parser_does(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    def parsed(only: str | None) -> object:
        try:
            found = vars(build_parser(only=only).parse_args(argv))
            return {key: value.prog if isinstance(value, argparse.ArgumentParser) else value
                    for key, value in found.items()}  # git_parser: the parser itself
        except SystemExit as stop:  # --help: compare what it printed
            return (stop.code, capsys.readouterr())

    assert argv[0] in COMMANDS
    assert parsed(argv[0]) == parsed(None)


def test_the_top_level_help_is_the_same_without_any_subcommand_options() -> None:
    assert build_parser(only="--help").format_help() == build_parser().format_help()
    lean = build_parser(only="--help")
    with pytest.raises(SystemExit):  # no subcommand has options: --root is unknown
        lean.parse_args(["check", "s", "--root", "r"])


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "x", "40", "200"])
def test_the_help_width_is_the_one_shutil_gives(columns: str | None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _columns() == shutil.get_terminal_size().columns
