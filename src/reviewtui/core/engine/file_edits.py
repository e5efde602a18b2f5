"""Evaluating file operations (search/replace edits and full files) against a tree.

Each function returns an ``Outcome`` for the reviewer and, when the operation can
land (or could be forced to), the file's new state. Nothing is decided here: the
turn evaluator applies a proposal only when the decision and policy allow it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from reviewtui.core.engine import placement
from reviewtui.core.engine.history import ReadNow
from reviewtui.core.errors import PathRefused
from reviewtui.core.match import match_edit
from reviewtui.core.match.landing import PUNCTUATION
from reviewtui.core.model.outcome import Diagnosis, MatchResult, Outcome, Status
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import (
    ReservedRules,
    escapes_via_symlink,
    link_on_path,
    normalize_path,
    review_file_of,
    spelling_refusal,
    unread_dir_of,
)
from reviewtui.core.record import field, record
from reviewtui.core.record import replace as replace_record
from reviewtui.core.text.markers import find_placeholder
from reviewtui.core.text.plural import plural

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.landings import Landing
    from reviewtui.core.model.deferred import deferred
else:
    def deferred(*args):  # loaded by the first failed SEARCH (start-up)
        global deferred
        from reviewtui.core.model.deferred import deferred
        return deferred(*args)

FORCEABLE_RULES = frozenset({"duplicate-line"})
# The method of a placed edit's outcome: core/engine/placed.py's PLACED, which is loaded
# for the reviewer's placements alone (tests/cli/test_cli_startup_lazy.py holds them equal).
_PLACED = "placed"


@record(frozen=True, slots=True)
class Proposal:
    """What an operation would do to one file, if it lands."""

    path: str
    state: FileState


@record(frozen=True, slots=True)
class FileContext:
    """What a turn's file operations are checked against, besides the tree."""

    need: tuple[str, ...] = ()
    need_line: bool = False  # whether the reply has a Need: line at all (Aider's have none)
    reserved: ReservedRules = field(default_factory=ReservedRules)
    symlinks: Mapping[str, str] = field(default_factory=dict)
    root: str | None = None  # the absolute root, for absolute symlink targets
    moved: Mapping[str, str] = field(default_factory=dict)  # old path -> where it went
    history: Callable[[str], Sequence[Sequence[str]]] = lambda _path: ()
    # Where the previous edit of each path in this turn ended (for ``Edit.follows``).
    cursor: Mapping[str, int] = field(default_factory=dict)
    # Where this turn's earlier operations landed on each path, in order (plain line
    # numbers of a later edit are placed by them: ``core/engine/landings.py``).
    landed: Mapping[str, Sequence[Landing]] = field(default_factory=dict)
    # A failed SEARCH is diagnosed when its outcome's message, hint or candidates are
    # first read (``core/model/deferred.py``); ``history`` must then hold on to its trees.
    defer: bool = False
    spellings: Mapping[str, str] = field(default_factory=dict)  # see Rules.spellings
    own: Mapping[str, str] = field(default_factory=dict)  # see Rules.own


def refused(path: str, rule: str, message: str, *,
            before_state: FileState | None = None) -> Outcome:
    return Outcome(Status.REFUSED, rule=rule, message=message, path=path,
                   forceable=rule in FORCEABLE_RULES, before_state=before_state)


@functools.lru_cache(maxsize=8192)
def _normalized(raw: str) -> str:
    # Pure and asked for every operation of every evaluation: the same few hundred paths.
    return normalize_path(raw)


@functools.lru_cache(maxsize=8192)
def _generated_label(reserved: ReservedRules, path: str) -> str | None:
    return reserved.generated_by(path)  # glob matching over the built-in list, once a path


