"""Project checks: commands from ``reviewtui.toml`` [checks], trusted per file content hash."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.errors import ConfigError
from reviewtui.core.protocol.config import parse_config
from reviewtui.core.review.diagnostics import Diagnostic
from reviewtui.shell.checks import check_change, command_name, matching_checks, parse_output
from reviewtui.shell.trust import is_trusted, trust

# A "linter" printing ruff's JSON for every line with BAD; it first writes its working
# directory into the marker file named by its first argument (proof that it ran, and where).
JSON_LINT = """\
import json, os, sys
marker, path = sys.argv[1], sys.argv[2]
with open(marker, "a") as fh:
    fh.write(os.getcwd() + "\\n")
found = []
for n, line in enumerate(open(path).read().split("\\n"), 1):
    col = line.find("BAD")
    if col >= 0:
        found.append({"filename": os.path.abspath(path), "code": "X100",
                      "message": "bad name", "location": {"row": n, "column": col + 1}})
print(json.dumps(found))
sys.exit(1 if found else 0)
"""

# A "linter" printing path:line:col: message for every TODO.
PLAIN_LINT = """\
import sys
path = sys.argv[1]
for n, line in enumerate(open(path).read().split("\\n"), 1):
    col = line.find("TODO")
    if col >= 0:
        print(f"{path}:{n}:{col + 1}: unfinished work")
"""

SLEEPER = "import time\ntime.sleep(30)\n"

SESSION = """\
# Session: checks

## Turn 1
> name a thing badly

--- File: app.py ---
<<<<<<< SEARCH
x = 1
=======
x = 1
BAD = 2
>>>>>>> REPLACE

### Changed files:
- (above)
"""


@pytest.fixture(autouse=True)
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never touch the real user config: trust lives under tmp."""
    config = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    return config


def command(tmp_path: Path, name: str, source: str, *args: str) -> str:
    script = tmp_path / name
    script.write_text(source)
    words = [sys.executable, str(script), *args]
    return " ".join(shlex.quote(w) for w in words) + " {path}"


