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

Within a turn the numbers address the file as the turn started
(``line_edits.evaluate_shaped``): that is the version looked up here.
"""

from __future__ import annotations

from _thread import RLock
from collections.abc import Callable, Mapping

from reviewtui.core.engine.decisions import Policy, Verdict
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.order import execution_order
from reviewtui.core.engine.results import OpResult, Rules, TurnResult, op_title
from reviewtui.core.model.edit_shapes import Batch, BatchAction, LineRange, Shape, Window
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import CommandName, ConsoleCommand, FullFile, Session
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
            run.replace_session(session, from_turn)
            self._positions = {}
            keep = next((pos for pos, turn in enumerate(session.turns)
                         if turn.index >= from_turn), len(session.turns))
            del self._marks[keep + 1 :]
        return self

    def file(self, index: int, path: str) -> AuthoredFile:
        """``path`` as the author of the turn numbered ``index`` had it."""
        with self._lock:
            run = self.run
            if not self._positions:
                self._positions = {turn.index: pos for pos, turn in enumerate(run.session.turns)}
            pos = self._positions.get(index)
            if pos is None:
                return AuthoredFile(index, None, unknown=f"turn {index} is not in the session")
            done = len(run.turns)
            if done < pos:
                turns = run.session.turns
                run.evaluate(from_turn=turns[done].index, upto=turns[pos - 1].index)
            marks = self._marks_at(pos)
            state = run.states[pos].tree.get(path)
        return AuthoredFile(index, state, unknown=marked(marks, path))

    def _marks_at(self, pos: int) -> Marks:
        marks, turns = self._marks, self.run.turns
        while len(marks) <= pos:
            marks.append(next_marks(marks[-1], turns[len(marks) - 1]))
        return marks[pos]

    def differs(self, index: int, path: str, asker: TurnSteps) -> str:
        """Why ``asker``'s ``path`` at the turn numbered ``index`` may not be the
        author's: the earliest operation on it before that turn that landed here and not
        there (or with other text), or a change outside (another base)."""
        with self._lock:
            written = [turn for turn in self.run.turns if turn.index < index]
        theirs = {turn.index: turn for turn in asker.turns if turn.index < index}
        for mine in written:
            turn = theirs.get(mine.index)
            if turn is None:
                continue
            for result, written_one in zip(turn.results, mine.results, strict=False):
                written_landed = written_one.landed
                if not written_landed or _path(result) != path:
                    continue
                if not result.landed:
                    return f"{_named(result)} {_not_landed(result)}"
                if result.decision.rewritten:
                    return f"{_named(result)} was accepted with the reviewer's own text"
        if asker.session is self.run.session:  # (a fork starts from a later checkpoint)
            now, was = asker.states[0].tree.get(path), self.base.get(path)
            if now is not was and (now is None or was is None or now.data != was.data):
                return "it changed outside the review"
        return "an earlier operation on it did not land as written"


def next_marks(marks: Marks, turn: TurnResult) -> Marks:
    """The marks after ``turn`` of the authored run (see the module docstring)."""
    out: dict[str, str] | None = None
    results = turn.results
    for pos, op in execution_order(turn.turn):
        result = results[pos]
        if isinstance(op, ConsoleCommand):
            if result.landed:
                for old, new in result.outcome.changes:
                    if old is not None and new is not None:
                        out = _carried(out or marks, old, new) or out
                continue
            if result.outcome.rule in ("taken-back-in-reply", "nothing-to-undo") \
                    or op.name is CommandName.RM or op.literal:
                continue  # (nothing the author counted on: a removal leaves no content)
            out = dict(out or marks)
            out[_destination(op)] = f"{_named(result)}, which did not run"
            continue
        path = _path(result)
        if path is None:
            continue
        if result.landed and isinstance(op, FullFile):
            if path in (out or marks):
                out = dict(out or marks)
                del out[path]
        elif not result.landed and not op.literal:
            out = dict(out or marks)
            out[path] = f"{_named(result)}, which did not land ({result.outcome.status})"
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
    a folder it is in goes with it (None: nothing changes). A removal keeps its marks:
    an ``:unrm`` brings the same unknown file back."""
    if not marks:
        return None
    moving = [key for key in marks if key and (key == old or key.startswith(old + "/"))]
    above = "" if old in marks else marked({k: v for k, v in marks.items() if k}, old)
    if not moving and not above:
        return None
    out = dict(marks)
    for key in moving:
        out[new + key[len(old):]] = out.pop(key)
    if above:
        out[new] = above
    return out


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
