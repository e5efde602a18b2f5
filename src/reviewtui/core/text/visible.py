"""Text from outside made safe to print on a terminal: invisible characters spelled out.

A session, a project's ``reviewtui.toml`` or a file can hold terminal control sequences
(``ESC [ 1 K``, a carriage return, an OSC title) and bidirectional overrides. Printed as
they are, they rewrite what the reader sees: a check command can erase itself and show a
harmless one in its place just before the reader trusts it. :func:`visible` writes each
such character as a ``\\uXXXX`` escape (also valid inside a JSON string, so a JSON report
stays what it says).
"""

from __future__ import annotations

import re

# C0 and C1 controls and DEL, line and paragraph separators, bidirectional controls and
# marks, and the invisible characters the workbench shows as pictures too (zero-width
# space, word joiner, byte order mark; ui/widgets/diff_render.py).
HIDDEN = ("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
          "\u200b\u2060\ufeff]")
_hidden: list[re.Pattern[str]] = []  # compiled when first needed (~0.6 ms: start-up)


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with every control character not in ``keep`` written as ``\\uXXXX``."""
    if text.isprintable():  # each HIDDEN character is a control, format or separator one
        return text
    if keep:  # a line and its newline: nothing to escape once the kept characters are out
        rest = text
        for kept in keep:
            rest = rest.replace(kept, "")
        if rest.isprintable():
            return text
    if not _hidden:
        _hidden.append(re.compile(HIDDEN))
    if not keep:
        return _hidden[0].sub(_escape, text)
    return _hidden[0].sub(lambda found: found.group() if found.group() in keep
                          else _escape(found), text)
