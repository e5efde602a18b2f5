"""A unified hunk whose text is in the file more than once lands at its line number only
when the file is the one the diff was made from (QA s44 helper-134 H4).

Lines inserted above a hunk (a drifted file) move a twin of its text under its line
number: a hunk of one ``switch`` case landed in the case before it, and a ``-U0`` change
of a blank line on another blank line, exit 0, where ``git merge-file`` (the clean 3-way
merge) puts each in its own place. The section's ``index`` line names the preimage's
blob: on that file the line number stands (every hunk lands, the file is the diff's new
side); on any other, such a hunk is left to the reviewer (ambiguous, or to review), never
written by the number alone. The property: with a case inserted anywhere, a hunk whose
text is in the file more than once is never applied.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.shell.review import Review

BODY = "".join(f"        {name}();\n" for name in "abcdef") + "        break;\n"


def _switch(cases: list[int], changed: int | None = None) -> str:
    parts = []
    for n in cases:
        body = BODY.replace("d();", f"d({n});") if n == changed else BODY
        parts.append(f"    case {n}:\n" + body)
    return "switch (x) {\n" + "".join(parts) + "}\n"


def _blob(text: str) -> str:
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _diff(before: str, after: str, *, index: bool = True, context: int = 3) -> str:
    """A git diff of one file, made by difflib (the same hunks git writes here)."""
    import difflib

    body = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        "a/f.c", "b/f.c", n=context))
    head = "diff --git a/f.c b/f.c\n"
    if index:
        head += f"index {_blob(before)[:7]}..{_blob(after)[:7]} 100644\n"
    return head + body


def _run(diff: str, disk: str) -> tuple[Status, bytes]:
    session = import_session(diff, "c.diff", format="unified")
    run = evaluate_session(session, Tree.from_files({"f.c": FileState.from_text(disk)}))
    (result,) = run.turns[0].results
    after = result.outcome.after_state
    return result.outcome.status, after.data if isinstance(after, FileState) else b""


def test_a_hunk_of_a_twin_case_lands_in_its_own_case_or_not_at_all() -> None:
    base, after = _switch([1, 2, 3, 4]), _switch([1, 2, 3, 4], changed=2)
    diff = _diff(base, after)
    # On the preimage the line number stands: case 2 changes.
    assert _run(diff, base) == (Status.APPLIED, after.encode())
    # A case inserted above: the line number now falls on case 1's twin body.
    drifted = _switch([0, 1, 2, 3, 4])
    status, _ = _run(diff, drifted)
    assert status is Status.AMBIGUOUS
    # Without an index line nothing is known of the file: git apply's reading stands.
    status, data = _run(_diff(base, after, index=False), base)
    assert (status, data) == (Status.APPLIED, after.encode())


def test_a_blank_line_changed_with_no_context_is_not_placed_on_another() -> None:
    base, after = "title\n\npara one\n\npara two\n", "title\n\npara one\n---\npara two\n"
    diff = _diff(base, after, context=0)
    assert _run(diff, base) == (Status.APPLIED, after.encode())
    drifted = "title\n\nintro\n\npara one\n\npara two\n"
    status, _ = _run(diff, drifted)
    assert status is Status.NEEDS_REVIEW


@settings(max_examples=40, deadline=None)
@given(cases=st.integers(3, 6), data=st.data())
def test_a_hunk_whose_text_has_twins_in_a_drifted_file_is_never_placed_by_number(
        cases: int, data: st.DataObject) -> None:
    """A case inserted anywhere: where the hunk's old text is in the drifted file more
    than once, it is not applied (the content cannot tell; the line number is no longer
    the file's); where it is there once, the content decides, as for any edit."""
    numbers = list(range(1, cases + 1))
    changed = data.draw(st.sampled_from(numbers))
    base = _switch(numbers)
    after = base.replace(f"    case {changed}:\n" + BODY,
                         f"    case {changed}:\n" + BODY.replace("d();", "d(0);"))
    diff = _diff(base, after)
    at = data.draw(st.integers(0, cases))  # the new case goes before the at-th one
    drifted = _switch([*numbers[:at], 99, *numbers[at:]])
    old = "".join(line[1:] for line in diff.splitlines(True)[5:]
                  if line[:1] in (" ", "-"))
    status, _ = _run(diff, drifted)
    if drifted.count(old) > 1:
        assert status is not Status.APPLIED


def test_a_rejected_hunk_of_the_same_length_leaves_the_later_ones_placed(
        tmp_path: Path) -> None:
    """QA s44 helper-136 U1: on the preimage itself, rejecting the section's first hunk
    made the proof fail (its new lines were not there), and a later hunk whose text has
    twins went ambiguous where it had applied. A hunk not applied is taken as its old
    lines; one that changes the line count leaves the later line numbers unproved."""
    base = "case zero:\n" + _switch([1, 2, 3, 4]).split("\n", 1)[1]
    after = base.replace("case zero:", "case ZERO:").replace(
        "    case 3:\n" + BODY, "    case 3:\n" + BODY.replace("d();", "d(3);"))
    session = tmp_path / "s.diff"
    session.write_text(_diff(base, after))
    root = tmp_path / "root"
    root.mkdir()
    (root / "f.c").write_text(base)
    with Review.open(session, root, persist=False) as review:
        turn = review.session.turns[0].index
        assert [review.outcome((turn, pos)).status for pos in (0, 1)] == [Status.APPLIED] * 2
        review.decide((turn, 0), Decision.reject())
        assert review.outcome((turn, 1)).status is Status.APPLIED
        review.decide((turn, 1), Decision.accept())
    assert (root / "f.c").read_text() == after.replace("case ZERO:", "case zero:")


def test_other_punctuation_in_the_file_is_a_change_to_review() -> None:
    """QA s44 helper-134 M6: the diff changes ``It's here``; meanwhile the file's line
    became ``It’s here`` (someone's curly apostrophe). The punctuation forgiven, the hunk
    landed and reverted that change, exit 0 (git apply refuses; git merge-file
    conflicts). A diff's lines are the file's own characters: for a human to judge."""
    base = "intro\nIt's here\nend\nmore\n"
    after = base.replace("It's here", "It's there")
    drifted = base.replace("It's", "It\u2019s")
    for index in (True, False):
        status, _ = _run(_diff(base, after, index=index), drifted)
        assert status is Status.NEEDS_REVIEW
    assert _run(_diff(base, after), base) == (Status.APPLIED, after.encode())
