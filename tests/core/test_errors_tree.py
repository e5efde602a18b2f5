"""Every exception reviewtui raises on purpose sits in the one tree of core/errors.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.core import errors
from reviewtui.core.errors import (
    MissingBlob,
    PatchError,
    ReviewtuiError,
    SessionFormatError,
    StaleRef,
    StateFormatError,
)
from reviewtui.core.importers.codex import import_apply_patch
from reviewtui.core.review.log import DecisionItem
from reviewtui.core.text.hashline import LineRef, resolve
from reviewtui.shell.state import StateFile, read_time_spent


def test_every_public_exception_is_in_the_tree() -> None:
    public = [value for name, value in vars(errors).items()
              if isinstance(value, type) and issubclass(value, BaseException)
              and not name.startswith("_")]
    assert {StateFormatError, MissingBlob, StaleRef, PatchError} <= set(public)
    assert all(issubclass(cls, ReviewtuiError) for cls in public)


def test_state_format_error_is_not_a_value_error() -> None:
    # Readers of a state file catch it by name, not as a stray ValueError.
    assert not issubclass(StateFormatError, ValueError)
    with pytest.raises(StateFormatError, match="verdict"):
        DecisionItem.from_json({"turn": 1, "position": 0})


def test_missing_blob_keeps_its_sha() -> None:
    err = MissingBlob("ab" * 32)
    assert err.sha == "ab" * 32
    assert isinstance(err, StateFormatError)
    assert "abababababab" in str(err)


def test_stale_ref_carries_rule_and_ref() -> None:
    ref = LineRef(5, None)
    with pytest.raises(StaleRef) as info:
        resolve(["a", "b"], ref)
    assert info.value.rule == "line-out-of-range"
    assert info.value.ref == ref
    assert info.value.message.startswith("line 5")


def test_patch_error_is_a_session_format_error() -> None:
    err = PatchError("patch-bad-line", "unexpected line", 7)
    assert isinstance(err, SessionFormatError)
    assert (err.rule, err.line, err.message) == ("patch-bad-line", 7, "unexpected line")
    text = "*** Begin Patch\n*** Update File: a.py\nnonsense\n*** End Patch\n"
    with pytest.raises(SessionFormatError) as info:
        import_apply_patch(text, "patch.txt")
    assert info.value.line is not None
    assert info.value.rule.startswith("patch-")


def test_a_bad_state_shape_is_moved_aside(tmp_path: Path) -> None:
    state = tmp_path / "review.json"
    state.write_text(json.dumps({"format": "not ours"}), encoding="utf-8")
    assert read_time_spent(state) == {}
    saved, problems = StateFile(state).load()
    assert saved is None
    assert len(problems) == 1
    assert "not a reviewtui review state" in problems[0]
    assert not state.exists()
