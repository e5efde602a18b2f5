"""Paths are checked against an empty link map when no link can exist in the run
(``core/engine/linkless.py``; issue 13: the link view's tree walks were ~15% of a reject).

Differential: random sessions, some of whose full files are links (mode 120000), over
bases with and without a link, with and without disk links, under random decisions:
the run equals one whose paths are always checked through the link view, and when the
shortcut is taken no checkpoint holds a link (the claim it rests on).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_engine_incremental import assert_same, keys_of, make_tree
from test_engine_reject_reuse import base_files
from test_engine_reject_reuse import session_text as edit_sessions

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine import turn_steps as session_module
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.linkless import _linkless
from reviewtui.core.engine.links import LinkView, is_link, link_state
from reviewtui.core.engine.results import Rules
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.errors import PathRefused
from reviewtui.core.model.records import FileBlock, FullFile, Session
from reviewtui.core.model.tree import Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.record import replace

TARGETS = ["a.txt", "d", "e/f.txt", "../out", "g"]
decision = st.sampled_from([Decision.reject(), Decision.accept(), Decision()])


def with_links(session: Session, linked: set[int], targets: list[str]) -> Session:
    """``session`` with its full files numbered in ``linked`` made links."""
    turns, count = [], 0
    for turn in session.turns:
        blocks = []
        for block in turn.reply.blocks:
            if isinstance(block, FileBlock):
                ops = []
                for op in block.ops:
                    if isinstance(op, FullFile):
                        if count in linked:
                            op = replace(op, mode=0o120000,
                                         lines=(targets[count % len(targets)],))
                        count += 1
                    ops.append(op)
                block = replace(block, ops=tuple(ops))
            blocks.append(block)
        turns.append(replace(turn, reply=replace(turn.reply, blocks=tuple(blocks))))
    return replace(session, turns=tuple(turns))


def viewed(session: Session, base: Tree, rules: Rules, policy: Policy,
           decisions: dict[OpKey, Decision]) -> SessionRun:
    """A run whose paths are checked through the link view, always."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "link_view",
                      lambda disk, base, tree, session: LinkView(disk, base, tree))
        return evaluate_session(session, base, rules=rules, policy=policy,
                                decisions=decisions)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=edit_sessions, files=base_files, linked=st.sets(st.integers(0, 6), max_size=2),
       base_link=st.sampled_from([None, "a.txt", "d/c.txt", "g"]),
       disk=st.sampled_from([{}, {"g": "../out"}, {"d": "g"}]),
       pending_joins=st.booleans(), data=st.data())
def test_paths_checked_without_the_link_view_only_where_no_link_can_be(
        text: str, files: dict[str, str], linked: set[int], base_link: str | None,
        disk: dict[str, str], pending_joins: bool, data: st.DataObject) -> None:
    session = with_links(parse_session(text), linked, TARGETS)
    base = make_tree(files)
    if base_link is not None:
        try:
            base = base.set(base_link, link_state("a.txt"))
        except PathRefused:  # a folder of the base files there
            assume(False)
    rules = Rules(symlinks=disk)
    policy = Policy.headless() if pending_joins else Policy.decided_only()
    run = evaluate_session(session, base, rules=rules, policy=policy)
    decisions: dict[OpKey, Decision] = {}
    for _ in range(data.draw(st.integers(0, 4))):
        decisions = dict(decisions)
        decisions[data.draw(st.sampled_from(keys_of(session)))] = data.draw(decision)
        run.update(decisions)
    assert_same(run, viewed(session, base, rules, policy, decisions))
    if not disk and _linkless(session, base):
        for state in run.states:
            assert not any(is_link(file) for _, file in state.tree.items())


def test_a_link_written_by_the_session_turns_the_shortcut_off() -> None:
    session = parse_session("## Turn 1\n--- File: l ---\n```\na.txt\n```\n"
                            "## Turn 2\n--- File: l/x.txt ---\n```\nx\n```\n")
    base = make_tree({"a.txt": "a\n"})
    assert _linkless(session, base)
    linked = with_links(session, {0}, ["a.txt"])
    assert not _linkless(linked, base)
    assert not _linkless(session, base.set("b", link_state("a.txt")))
    run = evaluate_session(linked, base, policy=Policy.headless())
    assert run.turns[0].results[0].landed
    assert run.turns[1].results[0].outcome.rule == "symlink"  # not written through l
