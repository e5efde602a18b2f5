"""How ``DiffView`` paints a row: split or unified sides, gutters, cut marks, colours.

The base class of :class:`reviewtui.ui.widgets.diff_view.DiffView`, which holds the rows,
the layout and the input; this class turns one row (or one visual line of a wrapped row)
into a ``Strip``. Shared helpers (sanitising, style layers) are in ``diff_render``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reviewtui.core.record import record
from reviewtui.core.text.diff import DiffModel, DiffRow, RowKind, Side
from reviewtui.core.text.hashline import line_id
from reviewtui.ui.highlight import PLAIN, Line
from reviewtui.ui.widgets.diff_render import TAB_SIZE, bg, fg, sanitize, text_strip
from reviewtui.ui.widgets.diff_shelf import ShelfKey, StripCache, StripShelf, shelf_key

DiffMode = Literal["split", "unified"]

CONTINUED = "↪"  # gutter mark of a wrapped row's later visual lines
CUT_END = "›"
CUT_START = "‹"
DIVIDER = "│"


def side_width(width: int) -> int:
    """The cells of each column of a side-by-side row at ``width`` (one cell divides them):
    the same for both, so a line both sides hold wraps at the same place on each (with the
    right one cell wider, every wrapped unchanged line continued one character apart); a
    cell left over stays blank at the right edge."""
    return max(0, (width - 1) // 2)


@record(frozen=True, slots=True)
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


class DiffPainter(ScrollView):
    """Row painting for DiffView; the state it reads is set by DiffView."""

    EXPAND_HINT: ClassVar[str] = "x expands"

    mode: var[DiffMode] = var[DiffMode]("split", init=False)
    """"split" (before | after) or "unified" (removed lines above added ones)."""

    _model: DiffModel | None
    _rows: tuple[DiffRow, ...]
    _message: tuple[str, ...]
    _number_width: int
    _text_width: int
    _lengths: list[tuple[int, int]]
    _before_lines: tuple[Line, ...] | None
    _after_lines: tuple[Line, ...] | None
    _palette: _Palette | None
    _cache: StripCache
    _shelf: StripShelf
    _path: str
    _before_text: str
    _after_text: str
    hashline: bool
    wrap: bool
    marks: frozenset[int]
    fold_context: dict[int, str]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None
        self._cache.clear()
        self._shelf.clear()

    def _shelf_key(self) -> ShelfKey | None:
        return shelf_key(self._model, self.mode, self._path, self._before_text,
                         self._after_text, self.marks, self.fold_context, self._number_width,
                         self.hashline, (self._before_lines, self._after_lines, self._palette))

    def shelve(self) -> None:
        """Another diff comes next: keep the lines drawn for this one (diff_shelf.py)."""
        self._shelf.put(self._shelf_key(), self._cache)
        self._cache = LRUCache(1024)

    def unshelve(self) -> None:
        """The diff just set was drawn before: take its lines back."""
        kept = self._shelf.take(self._shelf_key())
        if kept is not None:
            self._cache = kept

    def _get_palette(self) -> _Palette:
        if self._palette is None:
            get = self.get_component_rich_style
            self._palette = _Palette(
                base=self.rich_style,
                gutter=fg(get("diff-view--gutter")),
                removed=bg(get("diff-view--removed")),
                added=bg(get("diff-view--added")),
                removed_word=bg(get("diff-view--removed-word")),
                added_word=bg(get("diff-view--added-word")),
                removed_marker=fg(get("diff-view--removed-marker")),
                added_marker=fg(get("diff-view--added-marker")),
                collapsed=get("diff-view--collapsed"),
                empty=bg(get("diff-view--empty")),
                divider=fg(get("diff-view--divider")),
                cursor=get("diff-view--cursor"),
                message=get("diff-view--message"),
            )
        return self._palette

    def _render_message(self, index: int, width: int, palette: _Palette) -> Strip:
        if 1 <= index <= len(self._message):
            line = sanitize(self._message[index - 1])
            text = Text(line, style=palette.message, no_wrap=True, end="")
            strip = text_strip(text, self.app.console)
            return strip.text_align(width, "center").crop(0, width)
        return Strip.blank(width, palette.base)

    def _tint(self, kind: RowKind, palette: _Palette, *, left: bool) -> Style:
        if kind in (RowKind.REMOVE, RowKind.CHANGE) and left:
            return palette.base + palette.removed
        if kind in (RowKind.ADD, RowKind.CHANGE) and not left:
            return palette.base + palette.added
        return palette.base

    def _render_row(self, row: DiffRow, width: int, cursor: bool, palette: _Palette,
                    piece: int = 0, shift: int = 0) -> Strip:
        """Visual line ``piece`` of ``row`` (wrapped), or the row seen from column
        ``shift`` of its text (not wrapped)."""
        if row.kind is RowKind.COLLAPSED:
            return self._render_collapsed(row, width, cursor, palette)
        if self.mode == "unified":
            return self._render_unified(row, width, cursor, palette, piece, shift)
        side = side_width(width)
        left = self._render_side(row, row.left, True, side, cursor, palette, piece, shift)
        right = self._render_side(row, row.right, False, side, cursor, palette, piece, shift)
        divider = Strip([], 0)
        if width >= 1:
            divider = Strip([Segment(DIVIDER, palette.base + palette.divider)], 1)
        return Strip.join([left, divider, right]).crop_extend(0, width, palette.base)

    def _window(self, code: Strip, side: Side, room: int, tint: Style, palette: _Palette,
                piece: int, shift: int) -> Strip:
        """The part of a side's text on this visual line, with cut markers."""
        length = code.cell_length
        if self.wrap:
            return code.crop_extend(piece * room, (piece + 1) * room, tint)
        # Every side is seen from the same column, the scroll offset: what `←` `→` move
        # is what is on screen. A mark stands where characters are really hidden on its
        # side (an empty line hides none); it covers the cell next to the cut, which is
        # in view one column further on (at offset 0, nothing is hidden at the start).
        start = shift
        window = code.crop_extend(start, start + room, tint)
        if room < 3:  # two marks would leave no cell for the text
            return window
        marks = palette.gutter + Style(bold=True)
        if start > 0 and length > 0:
            window = Strip.join([Strip([Segment(CUT_START, tint + marks)], 1),
                                 window.crop(1, room)])
        if length > start + room:
            window = Strip.join([window.crop(0, room - 1),
                                 Strip([Segment(CUT_END, tint + marks)], 1)])
        return window

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
        strip = text_strip(text, self.app.console)
        if strip.cell_length > width:
            return strip.crop(0, width)
        return strip.text_align(width, "center").apply_style(style)

    def _gutter(self, number: int | None, cursor: bool, palette: _Palette,
                text: str | None = None, marked: bool = False, piece: int = 0) -> Text:
        if piece > 0:  # a wrapped row's later line: the mark, not the number again
            label = f"{CONTINUED:>{self._number_width}}" if number is not None else (
                " " * self._number_width)
            marked = False
        elif number is None:
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
                     cursor: bool, palette: _Palette, piece: int = 0, shift: int = 0) -> Strip:
        if width <= 0:
            return Strip([], 0)
        if side is None:
            return Strip.blank(width, palette.base + palette.empty)
        tint = self._tint(row.kind, palette, left=left)
        code = text_strip(self._code(side, left, tint, palette), self.app.console)
        prefix_width = self._number_width + 1 + 2
        room = max(1, width - prefix_width)
        if self.wrap and piece * room >= max(1, code.cell_length):
            return Strip.blank(width, tint)  # the other side wraps onto more lines
        head = Text(end="", no_wrap=True)
        head.append_text(self._gutter(side.number, cursor, palette, side.text,
                                      marked=not left and side.number in self.marks,
                                      piece=piece))
        head.append_text(self._marker(row.kind, left, palette))
        window = self._window(code, side, room, tint, palette, piece, shift)
        return Strip.join([text_strip(head, self.app.console), window]).crop_extend(0, width, tint)

    def _render_unified(self, row: DiffRow, width: int, cursor: bool, palette: _Palette,
                        piece: int = 0, shift: int = 0) -> Strip:
        left = row.kind is RowKind.REMOVE
        side = row.left if left else row.right
        if side is None:  # unified rows always have the side they show
            side = row.left or row.right
        assert side is not None
        tint = self._tint(row.kind, palette, left=left)
        gutter = Text(end="", no_wrap=True)
        gutter.append_text(self._gutter(row.left.number if row.left else None, cursor,
                                        palette, row.left.text if row.left else None,
                                        piece=piece))
        gutter.append_text(self._gutter(row.right.number if row.right else None, cursor,
                                        palette, row.right.text if row.right else None,
                                        marked=bool(row.right and row.right.number in self.marks),
                                        piece=piece))
        gutter.append_text(self._marker(row.kind, left, palette))
        fixed = text_strip(gutter, self.app.console).crop(0, width)
        room = max(1, width - fixed.cell_length)
        code = text_strip(self._code(side, left, tint, palette), self.app.console)
        window = self._window(code, side, room, tint, palette, piece, shift)
        return Strip.join([fixed, window]).crop_extend(0, width, tint)

    def _code(self, side: Side, left: bool, tint: Style, palette: _Palette) -> Text:
        """The side's text with syntax colours and changed-word backgrounds."""
        line = sanitize(side.text)
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

    def _measure_rows(self) -> int:
        """Each row's text cells per side (for wrapping) and the widest of them."""
        unified = self.mode == "unified"
        lengths: list[tuple[int, int]] = []
        for row in self._rows:
            if row.kind is RowKind.COLLAPSED:
                lengths.append((0, 0))
            elif unified:
                side = row.left if row.kind is RowKind.REMOVE else (row.right or row.left)
                size = _cells(side)
                lengths.append((size, size))
            else:
                lengths.append((_cells(row.left), _cells(row.right)))
        self._lengths = lengths
        return max((max(pair) for pair in lengths), default=0)

    def _unified_width(self) -> int:
        return 2 * (self._number_width + 1) + 2 + self._text_width


