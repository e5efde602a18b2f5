"""The engine: evaluate every operation of a session over a virtual tree, turn by turn."""

from reviewtui.core.engine.decisions import PENDING, Decision, OpKey, Policy, Verdict
from reviewtui.core.engine.order import execution_order
from reviewtui.core.engine.results import OpResult, Rules, TurnResult, op_title
from reviewtui.core.engine.running import evaluate_session, file_text_for
from reviewtui.core.engine.session import SessionRun

__all__ = [
    "PENDING", "Decision", "OpKey", "OpResult", "Policy", "Rules", "SessionRun", "TurnResult",
    "Verdict", "evaluate_session", "execution_order", "file_text_for", "op_title",
]
