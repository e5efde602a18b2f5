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
    """The editor's argv; raises ValueError when $VISUAL/$EDITOR cannot be split."""
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "") or ["vi"]


@contextmanager
def suspended(app: App[Any]) -> Iterator[None]:
    """``app.suspend()``, or nothing when the app is headless."""
    if app.is_headless:
        yield
        return
    with app.suspend():
        yield


def _run_editor(app: App[Any], argv: list[str]) -> int | str:
    """The editor's exit status, or why it could not run.

    Nothing may raise inside ``app.suspend()``: Textual resumes the app only when the
    block ends normally, so an exception there leaves the workbench suspended (a hang).
    """
    try:
        with suspended(app):
            try:
                return subprocess.call(argv)
            except OSError as exc:  # not found, not executable, not a program...
                return (f"cannot run the editor {argv[0]!r} ({exc.strerror or exc}): "
                        "set $VISUAL or $EDITOR; nothing was changed")
    except SuspendNotSupported:
        return "this terminal cannot hand over to an editor: use e instead"


def edit_externally(app: App[Any], text: str, *, suffix: str = "") -> str | None:
    """``text`` as the user left it in their editor; None (and a notification) when
    the editor cannot run, fails, or changes nothing."""
    try:
        command = editor_command()
    except ValueError as exc:
        app.notify(f"cannot read $VISUAL/$EDITOR ({exc}): set it to an editor command",
                   severity="error", markup=False)
        return None
    # Bytes both ways: text mode would read a lone "\r" in a line back as a line break.
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as handle:
        handle.write((text + "\n").encode("utf-8", "surrogateescape"))
        name = handle.name
    try:
        status = _run_editor(app, [*command, name])
        if isinstance(status, str):
            app.notify(status, severity="error", markup=False)
            return None
        if status != 0:
            app.notify(f"{command[0]} exited with status {status}: nothing was changed",
                       severity="warning", markup=False)
            return None
        try:
            edited = Path(name).read_bytes().decode("utf-8").removesuffix("\n")
        except (OSError, UnicodeDecodeError) as exc:
            app.notify(f"cannot read what the editor left ({exc}): nothing was changed",
                       severity="error", markup=False)
            return None
    finally:
        Path(name).unlink(missing_ok=True)
    if edited == text:
        app.notify("the editor changed nothing", markup=False)
        return None
    return edited
