"""The decisions of a fold, carried on from the fold before (``fold(log, previous)``) and
remembered between asks, are exactly those read from every entry again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine.decisions import Decision, Verdict
from reviewtui.core.review.log import DecisionItem, Folded, LogEntry, LogKind, fold

items = st.builds(lambda turn, pos, verdict: DecisionItem(turn, pos, "a.py", 1, "0" * 16,
                                                          Decision(verdict)),
                  st.integers(1, 3), st.integers(0, 2), st.sampled_from(list(Verdict)))
entries = st.one_of(
    st.builds(lambda xs: LogEntry(LogKind.DECIDE, tuple(xs)), st.lists(items, max_size=4)),
    st.just(LogEntry(LogKind.UNDO)), st.just(LogEntry(LogKind.REDO)),
    st.builds(lambda n: LogEntry(LogKind.RESTORE, checkpoint=n), st.none() | st.integers(0, 3)),
)


def read_again(folded: Folded) -> dict[tuple[int, int], Decision]:
    out: dict[tuple[int, int], Decision] = {}
    for entry in folded.applied:
        for item in entry.items:
            if item.decision.verdict is Verdict.PENDING:
                out.pop(item.key, None)
            else:
                out[item.key] = item.decision
    return out


@settings(max_examples=300)
@given(st.lists(entries, max_size=14), st.integers(0, 3))
def test_carried_decisions_are_the_log_read_again(log: list[LogEntry], asked: int) -> None:
    previous: Folded | None = None
    for n in range(len(log) + 1):
        folded = fold(log[:n], previous)
        for _ in range(asked):  # asked before: remembered
            folded.decisions()
        got = folded.decisions()
        assert got == read_again(folded)
        assert got == fold(log[:n]).decisions()
        got.clear()  # the caller's own dict: the next ask is whole again
        assert folded.decisions() == read_again(folded)
        previous = folded


@settings(max_examples=300)
@given(st.lists(st.tuples(entries, st.booleans()), max_size=16))
def test_a_fold_names_every_key_changed_since_the_folds_before(
        steps: list[tuple[LogEntry, bool]]) -> None:
    """``changed_since`` of an earlier fold's version names (at least) every key whose
    decision differs between the two, for as many folds back as it remembers; undo steps
    and folds made afresh (``previous`` not given: a log rewritten) included."""
    log: list[LogEntry] = []
    seen: list[tuple[int, dict[tuple[int, int], Decision]]] = []
    folded: Folded | None = None
    for entry, afresh in steps:
        log.append(entry)
        folded = fold(log, None if afresh else folded)
        now = folded.decisions()
        assert now == read_again(folded)
        remembered = 0
        for version, then in seen:
            keys = folded.changed_since(version)
            if keys is None:
                continue
            remembered += 1
            differ = {k for k in now.keys() | then.keys() if now.get(k) != then.get(k)}
            assert differ <= keys, (version, differ - keys)
        assert folded.changed_since(folded.version) == frozenset()
        if not afresh and len(seen) > 0:
            assert remembered >= 1  # carried on: the fold just before is remembered
        seen.append((folded.version, now))
