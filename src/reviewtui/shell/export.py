"""Which decisions an export reports, read from disk.

With a review state file (``--state``, else ``<session file>.review.json`` when it
exists) the export is the reviewer's draft: :meth:`Review.open` in dry-run mode with the
state read-only, so nothing is written, neither the project nor the state. Without one
it is what ``reviewtui apply --yes`` would write: every operation that applies.
"""

from __future__ import annotations

import copy
from pathlib import Path

from reviewtui.core.engine import (
    Decision,
    OpKey,
    OpResult,
    Policy,
    SessionRun,
    Verdict,
    evaluate_session,
)
from reviewtui.core.engine.checkout import is_form
from reviewtui.core.errors import (
    InputLimitError,
    ReviewtuiError,
    StateFormatError,
    UsageError,
)
from reviewtui.core.export import Accepted
from reviewtui.core.export.forms import landed_moves
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.outcome import FAILED, Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import replace
from reviewtui.core.review.log import DecisionItem
from reviewtui.shell.loader import LoadedSession, load_session, read_input
from reviewtui.shell.project import load_project
from reviewtui.shell.review import Review
from reviewtui.shell.state import (
    BlobStore,
    check_state_path,
    decode_state,
    parse_state_json,
)
from reviewtui.shell.statepath import blob_dir_for, review_files, state_path_for


def accepted_from_review(review: Review) -> Accepted:
    """The review's draft: only what the reviewer accepted (or edited) landed.

    The draft never evaluates a pending operation (its status is ``skipped``); one that
    fails is reported with its failure, as the workbench counts it, so the status line,
    ``S``, ``stats`` and every export agree on what failed. An accept that lands on screen
    only on top of an earlier pending operation is reported as waiting on it (accepted,
    not in the accepted result until that one is accepted).
    """
    state = str(review.state_path) if review.state_path is not None else None
    review.finish_evaluation()  # (the workbench's display may still be walking on)
    return with_git_facts(Accepted.of(_with_failures(review.draft, review.display),
                                       str(review.loaded.file), reviewed=True, state=state,
                                       taken_back=_taken_back(review)))


def with_git_facts(accepted: Accepted) -> Accepted:
    """A git session's accepted result with what git alone tells of its files: the base
    blob of each file its operations name whose base bytes hold a CRLF
    (``Accepted.base_blobs``: which blob a converting checkout's bytes stand for where no
    operation's section says; QA s41 helper-126 H1), and which files a landed operation
    left with CRLF ``git add`` turns LF whatever the index holds (``Accepted.always_text``:
    an explicit ``text`` or ``eol`` attribute; helper-127 H3), and the bytes of each blob
    a section found or left whose checkout is other bytes than its text with CRLF (mixed
    line endings, ``Accepted.found_blobs``; s42 helper-128 H2). One ``ls-tree`` of the base
    commit, one ``check-attr`` and one ``cat-file``, none for a session without such a
    file."""
    from reviewtui.shell.git import Repo, origin_of
    from reviewtui.shell.git_attribute_states import attr_values
    from reviewtui.shell.git_line_config import checkout_config

    origin = origin_of(Path(accepted.source))
    if origin is None or not origin.worktree:
        return accepted
    named: set[str] = set()
    written: set[str] = set()
    mixed: set[str] = set()  # blobs found whose checkout is not their text with CRLF
    moved: set[str] = set()  # where landed moves put a file
    for turn in accepted.run.turns:
        for result in turn.results:
            op = result.op
            if isinstance(op, ConsoleCommand):
                named.update(op.args)
                if isinstance(op.expect_form, bytes) and len(op.expect_blob) == 40:
                    mixed.add(op.expect_blob)  # (a deletion of such a blob)
                # A file moved on as it is keeps what it was left with: git add of the
                # whole result reads its attributes at the new path (QA s43 helper-131).
                moved.update(landed_moves((result,)))
                continue
            named.add(op.path)
            if op.git_forms is not None:
                named.add(op.git_forms.before_path)
                if isinstance(op.git_forms.checked_before, bytes):  # (landed or not: a
                    mixed.add(op.git_forms.before_blob)  # section's forms are its last's)
                if isinstance(op.git_forms.checked_out, bytes):
                    mixed.add(op.git_forms.after_blob)
            after = result.outcome.after_state
            if result.landed and op.path not in written and isinstance(after, FileState) \
                    and b"\r\n" in after.data:
                written.add(op.path)
    end = accepted.result
    written.update(path for path in moved if (state := end.get(path)) is not None
                   and b"\r\n" in state.data)
    base = accepted.base  # (each base file looked at once, not once per operation on it)
    wanted = {path: state.data for path in named if path and (state := base.get(path))
              is not None and b"\r\n" in state.data}  # path -> its bytes at the base
    mixed.discard("")
    if not wanted and not written and not mixed:
        return accepted
    try:
        repo = Repo.at(Path(origin.worktree))
        entries = repo.tree_entries(origin.base) if wanted else []
        blobs = {path: sha for mode, sha, path in entries if path in wanted and mode != "120000"}
        # A base blob the bytes do not tell (mixed line endings: a file moved away as it
        # is, then its path taken again, was exported with CRLF: QA s42 helper-130 H1).
        mixed.update(sha for path, sha in blobs.items()
                     if not any(is_form(kept, wanted[path], sha) for kept in (None, True)))
        values = attr_values(repo, sorted(written), ("text", "eol", "crlf")) if written else {}
        autocrlf = checkout_config(repo)[0] if written else "false"
        read = dict(zip(sorted(mixed), repo.blobs(sorted(mixed)), strict=True))
    except (ReviewtuiError, OSError):
        return accepted  # (as before: the forms the sections name alone)
    return replace(accepted, base_blobs=blobs, always_text=frozenset(
        path for path, found in values.items() if _text_on_add(found)), auto_text=frozenset(
        path for path, found in values.items() if _auto_on_add(found, autocrlf)),
        found_blobs={sha: data for sha, data in read.items() if blob_id(data) == sha})


