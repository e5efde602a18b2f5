"""A file block indented like a list item: its content is not read (``indented-block``).

A model that writes its blocks inside a list item indents the header and every line after
it (QA s47 helper-154 M7). The header reads at any indentation, but a fence opens only at
the start of a line and content is taken as written: the block's fence lines and its
indentation were written into the file, exit 0. Such a block is refused, never guessed:

* unfenced content whose first line is an indented fence line (edit_signs, while the
  content is read);
* here, an indented header whose unfenced content is indented by the header's own
  indentation, every line of it: the indentation is the list item's, not the file's.

Nothing in the block is applied; the problem says to write the block at the start of the line.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.model.records import FileBlock, FullFile, ParseProblem, Reply, Span
from reviewtui.core.record import replace

INDENTED = "indented-block"


def hold_indented(reply: Reply, lines: Sequence[str]) -> Reply:
    """``reply`` with each unfenced full file under an indented header emptied when all its
    content lines carry that indentation (module doc). ``lines`` are the lines the reply's
    spans count."""
    blocks = list(reply.blocks)
    found: list[ParseProblem] = []
    for n, block in enumerate(reply.blocks):
        if not isinstance(block, FileBlock) or block.fenced:
            continue
        full = next((op for op in block.ops if isinstance(op, FullFile)), None)
        if full is None:
            continue
        header = lines[block.header_span.start - 1]
        indent = header[: len(header) - len(header.lstrip())]
        content = [line for line in full.lines if line.strip()]
        if not indent or not content or not all(line.startswith(indent) for line in content):
            continue
        blocks[n] = replace(block, ops=())
        found.append(ParseProblem(
            INDENTED, f"the header and every line of {block.path!r} are indented by "
            f"{len(indent)} characters (a block written as a list item): read as the file's "
            "content, that indentation would be written into the file; the block is not read "
            "as the file's content, and nothing in it is applied (write the header and the "
            "content at the start of the line)", Span(full.span.start, full.span.start)))
    if not found:
        return reply
    return replace(reply, blocks=tuple(blocks),
                   problems=tuple(sorted([*reply.problems, *found], key=lambda p: p.span.start)))
