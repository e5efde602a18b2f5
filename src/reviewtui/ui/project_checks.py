"""Project checks in the workbench: the trust question, and findings under the explanation.

A ``reviewtui.toml`` with ``[checks]`` names commands, someone else's code: nothing runs
until the reviewer trusts that exact file (the prompt shows the commands; trust is stored
per content hash, :mod:`reviewtui.shell.trust`). Once trusted, the commands are the ones
parsed from the bytes that were trusted, read once when the project was loaded (before
anything was applied). The screen runs them for the selected operation in a thread
worker; the results are cached per operation and per file texts, so a later decision
that changes what the operation leaves behind checks it again.
"""

from __future__ import annotations

import threading
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Static

from reviewtui.core.engine import OpResult
from reviewtui.core.protocol.config import ProjectConfig
from reviewtui.core.record import replace
from reviewtui.core.review.diagnostics import Diagnostic, change_texts
from reviewtui.core.text.visible import visible
from reviewtui.shell.checks import DEFAULT_TIMEOUT, check_result
from reviewtui.shell.trust import is_trusted_digest, trust_digest
from reviewtui.ui.diagnostics import append_findings
from reviewtui.ui.opview import OpView
from reviewtui.ui.screens.dialogs import ConfirmScreen

Checks = tuple[tuple[str, str], ...]
_CacheKey = tuple[tuple[int, int], str, str | None, str | None]


