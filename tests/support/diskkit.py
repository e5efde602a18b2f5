"""Helpers for the disk-side tests: sessions written as Markdown, projects as real folders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewtui.core.model.outcome import Status
from reviewtui.core.review.plan import compute_conflicts, deleted_message, op_path
from reviewtui.shell.outside import still_on_disk
from reviewtui.shell.review import Review


@dataclass(frozen=True)
class Ed:
    """One search/replace edit (text without the trailing newline of the block)."""

    path: str
    search: str
    replace: str


@dataclass(frozen=True)
class Full:
    path: str
    content: str  # each line ends with "\n"


@dataclass(frozen=True)
class Cmd:
    text: str  # e.g. ":rm notes/a.tmp"


Op = Ed | Full | Cmd


def session_text(turns: Sequence[Sequence[Op]], title: str = "test") -> str:
    out = [f"# Session: {title}\n"]
    for number, ops in enumerate(turns, start=1):
        out.append(f"\n## Turn {number}\n> request {number}\n")
        commands = [op.text for op in ops if isinstance(op, Cmd)]
        if commands:
            out.append("\n```console\n" + "\n".join(commands) + "\n```\n")
        changed: list[str] = []
        current = None
        for op in ops:
            if isinstance(op, Cmd):
                continue
            if op.path != current:
                out.append(f"\n--- File: {op.path} ---\n")
                current = op.path
                changed.append(op.path)
            if isinstance(op, Ed):
                out.append(f"<<<<<<< SEARCH\n{op.search}\n=======\n{op.replace}\n"
                           ">>>>>>> REPLACE\n")
            else:
                out.append(f"```text\n{op.content}```\n")
        out.append("\n### Changed files:\n" + "".join(f"- {p}\n" for p in changed or ["x"]))
    return "".join(out)


def write_session(directory: Path, turns: Sequence[Sequence[Op]], name: str = "s.md") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(session_text(turns))
    return path


def make_project(root: Path, files: dict[str, str | bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_bytes(content.encode())
        else:
            target.write_bytes(content)
    return root


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (no symlinks followed), by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def line_turns_session(where: Path, turns: int) -> tuple[Path, Path]:
    """(session, root) under ``where``: ``turns`` turns, turn N changing line N - 1 of
    ``a.txt`` ("line n" to "LINE n"), each edit on a line of its own."""
    root = where / "root"
    root.mkdir(parents=True)
    (root / "a.txt").write_text("".join(f"line {n}\n" for n in range(turns)))
    session = where / "s.md"
    session.write_text("".join(
        f"## Turn {n + 1}\n> change line {n}\n\n--- File: a.txt ---\n<<<<<<< SEARCH\n"
        f"line {n}\n=======\nLINE {n}\n>>>>>>> REPLACE\n\n" for n in range(turns)))
    return session, root


def opened_review(where: Path, files: dict[str, str | bytes],
                  turns: Sequence[Sequence[Op]]) -> tuple[Review, Path]:
    """A review (not persisted) of ``turns`` over a project of ``files`` under ``where``,
    and the project's root."""
    session = write_session(where / "session", turns)
    root = make_project(where / "proj", dict(files))
    return Review.open(session, root, persist=False), root


def assert_conflicts_shown(review: Review) -> None:
    """A conflict is never hidden: every operation it names reads CONFLICT (a decided one,
    or one undone since its file was written: its change is still on disk), and a path in
    conflict with decided operations on it names one (the ones that clash, not all of them:
    QA pass s29, helper-90 F1). And they are the conflicts worked out afresh from every
    turn on disk: not from what the planner remembers of the turns it read before."""
    records = review._records
    fresh = still_on_disk(review, compute_conflicts(
        review.draft.turns[:review.evaluation.turns_on_disk(review._folded.pin)],
        review._target(), records, review._unwritable,
        lambda path: deleted_message(path, records.get(path))))
    assert review.conflicts == fresh
    decisions = review._folded.decisions()
    for path, conflict in review.conflicts.items():
        for key in conflict.ops:
            assert review.outcome(key).status is Status.CONFLICT, (path, key)
        on_path = [result.key for turn in review.draft.turns for result in turn.results
                   if result.key in decisions and op_path(result) == path]
        assert conflict.ops or not on_path or review.disk_checkpoint is not None, (
            f"{path} in conflict, on no operation")
