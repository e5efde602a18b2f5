"""The headless commands: output formats, exit codes, and clean errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reviewtui.cli import main

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"

FAILING = """\
# Session: failures

## Turn 1
> break things

Sure, here you go!

--- File: app.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

--- File: gone.py ---
<<<<<<< SEARCH
nothing here
=======
something
>>>>>>> REPLACE

### Changed files:
- app.py
"""


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "project"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_check_workshop_tour_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["check", str(TOUR)], capsys)
    assert code == 0, out + err
    assert "turn 1 greeter/core.py · Edit 1: applied (exact)" in out
    assert "turn 5 :undo: applied" in out
    assert out.strip().endswith("0 lint findings")


def test_check_json_carries_the_parse_and_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["check", str(TOUR), "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["session"].endswith("session.md")
    assert doc["title"] == "Workshop tour of the File Ops Protocol"
    first = doc["turns"][0]
    assert first["index"] == 1
    assert first["request"].startswith("Fix the typo")
    (op,) = first["ops"]
    assert op["kind"] == "edit"
    assert op["path"] == "greeter/core.py"
    assert op["edit"] == 1
    assert op["search"] == '    return f"Helo, {name}!"\n'
    assert op["replace"] == '    return f"Hello, {name}!"\n'
    assert (op["status"], op["method"], op["lines"]) == ("applied", "exact", [8, 8])
    console = doc["turns"][1]["ops"][0]
    assert (console["kind"], console["command"]) == ("console", ":mv greeter/core.py "
                                                     "greeter/greeting.py")
    assert doc["turns"][3]["ops"][1]["content"].startswith("# Changelog\n")
    assert doc["turns"][2]["need"] == ["greeter/config.py"]


def test_check_reports_failures_and_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "s.md"
    session.write_text(FAILING)
    root = project(tmp_path, {"app.py": "x = 1\ny = 2\nx = 1\n"})
    code, out, _ = run_cli(["check", str(session), "--root", str(root)], capsys)
    assert code == 1
    assert f"{session}:6: preamble warning" in out
    assert f"{session}:9: turn 1 app.py · Edit 1: ambiguous" in out
    assert "gone.py · Edit 1: not_found" in out
    doc_code, doc_out, _ = run_cli(["check", str(session), "--root", str(root), "--json"],
                                   capsys)
    doc = json.loads(doc_out)
    assert doc_code == 1
    ops = doc["turns"][0]["ops"]
    assert ops[0]["locations"] == [[1, 1], [3, 3]]
    assert ops[1]["status"] == "not_found"
    assert {f["rule"] for f in doc["turns"][0]["findings"]} >= {"preamble"}


def test_lint_single_reply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reply = tmp_path / "reply.md"
    reply.write_text("Here is the fix.\n--- File: /abs/app.py ---\nx\n")
    code, out, _ = run_cli(["lint", str(reply)], capsys)
    assert code == 1
    assert f"{reply}:1: " in out
    assert "absolute-path" in out
    clean = tmp_path / "clean.md"
    clean.write_text("--- File: a.py ---\n```python\nx = 1\n```\n### Changed files:\n- a.py\n")
    assert run_cli(["lint", str(clean)], capsys)[0] == 0


@pytest.mark.parametrize(
    ("files", "args_tail", "needle"),
    [
        ({}, ["check", "{tmp}/missing.md"], "missing.md: no such file or directory"),
        ({"bad.json": '[{"role": "user",'}, ["check", "{tmp}/bad.json"],
         "bad.json:1: not valid JSON"),
        ({"s.md": "## Turn 1\n"}, ["apply", "{tmp}/s.md"], "pass --yes"),
        ({"s.md": "## Turn 1\n"}, ["apply", "{tmp}/s.md", "--yes"], "no --root given"),
        ({"s.md": "## Turn 1\n", "p/x": ""},
         ["apply", "{tmp}/s.md", "--yes", "--root", "{tmp}/p", "--turns", "2-3"], "outside 1-1"),
        ({"s.md": "## Turn 1\n", "p/reviewtui.toml": "[reserved\n"},
         ["check", "{tmp}/s.md", "--root", "{tmp}/p"], "reviewtui.toml:1: not valid TOML"),
        ({"s.md": "## Turn 1\n"}, ["check", "{tmp}/s.md", "--root", "{tmp}/nope"],
         "project root is not a directory"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str],
    args_tail: list[str], needle: str,
) -> None:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    code, out, err = run_cli([a.replace("{tmp}", str(tmp_path)) for a in args_tail], capsys)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err + out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["check"])
    assert info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_apply_writes_the_root_and_reports(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "proj"
    shutil.copytree(TOUR / "base", root)
    code, out, _ = run_cli(["apply", str(TOUR), "--root", str(root), "--yes"], capsys)
    assert code == 0, out
    assert "12 of 12 operations applied" in out
    assert not (root / "greeter/core.py").exists()
    greeting = (root / "greeter/greeting.py").read_text()
    assert 'return f"Hello, {name}!"' in greeting
    assert (root / "CHANGELOG.md").read_text().startswith("# Changelog")
    assert (root / "notes/scratch.tmp").read_text() == "scratch notes from the last call\n"
    assert not (root / "notes/output.tmp").exists()
    assert (root / "greeter/legacy_format.py").exists()


def test_open_without_root_says_where_the_scratch_review_is_and_that_it_is_not_resumed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A scratch review is kept but the next open starts a fresh copy: the exit line says
    both, so a half-done review is not taken for one saved beside the session."""
    from reviewtui.ui.app import ReviewApp

    monkeypatch.setattr(ReviewApp, "run", lambda self, **kwargs: None)  # quit at once
    code, out, _ = run_cli(["open", str(TOUR), "--no-watch"], capsys)
    assert code == 0
    line = out.strip().splitlines()[-1]
    assert line.startswith("reviewed on a scratch copy: ")
    scratch = Path(line.split(": ", 1)[1].split(" (", 1)[0])
    try:
        assert (scratch / "greeter").is_dir()
        assert "opening the session again starts a fresh copy" in line
        assert "--root DIR" in line
    finally:
        shutil.rmtree(scratch)
        scratch.with_name(scratch.name + ".review.json").unlink(missing_ok=True)
        shutil.rmtree(scratch.with_name(scratch.name + ".review.blobs"), ignore_errors=True)


