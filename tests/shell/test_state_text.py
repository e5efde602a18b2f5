"""The state file's text: the JSON of the saved state, a line per log entry."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.shell.state import state_text

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12)


@given(st.dictionaries(st.text(max_size=8), _JSON, max_size=6))
def test_the_text_reads_back_as_the_document(doc: dict[str, Any]) -> None:
    text = state_text(doc)
    assert json.loads(text) == doc
    assert text.endswith("}\n")


def test_each_log_entry_and_path_record_is_a_line_of_its_own() -> None:
    doc = {"format": "reviewtui-state", "log": [{"kind": "decide", "items": [1, 2]},
                                                 {"kind": "undo"}],
           "paths": {"a.py": {"seen": "ab"}, "ü.py": {"seen": None}}, "ui": {}}
    lines = state_text(doc).splitlines()
    assert '  {"kind": "decide", "items": [1, 2]},' in lines
    assert '  {"kind": "undo"}' in lines
    assert '  "ü.py": {"seen": null}' in lines  # as written, not escaped
    assert ' "ui": {}' in lines
    assert json.loads("\n".join(lines)) == doc
