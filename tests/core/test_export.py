"""Exports, pure: the patch text, the report, canonical replies and their round trip."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from reviewtui.core.engine import Decision, OpKey, Policy, evaluate_session, file_text_for
from reviewtui.core.export import Accepted, export_patch, render
from reviewtui.core.export.fileops import canonical_session, minimal_edits
from reviewtui.core.export.patch import unified_patch
from reviewtui.core.export.report import report_json, report_markdown
from reviewtui.core.importers.gitbinary import blob_id, read_hunk
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.lint.tokens import apply_edits
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def tree(files: Mapping[str, bytes | str], modes: Mapping[str, int] | None = None) -> Tree:
    modes = modes or {}
    return Tree.from_files({
        path: FileState.from_bytes(data.encode() if isinstance(data, str) else data,
                                   mode=modes.get(path, 0o644))
        for path, data in files.items()})


def accepted(text: str, base: Tree, decisions: Mapping[OpKey, Decision] | None = None
             ) -> Accepted:
    session = parse_session(text, "session.md")
    if decisions is None:
        run = evaluate_session(session, base, policy=Policy.headless())
        return Accepted.of(run, "session.md")
    run = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    return Accepted.of(run, "session.md", reviewed=True, state="session.md.review.json")


def replay(text: str, base: Tree) -> list[Tree]:
    run = evaluate_session(parse_session(text, "canonical.md"), base, policy=Policy.headless())
    return run.checkpoints


TWO_TURNS = """\
# Session: demo

## Turn 1
> Rename the helper module and use it.

```console
:mv util.py helpers.py
```

--- File: app.py ---
<<<<<<< SEARCH
from util import greet
=======
from helpers import greet
>>>>>>> REPLACE

### Changed files:
- helpers.py (moved from util.py)
- app.py

## Turn 2
> Drop the old notes, add a changelog, make the script executable-friendly.

```console
:rm notes.txt
```

--- File: CHANGELOG.md ---
```markdown
# Changelog
- helpers
```

--- File: run.sh ---
<<<<<<< SEARCH
echo hi
=======
echo hello
>>>>>>> REPLACE

### Changed files:
- notes.txt (deleted)
- CHANGELOG.md (new)
- run.sh
"""

BASE = {
    "app.py": "from util import greet\n\nprint(greet())\n",
    "util.py": "def greet():\n    return 'hi'\n",
    "notes.txt": "old notes\n",
    "run.sh": "#!/bin/sh\necho hi\n",
}


def two_turns() -> Accepted:
    return accepted(TWO_TURNS, tree(BASE, {"run.sh": 0o755}))


# -- patch ---------------------------------------------------------------------------------


def test_patch_has_renames_deletions_new_files_and_modes() -> None:
    patch = export_patch(two_turns())
    assert patch.startswith("reviewtui export of session.md")
    assert ("diff --git a/util.py b/helpers.py\nsimilarity index 100%\n"
            "rename from util.py\nrename to helpers.py\n") in patch
    assert "diff --git a/notes.txt b/notes.txt\ndeleted file mode 100644\n" in patch
    assert "-old notes\n" in patch
    assert ("diff --git a/CHANGELOG.md b/CHANGELOG.md\nnew file mode 100644\n"
            "--- /dev/null\n+++ b/CHANGELOG.md\n@@ -0,0 +1,2 @@\n+# Changelog\n") in patch
    assert "--- a/run.sh\n+++ b/run.sh\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo hi\n+echo hello\n" \
        in patch
    headers = [line for line in patch.splitlines() if line.startswith("diff --git")]
    assert headers == sorted(headers, key=lambda h: h.rsplit(" b/", 1)[1])


def test_patch_marks_missing_final_newlines_and_keeps_crlf_and_bom() -> None:
    base = tree({"a.txt": "one\ntwo", "w.ps1": b"\xef\xbb\xbfone\r\ntwo\r\n"})
    result = tree({"a.txt": "one\n2", "w.ps1": b"\xef\xbb\xbfone\r\n2\r\n"})
    patch = unified_patch(base, result)
    assert "-two\n\\ No newline at end of file\n+2\n\\ No newline at end of file\n" in patch
    assert " \ufeffone\r\n-two\r\n+2\r\n" in patch


def test_patch_adds_and_drops_the_final_newline() -> None:
    patch = unified_patch(tree({"a": "x"}), tree({"a": "x\n"}))
    assert "@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n" in patch


def test_mode_change_and_empty_files() -> None:
    base = tree({"s.sh": "echo\n", "gone": ""})
    result = tree({"s.sh": "echo\n", "new": ""}, {"s.sh": 0o755})
    patch = unified_patch(base, result)
    assert "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n" in patch
    assert "diff --git a/gone b/gone\ndeleted file mode 100644\n" in patch
    assert "diff --git a/new b/new\nnew file mode 100644\n" in patch
    assert "---" not in patch


def test_binary_content_is_written_in_gits_binary_form_and_moves_are_kept() -> None:
    base = tree({"logo.png": PNG, "icon.png": PNG + b"1", "a.txt": "a\n"})
    result = tree({"img/logo.png": PNG, "icon.png": PNG + b"2", "a.txt": "b\n"})
    patch = unified_patch(base, result, {"img/logo.png": "logo.png"}, notes=["note one"])
    head, _, body = patch.partition("diff --git")
    assert head == "note one\n\n"
    assert "rename from logo.png\nrename to img/logo.png\n" in body
    icon = body[body.index("a/icon.png"):]
    assert f"index {blob_id(PNG + b'1')}..{blob_id(PNG + b'2')}\nGIT binary patch\n" in icon
    # The literal hunks decode back to the exact bytes, forward and reverse.
    lines = icon.splitlines()
    start = lines.index("GIT binary patch") + 1
    forward = read_hunk(lines, start)
    assert forward.data == PNG + b"2"


def test_unusual_names_are_quoted_like_git() -> None:
    patch = unified_patch(tree({}), tree({'na"me\u00e9.txt': "x\n", "my file.txt": "y\n"}))
    assert 'diff --git "a/na\\"me\\303\\251.txt" "b/na\\"me\\303\\251.txt"' in patch
    assert "+++ b/my file.txt\n" in patch


def test_moves_follow_the_commands_across_turns_and_undo() -> None:
    text = """\
