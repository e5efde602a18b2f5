"""Read what other agents wrote into the session model: one entry point, auto-detected.

``import_session(text, source)`` returns a :class:`Session` whatever the source format;
``detect_format`` says which reader it picks. Every reader is pure (text in, records
out) and raises only :class:`SessionFormatError`, naming the file, line and rule.

Formats (``FORMATS``):

* ``fileops``: reviewtui's own Markdown session (``## Turn N`` headings);
* ``chat``: a JSON/JSONL transcript of ``{"role", "content"}`` File Ops replies;
* ``apply_patch``: Codex ``*** Begin Patch`` patches (:mod:`.codex`);
* ``aider``: an Aider ``.aider.chat.history.md`` (:mod:`.aider`);
* ``unified``: a unified diff / ``git diff`` / ``git format-patch`` (:mod:`.unified`);
* ``claude``: a Claude Code session transcript, JSONL (:mod:`.claude`);
* ``toolcalls``: JSON lines of edit tool calls (:mod:`.toolcalls`);
* ``git``: a commit range or a working tree, as ``reviewtui --git``/``--worktree``
  write it (:mod:`.gitlog`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from reviewtui.core.errors import InputLimitError, SessionFormatError
from reviewtui.core.model.records import Session, literal_session
from reviewtui.core.record import replace
from reviewtui.core.text.lazy_pattern import LazyPattern
from reviewtui.core.text.limits import place

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.lint.rules import FILEOPS_FORMATS

# Each reader (and each detector but the git header's) is imported when it is used: a
# File Ops session never loads the Aider, Claude, patch or diff readers (start-up).

FORMATS = ("fileops", "chat", "apply_patch", "aider", "unified", "claude", "toolcalls",
           "git")
# Formats whose edits carry exact text: no elision semantics, so a "..." line is code and
# is never refused as a truncation placeholder (File Ops and Aider keep the guard).
LITERAL_FORMATS = frozenset({"apply_patch", "unified", "claude", "toolcalls", "git"})

# The first line of a git session (``gitlog.MARKER``; a test keeps them equal): checked
# here so that detecting any other format does not load the git reader.
GIT_HEADER = "# reviewtui git session: "
_TURN_HEADING = re.compile(r"^#{1,3} *Turn +\d+", re.MULTILINE)
_BEGIN_PATCH = LazyPattern(r"^[ \t]*\*\*\* Begin Patch[ \t]*\r?$", re.MULTILINE)

__all__ = ["FILEOPS_FORMATS", "FORMATS", "LITERAL_FORMATS", "SessionFormatError", "detect_format",
           "import_session"]


def detect_format(text: str, name: str = "") -> str:
    """The format ``text`` is written in; ``name`` (a file name) only breaks ties."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if text.lstrip("\ufeff").startswith(GIT_HEADER):  # gitlog.looks_like_git_session
        return "git"
    head = text.lstrip("\ufeff \t\r\n")[:1]
    if (head and head in "[{") or base.endswith((".json", ".jsonl")):
        from reviewtui.core.importers.claude import looks_like_claude
        from reviewtui.core.importers.toolcalls import looks_like_toolcalls

        if looks_like_toolcalls(text):
            return "toolcalls"
        return "claude" if looks_like_claude(text) else "chat"
    if base.endswith(".aider.chat.history.md"):
        return "aider"
    if _TURN_HEADING.search(text):
        return "fileops"
    # Before patches and diffs: Aider histories quote both in their replies.
    from reviewtui.core.importers.aider import looks_like_aider

    if looks_like_aider(text):
        return "aider"
    if _BEGIN_PATCH.search(text):
        return "apply_patch"
    from reviewtui.core.importers.unified import looks_like_unified

    if looks_like_unified(text):
        return "unified"
    return "fileops"


def _fileops(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.protocol.session import parse_markdown_session

    return parse_markdown_session(text, source)


def _chat(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.protocol.session import parse_transcript

    return replace(parse_transcript(text, source), format="chat")


def _apply_patch(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.importers.codex import import_apply_patch

    return import_apply_patch(text, source, root=root)


def _aider(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.importers.aider import import_aider

    return import_aider(text, source)


def _unified(text: str, source: str, root: str | None,
             exists: Callable[[str], bool] | None = None) -> Session:
    from reviewtui.core.importers.unified import import_unified

    return import_unified(text, source, root=root, literal=True, exists=exists)


def _claude(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.importers.claude import import_claude

    return import_claude(text, source, root=root)


def _toolcalls(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.importers.toolcalls import import_toolcalls

    return import_toolcalls(text, source)


def _git(text: str, source: str, root: str | None) -> Session:
    from reviewtui.core.importers.gitlog import import_git

    return import_git(text, source, root=root, literal=True)


_READERS: dict[str, Callable[[str, str, str | None], Session]] = {
    "fileops": _fileops,
    "chat": _chat,
    "apply_patch": _apply_patch,
    "aider": _aider,
    "unified": _unified,
    "claude": _claude,
    "toolcalls": _toolcalls,
    "git": _git,
}


def import_session(text: str, source: str = "session", *, format: str | None = None,
                   root: str | None = None,
                   exists: Callable[[str], bool] | None = None) -> Session:
    """Read ``text`` as ``format`` (None or "auto": detected from the content).

    ``root`` is the project's absolute path: absolute paths under it (Claude Code,
    apply_patch) become relative; others stay absolute and the engine refuses them.
    ``exists``: whether the project holds a file at a relative path (a unified diff whose
    prefixes are deeper than its headers show is read with the project's help).
    """
    try:
        chosen = detect_format(text, source) if format in (None, "auto") else format
    except InputLimitError as err:
        raise place(err, text, source) from None
    except Exception as exc:  # a detector bug must still end as a clean message
        raise SessionFormatError(f"cannot tell the format: {type(exc).__name__}: {exc}; name "
                                 "it with --format", source=source, rule="detect-failed") from exc
    reader = _READERS.get(chosen or "")
    if reader is None:
        raise SessionFormatError(f"unknown session format {format!r}; choose one of "
                                 f"{', '.join(FORMATS)}", source=source, rule="format")
    try:
        session = (_unified(text, source, root, exists) if reader is _unified
                   else reader(text, source, root))
    except InputLimitError as err:  # a parser that met it may not know the line
        raise place(err, text, source) from None
    except SessionFormatError:
        raise
    except Exception as exc:  # a reader bug must still end as a clean message
        raise SessionFormatError(f"cannot read as {chosen}: {type(exc).__name__}: {exc}",
                                 source=source, rule="import-failed") from exc
    return literal_session(session) if chosen in LITERAL_FORMATS else session


def __getattr__(name: str) -> object:
    """``FILEOPS_FORMATS`` is the lint rules' (kept here for callers), loaded on first use."""
    if name == "FILEOPS_FORMATS":
        from reviewtui.core.lint.rules import FILEOPS_FORMATS

        return FILEOPS_FORMATS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
