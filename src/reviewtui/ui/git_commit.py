"""The workbench's "commit the accepted turns" (G, and the palette) for git sessions.

A review made on the checkout itself commits on the checked-out branch (the same checks
as ``apply --commit``); a review on a copy of the range's start commits on a new branch
``reviewtui/<session name>``. Texts from commits are shown as plain text (the dialog
reads no markup), their hidden characters as pictures.
"""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.git.commits import plan_commits
from reviewtui.shell.git import origin_of
from reviewtui.shell.git_commit import check_before_writing, commit_review
from reviewtui.shell.review import Review
from reviewtui.ui.widgets.diff_render import sanitize_text


def target_branch(review: Review) -> str | None:
    """None: the checked-out branch; else the new branch a copy's review commits on."""
    origin = origin_of(review.loaded.file)
    if origin is None or Path(origin.worktree).resolve() == review.root.resolve():
        return None
    return f"reviewtui/{review.loaded.file.stem}"


def commit_question(review: Review) -> str | None:
    """What the confirmation asks (plain text: the dialog shows it literally, each
    hidden character as a picture); None when the session is not from git."""
    if origin_of(review.loaded.file) is None:
        return None
    plans = plan_commits(review.draft, review.decisions, review.loaded.file.name,
                         lambda key: review.outcome(key).status)
    if not plans:
        return ""
    branch = target_branch(review)
    where = f"a new branch {branch}" if branch else "the checked-out branch"
    lines = [f"Commit {len(plans)} accepted turns on {where}?"]
    for plan in plans[:12]:
        subject = plan.message.partition("\n")[0]
        lines.append(f"  turn {plan.turn}: {subject} ({plan.counts.phrase()})")
    if len(plans) > 12:
        lines.append(f"  ... and {len(plans) - 12} more")
    return sanitize_text("\n".join(lines))


def commit_refusal(review: Review) -> str | None:
    """Why a commit now would be refused before anything is written (HEAD moved since
    the review started, as after a first commit; the branch exists; changes that are not
    the review's), or None: asked before the confirmation, which would otherwise offer
    the same commits again and then refuse them."""
    try:
        check_before_writing(review, target_branch(review))
    except ReviewtuiError as err:
        return str(err)
    return None


def commit_now(review: Review) -> tuple[str, str]:
    """Commit; (message for a notification, its severity)."""
    try:
        report = commit_review(review, target_branch(review))
    except ReviewtuiError as err:
        return str(err), "error"
    return report.summary(), "information"
