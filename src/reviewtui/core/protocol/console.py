"""Reading one structural command line (``:mv -f a b``) into a record."""

from __future__ import annotations

from reviewtui.core.model.records import CommandName, ConsoleCommand, ParseProblem, Span
from reviewtui.core.protocol.grammar import COMMAND_RE
from reviewtui.core.text.plural import plural

# (fewest, most) path arguments; None = no upper bound.
_ARITY: dict[CommandName, tuple[int, int | None]] = {
    CommandName.RM: (1, None),
    CommandName.MV: (2, 2),
    CommandName.RN: (2, 2),
    CommandName.UNDO: (0, 0),
    CommandName.UNRM: (1, None),
}
_USAGE = {
    CommandName.RM: ":rm <path|glob> ...",
    CommandName.MV: ":mv [-f] <src> <dest>",
    CommandName.RN: ":rn [-f] <old> <new>",
    CommandName.UNDO: ":undo",
    CommandName.UNRM: ":unrm <path> ...",
}


def _split(rest: str) -> list[str]:
    if '"' not in rest and "'" not in rest and "\\" not in rest:
        return rest.split()  # the common case, without shlex's per-character loop
    import shlex  # here: a command with quotes or backslashes only

    try:
        return shlex.split(rest)
    except ValueError:  # an unbalanced quote: fall back to plain words
        return rest.split()


def parse_command(line: str, lineno: int, *, fenced: bool) -> ConsoleCommand | ParseProblem:
    """One ``:`` line to a command, or a problem naming what was expected."""
    span = Span(lineno, lineno)
    m = COMMAND_RE.match(line)
    raw_name = (m.group("name") or "") if m else ""
    try:
        name = CommandName(raw_name.lower())
    except ValueError:
        known = ", ".join(f":{n}" for n in CommandName)
        return ParseProblem(
            "unknown-command",
            f"unknown console command {line.strip()!r}; the protocol knows {known}",
            span,
        )
    words = _split(m.group("rest") if m else "")
    force = False
    if "-f" in words:
        if name not in (CommandName.MV, CommandName.RN):
            return ParseProblem(
                "bad-command-arguments",
                f"{line.strip()!r}: only :mv and :rn take -f; expected {_USAGE[name]}",
                span,
            )
        force = True
        words = [w for w in words if w != "-f"]
    fewest, most = _ARITY[name]
    if len(words) < fewest or (most is not None and len(words) > most):
        return ParseProblem(
            "bad-command-arguments",
            f"{line.strip()!r} has {plural(len(words), 'argument')}; expected {_USAGE[name]}",
            span,
        )
    return ConsoleCommand(name, tuple(words), force, line.strip(), span, fenced)
