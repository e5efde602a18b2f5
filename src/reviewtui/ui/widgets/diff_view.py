"""The diff of one operation, side by side or unified, rendered a line at a time.

``DiffView`` is a Line API widget (a ``ScrollView`` with ``render_line``, as Textual's
``Log`` and toolong's ``LogLines``): only the rows on screen are rendered, each into a
``Strip`` kept in an LRU keyed by (row, width, mode, cursor), so a 20,000-row diff
opens as fast as a ten-row one. Rows come from :func:`reviewtui.core.text.diff.build_diff`;
syntax colours come from :mod:`reviewtui.ui.highlight`, computed in a worker for big
texts (the rows show plain until it is ready) and looked up by line number:
a side numbered ``n`` is line ``n - model.before_start`` of ``before_text`` (left) or
``n - model.after_start`` of ``after_text`` (right). A line whose highlighted text does
not match the row's text is shown plain rather than mis-coloured.

No character is ever hidden silently. With ``wrap`` on (the default) a row longer than
its side is shown on several *visual lines*, the later ones marked ``↪`` in the
gutter: the widget scrolls by visual line and maps each back to (row, piece). With
``wrap`` off the text scrolls horizontally (both sides together), a cut end shows
``›`` (a cut start ``‹``), and a diff first shown (or first cut) whose first changed
word lies beyond the cut is scrolled to just before that word, so the change itself is
in view; from there `←` `→` move what is on screen, down to the lines' first column.
A view too short for the context above the first change is scrolled down to it.

The widget only shows and reports: clicking a collapsed row posts
:class:`DiffView.ExpandRequested`, moving the cursor posts :class:`DiffView.RowSelected`;
the screen rebuilds the model and owns the review keys.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import ClassVar

from textual import events, work
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import get_current_worker

from reviewtui.core.text.diff import DiffModel, DiffRow, RowKind, unified_rows
from reviewtui.ui.highlight import Line, cached_lines, highlight_lines
from reviewtui.ui.widgets.diff_paint import (
    CONTINUED,
    CUT_END,
    CUT_START,
    DIVIDER,
    DiffMode,
    DiffPainter,
    _Palette,
    first_change,
    locate_row,
    reveal_offset,
    side_width,
)
from reviewtui.ui.widgets.diff_shelf import StripCache, StripShelf
from reviewtui.ui.worker_results import show_later

SYNC_HIGHLIGHT_CHARS = 20_000  # smaller texts are highlighted at once (a few ms)


class DiffView(DiffPainter, can_focus=True):
    """A diff of one region or file: ``set_diff`` to show one, ``set_mode`` to switch."""

    ALLOW_SELECT = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor_up", "Up", show=False, id="diff_view.cursor_up"),
        Binding("down", "cursor_down", "Down", show=False, id="diff_view.cursor_down"),
        Binding("pageup", "cursor_page_up", "Page up", show=False,
                id="diff_view.cursor_page_up"),
        Binding("pagedown", "cursor_page_down", "Page down", show=False,
                id="diff_view.cursor_page_down"),
        Binding("home", "cursor_home", "First row", show=False, id="diff_view.cursor_home"),
        Binding("end", "cursor_end", "Last row", show=False, id="diff_view.cursor_end"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-view--gutter",
        "diff-view--removed",
        "diff-view--added",
        "diff-view--removed-word",
        "diff-view--added-word",
        "diff-view--removed-marker",
        "diff-view--added-marker",
        "diff-view--collapsed",
        "diff-view--empty",
        "diff-view--divider",
        "diff-view--cursor",
        "diff-view--message",
    }

    DEFAULT_CSS = """
    DiffView {
        background: $surface;
        color: $foreground;
        overflow-x: auto;
        overflow-y: auto;
        & > .diff-view--gutter { color: $foreground 45%; }
        & > .diff-view--removed { background: $error 15%; }
        & > .diff-view--added { background: $success 15%; }
        & > .diff-view--removed-word { background: $error 45%; }
        & > .diff-view--added-word { background: $success 45%; }
        & > .diff-view--removed-marker { color: $text-error; text-style: bold; }
        & > .diff-view--added-marker { color: $text-success; text-style: bold; }
        & > .diff-view--collapsed {
            color: $foreground 55%;
            background: $foreground 5%;
            text-style: italic;
        }
        & > .diff-view--empty { background: $background 70%; }
        & > .diff-view--divider { color: $foreground 25%; }
        & > .diff-view--cursor { background: $accent 40%; color: $foreground; text-style: bold; }
        & > .diff-view--message { color: $foreground 60%; text-style: italic; }
    }
    """

    cursor_row: var[int] = var(0, init=False)
    """The highlighted row (an index into :attr:`rows`), moved with the arrow keys."""

    class ExpandRequested(Message):
        """A collapsed row was clicked: rebuild with ``collapsed_index`` in ``expanded``."""

        def __init__(self, collapsed_index: int, diff_view: DiffView | None = None) -> None:
            super().__init__()
            self.collapsed_index = collapsed_index
            self.diff_view = diff_view

        @property
        def control(self) -> DiffView | None:
            return self.diff_view

    class RowSelected(Message):
        """The cursor moved to row ``index`` (``row`` is ``None`` when there are none)."""

        def __init__(self, index: int, row: DiffRow | None,
                     diff_view: DiffView | None = None) -> None:
            super().__init__()
            self.index = index
            self.row = row
            self.diff_view = diff_view

        @property
        def control(self) -> DiffView | None:
            return self.diff_view

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._model: DiffModel | None = None
        self._rows: tuple[DiffRow, ...] = ()
        self._path = ""
        self._before_text = ""
        self._after_text = ""
        self._before_lines: tuple[Line, ...] | None = None
        self._after_lines: tuple[Line, ...] | None = None
        self._generation = 0  # bumped with new texts, so a late highlight is dropped
        self._highlight_pending = False
        self._message: tuple[str, ...] = ()
        self._number_width = 1
        self.hashline = False
        self.marks: frozenset[int] = frozenset()
        self.fold_context: dict[int, str] = {}  # collapsed row -> enclosing signature
        self._text_width = 0  # widest row text in cells, for unified horizontal scrolling
        self._palette: _Palette | None = None
        self._cache: StripCache = LRUCache(1024)
        self._shelf = StripShelf()  # the lines of diffs shown before (shelve / unshelve)
        self.wrap = True
        # Wrapped layout: each row's first visual line (and the total at the end); None
        # while every row fits on one line (the common case costs nothing).
        self._tops: list[int] | None = None
        self._lengths: list[tuple[int, int]] = []  # per row: (left, right) text cells
        self._layout_width = -1
        self._shown_height = 0  # the content height when last laid out (see _expected_width)
        self._relayout_due = False
        self._reveal_due = False  # scroll to the first change once the width is known
        self._reveal_rows_due = False  # and down to it once the height is

    # --- public API ------------------------------------------------------------------

    @property
    def model(self) -> DiffModel | None:
        return self._model

    @property
    def rows(self) -> tuple[DiffRow, ...]:
        """The rows shown in the current mode."""
        return self._rows

    @property
    def message(self) -> str:
        return "\n".join(self._message)

    def set_diff(self, model: DiffModel, *, path: str, before_text: str, after_text: str,
                 mode: DiffMode = "split", keep_position: bool | None = None) -> None:
        """Show ``model``.

        ``before_text``/``after_text`` are the full texts the model's lines come from
        (lines joined with "\\n"), highlighted by ``path``'s language; ``model.rows``
        number them from ``model.before_start``/``model.after_start``.
        ``keep_position`` keeps the cursor on the same file line at the same height on
        screen (for a rebuild of the same diff: an expansion, more context, another
        mode); ``None`` does so when the path and texts are the ones already shown, and
        otherwise starts at the top.
        """
        same = (self._model is not None and path == self._path
                and before_text == self._before_text and after_text == self._after_text)
        anchor = self._anchor() if (same if keep_position is None else keep_position) else None
        self._model = model
        self._message = ()
        if not same:  # new texts: highlight them (a rebuild keeps what it has or awaits)
            self._generation += 1
            self._path = path
            self._before_text = before_text
            self._after_text = after_text
            self._before_lines = cached_lines(path, before_text)
            self._after_lines = cached_lines(path, after_text)
            self._highlight_pending = False
            if self._before_lines is None or self._after_lines is None:
                if len(before_text) + len(after_text) <= SYNC_HIGHLIGHT_CHARS:
                    self._before_lines = highlight_lines(path, before_text)
                    self._after_lines = highlight_lines(path, after_text)
                else:
                    self._highlight_pending = True
        numbers = [side.number for row in model.rows for side in (row.left, row.right)
                   if side is not None]
        last = max(numbers, default=1) + max((row.hidden for row in model.rows), default=0)
        self._number_width = len(str(last)) + (3 if self.hashline else 0)  # ":a3"
        self.set_reactive(DiffView.mode, mode)
        self._show_rows(anchor)
        if self._highlight_pending and self.is_mounted:
            self._start_highlighting()

    def set_marks(self, marks: frozenset[int]) -> None:
        """Mark these lines of the right-hand side (the file after) in the gutter."""
        if marks != self.marks:
            self.marks = marks
            self._cache.clear()
            self.refresh()

    def set_fold_context(self, labels: dict[int, str]) -> None:
        """Name, on each collapsed row (by fold index), the definition it is inside."""
        if labels != self.fold_context:
            self.fold_context = labels
            self._cache.clear()
            self.refresh()

    def set_hashline(self, on: bool) -> None:
        """Show each line's id (``12:a3``) in the gutter instead of its number."""
        if on == self.hashline:
            return
        self.hashline = on
        self._number_width += 3 if on else -3
        self._cache.clear()
        self._show_rows(None)

    def set_wrap(self, on: bool) -> None:
        """Soft-wrap long lines (on) or scroll them horizontally with cut markers (off)."""
        if on != self.wrap:
            self.wrap = on
            self._show_rows(self._anchor())
            if not on:  # newly cut lines: bring the change into view
                self._reveal_due = True
                self._reveal()

    def visual_lines(self) -> int:
        """How many lines the rows take on screen (wrapped rows count each line)."""
        return self._tops[-1] if self._tops is not None else len(self._rows)

    def set_mode(self, mode: DiffMode) -> None:
        """Switch between split and unified, keeping the cursor on the same line."""
        self.mode = mode

    def show_message(self, text: str) -> None:
        """Show ``text`` instead of a diff (an empty or informational state)."""
        self._generation += 1
        self._model = None
        self._path = self._before_text = self._after_text = ""
        self._before_lines = self._after_lines = None
        self._highlight_pending = False
        self._message = tuple(text.split("\n"))
        self._show_rows(None)

    def fold_near_cursor(self) -> int | None:
        """The collapsed run for an "expand" key: the cursor's row if collapsed, else
        the nearest collapsed row below it, else above it."""
        rows = self._rows
        start = min(self.cursor_row, len(rows))
        order: list[int] = [*range(start, len(rows)), *range(start - 1, -1, -1)]
        for index in order:
            row = rows[index]
            if row.kind is RowKind.COLLAPSED:
                return row.fold
        return None

    # --- state changes ---------------------------------------------------------------

    def _anchor(self) -> tuple[DiffRow, int] | None:
        """The cursor's row and its height on screen, to find them again after a rebuild."""
        if not self.cursor_row < len(self._rows):
            return None
        return self._rows[self.cursor_row], self._row_top(self.cursor_row) - self.scroll_offset.y

    def _show_rows(self, anchor: tuple[DiffRow, int] | None) -> None:
        if self._model is None:
            self._rows = ()
        elif self.mode == "unified":
            self._rows = unified_rows(self._model)
        else:
            self._rows = self._model.rows
        self._cache.clear()
        self._text_width = self._measure_rows() if self._model is not None else 0
        self._layout()
        if anchor is None:
            self.set_reactive(DiffView.cursor_row, 0)
            self.scroll_to(0, 0, animate=False, immediate=True)
            self._reveal_due = not self.wrap and self._model is not None
            self._reveal_rows_due = self._model is not None
            self._reveal()
        else:
            row, screen_offset = anchor
            cursor = locate_row(self._rows, row)
            self.set_reactive(DiffView.cursor_row, cursor)
            self.scroll_to(x=None if not self.wrap else 0,
                           y=max(0, self._row_top(cursor) - screen_offset),
                           animate=False, immediate=True)
        self.refresh()

    # --- wrapped layout ----------------------------------------------------------------

    def _text_room(self, width: int) -> int:
        """Cells for the text of a side (each side alike, or the only one) at ``width``."""
        if self.mode == "unified":
            return max(1, width - 2 * (self._number_width + 1) - 2)
        return max(1, side_width(width) - (self._number_width + 1 + 2))  # gutter, marker

    def _layout(self) -> None:
        """Map visual lines to (row, piece) for the current width; set the virtual size."""
        width = self._expected_width()
        self._layout_width = width
        self._tops = None
        if self._model is None:
            self._set_virtual_size(Size(0, len(self._message) + 1))
            return
        room = self._text_room(width)
        if not self.wrap or width <= 0:
            widest = self._text_width
            if self.mode == "unified":
                self._set_virtual_size(Size(self._unified_width(), len(self._rows)))
            else:
                self._set_virtual_size(Size(width + max(0, widest - room), len(self._rows)))
            return
        if self._text_width <= room:
            self._set_virtual_size(Size(0, len(self._rows)))
            return
        heights = [max(1, -(-max(left, right) // room)) for left, right in self._lengths]
        self._tops = list(accumulate(heights, initial=0))
        self._set_virtual_size(Size(0, self._tops[-1]))

    def _set_virtual_size(self, size: Size) -> None:
        """The rows' size. Textual lays out the whole screen for a new virtual size; a
        diff view keeps its own size, so only its scrollbars are updated (when one comes
        or goes, that asks for the layout itself) and the view is redrawn."""
        if size == self.virtual_size:
            return
        if not self.is_mounted:
            self.virtual_size = size
            return
        self.set_reactive(DiffView.virtual_size, size)
        self._scroll_update(size)
        self.refresh()

    def _reveal(self) -> bool:
        """Bring the first change into view, once, when a diff is first shown: down to it
        (see :meth:`_reveal_first_row`) once the height is known, and without wrapping
        sideways to its first changed word (also when first cut) once the width is. True
        when it scrolled down."""
        down = self._reveal_rows_due and self._reveal_first_row()
        width = self._layout_width
        if not self._reveal_due or self.wrap or self._model is None or width <= 0:
            return down
        self._reveal_due = False
        x = self._reveal_offset(width)
        if x:
            self.scroll_to(x=x, animate=False, immediate=True, force=True)
        return down

    def _reveal_first_row(self) -> bool:
        """A view too short for the context above the first change (60x20: the fold and
        three lines filled it) puts the cursor on the change, a third of the way down."""
        height = self.scrollable_content_region.height
        if height <= 0:
            return False
        self._reveal_rows_due = False
        index = first_change(self._rows)
        if index is None or self._row_top(index) + self._row_height(index) <= height:
            return False
        self.set_reactive(DiffView.cursor_row, index)
        self.scroll_to(y=max(0, self._row_top(index) - height // 3), animate=False,
                       immediate=True)
        return True

    def _reveal_offset(self, width: int) -> int:
        return reveal_offset(self._rows, self.mode == "unified", self._text_room(width),
                             self._text_width)

    def _expected_width(self) -> int:
        """The text width once the rows are in: without the vertical scrollbar's room
        when they will need one (so the layout is not done twice on first paint)."""
        if not self.is_mounted:
            return 0
        region = self.content_region
        width, height = region.width, region.height
        if height:
            self._shown_height = height
        elif self.display and isinstance(self.parent, Widget) and self.parent.size.width:
            # Shown again after being hidden (Textual gives a hidden widget no size until
            # the layout after this frame): wrapped at width 0, this frame would show the
            # rows unwrapped and the next one wrapped. The view spans its parent's width;
            # its height is taken as it was (only the scrollbar's room depends on it).
            width = max(0, self.parent.content_region.width - self.styles.margin.width
                        - self.styles.gutter.width)
            height = self._shown_height or self.parent.content_region.height
        if self.styles.overflow_y == "auto":
            rows = len(self._rows)
            bar = self.styles.scrollbar_size_vertical if rows > height else 0
            return max(0, width - bar)
        return self.scrollable_content_region.width if region.width else width

    def _row_top(self, index: int) -> int:
        if self._tops is None or not 0 <= index < len(self._tops):
            return index
        return self._tops[index]

    def _row_height(self, index: int) -> int:
        if self._tops is None or not 0 <= index < len(self._tops) - 1:
            return 1
        return self._tops[index + 1] - self._tops[index]

    def _row_at(self, visual: int) -> tuple[int, int]:
        """(row, piece) shown on visual line ``visual``."""
        tops = self._tops
        if tops is None:
            return visual, 0
        if not 0 <= visual < tops[-1]:
            return len(self._rows), 0
        index = bisect_right(tops, visual) - 1
        return index, visual - tops[index]

    def on_resize(self, event: events.Resize) -> None:
        self._relayout()

    def _relayout(self) -> None:
        self._relayout_due = False
        if self._model is not None and self.scrollable_content_region.width != self._layout_width:
            anchor = self._anchor()
            self._cache.clear()
            self._layout()
            if not self._reveal() and anchor is not None:
                self.scroll_to(y=max(0, self._row_top(self.cursor_row) - anchor[1]),
                               animate=False, immediate=True)
            self.refresh()

    def watch_mode(self, old: DiffMode, new: DiffMode) -> None:
        if old != new:
            self._show_rows(self._anchor())

    def validate_cursor_row(self, value: int) -> int:
        return max(0, min(value, len(self._rows) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self._scroll_cursor_into_view()
        row = self._rows[new] if new < len(self._rows) else None
        self.post_message(self.RowSelected(new, row, self))

    def _refresh_row(self, index: int) -> None:
        # The cursor is part of the strip cache key: nothing to discard.
        self.refresh_lines(self._row_top(index), self._row_height(index))

    def _scroll_cursor_into_view(self) -> None:
        height = self.scrollable_content_region.height
        if height <= 0:
            return
        top = self.scroll_offset.y
        first = self._row_top(self.cursor_row)
        last = first + self._row_height(self.cursor_row) - 1
        if first < top:
            self.scroll_to(y=first, animate=False, immediate=True)
        elif last >= top + height:
            self.scroll_to(y=min(first, last - height + 1), animate=False, immediate=True)

    # --- highlighting ----------------------------------------------------------------

    def on_mount(self) -> None:
        if self._highlight_pending:
            self._start_highlighting()

    def _start_highlighting(self) -> None:
        self._highlight_pending = False
        self.load_highlighting(self._generation, self._path, self._before_text,
                               self._after_text)

    @work(thread=True, exclusive=True, group="diff-view-highlight",
          description="load_highlighting")
    def load_highlighting(self, generation: int, path: str, before_text: str,
                          after_text: str) -> None:
        before = highlight_lines(path, before_text)
        if get_current_worker().is_cancelled:
            return
        after = highlight_lines(path, after_text)
        if get_current_worker().is_cancelled:
            return
        show_later(self, self._highlighted, generation, before, after)

    def _highlighted(self, generation: int, before: tuple[Line, ...],
                     after: tuple[Line, ...]) -> None:
        if generation != self._generation:
            return
        self._before_lines = before
        self._after_lines = after
        self._cache.clear()
        self.refresh()

    # --- input -----------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index, _ = self._row_at(offset.y + self.scroll_offset.y)
        if not 0 <= index < len(self._rows):
            return
        event.stop()
        self.cursor_row = index
        row = self._rows[index]
        if row.kind is RowKind.COLLAPSED:
            self.post_message(self.ExpandRequested(row.fold, self))

    def on_focus(self) -> None:
        self._refresh_row(self.cursor_row)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor_row)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_up(self) -> None:
        self.cursor_row -= 1

    def action_cursor_down(self) -> None:
        self.cursor_row += 1

    def action_cursor_page_up(self) -> None:
        self.scroll_to(y=self.scroll_offset.y - self._page(), animate=False, immediate=True)
        self.cursor_row -= self._page()

    def action_cursor_page_down(self) -> None:
        self.scroll_to(y=self.scroll_offset.y + self._page(), animate=False, immediate=True)
        self.cursor_row += self._page()

    def action_cursor_home(self) -> None:
        self.cursor_row = 0

    def action_cursor_end(self) -> None:
        self.cursor_row = len(self._rows) - 1

    # --- rendering -------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        palette = self._get_palette()
        if width <= 0:
            return Strip.blank(0)
        if self._model is None:
            return self._render_message(scroll_y + y, width, palette)
        if width != self._layout_width and not self._relayout_due:
            self._relayout_due = True  # the scrollbar came or went: wrap anew, once
            self.call_later(self._relayout)
        index, piece = self._row_at(scroll_y + y)
        if index >= len(self._rows):
            return Strip.blank(width, palette.base)
        cursor = index == self.cursor_row and self.has_focus
        shift = 0 if self.wrap else scroll_x
        key = (index, piece, width, self.mode, cursor, self.wrap, shift)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(self._rows[index], width, cursor, palette, piece, shift)
            self._cache[key] = strip
        return strip

__all__ = ["CONTINUED", "CUT_END", "CUT_START", "DIVIDER", "DiffMode", "DiffView"]
