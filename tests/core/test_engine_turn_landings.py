"""Several plain-numbered edits of one file in one reply (QA s47 helper-157 M1).

Every number of a reply names a line of the file as the turn started. ``Edit 1 @ 2`` then
``Edit 2 @ 5`` refused the second (``shifted-lines``) and left the file half-edited. Now a
later edit's numbers are placed by where the turn's earlier edits of the file landed,
by arithmetic (core/engine/landings.py): a line above an earlier edit stays, one below it
moves by what that edit grew or shrank, one it rewrote is refused. A line diff placed
them by content instead, and after an edit that inserted a copy of a repeated block it
landed on the wrong copy, exit 0 (ac1825f, reverted: QA s47 helper-158 M1).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_incremental import assert_same, keys_of, make_tree

from reviewtui.core.engine import Decision, Policy, SessionRun, evaluate_session
from reviewtui.core.model.edit_shapes import Batch, BatchAction, BatchOp, LineRange
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.text.hashline import LineRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from reviewtui.core.engine.landings import Landing

SIX = "l1\nl2\nl3\nl4\nl5\nl6\n"


def _edit(number: int, at: str, text: str) -> str:
    body = text + "\n" if text else ""
    return f"Edit {number} @ {at}\n=======\n{body}>>>>>>> REPLACE\n\n"


def _session(*edits: str) -> str:
    return ("## Turn 1\n> x\n\n--- File: t.txt ---\n" + "".join(edits)
            + "### Changed files:\n- t.txt\n")


def _run(text: str, base: str = SIX, decisions: dict[tuple[int, int], Decision] | None = None,
         policy: Policy | None = None) -> SessionRun:
    tree = Tree.from_files({"t.txt": FileState.from_text(base)})
    return evaluate_session(parse_session(text), tree, decisions=decisions or {},
                            policy=policy or Policy.headless())


def _final(run: SessionRun) -> str:
    state = run.final.get("t.txt")
    assert state is not None
    assert state.text is not None
    return state.text


def _outcomes(run: SessionRun) -> list[tuple[Status, str]]:
    return [(r.outcome.status, r.outcome.rule) for r in run.turns[0].results]


APPLIED = (Status.APPLIED, "")
SHIFTED = (Status.REFUSED, "shifted-lines")


def test_two_one_for_one_edits_both_land() -> None:
    run = _run(_session(_edit(1, "2", "L2"), _edit(2, "5", "L5")))
    assert _outcomes(run) == [APPLIED, APPLIED]
    assert _final(run) == "l1\nL2\nl3\nl4\nL5\nl6\n"


def test_a_number_after_an_inserted_copy_of_a_repeated_block_names_the_line_read() -> None:
    # Edit 1 writes "h x y" for "h": the author's line 4 (the second "x") is line 6 now.
    base = "h\nx\ny\nx\ny\nx\ny\nt\n"
    meant = "h\nx\ny\nx\ny\nX\ny\nx\ny\nt\n"
    run = _run(_session(_edit(1, "1", "h\nx\ny"), _edit(2, "4", "X")), base)
    assert _outcomes(run) == [APPLIED, APPLIED]
    assert _final(run) == meant
    search_first = _session("<<<<<<< SEARCH\nh\n=======\nh\nx\ny\n>>>>>>> REPLACE\n\n",
                            _edit(1, "4", "X"))
    run = _run(search_first, base)
    assert _outcomes(run) == [APPLIED, APPLIED]
    assert _final(run) == meant


def test_an_edit_that_grows_or_shrinks_moves_the_lines_below_it() -> None:
    grown = _run(_session(_edit(1, "2", "a\nb\nc"), _edit(2, "5", "L5")))
    assert _outcomes(grown) == [APPLIED, APPLIED]
    assert _final(grown) == "l1\na\nb\nc\nl3\nl4\nL5\nl6\n"
    assert "line 5 as its author read it is line 7 now" in grown.turns[0].results[1].outcome.hint
    shrunk = _run(_session(_edit(1, "2-4", "m"), _edit(2, "6", "L6")))
    assert _outcomes(shrunk) == [APPLIED, APPLIED]
    assert _final(shrunk) == "l1\nm\nl5\nL6\n"
    deleted = _run(_session(_edit(1, "1-2", ""), _edit(2, "5-6", "z")))
    assert _outcomes(deleted) == [APPLIED, APPLIED]
    assert _final(deleted) == "l3\nl4\nz\n"
    above = _run(_session(_edit(1, "5", "a\nb"), _edit(2, "2-3", "m")))  # (stays)
    assert _final(above) == "l1\nm\nl4\na\nb\nl6\n"


def test_numbers_inside_an_earlier_edit_of_the_turn_are_refused_naming_it() -> None:
    for second in ("3", "4-5", "1-2", "1-6"):
        run = _run(_session(_edit(1, "2-4", "m"), _edit(2, second, "Z")))
        assert _outcomes(run) == [APPLIED, SHIFTED]
        message = run.turns[0].results[1].outcome.message
        assert "among the lines this turn's t.txt · Edit 1 replaced" in message
        assert _final(run) == "l1\nm\nl5\nl6\n"


def test_a_rejected_first_edit_leaves_the_second_on_the_authors_line() -> None:
    for policy in (Policy.headless(), Policy.decided_only()):
        run = _run(_session(_edit(1, "2", "a\nb"), _edit(2, "5", "L5"), _edit(3, "6", "L6")),
                   decisions={(1, 0): Decision.reject(), (1, 1): Decision.accept(),
                              (1, 2): Decision.accept()}, policy=policy)
        assert _outcomes(run)[1:] == [APPLIED, APPLIED]
        assert _final(run) == "l1\nl2\nl3\nl4\nL5\nL6\n"


def test_an_earlier_edit_accepted_with_the_reviewers_text_moves_by_that_text() -> None:
    run = _run(_session(_edit(1, "2", "L2"), _edit(2, "5", "L5")),
               decisions={(1, 0): Decision.edit(("a", "b", "c")), (1, 1): Decision.accept()},
               policy=Policy.decided_only())
    assert _outcomes(run) == [APPLIED, APPLIED]
    assert _final(run) == "l1\na\nb\nc\nl3\nl4\nL5\nl6\n"


def test_a_refused_earlier_edit_moves_nothing() -> None:
    run = _run(_session(_edit(1, "9", "nowhere"), _edit(2, "2", "a\nb"), _edit(3, "5", "L5")))
    assert _outcomes(run)[1:] == [APPLIED, APPLIED]
    assert _final(run) == "l1\na\nb\nl3\nl4\nL5\nl6\n"


def test_ids_keep_their_own_check() -> None:
    from reviewtui.core.text.hashline import line_tag

    tagged = f"5:{line_tag('l5')}"
    run = _run(_session(_edit(1, "2", "a\nb"), _edit(2, tagged, "L5")))
    assert _outcomes(run) == [APPLIED, (Status.REFUSED, "stale-line-id")]  # (as before)
    same = _run(_session(_edit(1, "2", "L2"), _edit(2, tagged, "L5")))
    assert _final(same) == "l1\nL2\nl3\nl4\nL5\nl6\n"


def test_a_file_the_turn_moved_or_wrote_counts_from_the_version_it_made() -> None:
    """A reply's moves run before its file blocks: its numbers name the moved file; a file
    it writes whole, that file. Both landed on the line after its first edit (exit 0)."""
    moved = ("## Turn 1\n> x\n\n```console\n:mv a.txt t.txt\n```\n\n--- File: t.txt ---\n"
             + _edit(1, "2", "a\nb") + _edit(2, "5", "L5")
             + "### Changed files:\n- t.txt (moved from a.txt)\n")
    tree = Tree.from_files({"a.txt": FileState.from_text(SIX)})
    run = evaluate_session(parse_session(moved), tree, policy=Policy.headless())
    assert _final(run) == "l1\na\nb\nl3\nl4\nL5\nl6\n"
    whole = ("## Turn 1\n> x\n\n--- File: t.txt ---\n```\n" + SIX + "```\n\n"
             + _session(_edit(1, "2", "a\nb"), _edit(2, "5", "L5")).split("> x\n\n")[1])
    made = evaluate_session(parse_session(whole), Tree.from_files({}),
                            policy=Policy.headless())
    assert _outcomes(made) == [APPLIED] * 3
    assert _final(made) == "l1\na\nb\nl3\nl4\nL5\nl6\n"
    # Over a file the turn started with, which of the two versions is meant is not known.
    over = _run(whole, "other\n")
    assert _outcomes(over)[1:] == [SHIFTED, SHIFTED]
    assert "this turn's t.txt · full file wrote it whole" in \
        over.turns[0].results[1].outcome.message


def _sr(search: str, replace: str) -> str:
    return f"<<<<<<< SEARCH\n{search}\n=======\n{replace}\n>>>>>>> REPLACE\n\n"


def test_lines_a_search_replace_kept_as_context_can_be_addressed() -> None:
    """Edit 1 writes "l2 NEW l4" for "l2 l3 l4": l2 and l4 are context it kept, so
    ``Edit 2 @ 4`` names l4 where it still is (it was refused as among the lines Edit 1
    replaced, and the file was left half-edited, exit 1: QA qa77)."""
    run = _run(_session(_sr("l2\nl3\nl4", "l2\nNEW\nl4"), _edit(2, "4", "L4"),
                        _edit(3, "2", "L2")))
    assert _outcomes(run) == [APPLIED] * 3
    assert _final(run) == "l1\nL2\nNEW\nL4\nl5\nl6\n"
    grown = _run(_session(_sr("l2\nl3", "l2\nx\ny\nl3"), _edit(2, "3-4", "m")))
    assert _outcomes(grown) == [APPLIED, APPLIED]
    assert _final(grown) == "l1\nl2\nx\ny\nm\nl5\nl6\n"
    # The line it did change is still refused, naming it.
    inside = _run(_session(_sr("l2\nl3\nl4", "l2\nNEW\nl4"), _edit(2, "3", "Z")))
    assert _outcomes(inside) == [APPLIED, SHIFTED]
    assert "line 3 as its author read it is among the lines this turn's t.txt · Edit 1" \
        in inside.turns[0].results[1].outcome.message


def test_context_lines_that_repeat_at_the_edge_are_not_guessed() -> None:
    """"l2 l2 l3" written for "l2 l3": the l2 kept may be either copy, so l2 is refused;
    l3 is kept by both readings and moves."""
    refused = _run(_session(_sr("l2\nl3", "l2\nl2\nl3"), _edit(2, "2", "Z")))
    assert _outcomes(refused) == [APPLIED, SHIFTED]
    moved = _run(_session(_sr("l2\nl3", "l2\nl2\nl3"), _edit(2, "3", "Z")))
    assert _outcomes(moved) == [APPLIED, APPLIED]
    assert _final(moved) == "l1\nl2\nl2\nZ\nl4\nl5\nl6\n"
    # An edit writing its lines back unchanged moves nothing and hides nothing.
    same = _run(_session(_sr("l2\nl3", "l2\nl3"), _edit(2, "2-3", "Z")))
    assert _final(same) == "l1\nZ\nl4\nl5\nl6\n"


# -- the property ---------------------------------------------------------------------------

@st.composite
def _edits(draw: st.DrawFn, alphabet: tuple[str, ...] | None
           ) -> tuple[list[str], list[tuple[int, int, list[str]]]]:
    """A file and non-overlapping replacements of its lines, in the order emitted."""
    size = draw(st.integers(1, 14))
    lines = ([f"l{n}" for n in range(size)] if alphabet is None
             else draw(st.lists(st.sampled_from(alphabet), min_size=size, max_size=size)))
    cuts = sorted(draw(st.sets(st.integers(0, size), min_size=2, max_size=8)))
    spans = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if draw(st.booleans())]
    edits = [(a, b, [f"n{a}.{k}" for k in range(draw(st.integers(0, 3)))] if alphabet is None
              else draw(st.lists(st.sampled_from(alphabet), max_size=3))) for a, b in spans]
    return lines, draw(st.permutations(edits))


def _check(lines: list[str], edits: list[tuple[int, int, list[str]]], strict: bool) -> None:
    if not edits:
        return
    text = "".join(line + "\n" for line in lines)
    session = _session(*(_edit(n, f"{a + 1}-{b}", "\n".join(new))
                         for n, (a, b, new) in enumerate(edits, 1)))
    run = _run(session, text)
    results = run.turns[0].results
    landed = [edit for edit, result in zip(edits, results, strict=True) if result.landed]
    for result in results:
        assert result.landed or result.outcome.rule == "duplicate-line", result.outcome
    if strict:
        assert len(landed) == len(edits)
    meant = list(lines)
    for a, b, new in sorted(landed, reverse=True):
        meant[a:b] = new
    assert _final(run) == "".join(line + "\n" for line in meant)


@settings(max_examples=150, deadline=None)
@given(_edits(None))
def test_numbered_edits_in_any_order_give_the_file_with_every_range_replaced(
        drawn: tuple[list[str], list[tuple[int, int, list[str]]]]) -> None:
    _check(*drawn, strict=True)


@settings(max_examples=150, deadline=None)
@given(_edits(("x", "y")))
def test_over_repeated_lines_too(
        drawn: tuple[list[str], list[tuple[int, int, list[str]]]]) -> None:
    """Lines that repeat (a diff would pair them by content): each edit lands on the
    lines its numbers name, or is refused by the duplicate-line guard, never elsewhere."""
    _check(*drawn, strict=False)


@st.composite
def _with_context(draw: st.DrawFn) -> tuple[list[str], list[str], list[tuple[int, int,
                                                                                list[str]]]]:
    """A file of distinct lines, SEARCH/REPLACE edits of some of its spans written with
    context lines they keep (lines of the file that no other of them changes), then
    numbered edits of other spans, any of which may be such context lines."""
    lines, edits = draw(_edits(None))
    by_search = [edit for edit in edits if draw(st.booleans())]
    taken = {n for a, b, _ in by_search for n in range(a, b)}
    blocks = []
    for a, b, new in by_search:
        top = max(0, a - draw(st.integers(0, 2)))
        while top < a and any(n in taken for n in range(top, a)):
            top += 1
        bottom = b + draw(st.integers(0, 2))
        while bottom > b and (bottom > len(lines)
                              or any(n in taken for n in range(b, bottom))):
            bottom -= 1
        if top == a and bottom == b and a == b:
            continue
        search = lines[top:bottom]
        written = [*lines[top:a], *new, *lines[b:bottom]]
        body = "".join(line + "\n" for line in written)
        blocks.append(("<<<<<<< SEARCH\n" + "".join(line + "\n" for line in search)
                       + f"=======\n{body}>>>>>>> REPLACE\n\n", (a, b, new)))
    numbered = [edit for edit in edits if edit not in by_search]
    return lines, [text for text, _ in blocks], [edit for _, edit in blocks] + numbered


@settings(max_examples=150, deadline=None)
@given(_with_context())
def test_numbered_edits_of_lines_a_search_replace_kept_as_context(
        drawn: tuple[list[str], list[str], list[tuple[int, int, list[str]]]]) -> None:
    """SEARCH/REPLACE edits with context lines, then numbered edits of any other lines
    (a context line too): every one lands, and the file has every range replaced."""
    lines, blocks, edits = drawn
    numbered = edits[len(blocks):]
    text = "".join(line + "\n" for line in lines)
    session = _session(*blocks, *(_edit(n, f"{a + 1}-{b}", "\n".join(new))
                                  for n, (a, b, new) in enumerate(numbered, len(blocks) + 1)))
    run = _run(session, text)
    assert all(result.landed for result in run.turns[0].results), _outcomes(run)
    meant = list(lines)
    for a, b, new in sorted(edits, reverse=True):
        meant[a:b] = new
    assert _final(run) == "".join(line + "\n" for line in meant)


# -- incremental re-evaluation ------------------------------------------------------------

_word = st.sampled_from(["x", "y", "z"])


@st.composite
def _mixed_turn(draw: st.DrawFn) -> str:
    """A reply editing t.txt by numbers and by SEARCH/REPLACE, and maybe u.txt."""
    edits = []
    for n in range(1, draw(st.integers(1, 4)) + 1):
        new = "\n".join(draw(st.lists(_word, max_size=3)))
        if draw(st.booleans()):
            first = draw(st.integers(1, 6))
            at = f"{first}-{draw(st.integers(first, 7))}"
            edits.append(_edit(n, at, new))
        else:
            search = "\n".join(draw(st.lists(_word, min_size=1, max_size=2)))
            body = new + "\n" if new else ""
            edits.append(f"<<<<<<< SEARCH\n{search}\n=======\n{body}>>>>>>> REPLACE\n\n")
    other = "--- File: u.txt ---\n" + _edit(1, "1", draw(_word)) if draw(st.booleans()) else ""
    return "--- File: t.txt ---\n" + "".join(edits) + other + "### Changed files:\n- t.txt\n"


@settings(max_examples=120, deadline=None)
@given(st.lists(_mixed_turn(), min_size=1, max_size=3), st.booleans(), st.data())
def test_incremental_equals_full_with_numbered_edits(
        replies: list[str], pending_joins: bool, data: st.DataObject) -> None:
    """A decision re-evaluates part of a turn, keeping the results before it: the
    landings of those count as in a full evaluation."""
    session = parse_session("".join(f"## Turn {n}\n> go\n\n{reply}\n"
                                    for n, reply in enumerate(replies, 1)))
    files = {"t.txt": "x\ny\nx\ny\nz\nx\n", "u.txt": "x\n"}
    base = make_tree(files)
    policy = Policy.headless() if pending_joins else Policy.decided_only()
    run = evaluate_session(session, base, policy=policy)
    keys = keys_of(session)
    decisions: dict[tuple[int, int], Decision] = {}
    for _ in range(data.draw(st.integers(1, 4))):
        for key in data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3)):
            decisions[key] = data.draw(st.sampled_from(
                [Decision(), Decision.accept(), Decision.reject()]))
        run.update(decisions)
        assert_same(run, evaluate_session(session, base, policy=policy, decisions=decisions))
        other = Policy.decided_only() if pending_joins else Policy.headless()
        mirror = SessionRun(session, run.base, policy=other)
        mirror.decisions = dict(decisions)
        assert mirror.adopt(run, partial=True)
        assert_same(mirror, evaluate_session(session, base, policy=other, decisions=decisions))


def test_numbers_carried_from_an_earlier_turn_then_placed_by_this_ones_edits() -> None:
    """Turn 1 added two imports and was rejected: turn 2's numbers are carried to the
    file as it is by a line diff (authored.py), then by turn 2's own first edit."""
    base = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n"
    imports = ("## Turn 1\n> imports\n\n--- File: a.py ---\n<<<<<<< SEARCH\nimport os\n"
               "=======\nimport os\nimport sys\nimport re\n>>>>>>> REPLACE\n\n"
               "### Changed files:\n- a.py\n\n")
    edits = ("## Turn 2\n> edits\n\n--- File: a.py ---\n" + _edit(1, "6", "    x = 1\n    return x")
             + _edit(2, "9", "    return 20") + "### Changed files:\n- a.py\n")
    tree = Tree.from_files({"a.py": FileState.from_text(base)})
    run = evaluate_session(parse_session(imports + edits), tree,
                           decisions={(1, 0): Decision.reject()}, policy=Policy.headless())
    assert [r.outcome.status for r in run.turns[1].results] == [Status.APPLIED] * 2
    state = run.final.get("a.py")
    assert state is not None
    assert state.text == base.replace("    return 1", "    x = 1\n    return x").replace(
        "return 2", "return 20")


