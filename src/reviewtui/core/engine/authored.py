"""The files as each turn's author had them: what a turn's plain line numbers address.

A line-addressed edit written with plain numbers (``Edit 1 @ 6``) names lines of the file
as the turn's author had it: the session's version after the earlier turns as the model
wrote them, each of their operations landed. The file a run evaluates it on can be another:
an earlier operation on it was rejected, is pending (the disk draft lands accepted ones
alone), was accepted with the reviewer's text, or did not land; or the file changed outside
the review, which took the new content as its original. Numbers were applied to whatever
stood at them there (QA s47 helper-147 H5: turn 1 added two imports and was rejected, and
turn 2's ``Edit 1 @ 6`` replaced ``def g():`` instead of ``return 1``).

So a run keeps the authored versions (:class:`AuthoredVersions`): the session evaluated
over the run's first base with every operation that applies (near matches too) landed, no
decision and no outside change, on demand, up to the turn asked about. Where one of its
operations did not land (a stale SEARCH, a command that failed), its author's idea of that
file is not known from then on (:func:`next_marks`); a full file written later makes it
known again. Not so for a literal operation (a tool call, a diff): its author was told
that a call failed, or wrote down what happened, so the file without it is the one it had.
:func:`bind` then places a shape's numbers on the file as the run has it:

* it is the author's version: the numbers stand;
* the author's version is not known, or has no such file: refused (``shifted-lines``),
  naming why;
* it differs: the numbers are carried by a line diff of the two versions
  (:class:`~reviewtui.core.text.line_frames.Frames`) where that is exact for every line
  addressed (the lines with their neighbours occur once, and the diff pairs each of them),
  else refused (``shifted-lines``), naming the lines and why the file differs.

Within a turn the numbers address the file as the turn's file blocks start
(``line_edits.evaluate_shaped``): after its moves (a reply's ``:mv``, ``:rn``, ``:undo``
and ``:unrm`` run first, ``order.execution_order``), so a file one of them made there
(moved, renamed, moved over another with ``-f``, brought back) is compared with the
authored run's after the same moves (:meth:`AuthoredVersions.opened`; it was not: after
turn 1 was rejected, turn 2's ``:mv a.txt b.txt`` then ``Edit 1 @ 5`` on b.txt replaced
what stood at line 5, QA qa77). A file the turn wrote whole first counts from
the version that whole file wrote: the authored run's version of it is compared. A
tool call's numbers address the file as the turn started (:meth:`AuthoredVersions.file`).
"""

from __future__ import annotations

from _thread import RLock
from collections.abc import Callable, Mapping

from reviewtui.core.engine.decisions import Policy, Verdict
from reviewtui.core.engine.file_edits import normalize_or_none, written_text
from reviewtui.core.engine.order import execution_order
from reviewtui.core.engine.results import OpResult, Rules, TurnResult, op_title
from reviewtui.core.model.edit_shapes import Batch, BatchAction, LineRange, Shape, Window
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import CommandName, ConsoleCommand, FullFile, Session, Turn
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import record, replace
from reviewtui.core.text.hashline import LineRef
from reviewtui.core.text.line_frames import Frames
from reviewtui.core.text.plural import plural

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.turn_steps import TurnSteps

# A path or folder (``EVERY``: every path) -> why its author's version is not known.
Marks = Mapping[str, str]
EVERY = ""


@record(frozen=True, slots=True)
class AuthoredFile:
    """One file as the author of turn ``turn`` had it, and why the run's may differ."""

    turn: int
    state: FileState | None  # None: no such file in the author's version
    unknown: str = ""  # why the author's version is not known ("": it is)
    made: str = ""  # the whole file of the turn that wrote ``state`` ("": none)
    own: bool = False  # asked by the authored run itself: its version is the author's