def check_path(raw: str, ctx: FileContext, *, link_ok: bool = False,
               exact: bool = False, names_file: bool = False) -> str | Outcome:
    """The normalised path, or a refusal naming the rule it breaks.

    ``names_file``: the path is a file's to write or edit; one ending in a slash names a
    folder and is refused (``newdir/`` was written as a file named ``newdir``: QA pass 85).

    ``link_ok``: the path itself may be a link (an operation that makes, retargets or
    removes the link); a link on its folders is refused all the same. ``exact``: the
    path comes from a format that names files exactly (an operation marked ``literal``),
    so one the canonical spelling would turn into another file's is refused.
    """
    if names_file and raw.rstrip().endswith(("/", "\\")):
        return refused(raw, "folder-path", f"{raw.strip()!r} ends with a slash, so it names a "
                       "folder: a file is written or edited by its own name")
    try:
        path = _normalized(raw)
    except PathRefused as err:
        return refused(raw, err.rule, err.message)
    if path in ctx.spellings:  # (first: the exact spelling's refusal says less here)
        return refused(path, "unicode-spelling", f"{path} is on disk under another Unicode "
                       "spelling of the same name (decomposed, as macOS writes names); "
                       "reviewtui neither writes a second file that looks the same nor "
                       "renames yours: rename it to the composed spelling (NFC) to edit it")
    if ctx.spellings and not path.isascii() and (folder := next(
            (path[:k + 1] for k, char in enumerate(path) if char == "/"
             and path[:k + 1] in ctx.spellings), None)) is not None:
        return refused(path, "unicode-spelling", f"{folder} is on disk under another "
                       "Unicode spelling of the same name (decomposed, as macOS writes "
                       "names); reviewtui does not make a second folder that looks the "
                       "same: rename it to the composed spelling (NFC) to write in it")
    mine = review_file_of(path, ctx.own) if ctx.own else None
    if mine is not None:
        return refused(path, "review-file", review_file_message(path, mine, ctx.own[mine]))
    if exact and (spelling := spelling_refusal(raw)) is not None:
        return refused(raw, spelling.rule, spelling.message)
    if path in ctx.symlinks and not link_ok:
        return refused(path, "symlink", f"{path} is a symbolic link; reviewtui never replaces "
                       "a link with a regular file")
    folders = path.rpartition("/")[0] if link_ok else path
    if folders and escapes_via_symlink(folders, ctx.symlinks, root=ctx.root):
        return refused(path, "symlink-escape", f"{path} resolves through a symbolic link to "
                       "outside the project root")
    link = link_on_path(folders, ctx.symlinks) if folders else None
    if link is not None:
        return refused(path, "symlink", f"{path} goes through the symbolic link {link} (to "
                       f"{ctx.symlinks[link]}); reviewtui never writes through a link: "
                       "name the real path")
    entry = ctx.reserved.reserved_by(path)
    if entry is not None:
        return refused(path, "reserved", f"{path} is reserved by {entry}: the project says "
                       "it is not edited by hand")
    unread = unread_dir_of(path)
    if unread is not None:
        return refused(path, "unread-dir", f"{path} is inside {unread}/, a folder reviewtui "
                       "does not read (version control, environments, caches): it cannot "
                       "show what would be replaced there")
    return path


def review_file_message(path: str, mine: str, what: str) -> str:
    """Why a path of the review's own bookkeeping is refused (rule ``review-file``)."""
    folded, key = path.casefold(), mine.casefold()
    where = (what if folded == key
             else f"inside {what} ({mine}/)" if folded.startswith(key + "/")
             else f"named after {what} ({mine}), as its temporary and moved-aside copies are")
    return (f"{path} is {where}: a session never writes the review's own files (the session "
            "file, its review state, the state's .written mark and .blobs/ folder), which "
            "hold the reviewer's decisions; name a project file, or keep the session and "
            "its state outside the project")


def mark_generated(outcome: Outcome, reserved: ReservedRules) -> Outcome:
    """``outcome`` noting that its path is a built-in generated file (a lock file, build
    output): written like any file, but the reviewer is told, and ``apply --strict``
    leaves it pending."""
    label = _generated_label(reserved, outcome.path) if outcome.path else None
    if label is None or outcome.status is Status.REFUSED:  # refused: nothing is written
        return outcome
    note = generated_note(outcome.path, label)
    hint = f"{outcome.hint}; {note}" if outcome.hint else note
    return replace_record(outcome, hint=hint, generated=label)


