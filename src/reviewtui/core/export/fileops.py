"""The accepted result re-emitted as canonical File Ops replies: "what the model should
have sent".

Each turn becomes one reply computed from that turn's before and after trees, not from
what the model wrote:

1. one console block: the structural commands that landed, as written (a ``:rn``
   substring rename stays one command, so an ``:undo`` later still undoes all of it),
   the ``:mv``/``:rn``/``:undo``/``:unrm`` first and the ``:rm`` last, in the order they
   ran;
2. one block per file the turn's file operations changed: the smallest search/replace
   edits (difflib hunks, changes closer than two unchanged lines merged, each SEARCH
   grown line by line until it matches exactly once, at most 12 lines, longer when no
   shorter one is unique), or the full file
   for a new file, when no unique anchor exists, or when the edits would cost 70% of the
   file or more (the protocol's rule, with lint's token estimate);
3. the footer, and the turn's ``Need:`` line.

Every reply is checked by evaluating it with the engine against the turn's before state:
a file it does not reproduce byte for byte is retried in the other form, and if that
fails too, the metadata before the first turn says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from reviewtui.core.engine import OpResult, Policy, SessionRun, TurnResult, execution_order
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.structural import INTO, apply_command
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.export.accepted import Accepted
from reviewtui.core.lint.tokens import (
    LARGE_FILE_TOKENS,
    MAX_SEARCH_LINES,
    MERGE_GAP,
    edit_cost,
    estimate_tokens,
    find_all,
    lines_tokens,
    reaches_threshold,
    search_replace_cost,
)
from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import CommandName, ConsoleCommand, Edit, Session, Span, Turn
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol import grammar
from reviewtui.core.protocol.edit_signs import CONTENT_FENCE, is_replace_like
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.record import record, replace
from reviewtui.core.text.diff import ANCHOR_LINES, line_opcodes

Lines = tuple[str, ...]
SearchReplace = tuple[Lines, Lines]


@record(frozen=True, slots=True)
class FilePlan:
    """How one file is sent: ``edits`` (search/replace) or ``content`` (the full file)."""

    path: str
    new: bool
    full: bool
    content: Lines
    edits: tuple[SearchReplace, ...] | None  # None: no search/replace form exists

    def flipped(self) -> FilePlan | None:
        """The other form, when there is one."""
        if self.new or (self.full and not self.edits):
            return None
        return replace(self, full=not self.full)


@record(frozen=True, slots=True)
class TurnPlan:
    turn: Turn
    commands: tuple[ConsoleCommand, ...]
    notes: tuple[tuple[str, str], ...]  # (path, footer note) of the commands' effects
    files: tuple[FilePlan, ...]

    def text(self) -> str:
        return "".join(line + "\n" for line in _reply_lines(self))


# -- minimal search/replace edits ----------------------------------------------------------


def _unsafe(lines: Sequence[str]) -> bool:
    """Lines a reply cannot carry inside an edit: edit markers and turn headings."""
    return any(grammar.is_marker(line) or grammar.is_turn_heading(line)
               for line in lines)


def _changes(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """difflib's changed regions, on the lines between the common head and tail.

    Trimming first keeps one changed line in a big file cheap. What is left between the
    first and the last change is cut at its unique lines first when it is long
    (:func:`~reviewtui.core.text.diff.line_opcodes`, as the diff pane does, which also
    lets difflib's junk heuristic loose on a long stretch): a turn of ten edits scattered
    over a 59,000-line file left it all, and difflib took 1.3 s a turn (``stats`` 19 s
    for 15 turns). Any equal runs make valid edits: each is checked where it lands
    (:func:`minimal_edits`).
    """
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    a = list(old[head : len(old) - tail])
    b = list(new[head : len(new) - tail])
    long = max(len(a), len(b)) >= ANCHOR_LINES
    opcodes = (line_opcodes(a, b) if long
               else SequenceMatcher(None, a, b, autojunk=False).get_opcodes())
    return [(i1 + head, i2 + head, j1 + head, j2 + head)
            for tag, i1, i2, j1, j2 in opcodes if tag != "equal"]


def _hunks(old: Sequence[str], new: Sequence[str]) -> list[list[int]]:
    """Changed regions ``[i1, i2, j1, j2]``; closer than MERGE_GAP unchanged lines: one."""
    hunks: list[list[int]] = []
    for i1, i2, j1, j2 in _changes(old, new):
        if hunks and i1 - hunks[-1][1] < MERGE_GAP:
            hunks[-1][1], hunks[-1][3] = i2, j2
        else:
            hunks.append([i1, i2, j1, j2])
    return hunks


def _anchor(current: list[str], a: int, b: int, middle: Lines, path: str, limit: int,
            floor: int, ceiling: int) -> tuple[int, int, Lines] | None:
    """The shortest unique SEARCH around ``current[a:b]`` within ``[floor, ceiling)``,
    context above preferred, that the matcher lands exactly where it should. At most
    ``limit`` lines, with at most 2 x MAX_SEARCH_LINES of them context."""
    for total in range(2 * MAX_SEARCH_LINES + 1):
        for above in range(min(total, a - floor), -1, -1):
            start, end = a - above, b + total - above
            if end > ceiling or end - start > limit:
                continue
            search = tuple(current[start:end])
            if not any(line.strip() for line in search) or _unsafe(search):
                continue
            replacement = (*current[start:a], *middle, *current[b:end])
            if _unsafe(replacement) or len(find_all(current, search, 2)) != 1:
                continue
            found = match_edit(current, search, replacement, path=path)
            if (found.status is Status.APPLIED and found.method == "exact"
                    and (found.start, found.end) == (start, end)
                    and tuple(found.new_lines) == replacement):
                return start, end, replacement
    return None


def minimal_edits(old: Sequence[str], new: Sequence[str], path: str = "", *,
                  large: bool = False) -> tuple[SearchReplace, ...] | None:
    """Search/replace edits turning ``old`` into ``new``, applied top to bottom.

    Each SEARCH is the shortest run of lines around its change that matches exactly
    once in the file as the previous edits left it, and stays two lines clear of its
    neighbours where it can (so no two edits fight over an anchor). ``None`` when some
    change has no unique anchor of at most 12 lines (any length when ``large``).
    """
    current = list(old)
    hunks = _hunks(old, new)
    limit = len(old) + len(new) + 1 if large else MAX_SEARCH_LINES
    edits: list[SearchReplace] = []
    offset = 0
    floor = 0
    for n, (i1, i2, j1, j2) in enumerate(hunks):
        a, b = i1 + offset, i2 + offset
        middle = tuple(new[j1:j2])
        ceiling = hunks[n + 1][0] + offset - MERGE_GAP if n + 1 < len(hunks) else len(current)
        found = (_anchor(current, a, b, middle, path, limit, floor, max(ceiling, b))
                 or _anchor(current, a, b, middle, path, limit, 0, len(current)))
        if found is None:
            return None
        start, end, replacement = found
        edits.append((tuple(current[start:end]), replacement))
        current[start:end] = replacement
        offset += len(middle) - (i2 - i1)
        floor = start + len(replacement) + MERGE_GAP
    return tuple(edits) if current == list(new) else None


# -- one turn --------------------------------------------------------------------------------


def _file_plan(path: str, old: FileState | None, new: FileState) -> FilePlan:
    if old is None:
        # A new file is written exactly as sent: keep a byte order mark as a character.
        text = new.data.decode("utf-8")
        return FilePlan(path, True, True, tuple(_text_lines(text)), None)
    after = new.lines
    full_tokens = lines_tokens(after)
    large = full_tokens > LARGE_FILE_TOKENS
    edits = minimal_edits(old.lines, after, path, large=large)
    if edits is None and not large:
        # No unique anchor of at most 12 lines: a longer one is still far cheaper than
        # the whole file, most of the time (the cost check below decides, as it does for
        # any edits). It fell back to the full file: a 14-line edit of a 120-line file
        # was re-sent whole, at 3.5x the cost, which the export's own lint then flagged.
        edits = minimal_edits(old.lines, after, path, large=True)
    if not edits:  # no anchor; or the same lines, only the final newline differs
        return FilePlan(path, False, True, after, None)
    if large or not new.final_newline:  # a full file always ends with a newline
        return FilePlan(path, False, False, after, edits)
    cost = sum(edit_cost(search, repl) for search, repl in edits)
    if not reaches_threshold(cost, full_tokens):
        return FilePlan(path, False, False, after, edits)
    # Lint prices the full file against its own search/replace estimate: agree with it.
    estimate = search_replace_cost(old.lines, after)
    full = estimate is None or reaches_threshold(estimate, full_tokens) or cost > full_tokens
    return FilePlan(path, False, full, after, edits)


def _text_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _landed_commands(turn: TurnResult) -> tuple[list[OpResult], list[OpResult]]:
    first: list[OpResult] = []
    last: list[OpResult] = []
    for pos, op in execution_order(turn.turn):
        result = turn.results[pos]
        if isinstance(op, ConsoleCommand) and result.landed:
            (last if op.name is CommandName.RM else first).append(result)
    return first, last


def _command_notes(results: Sequence[OpResult]) -> list[tuple[str, str]]:
    notes: list[tuple[str, str]] = []
    for result in results:
        changes = result.outcome.changes
        assert isinstance(changes, tuple)
        for old, new in changes:
            if new is None and old is not None:
                notes.append((old, "deleted"))
            elif old is None and new is not None:
                notes.append((new, "restored"))
            elif old is not None and new is not None:
                notes.append((new, f"moved from {old}"))
    return notes


def _without_undone(results: Sequence[OpResult]) -> list[OpResult]:
    """Drop each command an ``:undo`` of the same turn reverses, and that ``:undo``: the
    pair changes nothing. An ``:undo`` reaching back to an earlier turn stays."""
    kept: list[OpResult] = []
    for result in results:
        assert isinstance(result.op, ConsoleCommand)
        undo = result.op.name is CommandName.UNDO
        if undo and kept and _name(kept[-1]) is not CommandName.UNDO:
            kept.pop()
            continue
        kept.append(result)
    return kept


def _name(result: OpResult) -> CommandName | None:
    return result.op.name if isinstance(result.op, ConsoleCommand) else None


def _as_landed(result: OpResult) -> ConsoleCommand:
    """The command as it landed: a ``:mv`` into a folder it names that the reviewer saw
    there (and accepted so), said with a trailing ``/``, as the folder may not be there."""
    op = result.op
    assert isinstance(op, ConsoleCommand)
    args = [a for a in op.args if a != "-f"]
    if (op.name is not CommandName.MV or op.literal or result.outcome.reading != INTO
            or len(args) != 2 or args[1].endswith("/") or args[1].strip(" ") in (".", "./")):
        return op
    import shlex  # here: only such a move needs it

    args[1] += "/"
    force = op.force or "-f" in op.args
    text = " ".join([":mv", *(["-f"] if force else []), *map(shlex.quote, args)])
    return replace(op, args=tuple(args), force=force, text=text)


def plan_turn(turn: TurnResult, before: StructuralState, after: Tree) -> TurnPlan:
    first, last = _landed_commands(turn)
    first = _without_undone(first)
    state = before
    for result in first:
        assert isinstance(result.op, ConsoleCommand)
        state, _ = apply_command(state, result.op, reading=result.outcome.reading or None)
    middle = state.tree
    order: list[str] = []
    for result in turn.results:
        path = normalize_or_none(result.outcome.path) if result.outcome.path else None
        landed_file_op = not isinstance(result.op, ConsoleCommand) and result.landed
        if landed_file_op and path and path not in order:
            order.append(path)
    changed = [path for path, (_, new) in middle.diff(after).items() if new is not None]
    ranked = [p for p in order if p in changed] + sorted(p for p in changed if p not in order)
    files = []
    for path in ranked:
        new = after.get(path)
        assert new is not None
        old = middle.get(path)
        if (old is not None and old.binary) or new.binary:
            continue  # file operations never write binary content; nothing to re-express
        files.append(_file_plan(path, old, new))
    commands = tuple(_as_landed(r) for r in (*first, *last))
    return TurnPlan(turn.turn, commands, tuple(_command_notes([*first, *last])), tuple(files))


# -- the text ----------------------------------------------------------------------------


def _fence(lines: Sequence[str]) -> str:
    longest = max((len(s) for line in lines if (s := line.strip()) and set(s) == {"`"}),
                  default=0)
    # Content with a REPLACE-like line is read as the file's own only in a fence of four
    # (edit_signs.CONTENT_FENCE: a shorter one is the fence around an edit, QA s47 helper-154 M3).
    least = CONTENT_FENCE if any(is_replace_like(line) for line in lines) else 3
    return "`" * max(least, longest + 1)


def _footer_path(path: str) -> str:
    return f"`{path}`" if any(ch.isspace() for ch in path) else path


def _reply_lines(plan: TurnPlan) -> list[str]:
    out: list[str] = []
    if plan.commands:
        out += ["```console", *(cmd.text.strip() for cmd in plan.commands), "```", ""]
    for file in plan.files:
        out.append(f"--- File: {file.path} ---")
        if file.full:
            fence = _fence(file.content)
            out += [fence, *file.content, fence, ""]
            continue
        assert file.edits is not None
        for number, (search, repl) in enumerate(file.edits, start=1):
            out += [f"Edit {number}", "<<<<<<< SEARCH", *search, "=======", *repl,
                    ">>>>>>> REPLACE", ""]
    entries: dict[str, str] = {}
    for path, note in plan.notes:
        entries.setdefault(path, note)
    for file in plan.files:
        entries.setdefault(file.path, "new" if file.new else "")
    if entries:
        out.append("### Changed files:")
        out += [f"- {_footer_path(path)}" + (f" ({note})" if note else "")
                for path, note in entries.items()]
    if plan.turn.reply.need:
        out.append("Need: " + ", ".join(plan.turn.reply.need))
    return out


# -- checking a reply against the engine ---------------------------------------------------


def _mismatches(plan: TurnPlan, run: SessionRun, position: int) -> list[str]:
    """Paths where evaluating the reply on the turn's before state misses the after tree."""
    reply = parse_reply_text(plan.text())
    turn = Turn(plan.turn.index, plan.turn.request, reply, Span(1, 1))
    session = Session(run.session.source, run.session.title, "", (turn,))
    check = SessionRun(session, run.checkpoint(position), rules=run.rules,
                       policy=Policy.headless())
    check.states = [run.states[position]]
    check.moved = [dict(run.moved[position])]
    check.evaluate()
    return sorted(check.checkpoint(1).diff(run.checkpoint(position + 1)))


def checked_plan(accepted: Accepted, position: int) -> tuple[TurnPlan, list[str]]:
    """The turn's plan, corrected where the engine disagrees; and what still differs."""
    run = accepted.run
    plan = plan_turn(run.turns[position], run.states[position], run.checkpoint(position + 1))
    wrong = _mismatches(plan, run, position)
    if not wrong:
        return plan, []
    files = tuple((f.flipped() or f) if f.path in wrong else f for f in plan.files)
    retry = replace(plan, files=files)
    still = _mismatches(retry, run, position)
    return (retry, still) if len(still) <= len(wrong) else (plan, wrong)


def _request_lines(request: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in request.split("\n")] if request else []


def canonical_session(accepted: Accepted) -> str:
    """The whole session as canonical replies: a ``session.md`` reviewtui reads back."""
    return canonical_replies(accepted)[0]


def canonical_replies(accepted: Accepted) -> tuple[str, list[str]]:
    """:func:`canonical_session`, and each file a turn's reply cannot re-express exactly
    (``turn 1: a.txt``): its content holds what a reply cannot carry (a line the parser
    reads as an edit's marker). The export names them and exits 1 (QA s53 helper-221)."""
    session = accepted.session
    turns: list[str] = []
    problems: list[str] = []
    total = ours = 0
    for position, turn in enumerate(session.turns):
        plan, wrong = checked_plan(accepted, position)
        reply = plan.text()
        tokens = estimate_tokens(reply)
        total += tokens
        ours += plan_cost(plan)
        cost = f"~{tokens} tokens" if reply else "nothing to send"
        turns += [f"## Turn {turn.index} ({cost})", *_request_lines(turn.request), ""]
        if reply:
            turns.append(reply)
        problems += [f"turn {turn.index}: {path}" for path in wrong]
    sent = sum(sent_cost(t) for t in session.turns)
    head = [f"# Session: {session.title or accepted.source}", "",
            "Canonical File Ops replies, re-emitted by reviewtui from the accepted result of",
            f"{accepted.source} ({accepted.decided_by}).", "",
            "Each reply is what the model should have sent to produce exactly that result:",
            "the structural commands that landed, the smallest unique search/replace edits,",
            "full files for new files and where search/replace would cost 70% of the file or",
            "more, then the footer.", "",
            f"Estimated cost, one token per four characters: ~{total} tokens for these",
            f"replies. Their operations (edits with markers, full files, commands) cost ~{ours}",
            f"tokens, against ~{sent} for the operations the model sent.", ""]
    if problems:
        head += ["Not reproduced exactly (the engine's result differs):",
                 *(f"- {where} could not be re-expressed exactly" for where in problems), ""]
    return "\n".join(head) + "\n" + "\n".join(turns).rstrip("\n") + "\n", problems


def sent_cost(turn: Turn) -> int:
    """Lint's price of the operations a reply sent: edits with their markers, full files,
    command lines (headers and the footer, which every form needs, are left out)."""
    cost = 0
    for op in turn.reply.ops:
        if isinstance(op, ConsoleCommand):
            cost += estimate_tokens(op.text.strip() + "\n")
        elif isinstance(op, Edit):
            cost += edit_cost(op.search_lines, op.replace_lines)
        else:
            cost += lines_tokens(op.lines)
    return cost


def plan_cost(plan: TurnPlan) -> int:
    """:func:`sent_cost` for a plan."""
    cost = sum(estimate_tokens(cmd.text.strip() + "\n") for cmd in plan.commands)
    for file in plan.files:
        if file.full or file.edits is None:
            cost += lines_tokens(file.content)
        else:
            cost += sum(edit_cost(search, repl) for search, repl in file.edits)
    return cost
