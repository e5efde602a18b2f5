"""A Codex session holds every apply_patch the model sent, those Codex refused too: a chunk
reviewtui's matcher forgives and Codex's search does not (a byte-order mark on its line,
blank lines after ``*** End of File``) was written, then the model's retry of the same
change, so the line was added twice, exit 0 (QA s47 helper-148 F5). Among several patches
such a chunk is held now (rule codex-refused), its patch's later sections with it; a lone
patch still lands, noted. And Codex stops at a patch's first section that fails: the
sections after it were written (F11), now held (rule codex-stopped).

The expected files are what Codex's binary (codex-cli 0.171.0, run patch by patch) wrote;
``test_codex_itself_agrees`` checks them again where the binary is installed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reviewtui.cli import main

BOM = "\ufeff"


def _patch(*body: str) -> str:
    return "\n".join(("*** Begin Patch", *body, "*** End Patch"))


def _session(*patches: str) -> str:
    return "".join(f"The model wrote:\n\n{patch}\n\n" for patch in patches)


# name -> (files before, patches, files Codex leaves)
CASES: dict[str, tuple[dict[str, str], list[str], dict[str, str]]] = {
    "bom-then-retry": (
        {"f.py": f"{BOM}import a\nimport b\n"},
        [_patch("*** Update File: f.py", "@@", " import a", "+import c"),
         _patch("*** Update File: f.py", "@@", "+import c")],
        {"f.py": f"{BOM}import a\nimport b\nimport c\n"}),
    "end-of-file-then-retry": (
        {"f.txt": "a\nb\n\n"},
        [_patch("*** Update File: f.txt", "@@", " b", "+c", "*** End of File"),
         _patch("*** Update File: f.txt", "@@", "+c")],
        {"f.txt": "a\nb\n\nc\n"}),
    "section-after-a-failing-one": (
        {"a.txt": "a\n"},
        [_patch("*** Update File: a.txt", "@@", "-zzz", "+A", "*** Add File: n.txt", "+n")],
        {"a.txt": "a\n"}),
    "held-section-holds-the-rest-of-its-patch": (
        {"a.txt": "a\n", "f.txt": "x\ny\n\n"},
        [_patch("*** Update File: a.txt", "@@", "-a", "+A",
                "*** Update File: f.txt", "@@", " y", "+z", "*** End of File",
                "*** Add File: n.txt", "+n"),
         _patch("*** Update File: f.txt", "@@", " y", "+z")],
        {"a.txt": "A\n", "f.txt": "x\ny\nz\n\n"}),
    "a-section-whose-second-chunk-is-held": (
        {"f.txt": "a\nb\nc\n\n"},
        [_patch("*** Update File: f.txt", "@@", "-a", "+A", "@@", " c", "+d",
                "*** End of File"),
         _patch("*** Update File: f.txt", "@@", "-a", "+A", "@@", "+d")],
        {"f.txt": "A\nb\nc\n\nd\n"}),
    "trailing-space-at-line-then-retry": (  # (QA qa79 #1)
        # Codex's parser trims the @@ line: it looks for 'done', line 3, and finds no 'x'
        # after it; reviewtui's exact 'done ' on line 1 wrote 'y' Codex never wrote.
        {"f.txt": "done \nx\ndone\n"},
        [_patch("*** Update File: f.txt", "@@ done ", " x", "+y"),
         _patch("*** Update File: f.txt", "@@", " done", "+z")],
        {"f.txt": "done \nx\ndone\nz\n"}),
    "refused-move-then-retry": (  # (QA qa79 #2)
        # The held section's move is held too: the retry moves f.txt (it was "not a file
        # in the tree", the first move counted as done, nothing written).
        {"f.txt": f"{BOM}alpha\nbeta\n"},
        [_patch("*** Update File: f.txt", "*** Move to: g.txt", "@@", " alpha", "+ALPHA"),
         _patch("*** Update File: f.txt", "*** Move to: g.txt", "@@", f" {BOM}alpha",
                "+ALPHA")],
        {"g.txt": f"{BOM}alpha\nALPHA\nbeta\n"}),
    "every-patch-lands-exactly": (
        {"f.py": "def f():\n    return 1\n", "g.txt": "g\n"},
        [_patch("*** Update File: f.py", "@@ def f():", "-    return 1", "+    return 2"),
         _patch("*** Update File: g.txt", "@@", "-g", "+G", "*** Add File: h.txt", "+h"),
         _patch("*** Update File: f.py", "@@", " def f():", "+    '''doc'''",
                "     return 2")],
        {"f.py": "def f():\n    '''doc'''\n    return 2\n", "g.txt": "G\n", "h.txt": "h\n"}),
}


# name -> (files before, patches, files Codex leaves): reviewtui holds the file instead.
HELD: dict[str, tuple[dict[str, str], list[str], dict[str, str]]] = {
    "end-of-file-chunk-on-the-previous-chunks-blank": (  # (QA qa79 #3)
        # The End of File chunk's only old line is the file's last blank line, which the
        # chunk before it took: Codex finds no blank line after that one, takes no line
        # and inserts its own there, the blank line twice; reviewtui wrote it once.
        {"d.txt": "a\nb\n\n", "o.txt": "one\n"},
        [_patch("*** Update File: o.txt", "@@", " one", "+two"),
         _patch("*** Update File: d.txt", "@@", " b", "+X", " ", "@@", " ", "+N",
                "*** End of File")],
        {"d.txt": "a\nb\nX\n\n\nN\n", "o.txt": "one\ntwo\n"}),
}


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_bytes().decode()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _apply(tmp_path: Path, files: dict[str, str], patches: list[str],
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str, dict[str, str]]:
    root = tmp_path / "root"
    root.mkdir()
    for path, text in files.items():
        (root / path).write_bytes(text.encode())
    session = tmp_path / "s.md"
    session.write_text(_session(*patches))
    code = main(["apply", str(session), "--root", str(root), "--yes"])
    return code, capsys.readouterr().out, _files(root)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_replay_writes_what_codex_wrote(name: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, codex = CASES[name]
    code, out, written = _apply(tmp_path, files, patches, capsys)
    assert written == codex, out
    assert code == (0 if name == "every-patch-lands-exactly" else 1), out


@pytest.mark.parametrize(("name", "cause"), [
    ("bom-then-retry", "byte-order mark is part of line 1 to Codex"),
    ("end-of-file-then-retry", "blank lines follow it in the file")])
def test_check_names_the_held_chunk_its_rule_and_why(
        name: str, cause: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = CASES[name]
    root = tmp_path / "root"
    root.mkdir()
    for path, text in files.items():
        (root / path).write_bytes(text.encode())
    session = tmp_path / "s.md"
    session.write_text(_session(*patches))
    assert main(["check", str(session), "--root", str(root)]) == 1
    lines = capsys.readouterr().out.splitlines()
    path = next(iter(files))
    held = [line for line in lines if "codex-refused" in line]
    assert len(held) == 1
    assert held[0].startswith(f"{session}:5: turn 1 {path}")
    assert "refused - held (rule codex-refused): Codex's apply_patch would refuse" in held[0]
    assert cause in held[0]
    assert "the model may have sent the change again" in held[0]
    assert any(f"turn 2 {path}" in line and ": applied" in line for line in lines)


def test_apply_names_the_failing_section_of_a_held_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = CASES["section-after-a-failing-one"]
    _, out, _ = _apply(tmp_path, files, patches, capsys)
    line = next(line for line in out.splitlines() if "n.txt" in line)
    assert line.startswith(f"{tmp_path / 's.md'}:9: turn 1 n.txt")
    assert "skipped - Codex stops at a patch's first section that does not apply" in line
    assert "a.txt's (line 5) did not" in line
    assert "(rule codex-stopped)" in line
    assert "1 held back: Codex stopped before it" in out


def test_a_lone_patch_still_lands_on_a_byte_order_mark_with_a_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = CASES["bom-then-retry"]
    code, out, written = _apply(tmp_path, files, patches[:1], capsys)
    assert (code, written) == (0, {"f.py": f"{BOM}import a\nimport c\nimport b\n"}), out
    session = tmp_path / "s.md"
    fresh = tmp_path / "again"
    fresh.mkdir()
    (fresh / "f.py").write_bytes(files["f.py"].encode())
    assert main(["check", str(session), "--root", str(fresh)]) == 0
    out = capsys.readouterr().out
    assert "applied (exact)" in out
    assert "hint: Codex's own apply_patch would refuse this chunk: the file's UTF-8 " \
           "byte-order mark" in out


def test_a_chunk_codex_writes_otherwise_holds_its_section(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = HELD["end-of-file-chunk-on-the-previous-chunks-blank"]
    code, out, written = _apply(tmp_path, files, patches, capsys)
    assert (code, written) == (1, {"d.txt": "a\nb\n\n", "o.txt": "one\ntwo\n"}), out
    line = next(line for line in out.splitlines() if "d.txt · Edit 1" in line)
    assert "held (rule codex-elsewhere): Codex's apply_patch writes its section's chunk " \
           "at line 18 otherwise than reviewtui reads it: its only old line is blank" in line


def test_a_held_move_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = CASES["refused-move-then-retry"]
    _, out, _ = _apply(tmp_path, files, patches, capsys)
    line = next(line for line in out.splitlines() if "turn 1 :mv -f f.txt g.txt" in line)
    assert "held (rule codex-refused): Codex's apply_patch would refuse its section's " \
           "first chunk (line 6)" in line
    assert "it did not move f.txt to g.txt" in line


def test_a_trimmed_at_line_is_named(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    files, patches, _ = CASES["trailing-space-at-line-then-retry"]
    _, out, _ = _apply(tmp_path, files, patches, capsys)
    line = next(line for line in out.splitlines() if "turn 1 f.txt" in line)
    assert "Codex's parser trims the @@ line's trailing whitespace, so it looks for " \
           "'done', not 'done '" in line


def _codex() -> str | None:
    found = sorted(Path("/tmp/codex-npm/node_modules/@openai").glob("codex*/vendor/*/bin/codex"))
    return str(found[0]) if found else None


@pytest.mark.parametrize("name", sorted({**CASES, **HELD}))
def test_codex_itself_agrees(name: str, tmp_path: Path) -> None:
    binary = _codex()
    if binary is None:
        pytest.skip("Codex's apply_patch binary is not installed (see bench/README.md): the "
                    "expected files were NOT re-checked against it")
    files, patches, codex = {**CASES, **HELD}[name]
    for path, text in files.items():
        (tmp_path / path).write_bytes(text.encode())
    for patch in patches:
        subprocess.run(["apply_patch", patch], executable=binary, cwd=tmp_path,
                       capture_output=True, timeout=30, check=False)
    assert _files(tmp_path) == codex