class AuthoredVersions:
    """The authored versions of one session over one base (see the module docstring).

    Shared by the runs that start from one base (``SessionRun.adopt``, ``fork``); its own
    run asks it about itself while it evaluates, so the lock is re-entrant."""

    __slots__ = ("_lock", "_marks", "_positions", "base", "run")

    def __init__(self, session: Session, base: Tree, rules: Rules) -> None:
        from reviewtui.core.engine.session import SessionRun  # (session imports turn steps)

        self.base = base
        self.run = SessionRun(session, base, rules=rules,
                              policy=Policy.headless(accept_fuzzy=True))
        self.run._authored = self  # its numbers address itself
        self.run._opened = {}  # (each turn's tree after its moves: opened)
        self._marks: list[Marks] = [{}]  # per checkpoint of ``run``
        self._positions: dict[int, int] = {}
        self._lock = RLock()

    def grown(self, session: Session, from_turn: int, first: int | None,
              ) -> AuthoredVersions | None:
        """These versions for ``session``, the same grown (a live session) from the turn
        numbered ``from_turn``; None (made again when asked) for versions of the turns
        from ``first`` alone (``SessionRun.author_from``)."""
        if first is not None:
            return None
        with self._lock:
            run = self.run
            if run.session is session:
                return self
            opened = run._opened
            if opened:
                for index in [index for index in opened if index >= from_turn]:
                    del opened[index]
            run.replace_session(session, from_turn)
            self._positions = {}
            keep = next((pos for pos, turn in enumerate(session.turns)
                         if turn.index >= from_turn), len(session.turns))
            del self._marks[keep + 1 :]
        return self

    def file(self, index: int, path: str) -> AuthoredFile:
        """``path`` as the author of the turn numbered ``index`` had it as it started."""
        with self._lock:
            run = self.run
            pos = self._evaluated(index, through=False)
            if pos is None:
                return AuthoredFile(index, None, unknown=f"turn {index} is not in the session")
            marks = self._marks_at(pos)
            state = run.states[pos].tree.get(path)
        return AuthoredFile(index, state, unknown=marked(marks, path))

    def opened(self, index: int, path: str, made: int | None, asker: object) -> AuthoredFile:
        """``path`` as the author of the turn numbered ``index`` had it as its file blocks
        started, after its moves; ``made``: as the whole file at that reply position of
        it wrote it. Asked by the authored run itself (``asker``), its own version is
        the author's (``own``): only why it may not be known is said."""
        with self._lock:
            run = self.run
            own = asker is run
            turns = run.session.turns
            pos = self._positions_of().get(index)
            moves = pos is not None and _moves_first(turns[pos])
            pos = self._evaluated(index, through=not own and (moves or made is not None))
            if pos is None:
                return AuthoredFile(index, None, unknown=f"turn {index} is not in the session")
            marks, tree = self._marks_at(pos), run.states[pos].tree
            if moves:  # (the authored run's tree after them: the file its numbers name)
                tree = (run._opened or {}).get(index, tree)
                if not own:
                    marks = next_marks(marks, run.turns[pos], opening=True)
            if made is None:
                unknown = marked(marks, path)
                return AuthoredFile(index, None if own else tree.get(path), unknown, own=own)
            op = turns[pos].reply.ops[made]
            named = f"turn {index}'s {op_title(op)}"
            if tree.get(path) is not None:  # (landings.in_turn refuses it: the same here)
                return AuthoredFile(index, None, unknown=(
                    f"{named}, which wrote it whole over the file its author had (which of "
                    "the two its numbers count in is not known)"))
            if own:
                return AuthoredFile(index, None, own=True)
            result = run.turns[pos].results[made]
            if not result.landed:
                return AuthoredFile(index, None, unknown=(
                    f"{named}, which did not land ({result.outcome.status})"))
            return AuthoredFile(index, _written(result), made=named)

    def _positions_of(self) -> dict[int, int]:
        if not self._positions:
            self._positions = {turn.index: pos for pos, turn in enumerate(self.run.session.turns)}
        return self._positions

    def _evaluated(self, index: int, through: bool) -> int | None:
        """The position of the turn numbered ``index`` (None: no such turn), the authored
        run evaluated up to it (``through``: and it)."""
        run = self.run
        pos = self._positions_of().get(index)
        if pos is None:
            return None
        done, need = len(run.turns), pos + through
        if done < need:
            turns = run.session.turns
            run.evaluate(from_turn=turns[done].index, upto=turns[need - 1].index)
        return pos

    def _marks_at(self, pos: int) -> Marks:
        marks, turns = self._marks, self.run.turns
        while len(marks) <= pos:
            marks.append(next_marks(marks[-1], turns[len(marks) - 1]))
        return marks[pos]

    def differs(self, index: int, path: str, asker: TurnSteps, opened: bool = False) -> str:
        """Why ``asker``'s ``path`` at the turn numbered ``index`` (``opened``: after its
        moves) may not be the author's: the earliest operation on it (under the name it
        had then, the moves since carried back) before that turn that landed there and not
        here (or with other text), or a change outside (another base)."""
        with self._lock:
            written = [turn for turn in self.run.turns if turn.index <= index]
        names: dict[int, str] = {}  # turn -> the file's name as its file blocks ran
        name = path
        for mine in reversed(written):
            if mine.index < index:
                names[mine.index] = name
            if mine.index < index or opened:
                name = _moved_back(mine, name)
        theirs = {turn.index: turn for turn in asker.turns if turn.index < index}
        for mine in written:
            turn, here = theirs.get(mine.index), names.get(mine.index)
            if turn is None or here is None:
                continue
            for result, written_one in zip(turn.results, mine.results, strict=False):
                if not written_one.landed or not _made(written_one, here):
                    continue
                if not result.landed:
                    return f"{_named(result)} {_not_landed(result)}"
                if result.decision.rewritten:
                    return f"{_named(result)} was accepted with the reviewer's own text"
        if asker.session is self.run.session:  # (a fork starts from a later checkpoint)
            now, was = asker.states[0].tree.get(name), self.base.get(name)
            if now is not was and (now is None or was is None or now.data != was.data):
                return "it changed outside the review"
        return "an earlier operation on it did not land as written"


