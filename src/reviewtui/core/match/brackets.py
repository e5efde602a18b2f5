"""The brackets a line opens and closes, as the re-graft's edge reads them
(``reexpress.py``, ``_Edges._first_level``): a line inside brackets left open continues
another (a parameter list's, a literal's), and shows no block's level. Pure.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'""")


def brackets_on(line: str) -> str | None:
    """The brackets on ``line`` outside its one-line strings, in order, a brace where a
    value starts (after ``= ( [ , : {``) as ``v`` (a rough reading, enough to tell a
    parameter list's or a literal's lines from a body's: a dict's ``X = {1:``, QA s49);
    none on a comment line; None where they are not known: a string opened or closed on
    it that runs across lines (an odd number of triple quotes or backquotes: a ``(`` in a
    docstring above, QA s49 helper-182 02), or brackets a ``#`` or ``//`` would change, as
    a comment's mark or as code (``def f1(a, # x)``: helper-181 04b; ``n // 2 + g(``)."""
    if line.lstrip().startswith(("#", "//")):
        return ""
    if any(line.count(mark) % 2 for mark in ('"""', "'''", "`")):
        return None
    code = _QUOTED.sub("", line)  # ("""Doc.""": three strings; '"""' + g(: one)
    found = {"".join("v" if m.lastgroup == "v" else m.group() for m in _MARKS.finditer(part))
             for part in (code, code.split("#", 1)[0], code.split("//", 1)[0])}
    return found.pop() if len(found) == 1 else None


_MARKS = re.compile(r"(?P<v>(?<=[=(\[,:{])[ \t]*\{)|[()\[\]{}]")


def nest(opened: list[str], marks: str) -> None:
    """``opened`` (the brackets open) after ``marks``: a brace inside a bracket or a value's
    brace is a value's too (``f(x in {1},``, ``[{``), any other a block's ("b"); a closing
    one closes the nearest of its kind and what is open inside it (QA s50 helper-193:
    every ``}`` taken off the count closed the ``[`` of a list of dicts)."""
    for mark in marks:
        if mark in "([v":
            opened.append(mark)
        elif mark == "{":
            opened.append("v" if any(k != "b" for k in opened) else "b")
        else:
            kinds = {")": "(", "]": "[", "}": "vb"}[mark]
            at = next((k for k in range(len(opened) - 1, -1, -1) if opened[k] in kinds), None)
            if at is not None:
                del opened[at:]
