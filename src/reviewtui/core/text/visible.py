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
# marks, and the characters the workbench shows as pictures too (ui/widgets/diff_render.py):
# those that draw nothing (zero-width space, word joiner, byte order mark, soft hyphen,
# invisible operators and other format characters) and the blanks that are not a space
# (no-break, typographic and ideographic spaces).
HIDDEN = ("[\x00-\x1f\x7f-\xa0\xad\u2028\u2029\u202a-\u202f\u2066-\u2069\u200e\u200f\u061c"
          "\u200b\u2060\ufeff\u180e\u2061-\u2064\u206a-\u206f\ufff9-\ufffb"
          "\u2000-\u200a\u205f\u3000\u2800"
          "\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0]")
# Of those, the ones Python counts as printable (letters, marks and a symbol drawn blank:
# a Hangul filler is a JavaScript name no one sees), which the printable shortcut must ask
# for.
HIDDEN_LETTERS = (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0)
_LETTERS = "".join(map(chr, HIDDEN_LETTERS))
_hidden: list[re.Pattern[str]] = []  # compiled when first needed (~0.6 ms: start-up)


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def _blank_letter(text: str) -> bool:
    """Whether ``text`` holds one of the printable characters of HIDDEN (every other one is
    a control, format or separator character, which ``str.isprintable`` refuses)."""
    return any(letter in text for letter in _LETTERS)


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with every control character not in ``keep`` written as ``\\uXXXX``."""
    if text.isprintable() and not _blank_letter(text):
        return text
    if keep:  # a line and its newline: nothing to escape once the kept characters are out
        rest = text
        for kept in keep:
            rest = rest.replace(kept, "")
        if rest.isprintable() and not _blank_letter(rest):
            return text
    if not _hidden:
        _hidden.append(re.compile(HIDDEN))
    if not keep:
        return _hidden[0].sub(_escape, text)
    return _hidden[0].sub(lambda found: found.group() if found.group() in keep
                          else _escape(found), text)
