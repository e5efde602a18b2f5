"""The whole tree as it stood at a checkpoint: read-only, nothing is written.

Every file at checkpoint N is listed with a marker for what turn N did to it; the
selected file is shown as a diff against the previous checkpoint (or as its content).
``.`` / ``,`` scrub through the checkpoints here too; ``d`` switches between the preview
(pending operations that apply counted as accepted) and the decided draft (what
``ctrl+t`` would restore).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from reviewtui.core.engine import SessionRun
from reviewtui.core.engine.links import is_link
from reviewtui.core.engine.links import shown as shown_link
from reviewtui.core.errors import DiskError
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.text.diff import build_diff
from reviewtui.core.text.plural import plural
from reviewtui.shell.review import Review
from reviewtui.ui.screens.ready import ReadyScreen
from reviewtui.ui.widgets.diff_render import sanitize
from reviewtui.ui.widgets.diff_view import DiffView
from reviewtui.ui.widgets.footer import KeyFooter
from reviewtui.ui.widgets.lists import KeyedOptionList

_MARKS = {"added": ("+", "green"), "changed": ("M", "yellow"), "removed": ("-", "red"),
          "same": (" ", "dim")}


def file_rows(before: Tree, after: Tree) -> list[tuple[str, str]]:
    """Every path of ``after`` plus the ones removed since ``before``, with what happened."""
    changes = before.diff(after)
    rows = []
    for path in sorted(set(after.paths()) | set(changes)):
        old, new = changes.get(path, (None, None)) if path in changes else (None, None)
        if path not in changes:
            rows.append((path, "same"))
        elif old is None:
            rows.append((path, "added"))
        elif new is None:
            rows.append((path, "removed"))
        else:
            rows.append((path, "changed"))
    return rows


class TreeScreen(ReadyScreen[int]):
    """Dismisses with the checkpoint the reviewer ended on. Its keys are live once it is
    mounted (ready.py)."""

    DEFAULT_CSS = """
    TreeScreen #tree-head { height: 1; padding: 0 1; background: $boost; }
    TreeScreen #tree-body { height: 1fr; }
    TreeScreen #tree-files { width: 44; height: 1fr; border: round $primary-darken-2;
        text-wrap: nowrap; text-overflow: ellipsis; }
    TreeScreen #tree-main { width: 1fr; }
    TreeScreen #tree-label { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("full_stop", "checkpoint(1)", "Next cp", id="tree-next"),
        Binding("comma", "checkpoint(-1)", "Prev cp", id="tree-prev"),
        Binding("d", "toggle_run", "Preview/decided", id="tree-run"),
        Binding("escape,t,q", "close", "Back", id="tree-close"),
    ]

    def __init__(self, review: Review, checkpoint: int) -> None:
        super().__init__()
        self.review = review
        self.checkpoint = checkpoint
        self.decided = False
        self.rows: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        yield Static(id="tree-head")
        with Horizontal(id="tree-body"):
            yield KeyedOptionList(id="tree-files")
            with Vertical(id="tree-main"):
                yield Static(id="tree-label")
                yield DiffView(id="tree-diff")
        yield KeyFooter(adaptive=True)

    def on_mount(self) -> None:
        if self.dismissed:
            return  # closed before it was drawn: its widgets are going
        self.refresh_tree()
        self.query_one("#tree-files", OptionList).focus()

    @property
    def run(self) -> SessionRun:
        if not self.decided:
            self.review.finish_evaluation()  # every checkpoint of the display
        return self.review.draft if self.decided else self.review.display

    def trees(self) -> tuple[Tree, Tree]:
        states = self.run.states
        n = max(0, min(self.checkpoint, len(states) - 1))
        return states[max(0, n - 1)].tree, states[n].tree

    def refresh_tree(self) -> None:
        before, after = self.trees()
        self.rows = file_rows(before, after)
        head = Text()
        head.append(f"checkpoint {self.checkpoint}", style="bold")
        head.append(f" · {plural(len(after), 'file')} · ")
        head.append("decided draft (what ctrl+t restores)" if self.decided
                    else "preview: pending operations that apply count as accepted")
        head.append(" · read-only", style="dim")
        self.query_one("#tree-head", Static).update(head)
        files = self.query_one("#tree-files", OptionList)
        highlighted = files.highlighted or 0
        files.clear_options()
        for path, what in self.rows:
            mark, style = _MARKS[what]
            files.add_option(Option(Text.assemble((f"{mark} ", style), sanitize(path))))
        files.border_title = f"Files at checkpoint {self.checkpoint}"
        if self.rows:
            files.highlighted = min(highlighted, len(self.rows) - 1)
            self.show_file(files.highlighted or 0)
        else:
            self.query_one(DiffView).show_message("no files at this checkpoint")

    def show_file(self, index: int) -> None:
        path, what = self.rows[index]
        before, after = self.trees()
        old, new = before.get(path), after.get(path)
        label = self.query_one("#tree-label", Static)
        view = self.query_one(DiffView)
        name = sanitize(path)  # a file on disk may be named with anything but "/" and NUL
        shown = new if new is not None else old
        try:  # a file the session does not name is read from disk now (shell/project.py)
            binary = shown is not None and shown.binary
            old_lines, new_lines = _lines(old), _lines(new)
        except DiskError as err:
            label.update(Text(name))
            view.show_message(f"cannot read {name}: {err.message}")
            return
        done = (f"unchanged by turn {self.checkpoint}" if what == "same"
                else f"{what} by turn {self.checkpoint}")
        if shown is not None and is_link(shown):  # a link holds its target, not bytes
            label.update(Text(f"{name} — {done}", style="dim"))
            was = f" (was {sanitize(shown_link(old))})" if (
                what == "changed" and is_link(old)) else ""
            view.show_message(f"{sanitize(shown_link(shown))}{was}")
            return
        if binary:
            label.update(Text(f"{name} — {done}", style="dim"))
            view.show_message("binary file: not shown")
            return
        label.update(Text(f"{name} — {done}", style="dim"))
        if what == "same":
            old_lines = new_lines
        model = build_diff(old_lines, new_lines, context=3 if what != "same" else 10_000)
        view.set_diff(model, path=path, before_text="\n".join(old_lines),
                      after_text="\n".join(new_lines), mode="unified")

    @on(OptionList.OptionHighlighted, "#tree-files")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.showing and 0 <= event.option_index < len(self.rows):
            self.show_file(event.option_index)

    def action_checkpoint(self, delta: int) -> None:
        last = len(self.run.states) - 1
        self.checkpoint = max(0, min(last, self.checkpoint + delta))
        self.refresh_tree()

    def action_toggle_run(self) -> None:
        self.decided = not self.decided
        self.refresh_tree()

    def action_close(self) -> None:
        self.dismiss(self.checkpoint)


def _lines(state: FileState | None) -> tuple[str, ...]:
    return state.lines if state is not None and not state.binary else ()
