"""Plain line numbers address the file as their turn's author had it (QA s47 helper-147 H5).

Turn 2's ``Edit 1 @ 6`` was written against the file after turn 1, which added two
imports. When turn 1 did not land (a stale SEARCH, a reject, pending in the disk draft),
line 6 was ``def g():`` and it was replaced; after the file changed outside the review,
the same. Now the numbers are carried into the file as it is by a line diff when that is
exact for the lines addressed, and refused (``shifted-lines``) with the reason otherwise:
they never land on whatever stands at them now.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Policy, SessionRun, evaluate_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

BASE = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n"
IMPORTS = ("--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n{search}\n=======\n{search}\n"
           "import sys\nimport re\n>>>>>>> REPLACE\n")
BY_NUMBER = "--- File: a.py ---\nEdit 1 @ {at}\n=======\n{text}\n>>>>>>> REPLACE\n"


def _turns(*replies: str) -> str:
    return "".join(f"## Turn {n}\n> step {n}\n\n{reply}\n### Changed files:\n- a.py\n\n"
                   for n, reply in enumerate(replies, 1))


def _run(text: str, decisions: dict[tuple[int, int], Decision] | None = None,
         policy: Policy | None = None, base: str = BASE) -> SessionRun:
    tree = Tree.from_files({"a.py": FileState.from_text(base)})
    return evaluate_session(parse_session(text), tree, decisions=decisions or {},
                            policy=policy or Policy.headless())


def _final(run: SessionRun) -> str:
    state = run.final.get("a.py")
    assert state is not None
    assert state.text is not None
    return state.text


def _last(run: SessionRun) -> tuple[Status, str, str]:
    result = run.turns[-1].results[-1]
    return result.outcome.status, result.outcome.rule, result.outcome.message


SESSION = _turns(IMPORTS.format(search="import os"), BY_NUMBER.format(at=6, text="    return 10"))
MEANT = BASE.replace("return 1", "return 10")


def test_numbers_land_as_written_when_every_earlier_turn_landed() -> None:
    run = _run(SESSION)
    assert _final(run) == MEANT.replace("import os\n", "import os\nimport sys\nimport re\n")


def test_an_earlier_edit_that_did_not_land_makes_the_numbers_unknown() -> None:
    run = _run(_turns(IMPORTS.format(search="import os.path"),
                      BY_NUMBER.format(at=6, text="    return 10")))
    status, rule, message = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 1's a.py · Edit 1, which did not land" in message
    assert _final(run) == BASE  # def g() is still there


def test_a_rejected_earlier_edit_carries_the_numbers_by_a_line_diff() -> None:
    for policy in (Policy.headless(), Policy.decided_only()):
        run = _run(SESSION, {(1, 0): Decision.reject(), (2, 0): Decision.accept()}, policy)
        status, _, _ = _last(run)
        outcome = run.turns[-1].results[-1].outcome
        assert status is Status.APPLIED
        assert outcome.lines == (4, 4)
        assert "turn 1's a.py · Edit 1 was rejected" in outcome.hint
        assert "line 6 as its author read it is line 4 now" in outcome.hint
        assert _final(run) == MEANT


def test_a_pending_earlier_edit_in_the_disk_draft_carries_them_too() -> None:
    run = _run(SESSION, {(2, 0): Decision.accept()}, Policy.decided_only())
    assert _final(run) == MEANT
    assert "is not accepted (yet)" in run.turns[-1].results[-1].outcome.hint


def test_numbers_whose_lines_the_diff_cannot_pair_are_refused() -> None:
    # Turn 1 rewrites the very line turn 2 addresses: rejected, that line is not in the file.
    session = _turns("--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n    return 1\n=======\n"
                     "    return 11\n>>>>>>> REPLACE\n",
                     BY_NUMBER.format(at=4, text="    return 12"))
    run = _run(session, {(1, 0): Decision.reject()})
    status, rule, message = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "line 4 ('return 11') as its author read it cannot be placed" in message
    assert _final(run) == BASE


def test_a_full_file_written_later_makes_the_file_known_again() -> None:
    full = "--- File: a.py ---\n```python\n" + BASE.replace("return 2", "return 3") + "```\n"
    run = _run(_turns(IMPORTS.format(search="import os.path"), full,
                      BY_NUMBER.format(at=7, text="    return 4")))
    assert _last(run)[0] is Status.APPLIED
    assert _final(run) == BASE.replace("return 2", "return 4")


def test_a_move_that_did_not_run_leaves_its_destination_unknown() -> None:
    session = ("## Turn 1\n> move\n\n```console\n:mv c.py a.py\n```\n\n### Changed files:\n"
               "- a.py (moved from c.py)\n\n"
               + _turns(BY_NUMBER.format(at=1, text="import sys")).replace("Turn 1", "Turn 2"))
    run = _run(session)
    status, rule, message = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 1's :mv c.py a.py, which did not run" in message


def test_an_outside_change_carries_the_numbers_or_refuses_them() -> None:
    text = "[server]\nhost = localhost\ntimeout = 5\nretries = 3\n"
    session = parse_session(_turns(BY_NUMBER.format(at=3, text="timeout = 30")))
    tree = Tree.from_files({"a.py": FileState.from_text(text)})
    run = SessionRun(session, tree, policy=Policy.headless())
    run.evaluate()
    run.rebase(tree.set("a.py", FileState.from_text("; ops\n\n" + text)))
    outcome = run.turns[0].results[0].outcome
    assert outcome.status is Status.APPLIED
    assert "it changed outside the review" in outcome.hint
    assert _final(run) == "; ops\n\n" + text.replace("timeout = 5", "timeout = 30")
    run.rebase(tree.set("a.py", FileState.from_text(text.replace("= 5", "= 7"))))
    assert _last(run)[:2] == (Status.REFUSED, "shifted-lines")
    run.rebase(tree)  # the file as the model read it again: its numbers stand
    assert _final(run) == text.replace("timeout = 5", "timeout = 30")


def test_ids_keep_their_own_check() -> None:
    from reviewtui.core.text.hashline import line_tag

    tag = line_tag("    return 1")
    session = _turns(IMPORTS.format(search="import os"),
                     BY_NUMBER.format(at=f"6:{tag}", text="    return 10"))
    run = _run(session, {(1, 0): Decision.reject()})
    assert _last(run)[:2] == (Status.REFUSED, "stale-line-id")  # (not carried: checked)
    assert _final(run) == BASE


# -- the property ---------------------------------------------------------------------------

LINES = [f"line {n}" for n in range(12)]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, len(LINES) - 1), st.lists(st.tuples(st.integers(0, len(LINES)),
                                                          st.sampled_from(("x", "y", "z"))),
                                                max_size=5),
       st.sets(st.integers(0, len(LINES) - 1), max_size=3))
def test_numbers_land_on_the_line_their_author_meant_or_nowhere(
        target: int, inserted: list[tuple[int, str]], removed: set[int]) -> None:
    """An outside change inserts lines (maybe repeated) and removes others; the edit of
    line ``target`` as the author read it lands on that line wherever it went, or is
    refused; it is carried whenever the change left that line and its neighbours alone."""
    lines: list[tuple[int | None, str]] = [(n, text) for n, text in enumerate(LINES)
                                           if n not in removed]
    for at, text in sorted(inserted, reverse=True):
        where = next((i for i, (n, _) in enumerate(lines) if n is not None and n >= at),
                     len(lines))
        lines.insert(where, (None, text))
    now = "".join(text + "\n" for _, text in lines)
    session = parse_session(_turns(BY_NUMBER.format(at=target + 1, text="NEW")))
    tree = Tree.from_files({"a.py": FileState.from_text("".join(t + "\n" for t in LINES))})
    run = SessionRun(session, tree, policy=Policy.headless())
    run.evaluate()
    run.rebase(tree.set("a.py", FileState.from_text(now)))
    status, rule, _ = _last(run)
    meant = "".join(("NEW" if n == target else text) + "\n" for n, text in lines)
    if status is Status.APPLIED:
        assert target not in removed
        assert _final(run) == meant
    else:
        assert (status, rule) == (Status.REFUSED, "shifted-lines")
        assert _final(run) == now
    # Its line and both neighbours untouched: the line diff pairs it for certain.
    near = {target - 1, target, target + 1}
    if near.isdisjoint(removed) and not any(at in (target, target + 1) for at, _ in inserted):
        assert status is Status.APPLIED


def test_a_mark_follows_its_file_through_a_move() -> None:
    move = ("## Turn 2\n> move\n\n```console\n:mv a.py b.py\n```\n\n### Changed files:\n"
            "- b.py (moved from a.py)\n\n")
    session = (_turns(IMPORTS.format(search="import os.path")) + move
               + _turns(BY_NUMBER.format(at=6, text="    return 10")).replace(
                   "Turn 1", "Turn 3").replace("a.py", "b.py"))
    run = _run(session)
    status, rule, message = _last(run)
    assert (status, rule) == (Status.REFUSED, "shifted-lines")
    assert "turn 1's a.py · Edit 1, which did not land" in message