def generated_note(path: str, label: str) -> str:
    """What :func:`mark_generated` adds to the hint of an operation on a generated file
    (the workbench, which says it on a line of its own, takes it out of the hint)."""
    return (f"{path} is a generated file ({label}): the tool that owns it rewrites it; "
            "check that this is what the tool would write")


def _missing(path: str, ctx: FileContext) -> Outcome:
    if path in ctx.need or any(normalize_or_none(n) == path for n in ctx.need):
        message = (f"{path} does not exist; the reply lists it under Need:, so the model "
                   "knew it was missing: provide the file and ask again")
        rule = "needed-file"
    elif path in ctx.moved:
        message = f"{path} does not exist: it was moved to {ctx.moved[path]} earlier"
        rule = "moved-path"
    else:
        message = f"{path} does not exist" + (
            " (and the reply's Need: line does not list it)" if ctx.need_line else "")
        rule = "missing-file"
    return Outcome(Status.NOT_FOUND, rule=rule, message=message, path=path)


def normalize_or_none(raw: str) -> str | None:
    try:
        return _normalized(raw)
    except PathRefused:
        return None


def evaluate_edit(
    tree: Tree, edit: Edit, ctx: FileContext, replace: Sequence[str] | None = None,
    placed: tuple[tuple[int, int], tuple[str, ...]] | None = None,
) -> tuple[Outcome, Proposal | None]:
    """``placed``: the reviewer's (lines, the text they held) for this edit."""
    if edit.other_splits and replace is None and placed is None:
        # More than one line can be the divider: the reading the file supports, or none.
        from reviewtui.core.engine.splits import evaluate_readings

        return evaluate_readings(edit, lambda reading: _evaluate_edit(tree, reading, ctx,
                                                                      None, None))
    outcome, proposal = _evaluate_edit(tree, edit, ctx, replace, placed)
    if edit.codex and replace is None and placed is None and proposal is not None and (
            outcome.status in (Status.APPLIED, Status.NEEDS_REVIEW)):
        # An apply_patch chunk: where Codex's own search would not write it, held among
        # several patches (the model may have sent it again), noted in a lone one.
        from reviewtui.core.engine.codex_seek import as_codex

        outcome = as_codex(outcome, edit, ctx.cursor.get(outcome.path))
    elif edit.aider and replace is None and placed is None and proposal is not None and (
            outcome.status in (Status.APPLIED, Status.NEEDS_REVIEW)):
        # A block Aider logged applied: where its own matcher would not write it here, it
        # went to another chat file (its fallback), or the file differed.
        from reviewtui.core.engine.aider_seek import as_aider

        outcome = as_aider(outcome, edit)
    if placed is not None and outcome.method != _PLACED:
        from reviewtui.core.engine.placed import STALE, stale_message

        # The chosen lines changed: never land anywhere else, say why.
        status = Status.NOT_FOUND if outcome.status is Status.APPLIED else outcome.status
        return replace_record(outcome, status=status, rule=STALE if status is not
                                   outcome.status else outcome.rule, forceable=False,
                                   message=f"{stale_message(placed[0])} ({outcome.message})"
                                   ), None
    return outcome, proposal


