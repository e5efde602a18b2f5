"""A ``...`` line that is content where it stands is not truncation (issue 14, item 6).

Judged in the whole file (a full-file write, or the file as an edit leaves it): inside a
Python string literal or a Markdown code fence a bare ellipsis is content, a commented
``...`` under a commented block opener is commented-out code, and a phrase that goes on
with the sentence of the comment above is prose. Worded markers keep being refused.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine.file_edits import FileContext, evaluate_full_file
from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import FullFile, Span
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.text.markers import find_placeholder, is_placeholder_at

OLD = "# previous version\n"


def written(path: str, new: str, old: str = OLD) -> bool:
    tree = Tree.from_files({path: FileState.from_text(old)})
    outcome, proposal = evaluate_full_file(tree, FullFile(path, tuple(new.splitlines()),
                                                          Span(1, 1)), FileContext())
    if outcome.status is Status.APPLIED:
        assert proposal is not None
        return True
    assert outcome.rule == "truncation-placeholder", outcome
    return False


DOCSTRING_EXAMPLE = '''\
class Parser:
    """Feed it text.

    Usage:
        p = Parser()
        p.feed(data)
        ...
        p.close()
    """
'''
MARKDOWN_SAMPLE = """\
# Guide

```js
function a() {
  // ...
}
```

~~~python
def f():
    ...
    return 1
~~~
"""
COMMENTED_CODE = """\
def narrow(x):
    # Flag branches like:
    #    x: Literal['a', 'b']
    #    if x == 'c':
    #        ...
    return x
"""
CONTINUED = """\
def test():
    # Now that every parse method gets the policy, we can use message_from_string for
    # the rest of the propagation tests.
    check()
"""


@pytest.mark.parametrize(("path", "new"), [
    ("parser.py", DOCSTRING_EXAMPLE),
    ("guide.md", MARKDOWN_SAMPLE),
    ("narrow.py", COMMENTED_CODE),
    ("test_policy.py", CONTINUED),
    ("test_shutil.py", "def test():\n    # existing file\n    touch()\n"),
    ("wowtoc.py", "def f():\n    # otherwise, everything about a tag\n    # line is the same\n"
                  "    return 1\n"),
], ids=["docstring", "markdown-fences", "commented-block", "sentence", "label", "prose"])
def test_real_content_is_written(path: str, new: str) -> None:
    assert written(path, new)


@pytest.mark.parametrize(("path", "new"), [
    # A worded marker is the classic truncation even inside a docstring or a sample.
    ("parser.py", DOCSTRING_EXAMPLE.replace("        ...\n", "        # ... existing code ...\n")),
    ("guide.md", MARKDOWN_SAMPLE.replace("  // ...", "  // ... rest of the file unchanged")),
    # Outside a fence, or in a fence that never closes (a truncated file looks like that).
    ("guide.md", "# Guide\n\n...\n\nMore.\n"),
    ("guide.md", "# Guide\n\n```js\nfunction a() {\n  // ...\n}\n"),
    # A string that never closes: where it ends is unknown.
    ("broken.py", 'x = """\n...\n'),
    # A comment section, not commented-out code: "# Fields:" opens no block.
    ("model.py", "class A:\n    # Fields:\n    # ...\n    # Methods:\n    def f(self):\n"
                 "        return 1\n"),
    # The comment above ends a sentence: the phrase is a placeholder.
    ("button.js", "// Button component.\n// rest of the file unchanged\n"),
    ("app.py", "import os\n# existing code\n"),
    ("app.py", "def f():\n    x = 1\n    ...\n    return x\n"),
], ids=["worded-in-docstring", "worded-in-fence", "md-prose", "unclosed-fence",
        "unclosed-string", "comment-section", "sentence-ended", "existing-code",
        "elided-body"])
def test_truncation_is_still_refused(path: str, new: str) -> None:
    assert not written(path, new)


def test_fragments_are_not_judged_as_whole_files() -> None:
    # A REPLACE fragment may start inside a string or a fence: no whole-file leniency.
    lines = ["    p.feed(data)", "    ...", "    p.close()"]
    assert is_placeholder_at(lines, 1, "parser.py")
    assert find_placeholder(lines, (), "parser.py") == (1, "    ...")


