"""The left-hand lists: turns of the session, and the operations of the selected turn."""

from __future__ import annotations

import stat
from collections.abc import Sequence
from typing import ClassVar, cast

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.css.styles import RulesMap
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reviewtui.core.engine.opstate import OpState
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile, Turn
from reviewtui.ui.opview import STATE_STYLE
from reviewtui.ui.widgets.diff_render import sanitize


def unread_parts(turn: Turn) -> int:
    """How many parts of the turn's reply were not read as operations (an edit cut off
    before its end, a line where a hunk header belongs that is not one): what ``check``
    reports as errors and ``apply`` counts as not applied."""
    return sum(1 for problem in turn.reply.problems if problem.severity == "error")


def unread_note(turn: Turn, source: object) -> Text | None:
    """What of ``turn``'s reply was not read as operations (an edit cut off before its
    end...), one line each with its place in the session file ``source``; None if all."""
    if not unread_parts(turn):
        return None
    note = Text(f"Part of turn {turn.index}'s reply was not read as an operation:",
                style="red")
    for problem in turn.reply.problems:
        if problem.severity == "error":
            note.append(f"\n  {source}:{problem.span.start}: ", style="dim")
            note.append(f"{problem.message} ({problem.rule})")
    return note


def turn_prompt(index: int, request: str, states: list[OpState], width: int = 120, *,
                unread: int = 0) -> Text:
    """A turn's row: its state, number, counts and request. ``unread``: parts of its
    reply not read as operations (:func:`unread_parts`): the row is marked failed, as a
    turn whose operations failed, and says how many (a reply cut off mid-edit would
    otherwise read as a turn with no operations).

    The counts come before the request, so that the list's ellipsis, wherever the list's
    width puts it, cuts the request and never the counts (at 120 columns the list is 32
    wide). ``width``: the most of the row kept (a long request is cut there)."""
    first_line = sanitize(request.splitlines()[0]) if request.strip() else "(no request)"
    decided = sum(s.decided for s in states)
    failed = sum(s.failed for s in states)
    if unread:
        glyph, style = "✗", "red"
    elif not states:  # a turn without operations (most of a long chat history)
        glyph, style = "·", "dim"
    elif failed:
        glyph, style = "✗", "red"
    elif decided == len(states):
        glyph, style = "●", "green"
    else:
        glyph, style = "○", "yellow"
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{glyph} ", style=style)
    text.append(f"T{index} ", style="bold")
    if states or not unread:  # (0/0 says nothing beside the parts not read)
        text.append(f"{decided}/{len(states)} ", style="dim")
    if failed:
        text.append(f"{failed}✗ ", style="red")
    if unread:
        text.append(f"{unread} not read ", style="red")
    room = max(8, width - len(text.plain))
    text.append(first_line[:room] + ("…" if len(first_line) > room else ""))
    return text


def op_prompt(title: str, state: OpState, badge: str = "") -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    style = STATE_STYLE[state]
    text.append(f"{state.glyph:<2} ", style=style)
    if badge:  # e.g. "!syntax": the operation leaves its file with a syntax error. Before
        # the title, as a turn row's counts come before its request: a narrow list cuts
        # the title's end, never the badge (QA pass 84c: it was cut at 80 columns).
        text.append(f"{badge} ", style="bold red")
    # What tells operations apart leads; the state word follows (the glyph says it too).
    text.append(title)
    text.append(f"  {state.label}", style=style.replace("bold", "").strip() or "default")
    return text


def op_row_title(op: Edit | FullFile | ConsoleCommand, room: int = 60) -> str:
    """An operation row: what tells it apart first (``Edit 2 · invoicer/output/text.py``),
    the path shortened from the left when the row is narrow."""
    if isinstance(op, ConsoleCommand):
        return sanitize(op.text)
    return _lead(op) + _shortened(op, room)


