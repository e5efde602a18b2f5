"""The accepted result as a ``git format-patch`` series: one mail per committed turn.

``git am`` applies it on the review's base (``git am --keep-cr`` when a file has CRLF
line endings: ``git am`` strips carriage returns otherwise, as it does for any series).
Binary contents cannot be written as text (see :mod:`reviewtui.core.export.patch`): they
are named in the mail's notes and left out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from reviewtui.core.engine.links import is_link
from reviewtui.core.export.forms import NONE, FormsTimeline, Stored
from reviewtui.core.export.patch import endings_changed, unified_patch
from reviewtui.core.git.commits import PlannedCommit
from reviewtui.core.model.tree import FileState, Tree

ZERO = "0" * 40
MBOX_DATE = "Mon Sep 17 00:00:00 2001"  # what format-patch writes on the From line


def series_text(base: Tree, plans: Sequence[PlannedCommit], author: str, date: str, *,
                stored: FormsTimeline | None = None) -> str:
    """The mails of ``plans`` (their changes applied one after the other on ``base``).

    ``author`` is ``Name <email>``, ``date`` an RFC 2822 date (git's own ident);
    ``stored``: the run's forms (:mod:`reviewtui.core.export.forms`), each mail read by
    those before and after its turn.
    """
    mails: list[str] = []
    tree = base
    total = len(plans)
    # (see _as_left; from the base's forms where they say which blob a file is: a
    # deletion named the blob of its commit's before, which a rejected commit left
    # unmade, and git am refused the mail: qa55 fuzz seed 52, older)
    left: dict[str, tuple[bytes, bytes]] = {}
    if stored is not None:
        for (path, data), blob in stored.whole().old.items():
            if (state := base.get(path)) is not None and state.data == data:
                left[path] = (data, blob)
    for number, plan in enumerate(plans, start=1):
        after = tree.apply(dict(plan.changes))
        subject, _, body = plan.message.partition("\n")
        tag = f"[PATCH {number}/{total}]" if total > 1 else "[PATCH]"
        # Each side as the blob its section found and left, where told: a change of line
        # endings alone, on a checkout writing both as one CRLF file, was left out of its
        # mail, and git am made a tree B never had, exit 0 (curl cdbfad9..9acf759)
        # (from before its first turn to after its last: a commit split into parts, a link
        # made a file, had the forms of its first part alone, QA s41 helper-126 H2)
        moment = stored.turns(plan.turn, plan.last or plan.turn) if stored is not None else NONE
        old, new, forms = endings_changed(tree, after, plan.found, plan.blobs, moment,
                                          every=True)
        changed = {*tree.diff(after), *old.diff(tree), *new.diff(after)}
        old, forms = _as_left(tree, old, changed, left, forms, set(plan.moved.values()))
        diff = unified_patch(old, new, _moved(old, new, plan.moved), stored=forms)
        for path in changed:
            state, now = new.get(path), after.get(path)
            if state is None or now is None or is_link(state):
                left.pop(path, None)
            else:  # (as unified_patch stores it)
                left[path] = (now.data, forms.new.get((path, state.data), state.data))
        mails.append(f"From {ZERO} {MBOX_DATE}\nFrom: {author}\nDate: {date}\n"
                     f"Subject: {tag} {subject}\n\n{_no_break(body.strip(chr(10)))}\n---\n"
                     f"{diff}{'' if diff.endswith(chr(10)) else chr(10)}-- \nreviewtui\n\n")
        tree = after
    return "".join(mails)


def _as_left(before: Tree, old: Tree, changed: Iterable[str],
             left: Mapping[str, tuple[bytes, bytes]], stored: Stored,
             moved_away: Collection[str]) -> tuple[Tree, Stored]:
    """The old side of a mail (``old``, read by ``stored``), each file an earlier mail
    changed as that mail left it (``left``: path -> its bytes then, the blob its mail
    stored), where ``before`` (the mail's start) still holds those bytes: ``git am``
    applies the mail to that blob. The blob the commit's section found is the range's,
    which the mail before need not have left: the reviewer's text for a hunk making a CRLF
    blob LF left CRLF, which the commit keeps (the index before it holds CRLF there), and
    the next mail, read as the LF blob, did not apply (qa55 fuzz seed 317, older). A file
    moved as it is (``moved_away``) keeps its moment's forms."""
    hidden = []
    for path in changed:
        was, known = before.get(path), left.get(path)
        if was is None or known is None or path in moved_away or is_link(was) \
                or was.data != known[0]:
            continue
        old = old.set(path, FileState.from_bytes(known[1], mode=was.mode))
        hidden.append(path)
    return old, stored.without_old(hidden)


def _moved(before: Tree, after: Tree, landed: Mapping[str, str]) -> dict[str, str]:
    """New path -> removed path, for each file of ``after`` that a removed one of
    ``before`` held byte for byte: a rename, written as one (``git am`` read its removal
    and addition apart, and on a checkout's CRLF bytes the removal did not apply: QA s39
    helper-121 F5). The commit's own renames (``landed``, new path -> old) first: two
    files of one text, an LF and a CRLF blob on a checkout writing both as one CRLF file,
    were paired the other way round by their bytes, and each took the other's blob, exit 0
    (QA s41 helper-126 H5)."""
    removed: dict[bytes, list[str]] = {}
    added: set[str] = set()  # (a set: a commit may rename thousands of files)
    for path, (old, new) in before.diff(after).items():
        if new is None and old is not None:
            removed.setdefault(old.data, []).append(path)
        elif old is None and new is not None:
            added.add(path)
    moved: dict[str, str] = {}
    for path, source in landed.items():
        state = after.get(path)
        if path in added and state is not None and source in removed.get(state.data, ()):
            moved[path] = source
            removed[state.data].remove(source)
            added.discard(path)
    for path in sorted(added):
        state = after.get(path)
        sources = removed.get(state.data) if state is not None else None
        if sources:
            moved[path] = sources.pop(0)
    return moved


_BLANKS = " \t\r\n"
# A first line git am reads as a header of the commit, or drops (helper-106, -107).
_FIRST = re.compile(r"(?i:from|subject|date):|\[PATCH[\] ]|>+From ")


def _breaks(line: str) -> bool:
    """Whether ``git am`` (``git mailinfo``) takes this line of a message as the start of
    the patch, ending the message there: ``diff -``, ``Index: ``, ``---`` with blanks
    alone after it, or ``--- `` and a name (a Dependabot message holds a ``---`` line)."""
    if line.startswith(("diff -", "Index: ")):
        return True
    if not line.startswith("---"):
        return False
    # (git's own isspace: ASCII blanks alone; a no-break space after "--- " is a name to
    # it: QA s36 helper-106, the message was cut there)
    rest = line[3:]
    return (all(c in _BLANKS for c in rest)
            or (rest[:1] == " " and rest[1:2] not in ("", *_BLANKS)))


def _no_break(body: str) -> str:
    """The message with each line :func:`_breaks` finds indented by a blank: as it is, the
    rest of the message (the operations left out, the trailers) was lost in ``git am``
    (QA s36 helper-104). So is an mbox ``From `` line (``git am`` may split the mail
    there), and a first line ``From:``, ``Subject:`` or ``Date:``, which ``git am`` takes
    as a header of the commit (its author, its subject) (helper-105)."""
    lines = body.split("\n")
    # ("From ": a line git am may split the mail at)
    out = [" " + line if _breaks(line) or line.startswith("From ") else line
           for line in lines]
    if out and _FIRST.match(out[0]):
        out[0] = " " + out[0]
    return "\n".join(out)