def _evaluate_edit(
    tree: Tree, edit: Edit, ctx: FileContext, replace: Sequence[str] | None,
    placed: tuple[tuple[int, int], tuple[str, ...]] | None,
) -> tuple[Outcome, Proposal | None]:
    checked = check_path(edit.path, ctx, exact=edit.literal, names_file=True)
    if isinstance(checked, Outcome):
        return checked, None
    path = checked
    new_lines = tuple(edit.replace_lines if replace is None else replace)
    exact = edit if replace is None else None  # (the reviewer's text has no diff endings)
    current = tree.get(path)
    search = edit.search_lines
    blank = placement.is_blank_search(edit)
    if current is None:
        if blank and not edit.anchor:
            new_lines, final = placement.written_lines(edit, new_lines)
            text = "".join(line + "\n" for line in new_lines)
            state = FileState.from_text(text if final is not False else text[:-1])
            outcome = Outcome(Status.APPLIED, method="new-file", path=path,
                              lines=(1, len(new_lines)), after="\n".join(new_lines),
                              message=f"creates {path} ({plural(len(new_lines), 'line')})")
            return outcome, Proposal(path, state)
        return _missing(path, ctx), None
    if current.binary:
        return refused(path, "binary", f"{path} is a binary file; it can be moved or removed "
                       "but not text-edited"), None
    # The shared chunks, not a tuple of the whole file: an edit costs what it changes.
    lines = current.line_view
    if blank and lines and edit.search_lines and not edit.substring and (
            edit.line_bytes is not None or (edit.literal and (edit.at_end or edit.anchor))):
        # A unified hunk's blank old lines, or an exact-text chunk's blank context pinned to
        # the end (apply_patch's "*** End of File") or placed after an anchor ("@@ def
        # f():"), are lines of the file: not an empty SEARCH, which would append them again.
        placed_blank = placement.blank_lines(lines, edit, new_lines, path)
        if placed_blank.status is Status.APPLIED and not (edit.at_start or edit.at_end) \
                and (proof := _preimage_proof(current, edit)) is not None and not proof():
            # (blank lines at the line number of a file provably not the diff's preimage
            # may be other blank lines: lines inserted above, and the hunk landed on the
            # wrong one, exit 0, QA s44 helper-134 H4)
            placed_blank = placement.unproved_blank_lines(placed_blank, path)
        return _edit_outcome(path, current, placed_blank, edit.final_newline, exact)
    if blank:
        if not lines and edit.search_lines and edit.final_newline is None \
                and edit.line_bytes is not None:
            # (a hunk of a file with no lines, a byte order mark alone, "\ No newline" on
            # both sides: the file's own final newline, which None read as one here)
            edit = replace_record(edit, final_newline=current.final_newline)
        if edit.at_end or (edit.line_hint is not None and lines):
            inserted = placement.insert(lines, edit, new_lines, path)
            if inserted.status is Status.NEEDS_REVIEW and edit.preimage and exact is not None:
                from reviewtui.core.engine.preimage import preimage_holds  # (-U0 diffs)

                if preimage_holds(current, edit):
                    inserted = placement.at_preimage_line(inserted, path)
            return _edit_outcome(path, current, inserted, edit.final_newline, exact)
        if not lines:
            new_lines, final = placement.written_lines(edit, new_lines)
            fill = None
            if exact is not None and exact.line_bytes is not None:
                from reviewtui.core.engine.endings import filled  # (unified diffs alone)

                fill = filled(current, new_lines, final, exact.line_bytes)
            if fill is None:
                fill = current.with_lines(new_lines, final_newline=final)
            return Outcome(Status.APPLIED, method="fill-empty", path=path,
                           lines=(1, len(new_lines)), after="\n".join(new_lines),
                           message=f"fills the empty file {path}"), Proposal(path, fill)
        return refused(path, "empty-search", "an empty SEARCH is not an anchor: it can only "
                       f"create a new file, and {path} already exists"), None
    if placed is not None:
        from reviewtui.core.engine.placed import placed_match

        found = placed_match(lines, search, new_lines, *placed)
        if found is not None:
            return _edit_outcome(path, current, found, edit.final_newline)
    if placement.has_placement(edit):
        if ctx.defer:
            return _place_deferred(path, current, edit, search, new_lines, ctx, exact)
        # The earlier versions only if the match reads them, which it does before it
        # returns (eager: a failed placement is explained at once): taking the trees for
        # every edit cost a walk over the earlier turns naming the file, quadratic in a
        # session whose every turn edits it (8,000 Claude Code turns: 11 of 17 s).
        history = ReadNow(lambda: ctx.history(path))
        result, final_newline = placement.locate(lines, current.final_newline, edit,
                                                 search, new_lines, history, path,
                                                 ctx.cursor.get(path, 0),
                                                 proved=_preimage_proof(current, edit),
                                                 crlf=current.eol != "\n")
        history.close()
        return _edit_outcome(path, current, result, final_newline, exact)
    if ctx.defer:
        return _match_deferred(path, current, edit, search, new_lines, ctx, exact)
    result = match_edit(lines, search, new_lines, history=ctx.history(path), path=path,
                        literal=edit.literal)
    return _edit_outcome(path, current, result, edit.final_newline, exact)


