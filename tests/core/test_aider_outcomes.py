"""Blocks Aider wrote down but did not apply (declined, or undone by /undo) never land."""

from __future__ import annotations

from reviewtui.core.importers.aider import import_aider

HEAD = "# aider chat started at 2026-12-03 09:12:03\n\n> Model: gpt-4o with diff edit format\n\n"
GREETING = """greeting.py
```python
<<<<<<< SEARCH
    return "Hi " + name
=======
    return "Hello, " + name
>>>>>>> REPLACE
```
"""
SETTINGS = GREETING.replace("greeting.py", "settings.py").replace(
    '    return "Hi " + name', "DEBUG = False").replace('    return "Hello, " + name',
                                                        "DEBUG = True")


def _paths(text: str) -> list[list[str]]:
    return [[op.path or "" for op in t.reply.ops] for t in import_aider(text, "h.md").turns]


def test_a_declined_file_is_not_replayed() -> None:
    text = (HEAD + "#### fix  \n\n" + GREETING + "\n" + SETTINGS + "\n> Applied edit to "
            "greeting.py  \n> settings.py  \n> Allow edits to file that has not been added "
            "to the chat? (Y)es/(N)o [Yes]: n  \n> Skipping edits to settings.py  \n")
    assert _paths(text) == [["greeting.py"]]
    (turn,) = import_aider(text, "h.md").turns
    assert [p.rule for p in turn.reply.problems] == ["aider-skipped"]


def test_undo_takes_back_the_undone_commits_blocks_only() -> None:
    turn1 = "#### first  \n\n" + SETTINGS + "\n> Commit aaaaaaa feat: debug  \n\n"
    turn2 = "#### second  \n\n" + GREETING + "\n> Commit 1a2b3c4 feat: greeting  \n\n"
    undo = "#### /undo  \n> Removed: 1a2b3c4 feat: greeting  \n> Now at:  aaaaaaa feat\n"
    assert _paths(HEAD + turn1 + turn2 + undo) == [["settings.py"], [], []]
    failed = "#### /undo  \n> The last commit was not made by aider in this chat session.  \n"
    assert _paths(HEAD + turn1 + turn2 + failed) == [["settings.py"], ["greeting.py"], []]
