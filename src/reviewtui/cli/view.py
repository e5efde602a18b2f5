"""``reviewtui view FILE``: a file with line numbers or ids, or an outline of a long one."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewtui.cli import EXIT_OK
from reviewtui.core.agent.outline import OUTLINE_FROM, numbered, outline
from reviewtui.core.errors import UsageError
from reviewtui.core.model.tree import FileState
from reviewtui.core.text.hashline import line_id
from reviewtui.core.text.plural import plural


def parse_range(spec: str, total: int) -> tuple[int, int]:
    """``N``, ``A-B``, ``A-`` (to the end) or ``-B``; an end past the file is the file's
    end. (``A-`` was read as line A alone.)"""
    first, dash, last = spec.partition("-")
    try:
        a = int(first) if first or not dash else 1
        b = (int(last) if last else max(total, a)) if dash else a
    except ValueError:
        raise UsageError(f"--range takes A-B, N, A- or -B, not {spec!r}", rule="range") from None
    if not 1 <= a <= b:
        raise UsageError(f"--range {spec} is not a range of lines", rule="range")
    return a, min(b, total)


def view(args: argparse.Namespace) -> int:
    from reviewtui.shell.loader import read_text  # imports every session reader: only here

    path = Path(args.file)
    text = read_text(path, "file")
    lines = FileState.from_text(text).lines
    if args.range:
        a, b = parse_range(args.range, len(lines))
        for row in numbered(lines[a - 1 : b], start=a, hashed=args.hash):
            print(row)
        return EXIT_OK
    if len(lines) <= OUTLINE_FROM or args.all:
        for row in numbered(lines, hashed=args.hash):
            print(row)
        return EXIT_OK
    entries = outline(str(path), lines)
    print(f"{path}: {plural(len(lines), 'line')}; outline below (--range A-B shows lines, "
          "--all the whole file)")
    width = len(str(len(lines))) + (3 if args.hash else 0)
    for entry in entries:
        label = line_id(entry.number, entry.text) if args.hash else str(entry.number)
        reach = f"  (to {entry.end})" if entry.end > entry.number else ""
        print(f"{label:>{width}}  {entry.text}{reach}")
    if not entries:
        print("(no outline for this file type: use --range)")
    return EXIT_OK
