"""Evaluating a console command in a turn: ``:mv``, ``:rn``, ``:rm``, ``:undo``, ``:unrm``."""

from __future__ import annotations

from reviewtui.core.digests import sha256
from reviewtui.core.engine.checkout import is_form
from reviewtui.core.engine.decisions import Decision, OpKey, Policy, Verdict
from reviewtui.core.engine.file_edits import FileContext, check_path, normalize_or_none
from reviewtui.core.engine.ledger import LedgerItem, command_item
from reviewtui.core.engine.lineage import Lineage
from reviewtui.core.engine.links import LinkView, is_link
from reviewtui.core.engine.results import OpResult, Rules
from reviewtui.core.engine.structural import LAST, apply_command, undo_entry
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.model.filestate import looks_like_data
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import CommandName, ConsoleCommand
from reviewtui.core.model.tree import Tree

_PATH_RULES = frozenset({
    "absolute-path", "drive-letter", "home-path", "backslash", "parent-escape",
    "control-character", "git-dir", "empty-path", "symlink", "symlink-escape", "reserved",
    "unread-dir", "unicode-spelling",
})


_REFUSING_COMMAND_RULES = frozenset({"dest-exists", "into-itself", "path-conflict"})


def run_command(
    state: StructuralState, key: OpKey, op: ConsoleCommand, decision: Decision,
    moved: dict[str, str], rules: Rules, policy: Policy, base: Tree,
    undo: tuple[OpKey | None, str] | None = None,
) -> tuple[StructuralState, OpResult, LedgerItem | None]:
    """What ``op`` does to ``state`` under ``decision`` (its result and ledger line);
    ``moved`` learns the paths it moves when it lands. ``undo``: for an ``:undo``, the
    command it takes back (``order.undo_targets``) and how a reviewer reads it."""
    if op.refused:  # (a git range on a converting checkout: shell/git_checkout.py)
        outcome = Outcome(Status.REFUSED, method=str(op.name), rule="git-rename-form",
                          message=op.refused, path=op.path or "")
        return state, OpResult(key, op, outcome, decision, False), None
    if (op.expect is not None or op.expect_blob or op.expect_link is not None) and (
            stale := _stale_removal(state.tree, op)) is not None:
        outcome = Outcome(Status.REFUSED, method=str(op.name), rule="stale-delete",
                          message=stale, path=op.path or "")
        return state, OpResult(key, op, outcome, decision, False), None
    undid = ""  # a :undo: the command it takes back here
    target = LAST if undo is None else undo[0]
    if op.name == CommandName.UNDO and target is not None:
        at = undo_entry(state.undo_stack, target)
        if at is not None:
            undid = state.undo_stack[at].command
        elif undo is not None:  # (the command it takes back did not run: nothing)
            outcome = Outcome(Status.NOT_FOUND, method=str(op.name), rule="nothing-to-undo",
                              message=f"it takes back {undo[1]}, the command written last "
                              "before it, which did not run (refused, rejected or not "
                              "accepted): nothing to undo; nothing of this command was "
                              "applied", path=op.path or "")
            return state, OpResult(key, op, outcome, decision, False), None
    if (decision.undoes is not None and op.name == CommandName.UNDO
            and decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
            and undid != decision.undoes):  # an earlier command was decided otherwise since
        would = f"it would now undo {undid}" if undid else "nothing is left to undo"
        outcome = Outcome(Status.NOT_FOUND, method=str(op.name), rule="undo-target-changed",
                          message=f"accepted to undo {decision.undoes}, but {would}: nothing "
                          "was undone; reject it, or accept it again to undo what it undoes "
                          "now", path=op.path or "", undid=undid)
        return state, OpResult(key, op, outcome, decision, False), None
    # An accepted :mv or :rn keeps the reading the reviewer saw (deciding.py pins it).
    new_state, result = apply_command(state, op, reading=decision.reading, key=key,
                                      undo=target)
    changes = tuple(result.changes)
    rule = result.rule
    pin = moves_pin(changes, state.tree, base) if changes else ""
    if (result.ok and decision.moves is not None and changes
            and decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
            and pin != decision.moves):
        # The paths it takes are not those it took when accepted (a file made since that
        # its glob, folder or names take in: QA s37 helper-112 H1).
        shown, taken = decision.moves.partition(":")[0], str(_taken(changes))
        now = (f"would now {_verb(op, now=True)} {_paths(taken)}" if taken != shown
               else f"would now {_verb(op, now=True)} others")
        outcome = Outcome(Status.REFUSED, method=str(op.name), rule="command-paths-changed",
                          message=f"accepted when it {_verb(op)} {_paths(shown)}, but it "
                          f"{now} (the files it takes changed since it was accepted): "
                          "nothing of this command was applied; reject it, or accept it "
                          "again to take what it does now", path=op.path or "",
                          changes=changes, undid=undid, reading=result.reading, moves=pin)
        return state, OpResult(key, op, outcome, decision, False), None
    if result.ok:
        status, message = Status.APPLIED, result.message
        if undo is not None and undo[0] is not None and undo[0][0] != key[0]:
            message += f" ({undo[1]}, the command written last before it)"
        refusal = _refuse_changes(changes, rules, base, state.tree, new_state.tree)
        if refusal is not None:
            status, message, rule = Status.REFUSED, refusal.message, refusal.rule
    elif (through := _through_link(op, rules, base, state.tree)) is not None:
        # A link is a file in the tree: a command that failed on one says so.
        status, message, rule = Status.REFUSED, through.message, through.rule
    elif rule in _PATH_RULES or rule in _REFUSING_COMMAND_RULES:
        status, message = Status.REFUSED, result.message
    else:
        status, message = Status.NOT_FOUND, result.message
    if status is not Status.APPLIED:
        # A command is all or nothing: a failing argument leaves every path as it was.
        message += "; nothing of this command was applied"
    outcome = Outcome(status, method=str(op.name), message=message, rule=rule,
                      path=op.path or "", changes=changes, undid=undid,
                      reading=result.reading, moves=pin)
    # An edited command is an accepted one (a command has no text to replace).
    joins = (decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
             or status in policy.pending_joins)
    if status is not Status.APPLIED or not joins:
        return state, OpResult(key, op, outcome, decision, False), None
    for old, new in changes:
        if old is not None and new is not None:
            moved[old] = new
    return (new_state, OpResult(key, op, outcome, decision, True),
            command_item(key[1], result.ledger, state.tree.revision,
                          new_state.tree.revision))


