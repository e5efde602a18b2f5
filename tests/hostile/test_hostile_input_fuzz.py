"""Threat: any mangled session, in any format, through every command.

A quick fuzz: a small valid session per format (File Ops Markdown, a chat transcript,
Codex apply_patch, Aider, a unified diff, Claude Code JSONL, tool calls) is mutated by
hypothesis (hostile tokens inserted, text cut, lines doubled, JSON values swapped for wrong
types, giant numbers, deep nesting, escaping paths) and run through ``check``, ``lint``,
``apply --yes --state`` into a scratch root, ``stats``, ``export`` in every format and
``view``. Every run must end with exit code 0, 1 or 2 and no traceback, and nothing outside
the root may change (the arena's canaries).

Deterministic and bounded (a fixed number of derandomized examples, about 10 s); set
``REVIEWTUI_FUZZ_EXAMPLES=2000`` to explore further, with fresh randomness each run.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.cli import main
from reviewtui.core.export import FORMATS as EXPORT_FORMATS

BASE = {
    "a.py": "x = 1\ny = 2\n\n\ndef f():\n    return x\n",
    "notes.txt": "one\ntwo\nthree\n",
    "src/app.js": "const a = 1;\nexport default a;\n",
    "data.json": '{"k": [1, 2]}\n',
}

FILEOPS_REPLY = """\
--- File: a.py ---
Edit 1
<<<<<<< SEARCH
x = 1
=======
x = 3
>>>>>>> REPLACE

--- File: src/new.txt ---
hello

```console
:mv notes.txt docs/notes.txt
```

