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


def _blocks(names: str, spaced: str = "", changed: str = "") -> str:
    """Functions with identical bodies; ``spaced`` gets trailing blanks on one line of
    its body, ``changed`` its ``z = 3`` changed to ``z = 9``."""
    text = ""
    for name in names:
        body = ["    a = 0", "    x = 1", "    y = 2", "    z = 3", "    w = 4", "    v = 5",
                "    return x"]
        if name == spaced:
            body[1] += "  "
        if name == changed:
            body[3] = "    z = 9"
        text += f"def {name}():\n" + "".join(line + "\n" for line in body) + "\n\n"
    return text


def _merged(disk: str, base: str, after: str, tmp_path: Path) -> str:
    """What ``git merge-file`` (the clean 3-way merge) makes of it."""
    import subprocess

    for name, text in (("ours", disk), ("base", base), ("theirs", after)):
        (tmp_path / name).write_text(text)
    done = subprocess.run(["git", "merge-file", "-p", *(str(tmp_path / n) for n in
                                                         ("ours", "base", "theirs"))],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_hunk_whose_block_drifted_in_whitespace_is_not_placed_on_its_exact_twin(
        tmp_path: Path) -> None:
    """QA s45 helper-136 U2: blocks a and b are twins; the diff changes b. Since, lines
    were inserted above (a now sits at the hunk's line number) and one context line of b
    got trailing blanks: the hunk's exact text is only in a, and it landed there, exit 0,
    where the 3-way merge changes b. On a file provably not the preimage, exact text in
    one place and the same text but for whitespace in another is ambiguous; the reviewer
    picks b, and the file is the merge's."""
    base, after = _blocks("ab"), _blocks("ab", changed="b")
    diff = _diff(base, after)
    assert _run(diff, base) == (Status.APPLIED, after.encode())
    for above in (10, 4):  # a under the line number; neither under it (the content decides)
        drifted = "".join(f"# {n}\n" for n in range(above)) + _blocks("ab", spaced="b")
        status, _ = _run(diff, drifted)
        assert status is Status.AMBIGUOUS, above
    session = tmp_path / "s.diff"
    session.write_text(diff)
    root = tmp_path / "root"
    root.mkdir()
    (root / "f.c").write_text(drifted)
    with Review.open(session, root, persist=False) as review:
        key = (review.session.turns[0].index, 0)
        outcome = review.outcome(key)
        assert "not the file the diff was made from" in outcome.message
        lines = drifted.splitlines()
        first, last = next((a, b) for a, b in outcome.locations if lines[a - 1].endswith("  ")
                           or lines[a].endswith("  "))
        review.decide(key, Decision.place((first, last), tuple(lines[first - 1 : last])))
    assert (root / "f.c").read_text() == _merged(drifted, base, after, tmp_path)


def test_a_twin_but_for_whitespace_leaves_the_preimage_alone() -> None:
    """On the file the diff was made from, the line number stands even where the text is
    elsewhere but for its indentation."""
    base = _blocks("ab") + "class K:\n" + "".join(
        "    " + line + "\n" if line else "\n" for line in _blocks("c").splitlines())
    after = base.replace("    z = 3\n", "    z = 9\n", 1)
    assert _run(_diff(base, after), base) == (Status.APPLIED, after.encode())


@settings(max_examples=40, deadline=None)
@given(names=st.integers(2, 4), data=st.data())
def test_a_drifted_twin_block_is_never_changed_in_place_of_the_meant_one(
        names: int, data: st.DataObject) -> None:
    """Twin blocks, one changed by the diff; since, lines inserted anywhere above and
    trailing blanks on one block: the hunk lands in the block it changes, or not at all."""
    labels = "abcd"[:names]
    meant = data.draw(st.sampled_from(labels))
    spaced = data.draw(st.sampled_from(labels + "-"))
    above = data.draw(st.integers(0, 12))
    base, after = _blocks(labels), _blocks(labels, changed=meant)
    drifted = "".join(f"# {n}\n" for n in range(above)) + _blocks(labels, spaced=spaced)
    status, data_after = _run(_diff(base, after), drifted)
    if status is Status.APPLIED:
        wanted = "".join(f"# {n}\n" for n in range(above)) + _blocks(labels, spaced=spaced,
                                                                      changed=meant)
        assert data_after.decode() == wanted


def test_a_copy_at_another_depth_is_no_twin() -> None:
    """QA s45 helper-139 #9: the hunk exactly at its own line, the file changed only below
    it, and the same lines nested in a class at another depth: it went ambiguous, where it
    landed before. A twin is a block most of whose lines are exactly the hunk's; a copy
    indented otherwise is another block."""
    body = ["if value is None:", "    return default", "value = value.strip()",
            "value = value.lower()", "value = value.upper()", "return value"]
    base = ("def top(value, default):\n" + "".join(f"    {line}\n" for line in body)
            + "\n\nclass K:\n    def meth(self, value, default):\n"
            + "".join(f"        {line}\n" for line in body) + "\n\ndef tail():\n    return 1\n")
    after = base.replace("    value = value.lower()\n", "    value = value.casefold()\n", 1)
    drifted = base.replace("    return 1\n", "    return 2\n")
    status, data = _run(_diff(base, after), drifted)
    assert (status, data) == (Status.APPLIED,
                              after.replace("    return 1\n", "    return 2\n").encode())
