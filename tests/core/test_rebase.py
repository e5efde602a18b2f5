"""Outside layers: hunks cut with the least unique context, re-applied byte for byte."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.review.rebase import OutsideLayer, apply_layer, outside_hunks, split_lines

OURS = b"import os\n\ndef a():\n    return 1\n\ndef b():\n    return 2\n"


def test_split_lines_is_lossless() -> None:
    for data in (b"", b"x", b"x\n", b"a\r\nb\n\nc", b"\n\n"):
        assert b"".join(split_lines(data)) == data


def test_hunks_take_context_only_when_the_text_is_not_unique() -> None:
    theirs = OURS.replace(b"    return 2\n", b"    return 20\n")
    (hunk,) = outside_hunks(OURS, theirs)
    assert (hunk.context_before, hunk.before, hunk.after, hunk.context_after) == (
        (), (b"    return 2\n",), (b"    return 20\n",), ())
    blank = OURS.replace(b"\ndef b", b"\n\ndef b")  # an inserted blank line needs anchors
    (hunk,) = outside_hunks(OURS, blank)
    assert hunk.before == ()
    assert any(line.strip() for line in hunk.search)


def test_layer_lands_on_a_changed_draft_keeping_line_endings() -> None:
    ours = OURS.replace(b"\n", b"\r\n")
    theirs = ours.replace(b"    return 1\r\n", b"    return 1  # checked\r\n")
    draft = ours.replace(b"    return 2\r\n", b"    return 3\r\n")
    result = apply_layer(OutsideLayer(ours, theirs), draft)
    assert result.ok
    assert result.data == theirs.replace(b"    return 2\r\n", b"    return 3\r\n")


def test_layer_clashes_when_the_draft_changed_the_same_lines() -> None:
    theirs = OURS.replace(b"    return 1\n", b"    return 100\n")
    draft = OURS.replace(b"    return 1\n", b"    return 5\n")
    result = apply_layer(OutsideLayer(OURS, theirs), draft)
    assert not result.ok
    assert result.hunk is not None
    assert "the draft changed the same lines" in result.message


def test_layer_already_in_the_draft_is_not_applied_twice() -> None:
    theirs = OURS.replace(b"    return 1\n", b"    return 100\n")
    draft = theirs.replace(b"    return 2\n", b"    return 3\n")
    result = apply_layer(OutsideLayer(OURS, theirs), draft)
    assert result.ok
    assert result.data == draft


def test_layer_refuses_other_line_endings_and_binary() -> None:
    theirs = OURS.replace(b"    return 1\n", b"    return 100\n")
    crlf_draft = OURS.replace(b"\n", b"\r\n").replace(b"    return 2", b"    return 3")
    assert not apply_layer(OutsideLayer(OURS, theirs), crlf_draft).ok
    binary = OutsideLayer(b"\x00\xff1", b"\x00\xff2")
    assert apply_layer(binary, b"\x00\xff1").data == b"\x00\xff2"  # unchanged draft: exact
    assert "binary" in apply_layer(binary, b"\x00\xff3").message


def test_created_or_deleted_outside() -> None:
    created = OutsideLayer(None, b"new\n")
    assert apply_layer(created, None).data == b"new\n"
    assert not apply_layer(created, b"draft\n").ok
    deleted = OutsideLayer(b"old\n", None)
    assert apply_layer(deleted, b"old\n").ok
    assert apply_layer(deleted, b"old\n").data is None
    assert "deleted outside" in apply_layer(deleted, b"changed\n").message


SIGNER = (b"def other():\n    return 2\n\n\ndef signer(app):\n    keys = [app.secret_key]\n\n"
          b"    if fallbacks := app.config['FALLBACKS']:\n        keys.extend(fallbacks)\n\n"
          b"    return Serializer(keys)\n")
LATER = (SIGNER.replace(b"    keys = [app.secret_key]\n", b"    keys = []\n")
         .replace(b"keys.extend(fallbacks)\n\n",
                  b"keys.extend(fallbacks)\n\n    keys.append(app.secret_key)\n"))


def test_a_change_the_draft_made_too_is_not_made_twice() -> None:
    """QA s34 F1: the disk pinned at a checkpoint, the file put outside at the version a
    later turn writes; restoring that turn rebased the outside change over its own
    result, and the inserted line (a security key appended) was written twice, exit 0."""
    assert apply_layer(OutsideLayer(SIGNER, LATER), LATER).data == LATER
    # The same change, and a draft that also changed something else: made once.
    draft = LATER.replace(b"return 2", b"return 3")
    result = apply_layer(OutsideLayer(SIGNER, LATER), draft)
    assert result.ok
    assert result.data == draft
    assert result.data.count(b"keys.append") == 1


def test_a_different_change_at_the_same_place_is_a_clash_not_a_merge() -> None:
    more = LATER.replace(b"    keys.append(app.secret_key)\n",
                         b"    keys.append(app.secret_key)\n    keys.append(b'spare')\n")
    result = apply_layer(OutsideLayer(SIGNER, more), LATER)
    assert not result.ok
    assert result.hunk is not None
    assert "the draft changed the same lines" in result.message


LINES = st.sampled_from([b"a\n", b"b\n", b"\n", b"    x = 1\n", b"}\n"])
NEW = st.sampled_from([b"new\n", b"    y = 2\n", b"#\n"])


def _splice(lines: list[bytes], data: st.DataObject) -> tuple[int, int, list[bytes]]:
    start = data.draw(st.integers(0, len(lines)))
    end = data.draw(st.integers(start, min(len(lines), start + 3)))
    return start, end, data.draw(st.lists(NEW, max_size=3))


@settings(max_examples=400, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=14), st.data())
def test_a_layer_over_a_draft_that_made_its_change_is_that_change_once(
        lines: list[bytes], data: st.DataObject) -> None:
    """The draft made change X since the workbench wrote ``base``; the disk holds X and,
    maybe, Y elsewhere (disjoint, later in the file). The layer lands as X then Y, or
    clashes: it never makes X twice, never loses Y. (The base's lines are told apart:
    with repeated lines, which of two equal lines a change removed is not in the texts,
    and a merge may read it either way.)"""
    base = [b"%d: " % n + line for n, line in enumerate(lines)]
    x_start, x_end, x_new = _splice(base, data)
    drafted = base[:x_start] + x_new + base[x_end:]
    theirs = list(drafted)
    wanted = b"".join(drafted)
    if data.draw(st.booleans()) and x_end + 2 <= len(base):
        y_start = data.draw(st.integers(x_end + 2, len(base)))
        y_end = data.draw(st.integers(y_start, len(base)))
        y_new = data.draw(st.lists(NEW, max_size=2))
        at = y_start + len(x_new) - (x_end - x_start)
        theirs = drafted[:at] + y_new + drafted[at + y_end - y_start:]
        wanted = b"".join(theirs)
    result = apply_layer(OutsideLayer(b"".join(base), b"".join(theirs)), b"".join(drafted))
    if result.ok:
        assert result.data == wanted


def test_one_insertion_cut_at_two_points_of_a_blank_run_is_one_change() -> None:
    """Two diffs put the same inserted block at different points of a run of equal lines
    (flask's docs/config.rst: the bounded diff one line below difflib). Slid as high as
    they go, they are the same change, and it is not made twice (QA s34, the scan of six
    real ranges after the bounded diff came in). Two different insertions that can stand
    at one point meet (a clash), wherever each diff cut them."""
    from reviewtui.core.review.rebase import _meets, _reach

    base = [b"intro\n", b"\n", b".. data:: A\n", b"\n", b".. data:: B\n"]
    low = _reach(base, (4, 4, (b".. data:: T\n", b"\n")))  # before ".. data:: B"
    high = _reach(base, (3, 3, (b"\n", b".. data:: T\n")))  # the same text, a line higher
    assert low[0] == high[0] == (3, 3, (b"\n", b".. data:: T\n"))
    assert _meets(low, [high]) == "same"
    # A removal slides too; a different insertion where one can stand is an overlap.
    assert _reach([b"a\n", b"\n", b"\n", b"b\n"], (2, 3, ()))[0] == (1, 2, ())
    assert _meets(low, [_reach(base, (4, 4, (b".. data:: U\n",)))]) == "overlap"
    # (QA s34 helper-98's fuzz: "x" then "c x" inserted after "x" read apart once slid.)
    xs = [b"b\n", b"\n", b"x\n"]
    assert _meets(_reach(xs, (3, 3, (b"c\n", b"x\n"))), [_reach(xs, (3, 3, (b"c\n",)))]) == (
        "overlap")


def test_an_outside_line_is_not_dropped_for_a_copy_of_its_lines_elsewhere() -> None:
    """QA s34 helper-98 r31c: the user duplicated a "y"; the draft's edit wrote a second
    "y x" elsewhere. The hunk's search had become ambiguous, its result was found (the
    draft's copy) and the hunk was skipped as "already there": the user's "y" was gone,
    answered applied. Merged with both, or a clash: never lost."""
    ours, theirs = b"y\nx\ny\nW\n\n", b"y\ny\nx\ny\nW\n\n"
    result = apply_layer(OutsideLayer(ours, theirs), b"y\nx\nA\nx\n\n")
    assert not result.ok or result.data == b"y\ny\nx\nA\nx\n\n", result
