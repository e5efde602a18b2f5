"""Plain line numbers in a file a turn's own commands made (QA qa77).

A reply's ``:mv``, ``:rn``, ``:undo`` and ``:unrm`` run before its file blocks, so their
numbers name the file as those commands left it, and that file, too, may not be the one
its author had. Turn 1 inserted two lines into a.txt and was rejected (or failed); turn 2
ran ``:mv a.txt b.txt`` and then ``Edit 1 @ 5`` on b.txt, which replaced ``l5``, exit 0:
the file the move made there was never compared with the author's (the author's line 5
is ``l3``). Now it is, as the file at the same path would be: the numbers are carried by
a line diff, or refused (``shifted-lines``) naming why. The same for a file the turn
wrote whole before the numbers (the reviewer's own text for it).
(The workbench and ``apply``: tests/shell/test_review_lines_after_moves.py.)
"""

from __future__ import annotations

from reviewtui.core.engine import Decision, Policy, SessionRun, evaluate_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

TEN = "".join(f"l{n}\n" for n in range(1, 11))
GROWN = ("## Turn 1\n> two lines after l1\n\n--- File: a.txt ---\n<<<<<<< SEARCH\n{search}\n"
         "=======\nl1\nnew1\nnew2\n>>>>>>> REPLACE\n\n### Changed files:\n- a.txt\n\n")
NUMBERED = ("--- File: {path} ---\nEdit 1 @ {at}\n=======\nCHANGED\n>>>>>>> REPLACE\n\n"
            "### Changed files:\n- {path}\n\n")
MEANT = TEN.replace("l3\n", "CHANGED\n")  # the author's line 5, turn 1 not landed


def _turn(index: int, commands: str, body: str) -> str:
    block = f"```console\n{commands}\n```\n\n" if commands else ""
    return f"## Turn {index}\n> step {index}\n\n{block}{body}"


def _run(text: str, files: dict[str, str], decisions: dict[tuple[int, int], Decision]
         | None = None, policy: Policy | None = None) -> SessionRun:
    """``decisions``, every other operation accepted."""
    tree = Tree.from_files({path: FileState.from_text(data) for path, data in files.items()})
    session = parse_session(text)
    decided = {(turn.index, pos): Decision.accept() for turn in session.turns
               for pos in range(len(turn.reply.ops))} | (decisions or {})
    return evaluate_session(session, tree, decisions=decided,
                            policy=policy or Policy.headless())


def _text(run: SessionRun, path: str) -> str | None:
    state = run.final.get(path)
    return None if state is None else state.text


def _last(run: SessionRun) -> tuple[Status, str, str, str]:
    outcome = run.turns[-1].results[-1].outcome
    return outcome.status, outcome.rule, outcome.message, outcome.hint


def _rejected_then(commands: str, path: str, files: dict[str, str] | None = None,
                   at: int = 5) -> list[SessionRun]:
    session = GROWN.format(search="l1") + _turn(2, commands, NUMBERED.format(path=path, at=at))
    return [_run(session, files or {"a.txt": TEN}, {(1, 0): Decision.reject()}, policy)
            for policy in (Policy.headless(), Policy.decided_only())]


def test_a_moved_file_carries_the_numbers_from_the_authors_version() -> None:
    for command in (":mv a.txt b.txt", ":rn a.txt b.txt"):
        for run in _rejected_then(command, "b.txt"):
            status, _, _, hint = _last(run)
            assert status is Status.APPLIED, command
            assert _text(run, "b.txt") == MEANT, command
            assert "line 5 as its author read it is line 3 now" in hint
            assert "turn 1's a.txt · Edit 1 was rejected" in hint


def test_a_move_over_an_existing_file_carries_them_too() -> None:
    files = {"a.txt": TEN, "t.txt": "old\n"}
    for run in _rejected_then(":mv -f a.txt t.txt", "t.txt", files):
        assert _last(run)[0] is Status.APPLIED
        assert _text(run, "t.txt") == MEANT


def test_a_file_brought_back_carries_them_too() -> None:
    session = (GROWN.format(search="l1") + _turn(2, ":rm a.txt", "")
               + _turn(3, ":unrm a.txt", NUMBERED.format(path="a.txt", at=5)))
    run = _run(session, {"a.txt": TEN}, {(1, 0): Decision.reject()})
    assert _last(run)[0] is Status.APPLIED
    assert _text(run, "a.txt") == MEANT


def test_numbers_the_line_diff_cannot_place_are_refused_after_a_move() -> None:
    # The author's line 2 is turn 1's new1: it is nowhere in b.txt.
    for run in _rejected_then(":mv a.txt b.txt", "b.txt", at=2):
        status, rule, message, _ = _last(run)
        assert (status, rule) == (Status.REFUSED, "shifted-lines")
        assert "line 2 ('new1') as its author read it cannot be placed" in message
        assert _text(run, "b.txt") == TEN


def test_a_turn_that_did_not_land_leaves_the_moved_file_unknown() -> None:
    session = GROWN.format(search="nowhere") + _turn(2, ":mv a.txt b.txt",
                                                     NUMBERED.format(path="b.txt", at=5))
    run = _run(session, {"a.txt": TEN})
    status, rule, message, _ = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 1's a.txt · Edit 1, which did not land" in message
    assert _text(run, "b.txt") == TEN


