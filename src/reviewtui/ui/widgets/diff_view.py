"""The diff of one operation, side by side or unified, rendered a line at a time.

``DiffView`` is a Line API widget (a ``ScrollView`` with ``render_line``, as Textual's
``Log`` and toolong's ``LogLines``): only the rows on screen are rendered, each into a
``Strip`` kept in an LRU keyed by (row, width, mode, cursor), so a 20,000-row diff
opens as fast as a ten-row one. Rows come from :func:`reviewtui.core.diff.build_diff`;
syntax colours come from :mod:`reviewtui.ui.highlight`, computed in a worker for big
texts (the rows show plain until it is ready) and looked up by line number:
a side numbered ``n`` is line ``n - model.before_start`` of ``before_text`` (left) or
``n - model.after_start`` of ``after_text`` (right). A line whose highlighted text does
not match the row's text is shown plain rather than mis-coloured.

The widget only shows and reports: clicking a collapsed row posts
:class:`DiffView.ExpandRequested`, moving the cursor posts :class:`DiffView.RowSelected`;
the screen rebuilds the model and owns the review keys.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from reviewtui.core.diff import DiffModel, DiffRow, RowKind, Side, unified_rows
from reviewtui.core.hashline import line_id
from reviewtui.ui.highlight import PLAIN, Line, cached_lines, highlight_lines

DiffMode = Literal["split", "unified"]

TAB_SIZE = 4
SYNC_HIGHLIGHT_CHARS = 20_000  # smaller texts are highlighted at once (a few ms)
DIVIDER = "│"
# Control characters would move the terminal's cursor: show their Unicode pictures.
_CONTROL = {c: 0x2400 + c for c in range(0x20) if c != 0x09} | {0x7F: 0x2421}


def _sanitize(text: str) -> str:
    return text.translate(_CONTROL)


def _fg(style: Style) -> Style:
    return Style(color=style.color, bold=style.bold, italic=style.italic, dim=style.dim)


def _bg(style: Style) -> Style:
    return Style(bgcolor=style.bgcolor)


@dataclass(frozen=True, slots=True)
class _Palette:
    """Rich styles from the component classes, split into what each layer sets."""

    base: Style
    gutter: Style
    removed: Style
    added: Style
    removed_word: Style
    added_word: Style
    removed_marker: Style
    added_marker: Style
    collapsed: Style
    empty: Style
    divider: Style
    cursor: Style
    message: Style


class DiffView(ScrollView, can_focus=True):
    """A diff of one region or file: ``set_diff`` to show one, ``set_mode`` to switch."""

    ALLOW_SELECT = False
    EXPAND_HINT: ClassVar[str] = "x expands"

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

    mode: var[DiffMode] = var[DiffMode]("split", init=False)
    """"split" (before | after) or "unified" (removed lines above added ones)."""

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
        self._cache: LRUCache[tuple[int, int, str, bool], tuple[Strip, Strip]] = LRUCache(1024)

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
        return self._rows[self.cursor_row], self.cursor_row - self.scroll_offset.y

    def _show_rows(self, anchor: tuple[DiffRow, int] | None) -> None:
        if self._model is None:
            self._rows = ()
        elif self.mode == "unified":
            self._rows = unified_rows(self._model)
        else:
            self._rows = self._model.rows
        self._cache.clear()
        unified = self.mode == "unified" and self._model is not None
        self._text_width = self._measure_text() if unified else 0
        height = len(self._rows) if self._model is not None else len(self._message) + 1
        self.virtual_size = Size(self._unified_width() if unified else 0, height)
        if anchor is None:
            self.set_reactive(DiffView.cursor_row, 0)
            self.scroll_to(0, 0, animate=False, immediate=True)
        else:
            row, screen_offset = anchor
            cursor = self._locate(row)
            self.set_reactive(DiffView.cursor_row, cursor)
            self.scroll_to(x=None if unified else 0, y=max(0, cursor - screen_offset),
                           animate=False, immediate=True)
        self.refresh()

    def _locate(self, anchor: DiffRow) -> int:
        """The row showing ``anchor``'s file line in the current rows: the same fold,
        else a row or collapsed run holding the line, else the last row before it."""
        if anchor.kind is RowKind.COLLAPSED:
            for index, row in enumerate(self._rows):
                if row.kind is RowKind.COLLAPSED and row.fold == anchor.fold:
                    return index
        left = anchor.left.number if anchor.left else None
        right = anchor.right.number if anchor.right else None
        before = 0
        for index, row in enumerate(self._rows):
            span = max(1, row.hidden)
            hits = [(side.number, want) for side, want in ((row.left, left), (row.right, right))
                    if side is not None and want is not None]
            if any(number <= want < number + span for number, want in hits):
                return index
            if any(number <= want for number, want in hits):
                before = index
        return before

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
        self.refresh_line(index)

    def _scroll_cursor_into_view(self) -> None:
        height = self.scrollable_content_region.height
        if height <= 0:
            return
        top = self.scroll_offset.y
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + height:
            self.scroll_to(y=self.cursor_row - height + 1, animate=False, immediate=True)

    # --- highlighting ----------------------------------------------------------------

    def on_mount(self) -> None:
        if self._highlight_pending:
            self._start_highlighting()

    def _start_highlighting(self) -> None:
        self._highlight_pending = False
        self.load_highlighting(self._generation, self._path, self._before_text,
                               self._after_text)

    @work(thread=True, exclusive=True, group="diff-view-highlight")
    def load_highlighting(self, generation: int, path: str, before_text: str,
                          after_text: str) -> None:
        before = highlight_lines(path, before_text)
        if get_current_worker().is_cancelled:
            return
        after = highlight_lines(path, after_text)
        if get_current_worker().is_cancelled:
            return
        with suppress(RuntimeError):  # the app closed meanwhile: nobody left to colour for
            self.app.call_from_thread(self._highlighted, generation, before, after)

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
        index = offset.y + self.scroll_offset.y
        if not 0 <= index < len(self._rows):
            return
        event.stop()
        self.cursor_row = index
        row = self._rows[index]
        if row.kind is RowKind.COLLAPSED:
            self.post_message(self.ExpandRequested(row.fold, self))

    def on_focus(self) -> None:
        self.refresh_line(self.cursor_row)

    def on_blur(self) -> None:
        self.refresh_line(self.cursor_row)

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

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None
        self._cache.clear()

    def _get_palette(self) -> _Palette:
        if self._palette is None:
            get = self.get_component_rich_style
            self._palette = _Palette(
                base=self.rich_style,
                gutter=_fg(get("diff-view--gutter")),
                removed=_bg(get("diff-view--removed")),
                added=_bg(get("diff-view--added")),
                removed_word=_bg(get("diff-view--removed-word")),
                added_word=_bg(get("diff-view--added-word")),
                removed_marker=_fg(get("diff-view--removed-marker")),
                added_marker=_fg(get("diff-view--added-marker")),
                collapsed=get("diff-view--collapsed"),
                empty=_bg(get("diff-view--empty")),
                divider=_fg(get("diff-view--divider")),
                cursor=get("diff-view--cursor"),
                message=get("diff-view--message"),
            )
        return self._palette

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        palette = self._get_palette()
        index = scroll_y + y
        if width <= 0:
            return Strip.blank(0)
        if self._model is None:
            return self._render_message(index, width, palette)
        if index >= len(self._rows):
            return Strip.blank(width, palette.base)
        cursor = index == self.cursor_row and self.has_focus
        key = (index, width, self.mode, cursor)
        parts = self._cache.get(key)
        if parts is None:
            parts = self._render_row(self._rows[index], width, cursor, palette)
            self._cache[key] = parts
        fixed, text = parts
        if self.mode == "split" or not text:
            return fixed
        area = max(0, width - fixed.cell_length)
        row = self._rows[index]
        fill = self._tint(row.kind, palette, left=row.left is not None)
        return Strip.join([fixed, text.crop_extend(scroll_x, scroll_x + area, fill)])

    def _strip(self, text: Text) -> Strip:
        # Text.render drops the text's own style when it has no spans: apply it here.
        if not text.spans:
            style = text.style if isinstance(text.style, Style) else Style.parse(text.style)
            return Strip([Segment(text.plain, style)], cell_len(text.plain))
        return Strip(text.render(self.app.console))

    def _render_message(self, index: int, width: int, palette: _Palette) -> Strip:
        if 1 <= index <= len(self._message):
            line = _sanitize(self._message[index - 1])
            text = Text(line, style=palette.message, no_wrap=True, end="")
            strip = self._strip(text)
            return strip.text_align(width, "center").crop(0, width)
        return Strip.blank(width, palette.base)

    def _tint(self, kind: RowKind, palette: _Palette, *, left: bool) -> Style:
        if kind in (RowKind.REMOVE, RowKind.CHANGE) and left:
            return palette.base + palette.removed
        if kind in (RowKind.ADD, RowKind.CHANGE) and not left:
            return palette.base + palette.added
        return palette.base

    def _render_row(self, row: DiffRow, width: int, cursor: bool,
                    palette: _Palette) -> tuple[Strip, Strip]:
        """(the fixed part, the horizontally scrolled part): in split mode all of the
        row is fixed; in unified mode the gutter is fixed and the text scrolls."""
        if row.kind is RowKind.COLLAPSED:
            return self._render_collapsed(row, width, cursor, palette), Strip([])
        if self.mode == "unified":
            return self._render_unified(row, width, cursor, palette)
        left_width = max(0, (width - 1) // 2)
        right_width = max(0, width - 1 - left_width)
        left = self._render_side(row, row.left, True, left_width, cursor, palette)
        right = self._render_side(row, row.right, False, right_width, cursor, palette)
        divider = Strip([], 0)
        if width >= 1:
            divider = Strip([Segment(DIVIDER, palette.base + palette.divider)], 1)
        return Strip.join([left, divider, right]).crop(0, width), Strip([])

    def _render_collapsed(self, row: DiffRow, width: int, cursor: bool,
                          palette: _Palette) -> Strip:
        lines = "line" if row.hidden == 1 else "lines"
        labels: tuple[str, ...] = (f"⋯ {row.hidden:,} unchanged {lines} ({self.EXPAND_HINT}) ⋯",
                                   f"⋯ {row.hidden:,} unchanged {lines} ⋯", f"⋯ {row.hidden:,} ⋯")
        inside = self.fold_context.get(row.fold)
        if inside:  # like a git hunk header: the definition the lines below belong to
            labels = (f"{labels[0]}  {inside}", f"{labels[1]}  {inside}", *labels)
        label = next((label for label in labels if cell_len(label) <= width), labels[-1])
        style = palette.base + palette.collapsed
        if cursor:
            style += palette.cursor
        text = Text(label, style=style, no_wrap=True, end="")
        strip = self._strip(text)
        if strip.cell_length > width:
            return strip.crop(0, width)
        return strip.text_align(width, "center").apply_style(style)

    def _gutter(self, number: int | None, cursor: bool, palette: _Palette,
                text: str | None = None, marked: bool = False) -> Text:
        if number is None:
            label = " " * self._number_width
        elif self.hashline and text is not None:
            label = f"{line_id(number, text):>{self._number_width}}"
        else:
            label = f"{number:>{self._number_width}}"
        style = palette.base + (palette.cursor if cursor else palette.gutter)
        if marked:  # a diagnostic on this line: "!" after the number, in the removed colour
            return Text(label + "!", style=style + palette.removed_marker, end="")
        return Text(label + " ", style=style, end="")

    def _marker(self, kind: RowKind, left: bool, palette: _Palette) -> Text:
        tint = self._tint(kind, palette, left=left)
        if tint is palette.base:
            return Text("  ", style=tint, end="")
        marker, style = ("-", palette.removed_marker) if left else ("+", palette.added_marker)
        return Text(marker + " ", style=tint + style, end="")

    def _render_side(self, row: DiffRow, side: Side | None, left: bool, width: int,
                     cursor: bool, palette: _Palette) -> Strip:
        if width <= 0:
            return Strip([], 0)
        if side is None:
            return Strip.blank(width, palette.base + palette.empty)
        tint = self._tint(row.kind, palette, left=left)
        text = Text(end="", no_wrap=True)
        text.append_text(self._gutter(side.number, cursor, palette, side.text,
                                      marked=not left and side.number in self.marks))
        text.append_text(self._marker(row.kind, left, palette))
        text.append_text(self._code(side, left, tint, palette))
        strip = self._strip(text)
        return strip.crop_extend(0, width, tint)

    def _render_unified(self, row: DiffRow, width: int, cursor: bool,
                        palette: _Palette) -> tuple[Strip, Strip]:
        left = row.kind is RowKind.REMOVE
        side = row.left if left else row.right
        if side is None:  # unified rows always have the side they show
            side = row.left or row.right
        assert side is not None
        tint = self._tint(row.kind, palette, left=left)
        gutter = Text(end="", no_wrap=True)
        gutter.append_text(self._gutter(row.left.number if row.left else None, cursor,
                                        palette, row.left.text if row.left else None))
        gutter.append_text(self._gutter(row.right.number if row.right else None, cursor,
                                        palette, row.right.text if row.right else None,
                                        marked=bool(row.right and row.right.number in self.marks)))
        gutter.append_text(self._marker(row.kind, left, palette))
        fixed = self._strip(gutter).crop(0, width)
        code = self._code(side, left, tint, palette)
        return fixed, self._strip(code)

    def _code(self, side: Side, left: bool, tint: Style, palette: _Palette) -> Text:
        """The side's text with syntax colours and changed-word backgrounds."""
        line = _sanitize(side.text)
        text = Text(line, style=tint, end="", no_wrap=True)
        for start, end, style in self._syntax(side, left):
            text.stylize(style, start, end)
        word = palette.removed_word if left else palette.added_word
        for start, end in side.spans:
            text.stylize(word, start, end)
        if "\t" in line:
            text.expand_tabs(TAB_SIZE)
        return text

    def _syntax(self, side: Side, left: bool) -> list[tuple[int, int, Style]]:
        model = self._model
        lines = self._before_lines if left else self._after_lines
        if model is None or lines is None:
            return []
        index = side.number - (model.before_start if left else model.after_start)
        if not 0 <= index < len(lines):
            return []
        runs = lines[index]
        if "".join(piece for _, piece in runs) != side.text:
            return []  # the text given is not the text diffed: plain beats wrong colours
        spans: list[tuple[int, int, Style]] = []
        position = 0
        for style, piece in runs:
            if style is not PLAIN:
                spans.append((position, position + len(piece), style))
            position += len(piece)
        return spans

    def _measure_text(self) -> int:
        widest = 0
        for row in self._rows:
            for side in (row.left, row.right):
                if side is None:
                    continue
                text = side.text
                if text.isascii() and "\t" not in text:
                    size = len(text)  # the common case, without measuring cells
                elif len(text) * TAB_SIZE > widest:
                    size = cell_len(_sanitize(text).expandtabs(TAB_SIZE))
                else:
                    continue
                widest = max(widest, size)
        return widest

    def _unified_width(self) -> int:
        return 2 * (self._number_width + 1) + 2 + self._text_width
