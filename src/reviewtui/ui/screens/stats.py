"""Statistics of the review: the counts of ``reviewtui stats`` with small bar charts."""

from __future__ import annotations

import io
from weakref import WeakKeyDictionary

from rich.console import Console
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reviewtui.core.export import Accepted
from reviewtui.core.review.stats import (
    SECTIONS,
    SessionStats,
    Stats,
    bar,
    duration,
    session_stats,
    with_syntax,
)
from reviewtui.core.text.plural import plural
from reviewtui.shell.review import Review
from reviewtui.ui.worker_results import show_later

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
    head.append(f"\n{plural(len(stats.turns), 'turn')}, "
                f"{plural(total.operations, 'operation')}: "
                f"{total.landed} land (pending ones that apply included), "
                f"{total.failed} failed")
    if total.syntax_errors:
        head.append(f", {total.syntax_errors} introduce syntax errors", style="bold red")
    if not total.syntax_checked:
        head.append("\nchecking which operations introduce syntax errors…", style="dim")
    if total.timed:
        # Worded as `reviewtui stats` words it: decisions taken, undone ones included.
        head.append(f"\nreview time: {duration(total.review_seconds)} over "
                    f"{plural(total.timed, 'decision')}")
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


# The scroll box is 84 cells wide: 78 are left inside its border, padding and scroll bar.
FLAT_WIDTH = 78


def flatten(part: Table | Text, width: int = FLAT_WIDTH) -> Text:
    """A table rendered once into styled text, as it shows at ``width`` cells.

    A Static holding a Table renders the whole table again on every layout pass to learn
    its height: the 200-row per-turn table cost ~0.27 s a pass, seconds per opening.
    """
    if isinstance(part, Text):
        return part
    console = Console(width=width, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor")
    lines = console.render_lines(part, console.options, pad=False)
    return Text("\n").join(
        Text.assemble(*((segment.text, segment.style or "") for segment in line
                        if not segment.control), no_wrap=True, overflow="crop")
        for line in lines)


def _parts(stats: SessionStats) -> list[Text]:
    """What the screen mounts: rendered off the event loop where it is called from a worker."""
    return [flatten(part) for part in stats_renderables(stats)]


def _fixed(part: Text) -> Static:
    """A Static as tall as the flattened table's lines: no layout pass renders it to
    measure (with 200 per-turn rows that cost about 0.2 s a pass)."""
    static = Static(part)
    static.styles.height = part.plain.count("\n") + 1
    return static


# The last statistics of each open review, with the revision they were counted at.
# The parts are kept rendered: a long per-turn table takes a while to render.
_CACHE: WeakKeyDictionary[Review, tuple[int, SessionStats, list[Text]]] = WeakKeyDictionary()


class StatsScreen(ModalScreen[None]):
    """Counts for the session as the review stands (the reviewer's decisions)."""

    DEFAULT_CSS = """
    StatsScreen { align: center middle; background: $background 60%; }
    StatsScreen > VerticalScroll { width: 84; max-width: 100%; height: 90%; border: thick $primary;
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
            self._stats_loaded(cached[2])  # nothing decided since: shown at once
            if cached[1].total.syntax_checked:
                return
        self.load_stats()

    @work(thread=True, exclusive=True, group="stats")
    def load_stats(self) -> None:
        # The display run: every outcome as the workbench shows it (the draft never
        # evaluates pending operations), with the reviewer's decisions.
        review = self.review
        revision = review.revision
        review.finish_evaluation()  # every outcome, not only the turns evaluated so far
        state = str(review.state_path) if review.state_path is not None else None
        cached = _CACHE.get(review)
        if cached is not None and cached[0] == revision:
            # Shown by on_mount; only the syntax errors are missing, which need no findings.
            stats, parts = cached[1], cached[2]
            accepted = Accepted(review.display, str(review.loaded.file), True, state)
        else:
            accepted = Accepted.of(review.display, str(review.loaded.file), reviewed=True,
                                   state=state)
            # Everything but the syntax errors first: they parse every file version a
            # landed operation made, which on a long history takes seconds.
            stats = session_stats(accepted, review.time_spent(), syntax=False)
            parts = _parts(stats)
            _CACHE[review] = (revision, stats, parts)
            show_later(self, self._stats_loaded, parts)
        stats = with_syntax(stats, accepted)
        parts = [flatten(stats_renderables(stats)[0]), *parts[1:]]  # only the head changed
        _CACHE[review] = (revision, stats, parts)
        show_later(self, self._stats_loaded, parts[:1])

    def _stats_loaded(self, parts: list[Text]) -> None:
        """Show the head and the charts; with the head alone, replace the head."""
        heads = self.query("#stats-head")
        if heads:
            # The second round changes only the head (the syntax errors).
            heads.first(Static).update(parts[0])
            return
        loading = self.query("#stats-loading")
        if not loading:
            return  # closed meanwhile
        # One layout and one paint: each repaint of this screen also paints the screen
        # behind its translucent background (about 0.13 s over a long review).
        with self.app.batch_update():
            loading.remove()
            self.query_one(VerticalScroll).mount_all(
                [Static(parts[0], id="stats-head"), *(_fixed(part) for part in parts[1:])])

    def action_close(self) -> None:
        self.dismiss(None)
