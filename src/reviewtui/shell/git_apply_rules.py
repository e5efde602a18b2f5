"""What ``git apply`` does to the files of a plain diff on the git checkout it is applied to.

A diff given as the session (a unified diff, a ``format-patch`` series, a range's kept
file applied elsewhere than at its base) writes its files into the project; where that
project is a git checkout whose configuration or attributes convert line endings,
``git apply`` writes otherwise than the diff's bytes (``core/engine/git_apply.py``). Each
file operation of such a diff gets its path's rule (:class:`GitApplyRule`): one
``check-attr`` for the session's paths, by the working tree's attributes, as git reads
them when it applies, and the configuration's ``core.autocrlf`` and ``core.eol``.

Nothing is asked outside a git checkout (no ``.git`` above the root), and nothing is
changed where git converts none of the paths. The rules are asked once for a review and
saved with it (``shell/state_git_apply.py``: a reopened review reads the session as it was
made, whatever the configuration or attributes say since). A session that changes a
``.gitattributes``: ``git apply`` reads every attribute file before it writes any, so the
turns up to the first that changes one are written by the working tree's attributes (the
index's where the working tree's already hold the session's change: :func:`_written_here`);
``git am`` applies each later turn by the attributes the earlier ones left, which the
review does not follow, so a later turn's file is refused (``git-attributes``) where the
change names anything not known to be inert (:func:`_changes_conversion`; SqlServerDsc's
history, ten 10-commit diffs: the two that add ``*.yml text eol=lf`` under ``* text
eol=crlf`` wrote 73 files LF where git apply writes CRLF, exit 0, before this).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.model.records import (
    CommandName,
    ConsoleCommand,
    Edit,
    FileBlock,
    FullFile,
    GitApplyRule,
    Session,
    Turn,
)
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo
from reviewtui.shell.git_attribute_states import (
    ATTRIBUTES,
    attr_values,
    checkout_rule,
    crlf_action,
    each_command,
    each_op,
    is_attributes,
    names_attributes,
    plain_path,
)
from reviewtui.shell.git_line_config import checkout_config

_NAMES = ("text", "eol", "crlf", "ident", "working-tree-encoding")
_READS = {"binary": "none", "input": "all", "crlf": "all"}  # (else an auto action)


def in_checkout(root: Path) -> bool:
    """Whether ``root`` is in a git working tree, as far as a ``.git`` above it says (no
    process)."""
    try:
        here = root.resolve()
    except OSError:
        return False
    return any((folder / ".git").exists() for folder in (here, *here.parents))


def git_apply_rules(root: Path, *, series: bool = False,
                    pinned: dict[str, GitApplyRule | None] | None = None
                    ) -> Callable[[Session], Session] | None:
    """What to do to a plain diff's session read for ``root``, each time it is read: its
    file operations on paths git converts carry their rule (the attributes read once for
    each path; ``series``: read as ``git am`` reads a file, not ``git apply``). ``pinned``:
    path -> rule (None: none), the rules a saved review was made with, kept as they are
    (git asked only for paths not in it, which are added to it). None outside a git
    working tree."""
    if not in_checkout(root):
        return None
    try:
        repo = Repo.at(root)
        prefix = root.resolve().relative_to(repo.top.resolve()).as_posix()
        config = checkout_config(repo)
    except (ReviewtuiError, OSError, ValueError):
        return None
    prefix = "" if prefix == "." else prefix + "/"
    known: dict[str, GitApplyRule | None] = {} if pinned is None else pinned

    def adjust(session: Session) -> Session:
        first = next((at for at, turn in enumerate(session.turns)
                      if names_attributes(turn)), None)
        named = {op.path for turn in session.turns for op in turn.reply.ops
                 if isinstance(op, (Edit, FullFile)) and plain_path(op.path)}
        named.update(path for turn in session.turns for op in turn.reply.ops
                     if _is_rename(op) for path in op.args)
        paths = sorted(named - known.keys())
        if paths:
            try:
                cached = first is not None and _written_here(repo, root, prefix, session)
                # (git would wait forever reading a FIFO there: no rules, QA s55 helper-231)
                values = {} if _unreadable_rules(repo, [prefix + p for p in paths]) else (
                    attr_values(repo, [prefix + path for path in paths], _NAMES,
                                *(("--cached",) if cached else ())))
            except (ReviewtuiError, OSError):
                values = {}
            for path in paths:
                known[path] = _rule(values.get(prefix + path, {}), config)
        changes = _changes_conversion(session) if first is not None else ""
        if not any(known.values()) and not changes:
            return session
        # (where neither the configuration nor the new rules can write CRLF, nor re-encode
        # or expand, they can only turn a file's CRLF into LF)
        cr_only = changes == "text" and not config[1] and config[0] != "true"
        return replace(session, turns=tuple(
            _held(turn, first + 1, cr_only) if first is not None and at > first and changes
            else _ruled(turn, known, series) for at, turn in enumerate(session.turns)))

    return adjust


def _written_here(repo: Repo, root: Path, prefix: str, session: Session) -> bool:
    """Whether a ``.gitattributes`` the session changes already holds its change on disk
    where the index's does not (the review wrote it, and is read again: its files are
    read by the rules the checkout was written by, the index's); False where the working
    tree's and the index's are alike, or differ otherwise (your own uncommitted change,
    which git apply reads: QA s55 helper-230 R2)."""
    added: dict[str, set[str]] = {}
    for turn in session.turns:
        for op in turn.reply.ops:
            if isinstance(op, Edit) and is_attributes(op.path) and plain_path(op.path):
                added.setdefault(op.path, set()).update(
                    set(op.replace_lines) - set(op.search_lines))
            elif isinstance(op, FullFile) and is_attributes(op.path) and plain_path(op.path):
                added.setdefault(op.path, set()).update(op.lines)
    for path, lines in added.items():
        lines.discard("")
        try:
            here = set(root.joinpath(*path.split("/")).read_text(
                "utf-8", "surrogateescape").splitlines())
        except (OSError, ValueError):
            continue
        stored = set(repo.git("cat-file", "-p", f":{prefix}{path}", ok=(0, 128)).decode(
            "utf-8", "surrogateescape").splitlines())
        if here != stored and lines and lines <= here and not lines <= stored:
            return True
    return False


def _unreadable_rules(repo: Repo, paths: list[str]) -> bool:
    """Whether an attribute file git would read for ``paths`` (``.git/info/attributes``,
    a ``.gitattributes`` in any of their folders) is there but not a file or a link: a
    FIFO made there hung ``check`` in ``git check-attr`` (git apply hangs too)."""
    folders = {""} | {"/".join(parts[:n]) for path in paths
                      for parts in (path.split("/"),) for n in range(1, len(parts))}
    places = [repo.git_dir / "info" / "attributes",
              *(repo.top.joinpath(*folder.split("/"), ATTRIBUTES) if folder
                else repo.top / ATTRIBUTES for folder in folders)]
    for place in places:
        try:
            mode = os.lstat(place).st_mode
        except (OSError, ValueError):
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            return True
    return False


# Attributes that never change how git converts a file's bytes (a line setting only these
# changes nothing here); any other name may (a macro defined elsewhere in the file, QA s55
# helper-230 R3: "*.txt dos" under "[attr]dos text eol=crlf").
_INERT = frozenset({"diff", "merge", "whitespace", "export-ignore", "export-subst", "delta",
                    "conflict-marker-size", "lockable"})


def _line_effect(line: str) -> str:
    """What a line of an attribute file may do to the conversion of the files it names:
    "more" (CRLF written, a re-encoding, ``$Id$``, a macro or an unknown name), "text"
    (``text``, ``binary``, ``eol=lf``: a file's CRLF read as LF at most, or no longer),
    "" (nothing: a comment, a blank, inert attributes)."""
    body = line.strip()
    if not body or body.startswith("#"):
        return ""
    if body.startswith("[attr]"):
        return "more"
    if body.startswith('"'):  # (a quoted pattern may hold blanks)
        body = body[body.find('"', 1) + 1:] if body.find('"', 1) > 0 else ""
    else:
        body = body.partition(" ")[2] if " " in body else body.partition("\t")[2]
    effect = ""
    for token in body.split():
        name, _, value = token.lstrip("-!").partition("=")
        if name in _INERT or name.startswith(("linguist-", "gitlab-")):
            continue
        if name in ("text", "binary") or (name == "eol" and value == "lf"):
            effect = "text"
            continue
        return "more"
    return effect


def _changes_conversion(session: Session) -> str:
    """How the session's changes of ``.gitattributes`` files may change the way git
    converts a file: "more" (a line they add or remove may write CRLF, re-encode, expand
    ``$Id$``, or names a macro or an attribute not known to be inert; or a command moves
    or removes one), "text" (they set or unset ``text``, ``binary`` or ``eol=lf`` alone),
    or "" (none: comments, inert attributes)."""
    found = ""
    for turn in session.turns:
        for op in turn.reply.ops:
            if isinstance(op, ConsoleCommand):
                if any(is_attributes(arg) for arg in op.args):
                    return "more"
                continue
            if not is_attributes(op.path):
                continue
            if isinstance(op, Edit):  # (the lines it adds or removes, not its context)
                lines = set(op.search_lines) ^ set(op.replace_lines)
            else:
                lines = set(op.lines)
            effects = {_line_effect(line) for line in lines}
            if "more" in effects:
                return "more"
            if "text" in effects:
                found = "text"
    return found


def _held(turn: Turn, changed: int, cr_only: bool) -> Turn:
    """``turn`` (after the turn ``changed``, which changes how git converts files) with
    each file operation refused (``cr_only``: where a CR is in play)."""

    def held(op: Edit | FullFile) -> Edit | FullFile:
        if not _written_as_text(op) or not plain_path(op.path) or is_attributes(op.path):
            return op
        return replace(op, git_apply=GitApplyRule(held=changed, held_if_cr=cr_only))

    return each_op(turn, held)


def _rule(values: dict[bytes, bytes], config: tuple[str, bool]) -> GitApplyRule | None:
    """The rule of a path with these attribute values; None where git converts nothing."""
    act = crlf_action(values, config)
    writes, encoding, ident = checkout_rule(values, config)
    reads = _READS.get(act, "auto")
    if reads == "none" and writes == "none" and not encoding and not ident:
        return None
    return GitApplyRule(reads, writes, ident=ident, encoding=encoding)


def _ruled(turn: Turn, known: dict[str, GitApplyRule | None], series: bool = False) -> Turn:
    """``turn`` with each operation of a section on a path git converts carrying its
    rule, the section's own (:class:`GitApplyRule` ``keep_crlf``, ``adds_cr``, ``last``)."""
    moves = {op.args[1]: op.args[0] for op in turn.reply.ops if _is_rename(op)}
    sections: dict[int, GitApplyRule] = {}  # id of a block -> its section's rule
    for block in turn.reply.blocks:
        if not isinstance(block, FileBlock):
            continue
        rule = known.get(block.path)
        source = moves.get(block.path, "")
        if source:  # (a rename's file is read by its old path's rules)
            found = known.get(source) or GitApplyRule()
            rule = replace(rule or GitApplyRule(), reads=found.reads, source=source)
            if rule == GitApplyRule(source=source):
                continue
        if rule is not None:
            edits = [op for op in block.ops if isinstance(op, Edit)
                     and op.line_bytes is not None]
            sections[id(block)] = replace(
                rule, am=series, keep_crlf=any(op.line_bytes.search_crs for op in edits
                                    if op.line_bytes is not None),
                adds_cr=any(op.line_bytes.replace_crs for op in edits
                            if op.line_bytes is not None))
    edited = {block.path for block in turn.reply.blocks if isinstance(block, FileBlock)}
    renamed = {new: old for new, old in moves.items() if new not in edited
               and _effect(known.get(old)) != _effect(known.get(new))}
    if renamed:
        turn = each_command(turn, lambda op: _rename_refused(op, renamed))
    if not sections:
        return turn
    lasts = {id(block.ops[-1]) for block in turn.reply.blocks
             if isinstance(block, FileBlock) and id(block) in sections and block.ops}
    rules = {id(op): replace(sections[id(block)], last=id(op) in lasts)
             for block in turn.reply.blocks
             if isinstance(block, FileBlock) and id(block) in sections for op in block.ops}

    def ruled(op: Edit | FullFile) -> Edit | FullFile:
        rule = rules.get(id(op))
        if rule is None or not _written_as_text(op):
            return op
        return replace(op, git_apply=rule)

    return each_op(turn, ruled)


def _is_rename(op: object) -> TypeGuard[ConsoleCommand]:
    return (isinstance(op, ConsoleCommand) and op.literal and op.name is CommandName.MV
            and len(op.args) == 2 and all(plain_path(path) for path in op.args))


def _effect(rule: GitApplyRule | None) -> tuple[str, str, bool, str]:
    """What a path's rule does to a file's bytes, whatever section it is in."""
    rule = rule or GitApplyRule()
    return rule.reads, rule.writes, rule.ident, rule.encoding


def _rename_refused(op: ConsoleCommand, renamed: dict[str, str]) -> ConsoleCommand:
    """A rename with no change of content (``renamed``: new path -> old) between paths git
    converts otherwise, refused: git reads the file by the old path's rules and writes it
    by the new one's, the review moves its bytes as they are (``git-rename-form``)."""
    if not _is_rename(op) or renamed.get(op.args[1]) != op.args[0] or op.refused:
        return op
    return replace(op, refused=(
        f"git converts {op.args[0]} and {op.args[1]} otherwise on this checkout (their "
        "attributes or core.autocrlf differ): git apply reads the file by the first's "
        "rules and writes it by the second's, and a rename moves the bytes as they are: "
        "not applied (apply this diff with git apply)"))


def _written_as_text(op: Edit | FullFile) -> bool:
    """Whether git's conversion applies to what ``op`` writes: text, and a binary patch's
    bytes (git checks them out by the same rules: under ``eol=crlf`` a file holding a NUL
    is written CRLF too; QA s55 helper-230 R1), not a link's target nor a mode change."""
    if isinstance(op, Edit):
        return True
    if op.mode is not None and op.mode & 0o170000 == 0o120000:
        return False
    return op.payload is None or op.payload.kind in ("literal", "delta")
