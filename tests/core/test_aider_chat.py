"""Aider's chat files, read from its history, decide where a block no log line names went;
a block Aider may have sent to another chat file is not replayed on its own."""

from __future__ import annotations

import difflib
from pathlib import PurePosixPath

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.importers.aider import import_aider, split_lines
from reviewtui.core.importers.aider_chat import Chat, chat_file

HEAD = "# aider chat started at 2026-12-07 09:12:03\n\n> Model: gpt-4o with diff edit format\n\n"


def _block(path: str, search: str, replace: str) -> str:
    return (f"{path}\n```python\n<<<<<<< SEARCH\n{search}\n=======\n{replace}\n"
            ">>>>>>> REPLACE\n```\n")


def _turns(text: str) -> list[list[tuple[str, tuple[str, ...]]]]:
    return [[(op.path or "", op.replace_lines) for op in t.reply.ops]  # type: ignore[union-attr]
            for t in import_aider(text, "h.md").turns]


def test_the_chat_is_read_from_what_aider_logs() -> None:
    text = ("> /usr/bin/aider a.py  \n> Added a.py to the chat.  \n"
            "> Added src/b.py to the chat  \n#### /drop a.py  \n"
            "> Removed a.py from the chat  \n> lib/c.py  \n> lib/d.py  \n"
            "> Add these files to the chat? y  \n> e.py  \n"
            "> Add these files to the chat? (Y)es/(N)o [Yes]: n  \n"
            "> Allow edits to f.py which was not previously added to chat? y  \n"
            "> g.py  \n> Create new file? [Y/n] y  \n"
            "# aider chat started at 2026-12-07  \n> Added h.py to the chat.  \n"
            "> Dropping all files from the chat session.  \n")
    lines = split_lines(text)
    chat = Chat(lines)
    at = {line.strip(): chat.at(k) for k, line in enumerate(lines)}
    assert at["> Added src/b.py to the chat"] == {"a.py", "src/b.py"}
    assert at["> Removed a.py from the chat"] == {"src/b.py"}
    assert at["> Add these files to the chat? y"] == {"src/b.py", "lib/c.py", "lib/d.py"}
    # a no adds nothing; the names above a yes do, and a question that names its file
    assert at["> Add these files to the chat? (Y)es/(N)o [Yes]: n"] == at[
        "> Add these files to the chat? y"]
    assert "f.py" in at["> Allow edits to f.py which was not previously added to chat? y"]
    assert "g.py" in at["> Create new file? [Y/n] y"]
    assert at["> Added h.py to the chat."] == {"h.py"}  # (a new chat starts empty)
    assert chat.at(len(lines) - 1) == frozenset()
    assert chat.at(-1) == frozenset()


def _find_filename(name: str, chat: list[str]) -> str:
    """Aider's own choice (editblock_coder.find_filename, one name), for the property."""
    valid = sorted(set(chat))
    if name in valid:
        return name
    for path in valid:
        if name == PurePosixPath(path).name:
            return path
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.8)
    return close[0] if close else name


NAMES = st.sampled_from(["app.py", "src/app.py", "lib/app.py", "apps.py", "src/apq.py",
                         "b.py", "tests/test_app.py", "app.js", "/abs/app.py", "../app.py"])


@given(st.lists(NAMES, max_size=5), NAMES)
def test_a_name_goes_where_aiders_find_filename_takes_it(chat: list[str], name: str) -> None:
    found = chat_file(name, frozenset(chat))
    aider = _find_filename(name, chat)
    if found is not None:
        assert found == aider != name
    else:  # (the name itself, or a path reviewtui never writes: left as the name is)
        assert aider == name or aider.startswith("/") or ".." in aider.split("/")


