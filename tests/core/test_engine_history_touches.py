"""The stale-version diagnosis reads a file's earlier versions from the checkpoints after
the turns that name it (``core/engine/touches.py``), not from every checkpoint: along
them the file goes through exactly the same version objects, in the same order, as
along all of them -- when no command ran before (a move or an :unrm can bring a file
back in a turn that does not name it; then every checkpoint is read).

Differential, on random sessions with commands, folders that are files elsewhere and
random decision sequences (both runs, incremental updates): at every checkpoint and for
every path, the versions along the trees the run picks are the versions along all the
checkpoints so far, object for object.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import (
    PATHS,
    base_files,
    decision,
    keys_of,
    make_tree,
    session_text,
)

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.engine.touches import history_trees
from reviewtui.core.model.tree import versions_along
from reviewtui.core.protocol.session import parse_session


def assert_histories(run: SessionRun) -> None:
    states = run.states
    try:
        for last in range(len(states)):
            run.states = states[: last + 1]  # as a turn at position ``last`` sees them
            for path in PATHS:
                picked = list(versions_along(history_trees(run.states, run._touches(), path),
                                             path))
                every = list(versions_along((s.tree for s in run.states), path))
                assert len(picked) == len(every)
                assert all(a is b for a, b in zip(picked, every, strict=True))
    finally:
        run.states = states


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=session_text, files=base_files, data=st.data())
def test_the_versions_read_are_every_checkpoints_versions(text: str, files: dict[str, str],
                                                          data: st.DataObject) -> None:
    session = parse_session(text)
    keys = keys_of(session)
    base = make_tree(files)
    runs = [evaluate_session(session, base, policy=policy)
            for policy in (Policy.headless(), Policy.decided_only())]
    decisions: dict[OpKey, object] = {}
    for run in runs:
        assert_histories(run)
    for _ in range(data.draw(st.integers(0, 4)) if keys else 0):
        decisions[data.draw(st.sampled_from(keys))] = data.draw(decision)
        for run in runs:
            run.update(decisions)  # type: ignore[arg-type]
            assert_histories(run)


MOVED = """## Turn 1
> go

--- File: a.txt ---
<<<<<<< SEARCH
one
=======
two
>>>>>>> REPLACE
## Turn 2
> go

```console
:mv a.txt b.txt
```
## Turn 3
> go

--- File: b.txt ---
<<<<<<< SEARCH
two
=======
three
>>>>>>> REPLACE
## Turn 4
> go

--- File: b.txt ---
<<<<<<< SEARCH
two
=======
five
>>>>>>> REPLACE
"""


def test_a_file_moved_in_by_a_command_keeps_the_versions_it_had_there() -> None:
    # b.txt gets a.txt's "two" in turn 2, which names no file: the turns naming b.txt
    # alone would miss that version (random sessions rarely move a file to a free name).
    run = evaluate_session(parse_session(MOVED), make_tree({"a.txt": "one\n"}),
                           policy=Policy.headless())
    assert [str(t.results[0].outcome.status) for t in run.turns] == [
        "applied", "applied", "applied", "not_found"]
    assert_histories(run)
    # Turn 4's SEARCH is what b.txt held after the move: it is stale.
    assert "SEARCH is in version 1 of 1 earlier versions" in run.turns[3].results[0].outcome.hint
