"""The plain command lines of ``check``, ``apply`` and ``lint``, read without argparse
(issue 13, "Headless start-up").

Importing argparse, building its parsers (each one looks up its group titles through
gettext, which imports ``locale`` and searches for translation files) and parsing cost a
one-turn ``check`` about a tenth of its CPU. A command line made only of these commands'
own option strings, spelt out in full, their values not starting with ``-``, and at most
one positional, means the same to argparse whatever the order (a repeated option: its
last value); this module reads such a line into the namespace argparse would give.
Anything else (``-h``, ``--version``, an abbreviated option, ``--root=x``, ``--``, two
positionals, a value starting with ``-``, a ``--format`` that is not a choice, both
``--git`` and ``--worktree``, no session at all) gets ``None``, and ``reviewtui.cli.main``
hands the line to argparse, which parses it or reports it as before.

The table below must say what ``build_parser`` says: tests/cli/test_cli_quick_args.py
compares it with the parser's actions, and the namespaces of random command lines with
argparse's.
"""

from __future__ import annotations

from types import SimpleNamespace

from reviewtui.cli import SESSION_FORMATS

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from collections.abc import Sequence

# option string -> (dest, what follows): "flag" (store_true, no value), "value" (any
# one value), or the values it accepts (choices).
_Options = dict[str, tuple[str, str | tuple[str, ...]]]
_SESSION_OPTIONS: _Options = {"--git": ("git_range", "value"), "--worktree": ("worktree", "flag"),
                    "--format": ("format", SESSION_FORMATS), "--root": ("root", "value")}
# subcommand -> (its positional, its options). A subcommand with --git/--worktree
# (cli/gitsource.py) has an optional session and a ``git_parser`` default.
COMMANDS: dict[str, tuple[str, _Options]] = {
    "check": ("session", {**_SESSION_OPTIONS, "--json": ("json", "flag"),
                          "--from-disk": ("from_disk", "flag"),
                          "--trust-checks": ("trust_checks", "flag")}),
    "apply": ("session", {**_SESSION_OPTIONS, "--yes": ("yes", "flag"),
                          "--turns": ("turns", "value"),
                          "--accept-fuzzy": ("accept_fuzzy", "flag"),
                          "--trust-checks": ("trust_checks", "flag"),
                          "--strict": ("strict", "flag"), "--partial": ("partial", "flag"),
                          "--json": ("json", "flag"), "--state": ("state", "value"),
                          "--commit": ("commit", "flag"), "--branch": ("branch", "value")}),
    "lint": ("file", {"--json": ("json", "flag")}),
}


def parse(words: Sequence[str]) -> SimpleNamespace | None:
    """The namespace ``build_parser().parse_args(words)`` gives, or None when this module
    does not read ``words`` (then argparse must)."""
    if not words or words[0] not in COMMANDS:
        return None
    positional_dest, options = COMMANDS[words[0]]
    found: dict[str, object] = {}
    positional: str | None = None
    rest = iter(words[1:])
    for word in rest:
        if not word.startswith("-"):
            if positional is not None:
                return None  # argparse: "unrecognized arguments"
            positional = word
            continue
        dest, takes = options.get(word, ("", ""))
        if not dest:
            return None  # not one of its options as spelt (argparse takes abbreviations)
        if takes == "flag":
            found[dest] = True
            continue
        value = next(rest, None)
        if value is None or value.startswith("-") or (takes != "value" and value not in takes):
            return None
        found[dest] = value
    git = "--git" in options
    if git:
        if ("git_range" in found and "worktree" in found) or not (
                positional or "git_range" in found or "worktree" in found):
            return None  # argparse's group error; a usage error through git_parser
    elif positional is None:
        return None  # a required positional: argparse's usage error
    args = SimpleNamespace(command=words[0])
    for dest, takes in options.values():
        setattr(args, dest, False if takes == "flag" else None)
    if "--format" in options:
        args.format = "auto"
    vars(args).update(found)
    setattr(args, positional_dest, positional)
    if git:
        args.git_parser = None  # argparse's is the parser: only the usage error above used it
    return args