def moves_pin(changes: tuple[tuple[str | None, str | None], ...], tree: Tree,
              base: Tree) -> str:
    """What an accept of a command pins of the paths it takes (``Decision.moves``): their
    number and a digest of the (old, new) pairs, each with where the file at ``old`` in
    ``tree`` (before the command) comes from (:func:`_origin`). A file the user saves
    where a pending operation would make or move one is not the file the reviewer saw
    taken (QA s37 helper-113 H1, helper-114: the glob moved it at once)."""
    text = "\0".join(f"{old or ''}\1{new or ''}\1{_origin(tree, base, old)}"
                      for old, new in sorted(
                          changes, key=lambda pair: (pair[0] or "", pair[1] or "")))
    return f"{_taken(changes)}:{sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()}"


def _origin(tree: Tree, base: Tree, path: str | None) -> str:
    """Where the file at ``path`` comes from: "" the project's file at that path (as read,
    or as operations changed it), "<q" the project's file at ``q`` (an operation moved
    it), "+" a file an operation made (which one is not said: a file made by turn 1 and
    written whole again by turn 2 is the same file whichever of them is accepted)."""
    state = tree.get(path) if path else None
    if state is None or path is None:
        return ""
    root: object = state
    step = state.lineage
    while isinstance(step, Lineage):  # back to the version before the first operation
        if step.prev is None:
            root = step.base
            break
        step = step.prev
    if root is None:
        return "+"  # (the bottom of its lineage made it)
    if root is base.get(path):
        return ""
    where = _by_identity(base).get(id(root))
    if where is not None:
        return f"<{where}"
    # A binary version has no lineage: one over a project file at this path is that file
    # rewritten (a reject of the patch leaves the same file to move: QA s37 helper-115 M1)
    return "" if state.binary and base.get(path) is not None else "+"


# The last base tree's files by identity: every command that takes a moved file asks it,
# and a walk of 50,000 files each time made an outside save of a session of 100 :mv's
# take 6.5 s instead of 0.02 s (QA s37 helper-115 M2). Trees never change in place.
_IDENTITY: list[tuple[Tree, dict[int, str]]] = []


def _by_identity(base: Tree) -> dict[int, str]:
    if not _IDENTITY or _IDENTITY[0][0] is not base:
        _IDENTITY[:] = [(base, {id(kept): where for where, kept in base.items()})]
    return _IDENTITY[0][1]


def _taken(changes: tuple[tuple[str | None, str | None], ...]) -> int:
    """The paths a command moves (or, none moved, removes), as its row counts them: a file
    ``-f`` writes over is not one of them."""
    moved = sum(1 for old, new in changes if old is not None and new is not None)
    return moved or sum(1 for _old, new in changes if new is None)


