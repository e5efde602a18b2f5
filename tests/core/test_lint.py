"""Lint: every rule with a reply that breaks it and a reply that does not.

Replies are written as the model would write them and parsed with the real parser;
line numbers in the expectations are 1-based lines of those texts.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path

import pytest

from reviewtui.core.lint import tokens
from reviewtui.core.lint.base import effective_moves, glob_match, moved_from, path_key
from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.lint.placeholders import is_placeholder
from reviewtui.core.lint.rules import (
    LINT_RULES,
    PARSER_RULES,
    RULES,
    RULES_BY_ID,
    lint_reply,
    lint_session,
    rule_ids,
)
from reviewtui.core.model.records import ConsoleCommand, Reply, Span
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.protocol.session import parse_session

# -- helpers ---------------------------------------------------------------------------


def text_of(reply: str) -> str:
    return textwrap.dedent(reply).lstrip("\n")


def parse(reply: str) -> Reply:
    return parse_reply_text(text_of(reply))


def lint(reply: str, files: dict[str, str] | None = None) -> list[Finding]:
    file_text = None if files is None else files.get
    found = lint_reply(parse(reply), file_text=file_text)
    assert {f.rule for f in found} <= set(rule_ids()), "a finding with an unregistered id"
    return found


def hits(found: list[Finding], rule: str) -> list[tuple[str, int, int]]:
    return [(str(f.severity), f.span.start, f.span.end) for f in found if f.rule == rule]


def ids(found: list[Finding]) -> set[str]:
    return {f.rule for f in found}


def numbered(prefix: str, n: int) -> str:
    """``n`` distinct lines such as ``step_1 = 1``, one per line, newline-terminated."""
    return "".join(f"{prefix}_{k} = {k}\n" for k in range(1, n + 1))


SIX = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\n"
BIG = numbered("step", 60)  # a 60-line file: small edits are far under 70% of it


def edit(search: str, replace: str, label: str = "") -> str:
    head = f"{label}\n" if label else ""
    return f"{head}<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n"


def one_edit(path: str, search: str = "x = 1\n", replace: str = "x = 2\n") -> str:
    return f"--- File: {path} ---\n{edit(search, replace)}\n### Changed files:\n- {path}\n"


def six_edits(*edits: tuple[str, str, str]) -> str:
    """One file block of one-line edits on ``six.py``, labels as given, then the footer."""
    body = "".join(edit(s + "\n", r + "\n", label) for s, r, label in edits)
    return f"--- File: six.py ---\n{body}\n### Changed files:\n- six.py\n"


@dataclass(frozen=True)
class Case:
    rule: str
    reply: str
    expected: list[tuple[str, int, int]] = field(default_factory=list)
    files: dict[str, str] | None = None
    name: str = ""

    @property
    def id(self) -> str:
        return f"{self.rule}{'-' + self.name if self.name else ''}"


# -- replies that break a rule ---------------------------------------------------------

FAILING = [
    Case("prose-before-footer", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        Now the second file:

        --- File: b.py ---
        <<<<<<< SEARCH
        y = 1
        =======
        y = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        - b.py
        """, [("error", 8, 8)]),
    Case("preamble", """
        Sure! Here is the fix.

        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        """, [("warning", 1, 1)]),
    Case("recap", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        I have updated x to 2.

        ### Changed files:
        - a.py
        """, [("warning", 8, 8)]),
    Case("recap-in-file", """
        --- File: settings.py ---
        DEBUG = False

        This change turns debugging off.
        ### Changed files:
        - settings.py
        """, [("error", 4, 4)]),
    Case("text-after-footer", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py

        Let me know if this helps!
        """, [("warning", 11, 11)]),
    Case("console-not-single-block", """
        ```console
        :mv a.py b.py
        ```

        ```console
        :rm c.py
        ```

        ### Changed files:
        - b.py (moved from a.py)
        - c.py (deleted)
        """, [("warning", 5, 7)]),
    Case("console-after-edits", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ```console
        :rm old.py
        ```

        ### Changed files:
        - a.py
        - old.py (deleted)
        """, [("warning", 8, 10)]),
    Case("bare-console", """
        :rm old.py

        ### Changed files:
        - old.py (deleted)
        """, [("warning", 1, 1)]),
    Case("footer-missing", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        """, [("error", 6, 6)]),
    Case("footer-mismatch", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:
        - b.py
        """, [("warning", 1, 1), ("warning", 9, 9)]),
    Case("block-after-footer", """
        ### Changed files:
        - a.py

        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        """, [("warning", 4, 9)]),
    Case("need-before-footer", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        Need: b.py

        ### Changed files:
        - a.py
        """, [("warning", 8, 8)]),
    Case("absolute-path", one_edit("/home/me/app.py"), [("error", 1, 1)]),
    Case("backslash-path", one_edit("src\\app.py"), [("error", 1, 1)]),
    Case("parent-path", one_edit("../shared/app.py"), [("error", 1, 1)]),
    Case("no-extension", one_edit("src/app"), [("warning", 1, 1)]),
    Case("config-change", one_edit("reviewtui.toml"), [("warning", 1, 1)]),
    Case("generated-file", one_edit("web/uv.lock"), [("warning", 1, 1)]),
    Case("duplicate-header", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        --- File: ./a.py ---
        <<<<<<< SEARCH
        y = 1
        =======
        y = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        """, [("error", 8, 8)]),
    Case("edit-old-path", """
        ```console
        :mv a.py b.py
        ```

        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:
        - b.py (moved from a.py)
        """, [("error", 5, 5)]),
    Case("long-search", one_edit("a.py", numbered("v", 13), "v_1 = 0\n"), [("warning", 2, 16)]),
    Case("empty-search", """
        --- File: a.py ---
        <<<<<<< SEARCH
        =======
        x = 1
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        """, [("error", 2, 3)]),
    Case("split-edit", one_edit("a.py", "a = 1\nb = 2\nc = 3\nd = 4\n", "a = 10\nb = 2\nc = 3\n"
                                "d = 40\n"), [("info", 4, 5)]),
    Case("merge-adjacent", six_edits(("a = 1", "a = 10", "Edit 1"), ("c = 3", "c = 30", "Edit 2")),
         [("warning", 8, 13)], {"six.py": SIX}),
    Case("edit-numbering", six_edits(("a = 1", "a = 10", "Edit 1"), ("f = 6", "f = 60", "Edit 3")),
         [("warning", 8, 8)]),
    Case("edit-order", six_edits(("f = 6", "f = 60", "Edit 1"), ("a = 1", "a = 10", "Edit 2")),
         [("warning", 8, 13)], {"six.py": SIX}),
    Case("placeholder", """
        --- File: app.js ---
        ```js
        export function a() {}
        // ... existing code ...
        ```

        ### Changed files:
        - app.js
        """, [("error", 4, 4)]),
    Case("full-file-too-costly",
         "--- File: big.py ---\n```python\n" + BIG.replace("step_30 = 30", "step_30 = 31")
         + "```\n\n### Changed files:\n- big.py\n", [("warning", 1, 63)], {"big.py": BIG}),
    Case("search-replace-too-costly", one_edit("c.py"), [("warning", 1, 6)],
         {"c.py": "x = 1\n"}),
]

# -- near misses: replies that keep the rule -------------------------------------------

CLEAN_FILES = {"src/names.py": "def greet(name):\n" + BIG + '    return "hi " + name\n'}
CLEAN = """
    ```console
    :mv src/old_name.py src/names.py
    ```

    --- File: src/names.py ---
    Edit 1
    <<<<<<< SEARCH
    def greet(name):
    =======
    def greet(name: str) -> str:
    >>>>>>> REPLACE

    Edit 2
    <<<<<<< SEARCH
        return "hi " + name
    =======
        return f"hi {name}"
    >>>>>>> REPLACE

    --- File: src/new.py ---
    ```python
    from src.names import greet
    ```

    ### Changed files:
    - src/names.py (moved from src/old_name.py)
    - src/new.py (new)

    Need: src/config.py
    """

PASSING = [
    Case("prose-before-footer", CLEAN, name="clean", files=CLEAN_FILES),
    Case("preamble", """
        Config notes

        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        """, name="not-an-introduction"),
    Case("recap", """
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        I have updated x; next comes b.py.

        --- File: b.py ---
        <<<<<<< SEARCH
        y = 1
        =======
        y = 2
        >>>>>>> REPLACE

        ### Changed files:
        - a.py
        - b.py
        """, name="not-at-the-end"),
    Case("recap-in-file", """
        --- File: settings.py ---
        ```python
        DEBUG = False
        ```

        ### Changed files:
        - settings.py
        """, name="fenced"),
    Case("recap-in-file", """
        --- File: NOTES.md ---
        # Notes

        This change log is kept by hand.

        ### Changed files:
        - NOTES.md
        """, name="prose-file"),
    Case("text-after-footer", CLEAN, name="need-line", files=CLEAN_FILES),
    Case("console-not-single-block", CLEAN, name="one-block", files=CLEAN_FILES),
    Case("console-after-edits", CLEAN, name="console-first", files=CLEAN_FILES),
    Case("bare-console", CLEAN, name="fenced", files=CLEAN_FILES),
    Case("footer-missing", "I cannot change a file I have not seen.\n", name="no-operations"),
    Case("footer-mismatch", """
        ```console
        :mv src/utils lib/
        :rn .jsx .tsx
        :rm build/**/*.map
        :unrm docs/old.md
        ```

        --- File: lib/utils/math.js ---
        <<<<<<< SEARCH
        a
        =======
        b
        >>>>>>> REPLACE

        ### Changed files:
        - lib/utils/ (moved from src/utils/)
        - src/App.tsx (renamed from src/App.jsx)
        - build/js/app.js.map (deleted)
        - docs/old.md (restored)
        """, name="dirs-globs-renames"),
    Case("block-after-footer", CLEAN, name="blocks-first", files=CLEAN_FILES),
    Case("need-before-footer", CLEAN, name="need-after", files=CLEAN_FILES),
    Case("absolute-path", one_edit("home/me/app.py"), name="relative"),
    Case("backslash-path", one_edit("src/app.py"), name="posix"),
    Case("parent-path", one_edit("src/a..b.py"), name="dots-in-name"),
    Case("config-change", one_edit("docs/reviewtui.md"), name="other-file"),
    Case("generated-file", one_edit("src/uv.lock.py"), name="lookalike"),
    Case("no-extension", """
        ```console
        :mv src/utils lib/utils
        ```

        --- File: Makefile ---
        x

        --- File: .gitignore ---
        dist/

        ### Changed files:
        - lib/utils (moved from src/utils)
        - Makefile
        - .gitignore
        """, name="known-names-and-dirs"),
    Case("duplicate-header", CLEAN, name="one-header-each", files=CLEAN_FILES),
    Case("edit-old-path", CLEAN, name="new-path", files=CLEAN_FILES),
    Case("long-search", one_edit("a.py", numbered("v", 12), "v_1 = 0\n"), name="twelve-lines"),
    Case("empty-search", """
        --- File: new.py ---
        <<<<<<< SEARCH
        =======
        x = 1
        >>>>>>> REPLACE

        ### Changed files:
        - new.py (new)
        """, files={}, name="creates-a-new-file"),
    Case("split-edit", one_edit("a.py", "a = 1\nb = 2\nc = 3\n", "a = 10\nb = 2\nc = 30\n"),
         name="one-unchanged-line"),
    Case("merge-adjacent", six_edits(("a = 1", "a = 10", "Edit 1"), ("d = 4", "d = 40", "Edit 2")),
         files={"six.py": SIX}, name="two-lines-apart"),
    Case("edit-numbering", CLEAN, name="one-two", files=CLEAN_FILES),
    Case("edit-order", CLEAN, name="top-to-bottom", files=CLEAN_FILES),
    Case("placeholder", """
        --- File: stubs.py ---
        ```python
        class Greeter(Protocol):
            def greet(self) -> str:
                ...
        ```

        ### Changed files:
        - stubs.py
        """, name="python-ellipsis"),
    Case("full-file-too-costly",
         "--- File: big.py ---\n```python\n" + numbered("other", 60)
         + "```\n\n### Changed files:\n- big.py\n", files={"big.py": BIG}, name="rewrite"),
    Case("full-file-too-costly", CLEAN, name="new-file", files=CLEAN_FILES),
    Case("search-replace-too-costly", CLEAN, name="small-edits", files=CLEAN_FILES),
]


def example(rule: str) -> Case:
    return next(c for c in FAILING if c.rule == rule)


@pytest.mark.parametrize("case", FAILING, ids=lambda c: c.id)
def test_rule_reports_its_example(case: Case) -> None:
    found = lint(case.reply, case.files)
    assert hits(found, case.rule) == case.expected
    severity = RULES_BY_ID[case.rule].severity
    assert all(f.message and "\n" not in f.message for f in found)
    assert any(str(severity) == h[0] for h in case.expected)


@pytest.mark.parametrize("case", PASSING, ids=lambda c: c.id)
def test_rule_keeps_quiet_on_its_near_miss(case: Case) -> None:
    assert case.rule not in ids(lint(case.reply, case.files))


def test_the_clean_reply_has_no_findings_at_all() -> None:
    assert lint(CLEAN, CLEAN_FILES) == []
    assert lint(CLEAN) == []


def test_every_lint_rule_has_a_failing_and_a_passing_example() -> None:
    lint_ids = {r.id for r in LINT_RULES}
    assert {c.rule for c in FAILING} == lint_ids
    assert {c.rule for c in PASSING} == lint_ids


# -- the registry ----------------------------------------------------------------------


def test_rule_ids_are_unique_kebab_case_and_documented() -> None:
    all_ids = rule_ids()
    assert len(all_ids) == len(set(all_ids))
    assert all(re.fullmatch(r"[a-z]+(?:-[a-z]+)*", rid) for rid in all_ids)
    assert all(r.summary for r in RULES)
    assert RULES == PARSER_RULES + LINT_RULES
    assert {r.source for r in PARSER_RULES} == {"parser"}
    assert {r.source for r in LINT_RULES} == {"lint"}


def test_rules_needing_the_file_are_skipped_without_it() -> None:
    needy = {r.id for r in LINT_RULES if r.needs_file}
    assert needy == {"merge-adjacent", "edit-order", "full-file-too-costly",
                     "search-replace-too-costly"}
    for case in FAILING:
        if case.rule in needy:
            assert case.rule not in ids(lint(case.reply))


# -- parser problems become findings ---------------------------------------------------

PROBLEMS = [
    ("unclosed-fence", "```console\n:rm a.py\n", 1),
    ("header-without-path", "--- File:  ---\nx\n", 1),
    ("empty-file-block", "--- File: a.py ---\n\n### Changed files:\n- a.py\n", 1),
    ("edit-without-header", edit("a\n", "b\n"), 1),
    ("unterminated-edit", "--- File: a.py ---\n<<<<<<< SEARCH\na\n", 2),
    ("stray-marker", "--- File: a.py ---\n" + edit("a\n", "b\n") + ">>>>>>> REPLACE\n", 7),
    ("dangling-label", "--- File: a.py ---\n" + edit("a\n", "b\n") + "Edit 2\n\n"
     "### Changed files:\n- a.py\n", 7),
    ("malformed-marker", "--- File: a.py ---\nEdit 1\n<<<< SEARCH\na\n=======\nb\n"
     ">>>>>>> REPLACE\n", 3),
    ("bad-address", "--- File: a.py ---\nEdit 1 @ 2\u20133\n=======\nb\n>>>>>>> REPLACE\n", 2),
    ("indented-block", "--- File: a.json ---\n   ```json\n   {}\n   ```\n\n### Changed files:\n"
     "- a.json\n", 2),
    ("second-footer", "### Changed files:\n- a.py\n### Changed files:\n- b.py\n", 3),
    ("unknown-command", ":frob a.py\n", 1),
    ("bad-command-arguments", ":mv a.py\n", 1),
    ("cut-off", "--- File: a.py ---\nx = 1\n", 1),
]


@pytest.mark.parametrize(("rule", "reply", "line"), PROBLEMS, ids=[p[0] for p in PROBLEMS])
def test_parse_problems_become_findings_unchanged(rule: str, reply: str, line: int) -> None:
    parsed = parse_reply_text(reply)
    problem = next(p for p in parsed.problems if p.rule == rule)
    assert problem.span.start == line
    finding = next(f for f in lint_reply(parsed, turn=4) if f.rule == rule)
    assert finding == Finding(rule, Severity(problem.severity), problem.span, problem.message,
                              turn=4)
    assert rule in rule_ids()


def test_every_parser_rule_is_exercised() -> None:
    session_only = {"no-turns", "turn-number", "bare-reply"}
    assert {p[0] for p in PROBLEMS} | session_only == {r.id for r in PARSER_RULES}


# -- details of single rules -----------------------------------------------------------


def test_preamble_is_reported_once_not_also_as_prose() -> None:
    found = lint(example("preamble").reply)
    assert hits(found, "preamble") == [("warning", 1, 1)]
    assert "prose-before-footer" not in ids(found)


def test_unrecognised_opening_text_is_plain_prose() -> None:
    found = lint(next(c for c in PASSING if c.rule == "preamble").reply)
    assert hits(found, "prose-before-footer") == [("error", 1, 1)]


@pytest.mark.parametrize(("opening", "rule"), [
    ("Sure! Here's the updated file:", "preamble"),
    ("I'll rename the module first.", "preamble"),
    ("Hello! How can I help?", "preamble"),
    ("To fix this, the parser needs a guard.", "preamble"),
    ("You're right, the import was wrong.", "preamble"),
    ("**Summary**", "prose-before-footer"),
    ("The parser keeps a stack.", "prose-before-footer"),
])
def test_what_reads_like_an_introduction(opening: str, rule: str) -> None:
    found = lint(opening + "\n\n" + one_edit("a.py"))
    assert hits(found, rule) == [(str(RULES_BY_ID[rule].severity), 1, 1)]


@pytest.mark.parametrize(("closing", "rule"), [
    ("**Summary**", "recap"),
    ("- Added a retry loop.", "recap"),
    ("This change makes the port configurable.", "recap"),
    ("Let me know if you need anything else.", "recap"),
    ("The parser keeps a stack.", "prose-before-footer"),
])
def test_what_reads_like_a_recap(closing: str, rule: str) -> None:
    reply = one_edit("a.py").replace("\n### Changed", f"\n{closing}\n\n### Changed")
    assert hits(lint(reply), rule) == [(str(RULES_BY_ID[rule].severity), 8, 8)]


def test_a_paragraphed_recap_is_one_finding() -> None:
    found = lint("""
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE

        Summary:

        - Changed x to 2.

        ### Changed files:
        - a.py
        """)
    assert hits(found, "recap") == [("warning", 8, 10)]
    assert "prose-before-footer" not in ids(found)


def test_a_code_sample_in_prose_is_prose() -> None:
    found = lint("""
        ```python
        print("hello")
        ```

        ### Changed files:
        """)
    assert hits(found, "prose-before-footer") == [("error", 1, 3)]


def test_prose_between_edits_of_one_file_is_reported() -> None:
    found = lint("--- File: six.py ---\n" + edit("a = 1\n", "a = 2\n") + "Then:\n"
                 + edit("f = 6\n", "f = 7\n") + "\n### Changed files:\n- six.py\n")
    assert hits(found, "prose-before-footer") == [("error", 7, 7)]


def test_need_line_after_footer_is_not_stray() -> None:
    found = lint("### Changed files:\n\nNeed: src/config.py, src/db.py\n")
    assert found == []


@pytest.mark.parametrize("path", ["C:\\work\\a.py", "~/a.py", "/a.py"])
def test_absolute_path_forms(path: str) -> None:
    assert hits(lint(one_edit(path)), "absolute-path") == [("error", 1, 1)]


def test_path_rules_look_at_commands_and_footer_entries() -> None:
    found = lint("""
        ```console
        :rm /tmp/cache.db
        ```

        ### Changed files:
        - ../elsewhere.txt
        """)
    assert hits(found, "absolute-path") == [("error", 2, 2)]
    assert hits(found, "parent-path") == [("error", 6, 6)]


def test_console_arguments_may_name_directories() -> None:
    found = lint("```console\n:rm build\n```\n\n### Changed files:\n- build (deleted)\n")
    assert "no-extension" not in ids(found)
    assert "footer-mismatch" not in ids(found)


def test_edit_old_path_respects_undo_in_the_same_reply() -> None:
    reply = example("edit-old-path").reply.replace(":mv a.py b.py", ":mv a.py b.py\n:undo")
    assert "edit-old-path" not in ids(lint(reply))


def test_empty_search_on_an_existing_file_is_an_error() -> None:
    found = lint(example("empty-search").reply, {"a.py": "y = 0\n"})
    assert hits(found, "empty-search") == [("error", 2, 3)]
    assert "exists" in next(f.message for f in found if f.rule == "empty-search")


def test_merge_adjacent_skips_searches_that_are_not_unique() -> None:
    reply = example("merge-adjacent").reply
    assert "merge-adjacent" not in ids(lint(reply, {"six.py": SIX + "a = 1\n"}))


@pytest.mark.parametrize(("second", "how"), [("b = 2\n", "touch"), ("a = 1\nb = 2\n", "overlap")])
def test_merge_adjacent_names_touching_and_overlapping_edits(second: str, how: str) -> None:
    found = lint("--- File: six.py ---\n" + edit("a = 1\n", "a = 9\n")
                 + edit(second, second.upper()) + "\n### Changed files:\n- six.py\n",
                 {"six.py": SIX})
    [finding] = [f for f in found if f.rule == "merge-adjacent"]
    assert f" {how};" in finding.message


def test_edit_numbering_wants_a_restart_per_file() -> None:
    found = lint("--- File: a.py ---\n" + edit("x\n", "y\n", "Edit 1") + "\n--- File: b.py ---\n"
                 + edit("x\n", "y\n", "Edit 2") + "\n### Changed files:\n- a.py\n- b.py\n")
    assert hits(found, "edit-numbering") == [("warning", 10, 10)]


def test_unlabelled_edits_are_not_misnumbered() -> None:
    found = lint("--- File: six.py ---\n" + edit("a = 1\n", "a = 2\n") + "\n"
                 + edit("f = 6\n", "f = 7\n") + "\n### Changed files:\n- six.py\n")
    assert "edit-numbering" not in ids(found)


def test_placeholder_in_replace_is_an_error_and_in_search_a_warning() -> None:
    found = lint(one_edit("app.js", "function a() {\n// ...\n", "function a() {\n  return 1;\n"
                          "// rest of the function unchanged\n"))
    assert hits(found, "placeholder") == [("warning", 4, 4), ("error", 8, 8)]


def test_placeholder_lines_the_file_really_has_are_fine() -> None:
    js = "// ...\nfunction a() {}\n"
    assert "placeholder" not in ids(lint(one_edit("app.js", js, js + "a();\n"), {"app.js": js}))
    kept = one_edit("app.js", "// ...\n", "// ...\nb();\n")
    assert "placeholder" not in ids(lint(kept, {"app.js": js}))
    assert hits(lint(kept), "placeholder") == [("warning", 3, 3)]


@pytest.mark.parametrize(("line", "path", "expected"), [
    ("...", "a.js", True),
    ("...", "a.py", False),
    ("# ...", "a.py", True),
    ("    // ... existing code ...", "a.ts", True),
    ("/* ... */", "a.c", True),
    ("<!-- ... -->", "a.html", True),
    ("{/* ... */}", "a.jsx", True),
    ("[...]", "a.md", True),
    ("rest of file unchanged", "a.js", True),
    ("The rest of the file is unchanged.", "a.js", True),
    ("# (unchanged code omitted for brevity)", "a.py", True),
    ("// other helpers ...", "a.js", True),
    ("// your code here", "a.js", True),
    ("…", "a.go", True),
    ("{...props}", "a.jsx", False),
    ("...rest,", "a.js", False),
    ("// Loading...", "a.js", False),
    ("# existing code relies on this flag", "a.py", False),
    ('print("rest of file unchanged")', "a.py", False),
    ("", "a.js", False),
])
def test_what_counts_as_a_placeholder(line: str, path: str, expected: bool) -> None:
    assert is_placeholder(line, path) is expected


def test_full_file_that_changes_nothing_says_so() -> None:
    found = lint("--- File: big.py ---\n```python\n" + BIG + "```\n", {"big.py": BIG})
    [finding] = [f for f in found if f.rule == "full-file-too-costly"]
    assert "changes nothing" in finding.message


def test_search_replace_cost_message_names_the_numbers() -> None:
    found = lint(one_edit("c.py"), {"c.py": "x = 1\n"})
    [finding] = [f for f in found if f.rule == "search-replace-too-costly"]
    assert finding.message.startswith("the edit of 'c.py' cost ~15 tokens, 750% of the ~2-token")


def test_footer_mismatch_lists_unmentioned_move_sources() -> None:
    found = lint("""
        ```console
        :mv src/a.js src/b.js
        ```

        ### Changed files:
        - src/b.js
        """)
    assert hits(found, "footer-mismatch") == [("warning", 2, 2)]
    assert "'src/a.js' is moved away" in found[0].message


def test_footer_note_at_the_end_names_the_move_source() -> None:
    found = lint("```console\n:mv a.py b.py\n```\n\n### Changed files:\n"
                 "- b.py — moved from a.py\n")
    assert found == []


def test_commands_undone_in_the_same_reply_need_no_entry() -> None:
    reply = "```console\n:unrm c.py\n:rn a.py b.py\n:undo\n```\n\n### Changed files:\n"
    assert lint(reply + "- c.py (restored)\n") == []
    found = lint(reply + "- c.py (restored)\n- b.py (renamed from a.py)\n")
    assert hits(found, "footer-mismatch") == [("warning", 9, 9)]


def test_footer_mismatch_is_lenient_after_undo() -> None:
    found = lint("```console\n:undo\n```\n\n### Changed files:\n- src/a.js (restored)\n")
    assert "footer-mismatch" not in ids(found)


def test_a_rm_glob_counts_as_listed_by_a_matching_entry() -> None:
    found = lint("```console\n:rm **/*.pyc\n```\n\n### Changed files:\n- pkg/a.pyc (deleted)\n")
    assert found == []


def test_footer_missing_points_at_the_end_of_the_last_block() -> None:
    found = lint("```console\n:rm a.py\n```\n\nDone.\n")
    assert hits(found, "footer-missing") == [("error", 3, 3)]


# -- findings and the session ----------------------------------------------------------


def test_finding_is_frozen_and_serialises() -> None:
    finding = Finding("long-search", Severity.WARNING, Span(3, 9), "too long", "a.py", 2)
    assert finding.to_json() == {"rule": "long-search", "severity": "warning", "span": [3, 9],
                                 "message": "too long", "path": "a.py", "turn": 2}
    assert finding.line == 3
    with pytest.raises(FrozenInstanceError):
        finding.rule = "other"  # type: ignore[misc]


def test_findings_come_sorted_by_span() -> None:
    found = lint("""
        Sure, here it is.

        --- File: /abs/a.py ---
        <<<<<<< SEARCH
        =======
        x = 2
        >>>>>>> REPLACE

        ### Changed files:

        Bye.
        """)
    assert [(f.rule, f.span.start) for f in found] == [
        ("preamble", 1),
        ("absolute-path", 3),
        ("footer-mismatch", 3),
        ("empty-search", 4),
        ("text-after-footer", 11),
    ]


def test_lint_session_collects_session_problems_and_turns() -> None:
    text = textwrap.dedent("""\
        # Session: demo

        ## Turn 1
        > make x two

        --- File: six.py ---
        <<<<<<< SEARCH
        a = 1
        =======
        a = 2
        >>>>>>> REPLACE

        ### Changed files:
        - six.py

        ## Turn 3
        > and f

        Sure, doing it now.

        --- File: six.py ---
        <<<<<<< SEARCH
        f = 6
        =======
        f = 7
        >>>>>>> REPLACE
        """)
    session = parse_session(text)
    seen: list[int] = []

    def files_for(turn: int) -> Callable[[str], str | None]:
        seen.append(turn)
        return {"six.py": SIX}.get

    found = lint_session(session, files_for)
    assert seen == [1, 2]
    assert [(f.turn, f.rule, f.span.start) for f in found] == [
        (1, "search-replace-too-costly", 6),
        (2, "turn-number", 16),
        (2, "preamble", 19),
        (2, "search-replace-too-costly", 21),
        (2, "footer-missing", 26),
    ]


def test_lint_session_on_a_jsonl_transcript() -> None:
    text = ('{"role": "user", "content": "bump x"}\n'
            '{"role": "assistant", "content": "Sure.\\n\\n--- File: a.py ---\\nx = 2\\n"}\n')
    found = lint_session(parse_session(text, "chat.jsonl"))
    # (its full file runs to the end of a reply with no footer: it may be cut off)
    assert [(f.turn, f.rule, f.span.start) for f in found] == [
        (1, "preamble", 1), (1, "cut-off", 3)]


def test_lint_session_without_turns() -> None:
    found = lint_session(parse_session("# Session: empty\n"))
    assert [(f.rule, str(f.severity), f.turn) for f in found] == [("no-turns", "warning", None)]


# -- the cost model --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2),
                                                 ("x" * 400, 100)])
def test_token_estimate_is_four_characters_rounded_up(text: str, expected: int) -> None:
    assert tokens.estimate_tokens(text) == expected


def test_edit_cost_counts_markers() -> None:
    assert tokens.edit_cost([], []) == tokens.estimate_tokens(tokens.EDIT_MARKERS) == 12
    assert tokens.edit_cost(["abcd"], ["efgh"]) == tokens.estimate_tokens(
        "abcd\nefgh\n" + tokens.EDIT_MARKERS)


def test_threshold_is_exactly_seventy_percent() -> None:
    assert tokens.reaches_threshold(70, 100)
    assert not tokens.reaches_threshold(69, 100)
    assert tokens.percent(7, 10) == 70


def test_search_replace_cost_of_one_changed_line() -> None:
    old = BIG.splitlines()
    new = [*old]
    new[29] = "step_30 = 31"
    # A unique changed line needs no context: one edit of that line.
    assert tokens.search_replace_cost(old, new) == tokens.edit_cost([old[29]], [new[29]])
    assert tokens.search_replace_cost(old, old) == 0


def test_search_replace_cost_grows_context_until_unique() -> None:
    old = ["a", "x", "b", "x", "c"]
    new = ["a", "x", "b", "y", "c"]
    # "x" alone matches twice; "b x c" is the shortest unique anchor.
    assert tokens.search_replace_cost(old, new) == tokens.edit_cost(["b", "x", "c"],
                                                                    ["b", "y", "c"])


def test_search_replace_cost_without_any_unique_anchor() -> None:
    old = ["same"] * 40
    new = [*old]
    new[20] = "other"
    assert tokens.search_replace_cost(old, new) is None


def test_locate_and_apply_edits() -> None:
    lines = ["a", "b", "a"]
    assert tokens.locate(lines, ["b"]) == 1
    assert tokens.locate(lines, ["a"]) is None
    assert tokens.locate(lines, []) is None
    assert tokens.apply_edits(lines, [(["b"], ["B", "B"])]) == ["a", "B", "B", "a"]
    assert tokens.apply_edits(lines, [(["z"], [])]) is None


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    ("*.js", "a.js", True),
    ("*.js", "src/a.js", False),
    ("src/**/*.js", "src/a.js", True),
    ("src/**/*.js", "src/x/y/a.js", True),
    ("src/?.js", "src/ab.js", False),
    ("./src/*.js", "src/a.js", True),
])
def test_glob_match(pattern: str, path: str, expected: bool) -> None:
    assert glob_match(pattern, path) is expected


def commands(text: str) -> tuple[ConsoleCommand, ...]:
    return tuple(c for block in parse_reply_text(text).console_blocks for c in block.commands)


@pytest.mark.parametrize(("console", "path", "before"), [
    (":mv a.py b.py", "b.py", "a.py"),
    (":mv src/utils lib/utils", "lib/utils/math.js", "src/utils/math.js"),
    (":mv src/a.js lib/", "lib/a.js", "src/a.js"),
    (":rn .jsx .tsx", "src/App.tsx", "src/App.jsx"),
    (":mv a.py b.py\n:mv b.py c.py", "c.py", "a.py"),
    (":mv a.py b.py\n:undo", "b.py", "b.py"),
    (":rm b.py", "b.py", "b.py"),
])
def test_moved_from_traces_a_path_back_through_the_turn(console: str, path: str,
                                                         before: str) -> None:
    footer = "\n### Changed files:\n- x\n"
    assert moved_from(path, effective_moves(commands(console + "\n" + footer))) == before


def test_file_text_may_describe_the_turn_before_its_moves() -> None:
    reply = "```console\n:mv old.py six.py\n```\n\n" + six_edits(
        ("a = 1", "a = 10", "Edit 1"), ("b = 2", "b = 20", "Edit 2")).replace(
        "- six.py", "- six.py (moved from old.py)")
    found = lint(reply, {"old.py": SIX})
    assert hits(found, "merge-adjacent") == [("warning", 12, 17)]


def test_path_key_makes_spellings_comparable() -> None:
    assert path_key("./src//a.js") == path_key("src\\a.js") == "src/a.js"
    assert path_key("lib/") == "lib"
    assert path_key("") == path_key(".") == ""


# -- docs/protocol.md stays true -------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_DOC_BLOCK = re.compile(
    r"<!-- lint-(?P<kind>file|example): (?P<name>\S+) -->\n(?P<fence>`{3,})\w*\n(?P<body>.*?)\n"
    r"(?P=fence)\n(?P<after>.*?)(?=<!-- lint-|\n### |\Z)",
    re.DOTALL,
)
_DOC_OUTPUT = re.compile(r"^`?(\d+): (\S+) (error|warning|info) (.*?) \.\.\.`?$", re.MULTILINE)


def doc_examples() -> list[tuple[str, str, dict[str, str], str]]:
    """(rule, reply, files, expected output text) for each example in the protocol doc."""
    out: list[tuple[str, str, dict[str, str], str]] = []
    files: dict[str, str] = {}
    for m in _DOC_BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        if m.group("kind") == "file":
            files[m.group("name")] = m.group("body") + "\n"
            continue
        out.append((m.group("name"), m.group("body") + "\n", files, m.group("after")))
        files = {}
    return out


def test_the_doc_has_an_example_for_every_lint_rule() -> None:
    assert sorted(rule for rule, *_ in doc_examples()) == sorted(r.id for r in LINT_RULES)


@pytest.mark.parametrize(("rule", "reply", "files", "after"), doc_examples(),
                         ids=[e[0] for e in doc_examples()])
def test_doc_example_produces_the_documented_finding(
    rule: str, reply: str, files: dict[str, str], after: str
) -> None:
    found = lint_reply(parse_reply_text(reply), file_text=files.get if files else None)
    expected = _DOC_OUTPUT.findall(after)
    assert expected, f"no sample output after the {rule} example"
    for line, rid, severity, message in expected:
        assert rid == rule
        assert any(
            f.rule == rid and f.span.start == int(line) and f.severity == severity
            and f.message.startswith(message)
            for f in found
        ), (line, rid, severity, message, [(f.rule, f.span.start, f.message) for f in found])
