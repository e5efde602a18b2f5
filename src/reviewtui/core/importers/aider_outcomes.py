"""What Aider logged about a reply's edits after writing them down: skipped, or undone.

Aider writes the model's SEARCH/REPLACE blocks into its history as they came, then logs
what it did with them as ``> `` lines. Two of those notes mean a block never reached the
disk (or left it again), so replaying it would write what Aider did not:

* ``> Skipping edits to settings.py``: the user declined to let Aider edit a file not in
  the chat; that reply's blocks for the file were not applied (``aider-skipped``);
* a ``#### /undo`` request answered by ``> Removed: 1a2b3c4 ...``: Aider reverted the
  files of its commit ``1a2b3c4`` to the commit before; the blocks that commit recorded
  (those after the previous ``> Commit`` line of their turn, up to ``> Commit 1a2b3c4``)
  are not replayed (``aider-undone``). An /undo without a ``Removed:`` line failed (Aider
  says why) and changes nothing. A commit without blocks (a lint fix, the user's own dirty
  files) holds nothing reviewtui replays, so undoing it drops nothing.

* ``> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in
  app.py`` and the block quoted after it: Aider's matcher found no place for that block
  and wrote none of it (the reply's other blocks were written); the model's fixed block
  usually follows in the same turn. reviewtui's matcher forgives more (trailing blanks),
  and landed both the failed block and its fix (QA s44 helper-134 H2, exit 0 wrong). The
  failed block is the last one before the note with the quoted file, SEARCH and REPLACE
  (compared without trailing blanks, which the log adds): not replayed
  (``aider-failed``); a note whose block cannot be found among the reply's blocks of
  that file says so.

* ``> Did not apply edit to app.py (--dry-run)``: Aider ran with ``--dry-run`` and wrote
  none of the reply's blocks of that file (``aider-dry-run``; QA s46 helper-142 H5: they
  were replayed, exit 0).

Each keeps the blocks visible as warnings on their turn, naming Aider's line.

And one note says where blocks went: ``> Applied edit to src/app.py`` after a reply whose
blocks name ``app.py`` and no such file: Aider took the name for the chat's file of the
same base name (its ``find_filename``); those blocks are replayed on the file the log
names (``aider-resolved``, info; QA s46 helper-142 H6: the root ``app.py`` was edited).
A reply logs every file it wrote, so a block its log leaves out (and resolves to none of
its files) went to another chat file where its SEARCH matched, Aider's fallback; so may
a block whose SEARCH only an earlier block of the reply wrote: neither is replayed
(``aider-fallback``, an error). A block of a reply that logged nothing (one of its
blocks failed to match) whose name the chat resolves to another file is not replayed
either (``aider-resolved``, an error; ``aider_chat``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from reviewtui.core.importers.aider_chat import Chat, chat_file
from reviewtui.core.importers.common import problem
from reviewtui.core.model.records import Edit, FullFile, Operation, ParseProblem
from reviewtui.core.record import replace

# A SEARCH/REPLACE block's three marker lines (5 to 9 characters, as Aider reads them).
HEAD = re.compile(r"<{5,9} SEARCH>?\s*$")
DIVIDER = re.compile(r"={5,9}\s*$")
UPDATED = re.compile(r">{5,9} REPLACE\s*$")
SKIPPED = "aider-skipped"
UNDONE = "aider-undone"
# The name runs to its last non-blank character (or is one blank character): as
# "(.+?)\s*$" read it, without trying every end in a run of blanks (quadratic: 8,000
# spaces and a last character took 0.39 s; tests/core/test_regex_linear.py).
SKIP_LINE = re.compile(r"^> Skipping edits to (.*?\S|.)(?: that matches gitignore spec\.)?"
                       r"\s*+$")
DRY_RUN = "aider-dry-run"
DRY_LINE = re.compile(r"^> Did not apply edit to (.*?\S|.) \(--dry-run\)\s*+$")
RESOLVED = "aider-resolved"
APPLIED_LINE = re.compile(r"^> Applied edit to (.*?\S|.)\s*+$")
COMMIT_LINE = re.compile(r"^> Commit ([0-9a-f]{7,40})\b")
REMOVED_LINE = re.compile(r"^> Removed: ([0-9a-f]{7,40})\b")
FAILED = "aider-failed"
FALLBACK = "aider-fallback"
TOKENS = "> Tokens:"
NOT_CONFORM = "> The LLM did not conform"
# (``> `` first in Aider up to 0.5x; Aider 0.86 quotes only the note's first line, and
# writes this one and the block after it as they are: QA s44 helper-136 A1)
FAILED_LINE = re.compile(r"^(?:> )?+## SearchReplaceNoExactMatch: This SEARCH block failed "
                         r"to exactly match lines in (.*?\S|.)\s*+$")


class ReplyPart:
    """One turn's reply as imported, before it becomes a :class:`Turn` (mutable on purpose:
    a later ``/undo`` takes blocks back out of an earlier turn)."""

    __slots__ = ("notes", "ops", "request", "start", "stop")

    def __init__(self, request: str, start: int, stop: int, ops: list[Operation],
                 notes: list[ParseProblem]) -> None:
        self.request, self.start, self.stop = request, start, stop
        self.ops, self.notes = ops, notes


def follow_outcomes(lines: Sequence[str], parts: Sequence[ReplyPart]) -> None:
    """Take out of ``parts`` the blocks Aider skipped or undid, leaving a warning for each."""
    commits: dict[str, tuple[ReplyPart, int]] = {}
    chat = Chat(lines)
    for part in parts:
        _drop_skipped(lines, part)
        _drop_failed(lines, part)
        _follow_resolved(lines, part, chat)
        _mark_applied(lines, part)
        for k in range(part.start, part.stop):
            match = COMMIT_LINE.match(lines[k])
            if match:
                commits[match.group(1)[:7]] = (part, k)
        if part.request.split()[:1] == ["/undo"]:
            _drop_undone(lines, part, commits)


def _mark_applied(lines: Sequence[str], part: ReplyPart) -> None:
    """The blocks of a part whose log says Aider applied edits (``> Applied edit to``) are
    checked against where Aider's own matcher puts them (``Edit.aider``,
    core/engine/aider_seek.py): one it finds no place for in its file went elsewhere."""
    if any(APPLIED_LINE.match(lines[k]) for k in range(part.start, part.stop)):
        part.ops = [replace(op, aider=True) if isinstance(op, Edit) else op
                    for op in part.ops]


def _drop_skipped(lines: Sequence[str], part: ReplyPart) -> None:
    """Blocks of a file Aider logged it skipped, in the reply before that line."""
    for k in range(part.start, part.stop):
        match = SKIP_LINE.match(lines[k])
        dry = None if match else DRY_LINE.match(lines[k])
        if not match and not dry:
            continue
        name = (match or dry).group(1)  # type: ignore[union-attr]
        since = _last_commit_before(lines, part.start, k)
        # Aider logs the name it resolved (the chat's src/x.py for a block of x.py): a
        # block of that name, else of the one name it can have come from (F5).
        name = next((n for n in _names_before(part, since, k) if n == name),
                    _resolved_from(name, _names_before(part, since, k)) or name)
        dropped = _take(part, _of_file(name, since, k))
        why = (f"says the user declined it ('Skipping edits to {name}')" if match else
               "says Aider ran with --dry-run and wrote nothing")
        for op in dropped:
            part.notes.append(problem(SKIPPED if match else DRY_RUN,
                                      f"Aider did not apply this edit of {name}: line "
                                      f"{k + 1} {why}; it is not replayed",
                                      op.span.start, op.span.end, severity="warning"))


def _follow_resolved(lines: Sequence[str], part: ReplyPart, chat: Chat) -> None:
    """Blocks of a name Aider took for another file, as its ``Applied edit to`` lines say
    (module doc). A reply's blocks are followed by the lines of the files Aider wrote for
    them, once each; a turn may hold several replies (a lint reflection: QA s46
    helper-145 F11, F12), so each run of such lines speaks for the blocks since the run
    before. A block name no line of its run names went to the one file of the run it
    resolves to (its base name, or a close spelling: Aider's ``find_filename``): one no
    block names first; one another block names only when every line is a named file
    (helper-144 F3; with a line no name explains, Aider may have tried another chat file
    where the SEARCH matched: helper-145 F5). Where a line names a file no block can have
    meant, the run's one unlogged name's blocks are not replayed (helper-143 F6). A line
    before the blocks is the model's own text (F4). A block no run names the file of,
    whose name the chat Aider held resolves to another file (``aider_chat``), or that may
    have gone to another chat file (:func:`_hold_fallbacks`) is held."""
    runs: list[list[tuple[int, str]]] = []
    for k in range(part.start, part.stop):
        if (m := APPLIED_LINE.match(lines[k])) is not None and lines[k].endswith("  "):
            # (Aider's own line alone, which ends in the two blanks of a markdown line
            # break, as all 413 of Aider's history do: a line the model quotes between
            # or after its blocks is no run, QA s46 helper-146 F2)
            if runs and runs[-1][-1][0] == k - 1:
                runs[-1].append((k, m.group(1)))
            else:
                runs.append([(k, m.group(1))])
    since = part.start - 1
    # (a reply ends at Aider's token count, or at its note that a block failed to match;
    # Aider's own lines: one the model types between its blocks ends nothing, QA s47
    # helper-149 H5)
    ends = [k for k in range(part.start, part.stop) if _aider_end(lines, k)]
    spoken: dict[int, list[str]] = {}  # block's first line -> the files its reply's run logs
    for run in runs:
        scope = [op for op in part.ops if since < op.span.start - 1 < run[0][0]]
        since = run[-1][0]
        if not scope:
            continue
        logged = _resolve_run(part, run, scope)
        # (the blocks of the reply the run follows: an earlier reply of the turn whose
        # block failed to match logged nothing, F3)
        reply = bisect.bisect_left(ends, scope[-1].span.start - 1)
        own = [op for op in part.ops if since >= op.span.start - 1
               and op.span.start not in spoken
               and bisect.bisect_left(ends, op.span.start - 1) == reply]
        spoken.update((op.span.start, logged) for op in own)
        _hold_unlogged(part, own, logged, run[0][0])
    _follow_chat(part, chat, spoken)
    _hold_fallbacks(part, chat, spoken, ends)


def _aider_end(lines: Sequence[str], k: int) -> bool:
    """Whether line ``k`` is Aider's own note that a reply ended: its token count (ending
    in a markdown line break, or with its cost on the next line, as Aider writes them),
    or its note that a block failed to match."""
    line = lines[k]
    if line.startswith(TOKENS):
        return line.endswith("  ") or (k + 1 < len(lines) and lines[k + 1].startswith("Cost: "))
    return (line.startswith(NOT_CONFORM) and line.endswith("  ")) or (
        FAILED_LINE.match(line) is not None and line.endswith("  "))


def _hold_unlogged(part: ReplyPart, own: list[Operation], logged: list[str], at: int) -> None:
    """Blocks of a reply whose run logs every file Aider wrote for it, and not theirs:
    Aider sent them to another chat file where the SEARCH matched (its fallback), one of
    the logged files, which reviewtui cannot tell (module doc): not replayed."""
    unlogged = {id(op) for op in own if isinstance(op, Edit) and op.path is not None
                and op.path.strip() not in logged and _text(op.search_lines)}
    for op in _take(part, lambda op: id(op) in unlogged):
        part.notes.append(problem(FALLBACK, f"Aider logged no edit of {op.path} after the "
                                  f"reply (line {at + 1} on), only of "
                                  f"{', '.join(logged[:3])}: it wrote this block to one of "
                                  "those where its SEARCH matched (its fallback to another "
                                  "chat file), which reviewtui cannot tell; it is not "
                                  "replayed", op.span.start, op.span.end, severity="error"))


def _follow_chat(part: ReplyPart, chat: Chat, spoken: dict[int, list[str]]) -> None:
    """Blocks whose file no run logs, whose name Aider took for another chat file: not
    replayed. The chat is read from the history, which may not say all of it (another
    Aider process, a file added in a way not logged): redirected on that reading, a
    block was written to a file Aider never touched (QA s47 helper-149 H1), so it is
    held on either reading, said. A new file's block (an empty SEARCH) is named as
    written: Aider reads its name against no chat (H2)."""
    held: set[int] = set()
    for op in part.ops:
        name = (op.path or "").strip()
        if not isinstance(op, Edit) or name in spoken.get(op.span.start, ()) \
                or not _text(op.search_lines):
            continue
        path = chat_file(name, chat.at(op.span.start - 1))
        if path is None:
            continue
        held.add(id(op))
        part.notes.append(problem(RESOLVED, f"Aider's chat held {path} and not {name} (as "
                                  "the history shows the chat), and Aider takes a block's "
                                  "name for the chat's file of that name; no line of its "
                                  "log says where this block went: it is not replayed",
                                  op.span.start, op.span.end, severity="error"))
    part.ops = [op for op in part.ops if id(op) not in held]


def _hold_fallbacks(part: ReplyPart, chat: Chat, spoken: dict[int, list[str]],
                    ends: list[int]) -> None:
    """Blocks Aider may have written to another chat file than their own (QA s46
    helper-146 F6). Aider first tries every block of a reply on the files as they were
    before it, and a block that matches nothing in its own file goes to the first other
    chat file where it matches; then it writes them in order. A block whose SEARCH is
    text an earlier block of the same reply put into its file did not match that file
    before the reply: it went to its own file in order only if no other chat file held
    that text. Where the reply's log names another file, or no line speaks for it while
    the chat holds another file, reviewtui cannot tell which: not replayed."""
    wrote: dict[tuple[str, int, str], list[tuple[str, str]]] = {}  # by first line
    new: dict[tuple[str, int], set[str]] = {}  # lines an earlier block brought in
    held: set[int] = set()
    for op in part.ops:
        if not isinstance(op, Edit):
            continue
        path = (op.path or "").strip()
        reply = bisect.bisect_left(ends, op.span.start - 1)
        wanted = _text(op.search_lines)
        first = wanted.split("\n", 1)[0]
        # Its whole SEARCH written by an earlier block, or one of its lines that an earlier
        # block brought in (a SEARCH of that line and the unchanged ones after it: QA s47
        # helper-149 H3), and not a short one any file may hold.
        if wanted and (any(wanted in put and wanted not in took
                           for put, took in wrote.get((path, reply, first), ()))
                       or not new.get((path, reply), set()).isdisjoint(wanted.split("\n"))):
            logged = spoken.get(op.span.start)
            others = sorted(set(logged) - {path}) if logged is not None else sorted(
                chat.at(op.span.start - 1) - {path})
            if others:
                held.add(id(op))
                part.notes.append(problem(
                    FALLBACK, f"this block's SEARCH is text an earlier block of the same "
                    f"reply wrote into {path}: Aider tries each block on the files as they "
                    "were before the reply, so it may have written this one to "
                    f"{', '.join(others[:3])} instead (its fallback to another chat file); "
                    "it is not replayed", op.span.start, op.span.end, severity="error"))
                continue
        put, took = _text(op.replace_lines), _text(op.search_lines)
        for line in set(put.split("\n")):
            wrote.setdefault((path, reply, line), []).append((put, took))
        new.setdefault((path, reply), set()).update(
            line for line in set(put.split("\n")) - set(took.split("\n"))
            if len(line) >= 8 and any(c.isalnum() for c in line))
    part.ops = [op for op in part.ops if id(op) not in held]


def _text(lines: Sequence[str]) -> str:
    return "\n".join(line.strip() for line in lines if line.strip())


def _resolve_run(part: ReplyPart, run: list[tuple[int, str]], scope: list[Operation]
                 ) -> list[str]:
    """Resolve the blocks of ``scope`` by ``run``; the files the run logs."""
    named = {(op.path or "").strip() for op in scope}
    where = {path: k for k, path in run}
    unexplained = sorted(set(where) - named)
    for name in sorted(named - set(where)):
        path = _resolved_to(name, unexplained) or (
            None if unexplained else _resolved_to(name, sorted(where)))
        if path is None:
            continue
        moved = {id(op) for op in scope if (op.path or "").strip() == name}
        part.ops = [replace(op, path=path) if id(op) in moved
                    and isinstance(op, (Edit, FullFile)) else op for op in part.ops]
        named = (named - {name}) | {path}
        part.notes.append(problem(RESOLVED, f"the blocks of {name} are replayed on {path}: "
                                  f"line {where[path] + 1} says Aider applied them there (it "
                                  "took the name for the chat's file of that name)",
                                  where[path] + 1, severity="info"))
    unexplained = sorted(set(where) - named)
    unlogged = sorted(named - set(where))
    if unexplained and len(unlogged) == 1:  # (Aider wrote its blocks elsewhere)
        (name,), path = unlogged, unexplained[0]
        chosen = {id(op) for op in scope if (op.path or "").strip() == name}
        for op in _take(part, lambda op: id(op) in chosen):
            part.notes.append(problem(RESOLVED, f"Aider applied an edit to {path} (line "
                                      f"{where[path] + 1}), which no block names, and none "
                                      f"to {name}: this block of {name} is not replayed",
                                      op.span.start, op.span.end, severity="warning"))
    return sorted(where)


def _resolved_to(name: str, paths: Sequence[str]) -> str | None:
    """The one of ``paths`` Aider resolves the block name ``name`` to (see
    :func:`_resolved_from`); None."""
    found = [path for path in paths if _resolved_from(path, [name]) == name]
    return found[0] if len(found) == 1 else None


def _names_before(part: ReplyPart, since: int, until: int) -> list[str]:
    return sorted({(op.path or "").strip() for op in part.ops
                   if since < op.span.start - 1 < until})


def _resolved_from(path: str, names: Sequence[str]) -> str | None:
    """The one of ``names`` Aider resolves to ``path``: by its base name, else by a close
    spelling (difflib's ratio at 0.8 or more, as Aider's find_filename); None."""
    base = path.rsplit("/", 1)[-1]
    found = [name for name in names if name.rsplit("/", 1)[-1] == base]
    if not found:
        import difflib

        found = [name for name in names
                 if difflib.SequenceMatcher(None, name, path).ratio() >= 0.8]
    return found[0] if len(found) == 1 else None


def _drop_failed(lines: Sequence[str], part: ReplyPart) -> None:
    """The blocks Aider logged it could not match, each the last before its note with
    the quoted file, SEARCH and REPLACE (module doc)."""
    for k in range(part.start, part.stop):
        match = FAILED_LINE.match(lines[k])
        if not match:
            continue
        name, quoted = match.group(1), _quoted_block(lines, k + 1, part.stop)
        candidates = [op for op in part.ops if isinstance(op, Edit) and op.span.start - 1 < k
                      and quoted == (_bare(op.search_lines), _bare(op.replace_lines))]
        named = [op for op in candidates if (op.path or "").strip() == name]
        failed = (named or candidates)[-1:]
        if not failed and any((op.path or "").strip() == name and op.span.start - 1 < k
                              for op in part.ops):
            part.notes.append(problem(FAILED, f"Aider logged a block of {name} as failed to "
                                      "match here, and reviewtui cannot tell which block of "
                                      "the reply it was: check what is replayed of "
                                      f"{name}", k + 1, severity="warning"))
        if not failed:  # (else no block of the file is replayed from before the note)
            continue
        (op,) = failed
        part.ops = [kept for kept in part.ops if kept is not op]
        part.notes.append(problem(FAILED, f"Aider did not apply this edit of {op.path}: line "
                                  f"{k + 1} says its SEARCH failed to match the file; it is "
                                  "not replayed", op.span.start, op.span.end,
                                  severity="warning"))


def logged_block_end(lines: Sequence[str], k: int, stop: int) -> int | None:
    """Where the block Aider logs after the failure note at ``k`` ends (the index of its
    REPLACE marker), when the note and the block are written as they are (Aider 0.86):
    that block is Aider's log, not an edit of the reply."""
    if lines[k].startswith(">") or not FAILED_LINE.match(lines[k]):
        return None
    if not any(HEAD.match(lines[j].strip()) for j in range(k + 1, min(k + 3, stop))):
        return None
    return next((j for j in range(k + 1, stop) if UPDATED.match(lines[j].strip())), None)