def _verb(op: ConsoleCommand, *, now: bool = False) -> str:
    if op.name == CommandName.RM:
        return "remove" if now else "removed"
    return "move" if now else "moved"


def _paths(count: str) -> str:
    return f"{count} path" + ("" if count == "1" else "s")


def _stale_removal(tree: Tree, op: ConsoleCommand) -> str | None:
    """Why a diff's deletion must not remove what the path holds now, or None: a text
    file's lines (line endings aside) or a link's target are not the ones the diff
    deletes, or the file is not the git blob its index line names (a binary file, a
    ``-D`` diff that carries no lines)."""
    path = normalize_or_none(op.path or "")
    current = tree.get(path) if path else None
    if current is None:
        return None  # (the command itself says what is wrong with a missing path)
    if op.expect_form is not None and not is_link(current) and (
            current.data == op.expect_form if isinstance(op.expect_form, bytes)
            else op.expect_form is True and is_form(True, current.data, op.expect_blob)):
        return None  # (git's checkout of the blob it deletes: QA s39 helper-121 F4, s41 M1)
    if op.expect_link is not None and op.expect_link != is_link(current):
        return (f"the diff deletes {path} as a {'link' if op.expect_link else 'file'}, but "
                f"{path} is a {'link' if is_link(current) else 'file'}: it is not removed")
    if op.expect is not None and (is_link(current) or not current.binary):
        held = ((current.data.decode("utf-8", "surrogateescape"),) if is_link(current)
                else tuple(line.rstrip("\r") for line in current.lines))
        expect = op.expect
        if current.bom and expect and expect[0].startswith("\ufeff"):
            expect = (expect[0][1:], *expect[1:])  # (the file's lines come without it)
        if held == expect:
            return None
    elif op.expect_blob:
        from reviewtui.core.importers.gitbinary import stored_as  # (rare: -D, binary, a call)

        # As git stores it (a CRLF checkout's LF text), as a full diff's lines are compared
        # line endings aside above. Text to git is what holds no NUL where git looks: a
        # Latin-1 file the review reads as binary too (QA s37 helper-111 F8: its deletion
        # on an autocrlf checkout was refused as "other content").
        if stored_as(current.data, op.expect_blob,
                     text=not is_link(current) and not looks_like_data(current.data)):
            return None
    else:
        return None
    what = "a link" if is_link(current) else "a file"
    return (f"the diff deletes {path} as it was, but {path} is now {what} with other "
            "content: it is not removed (a stale diff, or a change made since; git apply "
            "refuses it too)")


def _through_link(op: ConsoleCommand, rules: Rules, base: Tree, tree: Tree) -> Outcome | None:
    """The link refusal of a failed command's first argument that goes through (or
    names) a symbolic link; None when none does."""
    ctx = FileContext(root=rules.root, symlinks=LinkView(rules.symlinks, base, tree),
                      spellings=rules.spellings)
    for arg in op.args:
        if normalize_or_none(arg) is None:
            continue
        checked = check_path(arg, ctx)
        if isinstance(checked, Outcome) and checked.rule in ("symlink", "symlink-escape"):
            return checked
    return None


def _refuse_changes(changes: tuple[tuple[str | None, str | None], ...], rules: Rules,
                    base: Tree, before: Tree, after: Tree) -> Outcome | None:
    """Moves and removals obey the same reserved-path and symlink rules as edits.

    A link itself may be removed or restored (nothing is written through it); a move
    of one is refused like any path with a link on it (its relative target would
    point elsewhere), saying so. (Moving links was tried and reverted, QA s36
    helper-108: each target checked from where it goes is not enough, as links moved
    together, or one a move points elsewhere, lead out of the root through each other.)
    """
    ctx = FileContext(reserved=rules.reserved, root=rules.root,
                      symlinks=LinkView(rules.symlinks, base, before),
                      spellings=rules.spellings, own=rules.own)
    for old, new in changes:
        if old is not None and new is not None and is_link(before.get(old)):
            return Outcome(Status.REFUSED, rule="symlink", path=old, message=(
                f"{old} is a symbolic link: reviewtui does not move links (where a link "
                "leads depends on where it is, and on the links around it); move it with "
                "git or your shell, or remove it and make it anew"))
        for path in (old, new):
            if path is None:
                continue
            alone = old is None or new is None
            link_ok = alone and is_link((before if new is None else after).get(path))
            checked = check_path(path, ctx, link_ok=link_ok)
            if isinstance(checked, Outcome):
                return checked
    return None
