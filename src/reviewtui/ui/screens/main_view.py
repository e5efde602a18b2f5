"""How the review screen looks: the remembered layout, diff options, panels, other views."""

from __future__ import annotations

from textual.events import Resize

from reviewtui.core.errors import ReviewtuiError
from reviewtui.shell.userconfig import save_layout
from reviewtui.ui.screens.main_cursor import ReviewCursor
from reviewtui.ui.widgets.findings import FindingsPanel
from reviewtui.ui.widgets.lists import OpList
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.request_block import RequestBlock

NARROW = 100  # below this many columns the diff switches to unified by itself
TINY = 70  # below this the operation list moves above the diff


class ViewOptions(ReviewCursor):
    def _apply_layout(self) -> None:
        """The remembered layout (user config folder, layout.toml), before the first paint."""
        detail = self.query_one(OpDetail)
        layout = self.view_layout
        detail.mode = "unified" if layout["mode"] == "unified" else "split"
        detail.wrap = bool(layout["wrap"])
        detail.ignore_whitespace = bool(layout["whitespace"])
        detail.context = int(layout["context"])
        self.query_one("#left").display = bool(layout["panel"])

    def _remember(self, **changes: bool | int | str) -> None:
        self.view_layout.update(changes)
        save_layout(self.view_layout)

    def action_toggle_mode(self) -> None:
        detail = self.query_one(OpDetail)
        detail.set_mode("unified" if detail.mode == "split" else "split")
        self._remember(mode=detail.mode)

    def action_toggle_wrap(self) -> None:
        detail = self.query_one(OpDetail)
        detail.set_wrap(not detail.wrap)
        self._remember(wrap=detail.wrap)
        self.notify("long lines wrap" if detail.wrap else
                    "long lines are cut (› marks it): ← → scroll them")

    def action_toggle_panel(self) -> None:
        left = self.query_one("#left")
        left.display = not left.display
        # (set_focus, not focus(): that waits for the app's queue, and a key read with
        # this one went to the widget focused before: QA s53 helper-225's "f j y")
        target = (self.query_one(OpDetail).diff_view if not left.display
                  else self.query_one("#ops", OpList))
        self.set_focus(target)
        target.focus()  # (and again once laid out: hiding the focused list moves it)
        self._remember(panel=bool(left.display))
        self.call_after_refresh(self._refresh_op_rows)

    def action_scroll_diff(self, cells: int) -> None:
        view = self.query_one(OpDetail).diff_view
        view.scroll_to(x=max(0, view.scroll_offset.x + cells), animate=False)

    def action_toggle_hashline(self) -> None:
        view = self.query_one(OpDetail).diff_view
        view.set_hashline(not view.hashline)

    def action_toggle_whitespace(self) -> None:
        detail = self.query_one(OpDetail)
        changed = detail.toggle_whitespace()
        self._remember(whitespace=detail.ignore_whitespace)
        state = "ignored" if detail.ignore_whitespace else "shown"
        if not changed:
            self.notify(f"whitespace {state}: no whitespace-only differences here")
        else:
            self.notify(f"whitespace {state}")

    def action_context(self, delta: int) -> None:
        detail = self.query_one(OpDetail)
        detail.change_context(delta * 3)
        self._remember(context=detail.context)

    def action_expand(self) -> None:
        self.query_one(OpDetail).expand_region()

    def action_next_pane(self) -> None:
        self.query_one(OpDetail).next_pane()

    def action_toggle_findings(self) -> None:
        panel = self.query_one(FindingsPanel)
        panel.display = not panel.display
        if panel.display:
            panel.show_turn(self.findings, self.session_turns[self.turn_pos].index
                            if self.session_turns else None)
            self.set_focus(panel)  # (at once: "f j" moves in the findings, see above)

    def action_toggle_request(self) -> None:
        self.query_one(RequestBlock).toggle()

    def on_resize(self, event: Resize) -> None:
        width = event.size.width
        self.set_class(width < NARROW, "-narrow")
        self.set_class(width < TINY, "-tiny")
        # The lists take about a quarter of the terminal, within bounds (44 was fixed).
        # Tiny: no width of its own, so the stylesheet's full width applies (a width set
        # here at a wider size outlived a resize down: QA pass s28, helper-89 F9).
        self.query_one("#left").styles.width = (
            max(28, min(56, width * 3 // 11)) if width >= TINY else None)
        height = event.size.height
        # The request takes a few lines, fewer on a short terminal: the diff comes first.
        self.query_one(RequestBlock).set_room(
            1 if width < TINY or height < 26 else 4 if height < 36 else 6)
        self.query_one(OpDetail).set_auto_unified(width < NARROW)

    def on_op_list_resized(self, _message: OpList.Resized) -> None:
        if self._turn_states:  # (none yet: the rows are made once there are)
            self._refresh_op_rows()

    def action_raw(self) -> None:
        from reviewtui.ui.screens.raw import RawReplyScreen

        if not self.session_turns:
            return
        turn = self.session_turns[self.turn_pos]
        findings = [f for f in self.findings if f.turn == turn.index]
        try:
            lines = self.review.session_lines
        except ReviewtuiError as err:
            self.notify(str(err), severity="error", timeout=10, markup=False)
            return
        self.app.push_screen(RawReplyScreen(lines, turn, findings))

    def action_stats(self) -> None:
        from reviewtui.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.review))

    def action_help(self) -> None:
        from reviewtui.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.BINDINGS))
