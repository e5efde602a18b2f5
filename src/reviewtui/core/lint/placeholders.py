"""The placeholder rule: ``...`` and "rest of file unchanged" where real lines belong.

What counts as a placeholder is decided in ``reviewtui.core.text.markers``, the one
detector the matcher and the engine use too, so lint warns about exactly the lines the
engine would refuse: an ellipsis standing alone (bare, commented or bracketed, maybe
saying what it skips) or a comment saying code was left out. A bare ``...`` that is
Python's Ellipsis body, a doctest line or YAML's document end is syntax, not a
placeholder. A placeholder line that the file really contains (or that the edit's own
SEARCH contains, for a REPLACE) is real content and is not reported. When the SEARCH
occurs once in the file, REPLACE is judged as the matcher judges it: in the whole file as
the edit leaves it (a stub's body, a docstring example, a code-fence line are content).
Operations of exact-text formats (``literal``) have no placeholders at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from reviewtui.core.lint.base import Hit, LintContext, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.match.cascade import whole_file_placeholders
from reviewtui.core.match.exact import find_exact
from reviewtui.core.model.records import Edit, FullFile, Span
from reviewtui.core.text.markers import is_placeholder, placeholder_indices

__all__ = ["RULES", "is_placeholder", "placeholder"]


def _first(lines: tuple[str, ...], path: str, real: Iterable[str]) -> tuple[int, int] | None:
    """(index of the first placeholder line, how many there are), skipping real lines."""
    hits = placeholder_indices(lines, path, real)
    return (hits[0], len(hits)) if hits else None


def _count(n: int) -> str:
    return "a placeholder line" if n == 1 else f"{n} placeholder lines"


@rule("placeholder", Severity.ERROR, "an ellipsis or 'rest unchanged' line instead of real code "
      "(warning inside SEARCH)")
def placeholder(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        lines = ctx.file_lines(block.path) or []
        # Only read when a line looks like a placeholder (placeholder_indices): a set of
        # the whole file for every block cost more than the rule itself.
        current = lines
        for op in block.ops:
            if op.literal:
                continue  # exact text (a diff, a patch, a tool call): no placeholders
            if isinstance(op, FullFile):
                found = _first(op.lines, op.path, current)
                if found is not None:
                    line = op.span.start + found[0]
                    yield Hit(Span(line, line), f"full file {op.path!r} has {_count(found[1])} "
                              f"({op.lines[found[0]].strip()!r}); the file would be written with "
                              "it and lose the code it stands for", op.path)
            elif isinstance(op, Edit):
                yield from _edit_hits(op, current, lines)


def _in_place(edit: Edit, lines: list[str]) -> tuple[int, int] | None:
    """Like ``_first`` for REPLACE, judged where an exactly matching SEARCH lands."""
    starts = find_exact(lines, edit.search_lines, 0, len(lines)) if edit.search_lines else []
    if len(starts) != 1:
        return None
    start = starts[0]
    hits = whole_file_placeholders(lines, start, start + len(edit.search_lines),
                                   edit.replace_lines, edit.path)
    known = {line.strip() for line in edit.search_lines}
    hits = [at for at in hits if edit.replace_lines[at].strip() not in known]
    return (hits[0], len(hits)) if hits else (-1, 0)


def _edit_hits(edit: Edit, current: list[str], lines: list[str]) -> Iterator[Hit]:
    placed = _in_place(edit, lines)
    if placed is None:
        found = _first(edit.replace_lines, edit.path, chain(current, edit.search_lines))
    else:
        found = placed if placed[1] else None
    if found is not None:
        line = edit.replace_span.start + 1 + found[0]
        yield Hit(Span(line, line), f"REPLACE of Edit {edit.label} in {edit.path!r} has "
                  f"{_count(found[1])} ({edit.replace_lines[found[0]].strip()!r}); applying it "
                  "would delete the code it stands for", edit.path)
    found = _first(edit.search_lines, edit.path, current)
    if found is not None:
        line = edit.search_span.start + 1 + found[0]
        yield Hit(Span(line, line), f"SEARCH of Edit {edit.label} in {edit.path!r} has "
                  f"{_count(found[1])} ({edit.search_lines[found[0]].strip()!r}); a search "
                  "must copy the file exactly, so it will not match", edit.path,
                  Severity.WARNING)


RULES = (placeholder,)