class ProjectChecks:
    """The project's checks for one review: whether they may run, and their cached results."""

    def __init__(self, config: ProjectConfig, *, trust_file: Path | None = None,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.source = config.source
        self.trust_file = trust_file
        self.timeout = timeout
        self.checks: Checks = ()  # what runs: empty until trusted
        self.offer: tuple[str, Checks] | None = None  # untrusted digest and its commands
        self.note = ""  # why the checks are off when they cannot even be offered
        self._cache: dict[_CacheKey, tuple[Diagnostic, ...]] = {}
        # The operation the latest worker checks: a repaint does not start it again. Only one
        # (the worker is exclusive: a newer one replaces it, maybe before it ever started).
        self._latest: _CacheKey | None = None
        self._lock = threading.Lock()
        if config.checks:
            self._read(config)

    def _read(self, config: ProjectConfig) -> None:
        # The commands and digest read when the project was loaded, before any operation
        # (or a saved replay) touched the disk: never re-read (a session may edit the file).
        if not config.digest:
            self.note = f"project checks off: {self.source} was not read"
            return
        if is_trusted_digest(config.digest, self.trust_file):
            self.checks = config.checks
        else:
            self.offer = (config.digest, config.checks)

    def question(self) -> str:
        assert self.offer is not None
        # Spelled out (ESC, CR, newlines): a command must not erase or redraw itself here.
        commands = "\n".join(f"  {visible(glob)}: {visible(command)}"
                             for glob, command in self.offer[1])
        return (f"{self.source} asks to run these project checks on the edited files:\n"
                f"{commands}\n\nThey are programs from the project's configuration. "
                "Trust this exact file and run them? (a changed file asks again)")

    def answer(self, yes: bool) -> None:
        """Trust the offered bytes (yes) and enable exactly their commands; no: stay off."""
        if self.offer is None:
            return
        digest, checks = self.offer
        self.offer = None
        if yes:
            trust_digest(digest, self.source, self.trust_file)
            self.checks = checks

    @staticmethod
    def _key(result: OpResult) -> _CacheKey | None:
        texts = change_texts(result)
        if texts is None:
            return None
        return (result.key, *texts)

    def cached(self, result: OpResult) -> tuple[Diagnostic, ...] | None:
        """The findings if already known (``()`` for nothing to check), None: not yet run."""
        if not self.checks:
            return ()
        key = self._key(result)
        if key is None:
            return ()
        with self._lock:
            return self._cache.get(key)

    def claim(self, result: OpResult) -> bool:
        """Mark the operation's checks as the latest to run; False when they already are."""
        key = self._key(result)
        with self._lock:
            if key is None or key == self._latest:
                return False
            self._latest = key
            return True

    def run(self, result: OpResult) -> tuple[Diagnostic, ...]:
        """Run the matching checks (blocking: call it from a worker thread) and cache them."""
        key = self._key(result)
        if not self.checks or key is None:
            return ()
        try:
            found = check_result(result, self.checks, self.timeout)
            with self._lock:
                self._cache[key] = found
        finally:
            with self._lock:
                if self._latest == key:
                    self._latest = None
        return found


def with_project_checks(view: OpView, path: str,
                        found: tuple[Diagnostic, ...] | None) -> OpView:
    """The view with the project checks' findings (None: still running) appended."""
    if found is not None and not found:
        return view
    text = view.explanation.copy()
    if text.plain:
        text.append("\n\n")
    if found is None:
        text.append(f"project checks of {path}: running…", style="dim")
        return replace(view, explanation=text)
    text.append(f"project checks of {path} as this operation leaves it:", style="bold")
    append_findings(text, found, named=True)
    return replace(view, explanation=text)


def explanation_with(view: OpView, checks: ProjectChecks, result: OpResult) -> tuple[
        OpView, bool]:
    """The view with what is known of the project checks; True: they still have to run."""
    found = checks.cached(result)
    path = getattr(result.op, "path", "")
    return with_project_checks(view, str(path), found), found is None and checks.claim(result)



class TrustScreen(ConfirmScreen):
    """The trust question: Enter and the focused button default to No, only ``y`` trusts,
    and only once every command has been on screen.

    The commands scroll (Down, Page Down, End) with the buttons below them: in a plain
    dialog, 41 checks ran past the screen's foot with the buttons, and ``y`` trusted
    commands no one had seen (QA s45 helper-137 #2). ``y`` before the end of the list
    says so, and does nothing else."""

    AUTO_FOCUS = "#no"
    DEFAULT_CSS = ConfirmScreen.DEFAULT_CSS.replace("ConfirmScreen", "TrustScreen") + """
    TrustScreen > Vertical > VerticalScroll { height: auto; max-height: 50vh; width: 100;
        max-width: 100%; }
    TrustScreen > Vertical > VerticalScroll > Static { width: 1fr; }
    """
    BINDINGS = [Binding("enter", "answer(False)", "No", show=False),
                Binding("y", "trust", "Yes", show=False),
                Binding("down", "scroll(1)", "Down", show=False),
                Binding("up", "scroll(-1)", "Up", show=False),
                Binding("pagedown,space", "page(1)", "Page down", show=False),
                Binding("pageup", "page(-1)", "Page up", show=False),
                Binding("end", "scroll(1000000)", "End", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="commands"):
                yield Static(Content(self.question) if isinstance(self.question, str)
                             else self.question)
            with Horizontal():
                yield Button("Yes (y)", variant="primary", id="yes")
                yield Button("No (n)", id="no")

    def _list(self) -> VerticalScroll:
        return self.query_one("#commands", VerticalScroll)

    def action_scroll(self, lines: int) -> None:
        self._list().scroll_to(y=self._list().scroll_y + lines, animate=False)

    def action_page(self, pages: int) -> None:
        box = self._list()
        box.scroll_to(y=box.scroll_y + pages * max(1, box.size.height - 1), animate=False)

    def read_to_the_end(self) -> bool:
        box = self._list()
        return box.scroll_y >= box.max_scroll_y

    def action_trust(self) -> None:
        if not self.read_to_the_end():
            # (it does not scroll: y pressed again and again, or held, scrolled to the end
            # and trusted, QA s45 helper-140 F4)
            self.notify("read every command first: the list goes on below (Page Down, "
                        "End); y trusts once its end is on screen", severity="warning",
                        markup=False)
            return
        self.dismiss(True)

    @on(Button.Pressed, "#yes")
    def _yes(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_trust()
