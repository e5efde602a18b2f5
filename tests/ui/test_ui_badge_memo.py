"""The workbench remembers each operation's syntax diagnostics by the result object
(``ui/diagnostics.py``): a decision re-badges its turn's rows and shows an operation
without decoding and hashing the files again. The shortcut must answer exactly what the
core's content-keyed cache answers, and must never remember "not checked yet" (a big
file's check arrives later from a worker, and its badge must then appear)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import OpResult
from reviewtui.core.review import diagnostics as core_diagnostics
from reviewtui.shell.review import Review
from reviewtui.ui import diagnostics as ui_diagnostics
from reviewtui.ui.diagnostics import BADGE, deferred, op_badge, with_diagnostics
from reviewtui.ui.opview import build_view

SESSION = """# Session: badges

## Turn 1
> four edits

--- File: a.py ---
Edit 1
<<<<<<< SEARCH
def one():
    return 1
=======
def one():
    return 11
>>>>>>> REPLACE

Edit 2
<<<<<<< SEARCH
def two():
    return 2
=======
def two(:
    return 2
>>>>>>> REPLACE

--- File: b.py ---
Edit 1
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

--- File: c.py ---
Edit 1
<<<<<<< SEARCH
y = 1
=======
y = (2
>>>>>>> REPLACE
"""


def _results(tmp_path: Path, *, big: bool = False) -> list[OpResult]:
    root = tmp_path / "root"
    root.mkdir()
    filler = "".join(f"def f{n}(v):\n    return v + {n}\n\n" for n in range(3000)) if big else ""
    (root / "a.py").write_text("def one():\n    return 1\n\n\ndef two():\n    return 2\n"
                               + filler)
    # Broken before the edit, away from it: not introduced by it.
    (root / "b.py").write_text("x = 1\n\n\ndef g(:\n    pass\n\n\nw = 0\n")
    (root / "c.py").write_text("y = 1\n")
    session = tmp_path / "session.md"
    session.write_text(SESSION)
    review = Review.open(session, root, dry_run=True)
    review.finish_evaluation()
    results = [r for turn in review.display.turns for r in turn.results]
    review.close()
    assert len(results) == 4
    return results


def _slow_badge(result: OpResult) -> str:
    found = core_diagnostics.diagnose_result(result)
    return BADGE if any(d.introduced for d in found) else ""


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    ui_diagnostics._known.clear()  # noqa: SLF001


def test_badges_match_the_core(tmp_path: Path) -> None:
    results = _results(tmp_path)
    assert [_slow_badge(r) for r in results] == ["", BADGE, "", BADGE]
    for _ in range(2):  # computed, then remembered
        assert [op_badge(r, wait=False) for r in results] == ["", BADGE, "", BADGE]
        assert [op_badge(r) for r in results] == ["", BADGE, "", BADGE]


def test_remembered_answers_do_not_hash_the_files_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = _results(tmp_path)
    views = [with_diagnostics(build_view(r), r).explanation.plain for r in results]
    badges = [op_badge(r, wait=False) for r in results]

    def no(*_args: object) -> object:
        raise AssertionError("asked the core again (decoded and hashed the files)")

    monkeypatch.setattr(ui_diagnostics, "diagnose_cached", no)
    monkeypatch.setattr(ui_diagnostics, "diagnose_result", no)
    assert [op_badge(r, wait=False) for r in results] == badges
    assert [op_badge(r) for r in results] == badges
    assert [deferred(r) for r in results] == [False] * 4
    assert [with_diagnostics(build_view(r), r, wait=False).explanation.plain
            for r in results] == views
    assert "line 5" in views[1]
    assert "introduced by this operation" in views[1]


def test_a_big_files_badge_appears_once_the_worker_checked_it(tmp_path: Path) -> None:
    results = _results(tmp_path, big=True)
    broken = results[1]
    assert deferred(broken)
    assert op_badge(broken, wait=False) == ""  # not checked yet: no badge for now
    plain = build_view(broken).explanation.plain
    assert with_diagnostics(build_view(broken), broken, wait=False).explanation.plain == plain
    assert deferred(broken)  # "not checked" was not remembered as "no diagnostics"
    core_diagnostics.diagnose_result(broken)  # what the screen's worker does
    assert not deferred(broken)
    assert op_badge(broken, wait=False) == BADGE
    assert "introduced by this operation" in with_diagnostics(
        build_view(broken), broken, wait=False).explanation.plain


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(calls=st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.booleans()),
                      max_size=30))
def test_any_order_of_asking_answers_as_the_core(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        calls: list[tuple[int, bool, bool]]) -> None:
    # A memo of two entries: it is emptied and refilled along the way.
    monkeypatch.setattr(ui_diagnostics, "KNOWN_SIZE", 2)
    ui_diagnostics._known.clear()  # noqa: SLF001
    results = _results(tmp_path_factory.mktemp("memo"))
    expected = [_slow_badge(r) for r in results]
    for index, wait, explain in calls:
        result = results[index]
        if explain:
            text = with_diagnostics(build_view(result), result, wait=wait).explanation.plain
            assert ("introduced by this operation" in text) == bool(expected[index])
        else:
            assert op_badge(result, wait=wait) == expected[index]
        assert len(ui_diagnostics._known) <= 2  # noqa: SLF001
