"""Symbolic links in the virtual tree: what a link is, where links are, and link operations.

A link is a :class:`FileState` whose ``mode`` is git's ``120000`` and whose ``data`` is
its target (as ``os.readlink`` gives it, encoded). It is marked binary, so any code that
does not know links treats it as an opaque file and never text-edits it. Links come into
the tree from the disk (the project's own links) and from full files of mode 120000 (a
unified diff's ``new file mode 120000``, git's ``--git A..B`` ranges).

What may be done with a link: create it, give it another target, remove it; a removal
followed by a new regular file is how git writes a link becoming a file (and back). What
may not: write *through* it (any path with a link on its way is refused, as before), or
create one whose target leads outside the root (resolved from the link's folder, lexically
and through the links the tree already has). Pure.
"""

from __future__ import annotations

import posixpath
import stat
from collections import ChainMap
from collections.abc import Iterator, Mapping

from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import FullFile
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import escapes_via_symlink

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.file_edits import FileContext

LINK_MODE = 0o120000


def is_link(state: FileState | None) -> bool:
    return state is not None and stat.S_ISLNK(state.mode)


def link_state(target: str | bytes) -> FileState:
    """The tree's form of a link to ``target``."""
    data = target if isinstance(target, bytes) else target.encode("utf-8", "surrogateescape")
    return FileState(data, mode=LINK_MODE, binary=True)


def link_target(state: FileState) -> str:
    return state.data.decode("utf-8", "surrogateescape")


def shown(state: FileState | None) -> str:
    """How a link is named to the reviewer: ``link -> target``."""
    return f"link -> {link_target(state)}" if state is not None and is_link(state) else ""


class LinkView(Mapping[str, str]):
    """Every link of ``tree`` (path -> target), plus the disk's links the base tree lacks.

    The disk shell puts the project's links in the base tree; links it reports that the
    base does not hold (a caller that built its tree without them) still count, so a path
    through them stays refused. Lookups cost one tree walk per path: nothing is listed.
    """

    def __init__(self, disk: Mapping[str, str], base: Tree, tree: Tree) -> None:
        self.disk, self.base, self.tree = disk, base, tree

    def __getitem__(self, path: str) -> str:
        state = self.tree.get(path)
        if state is not None:
            if is_link(state):
                return link_target(state)
            raise KeyError(path)
        if path in self.disk and not is_link(self.base.get(path)):
            return self.disk[path]
        raise KeyError(path)

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, str):
            return False
        try:
            self[path]
        except KeyError:
            return False
        return True

    def _all(self) -> dict[str, str]:
        out = {p: t for p, t in self.disk.items() if p in self}
        out.update((p, link_target(s)) for p, s in self.tree.items() if is_link(s))
        return out

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def refused(path: str, rule: str, message: str, *,
            before_state: FileState | None = None) -> Outcome:
    return Outcome(Status.REFUSED, rule=rule, message=message, path=path,
                   before_state=before_state)


def target_refusal(path: str, target: str, ctx: FileContext) -> Outcome | None:
    """Why a link at ``path`` to ``target`` may not exist; None when it may."""
    if not target or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return refused(path, "symlink-target", f"{path} would be a symbolic link with the "
                       f"unusable target {target!r}")
    if target.startswith("/"):
        return refused(path, "symlink-escape", f"{path} would be a symbolic link to the "
                       f"absolute path {target}: links may not point outside the root, and "
                       "an absolute target names this machine's folders")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    links = ChainMap({path: target}, ctx.symlinks)  # type: ignore[arg-type]
    if joined.startswith("../") or joined == ".." or escapes_via_symlink(
            path + "/x", links, root=ctx.root):
        return refused(path, "symlink-escape", f"{path} would be a symbolic link to "
                       f"{target}, which leads outside the project root")
    # Another link may lead out through this one ("d/l -> q/../x" once "d/q -> .." is
    # made: the kernel follows q before the ".."; QA s36 helper-108). One that led out
    # already (a project's own link to /usr/share) is not this link's doing.
    for other in ctx.symlinks:
        if other != path and escapes_via_symlink(other + "/x", links, root=ctx.root) \
                and not escapes_via_symlink(other + "/x", ctx.symlinks, root=ctx.root):
            return refused(path, "symlink-escape", f"{path} would be a symbolic link to "
                           f"{target}, through which the link {other} would lead outside "
                           "the project root")
    return None


def evaluate_link(tree: Tree, op: FullFile, ctx: FileContext,
                  path: str) -> tuple[Outcome, FileState | None]:
    """A full file of mode 120000: create ``path`` as a link, or give it a new target."""
    target = "\n".join(op.lines)
    refusal = target_refusal(path, target, ctx)
    if refusal is not None:
        return refusal, None
    current = tree.get(path)
    state = link_state(target)
    if current is None:
        return (Outcome(Status.APPLIED, method="new-link", path=path, after=target,
                        message=f"creates {path} as a link -> {target}", after_state=state),
                state)
    if not is_link(current):
        return refused(path, "symlink-over-file", f"{path} is a regular file: the diff makes "
                       "it a link without removing it first (git writes that as a deletion "
                       "and a new link); nothing was changed", before_state=current), None
    old = link_target(current)
    if old != target and (op.creates or (op.was is not None and old != "\n".join(op.was))):
        said = "creates it" if op.creates else f"retargets it from {chr(10).join(op.was or ())}"
        return refused(path, "stale-link", f"{path} is a link -> {old}, but the diff {said}: "
                       "it is not retargeted (a stale diff, or a change made since; git "
                       "apply refuses it too)", before_state=current), None
    if old == target:
        return (Outcome(Status.APPLIED, method="link", path=path, before=old, after=target,
                        message=f"{path} already is a link -> {target}",
                        before_state=current, after_state=state),
                current)
    return (Outcome(Status.APPLIED, method="link", path=path, before=old, after=target,
                    message=f"{path}: link -> {old} becomes link -> {target}",
                    before_state=current, after_state=state),
            state)
