"""The Aider importer's ``> ... with X edit format`` line is read in linear time: its
pattern's nested repetition backtracked exponentially on a run of punctuation (importers
red-team finding 07: each extra "!" doubled the time)."""

from __future__ import annotations

import pytest

from reviewtui.core.importers.aider import EDIT_FORMAT


@pytest.mark.parametrize(("line", "found"), [
    ("> Model: gpt-4o with diff edit format", "diff"),
    ("> Main model: o1 with architect edit format", "architect"),
    ("> Models: a with whole edit format, weak model b", "whole"),
    ("> with ** diff-fenced edit format", "diff-fenced"),
    ("> with " + "!" * 20 + " whole edit format", "whole"),
    ("> Model: claude with `udiff` edit format", None),
])
def test_the_announced_format(line: str, found: str | None) -> None:
    match = EDIT_FORMAT.match(line)
    assert (match.group(1) if match else None) == found


def test_a_long_run_of_punctuation_is_no_format() -> None:
    assert EDIT_FORMAT.match("> with " + "!" * 100_000 + " edit format") is None
