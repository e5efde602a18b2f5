"""Statistics of the review: the counts of ``reviewtui stats`` with small bar charts."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reviewtui.core.export import Accepted
from reviewtui.core.stats import SECTIONS, SessionStats, Stats, bar, duration, session_stats
from reviewtui.shell.review import Review

BAR = 24


def _chart(title: str, counts: dict[str, int], style: str = "cyan") -> Table:
    table = Table(box=None, show_header=False, pad_edge=False, title=title,
                  title_justify="left", title_style="bold")
    table.add_column("what", no_wrap=True, min_width=26)
    table.add_column("count", justify="right", min_width=4)
    table.add_column("bar", no_wrap=True)
    largest = max(counts.values(), default=0)
    for key, value in counts.items():
        # Keys can quote the session (rule ids, statuses): plain text, never markup.
        table.add_row(Text(key), str(value), Text(bar(value, largest, BAR), style=style))
    return table


def stats_renderables(stats: SessionStats) -> list[Table | Text]:
    total = stats.total
    head = Text()
    head.append(stats.title or stats.source, style="bold")
    head.append(f"\ndecisions: {stats.decided_by}", style="dim")
    head.append(f"\n{len(stats.turns)} turns, {total.operations} operations: "
                f"{total.landed} land (pending ones that apply included), "
                f"{total.failed} failed")
    if total.syntax_errors:
        head.append(f", {total.syntax_errors} introduce syntax errors", style="bold red")
    if total.timed:
        head.append(f"\nreview time: {duration(total.review_seconds)} over {total.timed} "
                    "decided operations")
    tokens = {"sent by the model": total.tokens_sent,
              "cheapest safe form": total.tokens_cheapest}
    parts: list[Table | Text] = [head, _chart("estimated tokens", tokens, "magenta")]
    styles = {"failures": "red", "findings": "yellow", "decisions": "green"}
    for heading, name in SECTIONS:
        counts: dict[str, int] = getattr(total, name)
        if counts:
            parts.append(_chart(heading, counts, styles.get(name, "cyan")))
    parts.append(_per_turn(stats.turns))
    return parts


PER_TURN_ROWS = 200  # a long history's table is cut: `reviewtui stats` prints every turn


def _per_turn(all_turns: tuple[Stats, ...]) -> Table:
    table = Table(box=None, pad_edge=False, title="per turn", title_justify="left",
                  title_style="bold", header_style="dim")
    for column in ("turn", "ops", "land", "fail", "tokens", "cheapest"):
        table.add_column(column, justify="right")
    table.add_column("land / fail", no_wrap=True)
    # Turns without operations say nothing here (most of a long chat history).
    turns = [t for t in all_turns if t.operations]
    left = len(turns) - PER_TURN_ROWS
    if left > 0:
        table.caption = (f"… and {left} more turns with operations "
                         "(reviewtui stats lists them all)")
        turns = turns[:PER_TURN_ROWS]
    for t in turns:
        table.add_row(str(t.turn), str(t.operations), str(t.landed), str(t.failed),
                      f"~{t.tokens_sent}", f"~{t.tokens_cheapest}",
                      Text(bar(t.landed, t.operations, 12), style="green")
                      + Text(bar(t.failed, t.operations, 12), style="red"))
    return table


# The last statistics of each open review, with the revision they were counted at.
_CACHE: WeakKeyDictionary[Review, tuple[int, SessionStats]] = WeakKeyDictionary()


class StatsScreen(ModalScreen[None]):
    """Counts for the session as the review stands (the reviewer's decisions)."""

    DEFAULT_CSS = """
    StatsScreen { align: center middle; background: $background 60%; }
    StatsScreen > VerticalScroll { width: 84; height: 90%; border: thick $primary;
        background: $surface; padding: 0 1; }
    StatsScreen Static { margin-bottom: 1; }
    """
    BINDINGS = [Binding("escape,S,q", "close", "Close", id="stats-close")]

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Statistics (escape closes)"
            yield Static("counting…", id="stats-loading")

    def on_mount(self) -> None:
        cached = _CACHE.get(self.review)
        if cached is not None and cached[0] == self.review.revision:
            self._stats_loaded(cached[1])  # nothing decided since: shown at once
            return
        self.load_stats()

    @work(thread=True, exclusive=True, group="stats")
    def load_stats(self) -> None:
        # The display run: every outcome as the workbench shows it (the draft never
        # evaluates pending operations), with the reviewer's decisions.
        review = self.review
        review.finish_evaluation()  # every outcome, not only the turns evaluated so far
        state = str(review.state_path) if review.state_path is not None else None
        accepted = Accepted.of(review.display, str(review.loaded.file), reviewed=True,
                               state=state)
        stats = session_stats(accepted, review.time_spent())
        _CACHE[review] = (review.revision, stats)
        self.app.call_from_thread(self._stats_loaded, stats)

    def _stats_loaded(self, stats: SessionStats) -> None:
        scroll = self.query_one(VerticalScroll)
        self.query_one("#stats-loading", Static).remove()
        scroll.mount_all(Static(part) for part in stats_renderables(stats))

    def action_close(self) -> None:
        self.dismiss(None)
