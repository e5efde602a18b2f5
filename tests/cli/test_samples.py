"""The sample sessions: ``apply`` reproduces each ``expected/``, ``check`` shows the design.

Every sample's ``expected/`` is the project after accepting every operation that applies
(what ``reviewtui apply SAMPLE --yes`` writes). The comparison is byte for byte and covers
the files, the folders and the executable bit. The ``check --json`` tests pin what each
sample was written to show, so an engine change that alters a sample's story fails here
rather than in front of a workshop.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_sessions"
NAMES = ("workshop-tour", "validation-message", "formatter-churn", "refactor-multi-turn",
         "failure-gallery", "windows-conventions", "edit-shapes")
# Samples whose design includes operations that do not apply: apply exits with 1.
WITH_FAILURES = frozenset({"formatter-churn", "failure-gallery", "edit-shapes"})

Snapshot = tuple[dict[str, tuple[bytes, bool]], set[str]]


def snapshot(root: Path) -> Snapshot:
    """(file -> (bytes, executable), folders), relative POSIX paths."""
    files: dict[str, tuple[bytes, bool]] = {}
    folders: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        folders.update((base / name).relative_to(root).as_posix() for name in dirnames)
        for name in filenames:
            full = base / name
            executable = bool(stat.S_IMODE(full.stat().st_mode) & 0o111)
            files[full.relative_to(root).as_posix()] = (full.read_bytes(), executable)
    return files, folders


def check_json(name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main(["check", str(SAMPLES / name), "--json"])
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def statuses(doc: dict[str, Any]) -> list[list[str]]:
    return [[op["status"] for op in turn["ops"]] for turn in doc["turns"]]


def op(doc: dict[str, Any], turn: int, position: int) -> dict[str, Any]:
    found: dict[str, Any] = doc["turns"][turn - 1]["ops"][position - 1]
    return found


def lint_rules(doc: dict[str, Any]) -> list[str]:
    rules = [f["rule"] for f in doc["findings"]]
    rules += [f["rule"] for turn in doc["turns"] for f in turn["findings"]]
    return sorted(rules)


def test_every_sample_folder_is_listed() -> None:
    folders = {p.name for p in SAMPLES.iterdir() if p.is_dir()}
    assert folders == set(NAMES)
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"| `{name}` |" in readme


@pytest.mark.parametrize("name", NAMES)
def test_apply_reproduces_expected(name: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    sample = SAMPLES / name
    root = tmp_path / "project"
    shutil.copytree(sample / "base", root, symlinks=True)
    code = main(["apply", str(sample), "--root", str(root), "--yes"])
    capsys.readouterr()
    assert code == (1 if name in WITH_FAILURES else 0)
    got_files, got_folders = snapshot(root)
    want_files, want_folders = snapshot(sample / "expected")
    assert sorted(got_files) == sorted(want_files)
    for path, (data, executable) in want_files.items():
        assert got_files[path][0] == data, f"{name}: {path} differs from expected/"
        assert got_files[path][1] == executable, f"{name}: {path} exec bit"
    assert got_folders == want_folders


def test_workshop_tour(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("workshop-tour", capsys)
    assert statuses(doc) == [["applied"], ["applied"] * 4, ["applied"] * 2,
                             ["applied"] * 2, ["applied"] * 3]
    assert doc["turns"][2]["need"] == ["greeter/config.py"]
    assert lint_rules(doc) == []


def test_validation_message_is_one_small_edit(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("validation-message", capsys)
    assert statuses(doc) == [["applied"]]
    edit = op(doc, 1, 1)
    assert (edit["kind"], edit["path"], edit["method"]) == ("edit", "js/signup.js", "exact")
    assert edit["search"].count("\n") == 1
    base = SAMPLES / "validation-message" / "base"
    lines = sum(len(p.read_text(encoding="utf-8").splitlines())
                for p in base.rglob("*") if p.is_file())
    assert 550 <= lines <= 750  # "a ~600-line app"
    assert lint_rules(doc) == []


def test_formatter_churn(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("formatter-churn", capsys)
    assert statuses(doc) == [
        ["applied"],
        ["applied", "applied", "applied"],
        ["not_found", "applied", "applied", "applied", "applied"],
        ["applied"],
        ["not_found"],
        ["applied"],
    ]
    assert op(doc, 1, 1)["method"] == "tabs-spaces"  # typed with spaces, written with tabs
    stale = op(doc, 3, 1)
    assert stale["candidates"][0]["diagnosis"] == "probably stale"
    assert "probably stale" in stale["message"]
    closest = op(doc, 5, 1)["candidates"]
    assert len(closest) >= 2
    assert closest[0]["diagnosis"] == "content differs"
    assert closest[0]["similarity"] > closest[1]["similarity"]
    expected = SAMPLES / "formatter-churn" / "expected"
    for go in expected.rglob("*.go"):
        text = go.read_text(encoding="utf-8")
        assert not any(line.startswith(" ") for line in text.splitlines()), go
    assert lint_rules(doc) == []


def test_refactor_multi_turn(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("refactor-multi-turn", capsys)
    assert len(doc["turns"]) >= 6
    assert all(status == "applied" for turn in statuses(doc) for status in turn)
    commands = [o["command"] for t in doc["turns"] for o in t["ops"] if o["kind"] == "console"]
    assert commands == [
        ":mv invoicer/render.py invoicer/output/text.py",
        ":rn _legacy _compat",
        ":rm scripts/migrate_*.py",
        ":mv invoicer/totals.py invoicer/pricing.py",
        ":undo",
        ":unrm scripts/migrate_2023.py",
    ]
    assert "invoicer/_compat_csv.py" in op(doc, 2, 1)["message"]
    assert "scripts/migrate_2022.py, scripts/migrate_2023.py" in op(doc, 3, 1)["message"]
    expected = SAMPLES / "refactor-multi-turn" / "expected"
    totals = (expected / "invoicer" / "totals.py").read_text(encoding="utf-8")
    assert 'MAX_DISCOUNT = Decimal("0.50")' in totals  # turn 7 overrides turn 4
    sources = "".join(p.read_text(encoding="utf-8") for p in expected.rglob("*.py"))
    assert "_legacy" not in sources
    assert "invoicer.pricing" not in sources
    assert "invoicer.render" not in sources
    assert lint_rules(doc) == []


GALLERY = [
    # (turn, status, rule or method, words in the message)
    (1, "applied", "exact", "matched"),
    (2, "ambiguous", "", "matches 2 places"),
    (3, "not_found", "", "content differs"),
    (4, "not_found", "", "probably stale"),
    (5, "refused", "duplicate-line", "just above"),
    (6, "refused", "truncation-placeholder", "rest unchanged"),
    (7, "refused", "parent-escape", "leaves the project root"),
    (8, "refused", "reserved", "reserved by"),
    (9, "refused", "binary", "binary file"),
    (10, "needs_review", "near", "near match"),
    (11, "not_found", "needed-file", "Need:"),
    (12, "applied", "exact", "matched"),
]


def test_failure_gallery_one_failure_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("failure-gallery", capsys)
    assert len(doc["turns"]) == len(GALLERY)
    for turn, status, rule, words in GALLERY:
        (found,) = doc["turns"][turn - 1]["ops"]
        assert found["status"] == status, turn
        assert rule in (found.get("rule", ""), found["method"]), (turn, found)
        assert words in found["message"], (turn, found["message"])
    assert len(op(doc, 3, 1)["candidates"]) >= 2
    assert op(doc, 4, 1)["candidates"][0]["diagnosis"] == "probably stale"
    assert doc["turns"][10]["need"] == ["lib/bookmarks/search.rb"]
    # generated-file: the reserved Gemfile.lock is also pointed out as generated (issue 14).
    assert lint_rules(doc) == ["generated-file", "parent-path", "placeholder", "preamble"]
    preamble = next(f for t in doc["turns"] for f in t["findings"] if f["rule"] == "preamble")
    assert preamble["turn"] == 12


def test_windows_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("windows-conventions", capsys)
    assert all(status == "applied" for turn in statuses(doc) for status in turn)
    assert op(doc, 5, 1)["hint"] == "CRLF kept, BOM kept"
    sample = SAMPLES / "windows-conventions"
    for tree in ("base", "expected"):
        root = sample / tree
        for rel in ("Setup.ps1", "global.json", "src/Inventory/Inventory.csproj"):
            assert (root / rel).read_bytes().startswith(b"\xef\xbb\xbf"), (tree, rel)
        for rel in ("Setup.ps1", "global.json", "src/Inventory/Program.cs",
                    "src/Inventory/Settings.cs", "src/Inventory/appsettings.json"):
            data = (root / rel).read_bytes()
            assert data.count(b"\n") == data.count(b"\r\n") > 0, (tree, rel)
        settings = (root / "src/Inventory/appsettings.json").read_bytes()
        assert settings.endswith(b"}")
        assert not settings.endswith(b"\n")
    assert os.access(sample / "base" / "build.sh", os.X_OK), "git lost the exec bit of base/"
    assert os.access(sample / "expected" / "scripts" / "build.sh", os.X_OK)
    assert lint_rules(doc) == []


# edit-shapes: (turn, status, rule or method) — one success and one failure per shape.
SHAPES = [
    (1, "applied", "line-range"),
    (2, "refused", "stale-revision"),
    (3, "refused", "stale-line-id"),
    (4, "applied", "hashline"),
    (5, "applied", "window"),
    (6, "not_found", "window-miss"),
    (7, "applied", "batch"),
    (8, "refused", "batch-conflict"),
    (9, "refused", "duplicate-line"),
]


def test_edit_shapes_one_outcome_per_turn(capsys: pytest.CaptureFixture[str]) -> None:
    doc = check_json("edit-shapes", capsys)
    for turn, status, rule in SHAPES:
        found = op(doc, turn, 1)
        assert found["status"] == status, (turn, found)
        assert rule in (found.get("rule", ""), found["method"]), (turn, found)
    assert "expected revision 9eee3eae" in op(doc, 2, 1)["message"]
    assert "line 21 is now 21:a8" in op(doc, 3, 1)["message"]
    assert [o["status"] for o in doc["turns"][9]["ops"]] == ["applied"] * 3
