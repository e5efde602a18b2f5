"""The main pane: the selected operation's header, buttons, explanation and diff."""

from __future__ import annotations

from typing import Any, Literal

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static
from textual.worker import get_current_worker

from reviewtui.core.syntax.symbols import signature_for
from reviewtui.core.text.diff import DiffModel, RowKind, build_diff
from reviewtui.ui.opview import STATE_STYLE, DiffPane, OpView
from reviewtui.ui.widgets.diff_view import DiffView
from reviewtui.ui.widgets.static_update import hold_height, update_static
from reviewtui.ui.worker_results import show_later

SYNC_LINES = 4_000  # diffs of more lines than this are built in a worker


def fold_context(pane: DiffPane, model: DiffModel) -> dict[int, str]:
    """Collapsed row (fold index) -> the signature line of the definition the next shown
    line is inside, when that line is not the definition's own first line (as a
    ``git diff`` hunk header names the function a hunk starts in)."""
    labels: dict[int, str] = {}
    if not pane.symbols:
        return labels
    for row in model.rows[:-1]:  # a fold with nothing shown below it heads nothing
        if row.kind is RowKind.COLLAPSED and row.right is not None:
            symbol = signature_for(pane.symbols, row.right.number + row.hidden)
            if symbol is not None:
                labels[row.fold] = symbol.signature
    return labels


