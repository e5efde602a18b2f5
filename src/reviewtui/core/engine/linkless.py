"""The links an operation's path is checked against, and a shortcut when there are none.

Every file operation's path is checked for links on its way (``file_edits.check_path``):
through a :class:`~reviewtui.core.engine.links.LinkView`, that is a tree walk for the
path and for each of its folders, several per operation, also for each later edit a
decision makes the engine evaluate again.

A link enters a tree only from the base (the project's own links, or the disk's list of
them in ``Rules.symlinks``) or from a full file of link mode (``120000``): a command
moves, removes or restores only what a tree already holds, an edit writes text. So when
the base holds no link, the disk names none and no operation of the session writes one,
no tree of the run has a link, and every lookup in the view would miss: an empty mapping
answers the same, for nothing. Whether that holds is worked out once per (session, base).
"""

from __future__ import annotations

import _thread
from collections.abc import Mapping

from reviewtui.core.engine.links import LinkView, is_link
from reviewtui.core.model.records import FullFile, Session
from reviewtui.core.model.tree import Tree

_NONE: Mapping[str, str] = {}  # (never written to)
_KEPT = 4  # (session, base) pairs remembered: a review has a display run and a draft
_lock = _thread.allocate_lock()
_known: list[tuple[Session, Tree, bool]] = []  # most recent last; holding them keeps ids


def link_view(disk: Mapping[str, str], base: Tree, tree: Tree,
              session: Session) -> Mapping[str, str]:
    """The links of ``tree`` (and the disk's the base lacks), for checking a path of an
    operation of ``session`` run over ``base``: empty when none can exist."""
    if not disk and _linkless(session, base):
        return _NONE
    return LinkView(disk, base, tree)


def _linkless(session: Session, base: Tree) -> bool:
    with _lock:
        for known_session, known_base, answer in reversed(_known):
            if known_session is session and known_base is base:
                return answer
    answer = not any(is_link(state) for state in base.states()) and not any(
        isinstance(op, FullFile) and op.mode is not None and _link_mode(op.mode)
        for turn in session.turns for op in turn.reply.ops)
    with _lock:
        _known.append((session, base, answer))
        del _known[:-_KEPT]
    return answer


def _link_mode(mode: int) -> bool:
    from reviewtui.core.engine.filebytes import is_link_mode  # modes: git diffs alone

    return is_link_mode(mode)
