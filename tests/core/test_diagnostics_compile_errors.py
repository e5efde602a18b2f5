"""The python check reports the errors Python raises before running a module, not only
the parser's, and caches per content without sharing its lists."""

from __future__ import annotations

from reviewtui.core.review.diagnostics import diagnose_change, diagnose_text


def test_a_repeated_argument_name_is_a_syntax_error() -> None:
    found = diagnose_text("m.py", "def f(a, a):\n    return a\n")
    assert found == [(1, 10, "duplicate argument 'a' in function definition", "python")]


def test_a_nonlocal_without_binding_is_introduced_by_the_edit() -> None:
    before = "def f():\n    def g():\n        return 1\n"
    after = "def f():\n    def g():\n        nonlocal q\n"
    [diag] = diagnose_change("m.py", before, after, (3, 3))
    assert (diag.line, diag.message, diag.introduced) == (3, "no binding for nonlocal 'q' found",
                                                           True)


def test_the_cache_hands_out_copies() -> None:
    first = diagnose_text("m.py", "x = (\n")
    first.clear()
    assert diagnose_text("m.py", "x = (\n") == [(1, 5, "'(' was never closed", "python")]