def next_marks(marks: Marks, turn: TurnResult, opening: bool = False) -> Marks:
    """The marks after ``turn`` of the authored run (see the module docstring);
    ``opening``: after its moves alone, as its file blocks start."""
    out: dict[str, str] | None = None  # (None: as ``marks``; {} may be what is left)
    results = turn.results
    for pos, op in execution_order(turn.turn):
        if opening and not _moving(op):
            break
        result = results[pos]
        if isinstance(op, ConsoleCommand):
            if result.landed:
                for old, new in result.outcome.changes:
                    if old is not None and new is not None:
                        carried = _carried(_now(marks, out), old, new)
                        out = out if carried is None else carried
                continue
            if result.outcome.rule in ("taken-back-in-reply", "nothing-to-undo") \
                    or op.name is CommandName.RM or op.literal:
                continue  # (nothing the author counted on: a removal leaves no content)
            out = dict(_now(marks, out))
            out[_destination(op)] = f"{_named(result)}, which did not run"
            continue
        path = _path(result)
        if path is None:
            continue
        if result.landed and isinstance(op, FullFile):
            if path in _now(marks, out):
                out = dict(_now(marks, out))
                del out[path]
        elif not result.landed and not op.literal:
            out = dict(_now(marks, out))
            out[path] = f"{_named(result)}, which did not land ({result.outcome.status})"
    return marks if out is None else out


def _now(marks: Marks, out: dict[str, str] | None) -> Marks:
    return marks if out is None else out


def marked(marks: Marks, path: str) -> str:
    """Why ``path``'s author's version is not known ("": it is)."""
    if not marks:
        return ""
    if EVERY in marks:
        return marks[EVERY]
    if path in marks:
        return marks[path]
    parts = path.split("/")
    return next((marks[folder] for folder in ("/".join(parts[:n]) for n in range(1, len(parts)))
                 if folder in marks), "")