## Turn 1
> move

```console
:mv a.py b.py
:rm c.py
```

### Changed files:
- b.py (moved from a.py)
- c.py (deleted)

## Turn 2
> move again, then restore c.py

```console
:mv b.py pkg/b.py
:unrm c.py
```

### Changed files:
- pkg/b.py (moved from b.py)
- c.py (restored)
"""
    patch = export_patch(accepted(text, tree({"a.py": "a\n", "c.py": "c\n"})))
    assert "rename from a.py\nrename to pkg/b.py\n" in patch
    assert "c.py" not in patch.split("\n\n", 1)[1]


# -- report --------------------------------------------------------------------------------

FAILING = """\
# Session: failures

## Turn 1
> Two edits, one misses.

Sure, here you go!

--- File: app.py ---
Edit 1
<<<<<<< SEARCH
print(greet())
=======
print(greet().upper())
>>>>>>> REPLACE

Edit 2
<<<<<<< SEARCH
nothing like this
=======
x
>>>>>>> REPLACE

### Changed files:
- app.py
"""


def test_json_report_has_decisions_statuses_findings_and_totals() -> None:
    doc = report_json(accepted(FAILING, tree(BASE)))
    assert (doc["format"], doc["decisions"], doc["state"]) == ("reviewtui-export", "apply", None)
    turn = doc["turns"][0]
    first, second = turn["ops"]
    assert (first["decision"], first["status"], first["method"], first["landed"]) == (
        "accepted", "applied", "exact", True)
    assert (second["decision"], second["status"], second["landed"]) == (
        "not applied", "not_found", False)
    assert [f["rule"] for f in turn["findings"]] == ["preamble"]
    assert turn["ledger"] == ["edit app.py #1 exact 3-3 r0->r1"]
    assert doc["totals"] == {
        "turns": 1, "operations": 2, "landed": 1, "failed": 1,
        "by_status": {"applied": 1, "not_found": 1},
        "by_decision": {"accepted": 1, "failed": 1},
        "findings": {"warning": 2}, "files": {"added": 0, "changed": 1, "removed": 0}}
    assert doc["files"] == [{"path": "app.py", "change": "changed", "from": "app.py",
                             "binary": False}]
    json.dumps(doc)  # plain data


def test_markdown_report_sections() -> None:
    text = report_markdown(accepted(FAILING, tree(BASE)))
    assert text.startswith("# Review report: failures\n")
    assert "| 1 | app.py · Edit 1 | accepted | applied | exact | 3-3 |" in text
    assert "| 2 | app.py · Edit 2 | not applied | not_found |  |  |" in text
    assert "> Two edits, one misses." in text
    assert "lint `preamble` (warning, line 6)" in text
    assert "## Operation ledger" in text
    assert "turn 1: edit app.py #1 exact 3-3 r0->r1" in text
    assert "| applied | 1 |" in text
    assert "| not_found | 1 |" in text


def test_reviewed_decisions_are_reported_and_shape_the_result() -> None:
    decisions = {(1, 0): Decision.accept(), (1, 1): Decision.reject(),
                 (2, 0): Decision.reject()}
    result = accepted(TWO_TURNS, tree(BASE), decisions)
    doc = report_json(result)
    labels = [[op["decision"] for op in t["ops"]] for t in doc["turns"]]
    assert labels == [["accepted", "rejected"], ["rejected", "pending", "pending"]]
    assert doc["decisions"] == "review"
    patch = export_patch(result)
    assert "rename to helpers.py" in patch
    assert "notes.txt" not in patch.split("\n\n", 1)[1]
    assert "from util import greet" not in patch  # the rejected import edit


def test_render_dispatches_and_refuses_unknown_formats() -> None:
    result = two_turns()
    assert json.loads(render(result, "json"))["title"] == "demo"
    assert render(result, "markdown").startswith("# Review report")
    assert render(result, "patch").startswith("reviewtui export")
    assert render(result, "fileops").startswith("# Session: demo")
    with pytest.raises(ValueError, match="unknown export format"):
        render(result, "html")


# -- canonical replies -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["a", "b", "c"], ["a", "B", "c"]),
        (["x", "y", "x", "y", "z"], ["x", "y", "x", "Y", "z"]),
        (["a", "b"], ["a", "new", "b"]),
        (["a", "b", "c", "d", "e", "f", "g"], ["A", "b", "c", "d", "e", "f", "G"]),
        (["a", "b", "c"], ["a", "c"]),
        ([f"line {n}" for n in range(40)], [f"line {n}" for n in range(40) if n % 9]),
    ],
)
def test_minimal_edits_apply_to_the_new_text(old: list[str], new: list[str]) -> None:
    edits = minimal_edits(old, new)
    assert edits is not None
    assert apply_edits(old, edits) == new
    for search, _ in edits:
        assert 1 <= len(search) <= 12


def test_minimal_edits_use_the_shortest_unique_anchor() -> None:
    old = ["}", "}", "x = 1", "}", "}"]
    (edit,) = minimal_edits(old, ["}", "}", "x = 2", "}", "}"]) or ()
    assert edit == (("x = 1",), ("x = 2",))
    (insert,) = minimal_edits(["a", "b", "c"], ["a", "b", "new", "c"]) or ()
    assert insert == (("b",), ("b", "new"))


def test_minimal_edits_split_far_changes_and_give_up_without_an_anchor() -> None:
    old = ["a", "b", "c", "d", "e"]
    edits = minimal_edits(old, ["A", "b", "c", "d", "E"])
    assert edits is not None
    assert len(edits) == 2
    assert minimal_edits(["x"] * 30, ["x"] * 14 + ["y"] + ["x"] * 15) is None


def test_canonical_session_round_trips_and_is_lint_clean() -> None:
    result = two_turns()
    text = canonical_session(result)
    assert "## Turn 1 (~" in text
    assert "```console\n:mv util.py helpers.py\n```" in text
    assert "- CHANGELOG.md (new)" in text
    assert "- notes.txt (deleted)" in text
    assert replay(text, result.base) == result.run.checkpoints
    session = parse_session(text, "canonical.md")
    run = evaluate_session(session, result.base, policy=Policy.headless())
    assert lint_session(session, file_text_for(run)) == []


def test_canonical_session_prefers_a_full_file_past_70_percent() -> None:
    text = """\
