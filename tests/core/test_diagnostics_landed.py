"""apply's diagnostics: one check per written file, attributed to its last operation."""

from __future__ import annotations

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.review.landed import diagnose_landed


def edits(*pairs: tuple[str, str]) -> str:
    body = "".join(f"<<<<<<< SEARCH\n{a}\n=======\n{b}\n>>>>>>> REPLACE\n" for a, b in pairs)
    return f"## Turn 1\n--- File: m.py ---\n{body}"


def landed(text: str) -> list:  # type: ignore[type-arg]
    base = Tree.from_files({"m.py": FileState.from_bytes(b"x = 1\ny = 2\n")})
    run = evaluate_session(parse_session(text), base, policy=Policy.headless())
    return [r for t in run.turns for r in t.results]


def test_an_error_fixed_later_in_the_batch_is_not_reported() -> None:
    results = landed(edits(("x = 1", "x = (1"), ("x = (1", "x = (1)")))
    assert all(r.landed for r in results)
    assert diagnose_landed(results) == {}


def test_an_error_left_in_the_file_goes_to_the_last_operation_on_it() -> None:
    results = landed(edits(("x = 1", "x = (1"), ("y = 2", "y = 3")))
    found = diagnose_landed(results)
    assert list(found) == [results[-1].key]
    (diag,) = found[results[-1].key]
    assert diag.introduced
    assert diag.line == 1