# -- place() itself, for the shapes tool calls bring (batches with insertions) -------------

def _landing(before: FileState, first: int, last: int, new: list[str]) -> tuple[Landing,
                                                                                FileState]:
    from reviewtui.core.engine.landings import Landing

    lines = before.lines
    after = FileState.from_text("".join(line + "\n" for line in
                                        [*lines[: first - 1], *new, *lines[last:]]))
    return Landing("t.txt · Edit 1", first, last, len(new), before, after), after


def test_place_moves_insertions_and_refuses_one_where_an_earlier_one_went() -> None:
    from reviewtui.core.engine.landings import place

    start = FileState.from_text(SIX)
    grown, now = _landing(start, 2, 2, ["a", "b", "c"])  # line 2 -> three lines
    put, after_put = _landing(start, 4, 3, ["new"])  # an insertion before line 4
    ref = LineRef
    batch = Batch((BatchOp(BatchAction.INSERT_BEFORE, ref(3), ref(3), ("i",)),
                   BatchOp(BatchAction.REPLACE, ref(5), ref(6), ("r",))))
    placed = place(batch, [grown], start, now)
    assert not isinstance(placed, str)
    assert [(op.first.number, op.last.number) for op in placed[0].ops] == [(5, 5), (7, 8)]
    anchored = Batch((BatchOp(BatchAction.INSERT_AFTER, ref(2), ref(2), ("i",)),))
    assert "among the lines this turn's t.txt · Edit 1 replaced" in str(
        place(anchored, [grown], start, now))
    for action, line in ((BatchAction.INSERT_AFTER, 3), (BatchAction.INSERT_BEFORE, 4)):
        same_gap = Batch((BatchOp(action, ref(line), ref(line), ("i",)),))
        assert "which of the two comes first is not known" in str(
            place(same_gap, [put], start, after_put))
    assert "span the place" in str(place(LineRange(ref(3), ref(5)), [put], start, after_put))
    assert place(LineRange(ref(4), ref(5)), [put], start, after_put) == (
        LineRange(ref(5), ref(6)), "lines 4-5 as its author read it are lines 5-6 now, below "
        "this turn's earlier edits of the file")
    # The file is not what the landings made of the turn's start: nothing is placed.
    assert "something else of this turn changed it since" in str(
        place(LineRange(ref(5), ref(5)), [grown], start, after_put))


def test_numbers_after_an_insertion_and_a_deletion_that_leave_the_same_text_move() -> None:
    """A line put in and another taken out below it leave the file's text as it was, with
    the lines between one down: the plain number of a later edit was used as it stood
    (the text being the same) and rewrote the line above the one its author read, exit 0
    (found by test_over_repeated_lines_too in s50). Placed by the landings: line 4 as the
    author read it is line 5."""
    base = "x\nx\ny\ny\ny\nx\nx\n"
    run = _run(_session(_edit(1, "3", "y\ny"), _edit(2, "5", ""), _edit(3, "4", "Z")), base)
    assert [result.landed for result in run.turns[0].results] == [True, True, True]
    assert _final(run) == "x\nx\ny\ny\nZ\nx\nx\n"  # (not x x y Z y x x)
