"""The 70% rule: search/replace for existing files, unless it costs 70% of the file or more.

Both rules need the file as the turn sees it. Costs are estimated tokens; see
``tokens`` for the estimate and for what a search/replace edit is charged.
"""

from __future__ import annotations

from collections.abc import Iterator

from reviewtui.core.lint.base import Hit, LintContext, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.lint.tokens import (
    FULL_FILE_PERCENT,
    LARGE_FILE_TOKENS,
    apply_edits,
    edit_cost,
    lines_tokens,
    percent,
    reaches_threshold,
    search_replace_cost,
)
from reviewtui.core.model.records import FullFile, Span


@rule("full-file-too-costly", Severity.WARNING, "a full file for an existing file where "
      f"search/replace would cost under {FULL_FILE_PERCENT}% of it", needs_file=True)
def full_file_too_costly(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        for op in block.ops:
            if not isinstance(op, FullFile):
                continue
            old = ctx.file_lines(op.path)
            if not old:
                continue  # a new (or empty) file: the full file is the only form
            full = lines_tokens(op.lines)
            edits = search_replace_cost(old, op.lines)
            if edits is None or reaches_threshold(edits, full):
                continue
            if edits == 0:
                message = (f"full file for {op.path!r} (~{full} tokens) changes nothing; "
                           "drop the block")
            else:
                message = (f"full file for existing {op.path!r} costs ~{full} tokens; "
                           f"search/replace would cost ~{edits} ({percent(edits, full)}%, under "
                           f"{FULL_FILE_PERCENT}%): resending unchanged lines is waste")
            yield Hit(block.span, message, op.path)


@rule("search-replace-too-costly", Severity.WARNING, "search/replace edits of one file costing "
      f"{FULL_FILE_PERCENT}% of the file or more", needs_file=True)
def search_replace_too_costly(ctx: LintContext) -> Iterator[Hit]:
    for edits in ctx.edits_by_path.values():
        path = edits[0].path
        old = ctx.file_lines(path)
        if not old:
            continue
        new = apply_edits(old, [(e.search_lines, e.replace_lines) for e in edits])
        full = lines_tokens(old if new is None else new)
        if full == 0 or full > LARGE_FILE_TOKENS:
            continue  # too large for one reply: search/replace is the only way
        cost = sum(edit_cost(e.search_lines, e.replace_lines) for e in edits)
        if not reaches_threshold(cost, full):
            continue
        count = "the edit" if len(edits) == 1 else f"the {len(edits)} edits"
        blocks = [b for b in ctx.file_blocks if any(op in edits for op in b.ops)]
        span = Span(blocks[0].span.start, blocks[-1].span.end)
        yield Hit(span, f"{count} of {path!r} cost ~{cost} tokens, {percent(cost, full)}% of the "
                  f"~{full}-token file: from {FULL_FILE_PERCENT}% up the full file is as cheap and "
                  "simpler to apply and review", path)


RULES = (full_file_too_costly, search_replace_too_costly)