### Changed files:
- a.py
- src/new.txt
- docs/notes.txt
"""

SEEDS = {
    "fileops": ("session.md", "# Session: seed\n\n## Turn 1\n> change x\n\n" + FILEOPS_REPLY
                + "\n## Turn 2\n> again\n\n--- File: src/app.js ---\n<<<<<<< SEARCH\n"
                "const a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE\n\n### Changed files:\n"
                "- src/app.js\n"),
    "chat": ("session.json", json.dumps([{"role": "user", "content": "change x"},
                                         {"role": "assistant", "content": FILEOPS_REPLY}],
                                        indent=1)),
    "apply_patch": ("session.patch", "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n"
                    "-    return x\n+    return x + 1\n*** Add File: b.txt\n+hello\n"
                    "*** Delete File: notes.txt\n*** Update File: src/app.js\n"
                    "*** Move to: src/main.js\n@@\n-const a = 1;\n+const a = 9;\n"
                    "*** End Patch\n"),
    "aider": (".aider.chat.history.md", "# aider chat started at 2024-06-01 10:00:00\n\n"
              "#### change x\n\na.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n"
              ">>>>>>> REPLACE\n```\n\nnew.txt\n```\n<<<<<<< SEARCH\n=======\nfresh\n"
              ">>>>>>> REPLACE\n```\n"),
    "unified": ("session.diff", "diff --git a/a.py b/a.py\nindex 1111111..2222222 100644\n"
                "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n y = 2\n"
                "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n"
                "+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"),
    "claude": ("session.claude.jsonl", "\n".join(json.dumps(line) for line in [
        {"type": "summary", "summary": "seed", "leafUuid": "x"},
        {"type": "user", "sessionId": "s", "cwd": "/p",
         "message": {"role": "user", "content": "change x"}},
        {"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "editing"},
            {"type": "tool_use", "id": "t1", "name": "Edit", "input": {
                "file_path": "a.py", "old_string": "x = 1", "new_string": "x = 4"}},
            {"type": "tool_use", "id": "t2", "name": "Write", "input": {
                "file_path": "w.txt", "content": "w\n"}},
            {"type": "tool_use", "id": "t3", "name": "MultiEdit", "input": {
                "file_path": "notes.txt", "edits": [
                    {"old_string": "one", "new_string": "1", "replace_all": False}]}}]}},
        {"type": "user", "sessionId": "s", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ]) + "\n"),
    "toolcalls": ("session.jsonl", "\n".join(json.dumps(line) for line in [
        {"turn": 1, "request": "change x"},
        {"tool": "str_replace", "path": "a.py", "old": "x = 1", "new": "x = 2"},
        {"tool": "line_replace", "path": "notes.txt", "from": 2, "to": 2, "content": "2\n"},
        {"tool": "window_replace", "path": "a.py", "start_line": 1, "end_line": 6,
         "target": "return x", "replacement": "return 0"},
        {"tool": "batch_edit", "path": "src/app.js", "operations": [
            {"operation": "delete", "line_range": [1, 1]},
            {"operation": "insert_after", "line": 2, "content": "// end"}]},
        {"tool": "insert", "path": "notes.txt", "line": 1, "content": "zero\n"},
        {"tool": "write", "path": "b.txt", "content": "hi\n"},
        {"tool": "move", "from": "data.json", "to": "moved.json"},
        {"tool": "delete", "path": "b.txt"},
    ]) + "\n"),
}

HOSTILE_TEXT = [
    "9" * 5000, "[" * 400, "{" * 400, "]", "}", '"', "\\", "\x00", "\r", "\r\n", "\ufeff",
    "\u202e", "\t", "../", "../../canary.txt", "/etc/passwd", "~/x", "C:/x", ".git/config",
    "a" * 300, "/".join(["d"] * 300), "**", "*", "?", "[id]", "<<<<<<< SEARCH\n",
    "=======\n", ">>>>>>> REPLACE\n", "## Turn 2\n", "## Turn 0\n", "--- File: a.py ---\n",
    "--- File: ../x ---\n", "*** Begin Patch\n", "*** End Patch\n", "*** Update File: a.py\n",
    "*** Move to: a.py\n", "*** Delete File: a.py\n", "*** End of File\n", "@@ -1,2 +1,3 @@\n",
    "@@ -0,0 +1 @@\n", "@@ -99999,1 +1,1 @@\n", "\\ No newline at end of file\n",
    "rename from a.py\nrename to b.py\n", "old mode 100644\nnew mode 104755\n",
    "GIT binary patch\n", ":mv a.py b.py\n", ":mv a.py ../b.py\n", ":rm a.py\n", ":rm **\n",
    ":mkdir x\n", ":cp a.py src\n", "Edit 2\n", "Edit @3-4\n", "Edit @2:zz\n", "```\n",
    "```console\n", "~~~\n", "#### ", "diff --git a/x b/x\n", "-1", "1e999", "-0", "null",
    "true", "Need: a.py\n", "### Changed files:\n- a.py\n", "\n", " ", "é", "\u2028",
]

SEED_PATHS = ["a.py", "notes.txt", "src/app.js", "src/new.txt", "new.txt", "b.txt", "w.txt",
              "data.json", "docs/notes.txt", "src/main.js", "moved.json"]
PATHS = [
    "../x", "../../canary.txt", "/etc/passwd", "C:/x", "~/x", ".git/config", ".GIT/HEAD", "src",
    "a.py/x", "a.py/", "src/app.js/inner", "*", "**/*.py", "src/*", "node_modules/x.js",
    "package-lock.json", "./a.py", "A.PY", "a\u0301.py", "\u00e9.py", "con", "a.py ", " a.py",
    "a" * 300, "/".join(["d"] * 300), "/".join(["c" * 250] * 20), "x\x00y", "x\ny", "a\\b",
    "", ".", "..", "src/../a.py", "[id].js", "\u202egnp.exe", "notes.txt", "a.py",
]
BIG = "<a 5,000-digit integer>"  # json.dumps cannot write one: put in after dumping
JSON_VALUES = st.sampled_from([
    None, True, -1, 0, 1, 2**70, BIG, 1.5, float("inf"), "", "a.py", "../x", "/abs/a.py",
    "a" * 300, "9" * 5000, "3:zz", "1-2", [], {}, [1, 2], {"a": 1}, [[[[[]]]]],
    json.loads("[" * 300 + "]" * 300), {"tool": "write"}, {"type": "tool_use"},
]) | st.text(max_size=12) | st.integers()


@st.composite
def _text_mutation(draw: st.DrawFn, text: str) -> str:
    kind = draw(st.sampled_from(["insert", "insert", "delete", "double", "replace", "path"]))
    if kind == "path":  # every mention of one file becomes a hostile path
        named = [p for p in SEED_PATHS if p in text]
        if named:
            return text.replace(draw(st.sampled_from(named)), draw(st.sampled_from(PATHS)))
    at = draw(st.integers(0, len(text)))
    if kind == "insert":
        piece = draw(st.sampled_from(HOSTILE_TEXT) | st.text(max_size=8))
        return text[:at] + piece + text[at:]
    if kind == "delete":
        return text[:at] + text[at + draw(st.integers(1, 40)):]
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "double":
        return "".join(lines[: i + 1] + lines[i:])
    return "".join(lines[:i] + [draw(st.sampled_from(HOSTILE_TEXT))] + lines[i + 1:])


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _with(value: object, path: tuple[object, ...], new: object) -> object:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _with(value[head], rest, new)}  # type: ignore[index]
    assert isinstance(value, list)
    assert isinstance(head, int)
    return [*value[:head], _with(value[head], rest, new), *value[head + 1:]]


def _loads(text: str) -> object:
    """json.loads that keeps a giant integer (from an earlier mutation) as the marker."""
    return json.loads(text, parse_int=lambda digits: BIG if len(digits) > 4000 else int(digits))


@st.composite
def _json_mutation(draw: st.DrawFn, text: str, lines: bool) -> str:
    """A JSON value of the session swapped for a hostile one, still valid JSON."""
    docs = ([_loads(line) for line in text.splitlines()] if lines else [_loads(text)])
    n = draw(st.integers(0, len(docs) - 1))
    paths = _paths(docs[n])
    if paths:
        docs[n] = _with(docs[n], draw(st.sampled_from(paths)), draw(JSON_VALUES))
    text = "".join(json.dumps(doc) + "\n" for doc in docs) if lines else json.dumps(docs[0])
    return text.replace(f'"{BIG}"', "9" * 5000)


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, str, str]:
    """(format, file name, mutated text)."""
    fmt = draw(st.sampled_from(sorted(SEEDS)))
    name, text = SEEDS[fmt]
    # JSON formats: mostly valid JSON with wrong values, else the parser stops at line 1
    as_json = fmt in ("chat", "claude", "toolcalls") and draw(st.integers(0, 3)) > 0
    if as_json:
        for _ in range(draw(st.integers(1, 3))):
            text = draw(_json_mutation(text, lines=fmt != "chat"))
    for _ in range(draw(st.integers(0 if as_json else 1, 3))):
        text = draw(_text_mutation(text))
    return fmt, name, text


def _run(*argv: str | Path) -> tuple[int, str]:
    """``reviewtui ARGV`` in-process; an exception escaping main fails the test as it is."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, err.getvalue()


