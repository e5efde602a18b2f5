"""Rules about operations on the project's own reviewtui configuration.

``reviewtui.toml`` names the ``[checks]`` commands reviewtui runs on the reviewer's machine
once the reviewer trusts that exact file. A session that writes, creates, moves or removes
it changes what would run there: the reviewer has to see that before accepting it.
Trust never follows the change (the checks of a run are the ones read before anything is
applied, and the changed file asks for trust again).
"""

from __future__ import annotations

from collections.abc import Iterator

from reviewtui.core.lint.base import Hit, LintContext, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.model.records import CommandName, ConsoleCommand, Operation
from reviewtui.core.protocol.config import CONFIG_NAME, is_config_path

_FILE_COMMANDS = frozenset({CommandName.RM, CommandName.MV, CommandName.RN, CommandName.UNRM})


def touches_config(op: Operation) -> bool:
    """Does the operation write, create, move or remove a ``reviewtui.toml``? Every path
    argument counts (a move's source and its destination), spelled as written."""
    if isinstance(op, ConsoleCommand):
        return op.name in _FILE_COMMANDS and any(is_config_path(arg) for arg in op.args)
    return is_config_path(op.path)


CONFIG_WARNING = (f"changes what runs on the reviewer's machine: {CONFIG_NAME} names the "
                  "[checks] commands reviewtui runs; the changed file is never trusted "
                  "implicitly")


@rule("config-change", Severity.WARNING,
      f"an operation that writes, moves or removes the project's {CONFIG_NAME}")
def config_change(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        if any(touches_config(op) for op in block.ops):
            yield Hit(block.header_span, f"edits {block.path!r}: {CONFIG_WARNING}", block.path)
    for cmd in ctx.commands:
        if touches_config(cmd):
            yield Hit(cmd.span, f"{cmd.text.strip()!r} {CONFIG_WARNING}", cmd.args[0])


RULES = (config_change,)
