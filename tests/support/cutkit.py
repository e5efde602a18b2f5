"""Shared checks of the cut-off rule's readers (``core/protocol/open_*.py``): a file whose
own sample reply, shown inside a string, comment or element, closes the fence around it
is held (nothing written, nothing run); the same file fenced longer is written whole."""

from __future__ import annotations

from pathlib import Path

from reviewtui.cli import main
from reviewtui.core.model.records import FullFile
from reviewtui.core.protocol.open_strings import open_string
from reviewtui.core.protocol.reply import parse_reply_text

# A sample the file shows: a command, then a file (written from the rest of the file).
COMBO = "```\n\n```console\n:rm keep.txt\n```\n\n--- File: src/app.c ---\n```\n"
# ... one showing a reply: the footer lists its file (src/app.py written, exit 0 before).
LISTED = "```\n\n--- File: src/app.py ---\n```python\n"


def session(path: str, info: str, content: str, footer: str) -> str:
    return (f"## Turn 1\n> x\n\n--- File: {path} ---\n```{info}\n{content}```\n\n"
            f"### Changed files:\n{footer}")


def assert_reply_held(tmp_path: Path, case: str, path: str, info: str, text: str,
                      sample: str) -> str:
    """``text`` with ``sample`` at its ``{s}``, in a reply: exit 1, only keep.txt on disk
    as it was. The reply's text."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    content = text.replace("{s}", sample)
    footer = f"- {path}\n" + ("- src/app.py\n" if sample == LISTED else "")
    reply = tmp_path / "s.md"
    reply.write_text(session(path, info, content, footer))
    assert main(["apply", str(reply), "--root", str(root), "--yes"]) == 1, case
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == ["keep.txt"], case
    assert (root / "keep.txt").read_text() == "keep\n"
    return reply.read_text()


def assert_held(tmp_path: Path, case: str, path: str, info: str, text: str,
                sample: str) -> None:
    """:func:`assert_reply_held`, and the file as read said to end inside what opened at
    the sample."""
    assert_reply_held(tmp_path, case, path, info, text, sample)
    cut = text.replace("{s}", sample).split("\n```\n", 1)[0].splitlines()
    assert open_string(path, info, cut) is not None, case


def assert_fenced_longer_whole(case: str, path: str, info: str, text: str) -> None:
    """The file, its sample one with no header, fenced with ```` is read whole."""
    content = text.replace("{s}", "```\nmake test\n```\n")
    reply = (f"--- File: {path} ---\n````{info}\n{content}````\n\n"
             f"### Changed files:\n- {path}\n")
    parsed = parse_reply_text(reply)
    assert parsed.problems == (), case
    (op,) = parsed.ops
    assert isinstance(op, FullFile)
    assert op.content == content


def assert_not_held(path: str, text: str) -> None:
    """A correct file: said closed, and read whole from a reply (fenced longer)."""
    assert open_string(path, "", text.splitlines()) is None
    reply = f"--- File: {path} ---\n````\n{text}````\n\n### Changed files:\n- {path}\n"
    assert [op.path for op in parse_reply_text(reply).ops] == [path]  # type: ignore[union-attr]
