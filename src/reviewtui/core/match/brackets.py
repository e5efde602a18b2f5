"""The brackets a line opens and closes, as the re-graft's edge reads them
(``reexpress.py``, ``_Edges._first_level``): a line inside brackets left open continues
another (a parameter list's, a literal's), and shows no block's level. Pure.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'""")


def brackets_on(line: str) -> str | None:
    """The brackets on ``line`` outside its one-line strings, in order, a brace where a
    value starts as ``v`` (a rough reading, enough to tell a parameter list's or a
    literal's lines from a body's: a dict's ``X = {1:``, QA s49); none on a comment line
    (``#``, but for a Rust attribute ``#[``, QA s50 helper-195; ``//``); None where they
    are not known: a string opened or closed on it that runs across lines (an odd number
    of triple quotes or backquotes: a ``(`` in a docstring above, QA s49 helper-182 02), or
    brackets a ``#`` or ``//`` would change, as a comment's mark or as code (``def f1(a,
    # x)``: helper-181 04b; ``n // 2 + g(``) unless those are balanced (``# (optional)``)."""
    lead = line.lstrip()
    attribute = _ATTRIBUTE.match(lead) is not None
    if lead.startswith("//") or (lead.startswith("#") and not attribute):
        return ""
    if any(line.count(mark) % 2 for mark in ('"""', "'''", "`")):
        return None
    code = _QUOTED.sub("", line)  # ("""Doc.""": three strings; '"""' + g(: one)
    hash_at = code.find("#", code.find("#") + 1 if attribute else 0)
    whole, *cuts = (_marks(part) for part in (code, code[:hash_at] if hash_at >= 0 else code,
                                              code.split("//", 1)[0]))
    shortest = min(cuts, key=len)
    if all(whole.startswith(cut) and _balanced(whole[len(cut):]) for cut in cuts):
        return shortest
    return None


_MARKS = re.compile(r"[()\[\]{}]")
# a Rust attribute (#[derive(, #![allow(), not a comment: a name right after the [ (a
# Python comment "#[1]: see (section 2" held an edge, QA s50 helper-196)
_ATTRIBUTE = re.compile(r"#!?\[[A-Za-z_]")
# what a value's brace follows (a literal, a block's never): an operator or an opening
# bracket (= ( [ , : { | & ? ! + - * / % ~ ^, not =>), or a word of an expression (QA s50
# helper-195: X = a or {, BASE | {, y if c else { read as a block's: b = 1 in the if above)
_VALUE_AFTER = re.compile(r"(?:[=(\[,:{|&?!+\-*/%~^]|(?<![\w.])(?:or|and|not|in|is|return"
                          r"|yield|await|lambda|else))[ \t]*\Z")
_BLOCK_ELSE = re.compile(r"\}[ \t]*else[ \t]*\Z")


def _marks(code: str) -> str:
    """The brackets of ``code`` in order, a value's brace as ``v``."""
    found = []
    for m in _MARKS.finditer(code):
        mark = m.group()
        if mark == "{":
            before = code[max(0, m.start() - 40):m.start()]
            if (_VALUE_AFTER.search(before) and not _BLOCK_ELSE.search(before)
                    and not before.rstrip().endswith("=>")):
                mark = "v"
        found.append(mark)
    return "".join(found)


def _balanced(marks: str) -> bool:
    """Whether ``marks`` close everything they open and nothing else."""
    depth = 0
    for mark in marks:
        depth += 1 if mark in "([{v" else -1
        if depth < 0:
            return False
    return depth == 0


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
