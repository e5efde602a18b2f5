"""apply's per-file check carries lines through every edit of the batch: an error that
was already there between two edits is not blamed on them, a new one is."""

from __future__ import annotations

from reviewtui.core.engine import OpResult, Policy, evaluate_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.review.landed import diagnose_landed

BASE = "a = 1\nb = 2\nc = (\nd = 4\ne = 5\n"  # line 3 never closes: broken before


def landed(*pairs: tuple[str, str]) -> list[OpResult]:
    body = "".join(f"<<<<<<< SEARCH\n{a}\n=======\n{b}\n>>>>>>> REPLACE\n" for a, b in pairs)
    base = Tree.from_files({"m.py": FileState.from_bytes(BASE.encode())})
    run = evaluate_session(parse_session(f"## Turn 1\n--- File: m.py ---\n{body}"), base,
                           policy=Policy.headless())
    results = [r for t in run.turns for r in t.results]
    assert all(r.landed for r in results)
    return results


def test_an_error_between_two_edits_is_not_blamed_on_them() -> None:
    results = landed(("a = 1", "a = 1\na2 = 1"), ("e = 5", "e = 50"))
    (diag,) = diagnose_landed(results)[results[-1].key]
    assert diag.line == 4  # carried one line down by the first edit
    assert not diag.introduced


def test_an_edit_of_the_broken_line_is_blamed_for_it() -> None:
    results = landed(("a = 1", "a = 1\na2 = 1"), ("c = (", "c = ("))
    found = diagnose_landed(results)[results[-1].key]
    assert [d.introduced for d in found] == [True]  # the broken line itself was edited


BIG = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(100))


def landed_in(base: str, *pairs: tuple[str, str]) -> list[OpResult]:
    body = "".join(f"<<<<<<< SEARCH\n{a}\n=======\n{b}\n>>>>>>> REPLACE\n" for a, b in pairs)
    tree = Tree.from_files({"m.py": FileState.from_bytes(base.encode())})
    run = evaluate_session(parse_session(f"## Turn 1\n--- File: m.py ---\n{body}"), tree,
                           policy=Policy.headless())
    return [r for t in run.turns for r in t.results]


def test_an_error_in_an_edited_function_of_a_big_file_is_found() -> None:
    results = landed_in(BIG, ("    y = x + 50", "    y = (x + 50"), ("    y = x + 7", "    y = 7"))
    found = diagnose_landed(results)[results[-1].key]
    assert [(d.line, d.introduced) for d in found] == [(252, True)]


def test_clean_edits_beside_an_old_error_report_nothing_new() -> None:
    broken = BIG.replace("    return y\n", "    return (y\n", 1)  # f0 never closes
    results = landed_in(broken, ("    y = x + 50", "    y = x + 51"))
    assert all(not d.introduced for found in diagnose_landed(results).values() for d in found)