class OpDetail(Vertical):
    """Renders an ``OpView``; keeps the diff options (mode, context, whitespace, expansions)."""

    DEFAULT_CSS = """
    OpDetail { width: 1fr; height: 1fr; }
    OpDetail #op-head { height: auto; padding: 0 1; background: $boost; }
    OpDetail #op-top { height: auto; }
    OpDetail #op-title { width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    OpDetail #op-subtitle { height: auto; }
    OpDetail #op-buttons { height: auto; width: auto; }
    OpDetail.-nothing #op-buttons { display: none; }
    OpDetail #op-buttons Button { min-width: 8; margin: 0 0 0 1; }
    OpDetail #op-explain-scroll { height: auto; max-height: 12; padding: 0 1; }
    OpDetail #op-explain { height: auto; }
    OpDetail #op-explain-scroll.-more { border-bottom: dashed $foreground 30%;
                                        border-subtitle-align: right; }
    OpDetail #pane-label { height: 1; padding: 0 1; color: $text-muted; }
    OpDetail DiffView { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: OpView | None = None
        self.pane_index = 0
        self.mode: Literal["split", "unified"] = "split"
        self.auto_unified = False
        self.context = 3
        self.ignore_whitespace = False
        self.wrap = True
        self.expanded: frozenset[int] = frozenset()
        self._label_text = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="op-head"):
            with Horizontal(id="op-top"):
                yield Static(id="op-title")
                with Horizontal(id="op-buttons"):
                    # For the mouse: the keys they name do the same, and tab goes from
                    # the lists to the explanation without stopping on each (QA s29).
                    for label, name in (("Accept y", "accept"), ("Reject n", "reject"),
                                        ("Edit e", "edit"), ("Force F", "force")):
                        button = Button(label, id=f"btn-{name}", action=f"screen.{name}",
                                        compact=True)
                        button.can_focus = False
                        yield button
            yield Static(id="op-subtitle")
        with VerticalScroll(id="op-explain-scroll"):
            yield Static(id="op-explain")
        yield Static(id="pane-label")
        yield DiffView(id="diff")

    @property
    def diff_view(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def effective_mode(self) -> Literal["split", "unified"]:
        return "unified" if self.auto_unified else self.mode

    def show(self, view: OpView | None, *, keep_pane: bool = False,
             hold: bool = False, unread: Text | None = None) -> None:
        """Show ``view``; ``hold``: the explanation keeps at least its height (the
        operation a decision, undo or redo moves to: the diff does not move, no layout).
        Without a view, ``unread`` says what of the turn's reply was not read as
        operations (see :func:`reviewtui.ui.widgets.lists.unread_parts`)."""
        if not keep_pane or view is None or self.view is None or view.title != self.view.title:
            self.pane_index = 0
            self.expanded = frozenset()
        self.view = view
        self.set_class(view is None, "-nothing")  # no buttons: nothing to decide
        title = self.query_one("#op-title", Static)
        explain = self.query_one("#op-explain", Static)
        subtitle = self.query_one("#op-subtitle", Static)
        if view is None:
            update_static(title, Text("not read as an operation", style="bold red")
                          if unread is not None else Text("no operation selected", style="dim"))
            update_static(subtitle, "")
            hold_height(explain, False)
            update_static(explain, unread if unread is not None else "")
            update_static(self.query_one("#pane-label", Static), "")
            self.diff_view.show_message(
                "Nothing of it can be accepted or written: r shows the raw reply, f the "
                "findings." if unread is not None else "Select an operation on the left.")
            return
        update_static(title, Text(view.title, style="bold"))
        update_static(subtitle, Text(view.subtitle,
                                     style=STATE_STYLE[view.state].replace("bold ", "")))
        hold_height(explain, hold)
        update_static(explain, view.explanation)
        self.call_after_refresh(self._cue_more)
        self.query_one("#btn-force", Button).display = view.forceable
        self.query_one("#btn-edit", Button).display = view.editable  # (a console command)
        self._render_pane()

    def on_resize(self) -> None:
        self.call_after_refresh(self._cue_more)

    def _cue_more(self) -> None:
        """Say so under an explanation longer than its box (6 lines below 100 columns):
        its scrollbar alone is colour, which a monochrome terminal or a screen capture
        does not show (QA pass s28, helper-89 F6: the syntax details were out of sight)."""
        scroll = self.query_one("#op-explain-scroll", VerticalScroll)
        more = scroll.max_scroll_y > 0
        scroll.set_class(more, "-more")
        below, above = scroll.scroll_y < scroll.max_scroll_y, scroll.scroll_y > 0
        scroll.border_subtitle = ("" if not more else "more below: tab to it, ↓ scrolls"
                                  if not above else "more above: ↑ scrolls" if not below
                                  else "more above and below")

    def on_mount(self) -> None:
        scroll = self.query_one("#op-explain-scroll", VerticalScroll)
        self.watch(scroll, "scroll_y", lambda: self._cue_more(), init=False)

    def _render_pane(self) -> None:
        view = self.view
        label = self.query_one("#pane-label", Static)
        if view is None:
            return
        if not view.panes:
            update_static(label, "")
            label.display = bool(view.message)
            self.diff_view.display = bool(view.message)
            self.diff_view.show_message(view.message)
            return
        label.display = True
        self.diff_view.display = True
        self.pane_index %= len(view.panes)
        pane = view.panes[self.pane_index]
        count = len(view.panes)
        more = f"  ({self.pane_index + 1}/{count}, c: next)" if count > 1 else ""
        ws = "  · whitespace ignored (W)" if self.ignore_whitespace else ""
        self._label_text = f"{pane.label}{more}{ws}"
        update_static(label, Text(self._label_text, style="dim"))
        if len(pane.before) + len(pane.after) > SYNC_LINES:
            # A big diff is computed off the event loop: the UI never freezes on it.
            self.diff_view.show_message(f"computing the diff of {pane.path} …")
            self.load_diff(pane, self._diff_options())
            return
        self._show_model(pane, build_diff(pane.before, pane.after, **self._diff_options(pane)))

    def _diff_options(self, pane: DiffPane | None = None) -> dict[str, Any]:
        options: dict[str, Any] = {
            "context": self.context, "ignore_whitespace": self.ignore_whitespace,
            "expanded": self.expanded}
        if pane is not None:
            options.update(before_start=pane.before_start, after_start=pane.after_start)
        return options

    def _show_model(self, pane: DiffPane, model: DiffModel) -> None:
        self.diff_view.shelve()  # an undo comes back to it: its lines are drawn already
        marks = self.view.marks if self.view is not None and pane.after_is_file else frozenset()
        self.diff_view.set_marks(marks)
        self.diff_view.set_fold_context(fold_context(pane, model))
        # The diff says so when it had to cut corners (e.g. no word highlighting in a huge
        # hunk), and "no changes" is worth a word too.
        notes = "; ".join(n for n in model.notes if n != "no changes")
        if notes:
            label = Text(self._label_text, style="dim")
            label.append(f"  · {notes}", style="yellow")
            update_static(self.query_one("#pane-label", Static), label)
        self.diff_view.wrap = self.wrap
        # One side only (a new file, a file removed): split would leave half the view empty
        # and wrap the other half; unified gives it the whole width.
        mode = self.effective_mode if pane.before and pane.after else "unified"
        self.diff_view.set_diff(model, path=pane.path, before_text="\n".join(pane.before),
                                after_text="\n".join(pane.after), mode=mode)
        self.diff_view.unshelve()

    @work(thread=True, exclusive=True, group="diff", description="load_diff")
    def load_diff(self, pane: DiffPane, options: dict[str, Any]) -> None:
        model = build_diff(pane.before, pane.after, before_start=pane.before_start,
                           after_start=pane.after_start, **options)
        worker = get_current_worker()
        if not worker.is_cancelled:
            show_later(self, self._diff_loaded, pane, model)

    def _diff_loaded(self, pane: DiffPane, model: DiffModel) -> None:
        panes = self.view.panes if self.view is not None else ()
        if panes and panes[self.pane_index % len(panes)] == pane:  # still the one on screen
            self._show_model(pane, model)

    def next_pane(self) -> None:
        self.pane_index += 1
        self.expanded = frozenset()
        self._render_pane()

    def set_mode(self, mode: Literal["split", "unified"]) -> None:
        self.mode = mode
        self._render_pane()

    def set_auto_unified(self, narrow: bool) -> None:
        if narrow != self.auto_unified:
            self.auto_unified = narrow
            self._render_pane()

    def change_context(self, delta: int) -> None:
        self.context = max(0, min(50, self.context + delta))
        self._render_pane()

    def toggle_whitespace(self) -> bool:
        """Flip "ignore whitespace"; False when that changes nothing in this diff."""
        self.ignore_whitespace = not self.ignore_whitespace
        self._render_pane()
        pane = self.current_pane()
        if pane is None or len(pane.before) + len(pane.after) > SYNC_LINES:
            return True  # a big diff is not built twice just to say so
        options = self._diff_options(pane)
        flipped = {**options, "ignore_whitespace": not self.ignore_whitespace}
        return build_diff(pane.before, pane.after, **options).rows != build_diff(
            pane.before, pane.after, **flipped).rows

    def current_pane(self) -> DiffPane | None:
        if self.view is None or not self.view.panes:
            return None
        return self.view.panes[self.pane_index % len(self.view.panes)]

    def set_wrap(self, on: bool) -> None:
        self.wrap = on
        self.diff_view.set_wrap(on)

    def expand_region(self, index: int | None = None) -> None:
        """Expand one collapsed region, or all of them."""
        if index is None:
            self.context = 10_000
        else:
            self.expanded = self.expanded | {index}
        self._render_pane()

    def on_diff_view_expand_requested(self, message: DiffView.ExpandRequested) -> None:
        message.stop()
        self.expand_region(message.collapsed_index)
