"""Which blob a file's bytes stand for, at each moment of a git range's review.

On a checkout that converts line endings (``core.autocrlf``, ``eol=crlf``) one CRLF file
on disk is git's checkout of an LF blob, and also of the CRLF blob of the same text; a
patch must carry the blob. Which one the bytes stand for is told by the operation that
left them there (its section names the blob it leaves) or by the one that finds them (the
blob its section finds), so it holds for a moment of the range, not for the whole run: the
same path may hold the same bytes for an LF blob in one commit and a CRLF blob three
commits later (QA s40 helper-124 H2: the export took the later file for the earlier blob,
exit 0).

:class:`FormsTimeline` keeps, per path, the forms known for each stretch of the run's
checkpoints: a write starts a new stretch with what it left, a move carries the moved
file's forms to its new path, a deletion ends them; what an operation finds adds to the
stretch in force when its turn starts (for a path nothing touched before, that is the
base's). A patch of the whole range reads its old side at the base and its new side at the
end (:meth:`FormsTimeline.whole`); a series' mail, the moments around its commit's turns
(:meth:`FormsTimeline.turns`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Mapping

from reviewtui.core.engine import OpResult, SessionRun, TurnResult, execution_order
from reviewtui.core.engine.checkout import is_checkout_of, is_form
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.records import CommandName, ConsoleCommand, Edit, FullFile, GitForms
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import record

Pair = tuple[str, bytes]  # (a path, the bytes a git checkout wrote there)
Forms = Mapping[Pair, bytes]  # -> the blob git stores for them


@record(frozen=True, slots=True)
class Stored:
    """The forms each side of a patch is read by: ``old`` for what it removes, ``new``
    for what it leaves."""

    old: Forms
    new: Forms

    def without(self, paths: Collection[str]) -> Stored:
        """The same, knowing no form of ``paths`` (told another way)."""
        if not paths:
            return self
        hidden = frozenset(paths)
        return Stored(_Hidden(self.old, hidden), _Hidden(self.new, hidden))

    def without_old(self, paths: Collection[str]) -> Stored:
        """The same, knowing no form of ``paths`` on the old side."""
        if not paths:
            return self
        return Stored(_Hidden(self.old, frozenset(paths)), self.new)


NONE = Stored({}, {})


class _Hidden(Mapping[Pair, bytes]):
    def __init__(self, forms: Forms, hidden: frozenset[str]) -> None:
        self._forms, self._hidden = forms, hidden

    def __getitem__(self, key: Pair) -> bytes:
        if key[0] in self._hidden:
            raise KeyError(key)
        return self._forms[key]

    def __iter__(self) -> Iterator[Pair]:
        return (key for key in self._forms if key[0] not in self._hidden)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Moment(Mapping[Pair, bytes]):
    """The forms in force at one checkpoint of a :class:`FormsTimeline`."""

    def __init__(self, timeline: FormsTimeline, at: int) -> None:
        self._timeline, self._at = timeline, at

    def __getitem__(self, key: Pair) -> bytes:
        return self._timeline.forms(key[0], self._at)[key[1]]

    def __iter__(self) -> Iterator[Pair]:
        for path in self._timeline.paths():
            for data in self._timeline.forms(path, self._at):
                yield path, data

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _WholeEnd(_Moment):
    """The forms at the end of the run for the whole range's patch
    (:meth:`FormsTimeline.whole_end` first)."""

    def __getitem__(self, key: Pair) -> bytes:
        found = self._timeline.whole_end(key[0])
        return found[key[1]] if key[1] in found else super().__getitem__(key)

    def __iter__(self) -> Iterator[Pair]:
        for path in self._timeline.paths():
            found = self._timeline.whole_end(path)
            yield from ((path, data) for data in found)
            yield from ((path, data) for data in self._timeline.forms(path, self._at)
                        if data not in found)


class FormsTimeline:
    """The forms of a run's files, per path and stretch of checkpoints (module doc):
    binary files (``core/model/records.py`` ``CheckoutForms``: a binary patch carries blob
    ids, which ``git apply`` checks against the file as git stores it, converting the file
    on disk first), and text a git range left with CRLF where git stores LF
    (:func:`_stored_text`). Checkpoint ``k`` is the tree before the run's ``k``-th turn (0:
    the base). ``base_blobs``, ``always_text``: see ``Accepted``."""

    def __init__(self, run: SessionRun, base_blobs: Mapping[str, str] | None = None,
                 always_text: Collection[str] = (),
                 found_blobs: Mapping[str, bytes] | None = None,
                 auto_text: Collection[str] = ()) -> None:
        self._always_text = always_text
        self._auto_text = auto_text
        self._found_blobs = found_blobs or {}
        self._positions = {turn.index: at for at, turn in enumerate(run.turns)}
        self._count = len(run.turns)
        # path -> (first checkpoint, bytes -> blob) of each stretch, in order
        self._history: dict[str, list[tuple[int, dict[bytes, bytes]]]] = {}
        # Path -> (a stretch's start, the bytes there): a result git add stores by its
        # index alone (:func:`_by_index`), carried with the stretch through moves. A
        # commit per turn reads the index before its turn (the stretch's forms say
        # that); the whole range's one commit, the base's, at the path where the file
        # ends (:meth:`whole_end`).
        self._by_index: dict[str, tuple[int, bytes]] = {}
        self._trees = [state.tree for state in run.states]  # (checkpoint k's tree)
        if base_blobs and run.states:
            # The base's blobs, where a git session knows them: a file moved away as it
            # is that no later operation reads has no other (its bytes went out as the
            # checkout's CRLF: QA s41 helper-126 H1).
            base = run.states[0].tree
            for path, blob in base_blobs.items():
                state = base.get(path)
                if state is not None and b"\r\n" in state.data and blob_id(state.data) == blob:
                    # The bytes are the blob: told, so that a later section's blob found
                    # for the same bytes (its commit's before, which a decision rejected
                    # here) does not rewrite the base's (a CRLF blob made LF by a commit
                    # rejected, then edited: the patch took the base for the LF blob and
                    # did not apply, nor did the series: qa55 fuzz seeds 320, 337, older).
                    self._now(path).setdefault(state.data, state.data)
                elif state is not None and is_form(True, state.data, blob):
                    self._now(path).setdefault(state.data, state.data.replace(b"\r\n", b"\n"))
                elif state is not None and (known := self._found_blobs.get(blob)) is not None:
                    self._now(path).setdefault(state.data, known)  # (mixed line endings)
        for at in range(self._count):
            self._found(run, at)
            self._left(run, at)

    def forms(self, path: str, at: int) -> Mapping[bytes, bytes]:
        """Bytes -> blob for ``path`` at checkpoint ``at``."""
        stretches = self._history.get(path)
        if not stretches:
            return {}
        k = bisect_right(stretches, at, key=lambda stretch: stretch[0]) - 1
        return stretches[k][1] if k >= 0 else {}

    def paths(self) -> Iterable[str]:
        return self._history.keys()

    def whole(self) -> Stored:
        """The base's forms and the end's: a patch of the whole range."""
        return Stored(_Moment(self, 0), _WholeEnd(self, self._count))

    def whole_end(self, path: str) -> Mapping[bytes, bytes]:
        """What the whole range's patch reads at ``path``'s end instead of the last
        stretch's forms: a result git add stores by its index alone, as ``git add -A`` of
        the reviewed checkout does (the base's index at ``path``), where git's attributes
        for ``path`` were read."""
        data = self._by_index_now(path)
        if data is None:
            return {}
        if path in self._always_text or (path in self._auto_text
                                         and not self._crlf_in_index(0, path)):
            return {data: data.replace(b"\r\n", b"\n")}
        return {data: data} if path in self._auto_text else {}

    def _by_index_now(self, path: str) -> bytes | None:
        """The bytes marked at ``path`` (``_by_index``) where its last stretch holds them."""
        mark = self._by_index.get(path)
        stretches = self._history.get(path)
        return mark[1] if mark is not None and stretches and stretches[-1][0] == mark[0] \
            else None

    def _crlf_in_index(self, at: int, path: str) -> bool:
        """Whether git's index holds a blob with CRLF at ``path`` at checkpoint ``at``
        (what git add of a commit made there reads; git 2.39 ``has_crlf_in_index``): the
        file's blob by the forms then in force, else its bytes."""
        state = self._trees[at].get(path) if at < len(self._trees) else None
        if state is None:
            return False
        blob = self.forms(path, at).get(state.data, state.data)
        return b"\r\n" in blob and _git_text(blob)

    def turns(self, first: int, last: int) -> Stored:
        """The forms before the turn numbered ``first`` and after the one numbered ``last``:
        the patch of those turns (a commit's, in one or more parts)."""
        start, end = self._positions.get(first), self._positions.get(last)
        if start is None or end is None:
            return NONE
        return Stored(_Moment(self, start), _Moment(self, end + 1))

    def _now(self, path: str) -> dict[bytes, bytes]:
        """The forms of ``path``'s last stretch (from a checkpoint not after the one being
        read: the run is read in order)."""
        return self._history.setdefault(path, [(0, {})])[-1][1]

    def _start(self, path: str, at: int, forms: dict[bytes, bytes]) -> None:
        """A new stretch of ``path`` from checkpoint ``at`` (another operation of the same
        turn replaces the one it started)."""
        stretches = self._history.setdefault(path, [(0, {})])
        if stretches[-1][0] == at:
            stretches[-1] = (at, forms)
        else:
            stretches.append((at, forms))

    def _found(self, run: SessionRun, at: int) -> None:
        """What turn ``at``'s operations found at its start: the forms then in force."""
        if at >= len(run.states):
            return
        tree = run.states[at].tree
        turn = run.turns[at]
        moved_to = landed_moves(turn.results)  # new path -> old: where a file is at the start
        sections = _section_forms(turn)
        for result in turn.results:
            op = result.op
            if isinstance(op, (Edit, FullFile)):
                # The old side of a patch (left in the checkout's CRLF, the patch rewrote
                # every line and did not apply to A's blobs: QA s39 helper-119 F5), by the
                # section's forms (its last operation's, which may not land).
                if (was := _stored_before(op.git_forms or sections.get(op.path), op.path,
                                          tree, self._found_blobs)) is not None:
                    self._now(was[0][0]).setdefault(was[0][1], was[1])
                if isinstance(op, FullFile) and op.payload is not None \
                        and (checkout := op.payload.checkout) is not None:
                    # (a file renamed with a change is the ``:mv`` and this: at the turn's
                    # start it is at the old path, QA s41 helper-126 M3)
                    self._now(moved_to.get(op.path, op.path)).setdefault(
                        checkout.old, checkout.old_blob)
            elif isinstance(op, ConsoleCommand) and op.path and len(op.expect_blob) == 40:
                # A deletion's removed side likewise (helper-121 F5: CRLF lines removed).
                gone = tree.get(op.path)
                if gone is not None and is_form(True, gone.data, op.expect_blob):
                    self._now(op.path).setdefault(gone.data, gone.data.replace(b"\r\n", b"\n"))
                elif gone is not None and gone.data == op.expect_form \
                        and (blob := self._found_blobs.get(op.expect_blob)) is not None:
                    self._now(op.path).setdefault(gone.data, blob)  # (mixed line endings)

    def _left(self, run: SessionRun, at: int) -> None:
        """What turn ``at``'s landed operations left, in the order they ran."""
        after = at + 1
        changes = list(landed_changes(run.turns[at]))
        # (git's index before the turn, read before its first write starts a stretch)
        end = self._trees[after] if after < len(self._trees) else None
        indexed = {op.path for result, _forms in changes
                   if isinstance(op := result.op, (Edit, FullFile)) and op.path in self._auto_text
                   and self._crlf_in_index(at, op.path)}
        for result, forms in changes:
            op = result.op
            if isinstance(op, (Edit, FullFile)):
                source = op.git_forms.before_path if op.git_forms is not None else ""
                if source and source != op.path and (end is None or source not in end):
                    # (not where the rename was rejected and the file stays: its forms
                    # were forgotten, and the whole patch stored it with the checkout's
                    # CRLF, exit 0: QA s43 helper-132 H1, older)
                    self._start(source, after, {})
                auto, always = op.path in self._auto_text, op.path in self._always_text
                left = _left_forms(op, result, forms, self._found_blobs, always_text=always,
                                   auto_text=auto, crlf_in_index=op.path in indexed)
                state = result.outcome.after_state
                if state is not None and b"\r\n" in state.data:
                    # Bytes no form tells are their blob: told, as the base's are (a
                    # later section finding the same CRLF bytes for an LF blob, behind an
                    # endings change rejected, made the series store this turn's file LF
                    # where the review's commit keeps its CRLF, exit 0).
                    left.setdefault(state.data, state.data)
                self._start(op.path, after, left)
                self._by_index.pop(op.path, None)
                if _by_index(forms, state, always_text=always, auto_text=auto):
                    # (a CRLF blob renamed with a change, or added by an earlier commit,
                    # and a hunk rejected: the whole patch kept the CRLF git add -A of
                    # the reviewed checkout drops, exit 0: QA s42 helper-128 H4, older)
                    assert state is not None
                    self._by_index[op.path] = (after, state.data)
            elif isinstance(op, ConsoleCommand):
                moves = landed_moves((result,))
                for new, old in moves.items():
                    if new != old:
                        # A file moved as it is holds the same blob: the stretch goes on
                        # at the new path, one set of forms for both, so that what a
                        # later operation finds there is known of the old path before the
                        # move too, through any chain of moves (the rename's removed side
                        # was left in the checkout's CRLF and the patch did not apply to
                        # A: QA s40 helper-124 H3, H6). What a later commit leaves there
                        # is a stretch of its own (the same bytes stood for another blob
                        # after a commit turning the moved CRLF blob LF: helper-125 H3).
                        carried = self._by_index_now(old)
                        self._start(new, after, self._now(old))
                        self._start(old, after, {})
                        self._by_index.pop(new, None)
                        if carried is not None:
                            self._by_index[new] = (after, carried)
                if not moves:  # a deletion, or a command whose result no form follows
                    for path in op.args:
                        self._start(path, after, {})


def landed_changes(turn: TurnResult) -> Iterator[tuple[OpResult, GitForms | None]]:
    """A turn's landed operations in the order they ran, each file operation with its
    section's forms (:func:`_section_forms`); what the exports follow a file's blob
    through. A mode changed is left out: its bytes, and their blob, stay (QA s41
    helper-127 H1: a chmod's file went out with the checkout's CRLF; a mode change after
    an edit of the section, which carries its forms, made the whole patch forget the
    blob the edit left, exit 0: s42 fuzz seed 4013, older)."""
    sections = _section_forms(turn)
    for pos, op in execution_order(turn.turn):
        result = turn.results[pos]
        if not result.landed or (isinstance(op, FullFile) and op.payload is not None
                                 and op.payload.kind == "keep"):
            continue
        forms = None
        if isinstance(op, (Edit, FullFile)):
            forms = op.git_forms or sections.get(op.path)
            before, after = result.outcome.before_state, result.outcome.after_state
            if forms is None and isinstance(before, FileState) \
                    and isinstance(after, FileState) and before.data == after.data:
                continue
        yield result, forms


def _section_forms(turn: TurnResult) -> dict[str, GitForms]:
    """The forms of each section of a turn's git diff, by path: only a section's last
    operation carries them (``importers/common.py``), and the others' results are its file
    too (with the last hunk rejected, the file was exported with its checkout's CRLF on
    every line, exit 0: QA s41 helper-126 H3). Read once a turn: a commit of thousands of
    hunks would look through its operations for each."""
    return {op.path: op.git_forms for result in turn.results
            if isinstance(op := result.op, (Edit, FullFile)) and op.git_forms is not None}


def _left_forms(op: Edit | FullFile, result: OpResult, forms: GitForms | None,
                found_blobs: Mapping[str, bytes], *, always_text: bool, auto_text: bool,
                crlf_in_index: bool) -> dict[bytes, bytes]:
    """The forms of the file a landed operation of a section with ``forms`` left (none:
    its bytes are the blob; ``always_text``, ``auto_text``, ``found_blobs``: see
    ``Accepted``; ``crlf_in_index``: git's index before the turn holds a blob with CRLF
    at its path, what git add of a commit of the turn reads)."""
    state = result.outcome.after_state
    if state is None:
        return {}
    found: dict[bytes, bytes] = {}
    if (text := _stored_text(forms, state, always_text, auto_text, crlf_in_index)) is not None:
        found[text[0]] = text[1]
    elif result.outcome.stored is not None:
        found[state.data] = result.outcome.stored
    elif forms is not None and isinstance(forms.checked_out, bytes) \
            and forms.checked_out == state.data and forms.after_blob in found_blobs:
        found[state.data] = found_blobs[forms.after_blob]  # (mixed line endings)
    if isinstance(op, FullFile) and op.payload is not None \
            and (checkout := op.payload.checkout) is not None \
            and checkout.new is not None and checkout.new_blob is not None:
        found[checkout.new] = checkout.new_blob
    return found


def landed_moves(results: Iterable[OpResult]) -> dict[str, str]:
    """New path -> old path of each landed rename of a git range (a literal ``:mv``)."""
    return {op.args[1]: op.args[0] for result in results
            if isinstance(op := result.op, ConsoleCommand) and result.landed and op.literal
            and op.name is CommandName.MV and len(op.args) == 2}


def removed_blobs(results: Iterable[OpResult]) -> dict[str, str]:
    """Path -> the blob each landed deletion of a git range (``:rm`` naming its blob in
    full) removed."""
    return {op.args[0]: op.expect_blob for result in results
            if isinstance(op := result.op, ConsoleCommand) and result.landed and op.literal
            and op.name is CommandName.RM and len(op.args) == 1
            and len(op.expect_blob) == 40}


def _by_index(forms: GitForms | None, state: FileState | None, *, always_text: bool,
              auto_text: bool) -> bool:
    """Whether git add stores this result of a section with ``forms`` by its index
    alone: text with CRLF that is no blob the section left, under ``text=auto`` or
    ``core.autocrlf`` (git keeps the CRLF where its index holds a blob with CRLF at the
    path, and turns it LF anywhere else: :func:`_stored_text`)."""
    return (forms is not None and state is not None and auto_text and not always_text
            and b"\r\n" in state.data and _git_text(state.data)
            and not is_checkout_of(forms, state.data))


def _stored_text(forms: GitForms | None, state: FileState | None, always_text: bool = False,
                 auto_text: bool = False, crlf_in_index: bool = False
                 ) -> tuple[bytes, bytes] | None:
    """(the bytes, the blob) of a text file a git range left as a checkout writes it with
    CRLF where git stores LF (``GitForms``): a patch of it carries the blob, as ``git
    diff`` does (a new file exported with CR in its lines was written CRLF by ``git
    apply`` on a checkout that does not convert: QA s38 helper-118 F6)."""
    if forms is None or state is None:
        return None
    if always_text and b"\r\n" in state.data and not is_checkout_of(forms, state.data):
        # Another result than the blob (a hunk rejected, the reviewer's text) under an
        # explicit text attribute: git add stores every CRLF as LF, also where the blob
        # found held CRLF (it was exported with CRLF, exit 0: QA s41 helper-127 H3). Not
        # git's checkout of the blob left (a blob of mixed endings, all CRLF on disk, was
        # stored LF, exit 0: QA s42 helper-128 H3, new in d3bdf55).
        return state.data, state.data.replace(b"\r\n", b"\n")
    if not crlf_in_index and _by_index(forms, state, always_text=always_text,
                                       auto_text=auto_text):
        # Another result than the blob left, under ``text=auto``/``core.autocrlf``, where
        # git's index (before the turn: the whole patch reads the base's, ``whole_end``)
        # holds no blob with CRLF at that path: git add stores it LF, also where the blob
        # the section found held CRLF (a file renamed, or added by an earlier commit of
        # the range: it was exported CRLF, exit 0: QA s42 helper-128 H4).
        return state.data, state.data.replace(b"\r\n", b"\n")
    if forms.checked_out is not True:
        return None
    # Another result (a hunk rejected, the reviewer's own text) on a file git checks out
    # with CRLF where it stores LF: stored as git add stores it, LF (it was exported with
    # CRLF lines, a blob git add never makes, exit 0: QA s40 helper-124 H5). Not where
    # git's index holds a blob with CRLF at that path: git add then keeps the CRLF. (Where
    # git's attributes went unread, the blob the section found tells, as before s43.)
    if not is_form(True, state.data, forms.after_blob) and (
            not _git_text(state.data) or b"\r\n" not in state.data or crlf_in_index
            or (not auto_text and forms.before_blob and forms.checked_before is not True)):
        return None
    return state.data, state.data.replace(b"\r\n", b"\n")


# The bytes git counts as printable in its text statistics (convert.c ``gather_stats``):
# all from a blank up but DEL, and backspace, tab, escape and form feed; CR and LF apart.
_PRINTABLE = bytes(range(32, 127)) + bytes(range(128, 256)) + b"\b\t\x1b\x0c\r\n"


def _git_text(data: bytes) -> bool:
    """Whether git's line-ending conversion takes ``data`` for text (``convert_is_binary``
    false): no lone CR, no NUL, and at most one unprintable byte per 128 printable. Git
    stores anything else as it is under ``text=auto``/``core.autocrlf`` (a lone CR in
    the reviewer's text was exported LF: QA s40 helper-125 H2)."""
    crlf = data.count(b"\r\n")
    if data.count(b"\r") != crlf or b"\0" in data:
        return False
    unprintable = len(data.translate(None, _PRINTABLE)) - (data.endswith(b"\x1a"))
    printable = len(data) - unprintable - 2 * crlf - (data.count(b"\n") - crlf)
    return (printable >> 7) >= unprintable


def _stored_before(forms: GitForms | None, path: str, tree: Tree,
                   found_blobs: Mapping[str, bytes]) -> tuple[tuple[str, bytes], bytes] | None:
    """((path, its bytes), the blob) of the file a section with ``forms`` on ``path`` finds
    in ``tree`` (the turn's start) where that is git's checkout of the blob before: with
    CRLF where the blob has LF, or other bytes (mixed line endings) whose blob git gave
    (``found_blobs``; a commit making such a blob all LF was left out of both exports,
    exit 0: QA s42 helper-128 H2)."""
    if forms is None or forms.checked_before is None or not forms.before_blob:
        return None
    path = forms.before_path or path
    state = tree.get(path)
    if state is None or not is_form(forms.checked_before, state.data, forms.before_blob):
        return None
    if forms.checked_before is True:
        return (path, state.data), state.data.replace(b"\r\n", b"\n")
    blob = found_blobs.get(forms.before_blob)
    return None if blob is None else ((path, state.data), blob)
