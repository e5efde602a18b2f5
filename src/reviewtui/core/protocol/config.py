"""``reviewtui.toml``: the project's own rules for the engine (read from text, no I/O)."""

from __future__ import annotations

import fnmatch
import posixpath
import re

from reviewtui.core.errors import ConfigError, PathRefused
from reviewtui.core.paths.safety import normalize_path
from reviewtui.core.record import record
from reviewtui.core.text.limits import line_of, max_digits

CONFIG_NAME = "reviewtui.toml"


def is_config_path(path: str) -> bool:
    """Does ``path`` (as written, maybe a glob) name a ``reviewtui.toml``?

    An operation on such a file changes what reviewtui runs on the reviewer's machine.
    The name judged is the one the write lands on: :func:`normalize_path`'s, which drops
    spaces around each part (``"./ reviewtui.toml"`` and ``"reviewtui.toml /."`` are the
    config). The plain spelling is judged too, so a path that normalize_path refuses
    (never written anyway) still reads as the config it names. Case is ignored: on macOS
    and Windows ``REVIEWTUI.TOML`` is the same file.
    """
    return any(_names_config(name) for name in _last_parts(path))


def _last_parts(path: str) -> tuple[str, ...]:
    """The file name ``path`` names: as normalize_path writes it, and as written."""
    plain = posixpath.normpath(path.strip().replace("\\", "/")).rsplit("/", 1)[-1]
    try:
        written = normalize_path(path).rsplit("/", 1)[-1]
    except PathRefused:
        return (plain,)
    return (written, plain)


def _names_config(name: str) -> bool:
    folded = name.casefold()
    return folded == CONFIG_NAME or (any(c in name for c in "*?[")
                                     and fnmatch.fnmatchcase(CONFIG_NAME, folded))


@record(frozen=True, slots=True)
class ProjectConfig:
    reserved: tuple[str, ...] = ()
    source: str = CONFIG_NAME
    # [checks]: (glob, command with {path}) in file order; commands run only once trusted
    checks: tuple[tuple[str, str], ...] = ()
    # sha256 of the bytes these checks were parsed from (set by the shell that read them):
    # what the reviewer trusts, pinned before any operation is applied.
    digest: str = ""


def giant_number(text: str, digits: int = 0) -> re.Match[str] | None:
    """The first run of at least ``digits`` (0: :func:`max_digits`) digits and underscores.
    Tried from a run's first character only: searched from every start, a text of runs one
    short of 4,300 cost thousands of steps a character (68 KB of them: 1.0 s; now 1.5 ms)."""
    return re.search(rf"(?<![\d_])[\d_]{{{digits or max_digits()},}}", text)


def parse_config(text: str, source: str = CONFIG_NAME) -> ProjectConfig:
    import tomllib  # only a project with a reviewtui.toml pays for the TOML parser

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"not valid TOML: {exc}", source=source,
                          line=int(m.group(1)) if m else None, rule="toml") from None
    except RecursionError:
        raise ConfigError("not valid TOML: nested too deeply", source=source,
                          rule="toml") from None
    except ValueError:  # int() past 4,300 digits (TOML integers are 64-bit anyway)
        giant = giant_number(text)
        raise ConfigError("not valid TOML: an integer longer than 64 bits", source=source,
                          line=line_of(text, giant.start()) if giant else None,
                          rule="toml") from None
    reserved = data.get("reserved", {})
    if not isinstance(reserved, dict):
        raise ConfigError("[reserved] must be a table", source=source,
                          line=_line_of_key(text, "reserved"), rule="reserved")
    paths = reserved.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError('[reserved] paths must be a list of strings such as ["dist/**"]',
                          source=source, line=_line_of_key(text, "reserved", "paths"),
                          rule="reserved")
    patterns = tuple(_reserved_pattern(p, text, source) for p in paths)
    return ProjectConfig(patterns, source, _checks(data.get("checks", {}), source, text))


def _reserved_pattern(pattern: str, text: str, source: str) -> str:
    """A ``[reserved] paths`` entry as the root-relative glob it means: a leading ``/`` or
    ``./`` anchors it at the root (as in .gitignore), a trailing ``/`` names a folder and
    all it holds. ``"/greeter/**"``, ``"./greeter/**"`` and ``"greeter/"`` reserved
    nothing before; an entry that can never match (empty, or leading out of the root)
    is an error, not silence."""
    glob = pattern.strip()
    while glob.startswith(("/", "./")):
        glob = glob[1:] if glob.startswith("/") else glob[2:]
    if glob.endswith("/"):
        glob += "**"
    parts = glob.split("/")
    if not glob or ".." in parts:
        raise ConfigError(f"[reserved] paths {pattern!r} can never match a file of the "
                          'project: write it from the root, such as "dist/**"', source=source,
                          line=_line_of_key(text, "reserved", "paths"), rule="reserved")
    return glob


def _line_of_key(text: str, table: str, key: str | None = None) -> int | None:
    """The line of ``[table]`` (or of ``key = `` after it) in the TOML ``text``, to name in
    a message; None when it cannot be told (an inline table, say)."""
    head = re.search(rf"(?m)^[ \t]*\[[ \t]*{re.escape(table)}[ \t]*\]", text)
    if head is None:  # ``reserved = 1``: the key itself, at the top level
        head = re.search(rf'(?m)^[ \t]*"?{re.escape(table)}"?[ \t]*=', text)
        return line_of(text, head.start()) if head is not None else None
    if key is None:
        return line_of(text, head.start())
    found = re.compile(rf'(?m)^[ \t]*"?{re.escape(key)}"?[ \t]*=').search(text, head.end())
    return line_of(text, found.start()) if found else line_of(text, head.start())


_CHECKS_SHAPE = ('[checks] maps a glob to a command, e.g. '
                 '"*.py" = "ruff check --output-format=json {path}"')


def _checks(table: object, source: str, text: str = "") -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict):
        raise ConfigError(f"[checks] must be a table: {_CHECKS_SHAPE}", source=source,
                          line=_line_of_key(text, "checks"), rule="checks")
    checks: list[tuple[str, str]] = []
    for glob, command in table.items():
        if not isinstance(command, str):
            raise ConfigError(f"[checks] {glob!r} must be a command string: {_CHECKS_SHAPE}",
                              source=source, line=_line_of_key(text, "checks", glob),
                              rule="checks")
        if not glob.strip():
            raise ConfigError(f"[checks] has an empty glob: {_CHECKS_SHAPE}", source=source,
                              rule="checks")
        import shlex  # here: a project that has [checks]

        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"[checks] {glob!r}: cannot split the command ({exc})",
                              source=source, rule="checks") from None
        if not argv:
            raise ConfigError(f"[checks] {glob!r}: the command is empty", source=source,
                              rule="checks")
        checks.append((glob, command))
    return tuple(checks)