def op_row_titles(ops: Sequence[Edit | FullFile | ConsoleCommand], room: int) -> list[str]:
    """The rows of one turn's operations (:func:`op_row_title`). Where different paths
    would read the same once shortened (a monorepo's ``crates/*/Cargo.toml``, all
    ``…/Cargo.toml``), those rows show the folder that tells them apart instead
    (:func:`told_apart`: ``…/ignore/Cargo.toml``, or ``…searcher/Carg…`` when narrow)."""
    rows: list[tuple[str, str, str] | None] = []  # (lead, sanitized path, shortened)
    paths: dict[str, set[str]] = {}  # each shortened path, and the paths it stands for
    for op in ops:
        if isinstance(op, ConsoleCommand):
            rows.append(None)
            continue
        lead, path = _lead(op), sanitize(op.path)
        short = shorten_path(path, _room(room, lead))
        rows.append((lead, path, short))
        paths.setdefault(short, set()).add(path)
    titles = []
    for op, row in zip(ops, rows, strict=True):
        if row is None:
            titles.append(op_row_title(op, room))
            continue
        lead, path, short = row
        group = paths[short]
        titles.append(lead + (told_apart(path, group, _room(room, lead)) if len(group) > 1
                              else short))
    return titles


def told_apart(path: str, group: set[str], room: int) -> str:
    """``path`` in at most ``room`` cells, by the folder nearest its name where the paths
    of ``group`` (``path`` among them) differ: ``…/cli/Cargo.toml``, ``…cli/Cargo.toml``,
    ``…index/…/lib.rs``, else that folder whole and the rest cut (``…searcher/Carg…``):
    the name, the same in every row of the group, says the least."""
    parts = path.split("/")
    split = [other.split("/") for other in group]
    depth = 2  # (from the end: the folder holding the name)
    while depth <= len(parts) and len({other[-depth] if depth <= len(other) else ""
                                       for other in split}) == 1:
        depth += 1
    if depth > len(parts):  # it differs above its own top folder: it is a top of others
        return shorten_path(path, room)
    folder, name = parts[-depth], parts[-1]
    whole = "/".join(parts[-depth:])
    lead = "" if depth == len(parts) else "…"
    short = lead + folder + ("/…/" if depth > 2 else "/") + name
    for text in (lead and f"…/{whole}", lead + whole, short):
        if text and len(text) <= room:
            return text
    return short[: room - 1] + "…"


def _lead(op: Edit | FullFile) -> str:
    return f"Edit {op.label} · " if isinstance(op, Edit) else (
        "Link · " if op.mode is not None and stat.S_ISLNK(op.mode) else "File · ")


def _room(room: int, lead: str) -> int:
    """Cells for the path of a row of ``room`` cells after ``lead``."""
    return max(8, room - len(lead))


def _shortened(op: Edit | FullFile, room: int) -> str:
    # A hidden or control character shows as a picture (as in the header and the diffs).
    lead = _lead(op)
    return shorten_path(sanitize(op.path), _room(room, lead))


def shorten_path(path: str, room: int) -> str:
    """``…/output/text.py``: the end of the path, cut at a folder where it can be."""
    if len(path) <= room:
        return path
    tail = path[-(room - 1):]
    cut = tail.find("/")
    if 0 <= cut < len(tail) - 1 and len(tail) - cut > room // 2:
        tail = tail[cut:]
    return "…" + tail


