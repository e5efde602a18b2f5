"""Pick the change blocks of an edit to take, or single lines inside one block.

``BlockPicker`` is a Line API widget (one ``ScrollView``, rows rendered on demand) that
lists each :class:`~reviewtui.core.review.partial.ChangeBlock` as a small unified before/after:
a header with the block's checkbox, a few unchanged lines around it, and its removed
and added lines, each with its own mark. The widget owns the choice and reports every
change with :class:`BlockPicker.Changed`; the screen reads :meth:`BlockPicker.choice`.

Keys, in block mode: up/down move between blocks, space takes or leaves the block,
``a`` takes everything, ``n`` nothing, ``v`` starts a line selection in the block. In
line mode the block takes only the selected lines: shift+up/down extend the selection,
up/down move the line cursor (the choice stays), space toggles the lines under the
cursor or selection, ``v`` starts a new selection, escape goes back to block mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reviewtui.core.record import record
from reviewtui.core.review.partial import ChangeBlock, LineSide
from reviewtui.ui.widgets.diff_render import TAB_SIZE, as_style, bg, fg, sanitize, text_strip

CONTEXT = 2  # unchanged lines shown before and after a block
# Control characters would move the terminal's cursor: show their Unicode pictures.

RowKind = Literal["header", "line", "context", "blank"]
BlockState = Literal["all", "some", "none"]
CHECKBOX: dict[BlockState, str] = {"all": "[x]", "some": "[~]", "none": "[ ]"}


@record(frozen=True, slots=True)
class PickerRow:
    """One screen row: a block's header, one of its lines, or an unchanged line.

    ``block`` is the block's position in the picker, ``item`` the line's position in
    the block's ``lines``; a context row has its 0-based ``before``/``after`` numbers.
    """

    kind: RowKind
    block: int = -1
    item: int = -1
    before: int = -1
    after: int = -1


def picker_rows(blocks: Sequence[ChangeBlock], before_count: int,
                context: int = CONTEXT) -> list[PickerRow]:
    """The rows for ``blocks`` of a text of ``before_count`` lines; context lines
    between two close blocks are shown once."""
    rows: list[PickerRow] = []
    shown = 0  # before lines [0, shown) are on screen already
    for pos, block in enumerate(blocks):
        if pos:
            rows.append(PickerRow("blank"))
        rows.append(PickerRow("header", pos))
        for i in range(max(shown, block.before_start - context), block.before_start):
            rows.append(PickerRow("context", pos, before=i,
                                  after=i - block.before_start + block.after_start))
        rows.extend(PickerRow("line", pos, n) for n in range(len(block.lines)))
        limit = blocks[pos + 1].before_start if pos + 1 < len(blocks) else before_count
        end = min(limit, block.before_end + context)
        for i in range(block.before_end, end):
            rows.append(PickerRow("context", pos, before=i,
                                  after=i - block.before_end + block.after_end))
        shown = max(shown, end)
    return rows


@record(frozen=True, slots=True)
class _Palette:
    base: Style
    header: Style
    cursor: Style
    selection: Style
    focus_bar: Style
    gutter: Style
    context: Style
    removed: Style
    added: Style
    removed_word: Style
    added_word: Style
    removed_marker: Style
    added_marker: Style
    left_out: Style


class BlockPicker(ScrollView, can_focus=True):
    """Checkboxes for an edit's change blocks and for the lines inside one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "move(1)", "Next", show=False, id="block_picker.down"),
        Binding("up,k", "move(-1)", "Previous", show=False, id="block_picker.up"),
        Binding("shift+down,J", "extend(1)", "Extend", show=False, id="block_picker.extend-down"),
        Binding("shift+up,K", "extend(-1)", "Extend", show=False, id="block_picker.extend-up"),
        Binding("space", "toggle_choice", "Toggle", show=False, id="block_picker.toggle"),
        Binding("a", "choose_all", "All", show=False, id="block_picker.all"),
        Binding("n", "choose_none", "None", show=False, id="block_picker.none"),
        Binding("v", "select_lines", "Select lines", show=False, id="block_picker.lines"),
        Binding("escape", "leave_lines", "Blocks", show=False, id="block_picker.blocks"),
        Binding("home", "first", "First", show=False, id="block_picker.first"),
        Binding("end", "last", "Last", show=False, id="block_picker.last"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "block-picker--header",
        "block-picker--cursor",
        "block-picker--selection",
        "block-picker--focus-bar",
        "block-picker--gutter",
        "block-picker--context",
        "block-picker--removed",
        "block-picker--added",
        "block-picker--removed-word",
        "block-picker--added-word",
        "block-picker--removed-marker",
        "block-picker--added-marker",
        "block-picker--left-out",
    }

    DEFAULT_CSS = """
    BlockPicker {
        background: $surface;
        color: $foreground;
        overflow-x: auto;
        overflow-y: auto;
        & > .block-picker--header { text-style: bold; }
        & > .block-picker--cursor { background: $accent 50%; text-style: bold; }
        & > .block-picker--selection { background: $accent 18%; }
        & > .block-picker--focus-bar { color: $accent; }
        & > .block-picker--gutter { color: $foreground 45%; }
        & > .block-picker--context { color: $foreground 60%; }
        & > .block-picker--removed { background: $error 15%; }
        & > .block-picker--added { background: $success 15%; }
        & > .block-picker--removed-word { background: $error 45%; }
        & > .block-picker--added-word { background: $success 45%; }
        & > .block-picker--removed-marker { color: $text-error; text-style: bold; }
        & > .block-picker--added-marker { color: $text-success; text-style: bold; }
        & > .block-picker--left-out { color: $foreground 40%; }
    }
    """

    class Changed(Message):
        """The choice, the focused block or the mode changed."""

        def __init__(self, picker: BlockPicker) -> None:
            super().__init__()
            self.picker = picker

        @property
        def control(self) -> BlockPicker:
            return self.picker

    def __init__(self, blocks: Sequence[ChangeBlock], before: Sequence[str], *,
                 before_label: str = "before", after_label: str = "after",
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.blocks = tuple(blocks)
        self.before = tuple(before)
        self.before_label = before_label
        self.after_label = after_label
        self._chosen: list[set[int]] = [set(block.positions) for block in self.blocks]
        self._rows = picker_rows(self.blocks, len(self.before))
        # Per block: its header row, its first line's row, its last row (one pass).
        self._header_row = [0] * len(self.blocks)
        self._first_line_row = [0] * len(self.blocks)
        self._last_row = [0] * len(self.blocks)
        for n, row in enumerate(self._rows):
            if row.kind == "header":
                self._header_row[row.block] = self._first_line_row[row.block] = n
            elif row.kind == "line" and row.item == 0:
                self._first_line_row[row.block] = n
            if row.block >= 0:
                self._last_row[row.block] = n
        self.block_cursor = 0
        self.line_mode = False
        self.line_cursor = 0
        self.line_anchor = 0
        self._live = False  # the block takes exactly the selection (just after ``v``)
        self._palette: _Palette | None = None
        self._number_width = len(str(max(len(self.before), *(b.after_end for b in self.blocks),
                                         1)))
        self._fixed_width = 2 + 2 + 2 * (self._number_width + 1) + 2
        text_width = max((cell_len(self._line_text(row).plain.expandtabs(TAB_SIZE))
                          for row in self._rows if row.kind in ("line", "context")), default=0)
        self.virtual_size = Size(self._fixed_width + text_width, len(self._rows))

    # --- the choice ------------------------------------------------------------------

    def choice(self) -> dict[int, frozenset[int]]:
        """Block index -> chosen positions in its lines (for ``apply_chosen``)."""
        return {block.index: frozenset(chosen)
                for block, chosen in zip(self.blocks, self._chosen, strict=True)}

    def block_state(self, pos: int) -> BlockState:
        chosen = self._chosen[pos]
        if not chosen:
            return "none"
        return "all" if len(chosen) == len(self.blocks[pos].lines) else "some"

    def chosen_lines(self, pos: int) -> frozenset[int]:
        return frozenset(self._chosen[pos])

    @property
    def selection(self) -> range:
        """The selected positions of the focused block's lines (line mode)."""
        low, high = sorted((self.line_anchor, self.line_cursor))
        return range(low, high + 1)

    @property
    def selection_is_choice(self) -> bool:
        """The focused block takes exactly the selection (since ``v``)."""
        return self.line_mode and self._live

    def summary(self) -> str:
        states = [self.block_state(pos) for pos in range(len(self.blocks))]
        taken = sum(len(chosen) for chosen in self._chosen)
        total = sum(len(block.lines) for block in self.blocks)
        text = f"{states.count('all')} of {len(self.blocks)} blocks taken"
        if states.count("some"):
            text += f", {states.count('some')} in part"
        return text + f" · {taken} of {total} changed lines"

    def _changed(self) -> None:
        self.refresh()
        self.post_message(self.Changed(self))

    # --- actions ---------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        if not self.blocks:
            return
        if self.line_mode:
            self.line_cursor = self._clamp_line(self.line_cursor + delta)
            self.line_anchor = self.line_cursor
            self._live = False
            self._reveal_row(self._first_line_row[self.block_cursor] + self.line_cursor)
        else:
            self.block_cursor = max(0, min(len(self.blocks) - 1, self.block_cursor + delta))
            self._reveal_block()
        self._changed()

    def action_extend(self, delta: int) -> None:
        if not self.line_mode:
            self.action_move(delta)
            return
        self.line_cursor = self._clamp_line(self.line_cursor + delta)
        if self._live:
            self._chosen[self.block_cursor] = set(self.selection)
        self._reveal_row(self._first_line_row[self.block_cursor] + self.line_cursor)
        self._changed()

    def action_toggle_choice(self) -> None:
        if not self.blocks:
            return
        chosen = self._chosen[self.block_cursor]
        if self.line_mode:
            lines = set(self.selection)
            if lines <= chosen:
                chosen -= lines
            else:
                chosen |= lines
            self._live = False
        elif self.block_state(self.block_cursor) == "all":
            chosen.clear()
        else:
            chosen.update(self.blocks[self.block_cursor].positions)
        self._changed()

    def action_choose_all(self) -> None:
        self._chosen = [set(block.positions) for block in self.blocks]
        self._live = False
        self._changed()

    def action_choose_none(self) -> None:
        self._chosen = [set() for _ in self.blocks]
        self._live = False
        self._changed()

    def action_select_lines(self) -> None:
        """Start a line selection at the line cursor: the block takes only it."""
        if not self.blocks or not self.blocks[self.block_cursor].lines:
            return
        if not self.line_mode:
            self.line_mode = True
            self.line_cursor = 0
        self.line_anchor = self.line_cursor
        self._live = True
        self._chosen[self.block_cursor] = set(self.selection)
        self._reveal_row(self._first_line_row[self.block_cursor] + self.line_cursor)
        self._changed()

    def action_leave_lines(self) -> None:
        if not self.line_mode:
            raise SkipAction()  # escape then reaches the screen (cancel)
        self.line_mode = False
        self._live = False
        self._changed()

    def action_first(self) -> None:
        self._jump(0)

    def action_last(self) -> None:
        self._jump(len(self.blocks) - 1)

    def _jump(self, pos: int) -> None:
        if not self.blocks:
            return
        self.line_mode = self._live = False
        self.block_cursor = pos
        self._reveal_block()
        self._changed()

    def _clamp_line(self, position: int) -> int:
        return max(0, min(len(self.blocks[self.block_cursor].lines) - 1, position))

    # --- mouse -----------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y + self.scroll_offset.y
        if not 0 <= index < len(self._rows):
            return
        row = self._rows[index]
        if row.block < 0:
            return
        event.stop()
        if row.kind == "line":
            if not self.line_mode or row.block != self.block_cursor:
                self.line_mode = True
            self.block_cursor = row.block
            self.line_cursor = self.line_anchor = row.item
            self.action_toggle_choice()
            return
        self.line_mode = self._live = False
        self.block_cursor = row.block
        if row.kind == "header":
            self.action_toggle_choice()
        else:
            self._changed()

    # --- scrolling -------------------------------------------------------------------

    def _reveal_row(self, row: int) -> None:
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if height <= 0:
            return
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def _reveal_block(self) -> None:
        """As much of the focused block as fits, its header first."""
        self._reveal_row(self._last_row[self.block_cursor])
        self._reveal_row(self._header_row[self.block_cursor])

    # --- rendering -------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None

    def _get_palette(self) -> _Palette:
        if self._palette is None:
            get = self.get_component_rich_style
            self._palette = _Palette(
                base=self.rich_style,
                header=fg(get("block-picker--header")),
                cursor=get("block-picker--cursor"),
                selection=get("block-picker--selection"),
                focus_bar=fg(get("block-picker--focus-bar")),
                gutter=fg(get("block-picker--gutter")),
                context=fg(get("block-picker--context")),
                removed=get("block-picker--removed"),
                added=get("block-picker--added"),
                removed_word=get("block-picker--removed-word"),
                added_word=get("block-picker--added-word"),
                removed_marker=fg(get("block-picker--removed-marker")),
                added_marker=fg(get("block-picker--added-marker")),
                left_out=fg(get("block-picker--left-out")),
            )
        return self._palette

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        palette = self._get_palette()
        index = scroll_y + y
        if width <= 0:
            return Strip.blank(0)
        if index >= len(self._rows):
            return Strip.blank(width, palette.base)
        row = self._rows[index]
        if row.kind == "blank":
            return Strip.blank(width, palette.base)
        focused = row.block == self.block_cursor
        bar = Text("▌ " if focused else "  ", style=palette.focus_bar if focused else "")
        console = self.app.console
        if row.kind == "header":
            text = Text.assemble(bar, self._header_text(row.block))
            text.truncate(width, overflow="ellipsis", pad=True)
            style = palette.base + palette.header
            if focused and not self.line_mode:
                style += palette.cursor
            text.stylize_before(style)
            return text_strip(text, console).simplify()
        fixed, body, fill = self._line_parts(row, palette)
        fixed = Text.assemble(bar, fixed, style=palette.base)
        fixed.stylize_before(fill)
        body.expand_tabs(TAB_SIZE)
        body.style = palette.base + as_style(body.style)
        body.stylize_before(fill)
        fixed_strip = text_strip(fixed, console)
        area = max(0, width - fixed_strip.cell_length)
        body_strip = text_strip(body, console)
        joined = Strip.join([fixed_strip, body_strip.crop_extend(scroll_x, scroll_x + area,
                                                                 palette.base + fill)])
        return joined.crop(0, width).simplify()

    def _header_text(self, pos: int) -> Text:
        block = self.blocks[pos]
        state = self.block_state(pos)
        word = {"all": "taken", "some": "taken in part", "none": "left out"}[state]
        text = Text(f"{CHECKBOX[state]} Block {pos + 1} of {len(self.blocks)}  ")
        text.append(f"{self.before_label} {_span(block.before_start, block.before_end)}"
                    f" → {self.after_label} {_span(block.after_start, block.after_end)}  ")
        text.append(f"−{block.removed} +{block.added}  ")
        text.append(word, style="italic")
        return text

    def _line_text(self, row: PickerRow) -> Text:
        if row.kind == "context":
            return Text(sanitize(self.before[row.before]))
        line = self.blocks[row.block].lines[row.item]
        return Text(sanitize(line.text))

    def _line_parts(self, row: PickerRow, palette: _Palette) -> tuple[Text, Text, Style]:
        """The fixed part (mark, numbers, sign), the text, and the row's background."""
        width = self._number_width
        if row.kind == "context":
            fixed = Text(f"  {row.before + 1:>{width}} {row.after + 1:>{width}}   ",
                         style=palette.gutter)
            return fixed, Text(sanitize(self.before[row.before]),
                               style=palette.context), Style()
        block = self.blocks[row.block]
        line = block.lines[row.item]
        chosen = row.item in self._chosen[row.block]
        removed = line.side is LineSide.REMOVED
        in_lines = self.line_mode and row.block == self.block_cursor
        if in_lines and row.item == self.line_cursor:
            fill = bg(palette.cursor, bold=True)
        elif in_lines and row.item in self.selection:
            fill = bg(palette.selection, bold=True)
        elif chosen:
            fill = bg(palette.removed if removed else palette.added, bold=True)
        else:
            fill = Style()
        mark = Text("✓ " if chosen else "· ", style=palette.header if chosen
                    else palette.left_out)
        old = f"{line.number + 1:>{width}}" if removed else " " * width
        new = " " * width if removed else f"{line.number + 1:>{width}}"
        numbers = Text(f"{old} {new} ", style=palette.gutter)
        marker = palette.removed_marker if removed else palette.added_marker
        sign = Text(f"{line.side} ", style=marker if chosen else palette.left_out)
        if chosen:
            body = Text(sanitize(line.text))
            word = bg(palette.removed_word if removed else palette.added_word, bold=True)
            for start, end in line.spans:
                body.stylize(word, start, end)
        else:
            # A removed line not taken stays as it is; an added one not taken is left out.
            body = Text(sanitize(line.text),
                        style=palette.context if removed else palette.left_out + Style(
                            strike=True))
        return Text.assemble(mark, numbers, sign), body, fill


def _span(start: int, end: int) -> str:
    """0-based [start, end) as 1-based lines: "4-6", "4", or "after 3" when empty."""
    if end - start == 1:
        return str(start + 1)
    if end > start:
        return f"{start + 1}-{end}"
    return f"after {start}" if start else "at the top"

