"""The report commands' output, with outside text's control characters made visible.

``check``, ``lint``, ``apply``, ``restore`` and ``stats`` print lines that quote sessions,
paths, messages and project check commands. Their stdout and stderr go through
:class:`VisibleWriter`, which keeps newlines and tabs and spells out every other control
character (:func:`reviewtui.core.text.visible.visible`). ``export`` and ``view`` print data
(a patch, a file), left byte for byte; ``export``'s stderr, which names the operations it
leaves out, goes through the writer too.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from reviewtui.core.text.visible import visible

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import TextIO

REPORT_COMMANDS = frozenset({"check", "lint", "apply", "restore", "stats"})
# Commands whose stdout is data, left byte for byte, and whose stderr quotes outside text
# (export names the operations it leaves out: their paths, a link's target).
DATA_COMMANDS = frozenset({"export"})


class VisibleWriter:
    """A text stream that writes to another with control characters spelled out."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text, keep="\n\t"))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()

    @property
    def encoding(self) -> str:
        return self._stream.encoding


@contextlib.contextmanager
def visible_output(command: str) -> Iterator[None]:
    """Route stdout and stderr through :class:`VisibleWriter` while a report command runs
    (stderr alone for a data command)."""
    if command not in REPORT_COMMANDS and command not in DATA_COMMANDS:
        yield
        return
    out, err = sys.stdout, sys.stderr
    if command in REPORT_COMMANDS:
        sys.stdout = VisibleWriter(out)
    sys.stderr = VisibleWriter(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
