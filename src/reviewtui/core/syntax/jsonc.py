"""JSON with comments (``.jsonc``, and a ``.json`` file that already holds them: VS Code's
settings, ``tsconfig.json``): the text with its comments and trailing commas blanked, so
strict ``json.loads`` reads what is left at the same lines and columns.

A ``.json`` file is checked as strict JSON, where a comment is an error (``package.json``
must not get one). One that did not parse strictly before an operation but did once its
comments were blanked is read so after it too: the edits of microsoft/terminal's settings
files were each reported as bringing in an error, the comment lines they added (QA s39
helper-120).
"""

from __future__ import annotations

import re

# A string (kept), a line comment, a block comment (to its end, or the text's end when
# unterminated: each match consumes what it scans, so the scan stays linear).
_COMMENTS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?(?:\*/|\Z)', re.DOTALL)
_TRAILING = re.compile(r'"(?:[^"\\\n]|\\.)*"|,(?=\s*+[}\]])', re.DOTALL)
_NOT_NEWLINE = re.compile(r"[^\n]")


def _blank(found: re.Match[str]) -> str:
    text = found.group()
    return text if text.startswith('"') else _NOT_NEWLINE.sub(" ", text)


def without_comments(text: str) -> str:
    """``text`` with every comment and trailing comma outside strings made blanks (line
    breaks kept: every other character stays at its line and column)."""
    if "/" in text:
        text = _COMMENTS.sub(_blank, text)
    return _TRAILING.sub(_blank, text) if "," in text else text