def reveal_offset(rows: Sequence[DiffRow], unified: bool, room: int, text_width: int) -> int:
    """Without wrapping, the sideways scroll offset that shows the first changed word of
    the first row that has one (a quarter of the room before it), or 0 when it is in view
    unscrolled; when both sides' changes cannot be in view, the later one is shown."""
    for row in rows:
        if unified:
            shown = row.left if row.kind is RowKind.REMOVE else (row.right or row.left)
            columns = [change_column(shown)]
        else:
            columns = [change_column(row.left), change_column(row.right)]
        found = [column for column in columns if column is not None]
        if not found:
            continue
        if max(found) <= room - 2:  # before the `›` cell
            return 0
        x = min(found) - room // 4
        latest = max(found)
        if latest > x + room - 2:
            x = latest - room // 4
        return max(0, min(x, text_width - room))
    return 0


def first_change(rows: Sequence[DiffRow]) -> int | None:
    """The index of the first row that adds, removes or changes a line (None: none)."""
    return next((index for index, row in enumerate(rows)
                 if row.kind not in (RowKind.CONTEXT, RowKind.COLLAPSED)), None)


def locate_row(rows: Sequence[DiffRow], anchor: DiffRow) -> int:
    """The row of ``rows`` showing ``anchor``'s file line (after a rebuild): the same
    fold, else a row or collapsed run holding the line, else the last row before it."""
    if anchor.kind is RowKind.COLLAPSED:
        for index, row in enumerate(rows):
            if row.kind is RowKind.COLLAPSED and row.fold == anchor.fold:
                return index
    left = anchor.left.number if anchor.left else None
    right = anchor.right.number if anchor.right else None
    before = 0
    for index, row in enumerate(rows):
        span = max(1, row.hidden)
        hits = [(side.number, want) for side, want in ((row.left, left), (row.right, right))
                if side is not None and want is not None]
        if any(number <= want < number + span for number, want in hits):
            return index
        if any(number <= want for number, want in hits):
            before = index
    return before


def change_column(side: Side | None) -> int | None:
    """The cell where a side's first changed word starts (None: no word changed)."""
    if side is None or not side.spans:
        return None
    head = side.text[:side.spans[0][0]]
    if head.isascii() and "\t" not in head:
        return len(head)
    return cell_len(sanitize(head).expandtabs(TAB_SIZE))


def _cells(side: Side | None) -> int:
    """A side's text width in cells (ASCII without tabs: its length, unmeasured)."""
    if side is None:
        return 0
    text = side.text
    if text.isascii() and "\t" not in text:
        return len(text)
    return cell_len(sanitize(text).expandtabs(TAB_SIZE))
