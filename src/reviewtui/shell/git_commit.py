"""Committing a review: its accepted turns as commits, or as a ``git am`` series.

The plan (which commits, their messages) is :mod:`reviewtui.core.git.commits`; this
module checks that the repository is in the state the commits need and runs the
plumbing of :mod:`reviewtui.shell.git`. See docs/git.md, "Commits".
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from reviewtui.core.engine import Decision, OpKey
from reviewtui.core.engine.checkout import form_of
from reviewtui.core.engine.links import is_link, link_state
from reviewtui.core.errors import GitError, UsageError
from reviewtui.core.export.forms import FormsTimeline
from reviewtui.core.git.commits import PlannedCommit, plan_commits, plan_with_dropped
from reviewtui.core.git.series import series_text
from reviewtui.core.model.outcome import Status
from reviewtui.core.record import record
from reviewtui.shell.git import (
    ZERO,
    CommitStep,
    Repo,
    author_ident,
    build_commits,
    check_branch_name,
    disk_state,
    identity_check,
    index_matches,
    move_ref,
    origin_of,
    status_paths,
    sync_index,
)
from reviewtui.shell.git_attribute_states import ATTRIBUTES, attribute_entries
from reviewtui.shell.git_checkout import checked_out

if TYPE_CHECKING:
    from reviewtui.core.export import Accepted
    from reviewtui.core.importers.gitlog import GitOrigin
    from reviewtui.shell.review import Review


@record(frozen=True, slots=True)
class CommitReport:
    commits: tuple[str, ...]
    ref: str
    turns: tuple[int, ...]
    partial: tuple[int, ...] = ()  # turns whose commit leaves out some of their operations
    dropped: tuple[int, ...] = ()  # turns with no commit: nothing of them landed

    def summary(self) -> str:
        if not self.commits:
            return "no accepted turn changes a file: nothing to commit" + self._dropped()
        where = self.ref.removeprefix("refs/heads/")
        many = "s" if len(self.commits) > 1 else ""
        text = (f"{len(self.commits)} commit{many} on {where} (turn{many} "
                f"{', '.join(str(t) for t in self.turns)}), now at {self.commits[-1][:12]}")
        if self.partial:
            some = "s" if len(self.partial) > 1 else ""
            text += (f"; turn{some} {', '.join(map(str, self.partial))} not whole: "
                     "each commit's message names the operations it leaves out")
        return text + self._dropped()

    def _dropped(self) -> str:
        if not self.dropped:
            return ""
        some = "s" if len(self.dropped) > 1 else ""
        return (f"; no commit for turn{some} {', '.join(map(str, self.dropped))}: none of "
                f"{'their' if some else 'its'} operations landed (named above)")


def commit_review(review: Review, branch: str | None = None) -> CommitReport:
    """Commit the review's accepted turns: on ``branch`` (new, from the review's base), or
    on the checked-out branch when HEAD is still the base and the working tree holds
    nothing but the review's changes. Nothing is ever rewritten or pushed."""
    repo, origin = _git_of(review)
    if review.conflicts:
        raise GitError(f"the review has conflicts ({', '.join(sorted(review.conflicts))}): "
                       "settle them first", rule="git-conflicts")
    if review.held_paths:  # not written: the disk does not hold what would be committed
        raise GitError(f"{', '.join(sorted(review.held_paths))}: open for writing in another "
                       "program, so not written: close it and run again", rule="git-held")
    if review.disk_checkpoint is not None:
        raise GitError(f"checkpoint {review.disk_checkpoint} is restored on disk: restore the "
                       "last checkpoint first, so the disk holds what would be committed",
                       rule="git-restored")
    def shown(key: OpKey) -> Status:  # an operation's status as the review shows it
        return review.outcome(key).status

    plans, dropped = plan_with_dropped(review.draft, review.decisions,
                                       review.loaded.file.name, shown)
    identity_check(repo)
    # On the checkout the files are as git checked them out (CRLF under eol=crlf, say);
    # on a copy written from git's objects they are as git stores them.
    checkout = review.root.resolve() == repo.top.resolve()
    if branch is not None:
        ref = check_branch_name(repo, branch)
        made = build_commits(repo, origin.base,
                             [CommitStep(p.message, p.changes, p.blobs, p.moved) for p in plans],
                             checkout=checkout)
        if made:
            move_ref(repo, ref, made[-1], ZERO, "reviewtui: accepted turns")
        return CommitReport(tuple(made), ref, tuple(p.turn for p in plans), _partial(plans),
                            dropped)
    head = _check_checkout(repo, review, origin.base)
    # The index first: a staged change the review rejected on disk is no change of someone
    # else's in the working tree (QA s46 helper-141 F6 named the file put back as one).
    _refuse_staged(repo, head)
    _refuse_foreign_changes(repo, review)
    made = build_commits(repo, head, [CommitStep(p.message, p.changes, p.blobs, p.moved)
                                      for p in plans], checkout=True)
    ref = repo.head_ref() or "HEAD"
    if made:
        args = ("--no-deref",) if ref == "HEAD" else ()
        repo.git("update-ref", *args, "-m", "reviewtui: accepted turns", ref, made[-1], head)
        sync_index(repo, made[-1], (path for plan in plans for path in plan.changes))
    return CommitReport(tuple(made), ref, tuple(p.turn for p in plans), _partial(plans),
                            dropped)


def _partial(plans: list[PlannedCommit]) -> tuple[int, ...]:
    return tuple(plan.turn for plan in plans if plan.left_out)


