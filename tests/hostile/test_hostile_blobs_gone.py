"""Threat: a review state whose blobs are gone (the state file moved or copied alone, its
blob folder cleared as a cache) rewrites the disk as it opens.

Without the original's blob, the record of a path the review removed or rewrote cannot
be read, and the disk is taken as the file's base: every accept on it then looked like a
write cut short, and opening finished it, over the file the user had put back or written
anew since, no key pressed (QA s46 helper-141 F4). Such an accept goes back to pending,
said; the file stays; ``u`` writes it once the reviewer has read why.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Verdict
from reviewtui.shell.review import Review
from reviewtui.shell.state import blob_dir_for


def _session(where: Path, body: str) -> Path:
    session = where / "s.md"
    session.write_text(f"## Turn 1\n> go\n\n{body}\n### Changed files:\n- notes.txt\n")
    return session


@pytest.mark.parametrize("kind", ["removal", "rewrite"])
def test_an_accept_on_a_file_whose_original_is_gone_is_not_written_again(
        arena: Any, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "notes.txt").write_text("original\n")
    body = ("```console\n:rm notes.txt\n```\n" if kind == "removal"
            else "--- File: notes.txt ---\n```\nthe session's\n```\n")
    session = _session(arena.work, body)
    state = arena.work / "st.json"
    assert main(["apply", str(session), "--root", str(arena.root), "--yes",
                 "--state", str(state)]) == 0
    capsys.readouterr()
    (arena.root / "notes.txt").write_text("the user's own, since\n")
    shutil.rmtree(blob_dir_for(state))
    with Review.open(session, arena.root, state_path=state) as review:
        assert (arena.root / "notes.txt").read_text() == "the user's own, since\n"
        assert review.result((1, 0)).decision.verdict is Verdict.PENDING
        assert review.last_report is not None
        (notice,) = [text for _, text in review.last_report.reverted]
        assert "cannot be read (its original is missing)" in notice
        review.undo()  # read, and taken back in: then written
        assert review.result((1, 0)).decision.verdict is Verdict.ACCEPTED
    assert ((arena.root / "notes.txt").exists() if kind == "rewrite"
            else not (arena.root / "notes.txt").exists())


def test_an_accept_the_disk_already_holds_stays_accepted(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "notes.txt").write_text("original\n")
    session = _session(arena.work, "--- File: notes.txt ---\n```\nthe session's\n```\n")
    state = arena.work / "st.json"
    assert main(["apply", str(session), "--root", str(arena.root), "--yes",
                 "--state", str(state)]) == 0
    capsys.readouterr()
    shutil.rmtree(blob_dir_for(state))
    with Review.open(session, arena.root, state_path=state) as review:
        assert review.result((1, 0)).decision.verdict is Verdict.ACCEPTED
    assert (arena.root / "notes.txt").read_text() == "the session's\n"