def _auto_on_add(values: dict[bytes, bytes], autocrlf: str) -> bool:
    """Whether ``git add`` turns CRLF into LF in a text file with these attribute values
    unless the index holds a blob with CRLF at its path (git 2.39 convert.c
    ``has_crlf_in_index``): ``text=auto``, or no ``text``, ``eol`` nor ``crlf`` attribute
    and ``core.autocrlf`` true or input."""
    text = values.get(b"text", b"unspecified")
    if text != b"unspecified":
        return text == b"auto"
    return (autocrlf in ("true", "input") and values.get(b"eol", b"unspecified") == b"unspecified"
            and values.get(b"crlf", b"unspecified") == b"unspecified")


def _text_on_add(values: dict[bytes, bytes]) -> bool:
    """Whether ``git add`` turns every CRLF into LF in a file with these attribute values
    (git 2.39 convert.c: ``text``, an ``eol`` or the legacy ``crlf`` set; not ``text=auto``
    nor ``core.autocrlf`` alone, which keep the CRLF of a blob that holds it)."""
    text = values.get(b"text", b"unspecified")
    if text != b"unspecified":
        return text == b"set"
    return (values.get(b"eol") in (b"lf", b"crlf")
            or values.get(b"crlf") in (b"set", b"input"))


def _taken_back(review: Review) -> tuple[tuple[OpKey, str], ...]:
    """The saved accepts the opening took back, each with why: those that no longer land
    (``orphaned``), and those of files put back outside to the original (the opening's
    report): the export names them as left out (QA s36 helper-104: they went unsaid)."""
    taken: dict[OpKey, str] = {}
    for item in review.orphaned:
        if item.get("verdict") in ("accepted", "edited") and "reason" in item:
            taken[(int(item["turn"]), int(item["pos"]))] = (
                f"the saved accept does not land ({item['reason']}): taken back")
    if review.last_report is not None:
        for key, notice in review.last_report.reverted:
            # (each notice names its operation first, as DecisionItem.describe does: the
            # export names it its own way)
            named = DecisionItem.for_op(key, review._ops[key], Decision()).describe()
            taken[key] = notice.removeprefix(f"{named}: ")
    return tuple(sorted(taken.items()))


def _with_failures(draft: SessionRun, display: SessionRun) -> SessionRun:
    """The draft, its pending operations that fail carrying the display run's outcome
    (a failed operation lands in neither run: the draft's trees are unchanged), and its
    accepts that land only in the display (on what an earlier pending operation writes)
    carrying the display's outcome and ``waits_on`` (the draft's trees stay unchanged:
    the edit is not written, so no export puts it in the accepted result)."""
    pending: dict[str, list[str]] = {}  # path -> display-landed pending operations so far
    turns = []
    for mine, shown in zip(draft.turns, display.turns, strict=True):
        results = []
        for result, other in zip(mine.results, shown.results, strict=True):
            if result.outcome.status is Status.SKIPPED and other.outcome.status in FAILED:
                result = replace(result, outcome=other.outcome)
            elif _waiting(result, other):
                result = replace(result, outcome=other.outcome,
                                             waits_on=_named(pending, other))
            results.append(result)
            _note_pending(pending, shown.index, other)
        turns.append(replace(mine, results=tuple(results)))
    out = copy.copy(draft)
    out.turns = turns
    return out