def test_a_dry_run_without_root_leaves_no_scratch_copy(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A dry run never writes: its scratch copy is only base/, and it is removed at exit
    (they piled up in /tmp, one per dry run: found by helper-72)."""
    from reviewtui.ui.app import ReviewApp

    roots: list[Path] = []
    monkeypatch.setattr(ReviewApp, "run", lambda self, **kwargs: roots.append(self.review.root))
    code, out, _ = run_cli(["open", str(TOUR), "--no-watch", "--dry-run"], capsys)
    assert code == 0
    assert len(roots) == 1
    assert roots[0] != TOUR / "base"
    assert not roots[0].exists()
    assert "scratch copy" not in out
    assert (TOUR / "base" / "greeter").is_dir()  # the session's own base/ is untouched


def test_apply_without_root_uses_a_scratch_copy(capsys: pytest.CaptureFixture[str]) -> None:
    before = {p: p.read_bytes() for p in (TOUR / "base").rglob("*") if p.is_file()}
    code, out, _ = run_cli(["apply", str(TOUR), "--yes", "--turns", "1-2"], capsys)
    assert code == 0
    scratch = Path(out.split("scratch copy of ", 1)[1].split(": ", 1)[1].splitlines()[0])
    try:
        assert (scratch / "greeter/greeting.py").exists()
        assert not (scratch / "CHANGELOG.md").exists()  # turn 4 was not asked for
        after = {p: p.read_bytes() for p in (TOUR / "base").rglob("*") if p.is_file()}
        assert after == before
    finally:
        shutil.rmtree(scratch)


def test_apply_skips_what_does_not_apply_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "s.md"
    session.write_text(FAILING)
    root = project(tmp_path, {"app.py": "x = 1\ny = 2\nx = 1\n"})
    code, out, _ = run_cli(["apply", str(session), "--root", str(root), "--yes"], capsys)
    assert code == 1
    assert "ambiguous" in out
    assert "not_found" in out
    assert "0 of 2 operations applied" in out
    assert (root / "app.py").read_text() == "x = 1\ny = 2\nx = 1\n"


def test_scratch_review_never_touches_the_sample() -> None:
    from reviewtui.core.engine import Decision
    from reviewtui.shell.review import Review

    before = sorted(str(p.relative_to(TOUR)) for p in TOUR.rglob("*"))
    with Review.open(TOUR) as review:
        assert review.scratch
        review.decide((1, 0), Decision.accept())
        root = review.root
        assert 'Hello, {name}' in (root / "greeter/core.py").read_text()
    after = sorted(str(p.relative_to(TOUR)) for p in TOUR.rglob("*"))
    assert after == before
    shutil.rmtree(root)
    root.with_name(root.name + ".review.json").unlink()


def test_session_path_alone_means_open(monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewtui import cli
    from reviewtui.cli import workbench

    seen: dict[str, object] = {}

    def fake_open(args: object) -> int:
        seen["args"] = args
        return 0

    monkeypatch.setattr(workbench, "open_workbench", fake_open)
    assert cli.main([str(TOUR), "--dry-run"]) == 0
    args = seen["args"]
    assert args.session == str(TOUR)
    assert args.dry_run is True


def test_apply_of_a_saved_reply_without_a_heading_applies_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A model's reply saved as it came, no ``## Turn`` heading: its edit used to be read
    as metadata and dropped, ``0 of 0 operations applied``, exit 0, the file unchanged."""
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    reply = tmp_path / "reply.md"
    reply.write_text("--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n"
                     ">>>>>>> REPLACE\n\n### Changed files:\n- a.py\n")
    assert main(["apply", "--yes", "--root", str(tmp_path), str(reply)]) == 0
    assert "1 of 1 operation applied" in capsys.readouterr().out
    assert (tmp_path / "a.py").read_text() == "x = 3\ny = 2\n"


def test_apply_of_a_file_of_no_turns_says_so_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("Just notes about the project, no reply in them.\n")
    assert main(["apply", "--yes", "--root", str(tmp_path), str(notes)]) == 1
    out = capsys.readouterr().out
    assert f"{notes}: no turns in it, so nothing to apply" in out
    assert "0 of 0 operations applied" in out


def test_apply_of_later_turns_alone_writes_them_over_the_earlier_ones_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--turns 4`` of the failure gallery: turn 4's edit lands on the files as turns 1-3
    left them, which is the base (none of them applied). It exited 2 with the workbench's
    "cannot accept an operation that is not found": that check read the workbench's view,
    where the pending turns 1-3 are shown as landed (QA pass 84c)."""
    gallery = REPO / "sample_sessions" / "failure-gallery"
    root = tmp_path / "root"
    shutil.copytree(gallery / "base", root)
    tagger = root / "lib" / "bookmarks" / "tagger.rb"
    before = tagger.read_text()
    assert main(["apply", str(gallery), "--root", str(root), "--yes", "--turns", "4"]) == 0
    out = capsys.readouterr().out
    assert "1 of 1 operation applied; 1 file written" in out
    assert "not_found" not in out
    old = 'gsub(/\\s+/, "-")'
    assert tagger.read_text() == before.replace(old, old + '.squeeze("-")')
