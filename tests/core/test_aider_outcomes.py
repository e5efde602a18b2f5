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


def test_a_dry_run_writes_nothing() -> None:
    """QA s46 helper-142 H5: Aider under --dry-run logs each file it did not write; the
    replay wrote them (three such replies in Aider's own history, ../shared/corpus)."""
    text = (HEAD + "#### fix  \n\n" + GREETING + "\n" + SETTINGS + "\n> Tokens: 1 sent  \n"
            "> Did not apply edit to greeting.py (--dry-run)  \n"
            "> Did not apply edit to settings.py (--dry-run)  \n")
    assert _paths(text) == [[]]
    (turn,) = import_aider(text, "h.md").turns
    assert [(p.rule, p.severity) for p in turn.reply.problems] == [
        ("aider-dry-run", "warning"), ("aider-dry-run", "warning")]
    assert _paths(text.replace(" (--dry-run)", "")) == [["greeting.py", "settings.py"]]


def test_a_name_aider_took_for_a_chat_file_lands_on_that_file() -> None:
    """QA s46 helper-142 H6: the model named greeting.py, Aider edited the chat's
    src/greeting.py and said so; the replay edited a root greeting.py, exit 0."""
    text = (HEAD + "> Added src/greeting.py to the chat.\n\n#### fix  \n\n" + GREETING
            + "\n" + SETTINGS + "\n> Applied edit to src/greeting.py  \n"
            "> Applied edit to settings.py  \n")
    assert _paths(text) == [["src/greeting.py", "settings.py"]]
    (turn,) = import_aider(text, "h.md").turns
    (note,) = turn.reply.problems
    assert (note.rule, note.severity) == ("aider-resolved", "info")
    assert "greeting.py are replayed on src/greeting.py" in note.message
    # Aider logs each file it wrote once: two names resolving to the one file it names
    # both went there (helper-144 F3); the name its line gives already: as written.
    both = text.replace(SETTINGS, GREETING.replace("greeting.py", "lib/greeting.py"))
    assert _paths(both) == [["src/greeting.py", "src/greeting.py"]]
    assert _paths(text.replace("src/greeting.py  ", "greeting.py  ")) == [
        ["greeting.py", "settings.py"]]


def test_undo_takes_back_the_undone_commits_blocks_only() -> None:
    turn1 = "#### first  \n\n" + SETTINGS + "\n> Commit aaaaaaa feat: debug  \n\n"
    turn2 = "#### second  \n\n" + GREETING + "\n> Commit 1a2b3c4 feat: greeting  \n\n"
    undo = "#### /undo  \n> Removed: 1a2b3c4 feat: greeting  \n> Now at:  aaaaaaa feat\n"
    assert _paths(HEAD + turn1 + turn2 + undo) == [["settings.py"], [], []]
    failed = "#### /undo  \n> The last commit was not made by aider in this chat session.  \n"
    assert _paths(HEAD + turn1 + turn2 + failed) == [["settings.py"], ["greeting.py"], []]


def _failure(path: str, block: str, count: int = 1) -> str:
    """Aider's log of a block it could not match, as it writes it (each line quoted, with
    the two trailing blanks of a markdown line break)."""
    quoted = "".join(f"> {line}  \n" for line in block.split("\n")[2:-2])  # (no fence)
    return (f"> # {count} SEARCH/REPLACE block failed to match!  \n>   \n"
            f"> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match "
            f"lines in {path}  \n{quoted}>   \n> The SEARCH section must exactly match an "
            "existing block of lines including all white space  \n\n")


def test_a_block_aider_failed_to_match_is_not_replayed_its_fix_is() -> None:
    """QA s44 helper-134 H2: Aider's matcher did not forgive the file's trailing blanks and
    wrote nothing of the block; the model's fixed block followed in the same turn. The
    replay forgave them, landed the failed block, then the fix too: both lines, exit 0."""
    failed = GREETING.replace('    return "Hello, " + name', '    return "Hey, " + name')
    fixed = GREETING.replace('    return "Hi " + name', '    return "Hi " + name   ')
    text = (HEAD + "#### greet  \n\n" + SETTINGS + "\n" + failed + "\n" + _failure(
        "greeting.py", failed) + "Sorry, the line has trailing blanks:\n\n" + fixed
            + "\n> Applied edit to greeting.py  \n")
    (turn,) = import_aider(text, "h.md").turns
    assert [(op.path, op.replace_lines) for op in turn.reply.ops] == [  # type: ignore[union-attr]
        ("settings.py", ("DEBUG = True",)), ("greeting.py", ('    return "Hello, " + name',))]
    (note,) = turn.reply.problems
    assert note.rule == "aider-failed"
    assert note.severity == "warning"
    heads = [n for n, line in enumerate(text.split("\n"), 1) if line == "<<<<<<< SEARCH"]
    assert note.span.start <= heads[1] <= note.span.end  # the failed block's own lines
    # A note whose block is not in the reply says so, and takes nothing out.
    other = HEAD + "#### greet  \n\n" + GREETING + "\n" + _failure("greeting.py", SETTINGS)
    (turn,) = import_aider(other, "h.md").turns
    assert len(turn.reply.ops) == 1
    assert [p.rule for p in turn.reply.problems] == ["aider-failed"]
    assert "cannot tell which block" in turn.reply.problems[0].message