## Turn 1
> rewrite

--- File: c.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

### Changed files:
- c.py
"""
    result = accepted(text, tree({"c.py": "x = 1\n"}))
    out = canonical_session(result)
    assert "--- File: c.py ---\n```\nx = 2\n```\n" in out
    assert replay(out, result.base) == result.run.checkpoints


def test_canonical_session_keeps_a_change_longer_than_twelve_lines_as_an_edit() -> None:
    """A change of 14 lines needs a SEARCH of 14: past the 12-line limit, it was re-sent as
    the whole 120-line file, 3.5x the cost, which the export's own lint then flagged as
    full-file-too-costly (found by helper-73 on a session and on Aider's history)."""
    old = "".join(f"line_{n} = {n}\n" for n in range(1, 121))
    search = "".join(f"line_{n} = {n}\n" for n in range(50, 64))
    replace = "".join(f"line_{n} = 10 * {n}\n" for n in range(50, 64))
    text = (f"## Turn 1\n> scale\n\n--- File: data.py ---\n<<<<<<< SEARCH\n{search}"
            f"=======\n{replace}>>>>>>> REPLACE\n\n### Changed files:\n- data.py\n")
    result = accepted(text, tree({"data.py": old}))
    out = canonical_session(result)
    assert "<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE" in out
    assert "line_1 = 1" not in out  # not the whole file
    assert replay(out, result.base) == result.run.checkpoints
    session = parse_session(out, "canonical.md")
    run = evaluate_session(session, result.base, policy=Policy.headless())
    assert "full-file-too-costly" not in {f.rule for f in lint_session(session,
                                                                       file_text_for(run))}


def test_canonical_session_keeps_conventions_and_drops_an_undone_pair() -> None:
    text = """\
## Turn 1
> edit a CRLF file without a final newline, and change your mind about a rename

```console
:rn legacy modern
:undo
```

--- File: w.json ---
<<<<<<< SEARCH
  "a": 1
=======
  "a": 2
>>>>>>> REPLACE

### Changed files:
- w.json
"""
    data = b"\xef\xbb\xbf{\r\n  \"a\": 1\r\n}"
    result = accepted(text, tree({"w.json": data, "legacy.py": "x\n"}))
    assert result.result.get("w.json") == FileState.from_bytes(data.replace(b"1", b"2"))
    out = canonical_session(result)
    assert ":rn" not in out
    assert ":undo" not in out
    assert "Not reproduced" not in out
    assert replay(out, result.base) == result.run.checkpoints


def test_canonical_session_of_failed_turns_sends_nothing() -> None:
    out = canonical_session(accepted(FAILING, tree(BASE)))
    assert "Edit 2" not in out
    assert "nothing like this" not in out
    assert "print(greet().upper())" in out
    text = """\
## Turn 1
> fails

--- File: app.py ---
<<<<<<< SEARCH
absent
=======
x
>>>>>>> REPLACE

### Changed files:
- app.py
"""
    assert "## Turn 1 (nothing to send)\n> fails\n" in canonical_session(
        accepted(text, tree(BASE)))


def test_canonical_session_carries_lines_that_look_like_the_protocol() -> None:
    """Fences, turn headings and edit markers inside files survive the round trip."""
    doc = "# Notes\n\n## Turn 2\n\nTitle\n=======\n\nbody\n"
    text = """\
## Turn 1
> Add a usage file and fix the notes.

--- File: USAGE.md ---
````markdown
Run:
```sh
make demo
```
````

--- File: notes.md ---
<<<<<<< SEARCH
body
=======
the body
>>>>>>> REPLACE

### Changed files:
- USAGE.md (new)
- notes.md

## Turn 2
> Underline the title properly and renumber the heading.

--- File: notes.md ---
```markdown
# Notes

## Turn 3

Title
=====

the body
```

### Changed files:
- notes.md
"""
    result = accepted(text, tree({"notes.md": doc}))
    assert result.result.get("notes.md") == FileState.from_bytes(
        b"# Notes\n\n## Turn 3\n\nTitle\n=====\n\nthe body\n")
    out = canonical_session(result)
    assert "````\nRun:\n```sh\nmake demo\n```\n````" in out
    assert "Not reproduced" not in out
    assert replay(out, result.base) == result.run.checkpoints


def test_canonical_session_fences_a_file_holding_a_divider_and_a_replace_marker_with_four() -> None:
    """Such content in a fence of three is read as an edit that lost its SEARCH line, never
    written (QA s47 helper-154 M3): the export fences it with four backticks."""
    text = """\
## Turn 1
> document the markers

--- File: docs/format.md ---
````markdown
An edit ends with:
=======
new lines
>>>>>>> REPLACE
````

### Changed files:
- docs/format.md (new)
"""
    result = accepted(text, tree({}))
    out = canonical_session(result)
    assert "````\nAn edit ends with:\n=======\nnew lines\n>>>>>>> REPLACE\n````" in out
    assert replay(out, result.base) == result.run.checkpoints