def _carried(marks: Marks, old: str, new: str) -> dict[str, str] | None:
    """``marks`` after a move of ``old`` to ``new``: a mark on it, on a file in it or on
    a folder it is in goes with it, and one on the file it replaced (``:mv -f``) goes
    (None: nothing changes). A removal keeps its marks: an ``:unrm`` brings the same
    unknown file back."""
    if not marks:
        return None
    moving = [key for key in marks if key and (key == old or key.startswith(old + "/"))]
    above = "" if old in marks else marked({k: v for k, v in marks.items() if k}, old)
    replaced = new in marks and new != old
    if not moving and not above and not replaced:
        return None
    out = dict(marks)
    if replaced:
        del out[new]
    for key in moving:
        out[new + key[len(old):]] = out.pop(key)
    if above:
        out[new] = above
    return out


def _moving(op: object) -> bool:
    """Whether ``op`` is a command that runs before its reply's file blocks."""
    return isinstance(op, ConsoleCommand) and op.name is not CommandName.RM


def _moves_first(turn: Turn) -> bool:
    """Whether ``turn`` has commands that run before its file blocks."""
    return any(_moving(op) for op in turn.reply.ops)


def _moved_back(turn: TurnResult, name: str) -> str:
    """The name of the file at ``name`` after ``turn``'s moves before them."""
    steps = [pos for pos, op in execution_order(turn.turn) if _moving(op)]
    for pos in reversed(steps):
        result = turn.results[pos]
        if not result.landed:
            continue
        for old, new in result.outcome.changes:
            if old is not None and new is not None and (
                    name == new or name.startswith(new + "/")):
                name = old + name[len(new):]
                break
    return name


def _made(result: OpResult, path: str) -> bool:
    """Whether ``result`` wrote ``path`` (a file operation on it, or a command that
    moved or brought something there)."""
    if isinstance(result.op, ConsoleCommand):
        return any(new is not None and (path == new or path.startswith(new + "/"))
                   for _, new in result.outcome.changes)
    return _path(result) == path


def _written(result: OpResult) -> FileState | None:
    """The version a landed whole file wrote (a creation records none: its text)."""
    state = result.outcome.after_state
    op = result.op
    if state is None and isinstance(op, FullFile) and op.payload is None and op.mode is None:
        state = FileState.from_text(written_text(op.lines, op.final_newline))
    return state


def _destination(op: ConsoleCommand) -> str:
    """What a command that did not run would have made, as far as its words say: a
    ``:mv``'s or ``:rn``'s destination (and anything in it); else every path."""
    args = [arg for arg in op.args if arg != "-f"]
    if op.name in (CommandName.MV, CommandName.RN) and len(args) == 2:
        dest = normalize_or_none(args[1])
        if dest and dest != ".":
            return dest
    return EVERY


def _path(result: OpResult) -> str | None:
    op = result.op
    return None if isinstance(op, ConsoleCommand) else normalize_or_none(op.path)


def _named(result: OpResult) -> str:
    return f"turn {result.key[0]}'s {op_title(result.op)}"


def _not_landed(result: OpResult) -> str:
    verdict, status = result.decision.verdict, result.outcome.status
    if verdict is Verdict.REJECTED:
        return "was rejected"
    if status is Status.SKIPPED:
        return "is not accepted (yet)"
    return f"did not land ({status})"


# -- placing a shape's numbers ------------------------------------------------------------

