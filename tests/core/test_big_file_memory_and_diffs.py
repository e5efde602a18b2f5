"""Big files with many versions: what is remembered stays bounded by size, and the turn
plans behind ``stats`` and ``export --format fileops`` diff a few changes scattered over a
long file without handing difflib the whole file.

Found on a 59,000-line JavaScript file (3 MB) with 150 edits over 15 turns: the decode
cache kept 256 versions' bytes and texts whatever their size (the workbench grew to 2.4 GB
after 86 accepts; ``check`` and ``stats`` peaked at 1.5 GB), and each turn's plan ran
difflib over the 59,000 lines between its first and last edit (1.3 s a turn, ``stats``
19 s)."""

from __future__ import annotations

import difflib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.export import fileops
from reviewtui.core.model import filestate
from reviewtui.core.model.filestate import FileState
from reviewtui.core.text.kept import KeptByIdentity


def test_the_decode_cache_is_bounded_by_the_bytes_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filestate, "_decoded", KeptByIdentity(256, 1 << 20))
    states = [FileState.from_bytes(f"v{n}\n".encode() + b"x = 1\n" * 40_000)
              for n in range(20)]  # 240 KB each: 4.8 MB in all, and as much text
    texts = [state.text for state in states]
    assert filestate._decoded.held <= 1 << 20  # bytes and texts together
    assert len(filestate._decoded) >= 2  # as many as fit are still remembered
    assert states[-1].text is texts[-1]  # the latest: decoded once
    assert all(state.text == text for state, text in zip(states, texts, strict=True))


def test_a_version_larger_than_the_budget_is_still_decoded_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filestate, "_decoded", KeptByIdentity(256, 1000))
    state = FileState.from_bytes(b"y\n" * 5_000)
    assert state.text is state.text
    assert len(filestate._decoded) == 1


def test_kept_by_identity_holds_the_latest_within_count_and_budget() -> None:
    kept = KeptByIdentity(3, 100)
    owners = [object() for _ in range(5)]
    for n, owner in enumerate(owners):
        kept.put(owner, n, 10)
    assert len(kept) == 3  # the count
    assert [kept.get(owner) for owner in owners] == [None, None, 2, 3, 4]
    kept.put(owners[0], "big", 95)  # over the budget with any other: alone
    assert len(kept) == 1
    assert kept.held == 95
    assert kept.get(owners[0]) == "big"
    assert kept.get(object()) is None
    kept.put(owners[0], "again", 5)  # put again: replaced, not counted twice
    assert kept.held == 5


