"""The selected turn's whole request, wrapped, above the operation (R folds it)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from reviewtui.ui.widgets.diff_render import sanitize_text


class RequestBlock(VerticalScroll):
    """What the reviewer asked in this turn: every line, or its first line when folded."""

    DEFAULT_CSS = """
    RequestBlock { height: auto; padding: 0 1; background: $boost 50%;
                   border-bottom: hkey $primary-darken-2; }
    RequestBlock.-folded { border-bottom: none; overflow-y: hidden; }
    RequestBlock Static { height: auto; }
    /* Folded: one line, cut with a mark (the Text's own no_wrap is not what Static
       reads: the line wrapped and its second half was hidden, with no sign of it). */
    RequestBlock.-folded Static { text-wrap: nowrap; text-overflow: ellipsis; }
    RequestBlock { border-subtitle-align: right; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.folded = False
        self.room = 6  # lines at most when unfolded (the screen lowers it on short terminals)
        self._turn: int | None = None
        self._request = ""

    def compose(self) -> ComposeResult:
        yield Static(id="request-text")

    def on_mount(self) -> None:
        self.watch(self, "scroll_y", lambda: self._cue_more(), init=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self._cue_more)

    def _cue_more(self) -> None:
        """A request longer than its lines says so under it, and takes the focus (tab) so
        the keyboard can scroll it: its scrollbar, colour only, was the one sign of the
        rest, which only a mouse could reach (the explanation's cue, op_detail.py)."""
        more = not self.has_class("-folded") and self.max_scroll_y > 0
        self.can_focus = more
        below, above = self.scroll_y < self.max_scroll_y, self.scroll_y > 0
        self.border_subtitle = ("" if not more else "more below: tab to it, ↓ scrolls"
                                if not above else "more above: ↑ scrolls" if not below
                                else "more above and below")

    def show(self, turn: int | None, request: str) -> None:
        self._turn, self._request = turn, request
        self._render_request()

    def set_room(self, lines: int) -> None:
        if lines != self.room:
            self.room = lines
            self._render_request()

    def toggle(self) -> None:
        self.folded = not self.folded
        self._render_request()

    def _render_request(self) -> None:
        folded = self.folded or self.room <= 1  # one line: the request's first, no border
        self.set_class(folded, "-folded")
        self.styles.max_height = 1 if folded else self.room
        text = Text()
        if self._turn is None:
            self.query_one(Static).update(text)
            self.call_after_refresh(self._cue_more)
            return
        # Control characters shown as their pictures, as in the diffs (an ESC in an
        # agent's intent was dropped from view: QA s32, F15); the line breaks stay.
        request = sanitize_text(self._request.strip() or "(no request)")
        arrow = "▸" if folded else "▾"
        text.append(f"{arrow} Turn {self._turn} asked ", style="bold")
        text.append("(R folds) " if not folded else "(R shows all) ", style="dim")
        if folded:
            first, *rest = request.splitlines()
            text.append(first, style="italic")
            if rest:  # more lines hidden: said even where the first fits (QA pass s28)
                text.append(" …", style="dim")
            text.no_wrap, text.overflow = True, "ellipsis"
        else:
            text.append("\n")
            text.append(request)  # outside text: a Text, never markup
        self.query_one(Static).update(text)
        self.call_after_refresh(self._cue_more)
