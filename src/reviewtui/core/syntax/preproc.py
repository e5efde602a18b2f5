"""C and C++ files read one preprocessor branch at a time, for the syntax check.

A grammar parses every branch of ``#if``/``#else``/``#endif`` as code at once. Code whose
branches are each whole but not together (``#ifdef _WIN32`` then ``if (a)``, ``#else``
then ``if (b)``, one body after ``#endif``) reads to it as broken, and an edit near such
code moved the misreading: it was reported as introducing a syntax error (jq: 3 of its
last 150 commits touching C). A compiler reads one branch of each conditional, so the
check also reads two such views of the file before and after the edit: every
conditional's first branch, and every conditional's last (its ``#else``; nothing for an
``#if`` without one). When in each view the edit leaves the errors as they were (the
same stretches of lines, moved as the edit moves them), what the whole file's reading
calls introduced is its misreading, and is not (see ``diagnose_change``). Directive lines
and the branches a view leaves out become empty lines, so line numbers stay those of the
file.

A file whose conditionals do not pair up (an ``#endif`` deleted by an edit) has no views:
what the grammar finds in it stands.
"""

from __future__ import annotations

import re

# A conditional directive at the start of a line: if, ifdef, ifndef, elif (and C23's
# elifdef, elifndef), else, endif.
_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(ifdef|ifndef|if|elifdef|elifndef|elif|else|endif)\b")
_OPENS = frozenset({"if", "ifdef", "ifndef"})
_BRANCHES = frozenset({"elif", "elifdef", "elifndef", "else"})


def branch_views(text: str) -> tuple[tuple[str, list[bool]], ...] | None:
    """The two views of ``text`` (first branches, last branches), each with which lines
    of the file it holds; None without a conditional, or when they do not pair up."""
    if "#" not in text:
        return None
    lines = text.split("\n")
    kinds = _directives(lines)
    if not kinds:
        return None
    groups = _groups(kinds)
    if groups is None:
        return None
    return _view(lines, kinds, groups, last=False), _view(lines, kinds, groups, last=True)


def views_or_whole(text: str) -> tuple[tuple[str, list[bool]], ...] | None:
    """:func:`branch_views`, or for a text without any conditional the text itself (the
    same object, so a caller can tell) as both views: each configuration reads all of it;
    None when its conditionals do not pair up. (An edit that adds a file's first ``#if``
    is judged by the views too.)"""
    views = branch_views(text)
    if views is not None or ("#" in text and _directives(text.split("\n"))):
        return views
    whole = (text, [True] * (text.count("\n") + 1))
    return whole, whole


def _directives(lines: list[str]) -> dict[int, str]:
    """Line index -> the conditional directive it holds ("" for a continuation line of
    one: a directive ending in a backslash goes on)."""
    kinds: dict[int, str] = {}
    continued = False  # the line above ended in a backslash
    in_directive = False
    for index, line in enumerate(lines):
        if continued:
            if in_directive:
                kinds[index] = ""
        else:
            found = _DIRECTIVE.match(line) if "#" in line else None
            in_directive = found is not None
            if found is not None:
                kinds[index] = found.group(1)
        continued = line.endswith("\\")
    return kinds


def _groups(kinds: dict[int, str]) -> dict[int, tuple[int, bool]] | None:
    """For each opening line: (how many branches its conditional has, whether the last
    is an ``#else``); None when the conditionals do not pair up."""
    stack: list[tuple[int, int, bool]] = []  # (opening line, branches, has else)
    groups: dict[int, tuple[int, bool]] = {}
    for index in sorted(kinds):
        kind = kinds[index]
        if kind in _OPENS:
            stack.append((index, 1, False))
        elif kind in _BRANCHES:
            if not stack or stack[-1][2]:  # no #if, or a branch after the #else
                return None
            opening, branches, _else = stack[-1]
            stack[-1] = (opening, branches + 1, kind == "else")
        elif kind == "endif":
            if not stack:
                return None
            opening, branches, has_else = stack.pop()
            groups[opening] = (branches, has_else)
    return None if stack else groups


def _view(lines: list[str], kinds: dict[int, str], groups: dict[int, tuple[int, bool]],
          *, last: bool) -> tuple[str, list[bool]]:
    """The file with each conditional's chosen branch alone (see :func:`branch_views`),
    and which lines it holds (a directive line is held: as an empty line)."""
    out: list[str] = []
    held: list[bool] = []
    # Per open conditional: [the branch chosen, the branch the lines are in now]; -1:
    # none chosen (the last view of an #if without #else).
    stack: list[list[int]] = []
    shown = True
    for index, line in enumerate(lines):
        kind = kinds.get(index)
        if kind is None:
            out.append(line if shown else "")
            held.append(shown)
            continue
        out.append("")
        held.append(shown)
        if kind in _OPENS:
            branches, has_else = groups[index]
            chosen = 0 if not last else (branches - 1 if has_else or branches > 1 else -1)
            stack.append([chosen, 0])
        elif kind in _BRANCHES:
            stack[-1][1] += 1
        elif kind == "endif":
            stack.pop()
        shown = all(chosen == current for chosen, current in stack)
    return "\n".join(out), held