def replace_prompt(options: OptionList, position: int, prompt: Text) -> None:
    """Replace one option's prompt and redraw that option alone.

    ``OptionList.replace_option_prompt_at_index`` drops every row drawn so far and
    measures every option again: after a decision on a 500-turn session that is the whole
    turn list redrawn on the event loop, for the one or two rows that changed. When the
    option keeps its height, only its own drawn lines are dropped here. This reads the
    OptionList's caches (Textual's internals): anything unexpected takes the public way.
    """
    if prompt == options.get_option_at_index(position).prompt:
        return  # the same row (most of a turn's rows after a decision)
    try:
        option = options.get_option_at_index(position)
        lines = options._line_cache  # noqa: SLF001
        height = lines.heights.get(position)
        top = lines.index_to_line.get(position)
        width = (options.scrollable_content_region.width
                 - options._get_left_gutter_width())  # noqa: SLF001
        padding = options.get_component_styles("option-list--option").padding
        cache = options._option_render_cache  # noqa: SLF001
    except AttributeError:
        height = top = None
    if height is None or top is None:
        options.replace_option_prompt_at_index(position, prompt)
        return
    option._set_prompt(prompt)  # noqa: SLF001
    visual = options._get_visual(option)  # noqa: SLF001
    rules = cast(RulesMap, options.styles)
    if visual.get_height(rules, width - padding.width) + option._divider != height:  # noqa: SLF001
        options.replace_option_prompt_at_index(position, prompt)  # rows move: measure all
        return
    for key in [key for key in cache.keys() if key[0] is option]:  # noqa: SIM118
        cache.discard(key)
    options.refresh_lines(top, height)


class RowHighlightOptionList(OptionList):
    """An option list whose highlight moving redraws the two rows it leaves and reaches.

    ``OptionList`` redraws every visible row when the highlight moves (its reactive asks
    for a whole repaint): after each decision the cursor moves on, and on the review
    screen that was the operation list drawn again line by line on the event loop. Here
    only the rows of the old and the new highlight are redrawn; anything unexpected (the
    rows not measured yet) redraws the whole list as before.
    """

    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def _watch_highlighted(self, old: int | None, new: int | None) -> None:
        for index in (old, new):
            if index is None:
                continue
            try:
                top = self._index_to_line[index]  # noqa: SLF001
                height = self._heights[index]  # noqa: SLF001
            except (KeyError, AttributeError):
                self.refresh()
                return
            self.refresh_lines(top, height)


class KeyedOptionList(RowHighlightOptionList):
    """An option list that also moves with j / k, as every list of the workbench does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]


class TurnList(KeyedOptionList):
    """Every turn: its state, number, decided/total, failures and the request's first line."""

    DEFAULT_CSS = """
    TurnList { height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def set_turns(self, prompts: list[Text]) -> None:
        highlighted = self.highlighted
        self.clear_options()
        self.add_options([Option(p, id=f"turn-{n}") for n, p in enumerate(prompts)])
        if prompts:
            self.highlighted = min(highlighted or 0, len(prompts) - 1)

    def update_turn(self, position: int, prompt: Text) -> None:
        replace_prompt(self, position, prompt)


class OpList(RowHighlightOptionList):
    """The selected turn's operations, in reply order, with a status glyph and word."""

    DEFAULT_CSS = """
    OpList { height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    class Resized(Message):
        """The list's width changed: its rows were titled for another (the screen titles
        them again, :func:`op_row_titles` for the new width)."""

    _titled_width = 0  # the width of the last Resized

    def on_resize(self, event: Resize) -> None:
        # Its own size, not the terminal's: the rows are first made before the list has a
        # width, and a resize of the screen comes before there are states to title them
        # with (QA pass s29, helper-90 F6: resumed onto turn 5, the rows kept titles for
        # an unknown width, cut at their tail with the status word out of sight).
        width = self.scrollable_content_region.width
        if width and width != self._titled_width:
            self._titled_width = width
            self.post_message(self.Resized())

    def set_ops(self, prompts: list[Text], highlighted: int = 0) -> None:
        self.clear_options()
        self.add_options([Option(p, id=f"op-{n}") for n, p in enumerate(prompts)])
        if prompts:
            self.highlighted = max(0, min(highlighted, len(prompts) - 1))

    def update_op(self, position: int, prompt: Text) -> None:
        # A row not listed yet (an operation of a live session read in since the list
        # was made: its SessionGrew comes next and adds it) has nothing to update. It
        # crashed the workbench when an outside change came with it (QA pass 84a).
        if position < self.option_count:
            replace_prompt(self, position, prompt)
