"""Edit the replacement in place: a modal editor with the file's highlighting."""

from __future__ import annotations

from pathlib import PurePosixPath

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, TextArea

from reviewtui.ui.screens.ready import ReadyModal

_LANGUAGES = {
    ".py": "python", ".js": "javascript", ".jsx": "javascript", ".ts": "javascript",
    ".tsx": "javascript", ".json": "json", ".md": "markdown", ".toml": "toml",
    ".yml": "yaml", ".yaml": "yaml", ".html": "html", ".css": "css", ".go": "go",
    ".rs": "rust", ".java": "java", ".sh": "bash", ".sql": "sql", ".xml": "xml",
}


def language_for(path: str) -> str | None:
    return _LANGUAGES.get(PurePosixPath(path).suffix.lower())


def edits_faithfully(text: str) -> bool:
    """Whether the in-place editor gives ``text`` back as it is when nothing is typed.

    Its document splits lines as ``str.splitlines`` does and joins them with one newline:
    a form feed, U+2028, NEL or a lone carriage return in a line would come back as a
    line break, and the file would change where the reviewer changed nothing."""
    return TextArea(text).text == text


def cannot_edit_in_place(what: str, instead: str) -> str:
    return (f"the {what} holds a character the in-place editor would turn into a line break "
            f"(a form feed, U+2028, NEL or a lone carriage return): {instead}")


class EditScreen(ReadyModal[str | None]):
    """ctrl+s applies and re-evaluates; escape cancels. Its keys are live once it is
    mounted (ready.py)."""

    DEFAULT_CSS = """
    EditScreen { align: center middle; background: $background 60%; }
    EditScreen > Vertical { width: 90%; height: 85%; border: thick $primary;
        background: $surface; }
    EditScreen #edit-help { height: 1; padding: 0 1; color: $text-muted; }
    EditScreen TextArea { height: 1fr; }
    """
    BINDINGS = [
        Binding("ctrl+s", "apply", "Apply", id="edit-apply", priority=True),
        Binding("escape", "cancel", "Cancel", id="edit-cancel", priority=True),
    ]

    def __init__(self, text: str, *, path: str, what: str = "replacement") -> None:
        super().__init__()
        self.text = text
        self.path = path
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical():
            # The path comes from the session: literal content, never markup. The keys come
            # first: a long path cut the escape hint off at 80 columns (QA pass s31).
            yield Static(Content(f"ctrl+s apply  ·  escape cancel  ·  Editing the {self.what} "
                                 f"for {self.path}"), id="edit-help")
            language = language_for(self.path)
            try:
                area = TextArea.code_editor(self.text, language=language)
            except Exception:  # a language without a bundled grammar: plain text
                area = TextArea.code_editor(self.text)
            yield area

    def on_mount(self) -> None:
        if not self.dismissed:
            self.query_one(TextArea).focus()

    def action_apply(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    def action_cancel(self) -> None:
        self.dismiss(None)
