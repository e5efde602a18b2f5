"""Threat: ``E`` with an editor that cannot start leaves the workbench suspended (a hang).

Textual's ``App.suspend()`` resumes the app only when its block ends normally; an exception
from starting the editor inside it left the terminal handed over for good. The workbench must
say what went wrong (as plain text) and come back, whatever ``$VISUAL``/``$EDITOR`` hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from reviewtui.ui.editor import edit_externally


class _Driver:
    """Records what Textual's ``suspend()`` asks of a real terminal driver."""

    can_suspend = True

    def __init__(self) -> None:
        self.calls: list[str] = []

    def suspend_application_mode(self) -> None:
        self.calls.append("suspend")

    def resume_application_mode(self) -> None:
        self.calls.append("resume")

    @contextmanager
    def no_automatic_restart(self) -> Iterator[None]:
        yield


class _TerminalApp:
    """Just enough of an app on a terminal for Textual's own ``App.suspend`` to run."""

    is_headless = False
    suspend = App.suspend

    def __init__(self) -> None:
        self._driver = _Driver()
        self.notes: list[tuple[str, dict[str, Any]]] = []

    def _suspend_signal(self) -> None:
        pass

    def _resume_signal(self) -> None:
        pass

    def refresh(self, **_: object) -> None:
        pass

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notes.append((message, kwargs))


def _script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "editor.sh"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return str(script)


def _not_executable(tmp_path: Path) -> str:
    path = tmp_path / "plain.txt"
    path.write_text("not a program\n")
    return str(path)


@pytest.mark.parametrize(("editor", "said"), [
    (lambda tmp: str(tmp / "no-such-editor"), "cannot run the editor"),
    (lambda tmp: "[b]ed[/b] [/x]", "cannot run the editor '[b]ed[/b]'"),
    (_not_executable, "cannot run the editor"),
    (lambda tmp: str(tmp), "cannot run the editor"),  # a directory
    (lambda tmp: _script(tmp, "exit 3\n"), "exited with status 3"),
    (lambda tmp: "'unclosed", "cannot read $VISUAL/$EDITOR"),
])
def test_an_editor_that_cannot_start_or_fails_is_reported_and_the_app_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: Any, said: str
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", editor(tmp_path))
    app = _TerminalApp()
    assert edit_externally(app, "x = 1", suffix=".py") is None  # type: ignore[arg-type]
    assert app._driver.calls in ([], ["suspend", "resume"])  # never left suspended
    ((message, kwargs),) = app.notes
    assert said in message
    assert kwargs.get("markup") is False  # the editor's name is shown literally


def test_visual_wins_over_editor_and_a_missing_one_still_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", str(tmp_path / "missing-visual"))
    monkeypatch.setenv("EDITOR", _script(tmp_path, "exit 0\n"))
    app = _TerminalApp()
    assert edit_externally(app, "x = 1") is None  # type: ignore[arg-type]
    assert app._driver.calls == ["suspend", "resume"]
    ((message, _),) = app.notes
    assert "missing-visual" in message


def test_a_working_editor_returns_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", _script(tmp_path, "printf 'y = 2\\n' > \"$1\"\n"))
    app = _TerminalApp()
    assert edit_externally(app, "x = 1") == "y = 2"  # type: ignore[arg-type]
    assert app._driver.calls == ["suspend", "resume"]
    assert app.notes == []
