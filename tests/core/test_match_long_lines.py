"""Matching next to very long lines stays bounded and gives the same answers (issue 14,
"Speed on real data"; issue 13, "bounded matching on long lines").

A 47 KB line of an SVG made the near-match stage run token-level difflib over the whole
line (quadratic: 24 s of CPU for two hunks). No wall-clock here: the outcome is checked,
and the work is counted as the largest pair of sequences handed to ``SequenceMatcher``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from difflib import SequenceMatcher

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.match import match_edit
from reviewtui.core.match.normalise import line_tokens, matched_in_chunks, similarity
from reviewtui.core.model.outcome import Status


def _svg(size: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0  # sum(map(len, parts)), kept as it grows (summed anew: quadratic)
    while length + len(parts) < size:
        parts.append(f"L{rng.randint(0, 999)}.{rng.randint(0, 99)} {rng.randint(0, 999)}")
        length += len(parts[-1])
    long = '  <path fill="#333" d="M0 0 ' + " ".join(parts) + ' Z"/>'
    rects = [f'  <rect id="r{i}" x="{i}" width="10" height="10"/>' for i in range(60)]
    return ["<svg>", *rects[:30], long, *rects[30:], "</svg>"]


def _drift(line: str) -> str:
    mid = len(line) // 2
    return line[:mid] + "9" + line[mid + 1 :]


class _Counting(SequenceMatcher):  # type: ignore[type-arg]
    largest = 0

    def set_seqs(self, a: Sequence[object], b: Sequence[object]) -> None:  # type: ignore[override]
        _Counting.largest = max(_Counting.largest, len(a) * len(b))
        super().set_seqs(a, b)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> type[_Counting]:
    _Counting.largest = 0
    # normalise imports difflib's SequenceMatcher where it diffs (not at start-up)
    monkeypatch.setattr("difflib.SequenceMatcher", _Counting)
    return _Counting


LINES = _svg(47_000)
LONG = LINES[31]
TOKENS = len(line_tokens(LONG))


def test_a_near_match_across_a_47_kb_line_needs_review(counted: type[_Counting]) -> None:
    search = [LINES[29], LINES[30].replace('width="10"', 'width="11"'), _drift(LONG),
              LINES[32], LINES[33]]
    replace = [*search[:3], LINES[32].replace('height="10"', 'height="20"'), LINES[33]]
    result = match_edit(LINES, search, replace, path="logo.svg")
    assert (result.status, result.method, result.start, result.end) == (
        Status.NEEDS_REVIEW, "near", 29, 34)
    # A near match proposes the model's REPLACE over the region, for a human to judge.
    assert result.new_lines == tuple(replace)
    assert result.similarity is not None
    assert 0.75 <= result.similarity < 1.0
    assert TOKENS > 10_000
    assert counted.largest < TOKENS * TOKENS // 50  # the old comparison was TOKENS squared


def test_a_missing_hunk_next_to_long_lines_is_diagnosed(counted: type[_Counting]) -> None:
    search = ["<g id='legend'>", LINES[30].replace("r29", "q29"), _drift(LONG), "</g>"]
    result = match_edit(LINES, search, ["<g/>"], path="logo.svg")
    assert result.status is Status.NOT_FOUND
    assert result.candidates
    assert result.candidates[0].start <= 32 <= result.candidates[0].end
    assert counted.largest < TOKENS * TOKENS // 50


def test_identical_long_lines_are_fully_similar() -> None:
    assert similarity([LONG], [LONG]) == 1.0
    assert similarity([LONG], [_drift(LONG)]) > 0.99


def _lcs(a: Sequence[str], b: Sequence[str]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        previous = 0
        for j, y in enumerate(b, 1):
            current = row[j]
            row[j] = previous + 1 if x == y else max(row[j], row[j - 1])
            previous = current
    return row[-1]


TOKEN = st.sampled_from(["L", "1", "2", ".", "33", "M", "Z", '"', "d", "=", "path"])


@given(st.lists(TOKEN, max_size=80), st.lists(TOKEN, max_size=80))
@settings(max_examples=300, deadline=None)
def test_chunk_matching_never_claims_more_than_is_common(a: list[str], b: list[str]) -> None:
    found = matched_in_chunks(a, b)
    assert 0 <= found <= _lcs(a, b)
    if a == b:
        assert found == len(a)
