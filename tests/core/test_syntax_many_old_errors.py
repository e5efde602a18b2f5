"""A file that already has many errors (a C file full of macros the grammar cannot read)
still gets a new error reported: the comparison sees past the first few, and what is
shown stays short (every introduced error, the first old ones)."""

from __future__ import annotations

from reviewtui.core.review.diagnostics import diagnose_change
from reviewtui.core.syntax.problems import MAX_PROBLEMS

OLD_ERRORS = "".join(f"let a{n} = ;\n" for n in range(20))  # 20 errors already there
FUNCS = "".join(f"function f{n}(x) {{\n  return x + {n};\n}}\n" for n in range(40))
BEFORE = OLD_ERRORS + FUNCS


def test_a_new_error_below_many_old_ones_is_introduced() -> None:
    lines = BEFORE.split("\n")
    closer = 20 + 3 * 30 + 2  # 0-based row of the `}` of f30
    assert lines[closer] == "}"
    after = "\n".join(lines[:closer] + lines[closer + 1 :])
    found = diagnose_change("m.js", BEFORE, after, (closer + 1, closer + 1))
    introduced = [d for d in found if d.introduced]
    assert introduced, found
    assert all(abs(d.line - (closer + 1)) <= 3 for d in introduced)
    assert len(found) - len(introduced) <= MAX_PROBLEMS  # the old ones stay few


def test_the_old_errors_alone_are_not_blamed() -> None:
    after = BEFORE.replace("return x + 30;", "return x + 31;")
    found = diagnose_change("m.js", BEFORE, after, (20 + 3 * 30 + 2, 20 + 3 * 30 + 2))
    assert found
    assert not any(d.introduced for d in found)
    assert len(found) <= MAX_PROBLEMS
