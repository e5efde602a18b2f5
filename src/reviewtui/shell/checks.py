"""Project checks: the commands a ``reviewtui.toml`` names per glob, run on scratch copies.

For one operation, the file as it was and the file as the operation leaves it are written
into two fresh scratch directories (never the reviewer's files), the matching commands run
there (``shlex.split``, no shell, the scratch directory as working directory, a timeout),
and their findings are parsed: JSON when the tool printed JSON (ruff's and eslint's shapes),
otherwise ``path:line[:col]: message`` lines. A finding is *introduced* when the file before
did not have it (same code and message; line shifts are tolerated).

Nothing here decides whether the commands may run: see :mod:`reviewtui.shell.trust`. A
command that times out, is missing or fails without findings becomes one note (a
:class:`Diagnostic` at line 0, column 0, not introduced), never an exception.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from reviewtui.core.engine import OpResult, SessionRun
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.protocol.config import ProjectConfig
from reviewtui.core.record import record
from reviewtui.core.review.diagnostics import Diagnostic, _line_map, change_texts
from reviewtui.core.text.visible import visible
from reviewtui.shell.trust import is_trusted_digest, trust_digest

if TYPE_CHECKING:
    import subprocess

DEFAULT_TIMEOUT = 20.0
MAX_FINDINGS = 200  # per command and file version

# Launchers whose first argument is the real tool: "npx eslint" is named "eslint".
_LAUNCHERS = frozenset({"npx", "uvx", "pipx", "bunx", "pnpx", "node", "uv", "poetry", "run",
                        "exec", "env", "-m"})


@record(frozen=True, slots=True)
class _Finding:
    line: int
    col: int
    code: str
    message: str


# Private: control flow inside check_change, always caught there and shown as a note.
class _Failed(Exception):
    """The command did not produce findings (timeout, not found...): the note to show."""


def matching_checks(path: str, checks: Sequence[tuple[str, str]]) -> list[str]:
    """The commands whose glob matches ``path`` (a glob without ``/`` also matches the name)."""
    name = PurePosixPath(path).name
    return [command for glob, command in checks
            if fnmatchcase(path, glob) or ("/" not in glob and fnmatchcase(name, glob))]


def command_name(command: str) -> str:
    """A short name for a command: its tool, past launchers and interpreters."""
    argv = shlex.split(command)
    for word in argv:
        base = PurePosixPath(word.replace("\\", "/")).name
        if base in _LAUNCHERS or base.startswith("python") or word.startswith("-"):
            continue
        return base
    return PurePosixPath(argv[0]).name if argv else command


def _safe_rel(path: str) -> str | None:
    rel = PurePosixPath(path)
    if rel.is_absolute() or not rel.parts or any(p in ("..", "") for p in rel.parts):
        return None
    return str(rel)


def scratch_name(rel: str) -> str:
    """The name a file is checked under in its scratch directory: ``reviewtui-check`` and
    the file's own extensions, as far as they are plain letters and digits. Never the
    file's name: a name is the session's (an agent's), and ``{path}`` in a shell
    script run it as commands (``m$(touch x).py``); and a tool loads a file of its
    config's name from its working directory (a session's ``eslint.config.js``, checked
    by ``eslint {path}``, ran as eslint's config) (QA s46 helper-141 F0, F12)."""
    suffixes = PurePosixPath(rel).suffixes
    while suffixes and not all(_PLAIN_SUFFIX.fullmatch(s) for s in suffixes):
        suffixes = suffixes[1:]
    return "reviewtui-check" + "".join(suffixes[-3:])


_PLAIN_SUFFIX = re.compile(r"\.[A-Za-z0-9_]{1,16}")


def _argv(command: str, name: str) -> list[str]:
    return [word.replace("{path}", name) for word in shlex.split(command)]


def _run(argv: list[str], cwd: Path, timeout: float) -> tuple[int, str, str]:
    import subprocess  # loaded when a trusted check runs, not for every 'check' (start-up)

    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except FileNotFoundError:
        raise _Failed(f"command not found: {argv[0]}") from None
    except OSError as exc:
        raise _Failed(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        raise _Failed(f"check timed out after {timeout:g} s") from None
    return (proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def _kill(proc: subprocess.Popen[bytes]) -> None:
    import signal

    killpg = getattr(os, "killpg", None)
    try:
        if killpg is not None:
            killpg(proc.pid, signal.SIGKILL)  # the whole group: grandchildren hold the pipes
        else:  # pragma: no cover - Windows
            proc.kill()
    except OSError:
        proc.kill()


def _int(value: object, default: int = 1) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _from_json(data: object) -> list[_Finding] | None:
    """ruff's list of findings, or eslint's list of files with messages; None: other shapes."""
    if not isinstance(data, list):
        return None
    found: list[_Finding] = []
    for item in data:
        if not isinstance(item, dict):
            return None
        if isinstance(item.get("messages"), list):  # eslint
            for msg in item["messages"]:
                if isinstance(msg, dict) and isinstance(msg.get("message"), str):
                    found.append(_Finding(_int(msg.get("line")), _int(msg.get("column")),
                                          str(msg.get("ruleId") or ""), msg["message"]))
        elif isinstance(item.get("message"), str):  # ruff (and look-alikes)
            loc = item.get("location")
            loc = loc if isinstance(loc, dict) else {}
            found.append(_Finding(_int(loc.get("row", item.get("line"))),
                                  _int(loc.get("column", item.get("column"))),
                                  str(item.get("code") or ""), item["message"]))
        else:
            return None
    return found


_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<msg>\S.*)$")


def _from_lines(text: str) -> list[_Finding]:
    found = []
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m:
            found.append(_Finding(int(m["line"]), int(m["col"] or 1), "", m["msg"].strip()))
    return found


def parse_output(stdout: str, stderr: str) -> list[_Finding] | None:
    """The findings in a command's output; None when it printed nothing readable."""
    text = stdout.strip()
    if text[:1] in ("[", "{"):
        try:
            parsed = _from_json(json.loads(text))
        except ValueError:
            parsed = None
        if parsed is not None:
            return parsed
    found = _from_lines(stdout) + _from_lines(stderr)
    return found or None


def _check_version(command: str, rel: str, text: str, timeout: float) -> list[_Finding]:
    import tempfile

    name = scratch_name(rel)
    with tempfile.TemporaryDirectory(prefix="reviewtui-check-") as scratch:
        Path(scratch, name).write_bytes(text.encode("utf-8"))
        code, out, err = _run(_argv(command, name), Path(scratch), timeout)
    found = parse_output(out, err)
    if found is None:
        if code != 0:
            first = next((ln.strip() for ln in (err + "\n" + out).splitlines() if ln.strip()),
                         "no output").replace(name, rel)
            raise _Failed(f"check failed (exit {code}): {first}")
        return []
    return found[:MAX_FINDINGS]


def _message(f: _Finding) -> str:
    return f"{f.code} {f.message}" if f.code else f.message


def _compare(before: list[_Finding], after: list[_Finding], mapping: Mapping[int, int],
             check: str) -> list[Diagnostic]:
    """Mark each after-finding introduced unless the before had it (same code and message).

    First the findings on lines the edit left unchanged are paired, then any remaining same
    code and message (the line moved in a changed region), one for one.
    """
    exact = Counter((mapping.get(f.line), f.code, f.message) for f in before)
    loose = Counter((f.code, f.message) for f in before)
    old = [False] * len(after)
    for i, f in enumerate(after):
        key = (f.line, f.code, f.message)
        if exact[key] > 0:
            exact[key] -= 1
            loose[(f.code, f.message)] -= 1
            old[i] = True
    for i, f in enumerate(after):
        if not old[i] and loose[(f.code, f.message)] > 0:
            loose[(f.code, f.message)] -= 1
            old[i] = True
    return [Diagnostic(f.line, f.col, _message(f), not was, check)
            for f, was in zip(after, old, strict=True)]


def check_change(path: str, before: str | None, after: str | None, command: str,
                 timeout: float = DEFAULT_TIMEOUT) -> list[Diagnostic]:
    """One project check on one change of one file; problems running it become a note."""
    check = f"project: {command_name(command)}"
    rel = _safe_rel(path)
    if after is None:
        return []
    if rel is None:
        return [Diagnostic(0, 0, f"not checked: unsafe path {path!r}", False, check)]
    try:
        found_after = _check_version(command, rel, after, timeout)
        if not found_after:
            return []
        found_before = (_check_version(command, rel, before, timeout)
                        if before is not None else [])
    except _Failed as failed:
        return [Diagnostic(0, 0, str(failed), False, check)]
    mapping: Mapping[int, int] = (_line_map(before, after)
                                  if before is not None and found_before else {})
    return _compare(found_before, found_after, mapping, check)


def check_result(result: OpResult, checks: Sequence[tuple[str, str]],
                 timeout: float = DEFAULT_TIMEOUT) -> tuple[Diagnostic, ...]:
    """Every matching project check on the file as this operation leaves it."""
    texts = change_texts(result)
    if texts is None:
        return ()
    path, before, after = texts
    # (a list first: a tuple built from a generator that runs processes is resized
    # while other threads run, and must then be referenced from nowhere else)
    return tuple([d for command in matching_checks(path, checks)
                  for d in check_change(path, before, after, command, timeout)])


def check_run(run: SessionRun, checks: Sequence[tuple[str, str]],
              timeout: float = DEFAULT_TIMEOUT) -> dict[OpKey, tuple[Diagnostic, ...]]:
    """The project checks' diagnostics of every operation of a session run that has some."""
    out: dict[OpKey, tuple[Diagnostic, ...]] = {}
    if not checks:
        return out
    for turn in run.turns:
        for result in turn.results:
            found = check_result(result, checks, timeout)
            if found:
                out[result.key] = found
    return out


def checks_to_run(config: ProjectConfig, *, trust_now: bool = False,
                  trust_file: Path | None = None) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """The project's checks when the reviewer trusts its config file, else none and a note.

    The commands are the ones parsed when the project was loaded, before any operation was
    applied, and trust is looked up by the digest of exactly those bytes: a session that
    rewrites ``reviewtui.toml`` changes neither what runs in this run nor what is trusted.
    ``trust_now`` (``--trust-checks``) trusts these pinned bytes first.
    """
    checks = config.checks
    if not checks:
        return (), None
    source = config.source
    if not config.digest:
        return (), f"{source}: note: project checks not run: the file's content was not pinned"
    if trust_now:
        trust_digest(config.digest, source, trust_file)
    elif not is_trusted_digest(config.digest, trust_file):
        # Spelled out whole (newlines too): a command must not draw a line of its own.
        commands = "; ".join(visible(command) for _glob, command in checks)
        return (), (f"{source}: note: project checks not run: this file is not trusted "
                    f"(commands: {commands}); run with --trust-checks to trust this exact "
                    "file and run them")
    return checks, None
