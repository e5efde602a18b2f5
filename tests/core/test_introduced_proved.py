"""``introduced`` (what ``check`` prints per operation, and its count of operations that
introduce syntax errors) answers from the edited lines when they prove the file clean, at
any file size, and parses the file otherwise. An operation that leaves an error the file
already had (same place, same message) introduced nothing; one that breaks the file did."""

from __future__ import annotations

import pytest

from reviewtui.core.engine import OpResult, Policy, evaluate_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.review import diagnostics
from reviewtui.core.review.landed import introduced

# A small file (whole parses are what the size threshold keeps for apply) that already
# has an error: the call in f3 is never closed, as in a module cut short.
SMALL = ("def f1(x):\n    return x + 1\n\n\ndef f2(x):\n    total = x + \\\n        2\n"
         "    return total\n\n\ndef f3(x):\n    return g(x,  # the arguments\n")


def results_of(search: str, replace: str) -> OpResult:
    tree = Tree.from_files({"m.py": FileState.from_bytes(SMALL.encode())})
    session = parse_session(f"## Turn 1\n--- File: m.py ---\n<<<<<<< SEARCH\n{search}\n"
                            f"=======\n{replace}\n>>>>>>> REPLACE\n")
    result, = [r for t in evaluate_session(session, tree, policy=Policy.headless()).turns
               for r in t.results]
    assert result.landed
    return result


def parsed_whole(result: OpResult) -> tuple[tuple[int, int, str], ...]:
    """The errors the file after has and the file before had not (whole parses)."""
    before, after = result.outcome.before_state, result.outcome.after_state
    assert isinstance(before, FileState)
    assert isinstance(after, FileState)
    old = set(diagnostics._python(before.text or ""))
    return tuple(e for e in diagnostics._python(after.text or "") if e not in old)


@pytest.mark.parametrize(("search", "replace", "breaks"), [
    # a comment on the line whose bracket was never closed: the same error, not a new one
    ("    return g(x,  # the arguments", "    return g(x,  # the arguments  # edit 1", False),
    ("    return x + 1", "    return x + 2", False),  # code changed, still parses
    ("    total = x + \\", "    total = x + \\  # edit 2", True),  # a comment after a \
    ("    return x + 1", "    return (x + 1", True),  # a new unclosed bracket
])
def test_introduced_is_what_whole_parses_find_new(search: str, replace: str,
                                                  breaks: bool) -> None:
    result = results_of(search, replace)
    diagnostics._cache.clear()
    found = introduced(result)
    assert bool(found) is breaks
    assert bool(parsed_whole(result)) is breaks
    assert all(d.introduced for d in found)


def test_a_proved_comment_edit_parses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    result = results_of("    return x + 1", "    return x + 1  # edit")

    def no_parse(*args: object) -> object:
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(diagnostics, "diagnose_result", no_parse)
    assert introduced(result) == ()
