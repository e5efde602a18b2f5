"""What ``git apply`` does to the files of a plain diff on the git checkout it is applied to.

A diff given as the session (a unified diff, a ``format-patch`` series, a range's kept
file applied elsewhere than at its base) writes its files into the project; where that
project is a git checkout whose configuration or attributes convert line endings,
``git apply`` writes otherwise than the diff's bytes (``core/engine/git_apply.py``). Each
file operation of such a diff gets its path's rule (:class:`GitApplyRule`): one
``check-attr`` for the session's paths, by the working tree's attributes, as git reads
them when it applies, and the configuration's ``core.autocrlf`` and ``core.eol``.

Nothing is asked outside a git checkout (no ``.git`` above the root), and nothing is
changed where git converts none of the paths. A session that changes a
``.gitattributes`` gets no rules: git would convert its files by attributes that change
while it applies (the review writes the diff's bytes there, as before; docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.model.records import (
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
    attr_values,
    checkout_rule,
    crlf_action,
    each_op,
    plain_path,
    touches_attributes,
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


def git_apply_rules(root: Path) -> Callable[[Session], Session] | None:
    """What to do to a plain diff's session read for ``root``, each time it is read: its
    file operations on paths git converts carry their rule (the attributes read once a
    process for each set of paths). None outside a git working tree."""
    if not in_checkout(root):
        return None
    try:
        repo = Repo.at(root)
        prefix = root.resolve().relative_to(repo.top.resolve()).as_posix()
        config = checkout_config(repo)
    except (ReviewtuiError, OSError, ValueError):
        return None
    prefix = "" if prefix == "." else prefix + "/"
    known: dict[str, GitApplyRule | None] = {}

    def adjust(session: Session) -> Session:
        if touches_attributes(session):
            return session
        paths = sorted({op.path for turn in session.turns for op in turn.reply.ops
                        if isinstance(op, (Edit, FullFile)) and plain_path(op.path)
                        and op.path not in known})
        if paths:
            try:
                values = attr_values(repo, [prefix + path for path in paths], _NAMES)
            except (ReviewtuiError, OSError):
                values = {}
            for path in paths:
                known[path] = _rule(values.get(prefix + path, {}), config)
        if not any(known.values()):
            return session
        return replace(session, turns=tuple(_ruled(turn, known) for turn in session.turns))

    return adjust


def _rule(values: dict[bytes, bytes], config: tuple[str, bool]) -> GitApplyRule | None:
    """The rule of a path with these attribute values; None where git converts nothing."""
    act = crlf_action(values, config)
    writes, encoding, ident = checkout_rule(values, config)
    reads = _READS.get(act, "auto")
    if reads == "none" and writes == "none" and not encoding and not ident:
        return None
    return GitApplyRule(reads, writes, ident=ident, encoding=encoding)


def _ruled(turn: Turn, known: dict[str, GitApplyRule | None]) -> Turn:
    """``turn`` with each operation of a section on a path git converts carrying its
    rule, the section's own (:class:`GitApplyRule` ``keep_crlf``, ``adds_cr``, ``last``)."""
    sections: dict[int, GitApplyRule] = {}  # id of a block -> its section's rule
    for block in turn.reply.blocks:
        if isinstance(block, FileBlock) and (rule := known.get(block.path)) is not None:
            edits = [op for op in block.ops if isinstance(op, Edit)
                     and op.line_bytes is not None]
            sections[id(block)] = replace(
                rule, keep_crlf=any(op.line_bytes.search_crs for op in edits
                                    if op.line_bytes is not None),
                adds_cr=any(op.line_bytes.replace_crs for op in edits
                            if op.line_bytes is not None))
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


def _written_as_text(op: Edit | FullFile) -> bool:
    """Whether git's text conversion applies to what ``op`` writes: not a link's target,
    nor a binary patch's bytes (which git converts by the same rules, where they look
    like text: left as the patch gives them here)."""
    if isinstance(op, Edit):
        return True
    return op.payload is None and not (op.mode is not None
                                       and op.mode & 0o170000 == 0o120000)
