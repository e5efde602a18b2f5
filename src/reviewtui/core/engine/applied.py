"""A diff hunk whose result is already in the file is not applied again.

Under drift (a diff replayed on a tree that already holds its change, say a commit that
came back through a merge), an insertion's context can still match where the inserted
block ends, and applying the hunk there duplicates the block: a wrong file. GNU patch
does exactly that; git apply refuses the whole diff. A hunk that does not land at its
own line number is checked: when its whole result (context, new lines, context) is
already in the file, it is refused (``already-applied``) and says where. At its own line
the hunk is applied as git applies it, so an exact replay on the diff's base is never
affected. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.model.outcome import MatchResult, Status
from reviewtui.core.model.records import Edit

ALREADY_APPLIED = "already-applied"


def find_block(lines: Sequence[str], block: Sequence[str]) -> int | None:
    """The first index where ``block`` occurs in ``lines`` line for line; None if nowhere."""
    size = len(block)
    if not size:
        return None
    first = block[0]
    for at in range(len(lines) - size + 1):
        if lines[at] == first and list(lines[at : at + size]) == list(block):
            return at
    return None


def already_applied(lines: Sequence[str], edit: Edit, result: MatchResult,
                    path: str) -> MatchResult:
    """``result``, or a refusal when an off-line hunk's result is already in the file."""
    if (result.status is not Status.APPLIED or edit.line_hint is None
            or result.start == edit.line_hint or not edit.replace_lines
            or tuple(edit.replace_lines) == tuple(edit.search_lines)):
        return result
    at = find_block(lines, edit.replace_lines)
    if at is None:
        return result
    end = at + len(edit.replace_lines)
    return MatchResult(
        Status.REFUSED, rule=ALREADY_APPLIED, locations=((at + 1, end),),
        hint=(f"the hunk's result is already in {path} at lines {at + 1}-{end}: the change "
              "looks applied already; applying it again at lines "
              f"{result.start + 1}-{result.end} (where its context also matches) would "
              "duplicate it"))
