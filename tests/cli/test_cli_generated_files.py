"""Built-in generated files are pointed out, not refused (issue 14, item 7).

Real commits update ``uv.lock`` and ``Gemfile.lock`` with their manifests; a replay of such
a diff must write them. Only the project's own ``[reserved] paths`` refuse; ``--strict``
leaves generated files pending and says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main

LOCK = 'version = 1\n\n[[package]]\nname = "click"\nversion = "8.1.7"\n'
DIFF = """\
diff --git a/uv.lock b/uv.lock
--- a/uv.lock
+++ b/uv.lock
@@ -3,3 +3,3 @@
 [[package]]
 name = "click"
-version = "8.1.7"
+version = "8.1.8"
diff --git a/Gemfile.lock b/Gemfile.lock
--- a/Gemfile.lock
+++ b/Gemfile.lock
@@ -1,2 +1,2 @@
 GEM
-    rake (13.0.6)
+    rake (13.1.0)
"""


def _project(tmp_path: Path, reserved: str = "") -> tuple[Path, Path]:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "uv.lock").write_text(LOCK)
    (root / "Gemfile.lock").write_text("GEM\n    rake (13.0.6)\n")
    if reserved:
        (root / "reviewtui.toml").write_text(f'[reserved]\npaths = ["{reserved}"]\n')
    session = tmp_path / "change.diff"
    session.write_text(DIFF)
    return session, root


def test_a_lockfile_diff_is_written_and_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _project(tmp_path)
    assert main(["apply", str(session), "--root", str(root), "--yes", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ops = doc["turns"][0]["ops"]
    assert [op["status"] for op in ops] == ["applied", "applied"]
    assert all("generated file" in op["hint"] for op in ops)
    assert 'version = "8.1.8"' in (root / "uv.lock").read_text()
    assert (root / "Gemfile.lock").read_text() == "GEM\n    rake (13.1.0)\n"
    main(["check", str(session), "--root", str(root), "--json"])
    checked = json.loads(capsys.readouterr().out)
    rules = [f["rule"] for t in checked["turns"] for f in t["findings"]]
    assert rules.count("generated-file") == 2


def test_a_project_reservation_still_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _project(tmp_path, reserved="uv.lock")
    assert main(["apply", str(session), "--root", str(root), "--yes", "--json"]) == 1
    ops = json.loads(capsys.readouterr().out)["turns"][0]["ops"]
    assert [(op["status"], op.get("rule", "")) for op in ops] == [
        ("refused", "reserved"), ("applied", "")]
    assert (root / "uv.lock").read_text() == LOCK


def test_strict_leaves_generated_files_pending_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _project(tmp_path)
    code = main(["apply", str(session), "--root", str(root), "--yes", "--strict"])
    out = capsys.readouterr().out
    assert code == 1
    assert (root / "uv.lock").read_text() == LOCK
    assert "0 of 2 operations applied" in out
    assert "--strict left pending 2 writing generated files" in out
