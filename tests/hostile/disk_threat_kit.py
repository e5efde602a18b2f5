"""Shared by the disk threat modules: sessions written as File Ops Protocol Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class Edit:
    path: str
    search: str  # lines without the final newline
    replace: str


@dataclass(frozen=True)
class Full:
    path: str
    content: str  # each line ends with "\n"


@dataclass(frozen=True)
class Command:
    text: str  # ":mv a b"


Op = Edit | Full | Command


def session_markdown(turns: Sequence[Sequence[Op]]) -> str:
    out = ["# Session: threats\n"]
    for number, ops in enumerate(turns, start=1):
        out.append(f"\n## Turn {number}\n> request {number}\n")
        commands = [op.text for op in ops if isinstance(op, Command)]
        if commands:
            out.append("\n```console\n" + "\n".join(commands) + "\n```\n")
        changed: list[str] = []
        for op in ops:
            if isinstance(op, Command):
                continue
            out.append(f"\n--- File: {op.path} ---\n")
            changed.append(op.path)
            if isinstance(op, Edit):
                out.append(f"<<<<<<< SEARCH\n{op.search}\n=======\n{op.replace}\n"
                           ">>>>>>> REPLACE\n")
            else:
                out.append(f"```text\n{op.content}```\n")
        out.append("\n### Changed files:\n" + "".join(f"- {p}\n" for p in changed or ["x"]))
    return "".join(out)


def write_session(work: Path, turns: Sequence[Sequence[Op]], name: str = "s.md") -> Path:
    path = work / name
    path.write_text(session_markdown(turns), encoding="utf-8")
    return path


def make_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode())


def files_under(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root``, links not followed."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


class Arena(Protocol):
    """The conftest ``arena`` fixture's shape (importing conftest clashes across folders)."""

    root: Path
    work: Path
    canary: Path
    canary_dir: Path