def _quoted_block(lines: Sequence[str], start: int, stop: int
                  ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(SEARCH, REPLACE) of the block Aider quotes after a failure note (``> `` lines in
    Aider up to 0.5x, as they are in 0.86), without trailing blanks; None when there is
    none."""
    body: list[str] = []
    quoted = start < stop and lines[start].startswith(">")
    for k in range(start, stop):
        line = lines[k]
        if quoted and not line.startswith(">"):
            break
        if quoted:
            line = line[2:] if line.startswith("> ") else line[1:]
        body.append(line.rstrip())
        if UPDATED.match(body[-1]):
            break
    heads = [i for i, line in enumerate(body) if HEAD.match(line)]
    if not heads:
        return None
    head = heads[0]
    divider = next((i for i in range(head + 1, len(body)) if DIVIDER.match(body[i])), None)
    if divider is None:
        return None
    end = next((i for i in range(divider + 1, len(body)) if UPDATED.match(body[i])), None)
    if end is None:
        return None
    return tuple(body[head + 1 : divider]), tuple(body[divider + 1 : end])


def _bare(lines: Sequence[str]) -> tuple[str, ...]:
    return tuple(line.rstrip() for line in lines)


def _of_file(name: str, since: int, until: int) -> Callable[[Operation], bool]:
    """Picks the operations on ``name`` written between lines ``since`` and ``until``."""
    def chosen(op: Operation) -> bool:
        return (op.path or "").strip() == name and since < op.span.start - 1 < until
    return chosen


def _drop_undone(lines: Sequence[str], undo: ReplyPart,
                 commits: dict[str, tuple[ReplyPart, int]]) -> None:
    """The blocks of the commit an /undo removed (none when Aider's undo failed)."""
    removed = next((m.group(1) for k in range(undo.start, undo.stop)
                    if (m := REMOVED_LINE.match(lines[k]))), None)
    if removed is None or removed[:7] not in commits:
        return
    part, at = commits.pop(removed[:7])
    since = _last_commit_before(lines, part.start, at)
    dropped = _take(part, lambda op: since < op.span.start - 1 < at)
    for op in dropped:
        part.notes.append(problem(UNDONE, f"Aider's /undo at line {undo.start} reverted "
                                  f"commit {removed}, which made this edit of {op.path}; "
                                  "it is not replayed", op.span.start, op.span.end,
                                  severity="warning"))


def _last_commit_before(lines: Sequence[str], start: int, k: int) -> int:
    """The index of the last ``> Commit`` line in ``[start, k)``, else ``start - 1``."""
    return next((j for j in range(k - 1, start - 1, -1) if COMMIT_LINE.match(lines[j])),
                start - 1)


def _take(part: ReplyPart, chosen: Callable[[Operation], bool]) -> list[Operation]:
    """Remove and return the operations ``chosen`` picks, keeping the others in order."""
    taken = [op for op in part.ops if chosen(op)]
    part.ops = [op for op in part.ops if not chosen(op)]
    return taken
