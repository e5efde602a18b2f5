"""The bracket counter reviewtui used before tree-sitter, kept as the bench's baseline.

This project's own code as it was (core/review/diagnostics.py before the tree-sitter checks),
trimmed to what the syntax bench times: a per-character pass for ``()[]{}`` with rough
string and comment skipping, and the whole-file ``difflib`` line map that placed the
errors already there.
"""

from __future__ import annotations

import difflib

MAX = 5


def bracket_problems(text: str, line_comments: tuple[str, ...] = ("//",),
                     block: tuple[str, str] | None = ("/*", "*/"),
                     quotes: str = "\"'`") -> list[tuple[int, int, str]]:
    closers = {")": "(", "]": "[", "}": "{"}
    stack: list[tuple[str, int, int]] = []
    problems: list[tuple[int, int, str]] = []
    line, col = 1, 0
    i, n = 0, len(text)
    quote: str | None = None
    block_end: str | None = None
    while i < n and len(problems) < MAX:
        ch = text[i]
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            if quote is not None and quote != "`":
                quote = None
            i += 1
            continue
        if block_end is not None:
            if text.startswith(block_end, i):
                i += len(block_end)
                col += len(block_end) - 1
                block_end = None
            else:
                i += 1
            continue
        if quote is not None:
            if ch == "\\" and text[i + 1 : i + 2] not in ("", "\n"):
                i += 2
                col += 1
                continue
            if ch == quote:
                quote = None
            i += 1
            continue
        if any(text.startswith(c, i) for c in line_comments):
            end = text.find("\n", i)
            col += (n if end < 0 else end) - i - 1
            i = n if end < 0 else end
            continue
        if block and text.startswith(block[0], i):
            block_end = block[1]
            i += len(block[0])
            col += len(block[0]) - 1
            continue
        if ch in quotes:
            quote = ch
        elif ch in "([{":
            stack.append((ch, line, col))
        elif ch in closers:
            if not stack:
                problems.append((line, col, f"unmatched '{ch}'"))
            elif stack[-1][0] != closers[ch]:
                problems.append((line, col, f"'{ch}' does not close the open "
                                 f"'{stack.pop()[0]}'"))
            else:
                stack.pop()
        i += 1
    for opener, oline, ocol in stack[: MAX - len(problems)]:
        problems.append((oline, ocol, f"'{opener}' is never closed"))
    return problems


def line_map(before: str, after: str) -> dict[int, int]:
    old, new = before.split("\n"), after.split("\n")
    mapping: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            mapping[a + k + 1] = b + k + 1
    return mapping


def diagnose_change(before: str, after: str) -> list[tuple[int, int, str, bool]]:
    """The old per-operation check: brackets after, and before plus the map if any."""
    found = bracket_problems(after)
    if not found:
        return []
    old = bracket_problems(before)
    mapping = line_map(before, after) if old else {}
    known = {(mapping.get(line), message) for line, _c, message in old}
    return [(line, col, message, (line, message) not in known) for line, col, message in found]
