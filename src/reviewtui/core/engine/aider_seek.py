"""Whether Aider's own matcher would write a block of its history where reviewtui does.

Aider applies a SEARCH/REPLACE block to the file it names only where its matcher finds
the SEARCH; where it does not, it tries every other file of the chat and writes the first
that takes it (its fallback), and only when none does it logs a failure
(``SearchReplaceNoExactMatch``, after which the block is not replayed:
``importers/aider_outcomes.py``). reviewtui's matcher forgives more (trailing
whitespace, tabs for spaces, typography, a re-indented block), so a block Aider sent to
another chat file because the named one did not take it exactly was replayed on the named
one (QA s47 helper-149 H4: the log named both files, so the importer could not tell).

A block of a reply Aider logged as applied (``Edit.aider``) is therefore checked against
Aider's matcher on the file as the replay has it: where it finds no place, the block went
elsewhere, or the file was not what the replay has (held, rule :data:`AIDER_REFUSED`);
where it finds another place, Aider wrote that one (held, :data:`AIDER_ELSEWHERE`). Both
can be forced.

Aider's matcher, as its ``replace_most_similar_chunk`` reads (the file read as text, its
line endings made "\\n", a final newline added; SEARCH and REPLACE without what it takes
for wrapping, :func:`unwrapped`): the SEARCH lines exactly, at the first
place they stand; else with the same leading whitespace missing or added on every
non-blank line (blank lines match any blank line), at the first such place; else both
again without the SEARCH's first line when it is blank and more lines follow; else, when
SEARCH and REPLACE hold ``...`` lines in the same places, each piece between them found
exactly once as text and replaced. Nothing else: no trailing whitespace, no typography,
no tabs for spaces; and a block that would leave the file empty fails. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Edit
from reviewtui.core.record import replace

AIDER_REFUSED = "aider-refused"
AIDER_ELSEWHERE = "aider-elsewhere"
AIDER_RULES = frozenset({AIDER_REFUSED, AIDER_ELSEWHERE})

# A line of only "..." (the blank lines before it run into it, as Aider's pattern reads).
_DOTS = re.compile(r"(^\s*\.\.\.\n)", re.MULTILINE)


def aider_place(lines: Sequence[str], search: Sequence[str],
                new: Sequence[str]) -> tuple[int, int] | tuple[str, ...] | None:
    """Where Aider's matcher puts ``search`` in ``lines`` (module doc): the 0-based range
    it replaces, or, for a block with ``...`` lines, the file's lines afterwards; None
    where it finds no place."""
    found = _whole_lines(lines, search, new)
    if found is None and len(search) > 2 and not search[0].strip():
        found = _whole_lines(lines, search[1:], new)
    return found if found is not None else _dotted(lines, search, new) or None


def _emptied(lines: Sequence[str], found: tuple[int, int], new: Sequence[str]) -> bool:
    """Whether the file would be left empty: a failure to Aider (its result is tested for
    truth), so its next way of looking is tried."""
    return not new and found == (0, len(lines))


def unwrapped(lines: Sequence[str], name: str, fence: bool = True) -> tuple[str, ...]:
    """SEARCH or REPLACE lines as Aider reads them before it looks (its
    ``strip_quoted_wrapping``): a first line ending in the file's base name dropped, then
    a first and a last line opening with ``` dropped when Aider's fence is ``` (``fence``)
    (QA s48 helper-167 #1: a README's SEARCH that was a fenced sample, a SEARCH opening
    with a comment naming the file)."""
    out = tuple(lines)
    if out and name and out[0].strip().endswith(name):
        out = out[1:]
    if fence and out and out[0].startswith("```") and out[-1].startswith("```"):
        out = out[1:-1]
    return out


def _whole_lines(lines: Sequence[str], search: Sequence[str],
                 new: Sequence[str]) -> tuple[int, int] | None:
    n = len(search)
    if not n:
        return None
    # (a file's last line has a newline added, as every SEARCH line has: equal as lines)
    for i in range(len(lines) - n + 1):
        if lines[i] == search[0] and tuple(lines[i:i + n]) == tuple(search):
            if _emptied(lines, (i, i + n), new):
                break
            return i, i + n
    drop = min((_lead(line) for line in (*search, *new) if line.strip()), default=0)
    part = [line[drop:] if line.strip() else line for line in search]
    for i in range(len(lines) - n + 1):
        window = lines[i:i + n]
        if any(have.lstrip() != want.lstrip() for have, want in zip(window, part, strict=True)):
            continue
        # (measured with the newline each line has in Aider's reading: a line shorter
        # than the SEARCH's cuts into it, and that prefix is not "")
        added = {(have + "\n")[:len(have) - len(want)]
                 for have, want in zip(window, part, strict=True) if have.strip()}
        if len(added) == 1:
            return None if _emptied(lines, (i, i + n), new) else (i, i + n)
    return None


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip())


def _dotted(lines: Sequence[str], search: Sequence[str],
            new: Sequence[str]) -> tuple[str, ...] | None:
    whole = "".join(line + "\n" for line in lines)
    parts = _DOTS.split("".join(line + "\n" for line in search))
    news = _DOTS.split("".join(line + "\n" for line in new))
    if len(parts) == 1 or len(parts) != len(news) or parts[1::2] != news[1::2]:
        return None
    for part, piece in zip(parts[0::2], news[0::2], strict=True):
        if not part:
            if piece:
                whole += piece
            continue
        if whole.count(part) != 1:
            return None
        whole = whole.replace(part, piece, 1)
    return tuple(whole.split("\n")[:-1])


def as_aider(outcome: Outcome, edit: Edit) -> Outcome:
    """``outcome`` (a block of a reply Aider logged as applied, which reviewtui would land)
    held where Aider's matcher would not write it there (module doc), else as it is."""
    state = outcome.before_state
    name = (outcome.path or "").rsplit("/", 1)[-1]
    # Aider fences its blocks with ```` when a chat file has a line opening with ```: then
    # a ``` line is no wrapping to it (QA s48 helper-168: a README's fenced sample held).
    # (the file is read for such lines only when a block opens with one)
    fence = (not any(part and part[0].startswith("```")
                     for part in (edit.search_lines, edit.replace_lines))
             or state is None or not any(line.startswith("```") for line in state.lines))
    search = unwrapped(edit.search_lines, name, fence)
    new = unwrapped(edit.replace_lines, name, fence)
    if (search, new) != (edit.search_lines, edit.replace_lines):
        # (a new file's or an appended REPLACE too: helper-168, "# hello.py" written)
        return _held(outcome, AIDER_ELSEWHERE, "Aider takes a first line ending in the "
                     f"file's name ({name}), or a ``` line first and last, for wrapping "
                     "around SEARCH and REPLACE and drops them before it looks: it wrote "
                     "other lines than these")
    if state is None or not "".join(edit.search_lines).strip() or outcome.lines is None:
        return outcome  # (an empty SEARCH: Aider appends, as reviewtui does)
    lines = list(state.lines)
    if state.bom and lines:  # (Aider reads the mark as the first line's first character)
        lines[0] = "\ufeff" + lines[0]
    first, last = outcome.lines
    found = aider_place(lines, search, new)
    if found is None:
        return _held(outcome, AIDER_REFUSED, "Aider's own matcher finds no place for it in "
                     f"{outcome.path} (reviewtui finds it {_how(outcome)} at {_span(first, last)}):"
                     " Aider, which logged it applied, wrote it to another file of the chat "
                     "where it matched (its fallback), or the file was not what this replay "
                     "has")
    if isinstance(found[0], int):  # (a range; else the file's lines, never empty)
        start, end = found
        if (start + 1, end) == (first, last):
            return outcome
        return _held(outcome, AIDER_ELSEWHERE, f"Aider's own matcher puts it at "
                     f"{_span(start + 1, end)} of {outcome.path}, not at "
                     f"{_span(first, last)} where reviewtui finds it")
    after = outcome.after_state
    if after is not None and tuple(after.lines) == found:
        return outcome
    return _held(outcome, AIDER_ELSEWHERE, "Aider's own matcher, reading its '...' lines, "
                 f"makes another {outcome.path} than reviewtui does")


def _how(outcome: Outcome) -> str:
    if outcome.method == "exact":
        return "exactly"
    if outcome.status is Status.NEEDS_REVIEW or outcome.method in ("near", ""):
        return "only as a near match"
    return f"by {outcome.method}"


def _span(first: int, last: int) -> str:
    return f"line {first}" if last <= first else f"lines {first}-{last}"


def _held(outcome: Outcome, rule: str, cause: str) -> Outcome:
    return replace(outcome, status=Status.REFUSED, rule=rule, forceable=True, similarity=None,
                   message=f"held (rule {rule}): {cause}; force it to write it where "
                           "reviewtui finds it")
