"""``E``: edit a replacement in the user's own editor ($VISUAL, $EDITOR, else vi).

The app suspends while the editor runs and resumes after. A headless app (tests,
benchmarks) has no terminal to hand over, so there the editor simply runs.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from textual.app import App, SuspendNotSupported


def editor_command() -> list[str]:
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "") or ["vi"]


@contextmanager
def suspended(app: App[Any]) -> Iterator[None]:
    """``app.suspend()``, or nothing when the app is headless."""
    if app.is_headless:
        yield
        return
    with app.suspend():
        yield


def edit_externally(app: App[Any], text: str, *, suffix: str = "") -> str | None:
    """``text`` as the user left it in their editor; None (and a notification) when
    the editor cannot run, fails, or changes nothing."""
    command = editor_command()
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False,
                                     encoding="utf-8") as handle:
        handle.write(text + "\n")
        name = handle.name
    try:
        try:
            with suspended(app):
                status = subprocess.call([*command, name])
        except FileNotFoundError:
            app.notify(f"cannot run the editor {command[0]!r}: set $VISUAL or $EDITOR",
                       severity="error", markup=False)
            return None
        except SuspendNotSupported:
            app.notify("this terminal cannot hand over to an editor: use e instead",
                       severity="error", markup=False)
            return None
        if status != 0:
            app.notify(f"{command[0]} exited with status {status}: nothing was changed",
                       severity="warning", markup=False)
            return None
        edited = Path(name).read_text(encoding="utf-8").removesuffix("\n")
    finally:
        Path(name).unlink(missing_ok=True)
    if edited == text:
        app.notify("the editor changed nothing", markup=False)
        return None
    return edited