def waits_on(draft: SessionRun, display: SessionRun, key: OpKey) -> str:
    """What the accept at ``key`` waits on, as the exports name it ("pending turn 1 Edit 1
    · a.py"); "" when it does not wait (it landed in the draft, or is not an accept)."""
    pending: dict[str, list[str]] = {}
    for mine, shown in zip(draft.turns, display.turns, strict=False):
        for result, other in zip(mine.results, shown.results, strict=True):
            if other.key == key:
                return _named(pending, other) if _waiting(result, other) else ""
            _note_pending(pending, shown.index, other)
    return ""


def held_by(draft: SessionRun, display: SessionRun, key: OpKey) -> str:
    """For an accept the draft lands (it is written) but the display does not (on top of
    what an earlier pending operation writes it is not found): that pending operation, as
    :func:`waits_on` names one ("pending turn 1 Edit 1 · a.py"); "" otherwise."""
    pending: dict[str, list[str]] = {}
    for mine, shown in zip(draft.turns, display.turns, strict=False):
        for result, other in zip(mine.results, shown.results, strict=True):
            if other.key == key:
                held = (result.landed and not other.landed
                        and result.decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED))
                return _named(pending, other) if held else ""
            _note_pending(pending, shown.index, other)
    return ""


def _waiting(result: OpResult, shown: OpResult) -> bool:
    """An accept in the draft that lands only in the display: on what a pending operation
    before it writes (the display counts pending operations that apply as accepted)."""
    return (result.decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
            and not result.landed and shown.landed)


def _note_pending(pending: dict[str, list[str]], turn: int, shown: OpResult) -> None:
    """Remember a pending operation the display landed, by its path."""
    if not shown.landed or shown.decision.verdict is not Verdict.PENDING:
        return
    op = shown.op
    if isinstance(op, Edit):
        pending.setdefault(op.path, []).append(f"turn {turn} Edit {op.label} · {op.path}")
    elif isinstance(op, FullFile):
        pending.setdefault(op.path, []).append(f"turn {turn} full file {op.path}")


def _named(pending: dict[str, list[str]], shown: OpResult) -> str:
    """The pending operation an accept waits on: the latest earlier one of its file."""
    path = getattr(shown.op, "path", None)
    before = pending.get(path, []) if isinstance(path, str) else []
    if not before:
        return "an earlier pending operation"
    more = f" (and {len(before) - 1} earlier)" if len(before) > 1 else ""
    return f"pending {before[-1]}{more}"


def _found_on_opening(review: Review) -> list[str]:
    """What the opening found changed on the project since the review last saw it (a
    file deleted outside, changed, put back), as notes: the export follows the review's
    decisions, which the disk may no longer hold (QA s36 helper-105: a file the review
    made, gone after ``git stash -u``, was exported with nothing said). The accepts it
    took back are named as left out instead (:func:`_taken_back`)."""
    report = review.last_report
    if report is None:
        return []
    told = {notice for _, notice in report.reverted}  # (noted with the same text)
    return [f"note: {path}: {text}" for path, text in report.events if text not in told]


def saved_root(state: Path) -> Path | None:
    """The project root a (non-scratch) review was saved for, when that folder exists and
    this machine sealed the state: another state's root is not read (a shipped one named
    the user's home, and an export printed its ``.ssh/config`` lines as context: QA s46
    helper-141 F9).

    Read here without side effects: a state file that cannot be read stops the export
    instead of being moved aside, as opening a review would do.
    """
    named = saved_root_name(state)
    if not named or not Path(named).is_dir():
        return None
    from reviewtui.shell.stateseal import can_seal, sealed_here

    try:
        ours = sealed_here(state.read_bytes()) or not can_seal()
    except OSError:
        return None
    return Path(named) if ours else None


def saved_root_name(state: Path) -> str:
    """The project root a review state names, as it names it ("" for none)."""
    check_state_path(state)  # a FIFO would hang the read, a device feed it, a link lead out
    try:
        saved = decode_state(parse_state_json(read_input(state, "review state"), str(state)),
                             BlobStore(blob_dir_for(state)))
    except InputLimitError:
        raise
    except (OSError, StateFormatError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot read the review state: {exc}", source=str(state),
                         rule="state") from None
    return saved.root or ""


