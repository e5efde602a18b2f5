"""Shortcuts that keep modules off a one-turn ``check``'s path (issue 13, "Headless
start-up"), each against the slow path it stands for. Which modules stay off is pinned by
tests/cli/test_cli_lean_check_imports.py.
"""

from __future__ import annotations

import subprocess
import symtable
import sys
import unicodedata
import warnings
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reviewtui.core.paths import safety
from reviewtui.core.review import diagnostics

# -- the Python check calls the symbol table's C function (no symtable, no weakref) -------


def _python_by_symtable(text: str) -> list[tuple[int, int, str]]:
    """What ``diagnostics._python`` answered when it called ``symtable.symtable``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(text, "<file>", "exec")
    except SyntaxError as err:
        return [(err.lineno or 1, err.offset or 1, err.msg)]
    except (ValueError, RecursionError, MemoryError) as err:
        return [(1, 1, str(err) or type(err).__name__)]
    return []


_SOURCES = [
    "", "x = 1\n", "def f(a, a):\n    pass\n", "def f(:\n", "x = '\\d'\n", "a\x00b\n",
    "nonlocal x\n", "def f():\n    x = 1\n    global x\n", "return 1\n", "yield\n",
    "class C:\n    def f(self):\n        return [i for i in range(3)]\n",
    "f(**x, *y)\n", "del f()\n", "(" * 300 + ")" * 300 + "\n", "import *\n",
    "from x import *\ndef f():\n    from y import *\n", "x: int = 1\nglobal x\n",
    "async def f():\n    await x\n", "await x\n", "lambda: (yield)\n", "\tif x:\n  pass\n",
]


@given(st.sampled_from(_SOURCES), st.sampled_from(_SOURCES),
       st.text(alphabet="()[]{}:=,.*\\'\"\n \tabdefglnorstuxy0", max_size=40))
@example("", "", "")
def test_the_python_check_reports_what_symtable_reports(first: str, second: str,
                                                        noise: str) -> None:
    for text in (first, second, first + second, first + noise, noise):
        assert diagnostics._python(text) == _python_by_symtable(text)


# -- a path's NFC form and control characters, ASCII without unicodedata --------------------


def _has_control_by_unicodedata(path: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp")
               or ch in safety._BIDI_CONTROLS for ch in path)


@given(st.text(max_size=30) | st.text(alphabet=st.characters(max_codepoint=127)))
@example("".join(map(chr, range(128))))
@example("a\u202eb")
@example("e\u0301")
@example("a\u2028")
def test_control_characters_and_nfc_as_unicodedata_tells(text: str) -> None:
    assert safety._has_control(text) == _has_control_by_unicodedata(text)
    assert safety._nfc(text) == unicodedata.normalize("NFC", text)


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_is_a_control_exactly_when_unicodedata_says(code: int) -> None:
    assert safety._has_control(chr(code)) == (unicodedata.category(chr(code)) == "Cc")


# -- engine modules loaded by their first use -----------------------------------------------


def test_the_placed_method_is_placed_s() -> None:
    from reviewtui.core.engine import file_edits, placed

    assert file_edits._PLACED == placed.PLACED


_STAND_INS = [
    ("reviewtui.core.engine.placement", "already_applied", "reviewtui.core.engine.applied"),
    ("reviewtui.core.engine.file_edits", "deferred", "reviewtui.core.model.deferred"),
]


@pytest.mark.parametrize(("module", "name", "home"), _STAND_INS)
def test_a_stand_in_loads_its_function_and_then_is_it(module: str, name: str,
                                                      home: str) -> None:
    """In a fresh interpreter: the stand-in is not the function until first called; the
    call answers as the function does and leaves the function itself in its place."""
    code = (f"import sys, importlib\n"
            f"m = importlib.import_module({module!r})\n"
            f"print({home!r} in sys.modules)\n"
            f"stand_in = getattr(m, {name!r})\n"
            f"real = getattr(importlib.import_module({home!r}), {name!r})\n"
            f"print(stand_in is real)\n"
            f"try:\n    stand_in()\nexcept TypeError as err:\n    print(type(err).__name__)\n"
            f"print(getattr(m, {name!r}) is real)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["False", "False", "TypeError", "True"]


# -- apply --yes of a File Ops session -------------------------------------------------------

# Loaded by other commands or other paths of apply only: typing (annotation-only imports),
# json (a state file: --state, a resumed review), difflib/heapq (rebasing onto an outside
# change), argparse (a plain command line).
# hashlib (OpenSSL): the digests of a small apply come from core/digests.py.
NOT_FOR_A_PLAIN_APPLY = ("typing", "json", "difflib", "heapq", "argparse", "locale",
                         "hashlib", "_hashlib", "textual", "rich", "pygments")


def _applied_importing(cwd: Path, *args: str) -> set[str]:
    """The modules ``reviewtui apply ARGS`` imported (``-X importtime``); it must succeed."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "reviewtui", "apply",
                           *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def test_apply_of_a_one_turn_session_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "mod.py").write_text("def f(x):\n    return x + 7\n")
    session = tmp_path / "one-turn.md"
    session.write_text("## Turn 1\n--- File: mod.py ---\n<<<<<<< SEARCH\n    return x + 7\n"
                       "=======\n    return x + 70\n>>>>>>> REPLACE\n\n### Changed files:\n"
                       "- mod.py\n")
    modules = _applied_importing(tmp_path, str(session), "--root", str(root), "--yes")
    assert (root / "mod.py").read_text() == "def f(x):\n    return x + 70\n"  # it ran
    assert "reviewtui.shell.review" in modules
    loaded = sorted(m for m in modules
                    if any(m == name or m.startswith(name + ".")
                           for name in NOT_FOR_A_PLAIN_APPLY))
    assert loaded == [], f"apply of a one-turn File Ops session imported {loaded}"


