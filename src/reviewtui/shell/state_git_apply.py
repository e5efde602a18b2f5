"""The git rules a saved review of a plain diff was made with (``git_apply`` in the state
file): path -> what git's checkout does to it (``shell/git_apply_rules.py``).

A review evaluates its session with these rules every time it is opened: read again from
the configuration and the attributes, a change of either between two sessions (``git
config core.autocrlf``, a ``.gitattributes`` staged or made) made the saved results no
longer the review's, and a reopened review dropped its decisions and rewrote files (QA s55
helper-231 F1). A state saved without them (by a reviewtui before them) keeps the review
as it was made: no conversion (F2: the files it had written were rewritten CRLF on
reopening, and rejecting them no longer took them back). Untrusted, as all of the state
file: each entry must be one of the values the rules take, or the file is unreadable.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path

from reviewtui.core.errors import ReviewtuiError, StateFormatError
from reviewtui.core.model.records import GitApplyRule
from reviewtui.shell.loader import LoadedSession, read_input, with_git_rules
from reviewtui.shell.state import STATE_FORMAT, StateFile, parse_state_json

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

_WAYS = ("none", "auto", "all")


def encode_rules(rules: Mapping[str, GitApplyRule | None]) -> dict[str, Any]:
    """The state file's ``git_apply``: path -> [reads, writes, ident, encoding], or None."""
    return {path: None if rule is None else [rule.reads, rule.writes, rule.ident,
                                             rule.encoding]
            for path, rule in sorted(rules.items())}


def decode_rules(data: Any) -> dict[str, GitApplyRule | None]:
    """What :func:`encode_rules` wrote, checked; StateFormatError for anything else."""
    if not isinstance(data, dict) or len(data) > 1_000_000:
        raise StateFormatError("git_apply is not an object of paths")
    rules: dict[str, GitApplyRule | None] = {}
    for path, entry in data.items():
        if entry is None:
            rules[path] = None
            continue
        if not (isinstance(path, str) and isinstance(entry, list) and len(entry) == 4
                and entry[0] in _WAYS and entry[1] in _WAYS
                and isinstance(entry[2], bool) and isinstance(entry[3], str)
                and len(entry[3]) <= 64 and entry[3].isprintable()):
            raise StateFormatError(f"git_apply[{str(path)[:60]!r}] is not a git rule")
        rules[path] = GitApplyRule(entry[0], entry[1], ident=entry[2], encoding=entry[3])
    return rules


def with_saved_rules(loaded: LoadedSession, root: Path, state_file: StateFile | None
                     ) -> LoadedSession:
    """The session as a plain diff's review reads it on a git checkout (loader.py
    with_git_rules): by the rules its saved review was made with, none for a review saved
    without them; asked of git for a new review. Only the state's top level is read here,
    and only for such a session (nothing moved aside: :func:`resume` reads it whole, and
    says why a bad one is not used, which starts a new review)."""

    def saved() -> tuple[dict[str, Any] | None, bool]:
        if state_file is not None and state_file.path.is_file():
            with contextlib.suppress(ReviewtuiError, OSError, ValueError):
                doc = parse_state_json(read_input(state_file.path, "review state"))
                if isinstance(doc, dict) and doc.get("format") == STATE_FORMAT:
                    return doc.get("git_apply"), False
        return None, True

    try:
        return with_git_rules(loaded, root, saved)
    except StateFormatError:  # (a bad one: the state is set aside as a whole by resume)
        return loaded