def _preimage_proof(current: FileState, edit: Edit) -> Callable[[], bool] | None:
    """Whether ``current`` is the file the edit's diff section was made from, asked only
    when it matters (``Edit.preimage``; None: the diff names no blob)."""
    if not edit.preimage:
        return None
    from reviewtui.core.engine.preimage import preimage_holds  # (git diffs alone)

    return lambda: preimage_holds(current, edit)


def _place_deferred(path: str, current: FileState, edit: Edit, search: Sequence[str],
                    new_lines: Sequence[str], ctx: FileContext, exact: Edit | None,
                    ) -> tuple[Outcome, Proposal | None]:
    """:func:`_match_deferred` for an edit with placement facts (the literal formats): a
    reject early in a session whose every turn edits one file makes each later edit fail,
    and diagnosing each as it was evaluated cost ~1 ms apiece."""
    lines, cursor = current.line_view, ctx.cursor.get(path, 0)
    proved = _preimage_proof(current, edit)
    quick, final_newline = placement.locate(lines, current.final_newline, edit, search,
                                            new_lines, (), path, cursor, explain=False,
                                            proved=proved, crlf=current.eol != "\n")
    outcome, proposal = _edit_outcome(path, current, quick, final_newline, exact)
    if quick.status not in (Status.NOT_FOUND, Status.NEEDS_REVIEW):
        return outcome, proposal  # nothing was left out
    history = ctx.history(path)  # (its trees now: the run goes on changing)

    def explain() -> Outcome:
        result, final = placement.locate(current.line_view, current.final_newline, edit,
                                         search, new_lines, history, path, cursor,
                                         proved=proved, crlf=current.eol != "\n")
        return _edit_outcome(path, current, result, final, exact)[0]

    return deferred(outcome, explain), proposal


def _match_deferred(path: str, current: FileState, edit: Edit, search: Sequence[str],
                    new_lines: Sequence[str], ctx: FileContext, exact: Edit | None,
                    ) -> tuple[Outcome, Proposal | None]:
    """The cascade without the failure diagnosis, which the outcome works out when it
    is read (the same outcome as the eager path: the engine's property tests)."""
    quick = match_edit(current.line_view, search, new_lines, path=path,
                       literal=edit.literal, explain=False)
    outcome, proposal = _edit_outcome(path, current, quick, edit.final_newline, exact)
    if quick.status not in (Status.NOT_FOUND, Status.NEEDS_REVIEW):
        return outcome, proposal  # nothing was left out
    history = ctx.history(path)  # (its trees now: the run goes on changing)

    def explain() -> Outcome:  # (the lines as the eager path reads them: no whole tuple)
        result = match_edit(current.line_view, search, new_lines, history=history,
                            path=path, literal=edit.literal)
        return _edit_outcome(path, current, result, edit.final_newline, exact)[0]

    return deferred(outcome, explain), proposal


