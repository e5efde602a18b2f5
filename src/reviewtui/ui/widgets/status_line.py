"""The status line: checkpoint, draft revision, counts, watcher state, live or dry-run."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from reviewtui.ui.widgets.static_update import update_static


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text; padding: 0 1;
                 text-wrap: nowrap; text-overflow: ellipsis; }
    /* (one line: a long state path was wrapped onto a hidden second line, leaving a bare
       "state:"; now it is cut with a mark: QA pass s28) */
    """
    progress: reactive[str] = reactive("")  # a review job that takes a while: what it does

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown = Text()
        # What the narrower forms of the line are made of, when it does not fit (an
        # 80-column terminal cut it after "watch:", DRY-RUN and all: QA pass 84c). They
        # are made only then: the line is shown again after every key.
        self._parts: dict[str, Any] = {}
        self._tail = Text()  # the state's place and the note: after any form of the line
        self._state_at = self._note = ""
        self._drawn: Text | None = None

    def watch_progress(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _fitting(self) -> Text:
        """The full line, or the first narrower form whose own part (before the state's
        place and the note, which may be cut at the end as ever) fits the width."""
        room = self.content_size.width - (len(self.progress) + 2 if self.progress else 0)
        if self.size.width <= 0 or not self._parts or self._shown.cell_len <= room:
            return self._shown
        head = self._shown.cell_len - self._tail.cell_len
        if head <= room:  # the state's place cut in its middle, so its file name stays
            return self._shown[:head] + self._tail_for(room - head)
        # Narrower and narrower: the revision left out, then the watcher (for good, QA pass
        # s28: it came back at narrower widths), then short labels, then the shortest pin.
        text = self._shown
        # A live review not watching the disk keeps saying so: it may write over changes it
        # was never told of (--no-watch: QA pass s28).
        unwatched = self._parts["watcher"] == "off" and not self._parts["dry_run"]
        for short, watching in ((0, True), (0, False), (1, False), (2, False)):
            parts = self._parts if watching or unwatched else {**self._parts, "watcher": ""}
            text = _narrow(short, **parts)
            if text.cell_len <= room:
                break
        return text + self._tail_for(room - text.cell_len)

    def _tail_for(self, room: int | None) -> Text:
        """The state's place (when not beside the session) and the note; with ``room``,
        the place cut in its middle (its folders first) to leave the note ten columns."""
        tail = Text()
        place = self._state_at
        if place:
            if room is not None:
                keep = max(room - len("  state: ") - min(len(self._note) + 2, 10), 12)
                if len(place) > keep:  # the folders cut first, then the name's start
                    name = place.rsplit("/", 1)[-1]
                    place = (place[: keep - len(name) - 2] + "…/" + name
                             if len(name) + 2 <= keep else "…" + name[len(name) - keep + 1 :])
            tail.append(f"  state: {place}", style="dim")
        if self._note:
            tail.append(f"  {self._note}", style="italic")
        return tail

    def _draw(self) -> None:
        text = self._fitting()
        if self.progress:
            text = text.copy()
            text.append(f"  {self.progress}", style="bold reverse")
        if text == self._drawn:
            return  # the same line again (the counts' background update): nothing to draw
        self._drawn = text
        update_static(self, text)  # one line: no screen layout

    def show(self, *, checkpoint: int, turns: int, revision: int, counts: dict[str, int],
             watcher: str, dry_run: bool, note: str = "", source_format: str = "",
             pinned: int | None = None, state_at: str = "", held: int = 0) -> None:
        text = Text()
        if source_format and source_format != "fileops":
            text.append(f"{source_format}  ", style="bold cyan")  # what wrote the session
        if held:  # open for writing in another program: first, where a notice hides nothing
            text.append(f"waiting on {held} file{'s' if held > 1 else ''} open elsewhere",
                        style="bold black on yellow")
            text.append("  ")
        text.append(f"checkpoint {checkpoint}/{turns}", style="bold")
        text.append(f"  r{revision}", style="dim")
        if pinned is not None:  # ctrl+t restored a checkpoint: decisions are not written
            text.append("  ")
            text.append(f"disk pinned at checkpoint {pinned} (P unpins)",
                        style="bold black on yellow")
        for label, style in (("pending", "yellow"), ("accepted", "green"),
                             ("rejected", "red"), ("failed", "bold red")):
            text.append(f"  {label} {counts.get(label, 0)}", style=style)
        text.append(f"  watch: {watcher}", style="dim")
        text.append("  DRY-RUN" if dry_run else "  live", style="bold magenta" if dry_run
                    else "bold green")

        self._state_at, self._note = state_at, note
        tail = self._tail = self._tail_for(None)  # last, whatever the width
        self._shown = text + tail
        self._parts = {"checkpoint": checkpoint, "turns": turns, "counts": dict(counts),
                       "watcher": watcher, "dry_run": dry_run, "source_format": source_format,
                       "pinned": pinned, "held": held}
        self._draw()


def _narrow(short: int, *, checkpoint: int, turns: int, counts: dict[str, int],
            watcher: str, dry_run: bool, source_format: str, pinned: int | None,
            held: int) -> Text:
    """The status line for a narrow terminal: what matters most first (whether decisions
    are written, then the counts), the revision and the state's place left out (and the
    watcher's state without ``watcher``); ``short``: 1, short labels too; 2, and the
    shortest mark of a pinned disk."""
    text = Text()
    if held:
        text.append(f"waiting on {held} open elsewhere  " if short else
                    f"waiting on {held} file{'s' if held > 1 else ''} open elsewhere  ",
                    style="bold black on yellow")
    text.append(f"{'cp' if short else 'checkpoint'} {checkpoint}/{turns}", style="bold")
    if pinned is not None:
        text.append("  ")
        text.append(f"pin {pinned}" if short > 1 else f"pinned at {pinned} (P)" if short
                    else f"disk pinned at checkpoint {pinned} (P unpins)",
                    style="bold black on yellow")
    text.append("  DRY-RUN" if dry_run else "  live",
                style="bold magenta" if dry_run else "bold green")
    for label, brief, style in (("pending", "pend", "yellow"), ("accepted", "acc", "green"),
                                ("rejected", "rej", "red"), ("failed", "fail", "bold red")):
        text.append(f"  {brief if short else label} {counts.get(label, 0)}", style=style)
    if watcher:
        text.append(f"  {'no watch' if short and watcher == 'off' else f'watch: {watcher}'}",
                    style="dim")
    if source_format and source_format != "fileops":
        text.append(f"  {source_format}", style="bold cyan")
    return text