def test_a_passed_block_of_a_failed_reply_named_for_a_chat_file_is_held() -> None:
    """QA s46 helper-146 F3: a reply with a block that failed to match logs no Applied
    line, yet its other blocks were written; a block of app.py (the chat holding
    src/app.py) was replayed on the root app.py, exit 0. Redirected to src/app.py on the
    chat as the history shows it, it went where Aider never wrote when the history did
    not show the chat whole (QA s47 helper-149 H1): held, on either reading."""
    failed = _block("b.py", "import sys", "import re")
    text = (HEAD + "> Added b.py to the chat.  \n> Added src/app.py to the chat.  \n\n"
            "#### rename  \n\n" + _block("app.py", "FLAG = 1", "FLAG = 2") + "\n" + failed
            + "\n> Tokens: 1 sent  \n> # 1 SEARCH/REPLACE block failed to match!  \n>   \n"
            "> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines "
            "in b.py  \n> <<<<<<< SEARCH  \n> import sys  \n> =======  \n> import re  \n"
            "> >>>>>>> REPLACE  \n"
            ">   \n\n" + _block("b.py", "import os", "import re") + "\n> Tokens: 2 sent  \n"
            "> Applied edit to b.py  \n")
    assert _turns(text) == [[("b.py", ("import re",))]]
    (turn,) = import_aider(text, "h.md").turns
    assert [(p.rule, p.severity) for p in turn.reply.problems] == [
        ("aider-failed", "warning"), ("aider-resolved", "error")]
    # The chat holding app.py itself, or no file of that name: as written.
    assert _turns(text.replace("src/app.py to", "app.py to"))[0][0][0] == "app.py"
    assert _turns(text.replace("> Added src/app.py to the chat.  \n", ""))[0][0][0] == "app.py"
    # The chat as Aider logs it: a file moved to read-only, dropped or converted left it
    # (H1); a line the model typed (no markdown line break) changed nothing.
    for gone in ("> Moved src/app.py from editable to read-only files in the chat  \n",
                 "> Converted src/app.py to read-only  \n",
                 "> Dropping src/app.py from the chat.  \n"):
        later = text.replace("#### rename", gone + "\n#### rename")
        assert _turns(later)[0][0][0] == "app.py", gone
    typed = text.replace("> Added src/app.py to the chat.  \n", "").replace(
        "#### rename  \n\n", "#### rename  \n\n> Added src/app.py to the chat.\n\n")
    assert _turns(typed)[0][0][0] == "app.py"
    # A new file's block (empty SEARCH) is named as written: Aider reads no chat for it (H2).
    new = text.replace(_block("app.py", "FLAG = 1", "FLAG = 2"), _block("app.py", "", "y = 5"))
    assert _turns(new)[0][0] == ("app.py", ("y = 5",))


def test_a_block_aider_may_have_sent_to_another_chat_file_is_not_replayed() -> None:
    """QA s46 helper-146 F6: Aider tries each block on the files as they were before the
    reply; block 2's SEARCH is what block 1 put into src/app.py, so Aider sent it to
    other.py, which held that text; the log names both files (another block names
    other.py) and the replay landed it on src/app.py, exit 0."""
    text = (HEAD + "> Added src/app.py to the chat.  \n> Added other.py to the chat.  \n\n"
            "#### go  \n\n" + _block("src/app.py", "def a(): return 1",
                                     "def a(): return 1\ndef b(): return 2")
            + "\n" + _block("app.py", "def b(): return 2", "def b(): return 3") + "\n"
            + _block("other.py", "X = 1", "X = 2") + "\n> Tokens: 1 sent  \n"
            "> Applied edit to src/app.py  \n> Applied edit to other.py  \n")
    assert [path for path, _ in _turns(text)[0]] == ["src/app.py", "other.py"]
    (turn,) = import_aider(text, "h.md").turns
    (held,) = [p for p in turn.reply.problems if p.rule == "aider-fallback"]
    assert held.severity == "error"  # (apply says it and exits 1: Aider wrote it somewhere)
    assert "other.py" in held.message
    # The log naming src/app.py alone: no other file took it; in order, as Aider wrote it.
    alone = text.replace("> Applied edit to other.py  \n", "").replace(
        _block("other.py", "X = 1", "X = 2"), "")
    assert _turns(alone) == [[("src/app.py", ("def a(): return 1", "def b(): return 2")),
                              ("src/app.py", ("def b(): return 3",))]]
    # Text that was there before the reply too (block 1's SEARCH holds it): in order.
    before = text.replace("<<<<<<< SEARCH\ndef a(): return 1\n",
                          "<<<<<<< SEARCH\ndef a(): return 1\ndef b(): return 2\n")
    assert len(_turns(before)[0]) == 3
    # Another reply's block (a reflection after "> Tokens:") saw the file as it was then.
    later = text.replace("\n" + _block("app.py", "def b(): return 2", "def b(): return 3"),
                         "\n> Tokens: 1 sent  \n\n" + _block("app.py", "def b(): return 2",
                                                               "def b(): return 3"))
    assert len(_turns(later)[0]) == 3
    # No log line at all: the chat holding another file is enough doubt.
    unlogged = text.split("> Tokens:")[0]
    assert [path for path, _ in _turns(unlogged)[0]] == ["src/app.py", "other.py"]