def test_json_findings_introduced_versus_already_there(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    cmd = command(tmp_path, "lint_json.py", JSON_LINT, str(marker))
    before = "a = 1\nBAD = 0\n"
    after = "import os\na = 1\nBAD = 0\nc = 3\nx = BAD\n"
    diags = check_change("pkg/mod.py", before, after, cmd)
    assert diags == [
        Diagnostic(3, 1, "X100 bad name", False, "project: lint_json.py"),
        Diagnostic(5, 5, "X100 bad name", True, "project: lint_json.py"),
    ]
    # both versions were checked, each in its own scratch directory, not here
    dirs = marker.read_text().split()
    assert len(dirs) == 2
    assert len(set(dirs)) == 2
    assert all(not Path(d).is_relative_to(tmp_path) for d in dirs)


def test_plain_findings(tmp_path: Path) -> None:
    cmd = command(tmp_path, "lint_plain.py", PLAIN_LINT)
    diags = check_change("notes.txt", "TODO one\n", "first\nTODO one\n  TODO two\n", cmd)
    assert diags == [
        Diagnostic(2, 1, "unfinished work", False, "project: lint_plain.py"),
        Diagnostic(3, 3, "unfinished work", True, "project: lint_plain.py"),
    ]


def test_a_new_file_has_everything_introduced_and_clean_files_nothing(tmp_path: Path) -> None:
    cmd = command(tmp_path, "lint_plain.py", PLAIN_LINT)
    assert [d.introduced for d in check_change("n.txt", None, "TODO\n", cmd)] == [True]
    assert check_change("n.txt", "TODO\n", "done\n", cmd) == []
    assert check_change("n.txt", "TODO\n", None, cmd) == []


def test_a_check_that_times_out_becomes_a_note(tmp_path: Path) -> None:
    cmd = command(tmp_path, "sleeper.py", SLEEPER)
    start = time.monotonic()
    (note,) = check_change("a.py", "x = 1\n", "x = 2\n", cmd, timeout=1)
    assert time.monotonic() - start < 10
    assert note == Diagnostic(0, 0, "check timed out after 1 s", False, "project: sleeper.py")


def test_a_missing_command_becomes_a_note() -> None:
    (note,) = check_change("a.py", None, "x\n", "no-such-linter-xyz --check {path}")
    assert note.message == "command not found: no-such-linter-xyz"
    assert (note.line, note.introduced, note.check) == (0, False, "project: no-such-linter-xyz")


def test_eslint_json_shape() -> None:
    out = json.dumps([{"filePath": "/x/a.js", "messages": [
        {"line": 3, "column": 7, "message": "'y' is not defined.", "ruleId": "no-undef"}]}])
    (found,) = parse_output(out, "") or []
    assert (found.line, found.col, found.code, found.message) == (
        3, 7, "no-undef", "'y' is not defined.")


def test_globs_and_names() -> None:
    checks = (("*.py", "ruff check {path}"), ("web/*.js", "npx eslint -f json {path}"))
    assert matching_checks("src/deep/a.py", checks) == ["ruff check {path}"]
    assert matching_checks("web/a.js", checks) == ["npx eslint -f json {path}"]
    assert matching_checks("a.js", checks) == []
    assert command_name("npx eslint -f json {path}") == "eslint"
    assert command_name("python -m mypy {path}") == "mypy"


def test_config_checks_table() -> None:
    config = parse_config('[checks]\n"*.py" = "ruff check {path}"\n"*.js" = "eslint {path}"\n')
    assert config.checks == (("*.py", "ruff check {path}"), ("*.js", "eslint {path}"))
    assert parse_config("").checks == ()
    for bad in ('checks = "ruff"\n', '[checks]\n"*.py" = 3\n', '[checks]\n"*.py" = ""\n',
                '[checks]\n"*.py" = "ruff \'unclosed"\n', '[checks]\n"" = "ruff"\n'):
        with pytest.raises(ConfigError, match=r"\[checks\]"):
            parse_config(bad)


def test_trust_is_remembered_per_content_hash(user_config: Path) -> None:
    data = b'[checks]\n"*.py" = "ruff check {path}"\n'
    assert not is_trusted(data)
    trust(data, "/p/reviewtui.toml")
    assert is_trusted(data)
    assert not is_trusted(data + b"# changed\n")
    stored = json.loads((user_config / "reviewtui" / "trusted-checks.json").read_text())
    (entry,) = stored["trusted"].values()
    assert entry["source"] == "/p/reviewtui.toml"
    trust(b"other", "/q/reviewtui.toml")  # a second file keeps the first
    assert is_trusted(data)
    assert is_trusted(b"other")


def test_a_corrupt_trust_file_trusts_nothing(user_config: Path) -> None:
    path = user_config / "reviewtui" / "trusted-checks.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert not is_trusted(b"x")
    trust(b"x", "here")
    assert is_trusted(b"x")


def test_headless_check_runs_only_trusted_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "ran"
    cmd = command(tmp_path, "lint_json.py", JSON_LINT, str(marker))
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    config = root / "reviewtui.toml"
    config.write_text(f"[checks]\n{json.dumps('*.py')} = {json.dumps(cmd)}\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    args = ["check", str(session), "--root", str(root)]

    main(args)  # untrusted: nothing runs, one note says how to trust
    out = capsys.readouterr().out
    assert not marker.exists()
    assert "project checks not run" in out
    assert "--trust-checks" in out

    main([*args, "--json", "--trust-checks"])
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert marker.exists()
    (diag,) = [d for d in doc["turns"][0]["ops"][0]["diagnostics"]
               if d["check"] == "project: lint_json.py"]
    assert diag == {"line": 2, "col": 1, "message": "X100 bad name", "introduced": True,
                    "check": "project: lint_json.py"}
    assert (root / "app.py").read_text() == "x = 1\n"  # the reviewer's file untouched

    marker.unlink()
    main(args)  # trusted now: runs without the flag
    out = capsys.readouterr().out
    assert marker.exists()
    assert "project: lint_json.py: app.py:2:1: X100 bad name (introduced" in out

    marker.unlink()
    config.write_text(config.read_text() + "# changed\n")
    main([*args, "--json"])  # a changed file asks again (the note goes to stderr)
    captured = capsys.readouterr()
    assert not marker.exists()
    assert "project checks not run" in captured.err
    json.loads(captured.out)


def test_apply_reports_project_findings_on_what_it_applied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "ran"
    cmd = command(tmp_path, "lint_json.py", JSON_LINT, str(marker))
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    (root / "reviewtui.toml").write_text(f"[checks]\n{json.dumps('*.py')} = {json.dumps(cmd)}\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    args = ["apply", str(session), "--root", str(root), "--yes"]

    assert main(args) == 0  # untrusted: applied, checks not run, one note
    out = capsys.readouterr().out
    assert not marker.exists()
    assert "project checks not run" in out
    assert (root / "app.py").read_text() == "x = 1\nBAD = 2\n"

    (root / "app.py").write_text("x = 1\n")
    assert main([*args, "--trust-checks"]) == 0
    out = capsys.readouterr().out
    assert marker.exists()
    assert "turn 1: project: lint_json.py: app.py:2:1: X100 bad name (introduced" in out