# -- edits: judged in the file as the edit leaves it ---------------------------------------

STUB = "class P(Protocol):\n    def f(self) -> int:\n        return 1\n"
USAGE = '"""Usage:\n\n    p.feed(data)\n    p.close()\n"""\nx = 1\n'
BODY = "def f():\n    x = 1\n    y = 2\n    return x\n"


def edit(file: str, search: list[str], replace: list[str], path: str) -> Status:
    return match_edit(file.splitlines(), search, replace, path=path).status


def test_an_edit_making_a_stub_body_applies() -> None:
    lines = STUB.splitlines()
    result = match_edit(lines, ["        return 1"], ["        ..."], path="p.py")
    assert result.status is Status.APPLIED
    assert [*lines[: result.start], *result.new_lines, *lines[result.end :]] == [
        "class P(Protocol):", "    def f(self) -> int:", "        ..."]


def test_an_edit_adding_an_ellipsis_to_a_docstring_example_applies() -> None:
    assert edit(USAGE, ["    p.feed(data)"], ["    p.feed(data)", "    ..."],
                "parser.py") is Status.APPLIED


def test_an_edit_eliding_code_is_still_refused() -> None:
    result = match_edit(BODY.splitlines(), ["    x = 1", "    y = 2"], ["    x = 1", "    ..."],
                        path="app.py")
    assert (result.status, result.rule) == (Status.REFUSED, "truncation-placeholder")


def test_an_ambiguous_edit_with_an_extra_marker_is_refused_as_truncation() -> None:
    file = "def f():\n    pass\n\ndef g():\n    pass\n"
    result = match_edit(file.splitlines(), ["    pass"], ["    ..."], path="app.py")
    assert (result.status, result.rule) == (Status.REFUSED, "truncation-placeholder")


def _lint_placeholder(search: str, replace: str, file: str, path: str) -> bool:
    from reviewtui.core.lint.rules import lint_reply
    from reviewtui.core.protocol.reply import parse_reply_text

    reply = (f"--- File: {path} ---\n<<<<<<< SEARCH\n{search}\n=======\n{replace}\n"
             f">>>>>>> REPLACE\n\n### Changed files:\n- {path}\n")
    found = lint_reply(parse_reply_text(reply), file_text={path: file}.get)
    return any(f.rule == "placeholder" for f in found)


def test_lint_judges_replace_where_the_matcher_lands_it() -> None:
    assert not _lint_placeholder("        return 1", "        ...", STUB, "p.py")
    assert _lint_placeholder("    x = 1\n    y = 2", "    x = 1\n    ...", BODY, "app.py")


def test_a_landing_with_ellipsis_content_says_so() -> None:
    result = match_edit(STUB.splitlines(), ["        return 1"], ["        ..."], path="p.py")
    assert "content where they land" in result.hint


# -- worded markers are never content, wherever they stand -----------------------------

WORDED = st.sampled_from(["# ... existing code ...", "# rest of the file unchanged",
                          "// ... existing code ...", "# ... (rest of the method)",
                          "<!-- ... rest of the page unchanged ... -->"])
PIECES = st.sampled_from([
    "def f(x):", "    return x", '    """Usage:', "        ...", '    """', "```python",
    "```", "~~~", "x = 1", "# a comment", "#   if x:", "#       ...", "class A:", "    ...",
    "'''", "", "- item",
])


@given(st.lists(PIECES, max_size=12), st.lists(PIECES, max_size=12), WORDED,
       st.sampled_from(["a.py", "a.md", "a.pyi", ""]), st.sampled_from(["", "    ", "  "]))
@settings(max_examples=400, deadline=None)
def test_a_worded_marker_is_always_refused(before: list[str], after: list[str], marker: str,
                                           path: str, indent: str) -> None:
    lines = [*before, indent + marker, *after]
    assert find_placeholder(lines, ["# previous version"], path) is not None
