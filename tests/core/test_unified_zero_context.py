"""``git diff -U0`` hunks that only add lines land at their line number when the file is the
one the diff was made from (its blob id on the ``index`` line), and wait for the reviewer
otherwise.

Such a hunk has no context, so its line number is all that says where it goes: before,
every one needed a decision (helper-80's report: ``git apply --unidiff-zero`` applies
them). The file's git blob id, with the section's earlier hunks taken back, proves the
number exact (``core/engine/preimage.py``). The property: on the preimage, every hunk
lands and the file is the diff's new side, byte for byte; on any other file (one line
changed), no pure addition lands by its number. Never a wrong file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

WORDS = st.sampled_from(["a", "b", "c", "x = 1", "", "}", "return"])


def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _text(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def zero_context_diff(old: list[str], inserts: dict[int, list[str]]) -> tuple[str, bytes]:
    """``git diff -U0`` of ``old`` with ``inserts[k]`` added after its line k (0: at the
    top): the diff and the new file's bytes."""
    new: list[str] = []
    hunks = []
    for k in range(len(old) + 1):
        if inserts.get(k):
            added = inserts[k]
            start = len(new) + 1  # where the first added line lands in the new file
            hunks.append(f"@@ -{k},0 +{start}" + (f",{len(added)}" if len(added) != 1 else "")
                         + " @@\n" + "".join(f"+{line}\n" for line in added))
            new += added
        if k < len(old):
            new.append(old[k])
    data = _text(new)
    head = (f"diff --git a/f b/f\nindex {_blob(_text(old))[:7]}..{_blob(data)[:7]} 100644\n"
            "--- a/f\n+++ b/f\n")
    return head + "".join(hunks), data


def _run(diff: str, data: bytes) -> tuple[list[Status], bytes]:
    session = import_session(diff, "p.diff", format="unified")
    run = evaluate_session(session, Tree.from_files({"f": FileState.from_bytes(data)}))
    after = run.states[-1].tree.get("f")
    assert after is not None
    return [r.outcome.status for t in run.turns for r in t.results], after.data


@settings(max_examples=60, deadline=None)
@given(old=st.lists(WORDS, min_size=1, max_size=12), data=st.data())
def test_on_the_preimage_every_addition_lands_and_elsewhere_none(
        old: list[str], data: st.DataObject) -> None:
    where = data.draw(st.lists(st.integers(0, len(old)), min_size=1, max_size=4, unique=True))
    inserts = {k: data.draw(st.lists(WORDS, min_size=1, max_size=3)) for k in where}
    diff, expected = zero_context_diff(old, inserts)
    statuses, after = _run(diff, _text(old))
    assert statuses == [Status.APPLIED] * len(inserts)
    assert after == expected
    # Any other file: one line changed. Nothing lands by its number (the reviewer decides).
    at = data.draw(st.integers(0, len(old) - 1))
    other = [*old[:at], old[at] + " changed", *old[at + 1 :]]
    statuses, after = _run(diff, _text(other))
    assert Status.APPLIED not in statuses
    assert after == _text(other)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_s_own_zero_context_diff_lands_as_git_applies_it(tmp_path: Path) -> None:
    old = "".join(f"line {n}\n" for n in range(1, 21)).encode()
    new = old.replace(b"line 3\n", b"line 3\nadded a\nadded b\n").replace(
        b"line 9\n", b"LINE 9\n").replace(b"line 12\nline 13\n", b"").replace(
        b"line 17\n", b"line 17\nadded c\n") + b"tail\n"  # (a change, a removal between)
    env = {"GIT_DIR": str(tmp_path / ".git"), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "HOME": str(tmp_path)}
    (tmp_path / "f").write_bytes(old)
    for args in (["init", "-q"], ["add", "f"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env=env)
    (tmp_path / "f").write_bytes(new)
    diff = subprocess.run(["git", "diff", "-U0"], cwd=tmp_path, capture_output=True,
                          check=True, env=env).stdout.decode()
    assert diff.count("@@ -") == 5
    statuses, after = _run(diff, old)
    assert statuses == [Status.APPLIED] * 5
    assert after == new


def test_a_state_proved_for_one_diff_proves_nothing_for_another() -> None:
    """The proof of a section's next hunk reuses the state proved for the hunk before it;
    that state belongs to those very hunks. Another diff of the same file whose own hunk
    taken back happens to give it must still be proved whole (and here it fails)."""
    from reviewtui.core.engine.preimage import preimage_holds
    from reviewtui.core.model.records import EarlierHunks, Edit, Span

    base = _text(["a", "b", "c"])
    blob = _blob(base)[:7]
    first_x = (1, (), ("X",))  # diff 1: "X" added after line 1
    first_y = (0, (), ("Y",))  # diff 2: "Y" added at the top

    def second(earlier: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]) -> Edit:
        return Edit("f", 2, None, (), ("Z",), Span(1, 1), Span(1, 1), Span(1, 1),
                    line_hint=3, literal=True, preimage=blob, earlier=EarlierHunks(earlier))

    assert preimage_holds(FileState.from_bytes(_text(["a", "X", "b", "c"])), second((first_x,)))
    # "Y a X b c" with diff 2's "Y" taken back is diff 1's proved state, not diff 2's.
    assert not preimage_holds(FileState.from_bytes(_text(["Y", "a", "X", "b", "c"])),
                              second((first_y,)))
    assert preimage_holds(FileState.from_bytes(_text(["Y", "a", "b", "c"])), second((first_y,)))