def _edit_outcome(
    path: str, current: FileState, result: MatchResult, final_newline: bool | None = None,
    exact: Edit | None = None,
) -> tuple[Outcome, Proposal | None]:
    """``exact``: the edit as it came, when its REPLACE is what lands (not the reviewer's
    text): a byte-exact format's line endings (``Edit.line_bytes``) are then honoured."""
    lines = current.line_view
    if exact is not None and exact.line_bytes is not None and result.status is Status.APPLIED \
            and PUNCTUATION in result.method.split("+"):
        # A diff's lines are the file's own characters: other punctuation in the file is a
        # change made since (a curly apostrophe someone typed), which the hunk would
        # silently revert, exit 0 (QA s44 helper-134 M6; git apply refuses, git merge-file
        # conflicts): for a human to judge.
        result = replace_record(result, status=Status.NEEDS_REVIEW, similarity=0.99, hint="; ".join(
            part for part in (result.hint, "the diff's lines hold the file's own characters, "
                              "and its punctuation differs: the file may have changed since")
            if part))
    located = result.status in (Status.APPLIED, Status.NEEDS_REVIEW) or (
        result.status is Status.REFUSED and result.rule in FORCEABLE_RULES
    )
    proposal = None
    if located:
        state = None
        if exact is not None and exact.line_bytes is not None:
            from reviewtui.core.engine.endings import diff_endings  # (unified diffs alone)

            found = diff_endings(current, result, exact, final_newline)
            if found is not None:
                state, note = found
                if note:
                    result = replace_record(result, hint="; ".join(
                        part for part in (result.hint, note) if part))
        if state is None:
            state = current.splice(result.start, result.end, result.new_lines,
                                   final_newline=final_newline)
        proposal = Proposal(path, state)
    outcome = Outcome(
        status=result.status,
        method=result.method,
        lines=(result.start + 1, result.end) if located else None,
        locations=result.locations,
        candidates=result.candidates,
        message=_message(path, result),
        hint=result.hint,
        rule=result.rule,
        similarity=result.similarity,
        before="\n".join(lines[result.start : result.end]) if located else "",
        after="\n".join(result.new_lines) if located else "",
        path=path,
        forceable=result.status is Status.NEEDS_REVIEW or result.rule in FORCEABLE_RULES,
        before_state=current,
        after_state=proposal.state if proposal is not None else None,
        cursor=result.start + len(result.new_lines) if located else None,
    )
    return outcome, proposal


def _message(path: str, result: MatchResult) -> str:
    status = result.status
    if status is Status.APPLIED and result.method == _PLACED:
        return result.hint
    if status is Status.APPLIED:
        where = f"lines {result.start + 1}-{result.end}"
        how = "exactly" if result.method == "exact" else f"by {result.method}"
        return f"matched {path} {where} {how}"
    if status is Status.NEEDS_REVIEW and result.rule in placement.PLACEMENT_RULES:
        return result.hint  # (found exactly, but not where the format places it)
    if status is Status.NEEDS_REVIEW:
        pct = round((result.similarity or 0) * 100)
        return (f"only a near match ({pct}% similar) at lines {result.start + 1}-{result.end}: "
                "it would change text the model did not see; review before accepting")
    if status is Status.AMBIGUOUS and result.rule in placement.PLACEMENT_RULES:
        return result.hint
    if status is Status.AMBIGUOUS:
        where = ", ".join(f"{a}-{b}" for a, b in result.locations[:10]) + (
            f" and {len(result.locations) - 10} more" if len(result.locations) > 10 else "")
        return (f"SEARCH matches {len(result.locations)} places in {path} (lines {where}); "
                "nothing was applied: the edit needs a longer, unique anchor")
    if status is Status.NOT_FOUND:
        if result.rule in placement.PLACEMENT_RULES:
            return result.hint
        if result.candidates:
            best = result.candidates[0]
            if best.diagnosis is Diagnosis.PART_OF_A_LINE:
                return (f"SEARCH not found in {path} as whole lines: its text is part of "
                        f"{best.lines_named()}; SEARCH and REPLACE hold whole lines, so "
                        "copy the lines whole")
            return (f"SEARCH not found in {path}; closest: lines {best.start}-{best.end} "
                    f"({round(best.similarity * 100)}% similar, {best.diagnosis})")
        return f"SEARCH not found in {path}, and nothing in the file is similar"
    return result.hint or f"refused by rule {result.rule}"


