"""How the repository's configuration has git check text out: ``core.autocrlf`` and
``core.eol`` as git reads them (the values :meth:`~reviewtui.shell.git.Repo.at` read with
the filter drivers, else asked of git), and what they make of a text file."""

from __future__ import annotations

import os

from reviewtui.shell.git import Repo


def line_config(repo: Repo) -> tuple[str, bytes]:
    """(``core.autocrlf`` as git reads it: "true", "input" or "false"; ``core.eol``,
    lowercase, b"" where unset)."""
    # As git reads the boolean: "true", "yes", "on", a number but 0, or "[core] autocrlf"
    # with no value (QA s38 helper-117 N1, s40 helper-123 F1); "input" is no boolean
    # (exit 128): it converts nothing on checkout.
    known = known_line_config(repo)
    if known is not None:
        return known
    boolean = repo.git("config", "--type=bool", "--get", "core.autocrlf",
                       ok=(0, 1, 128)).strip()
    raw = b"" if boolean else repo.git("config", "--get", "core.autocrlf",
                                       ok=(0, 1)).strip().lower()
    eol = repo.git("config", "--get", "core.eol", ok=(0, 1)).strip().lower()
    return "true" if boolean == b"true" else "input" if raw == b"input" else "false", eol


_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off", "")


def known_line_config(repo: Repo) -> tuple[str, bytes] | None:
    """:func:`line_config` from the values :meth:`Repo.at` read (no process), when they
    are in a form whose reading is plain: no value or a word git reads as a boolean,
    "input", a plain number (git's reading: not 0); None for anything else (a number
    with a unit, a value git refuses), asked of git itself as before."""
    if repo.line is None:
        return None
    values = dict(repo.line)
    raw = values.get("core.autocrlf", "false")
    eol = (values.get("core.eol") or "").strip().lower().encode("utf-8", "surrogateescape")
    if raw is None:
        return "true", eol  # "[core] autocrlf" with no value: true
    word = raw.lower()
    if word in _TRUE or word in _FALSE or word == "input":
        return ("true" if word in _TRUE else word if word == "input" else "false"), eol
    if raw.isascii() and raw.isdigit():
        return ("true" if int(raw) else "false"), eol
    return None


def config_converts(repo: Repo) -> tuple[bool, bool]:
    """(whether the configuration makes git check every text file out with CRLF,
    ``core.autocrlf`` or ``core.eol=crlf``; whether the native line ending is CRLF, where a
    ``text`` attribute converts too: ``core.eol`` "native", or unset, on Windows)."""
    autocrlf, eol = line_config(repo)
    return autocrlf == "true" or eol == b"crlf", _native_crlf(eol)


def checkout_config(repo: Repo) -> tuple[str, bool]:
    """(``core.autocrlf`` as git reads it: "true", "input" or "false"; whether a ``text``
    file is checked out with CRLF, git's ``text_eol_is_crlf``)."""
    autocrlf, eol = line_config(repo)
    return autocrlf, autocrlf == "true" or (autocrlf == "false" and (
        eol == b"crlf" or _native_crlf(eol)))


def _native_crlf(eol: bytes) -> bool:
    """Whether the native line ending is CRLF: ``core.eol`` "native", or unset, on Windows."""
    return os.name == "nt" and eol in (b"", b"native")
