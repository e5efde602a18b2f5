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
# A format-patch mail's first line, or git show's / git log's commit line.
_MAIL = re.compile(r"From [0-9a-f]{7,40} |commit [0-9a-f]{7,40}\b")
_GIT_DIFF = LazyPattern(r"^diff --git ", re.MULTILINE)
_PLAIN_DIFF = LazyPattern(r"^--- .*\n\+\+\+ .*\n@@ -\d", re.MULTILINE)
_BEGIN_PATCH = LazyPattern(r"^[ \t]*\*\*\* Begin Patch[ \t]*\r?$", re.MULTILINE)

__all__ = ["FILEOPS_FORMATS", "FORMATS", "LITERAL_FORMATS", "SessionFormatError", "detect_format",
           "first_diff_header", "import_session"]


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
    mail = looks_like_mail(text)
    if mail and first_diff_header(text) is not None:
        # A format-patch mail (or git show's commit) is a diff whatever its message
        # quotes: a Codex patch, a File Ops turn or an Aider block there is text (QA s46
        # helper-142 H4b: the quoted operation ran, the commit's own diff did not).
        return "unified"
    if _TURN_HEADING.search(text):
        return "fileops"
    # Before patches and diffs: Aider histories quote both in their replies.
    from reviewtui.core.importers.aider import looks_like_aider

    if looks_like_aider(text):
        return "aider"
    diff = first_diff_header(text)
    patch = _BEGIN_PATCH.search(text)
    # A diff whose lines quote a Codex patch (its fixtures, its docs) has the marker
    # after a space or a sign: a patch counts first only from its own line's start, and
    # before the diff's first header (QA s46 helper-142 H4: read as a patch, a quoted
    # "*** Delete File" removed a project file and the diff's own change was not made).
    if patch is not None and (diff is None or (patch.group().startswith("*")
                                               and patch.start() < diff)):
        return "apply_patch"
    # A mail with no diff header to be seen (base64), and no other format's structure, is
    # refused as a diff, saying why (it was read as a File Ops session of no turns, exit
    # 0: helper-145); a Codex patch saved under mail headers stays one (QA s47 L1).
    return "unified" if diff is not None or mail else "fileops"


def looks_like_mail(text: str) -> bool:
    """A mail (git's ``From <sha>`` line or headers with a Subject, past blank lines) or
    git show's ``commit <sha>`` (QA s46 helper-143 F2: a leading blank line or a saved
    mail's headers let a quoted Codex patch decide the format again)."""
    stripped = text.lstrip("\ufeff\r\n")
    if _MAIL.match(stripped):
        return True
    from reviewtui.core.importers.mails import is_mail

    # Headers alone, without git's From line: no File Ops session's front matter either
    # (QA s46 helper-145 F9: From and Subject there read it as a mail).
    return (stripped[:1].isalpha() and is_mail(stripped)
            and _TURN_HEADING.search(stripped) is None)


def first_diff_header(text: str) -> int | None:
    """Where the first file header of a diff in ``text`` starts (a ``diff --git`` line,
    or ``---``/``+++`` lines followed by a hunk), None when there is none."""
    found = [m.start() for m in (_GIT_DIFF.search(text), _PLAIN_DIFF.search(text)) if m]
    return min(found) if found else None


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
    if format in (None, "auto") and chosen == "apply_patch":
        _refuse_two_formats(text, source)
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


def _refuse_two_formats(text: str, source: str) -> None:
    """A Codex patch at a line's start and Aider's requests followed by SEARCH blocks, with
    no Aider header: either may quote the other, so neither is guessed (QA s47
    helper-148 F8: the quoted Aider block was written, the patch never read, exit 0)."""
    from reviewtui.core.importers.aider import requests_then_blocks

    if requests_then_blocks(text):
        raise SessionFormatError(
            "this text has two formats: a Codex '*** Begin Patch' line and Aider's '#### ' "
            "requests followed by SEARCH/REPLACE blocks (and no '# aider chat started' "
            "header); one may quote the other, so neither is guessed: name the one it is "
            "with --format apply_patch or --format aider", source=source, rule="two-formats")


def __getattr__(name: str) -> object:
    """``FILEOPS_FORMATS`` is the lint rules' (kept here for callers), loaded on first use."""
    if name == "FILEOPS_FORMATS":
        from reviewtui.core.lint.rules import FILEOPS_FORMATS

        return FILEOPS_FORMATS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
