"""Split an edit into its change blocks and take only some blocks, or some lines.

``s`` on the review screen opens :class:`HunkScreen` for the selected edit: SEARCH ->
REPLACE for an Edit, the file's old content -> the model's full file for a full file.
Enter returns the text with only the chosen changes (see :mod:`reviewtui.core.review.partial`
for what choosing a line means); :meth:`SplitSource.decision_for` turns it into the
decision: everything taken is a plain accept, nothing taken a reject, anything else an
edit with that text as the replacement.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from reviewtui.core.engine import Decision, OpResult
from reviewtui.core.model.records import ConsoleCommand, Edit
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import record
from reviewtui.core.review.partial import apply_chosen, change_blocks
from reviewtui.ui.screens.ready import ReadyModal
from reviewtui.ui.widgets.block_picker import BlockPicker

BLOCK_KEYS = ("↑↓ block · space take/leave · v select lines · a all · n none · "
              "enter apply · esc cancel")
LINE_KEYS = "shift+↑↓ extend · ↑↓ move · space toggle · v reselect · esc blocks · enter apply"
RULE = ("A taken - line is removed (else it stays); a taken + line is added (else it is "
        "left out).")


@record(frozen=True, slots=True)
class SplitSource:
    """What a split works on: the operation's ``before`` and the model's ``after``."""

    title: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    before_label: str
    after_label: str

    def decision_for(self, lines: Sequence[str]) -> Decision:
        taken = tuple(lines)
        if taken == self.after:
            return Decision.accept()
        if taken == self.before:
            return Decision.reject()
        return Decision.edit(taken)


def split_source(result: OpResult) -> SplitSource | str:
    """The split of ``result``'s operation, or why it cannot be split."""
    op = result.op
    if isinstance(op, ConsoleCommand):
        return "only edits and full files can be split into change blocks"
    if isinstance(op, Edit):
        source = SplitSource(f"{op.path} · Edit {op.label}", op.search_lines,
                             op.replace_lines, "SEARCH", "REPLACE")
    else:
        before = result.outcome.before_state
        if isinstance(before, FileState):
            if before.binary:
                return f"{op.path} is a binary file: nothing to split"
            old = before.lines
        elif result.outcome.method == "new-file":
            old = ()
        else:
            return (f"the full file for {op.path} cannot be split: the file it replaces "
                    "is not known here (the operation did not apply)")
        source = SplitSource(f"{op.path} · full file", old, op.lines, "old", "new")
    if source.before == source.after:
        return f"{source.title} changes nothing: there is nothing to split"
    return source


class HunkScreen(ReadyModal[tuple[str, ...] | None]):
    """The change blocks of one edit, each with a checkbox and per-line marks. Its keys
    are live once it is mounted (ready.py)."""

    DEFAULT_CSS = """
    HunkScreen { align: center middle; background: $background 60%; }
    HunkScreen > Vertical { width: 90%; height: 85%; border: thick $primary;
        background: $surface; }
    HunkScreen #split-rule { height: auto; padding: 0 1; color: $text-muted; }
    HunkScreen BlockPicker { height: 1fr; }
    HunkScreen #split-summary { height: 1; padding: 0 1; background: $panel; }
    HunkScreen #split-keys { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("enter", "apply", "Apply", id="split.apply"),
        Binding("escape", "cancel", "Cancel", id="split.cancel"),
    ]

    def __init__(self, source: SplitSource) -> None:
        super().__init__()
        self.source = source
        self.blocks = change_blocks(source.before, source.after)

    def compose(self) -> ComposeResult:
        with Vertical() as frame:
            frame.border_title = Text(f"Split {self.source.title} into its change blocks")
            yield Static(RULE, id="split-rule")
            yield BlockPicker(self.blocks, self.source.before,
                              before_label=self.source.before_label,
                              after_label=self.source.after_label, id="blocks")
            yield Static(id="split-summary")
            yield Static(BLOCK_KEYS, id="split-keys")

    def on_mount(self) -> None:
        if self.dismissed:
            return  # closed before it was drawn: its widgets are going
        picker = self.query_one(BlockPicker)
        picker.focus()
        self._show(picker)

    @on(BlockPicker.Changed)
    def _picker_changed(self, event: BlockPicker.Changed) -> None:
        if self.showing:
            self._show(event.picker)

    def _show(self, picker: BlockPicker) -> None:
        summary = Text(picker.summary(), style="bold")
        if picker.line_mode:
            what = ("only the selected lines are taken" if picker.selection_is_choice
                    else "space takes or leaves the selected lines")
            summary.append(f"  ·  block {picker.block_cursor + 1}: {what}", style="italic")
        self.query_one("#split-summary", Static).update(summary)
        self.query_one("#split-keys", Static).update(LINE_KEYS if picker.line_mode
                                                     else BLOCK_KEYS)

    def taken(self) -> tuple[str, ...]:
        """The text with only the chosen changes applied."""
        picker = self.query_one(BlockPicker)
        return tuple(apply_chosen(self.source.before, self.blocks, picker.choice()))

    def action_apply(self) -> None:
        self.dismiss(self.taken())

    def action_cancel(self) -> None:
        self.dismiss(None)
