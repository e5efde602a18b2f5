"""JSON with comments: a ``.json`` file that held comments before an operation is read as
JSON with comments after it (QA s39 helper-120: every edit of microsoft/terminal's
settings files was reported as bringing in an error), a strict one stays strict."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.review.diagnostics import diagnose_change
from reviewtui.core.syntax.jsonc import without_comments

SETTINGS = ('{\n    // the profile\n    "font": "Cascadia", /* mono */\n'
            '    "url": "http://x//y",\n    "size": 12,\n}\n')


def test_comments_and_trailing_commas_are_blanked_in_place() -> None:
    blanked = without_comments(SETTINGS)
    assert json.loads(blanked) == {"font": "Cascadia", "url": "http://x//y", "size": 12}
    assert [len(line) for line in blanked.split("\n")] == [
        len(line) for line in SETTINGS.split("\n")]


def test_a_comment_added_to_a_file_with_comments_is_no_error() -> None:
    after = SETTINGS.replace('"size": 12,', '// bigger\n    "size": 14,')
    assert diagnose_change("settings.json", SETTINGS, after) == []


def test_a_comment_added_to_strict_json_is_an_error() -> None:
    before = '{\n    "name": "app",\n    "version": "1.0.0"\n}\n'
    after = before.replace('"name": "app",', '// the name\n    "name": "app",')
    (found,) = diagnose_change("package.json", before, after)
    assert found.introduced
    assert (found.line, found.check) == (2, "json")


def test_a_real_error_in_json_with_comments_is_still_found() -> None:
    after = SETTINGS.replace('"size": 12,', '"size" 12,')
    (found,) = diagnose_change("settings.json", SETTINGS, after)
    assert found.introduced
    assert (found.line, found.check) == (5, "json with comments")
    (own,) = diagnose_change("x.jsonc", None, '{"a": 1, // one\n "b" 2}\n')
    assert (own.line, own.check) == (2, "json with comments")


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=4),
    max_leaves=12)


@given(_VALUES, st.lists(st.sampled_from(["// c /* x", "/* c // \"q\" */", ""]),
                         min_size=1, max_size=30))
def test_any_json_with_comments_after_its_lines_reads_as_the_value(
        value: object, comments: list[str]) -> None:
    lines = json.dumps(value, indent=1).split("\n")
    text = "\n".join(f"{line} {comments[n % len(comments)]}" for n, line in enumerate(lines))
    assert json.loads(without_comments(text)) == value
