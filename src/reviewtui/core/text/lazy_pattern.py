"""A regular expression compiled the first time it is used, not when its module loads.

The placeholder-phrase and prose patterns take milliseconds each to compile, which every
command paid at start-up even when no line ever reached them. A :class:`LazyPattern`
keeps the source and flags and compiles once, on the first ``search``/``match``/
``fullmatch``/``sub``/``findall``; after that each call costs one extra function call.
Keep cheap patterns and those on per-line hot paths as plain ``re.compile``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any


class LazyPattern:
    """``re.compile(pattern, flags)``, deferred to the first use."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        found = self._compiled
        if found is None:
            found = self._compiled = re.compile(self.pattern, self.flags)
        return found

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled().search(text)

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled().match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled().fullmatch(text)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str,
            count: int = 0) -> str:
        return self.compiled().sub(repl, text, count)

    def findall(self, text: str) -> list[Any]:
        return self.compiled().findall(text)
