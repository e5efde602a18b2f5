"""Running a session in one call, and reading a file as a given turn sees it (for lint)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from reviewtui.core.engine.decisions import Decision, OpKey, Policy
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.results import Rules
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.records import Session
from reviewtui.core.model.tree import Tree


def evaluate_session(session: Session, base: Tree, *, rules: Rules | None = None,
                     policy: Policy | None = None,
                     decisions: Mapping[OpKey, Decision] | None = None,
                     upto: int | None = None) -> SessionRun:
    run = SessionRun(session, base, rules=rules, policy=policy)
    run.decisions.update(decisions or {})
    run.evaluate(upto=upto)
    return run


def file_text_for(run: SessionRun) -> Callable[[int], Callable[[str], str | None]]:
    """For lint: the text of a file as turn N sees it (the checkpoint before it)."""
    positions = {t.index: pos for pos, t in enumerate(run.session.turns)}
    # The checkpoints as they are now: the workbench lints in a thread, and a decision
    # meanwhile may leave the display's list short while its walk waits (shell/evaluation).
    trees = run.checkpoints

    def for_turn(index: int) -> Callable[[str], str | None]:
        tree = trees[min(positions.get(index, 0), len(trees) - 1)]

        def text(path: str) -> str | None:
            norm = normalize_or_none(path)
            state = tree.get(norm) if norm else None
            # (Not ``state.text``: lint reads every version once, and that would keep a
            # whole copy of each one's bytes, ~700 MB on a 50,000-operation session.)
            return state.text_unkept() if state is not None else None

        return text

    return for_turn