def test_a_whole_file_given_twice_writes_the_first_as_aider_does() -> None:
    """QA s44 helper-134 H3: under the whole format a reply gave greet.py, then "the old
    version was" greet.py again; Aider writes the first block of a name, the replay wrote
    both and the last won (the file unchanged, exit 0)."""
    head = HEAD.replace("diff edit format", "whole edit format")
    text = (head + "#### say hello  \n\nHere it is:\n\ngreet.py\n```\nhello\n```\n\n"
            "The old version was:\n\ngreet.py\n```\nhi\n```\n\n> Applied edit to greet.py  \n")
    (turn,) = import_aider(text, "h.md").turns
    (op,) = turn.reply.ops
    assert (op.path, op.lines) == ("greet.py", ("hello",))  # type: ignore[union-attr]
    (note,) = turn.reply.problems
    assert (note.rule, note.severity) == ("aider-whole-again", "info")


def test_the_failure_note_of_current_aider_is_read_too() -> None:
    """QA s44 helper-136 A1: Aider 0.86 quotes only the note's first line; the
    ``## SearchReplaceNoExactMatch`` line and the block after it are written as they are.
    The failed block was replayed, and the logged block read as an edit of a file named
    after the note."""
    failed = GREETING.replace('    return "Hello, " + name', '    return "Hey, " + name')
    block = "\n".join(failed.split("\n")[2:-2])
    fixed = GREETING.replace('    return "Hi " + name', '    return "Hi " + name   ')
    text = (HEAD + "#### greet  \n\n" + SETTINGS + "\n" + failed + "\n> The LLM did not "
            "conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!\n\n"
            "## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines "
            f"in greeting.py\n{block}\n\nThe SEARCH section must exactly match an existing "
            "block of lines\n\n# The other 1 SEARCH/REPLACE block were applied "
            "successfully.\nDon't re-send them.\n\nFixed:\n\n" + fixed
            + "\n> Applied edit to greeting.py  \n")
    (turn,) = import_aider(text, "h.md").turns
    assert [(op.path, op.replace_lines) for op in turn.reply.ops] == [  # type: ignore[union-attr]
        ("settings.py", ("DEBUG = True",)), ("greeting.py", ('    return "Hello, " + name',))]
    assert [p.rule for p in turn.reply.problems] == ["aider-failed"]


def test_a_whole_file_block_without_a_name_is_said_not_replayed() -> None:
    """QA s44 helper-134 M3: Aider writes a nameless block too (to a file it names from
    the prose, or the chat's only file); the replay passed it over without a word."""
    head = HEAD.replace("diff edit format", "whole edit format")
    text = (head + "#### say hello  \n\nI will change `greet.py`:\n\n```\nhello\n```\n\n"
            "```bash\nmake test\n```\n\n> Applied edit to greet.py  \n")
    (turn,) = import_aider(text, "h.md").turns
    assert turn.reply.ops == ()
    (note,) = turn.reply.problems
    assert (note.rule, note.severity, note.span.start) == ("aider-whole-nameless", "warning",
                                                           text.split("\n").index("```") + 1)


def test_a_line_the_model_quotes_before_its_block_moves_nothing() -> None:
    """QA s46 helper-143 F4: the reply quoted an earlier run's "> Applied edit to
    src/greeting.py" above its block of greeting.py (an interrupted run: no outcome
    line); the block was moved onto src/greeting.py."""
    text = (HEAD + "#### fix  \n\nLast time:\n\n> Applied edit to src/greeting.py  \n\n"
            + GREETING)
    assert _paths(text) == [["greeting.py"]]


