"""Bounds on outside text, and the one place its numbers and JSON are read.

A session, a transcript or a state file can be written to hurt: a number of 5,000 digits
(CPython refuses to convert it and suggests ``sys.set_int_max_str_digits``), JSON nested
100,000 deep (``RecursionError``), a file of 200 MB. Every such input ends here as one
:class:`InputLimitError` that names the file, the line and the rule, so the command line
prints one line and exits 2 instead of a traceback.

Pure: the shell reads files and the environment, and passes in what the limits apply to.
"""

from __future__ import annotations

import re
import sys

from reviewtui.core.errors import InputLimitError, ReviewtuiError
from reviewtui.core.text.lazy_pattern import LazyPattern

# CPython's own default bound for int(str). A turn, edit or line number never comes close;
# checked here so the message names the input instead of an interpreter setting (and
# holds when PYTHONINTMAXSTRDIGITS lowers the interpreter's bound).
MAX_DIGITS = 4300
# The lowest bound the interpreter accepts (PYTHONINTMAXSTRDIGITS=640): text no longer
# than this is read without looking the bound up (the hunk headers of a long diff).
_ALWAYS_READ = 640
# Deeper JSON is refused before parsing: far beyond any transcript or state file, and far
# enough below Python's recursion limit that whatever walks the parsed data is safe too.
MAX_JSON_DEPTH = 256
# Input files (sessions, replies, state files) larger than this are refused before they are
# read; importing runs at about 7-23 MB/s by format, so under 10 s at the limit
# (bench/bench_input_limit.py).
DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_INPUT_ENV = "REVIEWTUI_MAX_INPUT_MB"

NUMBER_TOO_LARGE = "number-too-large"
JSON_TOO_DEEP = "json-too-deep"
FILE_TOO_LARGE = "file-too-large"


def parse_int(digits: str, *, what: str = "number", source: str = "",
              line: int | None = None) -> int:
    """``int(digits)`` for outside text, or :class:`InputLimitError` for a giant number.

    ``digits`` is what a parser's ``\\d+`` (or JSON's integer syntax) matched; anything
    else is the caller's ``ValueError`` as with ``int()``.
    """
    if len(digits) <= _ALWAYS_READ:
        return int(digits.strip())
    body = digits.strip()
    count = len(body.lstrip("+-"))
    limit = max_digits()
    if count <= limit:
        return int(body)
    raise InputLimitError(f"{what} too large: {count:,} digits (at most {limit:,})",
                          source=source, line=line, rule=NUMBER_TOO_LARGE,
                          needle=body.lstrip("+-"))


def max_digits() -> int:
    """:data:`MAX_DIGITS`, or the interpreter's bound when PYTHONINTMAXSTRDIGITS lowers it."""
    interpreter = sys.get_int_max_str_digits()
    return MAX_DIGITS if interpreter == 0 else min(MAX_DIGITS, interpreter)


def line_of(text: str, offset: int, first_line: int = 1) -> int:
    return first_line + text.count("\n", 0, offset)


def place(err: ReviewtuiError, text: str, source: str, first_line: int = 1) -> ReviewtuiError:
    """``err`` with ``source`` filled in, and its line when a needle finds it in ``text``."""
    if not err.source:
        err.source = source
    if err.line is None and isinstance(err, InputLimitError) and err.needle:
        found = re.search(rf"(?<!\d){re.escape(err.needle)}(?!\d)", text)
        if found is not None:
            err.line = line_of(text, found.start(), first_line)
    err.args = (str(err),)
    return err


# -- JSON -----------------------------------------------------------------------------------

# A JSON string (closed or running to the end) or a bracket: enough to follow nesting
# without parsing. The unrolled loop keeps long strings one fast regex step each. Compiled
# on first use: only a JSON text with more brackets than the limit is scanned.
_JSON_TOKEN = LazyPattern(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def too_deep_at(text: str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """The offset of the bracket that nests ``text`` deeper than ``limit``, else None."""
    if text.count("[") + text.count("{") <= limit:  # cannot be that deep: skip the scan
        return None
    depth = 0
    for token in _JSON_TOKEN.compiled().finditer(text):
        char = text[token.start()]
        if char in "[{":
            depth += 1
            if depth > limit:
                return token.start()
        elif char in "]}":
            depth -= 1
    return None


def _json_int(digits: str) -> int:
    return parse_int(digits, what="JSON number")


def load_json(text: str, *, source: str = "", first_line: int = 1) -> object:
    """``json.loads`` for outside text.

    Syntax errors are ``json.JSONDecodeError`` as usual (callers word them); nesting past
    :data:`MAX_JSON_DEPTH` and numbers past :data:`MAX_DIGITS` are :class:`InputLimitError`
    naming ``source`` and the line (``first_line`` is the line ``text`` starts on).
    """
    import json  # here: a File Ops session or a reply needs no JSON

    deep = too_deep_at(text)
    if deep is not None:
        raise InputLimitError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels",
                              source=source, line=line_of(text, deep, first_line),
                              rule=JSON_TOO_DEEP)
    try:
        return json.loads(text, parse_int=_json_int)
    except InputLimitError as err:
        raise place(err, text, source, first_line) from None
    except RecursionError:  # only when the caller's own stack is already deep
        raise InputLimitError("JSON nested too deep to read", source=source,
                              line=first_line, rule=JSON_TOO_DEEP) from None


# -- file size ------------------------------------------------------------------------------


def too_large(source: str, size: int | None, limit: int,
              what: str = "input file") -> InputLimitError:
    """The refusal of a file of ``size`` bytes (None: unknown, a pipe) over ``limit``."""
    mb = 1024 * 1024
    enough = max(2 * limit, size or 0)
    told = f"is {size / mb:,.1f} MB, over" if size is not None else "is larger than"
    return InputLimitError(
        f"{what} {told} the {limit / mb:,.0f} MB limit; set {MAX_INPUT_ENV}="
        f"{-(-enough // mb)} (megabytes) to read it anyway", source=source,
        rule=FILE_TOO_LARGE)
