"""Threat: a state file whose log is partly in segment blobs (``log_segments``).

A segment is named by the sha256 of its bytes and read back only when it still hashes to
that name; a state naming one that is missing, damaged, out of place, of another count of
entries or larger than a state may be is moved aside with one line, as any malformed
state is, and nothing is written to the project.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import accept_entry, forge_state, put_blob, write_markdown_session

from reviewtui.core.engine import Decision
from reviewtui.shell import state as state_module
from reviewtui.shell.review import Review
from reviewtui.shell.state import BlobStore, blob_dir_for, op_fingerprint


def _open_and_decide(arena: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A review of three one-line edits, each decided, its log sealed after each entry."""
    monkeypatch.setattr(state_module, "SEAL_BYTES", 10)
    for name in ("a", "b", "c"):
        (arena.root / f"{name}.txt").write_text(f"{name}\n")
    session = write_markdown_session(arena.work / "s.md", [
        [("a.txt", "a", "A")], [("b.txt", "b", "B")], [("c.txt", "c", "C")]])
    with Review.open(session, arena.root) as review:
        for turn in (1, 2, 3):
            review.decide((turn, 0), Decision.accept())
    state = session.with_name("s.md.review.json")
    return session, state


def _reopen_moved_aside(arena: Any, session: Path, state: Path, words: str) -> None:
    text = state.read_text()
    with Review.open(session, arena.root) as review:
        (problem,) = review.state_problems
        assert "\n" not in problem
        assert str(state) in problem
        assert "moved aside" in problem
        assert words in problem
        assert review.decisions == {}
    (aside,) = arena.work.glob("s.md.review.json.corrupt-*")
    assert aside.read_text() == text
    # The files stay as the review before left them: nothing is written or taken back.
    assert [(arena.root / f"{n}.txt").read_text() for n in "abc"] == ["A\n", "B\n", "C\n"]


def test_a_sealed_log_reads_back_whole(arena: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    session, state = _open_and_decide(arena, monkeypatch)
    doc = json.loads(state.read_text())
    assert doc["version"] == 2
    assert [segment["entries"] for segment in doc["log_segments"]] == [1, 1, 1]
    assert doc["log"] == []
    with Review.open(session, arena.root) as review:
        assert review.state_problems == []
        assert set(review.decisions) == {(1, 0), (2, 0), (3, 0)}
        review.undo()
    with Review.open(session, arena.root) as review:
        assert set(review.decisions) == {(1, 0), (2, 0)}
    assert (arena.root / "c.txt").read_text() == "c\n"
    # The segments outlive a close (only blobs nothing names are collected).
    doc = json.loads(state.read_text())
    for segment in doc["log_segments"]:
        assert (blob_dir_for(state) / segment["sha256"]).is_file()


def test_a_damaged_segment_moves_the_state_aside(arena: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    session, state = _open_and_decide(arena, monkeypatch)
    first = json.loads(state.read_text())["log_segments"][0]["sha256"]
    blob = blob_dir_for(state) / first
    blob.chmod(0o600)
    blob.write_bytes(blob.read_bytes().replace(b'"accepted"', b'"rejected"'))
    _reopen_moved_aside(arena, session, state, "log segment 1")


def test_a_missing_segment_moves_the_state_aside(arena: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    session, state = _open_and_decide(arena, monkeypatch)
    second = json.loads(state.read_text())["log_segments"][1]["sha256"]
    (blob_dir_for(state) / second).unlink()
    _reopen_moved_aside(arena, session, state, "log segment 2")


@pytest.mark.parametrize(("segment", "words"), [
    ({"sha256": "../../canary.txt", "entries": 1}, "not a sha256"),
    ({"sha256": "0" * 64, "entries": -1}, "not a sha256"),
    ({"sha256": "0" * 64, "entries": 1}, "missing or damaged"),
    ("0" * 64, "not a sha256"),
])
def test_a_forged_segment_reference_is_refused(arena: Any, segment: Any, words: str) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    forge_state(session.with_name("s.md.review.json"), version=2,
                log_segments=[segment])
    with Review.open(session, arena.root) as review:
        (problem,) = review.state_problems
        assert words in problem
        assert "moved aside" in problem
        assert review.decisions == {}
    assert (arena.root / "a.txt").read_text() == "a\n"


def _segment(state: Path, entries: list[Any]) -> str:
    return put_blob(state, json.dumps(entries).encode())


def test_a_segment_of_another_count_or_in_a_version_1_state_is_refused(arena: Any) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    state = session.with_name("s.md.review.json")
    op = Review.open(session, arena.root, persist=False)
    with op as review:
        op_hash = op_fingerprint(review.session.turns[0].reply.ops[0])
    sha = _segment(state, [accept_entry(1, 0, "a.txt", op_hash)])
    for version, count, words in ((2, 2, "does not hold the 2 entries"),
                                  (1, 1, "not a list of a version 2 state")):
        forge_state(state, version=version, log_segments=[{"sha256": sha, "entries": count}])
        with Review.open(session, arena.root) as review:
            (problem,) = review.state_problems
            assert words in problem
            assert review.decisions == {}
        for aside in arena.work.glob("s.md.review.json.corrupt-*"):
            aside.unlink()
    # The same segment, rightly named, is read: the accept is in force and written. (Put
    # again: each review above collected the blobs its own state did not name.)
    assert _segment(state, [accept_entry(1, 0, "a.txt", op_hash)]) == sha
    forge_state(state, version=2, log_segments=[{"sha256": sha, "entries": 1}])
    with Review.open(session, arena.root) as review:
        assert review.state_problems == []
        assert review.decisions == {(1, 0): Decision.accept()}
    assert (arena.root / "a.txt").read_text() == "b\n"


def test_segments_together_are_bounded_as_one_state(arena: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    state = session.with_name("s.md.review.json")
    # Each segment well under the limit, together over it: 3 x 0.4 MB against 1 MB.
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", "1")
    filler = [{"kind": "restore", "checkpoint": None}] * 14_000
    refs = [{"sha256": _segment(state, filler), "entries": len(filler)}] * 3
    forge_state(state, version=2, log_segments=refs)
    with Review.open(session, arena.root) as review:
        (problem,) = review.state_problems
        assert "larger than a review state may be" in problem
        assert review.decisions == {}


def test_a_damaged_blob_under_a_segment_name_is_written_again(tmp_path: Path) -> None:
    data = b'[{"kind": "undo"}]\n'
    sha = hashlib.sha256(data).hexdigest()
    (tmp_path / sha).write_bytes(b"planted")
    assert BlobStore(tmp_path).put(data) == sha
    assert (tmp_path / sha).read_bytes() == b"planted"  # content blobs: as before
    assert BlobStore(tmp_path).put(data, check=True) == sha
    assert (tmp_path / sha).read_bytes() == data
