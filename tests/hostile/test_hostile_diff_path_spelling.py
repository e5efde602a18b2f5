"""Threat: a diff (a crafted commit) names a file that the canonical path spelling would
turn into another, existing one: ``" a.txt"`` (spaces are part of a git name), a
decomposed ``cafe\\u0301.txt`` beside the composed one, ``x/../a.txt`` (a tree entry git
prints that way). Before: each was written under the canonical spelling, overwriting
``a.txt`` or losing one of two files, with exit 0. Now the file's change is not read
(``diff-path-spelling``), the rest of the diff applies, and ``apply`` exits 1.
"""

from __future__ import annotations

import pytest
from disk_threat_kit import Arena

from reviewtui.cli import main
from reviewtui.core.paths.safety import respelled

NFD = "cafe\u0301.txt"
NFC = "caf\u00e9.txt"


def _new_file(path: str, text: str) -> str:
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n"
            f"+++ b/{path}\n@@ -0,0 +1 @@\n+{text}\n")


def _apply(arena: Arena, diff: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    patch = arena.work / "change.diff"
    patch.write_bytes(diff.encode())
    capsys.readouterr()
    code = main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(arena.root)])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("name", [" a.txt", "a.txt ", "d /a.txt", "x/../a.txt"])
def test_a_name_the_canonical_spelling_changes_is_not_written(
        arena: Arena, capsys: pytest.CaptureFixture[str], name: str) -> None:
    (arena.root / "a.txt").write_bytes(b"original a\n")
    code, out = _apply(arena, _new_file(name, "attacker") + _new_file("ok.txt", "fine"),
                       capsys)
    assert code == 1
    assert "diff-path-spelling" in out
    assert repr(name) in out
    assert (arena.root / "a.txt").read_bytes() == b"original a\n"
    assert (arena.root / "ok.txt").read_bytes() == b"fine\n"  # the rest of the diff lands
    assert sorted(p.name for p in arena.root.iterdir()) == ["a.txt", "ok.txt"]


def test_two_unicode_spellings_in_one_diff_lose_neither(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _apply(arena, _new_file(NFC, "composed") + _new_file(NFD, "decomposed"), capsys)
    assert code == 1
    assert "diff-path-spelling" in out
    assert (arena.root / NFC).read_bytes() == b"composed\n"  # not the other's content
    assert not (arena.root / NFD).exists()
    # The two names print alike: said with escapes (QA pass 84b).
    assert "the diff names 'cafe\\u0301.txt', which reviewtui would write as 'caf\\xe9.txt'" in out


@pytest.mark.parametrize(("raw", "canonical"), [
    (" a.txt", "a.txt"), ("trail ", "trail"), ("d /x", "d/x"), (NFD, NFC),
    ("x/../a.txt", "a.txt"), ("a/b/../c", "a/c")])
def test_respelled_names_the_other_file(raw: str, canonical: str) -> None:
    assert respelled(raw) == canonical


@pytest.mark.parametrize("raw", ["src/a.py", "./src//a.py", "a b/c d.txt", NFC, "../x", ""])
def test_the_same_file_or_a_refused_path_is_not_respelled(raw: str) -> None:
    # "./" and "//" name the same file; "../x" and "" are refused by the engine itself.
    assert respelled(raw) is None


# The same names from the other formats that name files exactly (apply_patch, a tool call):
# the engine refuses them as path-spelling (found by the importers' red-team pass).
APPLY_PATCH_ADD = "*** Begin Patch\n*** Add File: {name}\n+attacker\n*** End Patch\n"
APPLY_PATCH_DELETE = "*** Begin Patch\n*** Delete File: {name}\n*** End Patch\n"


@pytest.mark.parametrize(("existing", "name", "template"), [
    ("a.py", " a.py", APPLY_PATCH_ADD), ("sub/a.py", "sub/ a.py", APPLY_PATCH_ADD),
    (NFC, NFD, APPLY_PATCH_ADD), ("sub/a.py", "sub /a.py", APPLY_PATCH_DELETE)])
def test_apply_patch_names_are_exact_too(arena: Arena, capsys: pytest.CaptureFixture[str],
                                         existing: str, name: str, template: str) -> None:
    (arena.root / existing).parent.mkdir(parents=True, exist_ok=True)
    (arena.root / existing).write_bytes(b"keep\n")
    patch = arena.work / "change.patch"
    patch.write_text(template.format(name=name))
    capsys.readouterr()
    code = main(["apply", str(patch), "--format", "apply_patch", "--yes",
                 "--root", str(arena.root)])
    out = capsys.readouterr().out
    assert code == 1
    assert "written as reviewtui spells paths" in out
    assert (arena.root / existing).read_bytes() == b"keep\n"


def test_a_tool_calls_path_is_exact_too(arena: Arena,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    (arena.root / "a.py").write_bytes(b"keep\n")
    session = arena.work / "calls.jsonl"
    session.write_text(json.dumps({"tool": "write", "path": " a.py", "content": "new\n"}) + "\n")
    capsys.readouterr()
    code = main(["apply", str(session), "--yes", "--root", str(arena.root)])
    assert code == 1
    assert "written as reviewtui spells paths" in capsys.readouterr().out
    assert (arena.root / "a.py").read_bytes() == b"keep\n"
    assert sorted(p.name for p in arena.root.iterdir()) == ["a.py"]


@pytest.mark.parametrize("name", ["a.txt ", "a.txt  "])
def test_a_modification_of_a_name_ending_in_blanks_is_not_written_to_the_other_file(
        arena: Arena, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """git ends such a name with a tab in the ``---``/``+++`` lines (``--- a/a.txt \\t``);
    the blanks were stripped with the tab, and the change to ``"a.txt "`` was written into
    ``a.txt`` with exit 0 (found by a fuzzing pass over git's own output, 2026-12-04)."""
    (arena.root / "a.txt").write_bytes(b"one\ntwo\n")
    diff = (f"diff --git a/{name} b/{name}\nindex 1111111..2222222 100644\n"
            f"--- a/{name}\t\n+++ b/{name}\t\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n")
    code, out = _apply(arena, diff, capsys)
    assert code == 1
    assert "diff-path-spelling" in out
    assert (arena.root / "a.txt").read_bytes() == b"one\ntwo\n"
