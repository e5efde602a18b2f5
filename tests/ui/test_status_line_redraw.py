"""The status line is drawn again only when what it says changes.

After ``n`` or its undo the counts are worked out again in the background and the
screen asks for the same line a second time; drawing it again sent the whole line to
the terminal once more (seen with strace) for nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.widgets.status_line import StatusLine

pytestmark = pytest.mark.anyio


async def test_the_same_line_is_not_drawn_twice(tour: tuple[Path, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        drawn: list[str] = []
        real = StatusLine.update
        monkeypatch.setattr(StatusLine, "update", lambda self, content="", **kw: (
            drawn.append(str(content)), real(self, content, **kw))[1])
        screen = screen_of(app)
        screen.refresh_status()
        screen.refresh_status()
        assert drawn == []  # nothing changed since the first frame
        screen.refresh_status(note="saved")
        screen.refresh_status(note="saved")
        assert len(drawn) == 1
        assert "saved" in drawn[0]
        status.progress = "replaying"
        assert len(drawn) == 2
        assert "replaying" in str(status.render())


@pytest.mark.parametrize(("size", "expected"), [
    ((140, 40), "checkpoint 1/5  r1  pending 12  accepted 0  rejected 0  failed 0  "
                "watch: off  DRY-RUN"),
    ((80, 24), "checkpoint 1/5  DRY-RUN  pending 12  accepted 0  rejected 0  failed 0"),
    ((62, 24), "cp 1/5  DRY-RUN  pend 12  acc 0  rej 0  fail 0"),  # (watch: gone for good)
    ((50, 24), "cp 1/5  DRY-RUN  pend 12  acc 0  rej 0  fail 0"),
], ids=["wide", "80", "62", "50"])
async def test_a_narrow_terminal_keeps_dry_run_and_the_counts(
        tour: tuple[Path, Path], size: tuple[int, int], expected: str) -> None:
    """QA pass 84c: at 80 columns the line was cut after "watch:", DRY-RUN with it."""
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        assert str(status.render()).rstrip() == expected
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        assert str(status.render()).startswith("checkpoint 1/5  r1  pending 12")


@pytest.mark.parametrize(("width", "expected"), [
    (80, "checkpoint 1/5  live  pending 12  accepted 0  rejected 0  failed 0  watch: off"),
    (62, "cp 1/5  live  pend 12  acc 0  rej 0  fail 0  no watch"),
])
async def test_a_narrow_live_line_still_says_the_disk_is_not_watched(
        tour: tuple[Path, Path], width: int, expected: str) -> None:
    """QA pass s28 (helper-89): a live review run with --no-watch lost "watch: off" in the
    narrow forms, where a dry run may drop it (it writes nothing)."""
    session, root = tour
    app = open_app(session, root)  # live, not watching
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        assert str(app.screen.query_one(StatusLine).render()).rstrip() == expected


async def test_a_narrow_key_bar_leaves_out_the_palette_key(tour: tuple[Path, Path]) -> None:
    from reviewtui.ui.widgets.footer import KeyFooter

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyFooter)
        assert (bar.compact, bar.show_command_palette) == (True, False)
        await pilot.resize_terminal(140, 40)
        await pilot.pause()
        assert (bar.compact, bar.show_command_palette) == (False, True)


async def test_the_full_key_bar_is_shown_only_where_every_label_fits(
        tour: tuple[Path, Path]) -> None:
    """QA pass s28 (helper-89 F10): at 100 columns on an edit (``e Edit`` shown) the full
    bar cut ``q Quit`` to ``q Qui``; it is compact there until the full one fits, and
    full again on a console command, whose bar is shorter."""
    from reviewtui.core.model.records import ConsoleCommand
    from reviewtui.ui.widgets.footer import KeyFooter

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(101, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        screen.review.finish_evaluation()
        results = [r for t in screen.review.display.turns for r in t.results]
        bar = app.screen.query_one(KeyFooter)
        seen = {}
        for kind in (ConsoleCommand, None):
            key = next(r.key for r in results if isinstance(r.op, ConsoleCommand) == bool(kind))
            assert screen.select_key(key)
            await pilot.pause()
            seen[kind] = (bar.compact, bar.show_command_palette)
            full = KeyFooter._full_width(app.screen)
            assert bar.compact == (full > 101)
        assert seen == {ConsoleCommand: (False, True), None: (True, False)}
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        assert (bar.compact, bar.show_command_palette) == (False, True)


async def test_a_resize_down_to_a_tiny_terminal_gives_the_tiny_layout(
        tour: tuple[Path, Path]) -> None:
    """QA pass s28 (helper-89 F9): resized from 120 to 60 columns, the operation list kept
    the 32 columns the wider layout gave it; a fresh start at 60 gives it the full width."""
    session, root = tour
    widths = {}
    for start in (60, 120):
        app = open_app(session, root, dry_run=True)
        async with app.run_test(size=(start, 30)) as pilot:
            await pilot.pause()
            if start != 60:
                await pilot.resize_terminal(60, 30)
                for _ in range(20):  # (the resize arrives in its own time on a busy machine)
                    await pilot.pause(0.05)
                    if app.screen.size.width == 60:
                        break
                await pilot.pause()
            widths[start] = app.screen.query_one("#left").region.width
    assert widths[120] == widths[60] > 50, widths


@pytest.mark.parametrize(("width", "left_out"), [
    (100, set()), (80, {"accept_turn"}), (60, {"accept_turn", "toggle_findings"}),
    (45, {"accept_turn", "toggle_findings", "checkpoint(1)", "undo"}),
])
async def test_a_compact_bar_too_wide_keeps_help_and_quit(
        tour: tuple[Path, Path], width: int, left_out: set[str]) -> None:
    """QA pass s28 (helper-89 F2): at 70 columns the compact bar was cut at "? H", Help
    and Quit first; now the spare keys go first (all still bound, in the palette and the
    help), and what is shown fits."""
    from textual.widgets._footer import FooterKey

    from reviewtui.ui.widgets.footer import KeyFooter

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyFooter)
        for _ in range(40):  # the bar is rebuilt after a refresh, once it has its width
            await pilot.pause(0.05)
            if not {key.action for key in bar.query(FooterKey)} & left_out:
                break
        shown = [key for key in bar.query(FooterKey) if key.action in {
            b.action for b in app.screen.BINDINGS if getattr(b, "show", True)}]
        actions = {key.action for key in shown}
        assert {"accept", "reject", "help", "quit_review"} <= actions
        assert not actions & left_out
        spare = set(KeyFooter.SPARE) - left_out - {"edit"}
        assert spare <= actions | {"edit"}
        assert sum(len(k.key_display) + len(k.description) + 2 for k in shown) <= width + 1


async def test_a_long_state_path_is_cut_with_a_mark_not_wrapped_away(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """QA pass s28: with the state kept outside the session's folder, a long path wrapped
    onto the line's hidden second row, leaving a bare "state:"."""
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        long_path = "/tmp/" + "x" * 150 + "/session.jsonl.review.json"
        monkeypatch.setattr(type(screen), "_state_at", lambda self: long_path)
        screen.refresh_status()
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        drawn = status.render_line(0).text
        # Cut from its start, folders first: the file name's end stays (QA pass s28,
        # helper-89 F1b: "state: /tmp/xxx…" told nothing).
        assert "state: …" in drawn, drawn
        assert drawn.rstrip().endswith(".jsonl.review.json"), drawn
        assert len(drawn.rstrip()) <= 120
        await pilot.resize_terminal(160, 40)  # room for the whole name, and folders
        for _ in range(20):  # (the resize reaches the line in its own time on a busy machine)
            await pilot.pause(0.05)
            if status.size.width > 150:
                break
        screen.refresh_status()
        await pilot.pause()
        drawn = status.render_line(0).text.rstrip()
        assert drawn.endswith("…/session.jsonl.review.json"), drawn
        assert "state: /tmp/xxx" in drawn
        assert len(drawn) <= 160