def check_before_writing(review: Review, branch: str | None = None) -> None:
    """What :func:`commit_review` refuses whatever the review writes, checked before it
    writes anything (``apply --commit``): a refusal after the write left the range's
    changes in the working tree, uncommitted. The same messages; commit_review checks
    again afterwards."""
    repo, origin = _git_of(review)
    identity_check(repo)
    if branch is not None:
        check_branch_name(repo, branch)
        return
    head = _check_checkout(repo, review, origin.base)
    # Before the write, a path git reports that the review has not made (a saved review
    # may have made some) is someone else's change; the check after the write missed one
    # the range also edits, whose base was read from the disk, and committed it.
    made = review.draft.checkpoint(0).diff(review.draft.states[-1].tree)
    _refuse_staged(repo, head)
    _refuse_foreign(repo, sorted(path for path in status_paths(repo) if path not in made))


def _git_of(review: Review) -> tuple[Repo, GitOrigin]:
    origin = origin_of(review.loaded.file)
    if origin is None or not origin.worktree:
        raise UsageError("this session does not come from git (--git A..B or --worktree): "
                         "use 'export --format patch' instead", rule="not-git")
    return Repo.at(Path(origin.worktree)), origin


def _check_checkout(repo: Repo, review: Review, base: str) -> str:
    """Committing on the checked-out branch: HEAD still at the review's base, and the
    review made on this checkout. Returns HEAD."""
    head = repo.head()
    if head != base:
        raise GitError(f"HEAD moved since the review started (it was {base[:12]}, "
                       f"now {(head or 'none')[:12]}): commit with --branch NAME instead",
                       source=str(repo.top), rule="git-head-moved")
    if review.root.resolve() != repo.top.resolve():
        raise GitError(f"the review was made on {review.root}, not on the checkout "
                       f"{repo.top}: commit with --branch NAME instead", rule="git-not-checkout")
    return head


def _refuse_staged(repo: Repo, head: str) -> None:
    if not index_matches(repo, head):
        raise GitError("the index has staged changes: commit or unstage them first, or "
                       "commit with --branch NAME", source=str(repo.top), rule="git-staged")


def _refuse_foreign_changes(repo: Repo, review: Review) -> None:
    """The working tree must hold the review's draft, and nothing else changed."""
    draft = review.draft.states[-1].tree
    ours = review.draft.checkpoint(0).diff(draft)
    foreign = sorted(path for path in status_paths(repo) if path not in ours)
    if foreign and any(path.rsplit("/", 1)[-1] == ATTRIBUTES for path in ours):
        foreign = _not_renormalized(repo, foreign)
    for path in sorted(ours):
        want = draft.get(path)
        full = repo.top / path
        # A link the review made is a link on disk (read as one: QA pass 84b, a retargeted
        # link counted as someone else's change, after apply --commit had written it).
        disk = (link_state(os.readlink(full)) if full.is_symlink()
                else disk_state(repo.top, path))
        if ((want is None) != (disk is None) or is_link(want) != is_link(disk)
                or (want and disk and want.data != disk.data)):
            foreign.append(path)
    _refuse_foreign(repo, foreign)


def _not_renormalized(repo: Repo, paths: list[str]) -> list[str]:
    """Of ``paths`` git reports changed after the review wrote a ``.gitattributes``: those
    that are not exactly git's checkout of HEAD's blob by HEAD's attribute files. The
    others look changed only because the rules they were checked out by changed (``git
    switch`` leaves them so too); they were refused as someone else's change, exit 2,
    with the range's files written and uncommitted (QA s39 helper-121 F8)."""
    try:
        # (the whole listing, read for these paths: 25,000 of them on the command line
        # were "Argument list too long", exit 2, QA s40 helper-124 M1)
        listing = repo.git("ls-tree", "-r", "-z", "--full-tree", "HEAD")
        wanted = set(paths)
        blobs = {}
        for entry in listing.split(b"\0"):
            meta, _, raw = entry.partition(b"\t")
            name = raw.decode("utf-8", "surrogateescape")
            if name in wanted and meta.startswith(b"100") and b" blob " in meta:
                blobs[name] = meta.split()[2].decode()
        pairs = sorted(blobs.items())
        formed = checked_out(repo, attribute_entries(repo, "HEAD", listing), pairs)
        stored = dict(zip(blobs.values(), repo.blobs(list(blobs.values())), strict=True))
    except GitError:
        return paths
    kept = set()
    for path, blob in pairs:
        want = form_of(formed.get((path, blob)), stored[blob])
        full = repo.top / path
        with contextlib.suppress(OSError):
            if not full.is_symlink() and full.read_bytes() == (
                    stored[blob] if want is None else want):
                kept.add(path)
    return [path for path in paths if path not in kept]


def _refuse_foreign(repo: Repo, foreign: list[str]) -> None:
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more"
                                          if len(foreign) > 5 else "")
        raise GitError(f"the working tree has changes the review did not make ({shown}): "
                       "commit or stash them first, or commit with --branch NAME",
                       source=str(repo.top), rule="git-dirty")


def git_series(accepted: Accepted) -> str:
    """``export --format series``: the accepted turns as ``git format-patch`` mails."""
    source = Path(accepted.source)
    origin = origin_of(source)
    if origin is None or not origin.worktree:
        raise UsageError("--format series needs a git session (--git A..B or --worktree)",
                         source=accepted.source, rule="not-git")
    decisions = accepted.run.decisions if accepted.reviewed else {
        r.key: Decision.accept() for t in accepted.run.turns for r in t.results if r.landed}
    plans = plan_commits(accepted.run, decisions, source.name)
    author, date = author_ident(Repo.at(Path(origin.worktree)))
    return series_text(accepted.base, plans, author, date,
                       stored=FormsTimeline(accepted.run, accepted.base_blobs,
                                            accepted.always_text, accepted.found_blobs,
                                            accepted.auto_text))
