"""Outside layers: hunks cut with the least unique context, re-applied byte for byte."""

from __future__ import annotations

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
