"""A fenced file whose fence is closed by an indented fence line, with indented text after
it, is held (rule ``cut-off``): the indented line is the file's own, a sample inside text
the file indents, and what follows is the rest of the file.

QA s50: a YAML file whose block scalar shows a sample reply (its ``` line, its header and
fence indented as the scalar is) was written cut at the sample's first fence, exit 1 only
for the indented block the sample's header made; no language reader can say a YAML
block scalar is open (one may end a file). The other direction: a file a model closes
with a fence indented a little, followed by the footer or a header, is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.model.records import FullFile
from reviewtui.core.protocol.reply import parse_reply_text

FOOTER = "\n### Changed files:\n- {path}\n"

HELD = [
    # (path, fence info, the file's text as the model meant it)
    ("config.yml", "yaml", "help: |\n  A reply:\n  ```\n\n  --- File: src/app.py ---\n"
     "  ```\n  print(1)\n  ```\nother: 1\n"),
    ("deep.yaml", "yaml", "jobs:\n  doc:\n    text: |\n      ```\n\n"
     "      --- File: src/app.py ---\n      ```\n      x\n      ```\n"),
    ("ci.yml", "", "script: |\n    ```\n\n    --- File: src/app.py ---\n    ```\n"
     "    x\n    ```\n"),  # (four spaces: closed before the header all the same)
    ("docs/guide.md", "markdown", "# Guide\n\n1. A reply reads:\n   ```\n\n"
     "   --- File: src/app.py ---\n   ```\n   print(1)\n   ```\n2. Done.\n"),
    ("notes.rst", "rst", "Example::\n\n   ```\n   :rm keep.txt\n   ```\n\nEnd.\n"),
    ("steps.yml", "yaml", "steps: |\n  ```\n  ```console\n  :rm keep.txt\n  ```\n  ```\n"),
]


def _reply(path: str, info: str, text: str) -> str:
    return f"--- File: {path} ---\n```{info}\n{text}```\n" + FOOTER.format(path=path)


@pytest.mark.parametrize(("path", "info", "text"), HELD, ids=[c[0] for c in HELD])
def test_an_indented_sample_closing_the_fence_holds_the_file(
        tmp_path: Path, path: str, info: str, text: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> x\n\n" + _reply(path, info, text))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]  # nothing written
    assert (root / "keep.txt").read_text() == "keep\n"  # nothing run
    parsed = parse_reply_text(_reply(path, info, text))
    assert parsed.ops == ()
    assert parsed.problems[0].rule == "cut-off"


WHOLE = [
    # (path, fence info, a file whose indented sample shows no header: fenced longer)
    ("config.yml", "yaml", "help: |\n  A reply:\n  ```\n  make test\n  ```\nother: 1\n"),
    ("ci.yml", "", "script: |\n    ```\n    x\n    ```\n"),
    ("docs/guide.md", "markdown", "# Guide\n\n1. Run:\n   ```\n   make\n   ```\n2. Done.\n"),
    ("notes.rst", "rst", "Example::\n\n   ```\n   :rm keep.txt\n   ```\n\nEnd.\n"),
]


@pytest.mark.parametrize(("path", "info", "text"), WHOLE, ids=[c[0] for c in WHOLE])
def test_the_same_file_fenced_longer_is_written_whole(path: str, info: str, text: str) -> None:
    """(A file holding a header line is held whatever its fence: these show none.)"""
    reply = f"--- File: {path} ---\n````{info}\n{text}````\n" + FOOTER.format(path=path)
    parsed = parse_reply_text(reply)
    assert parsed.problems == ()
    (op,) = parsed.ops
    assert isinstance(op, FullFile)
    assert op.content == text


@pytest.mark.parametrize("close", [" ```", "  ```", "   ```"])
@pytest.mark.parametrize("after", ["", "--- File: b.py ---\n```python\nb = 2\n```\n"],
                         ids=["footer", "header"])
def test_a_fence_closed_a_little_indented_is_still_a_close(close: str, after: str) -> None:
    """The model indented its closing fence; what follows starts at a line's start."""
    reply = (f"--- File: a.py ---\n```python\ndef f():\n    return 1\n{close}\n\n{after}"
             "\n### Changed files:\n- a.py\n" + ("- b.py\n" if after else ""))
    parsed = parse_reply_text(reply)
    assert [p.rule for p in parsed.problems] == []
    assert [op.path for op in parsed.ops] == (  # type: ignore[union-attr]
        ["a.py", "b.py"] if after else ["a.py"])
    assert parsed.ops[0].content == "def f():\n    return 1\n"  # type: ignore[union-attr]


def test_indented_text_after_a_fence_closed_at_the_start_is_no_sign() -> None:
    """Prose indented under a list item after a file closed at the line's start."""
    reply = ("1. The file:\n\n--- File: a.py ---\n```python\nx = 1\n```\n\n"
             "   (that is all)\n\n### Changed files:\n- a.py\n")
    parsed = parse_reply_text(reply)
    assert [op.path for op in parsed.ops] == ["a.py"]  # type: ignore[union-attr]