def bind(shape: Shape, path: str, current: FileState, authored: AuthoredFile,
         differs: Callable[[], str]) -> tuple[Shape, str] | tuple[None, str]:
    """``shape`` with its numbers placed on ``current`` and a note (``""``: they stand
    as written), or None and why they cannot be placed (see the module docstring);
    ``differs`` says why ``current`` may not be the author's version, asked only then."""
    turn = f"turn {authored.turn}"
    if authored.unknown:
        return None, (f"the line numbers of this edit were read in {path} as {turn}'s author "
                      f"had it, after {authored.unknown}: what they name is not known, so "
                      "the edit is not applied to whatever stands at them now; send it as "
                      "a SEARCH/REPLACE edit, or ask again")
    if authored.own:
        return shape, ""
    state = authored.state
    if state is None or state.binary or state.text is None:
        return None, (f"{path} is not a file {turn}'s author had (the earlier turns as "
                      "written leave no such text file), so the line numbers of this edit "
                      "name nothing known; it is not applied to whatever stands at them now")
    if state is current or state.data == current.data:
        return shape, ""
    frames = Frames(state.lines, current.lines)
    carried = _carry(shape, frames, len(state.lines))
    why = differs()
    if isinstance(carried, str):
        return None, (f"{path} is not the file {turn} was written against ({why}), and "
                      f"{carried}: the edit is not applied to whatever stands at those "
                      "numbers now; check the lines and send it as a SEARCH/REPLACE edit, "
                      "or ask again")
    moved = [(a, b) for a, b in zip(_ranges(shape), _ranges(carried), strict=True) if a != b]
    if not moved:
        return carried, ""  # (it differs elsewhere: the lines addressed are where they were)
    return carried, (f"{path} is not the file {turn} was written against ({why}): "
                     + ", ".join(f"{_lines(a)} as its author read it {_lines(b, 'is')} now"
                                 for a, b in moved[:4])
                     + (f" (and {len(moved) - 4} more)" if len(moved) > 4 else "")
                     + ", found by a line diff")


def _ranges(shape: Shape) -> list[tuple[int, int]]:
    if isinstance(shape, Batch):
        return [(op.first.number, op.last.number) for op in shape.ops]
    return [(shape.first.number, shape.last.number)]


def _lines(span: tuple[int, int], verb: str = "") -> str:
    first, last = span
    named = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"{verb} {named}" if verb else named


def _carry(shape: Shape, frames: Frames, size: int) -> Shape | str:
    """``shape`` with every reference carried by ``frames``, or why one cannot be."""
    def ranged(first: LineRef, last: LineRef) -> tuple[LineRef, LineRef] | str:
        if not 1 <= first.number <= last.number <= size:
            return (f"lines {first.number}-{last.number} are not lines of the file as its "
                    f"author had it ({plural(size, 'line')})")
        shift = frames.shift(first.number, last.number)
        if shift is None:
            return _uncertain(frames, first.number, last.number)
        return _moved(first, shift), _moved(last, shift)

    if isinstance(shape, LineRange | Window):
        found = ranged(shape.first, shape.last)
        if isinstance(found, str):
            return found
        return replace(shape, first=found[0], last=found[1])
    ops = []
    for op in shape.ops:
        if op.is_insert:
            gap = op.first.number + (op.action is BatchAction.INSERT_AFTER)
            if not 1 <= gap <= size + 1:
                return (f"line {op.first.number} is not a line of the file as its author "
                        f"had it ({plural(size, 'line')})")
            shift = frames.shift(gap, gap - 1)
            if shift is None:
                return (f"the place between lines {gap - 1} and {gap} as its author read "
                        "them is not certain in it (a line diff does not pair the lines "
                        "around it)")
            ops.append(replace(op, first=_moved(op.first, shift), last=_moved(op.last, shift)))
            continue
        found = ranged(op.first, op.last)
        if isinstance(found, str):
            return found
        ops.append(replace(op, first=found[0], last=found[1]))
    return replace(shape, ops=tuple(ops))


def _moved(ref: LineRef, shift: int) -> LineRef:
    return ref if not shift else LineRef(ref.number + shift, ref.tag)


def _uncertain(frames: Frames, first: int, last: int) -> str:
    text = frames.source[first - 1].strip()
    what = f"line {first} ({text!r})" if first == last else \
        f"lines {first}-{last} (from {text!r})"
    return (f"{what} as its author read it cannot be placed in it for certain (changed, "
            "gone, or repeated, so a line diff does not pair it)")