EXAMPLES = int(os.environ.get("REVIEWTUI_FUZZ_EXAMPLES", "0"))


@pytest.mark.slow
@settings(max_examples=EXAMPLES or 60, derandomize=not EXAMPLES, deadline=None,
          database=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow,
                                                 HealthCheck.data_too_large])
@given(case=sessions(), forced=st.booleans(), data=st.data())
def test_every_command_survives_a_mangled_session(arena, case: tuple[str, str, str],
                                                  forced: bool, data: st.DataObject) -> None:
    fmt, name, text = case
    here = Path(tempfile.mkdtemp(dir=arena.work))
    root = here / "root"
    for rel, content in BASE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    session = here / name
    session.write_text(text, encoding="utf-8", errors="surrogatepass")
    state = here / f"{name}.review.json"
    chosen = ("--format", fmt) if forced else ()
    runs = [
        ("check", session, "--root", root, *chosen),
        ("check", session, "--root", root, "--json", *chosen),
        ("lint", session),
        ("apply", session, "--root", root, "--yes", "--state", state, *chosen),
        ("stats", session, "--root", root),
        *(("export", session, "--root", root, "--format", f) for f in EXPORT_FORMATS),
        ("view", session),
        ("view", session, "--hash", "--range", "2-4"),
    ]
    for argv in runs:
        code, err = _run(*argv)
        assert code in (0, 1, 2), (argv[0], code, err)
        assert "Traceback" not in err, (argv[0], err)
        assert "-failed]" not in err, (argv[0], err)  # a reader's bug, caught: still a bug
    if state.is_file():  # the saved review, mangled, then reopened and reported
        mangled = data.draw(_json_mutation(state.read_text(), lines=False))
        state.write_text(data.draw(_text_mutation(mangled)) if data.draw(st.booleans())
                         else mangled)
        for argv in [("apply", session, "--root", root, "--yes", "--state", state, *chosen),
                     ("stats", session, "--root", root),
                     ("export", session, "--root", root, "--format", "json")]:
            code, err = _run(*argv)
            assert code in (0, 1, 2), (argv[0], code, err)
            assert "Traceback" not in err, (argv[0], err)
        assert "-failed]" not in err, (argv[0], err)  # a reader's bug, caught: still a bug


# -- what the fuzz found, kept as plain regressions -----------------------------------------


def test_found_a_claude_line_whose_type_is_not_a_string(arena) -> None:
    """Format detection looked ``type`` up in a set: a list raised TypeError, uncaught."""
    name, text = SEEDS["claude"]
    session = arena.work / name
    session.write_text(text.replace('"type": "summary"', '"type": []', 1))
    code, err = _run("check", session, "--root", arena.root)
    assert (code, err) == (1, "")  # read as Claude Code: its edits fail on an empty root