def evaluate_full_file(
    tree: Tree, op: FullFile, ctx: FileContext, content: Sequence[str] | None = None
) -> tuple[Outcome, Proposal | None]:
    special = op.payload is not None or op.mode is not None  # git diffs: binary, modes
    if special:
        from reviewtui.core.engine import filebytes  # (loaded for them alone: start-up)
    link_ok = special and op.mode is not None and filebytes.is_link_mode(op.mode)
    checked = check_path(op.path, ctx, link_ok=link_ok, exact=op.literal, names_file=True)
    if isinstance(checked, Outcome):
        return checked, None
    path = checked
    if special:
        found = filebytes.evaluate_special(tree, op, ctx, path)
        if found is not None:
            outcome, state = found
            return outcome, (Proposal(path, state) if state is not None else None)
        text_outcome, proposal = evaluate_full_file(tree, replace_record(op, mode=None),
                                                    ctx, content)
        if proposal is not None:
            proposal = Proposal(path, filebytes.with_mode(proposal.state, op.mode))
            text_outcome = replace_record(text_outcome, after_state=proposal.state)
        return text_outcome, proposal
    lines = tuple(op.lines if content is None else content)
    text = written_text(lines, op.final_newline)
    current = tree.get(path)
    if current is None:
        parts = path.split("/")
        blocker = next((folder for folder in ("/".join(parts[:n]) for n in range(1, len(parts)))
                        if folder in tree), None)
        if blocker is not None:  # (answered "pending": a write that can never be made)
            return refused(path, "path-conflict", f"{blocker} is a file, so {path} cannot be "
                           f"created inside it: remove or move {blocker} first"), None
        return (Outcome(Status.APPLIED, method="new-file", path=path, lines=(1, len(lines)),
                        after="\n".join(lines),
                        message=f"creates {path} ({plural(len(lines), 'line')})"),
                Proposal(path, FileState.from_text(text)))
    if current.binary:
        return refused(path, "binary", f"{path} is a binary file; a full-file text rewrite "
                       "is refused"), None
    # Byte for byte: rewritten, the file would keep its own line endings and BOM.
    if op.creates and FileState.from_text(text).data != current.data:
        return refused(path, "new-file-exists", f"the diff creates {path} as a new file, "
                       f"but {path} exists with other content: it is not overwritten (a "
                       "stale diff, or a file made since); remove it first to take the "
                       "diff's", before_state=current), None
    # Exact-text formats (a diff, apply_patch, Claude Code's Write) have no placeholders.
    placeholder = None if op.literal else find_placeholder(lines, current.lines, path)
    if placeholder is not None:
        index, line = placeholder
        return refused(path, "truncation-placeholder",
                       f"the full file for existing {path} contains the placeholder "
                       f"{line.strip()!r} (content line {index + 1}): writing it would "
                       "truncate the file", before_state=current), None
    state = current.with_text(text)
    old = current.lines
    return (Outcome(Status.APPLIED, method="full-file", path=path, lines=(1, len(old)),
                    before="\n".join(old), after="\n".join(lines),
                    message=f"rewrites {path}: {plural(len(old), 'line')} -> "
                            f"{plural(len(lines), 'line')}",
                    hint=_convention_hint(current, lines),
                    before_state=current, after_state=state),
            Proposal(path, state))


def written_text(lines: Sequence[str], final_newline: bool) -> str:
    """The text a whole file of ``lines`` writes."""
    text = "".join(line + "\n" for line in lines)
    return text if final_newline else text[:-1]


def _convention_hint(current: FileState, lines: Sequence[str] = ()) -> str:
    kept = []
    if current.eol == "\r\n":
        kept.append("CRLF kept")
    elif current.eol == "\n" and any(line.endswith("\r") for line in lines):
        kept.append("LF kept (the new text's CRLF endings are not written)")  # (QA pass 85)
    if current.bom:
        kept.append("BOM kept")
    if current.mode & 0o111:
        kept.append("executable bit kept")
    return ", ".join(kept)