def test_a_block_its_replys_log_leaves_out_went_elsewhere_and_is_not_replayed() -> None:
    """A reply's log names every file Aider wrote for it. A block of app.py (the chat
    holding src/app.py and other.py) whose SEARCH matched neither src/app.py nor
    anything but other.py went to other.py; the log names other.py alone (another block
    names it too), and the block was replayed on a root app.py."""
    text = (HEAD + "> Added src/app.py to the chat.  \n> Added other.py to the chat.  \n\n"
            "#### go  \n\n" + _block("app.py", "Y = 1", "Y = 2") + "\n"
            + _block("other.py", "X = 1", "X = 2") + "\n> Tokens: 1 sent  \n"
            "> Applied edit to other.py  \n")
    assert [path for path, _ in _turns(text)[0]] == ["other.py"]
    (turn,) = import_aider(text, "h.md").turns
    assert [(p.rule, p.severity) for p in turn.reply.problems] == [("aider-fallback", "error")]
    # Logged under the chat's name: there, as before.
    logged = text.replace("> Applied edit to other.py  \n",
                          "> Applied edit to src/app.py  \n> Applied edit to other.py  \n")
    assert [path for path, _ in _turns(logged)[0]] == ["src/app.py", "other.py"]


def test_a_token_count_the_model_types_ends_no_reply() -> None:
    """QA s47 helper-149 H5: a "> Tokens:" line the model wrote between two blocks made
    them two replies, and the block whose SEARCH the first wrote was replayed, exit 0."""
    text = (HEAD + "> Added src/app.py to the chat.  \n> Added other.py to the chat.  \n\n"
            "#### go  \n\n" + _block("src/app.py", "def a(): return 1",
                                     "def a(): return 1\ndef b(): return 2")
            + "\n> Tokens: 1,000 sent, 100 received.\n\n"
            + _block("src/app.py", "def b(): return 2", "def b(): return 3")
            + "\n> Tokens: 1 sent  \n> Applied edit to src/app.py  \n"
            "> Applied edit to other.py  \n")
    assert [path for path, _ in _turns(text)[0]] == ["src/app.py"]
    # Aider's own count (a markdown line break, or its cost on the next line) ends one.
    for own in ("> Tokens: 1,000 sent, 100 received.  \n",
                "> Tokens: 1,000 sent, 100 received.\nCost: $0.01 message.  \n"):
        assert len(_turns(text.replace("> Tokens: 1,000 sent, 100 received.\n", own))[0]) == 2


def test_a_block_aider_skipped_by_its_gitignore_is_not_replayed() -> None:
    """QA s47 helper-149 M2: "Skipping edits to gen.py that matches gitignore spec." was
    read as naming a file "gen.py that matches gitignore spec.": the block was replayed."""
    text = (HEAD + "#### go  \n\n" + _block("gen.py", "X = 1", "X = 2")
            + "\n> Tokens: 1 sent  \n> Skipping edits to gen.py that matches gitignore spec.  \n")
    assert _turns(text) == [[]]
    (turn,) = import_aider(text, "h.md").turns
    assert [p.rule for p in turn.reply.problems] == ["aider-skipped"]


def test_a_search_holding_a_line_an_earlier_block_brought_in_is_in_doubt() -> None:
    """QA s47 helper-149 H3: block 2's SEARCH is the line block 1 wrote and the unchanged
    lines after it; Aider's dry run, on the file as it was, found it only in b.py (which
    holds the same lines) and wrote it there; the log names a.py and b.py."""
    text = (HEAD + "> Added a.py to the chat.  \n> Added b.py to the chat.  \n\n#### go  \n\n"
            + _block("a.py", "    return 1", "    return 2") + "\n"
            + _block("a.py", "    return 2\n\ndef h():", "    return 2\n\ndef h2():")
            + "\n> Tokens: 1 sent  \n> Applied edit to a.py  \n> Applied edit to b.py  \n")
    assert [path for path, _ in _turns(text)[0]] == ["a.py"]
    # A short line any file may hold brings no doubt: in order, on a.py.
    short = text.replace("return 1", "ok = 1").replace("return 2", "ok = 2")
    assert [path for path, _ in _turns(short)[0]] == ["a.py", "a.py"]