def test_apply_of_a_unified_diff_without_binary_patches_loads_no_hashlib(
        tmp_path: Path) -> None:
    """A replayed commit's diff: the git binary-patch reader is imported with the unified
    reader, and its SHA-1 (hashlib, OpenSSL: ~2 ms) waits for a binary patch."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "mod.py").write_text("def f(x):\n    return x + 7\n")
    diff = tmp_path / "change.diff"
    diff.write_text("diff --git a/mod.py b/mod.py\n--- a/mod.py\n+++ b/mod.py\n"
                    "@@ -1,2 +1,2 @@\n def f(x):\n-    return x + 7\n+    return x + 70\n")
    modules = _applied_importing(tmp_path, str(diff), "--format", "unified", "--root",
                                 str(root), "--yes")
    assert (root / "mod.py").read_text() == "def f(x):\n    return x + 70\n"
    assert "reviewtui.core.importers.gitbinary" in modules
    assert not {"hashlib", "_hashlib"} & modules


@given(st.integers(0, 10**7), st.sampled_from([1, 3, 4, 64, 256, 1000]))
@example(8191, 256)
@example(8192, 256)
def test_the_chunk_size_is_the_root_it_was(count: int, chunk: int) -> None:
    """``chunk_size`` without math for files whose root is below CHUNK."""
    import math

    from reviewtui.core.model import chunks

    saved = chunks.CHUNK
    chunks.CHUNK = chunk
    try:
        assert chunks.chunk_size(count) == max(chunk, math.isqrt(count * chunk // 32))
    finally:
        chunks.CHUNK = saved


@given(st.lists(st.binary(max_size=300) | st.sampled_from([b"", b"x" * 70_000]), max_size=12),
       st.integers(0, 200_000))
def test_the_digests_are_hashlib_s_before_and_after_the_budget(chunks: list[bytes],
                                                               left: int) -> None:
    import hashlib

    from reviewtui.core import digests

    saved = digests._left[0]
    digests._left[0] = left
    try:
        for data in chunks:
            made = digests.sha256(data)
            assert made.hexdigest() == hashlib.sha256(data).hexdigest()
            assert made.digest() == hashlib.sha256(data).digest()
            assert digests._left[0] >= 0
    finally:
        digests._left[0] = saved


def test_the_builtin_sha256_is_there_and_used_first() -> None:
    from reviewtui.core import digests

    assert digests._builtin is not None  # CPython 3.11+: else every digest is hashlib's
    saved = digests._left[0]
    digests._left[0] = 10
    try:
        assert type(digests.sha256(b"0123456789")) is type(digests._builtin(b""))
        assert digests._left[0] == 0
        assert type(digests.sha256(b"x")) is not type(digests._builtin(b""))  # hashlib's
    finally:
        digests._left[0] = saved