def test_a_move_the_authors_version_did_not_run_leaves_its_destination_unknown() -> None:
    # Turn 1 wrote b.txt (rejected): for its author, turn 2's :mv a.txt b.txt found b.txt.
    made = ("## Turn 1\n> b\n\n--- File: b.txt ---\n```\nb1\n```\n\n### Changed files:\n"
            "- b.txt\n\n")
    run = _run(made + _turn(2, ":mv a.txt b.txt", NUMBERED.format(path="b.txt", at=1)),
               {"a.txt": TEN}, {(1, 0): Decision.reject()})
    status, rule, message, _ = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 2's :mv a.txt b.txt, which did not run" in message
    assert _text(run, "b.txt") == TEN


def test_numbers_in_a_whole_file_written_with_the_reviewers_text_are_carried() -> None:
    whole = ("## Turn 1\n> n\n\n--- File: n.txt ---\n```\n" + TEN + "```\n\n"
             + NUMBERED.format(path="n.txt", at=5))
    ours = ("top1", "top2", *TEN.splitlines())
    run = _run(whole, {}, {(1, 0): Decision.edit(ours)}, Policy.decided_only())
    status, _, _, hint = _last(run)
    assert status is Status.APPLIED
    assert _text(run, "n.txt") == "top1\ntop2\n" + TEN.replace("l5\n", "CHANGED\n")
    assert "turn 1's n.txt · full file was written here with other text" in hint
    # Written as its author wrote it, the numbers stand.
    assert _text(_run(whole, {}), "n.txt") == TEN.replace("l5\n", "CHANGED\n")


def test_numbers_after_a_rejected_whole_file_over_an_existing_one_are_refused() -> None:
    # Whether they count in the old file or the one written over it is not known.
    whole = ("## Turn 1\n> t\n\n--- File: t.txt ---\n```\nx\n" + TEN + "```\n\n"
             + NUMBERED.format(path="t.txt", at=5))
    run = _run(whole, {"t.txt": TEN}, {(1, 0): Decision.reject()})
    status, rule, message, _ = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 1's t.txt · full file, which wrote it whole" in message
    assert _text(run, "t.txt") == TEN


def test_two_numbered_edits_of_a_moved_file_after_the_move() -> None:
    """The second counts from the moved file, by where the first landed."""
    session = _turn(1, ":mv -f a.txt t.txt",
                    "--- File: t.txt ---\nEdit 1 @ 2\n=======\na\nb\n>>>>>>> REPLACE\n\n"
                    "Edit 2 @ 5\n=======\nL5\n>>>>>>> REPLACE\n\n### Changed files:\n- t.txt\n")
    run = _run(session, {"a.txt": TEN, "t.txt": "old\n"})
    assert [r.outcome.status for r in run.turns[0].results] == [Status.APPLIED] * 3
    assert _text(run, "t.txt") == TEN.replace("l2\n", "a\nb\n").replace("l5\n", "L5\n")


def test_a_file_moved_over_one_whose_version_was_unknown_is_known() -> None:
    """t.txt's version is not known after turn 1 (its SEARCH is stale); moved over it,
    a.txt is the file there, and the author's a.txt is known."""
    stale = ("## Turn 1\n> t\n\n--- File: t.txt ---\n<<<<<<< SEARCH\nnowhere\n=======\nx\n"
             ">>>>>>> REPLACE\n\n### Changed files:\n- t.txt\n\n")
    run = _run(stale + _turn(2, ":mv -f a.txt t.txt", NUMBERED.format(path="t.txt", at=3)),
               {"a.txt": TEN, "t.txt": "old\n"})
    assert _last(run)[0] is Status.APPLIED
    assert _text(run, "t.txt") == MEANT


def test_a_file_made_known_stays_known_when_another_turns_unknown_in_that_turn() -> None:
    """Turn 2 writes a.txt whole (known again) and a stale SEARCH makes b.txt unknown:
    a.txt's mark came back with b.txt's (the marks left empty were read as unchanged)."""
    stale = ("--- File: {path} ---\n<<<<<<< SEARCH\nnowhere\n=======\nx\n>>>>>>> REPLACE\n\n"
             "### Changed files:\n- {path}\n\n")
    whole = "--- File: a.txt ---\n```\n" + TEN + "```\n\n"
    session = (_turn(1, "", stale.format(path="a.txt"))
               + _turn(2, "", whole + stale.format(path="b.txt"))
               + _turn(3, "", NUMBERED.format(path="a.txt", at=3)))
    run = _run(session, {"a.txt": TEN, "b.txt": TEN})
    assert _last(run)[0] is Status.APPLIED
    assert _text(run, "a.txt") == MEANT


def test_a_move_taken_back_or_of_its_folder_carries_them_too() -> None:
    grown = GROWN.format(search="l1")
    undone = grown + _turn(2, ":mv a.txt b.txt", "") + _turn(
        3, ":undo", NUMBERED.format(path="a.txt", at=5))
    run = _run(undone, {"a.txt": TEN}, {(1, 0): Decision.reject()})
    assert _text(run, "a.txt") == MEANT
    folder = grown.replace("a.txt", "src/a.txt") + _turn(
        2, ":mv src lib", NUMBERED.format(path="lib/a.txt", at=5))
    run = _run(folder, {"src/a.txt": TEN}, {(1, 0): Decision.reject()})
    assert _text(run, "lib/a.txt") == MEANT
    assert "turn 1's src/a.txt · Edit 1 was rejected" in _last(run)[3]
