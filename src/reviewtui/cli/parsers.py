"""The argparse parser classes of ``reviewtui``'s command line (``build_parser`` in
``reviewtui.cli``). Apart, so a command line ``reviewtui.cli.quick_args`` reads does not
import argparse (issue 13, "Headless start-up")."""

from __future__ import annotations

import argparse
import sys

from reviewtui.cli import EXIT_USAGE, _columns

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any


class Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)


class Parser(argparse.ArgumentParser):
    # True on a subcommand this run does not parse (``build_parser(only=...)``): it keeps
    # its name and help for ``reviewtui --help``, but its options are not built, which is
    # most of what building the parser costs a short command.
    inert = False
    _inert_group: argparse._MutuallyExclusiveGroup | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if self.inert:
            return argparse.Action([], argparse.SUPPRESS)
        return super().add_argument(*args, **kwargs)

    def add_mutually_exclusive_group(self, *, required: bool = False
                                     ) -> argparse._MutuallyExclusiveGroup:
        if self.inert:  # nor are its groups' options built: one group stands for them
            self._inert_group = self._inert_group or InertGroup(self, required=required)
            return self._inert_group
        return super().add_mutually_exclusive_group(required=required)


class InertGroup(argparse._MutuallyExclusiveGroup):
    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return argparse.Action([], argparse.SUPPRESS)


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[Parser]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class Subcommands(_SubParsers):
    only: str | None = None  # the subcommand whose options are built; None: every one
    _inert: Parser | None = None  # the one parser the other subcommands share

    def add_parser(self, name: str, **kwargs: Any) -> Parser:
        inert = self.only is not None and name != self.only
        if not inert:
            return super().add_parser(name, **kwargs)
        # It never parses: it only lists its name and help in ``reviewtui --help``. So it
        # needs no -h, and no parser of its own: each cost two gettext look-ups and half
        # of building the command line. argparse registers the name and help as usual,
        # mapped to one empty parser that all such subcommands share.
        kwargs["add_help"] = False
        shared = self._inert
        if shared is None:
            shared = self._inert = super().add_parser(name, **kwargs)
            shared.inert = True
            return shared
        make = self._parser_class
        self._parser_class = lambda **_: shared  # type: ignore[assignment]  # only called
        try:
            return super().add_parser(name, **kwargs)
        finally:
            self._parser_class = make