def test_a_skipped_or_dry_run_line_names_the_file_aider_resolved() -> None:
    """QA s46 helper-143 F5: Aider logs the resolved name; the block of greeting.py was
    written though the line said src/greeting.py was not."""
    for line in ("> Did not apply edit to src/greeting.py (--dry-run)  \n",
                 "> Skipping edits to src/greeting.py  \n"):
        assert _paths(HEAD + "#### fix  \n\n" + GREETING + "\n" + line) == [[]], line


def test_a_close_spelling_aider_resolved_lands_there_and_an_unexplained_log_holds() -> None:
    """QA s46 helper-143 F6: Aider's find_filename also takes a close spelling (difflib,
    0.8): a block of src/utils.py went to the chat's src/util.py, as its line said; the
    replay created src/utils.py."""
    block = GREETING.replace("greeting.py", "src/utils.py")
    text = HEAD + "#### fix  \n\n" + block + "\n> Applied edit to src/util.py  \n"
    assert _paths(text) == [["src/util.py"]]
    elsewhere = HEAD + "#### fix  \n\n" + block + "\n> Applied edit to python  \n"
    assert _paths(elsewhere) == [[]]
    (turn,) = import_aider(elsewhere, "h.md").turns
    (note,) = turn.reply.problems
    assert (note.rule, note.severity) == ("aider-resolved", "warning")
    assert "not replayed" in note.message


def test_a_name_resolved_to_a_file_another_block_names_lands_there() -> None:
    """QA s46 helper-144 F3: blocks of greeting.py and src/greeting.py, the chat holding
    src/greeting.py: Aider wrote both there and logged the one file; the block of
    greeting.py was replayed on a root greeting.py."""
    text = (HEAD + "> Added src/greeting.py to the chat.\n\n#### fix  \n\n" + GREETING
            + "\n" + GREETING.replace("greeting.py", "src/greeting.py")
            + "\n> Applied edit to src/greeting.py  \n")
    assert _paths(text) == [["src/greeting.py", "src/greeting.py"]]


def test_each_reply_of_a_turn_is_resolved_by_its_own_lines() -> None:
    """QA s46 helper-145 F11, F12: a lint reflection puts two replies in one turn; only
    the lines after the last block were read, so the first reply's resolved name was lost
    and the second's exact name was redirected by the first's line."""
    app = GREETING.replace("greeting.py", "app.py")
    config = GREETING.replace("greeting.py", "config.py")
    text = (HEAD + "#### fix  \n\n" + app + "\n> Applied edit to src/app.py  \n"
            "> Fix any errors below, if possible.  \n\n" + config
            + "\n> Applied edit to config.py  \n")
    assert _paths(text) == [["src/app.py", "config.py"]]


def test_a_line_no_name_explains_keeps_a_named_file_from_taking_a_block() -> None:
    """QA s46 helper-145 F5: Aider tries another chat file where the SEARCH matches; the
    block of app.py went to other.py, and was replayed on the src/app.py another block
    named."""
    app = GREETING.replace("greeting.py", "app.py")
    src = SETTINGS.replace("settings.py", "src/app.py")
    text = (HEAD + "#### fix  \n\n" + app + "\n" + src + "\n> Applied edit to src/app.py  \n"
            "> Applied edit to other.py  \n")
    assert _paths(text) == [["src/app.py"]]  # (the block of app.py: held, said)
    (turn,) = import_aider(text, "h.md").turns
    assert [(p.rule, p.severity) for p in turn.reply.problems] == [
        ("aider-resolved", "warning")]


def test_a_line_the_model_quotes_between_its_blocks_is_no_run() -> None:
    """QA s46 helper-146 F2: a reply quoting "> Applied edit to lib/greeting.py" between
    its blocks made it the run of the block above: redirected, exit 0. Aider's own lines
    end in a markdown line break (two blanks); before a block, only those count."""
    text = (HEAD + "#### fix  \n\n" + GREETING + "\nLast time:\n\n"
            "> Applied edit to lib/greeting.py\n\n" + SETTINGS
            + "\n> Applied edit to greeting.py  \n> Applied edit to settings.py  \n")
    assert _paths(text) == [["greeting.py", "settings.py"]]


def test_a_line_the_model_quotes_after_its_blocks_is_no_run() -> None:
    """QA s46 helper-146 F2 (after the last block): the quoted line spoke for the block."""
    text = (HEAD + "#### fix  \n\n" + GREETING + "\nLast time:\n\n"
            "> Applied edit to lib/greeting.py\n\n> Applied edit to greeting.py  \n")
    assert _paths(text) == [["greeting.py"]]