def _fed_to_difflib(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of every pair of sequences difflib is given from now on."""
    fed: list[int] = []
    real = difflib.SequenceMatcher.set_seqs

    def counting(self: difflib.SequenceMatcher[str], a: object, b: object) -> None:
        fed.append(len(a) + len(b))  # type: ignore[arg-type]
        real(self, a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seqs", counting)
    return fed


def _scattered(seed: int, size: int, changes: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    # Real-looking lines: many repeat (blank lines, braces), most are unique.
    old = [rng.choice(["", "}", "  return x;", f"  call_{n}(a, b);", f"var v{n} = {n};"])
           for n in range(size)]
    new = list(old)
    for at in sorted(rng.sample(range(size), changes), reverse=True):
        kind = rng.randrange(3)
        if kind == 0:
            new[at] = new[at] + " // changed"
        elif kind == 1:
            new.insert(at, f"  added_{at}();")
        else:
            del new[at]
    return old, new


def test_scattered_changes_in_a_long_file_are_not_diffed_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = _scattered(1, 20_000, 10)
    fed = _fed_to_difflib(monkeypatch)
    changes = fileops._changes(old, new)
    assert max(fed, default=0) < 1_000  # small stretches between unique lines alone
    # The regions are real changes, and everything outside them is equal, in order.
    rebuilt: list[str] = []
    i = 0
    for i1, i2, j1, j2 in changes:
        assert old[i:i1] == new[len(rebuilt) : len(rebuilt) + i1 - i]
        rebuilt += old[i:i1] + new[j1:j2]
        i = i2
    assert rebuilt + old[i:] == new
    assert 1 <= len(changes) <= 10


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(600, 1_500), st.integers(1, 12))
def test_edits_made_over_a_long_file_give_the_new_file(seed: int, size: int,
                                                       changes: int) -> None:
    old, new = _scattered(seed, size, changes)
    edits = fileops.minimal_edits(old, new, "a.js", large=True)
    if edits is None:  # (no unique anchor for some change: the caller sends the file)
        return
    current = list(old)
    for search, replace in edits:
        at = [k for k in range(len(current) - len(search) + 1)
              if tuple(current[k : k + len(search)]) == search]
        assert len(at) == 1  # each SEARCH is unique where it is applied
        current[at[0] : at[0] + len(search)] = replace
    assert current == new


def test_an_edited_versions_text_is_one_object_while_remembered() -> None:
    """Built from its lines, then asked again: the same text object, so its bytes and
    content key (``core/text/content.py``) are worked out once per version."""
    state = FileState.from_bytes(b"a\nb\nc\n").splice(1, 2, ["B"])
    first = state.text
    assert first == "a\nB\nc\n"
    assert state.text is first


def test_content_keys_are_per_content_and_remembered_within_a_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewtui.core.text import content

    monkeypatch.setattr(content, "_known", KeptByIdentity(256, 1 << 20))
    one, same = "x = 1\n" * 3, "".join(["x = 1\n"] * 3)
    assert one is not same
    assert content.text_key(one) == content.text_key(same)
    assert content.text_key("x = 1\n") != content.text_key("x = 2\n")
    # A lone surrogate (a tolerant decode) is not the "?" that "replace" would make of it.
    assert content.text_key("a\udc80") != content.text_key("a?")
    assert content.encoded("é\udc80") == "é\udc80".encode("utf-8", "surrogatepass")
    texts = [f"{n}\n" + "y" * 200_000 for n in range(12)]
    keys = [content.text_key(text) for text in texts]
    assert content._known.held <= 1 << 20
    assert len(content._known) >= 2
    assert keys == [content.content_key(text.encode()) for text in texts]


def _edited() -> FileState:
    return FileState.from_bytes(b"".join(b"line %d\n" % n for n in range(3_000))).splice(
        10, 11, ["changed"])


def test_describing_or_measuring_a_version_builds_no_bytes() -> None:
    """``repr`` (a worker's description repr'd its arguments) and the workbench's size
    test kept a whole copy of every version of a big file they looked at."""
    state = _edited()
    assert "3000 lines" in repr(state)
    assert state.larger_than(20_000)
    assert not state.larger_than(40_000)
    assert state._data is None
    assert state.larger_than(len(state.data) - 1)  # once built: by the bytes
    assert not state.larger_than(len(state.data))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "bcd", "é"]), max_size=30), st.booleans(),
       st.integers(0, 80))
def test_larger_than_agrees_with_the_text(lines: list[str], final: bool, limit: int) -> None:
    base = FileState.from_bytes(("\n".join(["x", *lines]) + ("\n" if final else "")).encode())
    state = base.splice(0, 1, ["y"])
    text = state.text_unkept()
    assert text is not None
    assert state.larger_than(limit) == (len(text) > limit)  # characters, as the UI counts


def test_the_syntax_report_of_a_version_keeps_no_bytes_on_it() -> None:
    from reviewtui.core.engine import OpResult
    from reviewtui.core.review.diagnostics import change_texts

    before = FileState.from_bytes(b"".join(b"x%d = %d\n" % (n, n) for n in range(2_000)))
    after = before.splice(5, 6, ["x5 = 6"])
    outcome = type("O", (), {"path": "a.py", "before_state": before, "after_state": after,
                             "method": "exact", "lines": (6, 6)})()
    result = type("R", (), {"outcome": outcome})()
    texts = change_texts(result)  # type: ignore[arg-type]
    assert texts is not None
    assert texts[2] is not None
    assert "x5 = 6\n" in texts[2]
    assert after._data is None
    assert OpResult is not None


def test_the_tree_cache_is_bounded_by_the_text_it_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewtui.core.syntax import parsing

    monkeypatch.setattr(parsing, "_TREE_BYTES", 50_000, raising=False)
    monkeypatch.setattr(parsing, "_trees", type(parsing._trees)())
    texts = [f"// v{n}\n" + "var a = 1;\n" * 2_000 for n in range(6)]  # 22 KB each
    for text in texts:
        assert parsing.parse("a.js", text) is not None
    assert len(parsing._trees) == 2  # the two latest, however big
    assert parsing.cached("a.js", texts[-1]) is not None
    assert parsing.cached("a.js", texts[0]) is None


def test_a_region_of_repeated_lines_is_not_paired_line_by_line() -> None:
    """The lines kept inside a replaced region are found from the pairs of equal lines,
    up to ``_PAIRS`` of them; the pairs were all made before they were counted: one
    496-hunk diff of a 24,000-line configure script made tens of millions (770 MB)."""
    import tracemalloc

    from reviewtui.core.engine import lineage

    old = ["fi", ""] * 800 + ["old"]
    new = ["fi", ""] * 800 + ["new"]  # 1,280,000 pairs of equal lines
    tracemalloc.start()
    try:
        kept = lineage._kept_between(old, new, 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert kept == {at: at for at in range(1_600)}  # the same place, as beyond the limit
    assert peak < 8 << 20