def load_accepted(session: str | Path, root: str | Path | None = None, *,
                  state: str | Path | None = None,
                  format: str | None = None) -> tuple[Accepted, list[str]]:
    """The accepted result to export, and any problems the review state had (for stderr).

    The project is ``root``, else (with a state) the root the review was saved for, else
    the session directory's ``base/``, else an empty project.
    """
    loaded = load_session(session, format=format, root=root)
    state_path = (check_state_path(Path(state)) if state is not None
                  else state_path_for(loaded)[0])
    if state is not None and not state_path.is_file():
        raise UsageError(f"no review state at {state_path}", source=str(loaded.file),
                         rule="no-state")
    if state_path.is_file():
        named_root = saved_root(state_path)
        project = Path(root) if root is not None else named_root or loaded.base
        if project is None:
            raise UsageError("the review state needs the project it was made on: pass --root",
                             source=str(loaded.file), rule="root")
        # The state file names that folder: say which one is read (it is untrusted input).
        named = ([f"note: reading the project at {project}, the root the review state "
                  "names (--root reads another)"]
                 if root is None and named_root is not None and project == named_root else [])
        with Review.open(session, project, dry_run=True, state_path=state_path,
                         read_only_state=True, format=format, lazy=True) as review:
            return accepted_from_review(review), [*named, *review.state_problems,
                                                  *_found_on_opening(review)]
    base = Path(root) if root is not None else loaded.base
    tree_project = load_project(base, config_dirs=(loaded.directory,), lazy=True)
    rules = tree_project.rules
    if base is not None:  # as a review of it would refuse them (rule review-file)
        rules = replace(rules, own=review_files(base, loaded.file, None))
    run = evaluate_session(loaded.session, tree_project.tree, rules=rules,
                           policy=Policy.headless())
    return with_git_facts(Accepted.of(run, str(loaded.file))), []


def reviewed_base(loaded: LoadedSession, root: Path, state_path: Path, disk: Tree, *,
                  format: str | None = None) -> tuple[Tree, list[str]]:
    """``check``'s project when a review of the session was saved (``state_path``) for
    ``root``: the files as they were before that review wrote to them (the bases it
    recorded, over the disk for every other path), and the notes to print.

    A session whose review wrote it (``apply --state``, a live agent session written as it
    was accepted) no longer applies to the disk, which holds its result: checked there,
    every edit it wrote read as not found. Nothing is written (the review opens dry-run,
    its state read-only). ``check`` needs no state: one that cannot be read (not a regular
    file, damaged, over a limit) or that was saved for another project leaves ``disk`` as
    it is, with a note, whatever the reason (QA pass s28 found three outcomes by kind).
    """
    try:
        named_root = saved_root(state_path)
        if named_root is None or named_root.resolve() != root.resolve():
            where = f" ({named_root})" if named_root is not None else ""
            return disk, [f"note: the review state {state_path} was saved for another "
                          f"project{where} or not on this machine: checking {root} as it is"]
        with Review.open(loaded.file, root, dry_run=True, state_path=state_path,
                         read_only_state=True, format=format, lazy=True) as review:
            base, problems = review.base, list(review.state_problems)
            # What the opening found changed on disk since the review last saw it.
            since = sorted({path for path, _ in review.last_report.events}
                           if review.last_report is not None else set())
    except ReviewtuiError as exc:
        return disk, [f"note: the review state {state_path} cannot be read ({exc.message}): "
                      f"checking {root} as it is"]
    # By content: the disk's files are read lazily, the review's bases are not, so the
    # same bytes are other objects (the note said so for a review that wrote nothing).
    if not any(_differ(base.get(path), disk.get(path)) for path in base.changed_objects(disk)):
        return disk, problems
    changed = ""
    if since:  # (QA pass s28: "applies" could be far from what apply does on that disk)
        named = ", ".join(since[:5]) + (f" and {len(since) - 5} more" if len(since) > 5 else "")
        changed = f"; {named} changed on disk since that review"
    return base, [*problems, f"note: checked against the files as they were before the review "
                  f"saved in {state_path} wrote to them{changed} (--from-disk: against the "
                  "disk as it is)"]


def _differ(one: FileState | None, other: FileState | None) -> bool:
    if one is None or other is None:
        return one is not other
    return one.data != other.data or one.mode != other.mode
