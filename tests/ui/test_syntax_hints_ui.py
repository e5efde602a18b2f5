"""Tree-sitter in the workbench: the Ruby sample's clean turn, symbol hints, gutter marks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList
from uikit import REPO, copy_session, open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.core.review.diagnostics import diagnose_cached, diagnose_result
from reviewtui.ui.widgets.diff_view import DiffView
from reviewtui.ui.widgets.op_detail import OpDetail

SIZE = (120, 40)
RUBY_SAMPLE = REPO / "sample_sessions" / "failure-gallery"
TREESITTER = REPO / "tests" / "fixtures" / "treesitter"
SnapCompare = Callable[..., bool]


@pytest.mark.anyio
async def test_the_ruby_samples_clean_turn_has_no_diagnostic_and_A_accepts_it(
    tmp_path: Path,
) -> None:
    # Turn 1 writes /[^a-z0-9+#.\s-]/: the old bracket counter took the # for a comment
    # and blamed the edit for an unclosed "(", so A left it pending.
    session, root = copy_session(RUBY_SAMPLE, tmp_path)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        result = screen.result(0, 0)
        assert result is not None
        assert result.outcome.path == "lib/bookmarks/tagger.rb"
        assert diagnose_result(result) == ()
        screen.select(0, 0)
        await pilot.press("A")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.ACCEPTED


@pytest.mark.anyio
async def test_the_header_names_the_symbols_and_the_gutter_marks_the_error(
    tmp_path: Path,
) -> None:
    session, root = copy_session(TREESITTER, tmp_path)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(0, 0)
        await pilot.pause()
        detail = app.screen.query_one(OpDetail)
        assert detail.view is not None
        assert "in module Bookmarks › class Store › def import_csv" in detail.view.subtitle
        diff = app.screen.query_one(DiffView)
        assert "def import_csv(path)" in diff.fold_context.values()

        screen.select(0, 1)
        await pilot.pause()
        detail = app.screen.query_one(OpDetail)
        assert detail.view is not None
        assert "in class Cart › add" in detail.view.subtitle
        assert app.screen.query_one(DiffView).marks == frozenset({10})
        assert "missing `}`" in detail.view.explanation.plain


def _select(turn_pos: int, op_pos: int) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen_of(pilot.app).select(turn_pos, op_pos)  # type: ignore[arg-type]
        await pilot.pause()

    return run_before


def test_snapshot_header_with_the_enclosing_symbols(snap_compare: SnapCompare,
                                                    tmp_path: Path) -> None:
    app = open_app(*copy_session(TREESITTER, tmp_path), dry_run=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_select(0, 0))


def test_snapshot_introduced_tree_sitter_error_in_the_gutter(snap_compare: SnapCompare,
                                                             tmp_path: Path) -> None:
    app = open_app(*copy_session(TREESITTER, tmp_path), dry_run=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_select(0, 1))


@pytest.mark.anyio
async def test_a_big_files_check_runs_in_a_worker_and_then_shows(tmp_path: Path) -> None:
    session = tmp_path / "session"
    (session / "base").mkdir(parents=True)
    body = "".join(f"function f{n}(x) {{\n  return x + {n};\n}}\n" for n in range(3000))
    (session / "base" / "big.js").write_text(body)
    (session / "session.md").write_text(
        "# Session: big\n\n## Turn 1\n> edit\n\n--- File: big.js ---\nEdit 1\n"
        "<<<<<<< SEARCH\n  return x + 1500;\n}\n=======\n  return x + 1500;\n>>>>>>> REPLACE\n")
    session_dir, root = copy_session(session, tmp_path / "copy")
    app = open_app(session_dir, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        result = screen_of(app).result(0, 0)
        assert result is not None
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert diagnose_cached(result)  # the worker ran the check...
        ops = app.screen.query_one("#ops", OptionList)
        assert "!syntax" in str(ops.get_option_at_index(0).prompt)  # ...and the row shows it
        detail = app.screen.query_one(OpDetail)
        assert detail.view is not None
        assert "introduced by this operation" in detail.view.explanation.plain
        assert "in function f1500" in detail.view.subtitle  # the tree came from the worker
