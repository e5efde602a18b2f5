"""The check of an operation re-parses from the tree of the file before it: the parser is
handed that tree, edited to the change, and only the edited region comes out different."""

from __future__ import annotations

from typing import Any

import pytest

from reviewtui.core.review.diagnostics import diagnose_change
from reviewtui.core.syntax import parsing

BODY = "".join(f"func F{n}(a int) int {{\n\treturn a + {n}\n}}\n\n" for n in range(2000))
BEFORE = "package big\n\n" + BODY
AFTER = BEFORE.replace("\treturn a + 1000\n", "\treturn a * 1000\n", 1)


class _Recording:
    """Stands in for a grammar's parser and records what each parse was given."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls = real, []

    def parse(self, data: bytes, old: Any = None) -> Any:
        self.calls.append(old)
        return self.real.parse(data) if old is None else self.real.parse(data, old)


def test_a_check_reparses_from_the_tree_before(monkeypatch: pytest.MonkeyPatch) -> None:
    parsing.clear_cache()
    parsing.parse("big.go", "package p\n")  # loads the grammar's parser
    recording = _Recording(parsing._parsers["go"])
    monkeypatch.setitem(parsing._parsers, "go", recording)

    assert diagnose_change("big.go", BEFORE, AFTER, (4004, 4004)) == []
    assert len(recording.calls) == 2  # the file before, cold; then the file after...
    assert recording.calls[0] is None
    old = recording.calls[1]
    assert old is not None  # ...from the tree before, edited
    after = parsing.cached("big.go", AFTER)
    assert after is not None
    changed = old.changed_ranges(after.tree)
    assert changed, "the edit changed the tree"
    assert all(r.start_point[0] >= 4000 and r.end_point[0] <= 4006 for r in changed)

    # The same texts again: both trees come from the cache, nothing is parsed.
    diagnose_change("big.go", BEFORE, AFTER, (4004, 4004))
    assert len(recording.calls) == 2
