"""Threat: a file named in another Unicode spelling, and a second file that looks the same.

Operation paths are NFC (``normalize_path``). A file written decomposed (NFD, as macOS
names files: ``cafe`` + U+0301) was "missing" to every operation naming ``café.py``: an
edit said the file did not exist, and a full file made a second ``café.py`` beside it,
identical on screen. Such a path is now refused under ``unicode-spelling``, naming why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from disk_threat_kit import Arena
from hypothesis import given
from hypothesis import strategies as st

from diskkit import Cmd, Ed, Full, Op, make_project, tree_bytes, write_session
from reviewtui.cli import main
from reviewtui.core.paths.safety import other_spellings

COMPOSED = "caf\u00e9.py"
DECOMPOSED = "cafe\u0301.py"


def _check(arena: Arena, op: Op, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    session = write_session(arena.work, [[op]])
    capsys.readouterr()
    main(["check", str(session), "--root", str(arena.root), "--json"])
    doc = json.loads(capsys.readouterr().out)
    return [op for turn in doc["turns"] for op in turn["ops"]]


@pytest.mark.parametrize("op", [
    Ed(COMPOSED, "x = 1", "x = 2"),
    Full(COMPOSED, "y = 3\n"),
    Cmd(f":mv other.py {COMPOSED}"),
], ids=["edit", "full-file", "mv-onto"])
def test_a_decomposed_name_on_disk_refuses_its_composed_spelling(
        arena: Arena, capsys: pytest.CaptureFixture[str], op: Op) -> None:
    make_project(arena.root, {DECOMPOSED: "x = 1\n", "other.py": "o = 1\n"})
    ops = _check(arena, op, capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "unicode-spelling")]
    assert "Unicode spelling" in ops[0]["message"]
    before = tree_bytes(arena.root)
    session = write_session(arena.work, [[op]])
    main(["apply", str(session), "--root", str(arena.root), "--yes", "--partial"])
    assert tree_bytes(arena.root) == before
    assert sorted(os.listdir(arena.root)) == sorted([DECOMPOSED, "other.py"])


def test_both_spellings_on_disk_leave_the_composed_file_editable(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    make_project(arena.root, {DECOMPOSED: "x = 1\n", COMPOSED: "x = 1\n"})
    ops = _check(arena, Ed(COMPOSED, "x = 1", "x = 2"), capsys)
    assert [o["status"] for o in ops] == ["applied"]


_NAMES = st.lists(st.sampled_from(["a", "e", "\u00e9", "e\u0301", "\u00c5", "A\u030a", "/"]),
                  min_size=1, max_size=4).map("".join)


@given(st.lists(_NAMES, max_size=6))
def test_other_spellings_are_the_names_whose_composed_form_is_not_there(
        names: list[str]) -> None:
    import unicodedata

    found = other_spellings(names)
    folders = {name[:k] for name in names for k, char in enumerate(name) if char == "/"}
    for composed, name in found.items():
        if composed.endswith("/"):  # (a folder of one: QA s53 helper-221)
            assert name.endswith("/")
            assert name[:-1] in folders
            assert composed == unicodedata.normalize("NFC", name) != name
            assert composed[:-1] not in folders
            continue
        assert name in names
        assert composed == unicodedata.normalize("NFC", name) != name
        assert composed not in names
    # Every such composed form is refused (two names spelling it apart: either one).
    assert {unicodedata.normalize("NFC", name) for name in names
            if unicodedata.normalize("NFC", name) not in names} <= set(found)
    assert {unicodedata.normalize("NFC", folder) + "/" for folder in folders
            if unicodedata.normalize("NFC", folder) not in folders} <= set(found)


FOLDER = "de\u0301"  # a folder named decomposed (as macOS writes names)


@pytest.mark.parametrize("op", [
    Full("d\u00e9/new.py", "y = 3\n"),
    Ed("d\u00e9/x.py", "x = 1", "x = 2"),
    Cmd(":mv other.py d\u00e9/other.py"),
], ids=["full-file", "edit", "mv-into"])
def test_a_decomposed_folder_on_disk_refuses_a_second_one_that_looks_the_same(
        arena: Arena, capsys: pytest.CaptureFixture[str], op: Op) -> None:
    """A new file in ``dé/`` named composed made a second folder beside the decomposed
    one, identical on screen, exit 0 (QA s53 helper-221): the check looked at the last
    part of a path alone."""
    make_project(arena.root, {f"{FOLDER}/x.py": "x = 1\n", "other.py": "o = 1\n"})
    ops = _check(arena, op, capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "unicode-spelling")]
    before = tree_bytes(arena.root)
    session = write_session(arena.work, [[op]])
    main(["apply", str(session), "--root", str(arena.root), "--yes", "--partial"])
    assert tree_bytes(arena.root) == before
    assert sorted(os.listdir(arena.root)) == sorted([FOLDER, "other.py"])


def test_both_spellings_of_a_folder_on_disk_leave_the_composed_one_writable(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    make_project(arena.root, {f"{FOLDER}/x.py": "x = 1\n", "d\u00e9/x.py": "x = 1\n"})
    ops = _check(arena, Full("d\u00e9/new.py", "y = 3\n"), capsys)
    assert [o["status"] for o in ops] == ["applied"]


@pytest.mark.parametrize("inside", ["", "node_modules/z.js", "sub/"])
def test_a_decomposed_folder_listing_no_file_refuses_its_composed_spelling_too(
        arena: Arena, capsys: pytest.CaptureFixture[str], inside: str) -> None:
    """QA s53 helper-225: empty, or holding only folders or a folder reviewtui does not
    read, the decomposed folder was not seen (the check read the files listed)."""
    (arena.root / FOLDER).mkdir(parents=True)
    if inside.endswith("/"):
        (arena.root / FOLDER / inside).mkdir()
    elif inside:
        (arena.root / FOLDER / inside).parent.mkdir(parents=True)
        (arena.root / FOLDER / inside).write_text("z\n")
    ops = _check(arena, Full("d\u00e9/new.py", "y = 3\n"), capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "unicode-spelling")]


@pytest.mark.parametrize("made", ["folder", "file"])
def test_a_decomposed_name_made_during_the_review_is_refused(tmp_path: Path,
                                                             made: str) -> None:
    """QA s53 helper-225: made outside while the workbench was open, it was written beside."""
    from diskkit import opened_review
    from reviewtui.core.engine import Decision
    from reviewtui.core.errors import DecisionRefused

    target = "d\u00e9/new.txt" if made == "folder" else "d\u00e9.txt"
    review, root = opened_review(tmp_path, {"k": b"k\n"}, [[Full(target, "new\n")]])
    try:
        if made == "folder":
            (root / FOLDER).mkdir()
            (root / FOLDER / "x.txt").write_bytes(b"x\n")
            review.outside_changed([f"{FOLDER}/x.txt"])
        else:
            (root / f"{FOLDER}.txt").write_bytes(b"users\n")
            review.outside_changed([f"{FOLDER}.txt"])
        assert review.outcome((1, 0)).rule == "unicode-spelling"
        with pytest.raises(DecisionRefused):
            review.decide((1, 0), Decision.accept())
        assert not (root / target).exists() or os.path.samefile(
            root / target, root / (f"{FOLDER}/new.txt" if made == "folder" else f"{FOLDER}.txt"))
    finally:
        review.close()


def test_a_decomposed_name_gone_again_no_longer_refuses(tmp_path: Path) -> None:
    """QA s53 helper-226: made outside, then deleted, it still refused the composed one."""
    from diskkit import opened_review
    from reviewtui.core.engine import Decision

    review, root = opened_review(tmp_path, {"k": b"k\n"}, [[Full("d\u00e9.txt", "new\n")]])
    try:
        (root / f"{FOLDER}.txt").write_bytes(b"theirs\n")
        review.outside_changed([f"{FOLDER}.txt"])
        assert review.outcome((1, 0)).rule == "unicode-spelling"
        (root / f"{FOLDER}.txt").unlink()
        review.outside_changed([f"{FOLDER}.txt"])
        review.decide((1, 0), Decision.accept())
        assert (root / "d\u00e9.txt").read_bytes() == b"new\n"
    finally:
        review.close()
