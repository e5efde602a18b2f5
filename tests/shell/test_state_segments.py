"""The state file's log in segment blobs (``shell/state.py`` ``_seal``): after every step
the saved log, segments and the file's own entries together, is the review's log entry for
entry; a review reopened from it (the segments it loaded kept, not written again) goes on
saving the same; and a save rewrites only what came after the last segment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_review_incremental import KEYS, SESSION, take_step, write_project

from reviewtui.core.engine import Decision
from reviewtui.shell import state as state_module
from reviewtui.shell.review import Review
from reviewtui.shell.state import BlobStore, StateFile, blob_dir_for, decode_state

step = st.one_of(
    st.tuples(st.just("decide"), st.sampled_from(KEYS),
              st.sampled_from([Decision.accept(), Decision.reject(), Decision()])),
    st.tuples(st.just("many"), st.lists(st.sampled_from(KEYS), min_size=2, max_size=5,
                                        unique=True), st.just(Decision.accept())),
    st.tuples(st.just("undo"), st.none(), st.none()),
    st.tuples(st.just("redo"), st.none(), st.none()),
    st.tuples(st.just("restore"), st.integers(0, 3), st.none()),
    st.tuples(st.just("reopen"), st.none(), st.none()),
)


def _saved_log(state: Path) -> list[object]:
    doc = json.loads(state.read_text())
    return [entry.to_json() for entry in decode_state(doc, BlobStore(blob_dir_for(state))).log]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seal=st.sampled_from([1, 150, 400, 1 << 16]), steps=st.lists(step, max_size=12))
def test_the_saved_log_is_the_review_log(tmp_path_factory: pytest.TempPathFactory,
                                         seal: int, steps: list) -> None:  # type: ignore[type-arg]
    session, root = write_project(tmp_path_factory.mktemp("seg"))
    state = session.with_name("s.md.review.json")
    old = state_module.SEAL_BYTES
    state_module.SEAL_BYTES = seal
    try:
        review = Review.open(session, root)
        try:
            for kind, arg, value in steps:
                if kind == "many":
                    review.decide_many([(key, value) for key in arg], skip_unappliable=True)
                elif not take_step(review, root, kind, arg, value):
                    # Closed and opened again. (Opening may take back a saved accept that
                    # lands no more: the log is then rewritten, and saved so: below.)
                    log = [entry.to_json() for entry in review._log]
                    review.close()
                    assert _saved_log(state) == log
                    review = Review.open(session, root)
                if state.exists():
                    assert _saved_log(state) == [e.to_json() for e in review._log]
            log = [entry.to_json() for entry in review._log]
        finally:
            review.close()
        assert _saved_log(state) == log
    finally:
        state_module.SEAL_BYTES = old


def test_a_save_writes_what_came_after_the_last_segment(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bulk accept as big as the state's sealing size is written once, to a segment;
    the decisions after it leave the segment as it is and the state file small."""
    monkeypatch.setattr(state_module, "SEAL_BYTES", 600)
    session, root = write_project(tmp_path)
    state = session.with_name("s.md.review.json")
    with Review.open(session, root) as review:
        review.decide_many([(key, Decision.accept()) for key in KEYS], skip_unappliable=True)
        (first,) = json.loads(state.read_text())["log_segments"]
        blob = blob_dir_for(state) / first["sha256"]
        written = blob.stat().st_mtime_ns
        review.undo()
        review.redo()
        doc = json.loads(state.read_text())
        assert doc["log_segments"] == [first]  # the same segment, not written again
        assert blob.stat().st_mtime_ns == written
        assert [entry["kind"] for entry in doc["log"]] == ["undo", "redo"]
    # Reopened: the loaded segment is kept, and the next save names it as it was.
    with Review.open(session, root) as review:
        review.undo()
        assert json.loads(state.read_text())["log_segments"][0] == first
        sealed = StateFile(state)
        assert sealed.load()[0] is not None
        assert sealed.log_blobs() == {first["sha256"]}


def test_a_log_rewritten_at_resume_is_saved_as_rewritten(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision on an operation the session no longer holds is taken out of the log
    when the review is opened again (``reconcile_log``): entries at the same places
    change, and the segments holding the old ones are not named again."""
    monkeypatch.setattr(state_module, "SEAL_BYTES", 1)
    session, root = write_project(tmp_path)
    state = session.with_name("s.md.review.json")
    with Review.open(session, root) as review:
        review.decide((1, 1), Decision.accept())  # b.txt: four -> FOUR
        review.decide((1, 0), Decision.accept())  # a.txt: two -> TWO
        review.decide((1, 0), Decision())  # back to pending: a.txt is two again
    # The session edited while closed: turn 1's second edit writes another text.
    session.write_text(SESSION.replace("=======\nFOUR\n", "=======\nFOUR!\n", 1))
    with Review.open(session, root) as review:
        assert (1, 1) not in review.decisions
        saved = _saved_log(state)
        assert saved == [entry.to_json() for entry in review._log]
        assert not any(item["turn"] == 1 and item["pos"] == 1 and item["verdict"] == "accepted"
                       for entry in saved for item in entry.get("items", []))
