"""The engine: turn semantics, decisions, conventions, refusals and the ledger."""

from __future__ import annotations

import textwrap

import pytest

from reviewtui.core.engine import Decision, Policy, Rules, evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import ReservedRules
from reviewtui.core.protocol.session import parse_session

APP_PY = """\
import os


def greet(name):
    return "Helo, " + name


def farewell(name):
    return "Bye, " + name


def main():
    print(greet(os.environ.get("USER", "world")))
"""


def tree(files: dict[str, bytes | str], modes: dict[str, int] | None = None) -> Tree:
    modes = modes or {}
    return Tree.from_files({
        path: FileState.from_bytes(data.encode() if isinstance(data, str) else data,
                                   mode=modes.get(path, 0o644))
        for path, data in files.items()
    })


def run(text: str, files: dict[str, bytes | str], **kwargs: object) -> SessionRun:
    session = parse_session(textwrap.dedent(text), "s.md")
    return evaluate_session(session, tree(files), **kwargs)  # type: ignore[arg-type]


def data(r: SessionRun, path: str, checkpoint: int = -1) -> bytes | None:
    state = r.states[checkpoint].tree.get(path)
    return state.data if state is not None else None


def statuses(r: SessionRun) -> list[str]:
    return [str(res.outcome.status) for t in r.turns for res in t.results]


EDIT_GREETING = """\
    ## Turn 1
    > fix

    --- File: app.py ---
    <<<<<<< SEARCH
        return "Helo, " + name
    =======
        return "Hello, " + name
    >>>>>>> REPLACE
    """


def test_exact_edit_and_checkpoints() -> None:
    r = run(EDIT_GREETING, {"app.py": APP_PY})
    assert statuses(r) == ["applied"]
    assert data(r, "app.py", 0) == APP_PY.encode()
    assert data(r, "app.py", 1) == APP_PY.replace("Helo", "Hello").encode()
    outcome = r.turns[0].results[0].outcome
    assert outcome.lines == (5, 5)
    assert outcome.before == '    return "Helo, " + name'
    assert r.turns[0].ledger == ("edit app.py #1 exact 5-5 r0->r1",)


def test_crlf_bom_and_no_final_newline_survive_an_edit() -> None:
    original = "\ufeff" + APP_PY.rstrip("\n").replace("\n", "\r\n")
    r = run(EDIT_GREETING, {"app.py": original.encode("utf-8")})
    expected = original.replace("Helo", "Hello").encode("utf-8")
    assert data(r, "app.py") == expected


def test_edits_of_one_file_apply_top_to_bottom_on_the_previous_result() -> None:
    r = run("""\
        ## Turn 1
        --- File: app.py ---
        Edit 1
        <<<<<<< SEARCH
            return "Helo, " + name
        =======
            return "Hello, " + name
        >>>>>>> REPLACE
        Edit 2
        <<<<<<< SEARCH
            return "Hello, " + name


        def farewell(name):
        =======
            return "Hello, " + name


        def goodbye(name):
        >>>>>>> REPLACE
        """, {"app.py": APP_PY})
    assert statuses(r) == ["applied", "applied"]
    assert b"def goodbye(name):" in (data(r, "app.py") or b"")


def test_rejecting_an_edit_reevaluates_later_edits_as_if_never_written() -> None:
    text = """\
        ## Turn 1
        --- File: app.py ---
        <<<<<<< SEARCH
            return "Helo, " + name
        =======
            return "Hello, " + name
        >>>>>>> REPLACE

        ## Turn 2
        --- File: app.py ---
        <<<<<<< SEARCH
            return "Hello, " + name
        =======
            return f"Hello, {name}"
        >>>>>>> REPLACE
        """
    r = run(text, {"app.py": APP_PY})
    assert statuses(r) == ["applied", "applied"]
    r.decide((1, 0), Decision.reject())
    assert statuses(r) == ["rejected", "not_found"]
    second = r.turns[1].results[0].outcome
    assert second.candidates, "a not-found edit comes with the closest candidates"
    assert second.candidates[0].start == 5
    assert data(r, "app.py") == APP_PY.encode()  # untouched, never misapplied
    r.decide((1, 0), Decision())  # back to pending: both apply again
    assert statuses(r) == ["applied", "applied"]


def test_edited_decision_replaces_the_model_text() -> None:
    r = run(EDIT_GREETING, {"app.py": APP_PY})
    r.decide((1, 0), Decision.edit(('    return "Hi, " + name',)))
    assert b'return "Hi, " + name' in (data(r, "app.py") or b"")
    assert r.turns[0].results[0].landed


def test_ambiguous_edit_leaves_the_file_byte_identical() -> None:
    files = {"a.py": "x = 1\ny = 2\nx = 1\n"}
    r = run("""\
        ## Turn 1
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 3
        >>>>>>> REPLACE
        """, files)
    outcome = r.turns[0].results[0].outcome
    assert outcome.status is Status.AMBIGUOUS
    assert outcome.locations == ((1, 1), (3, 3))
    assert data(r, "a.py") == b"x = 1\ny = 2\nx = 1\n"
    # Accepting (even forcing) an ambiguous edit still changes nothing.
    r.decide((1, 0), Decision.accept(force=True))
    assert data(r, "a.py") == b"x = 1\ny = 2\nx = 1\n"


def test_stale_edit_is_not_found_and_leaves_file_identical() -> None:
    r = run("""\
        ## Turn 1
        --- File: app.py ---
        <<<<<<< SEARCH
            return "Helo, " + name
        =======
            return "Hello, " + name
        >>>>>>> REPLACE

        ## Turn 2
        --- File: app.py ---
        <<<<<<< SEARCH
            return "Helo, " + name
        =======
            return "Hey, " + name
        >>>>>>> REPLACE
        """, {"app.py": APP_PY})
    second = r.turns[1].results[0].outcome
    assert second.status is Status.NOT_FOUND
    assert str(second.candidates[0].diagnosis) == "probably stale"
    assert data(r, "app.py", 2) == data(r, "app.py", 1)


def test_duplicate_line_guard_refuses_and_a_human_may_force() -> None:
    r = run("""\
        ## Turn 1
        --- File: app.py ---
        <<<<<<< SEARCH
            return "Helo, " + name
        =======
        def greet(name):
            return "Hello, " + name
        >>>>>>> REPLACE
        """, {"app.py": APP_PY})
    outcome = r.turns[0].results[0].outcome
    assert (outcome.status, outcome.rule, outcome.forceable) == (
        Status.REFUSED, "duplicate-line", True)
    assert data(r, "app.py") == APP_PY.encode()
    r.decide((1, 0), Decision.accept())  # accepting without force is not enough
    assert data(r, "app.py") == APP_PY.encode()
    r.decide((1, 0), Decision.accept(force=True))
    assert data(r, "app.py", 1).count(b"def greet(name):") == 2  # type: ignore[union-attr]


def test_near_match_needs_review_and_accept_fuzzy_policy() -> None:
    source = ("def total(items):\n    s = 0\n    for i in items:\n        s += i.price\n"
              "    return s\n")
    text = """\
        ## Turn 1
        --- File: shop.py ---
        <<<<<<< SEARCH
        def total(items):
            s = 0
            for i in items:
                s += i.cost
            return s
        =======
        def total(items):
            return sum(i.price for i in items)
        >>>>>>> REPLACE
        """
    r = run(text, {"shop.py": source})
    assert statuses(r) == ["needs_review"]
    assert data(r, "shop.py") == source.encode()
    fuzzy = run(text, {"shop.py": source}, policy=Policy.headless(accept_fuzzy=True))
    assert b"return sum(i.price for i in items)" in (data(fuzzy, "shop.py") or b"")


def test_structural_order_moves_first_then_edits_then_removals() -> None:
    r = run("""\
        ## Turn 1
        --- File: src/b.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        --- File: old.txt ---
        <<<<<<< SEARCH
        bye
        =======
        ciao
        >>>>>>> REPLACE
        ```console
        :rm old.txt
        :mv src/a.py src/b.py
        ```
        """, {"src/a.py": "x = 1\n", "old.txt": "bye\n"})
    assert statuses(r) == ["applied", "applied", "applied", "applied"]
    final = r.states[-1].tree
    assert final.paths() == ("src/b.py",)
    assert data(r, "src/b.py") == b"x = 2\n"
    ledger = r.turns[0].ledger
    assert ledger[0].startswith("mv src/a.py src/b.py")
    assert ledger[-1].startswith("rm old.txt")


def test_edit_to_old_path_after_move_says_where_it_went() -> None:
    r = run("""\
        ## Turn 1
        ```console
        :mv a.py b.py
        ```
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        """, {"a.py": "x = 1\n"})
    outcome = r.turns[0].results[1].outcome
    assert (outcome.status, outcome.rule) == (Status.NOT_FOUND, "moved-path")
    assert "b.py" in outcome.message


def test_rejecting_a_move_makes_edits_to_the_new_path_not_found() -> None:
    text = """\
        ## Turn 1
        ```console
        :mv a.py b.py
        ```
        --- File: b.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        """
    r = run(text, {"a.py": "x = 1\n"})
    r.decide((1, 0), Decision.reject())
    assert statuses(r) == ["rejected", "not_found"]
    assert data(r, "a.py") == b"x = 1\n"


@pytest.mark.parametrize(("need", "rule", "says"), [
    ("Need: lib/config.py", "needed-file", "the reply lists it under Need:"),
    ("Need: lib/other.py", "missing-file", "(and the reply's Need: line does not list it)"),
    # Aider's replies (and many others) have no Need: line: the message must not say
    # their Need: line left the file out (found in a real terminal on Aider's history).
    ("", "missing-file", ""),
])
def test_a_missing_file_consults_the_need_line(need: str, rule: str, says: str) -> None:
    r = run(f"""\
        ## Turn 1
        --- File: lib/config.py ---
        <<<<<<< SEARCH
        DEBUG = True
        =======
        DEBUG = False
        >>>>>>> REPLACE
        ### Changed files:
        - lib/config.py
        {need}
        """, {})
    outcome = r.turns[0].results[0].outcome
    assert (outcome.status, outcome.rule) == (Status.NOT_FOUND, rule)
    assert outcome.message.startswith("lib/config.py does not exist")
    assert says in outcome.message
    assert ("Need:" in outcome.message) == bool(need)


def test_empty_search_creates_a_new_file_but_never_anchors_in_an_existing_one() -> None:
    text = """\
        ## Turn 1
        --- File: {path} ---
        <<<<<<< SEARCH
        =======
        print("new")
        >>>>>>> REPLACE
        """
    created = run(text.format(path="new.py"), {"a.py": "x\n"})
    assert data(created, "new.py") == b'print("new")\n'
    refused = run(text.format(path="a.py"), {"a.py": "x\n"})
    outcome = refused.turns[0].results[0].outcome
    assert (outcome.status, outcome.rule) == (Status.REFUSED, "empty-search")


FULL_FILE = """\
    ## Turn 1
    --- File: {path} ---
    ```
    {body}
    ```
    """


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        (b"one\r\ntwo\r\n", b"uno\r\ndos\r\n"),  # CRLF file stays CRLF
        (b"\xef\xbb\xbfone\ntwo\n", b"\xef\xbb\xbfuno\ndos\n"),  # BOM kept
        (b"one\ntwo", b"uno\ndos\n"),  # final newline follows the model
    ],
)
def test_full_file_keeps_the_file_conventions(original: bytes, expected: bytes) -> None:
    text = "## Turn 1\n--- File: f.txt ---\n```\nuno\ndos\n```\n"
    r = evaluate_session(parse_session(text), tree({"f.txt": original}))
    assert data(r, "f.txt") == expected


def test_full_file_keeps_mode_bits() -> None:
    text = "## Turn 1\n--- File: run.sh ---\n```sh\n#!/bin/sh\necho hi\n```\n"
    r = evaluate_session(parse_session(text),
                         tree({"run.sh": "#!/bin/sh\necho hello\n"}, {"run.sh": 0o755}))
    state = r.states[-1].tree.get("run.sh")
    assert state is not None
    assert (state.data, state.mode) == (b"#!/bin/sh\necho hi\n", 0o755)
    assert "executable bit kept" in r.turns[0].results[0].outcome.hint


def test_full_file_with_truncation_placeholder_is_refused_for_existing_file() -> None:
    text = ("## Turn 1\n--- File: app.py ---\n```python\nimport os\n\n"
            "# ... rest of file unchanged ...\n```\n")
    r = evaluate_session(parse_session(text), tree({"app.py": APP_PY}))
    outcome = r.turns[0].results[0].outcome
    assert (outcome.status, outcome.rule) == (Status.REFUSED, "truncation-placeholder")
    assert data(r, "app.py") == APP_PY.encode()


def test_python_ellipsis_already_in_file_is_not_a_placeholder() -> None:
    stub = "class P(Protocol):\n    def f(self) -> int:\n        ...\n"
    text = ("## Turn 1\n--- File: p.py ---\n```python\nclass P(Protocol):\n"
            "    def g(self) -> int:\n        ...\n```\n")
    r = evaluate_session(parse_session(text), tree({"p.py": stub}))
    assert statuses(r) == ["applied"]


@pytest.mark.parametrize(
    ("path", "rule"),
    [
        ("/etc/passwd", "absolute-path"),
        ("../outside.py", "parent-escape"),
        ("a\\b.py", "backslash"),
        (".git/config", "git-dir"),
        ("~/x.py", "home-path"),
        ("C:/x.py", "drive-letter"),
    ],
)
def test_unsafe_paths_are_refused_and_cannot_be_forced(path: str, rule: str) -> None:
    text = f"## Turn 1\n--- File: {path} ---\n```\nx\n```\n"
    r = evaluate_session(parse_session(text), tree({"a.py": "x\n"}))
    outcome = r.turns[0].results[0].outcome
    assert (outcome.status, outcome.rule, outcome.forceable) == (Status.REFUSED, rule, False)
    r.decide((1, 0), Decision.accept(force=True))
    assert r.states[-1].tree.paths() == ("a.py",)


def test_reserved_and_symlinked_paths_are_refused() -> None:
    text = ("## Turn 1\n--- File: dist/app.js ---\n```\nx\n```\n\n"
            "--- File: link/x.py ---\n```\nx\n```\n\n"
            "--- File: package-lock.json ---\n```\n{}\n```\n")
    rules = Rules(ReservedRules.from_patterns(["dist/**"]), symlinks={"link": "/etc"},
                  root="/work/project")
    r = evaluate_session(parse_session(text), Tree(), rules=rules)
    outcomes = [res.outcome for res in r.turns[0].results]
    # A built-in generated file is written and pointed out, not refused (issue 14, item 7):
    # only the project's own [reserved] paths refuse.
    assert [o.rule for o in outcomes] == ["reserved", "symlink-escape", ""]
    assert 'reviewtui.toml [reserved] paths "dist/**"' in outcomes[0].message
    assert outcomes[2].generated == "package-lock.json"
    assert "generated file" in outcomes[2].hint
    assert r.states[-1].tree.paths() == ("package-lock.json",)


def test_binary_files_are_refused_for_edits_but_can_move() -> None:
    text = """\
        ## Turn 1
        ```console
        :mv logo.png img/logo.png
        ```
        --- File: img/logo.png ---
        <<<<<<< SEARCH
        PNG
        =======
        GIF
        >>>>>>> REPLACE
        """
    r = run(text, {"logo.png": b"\x89PNG\r\n\x1a\n\x00\x00"})
    assert statuses(r) == ["applied", "refused"]
    assert r.turns[0].results[1].outcome.rule == "binary"
    assert data(r, "img/logo.png") == b"\x89PNG\r\n\x1a\n\x00\x00"


def test_edit_then_rm_in_one_turn_removal_wins() -> None:
    r = run("""\
        ## Turn 1
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        ```console
        :rm a.py
        ```
        """, {"a.py": "x = 1\n"})
    assert statuses(r) == ["applied", "applied"]
    assert "a.py" not in r.states[-1].tree


def test_later_turns_override_earlier_lines_and_unrm_restores_content() -> None:
    r = run("""\
        ## Turn 1
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        ```console
        :rm a.py
        ```
        ## Turn 2
        ```console
        :unrm a.py
        ```
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 2
        =======
        x = 3
        >>>>>>> REPLACE
        """, {"a.py": "x = 1\n"})
    assert statuses(r) == ["applied", "applied", "applied", "applied"]
    assert data(r, "a.py", 1) is None
    assert data(r, "a.py", 2) == b"x = 3\n"


def test_failed_structural_commands_name_their_rule() -> None:
    r = run("""\
        ## Turn 1
        ```console
        :rm nothing/*.tmp
        :mv a.py b.py
        :undo
        :undo
        :undo
        ```
        """, {"a.py": "a\n", "b.py": "b\n"})
    outcomes = [res.outcome for res in r.turns[0].results]
    # (read in the order written, the first undo takes back the move, which did not run,
    # the second the removal, which runs in neither form then, the third reaches back)
    assert [(str(o.status), o.rule) for o in outcomes] == [
        ("refused", "taken-back-in-reply"),
        ("refused", "dest-exists"),
        ("not_found", "nothing-to-undo"),
        ("refused", "taken-back-in-reply"),
        ("not_found", "nothing-to-undo"),
    ]
    assert data(r, "b.py") == b"b\n"


def test_pending_ops_do_not_join_when_policy_is_decided_only() -> None:
    r = run(EDIT_GREETING, {"app.py": APP_PY}, policy=Policy.decided_only())
    assert statuses(r) == ["skipped"]  # never evaluated: it cannot land under this policy
    assert not r.turns[0].results[0].landed
    assert data(r, "app.py") == APP_PY.encode()
    r.decide((1, 0), Decision.accept())
    assert statuses(r) == ["applied"]
    assert data(r, "app.py") == APP_PY.replace("Helo", "Hello").encode()


def test_identical_write_does_not_bump_the_revision() -> None:
    r = run("""\
        ## Turn 1
        --- File: a.py ---
        ```
        x = 1
        ```
        """, {"a.py": "x = 1\n"})
    assert r.states[1].tree is r.states[0].tree or r.states[1].tree.revision == 0
    assert r.turns[0].ledger == ()


def test_commands_obey_reserved_paths_and_symlinks() -> None:
    text = ("## Turn 1\n```console\n:rm package-lock.json\n:mv a.py link/a.py\n:rm b.py\n```\n")
    # Reserved by the project (built-in generated files alone are no longer refused).
    rules = Rules(ReservedRules.from_patterns(["**/package-lock.json"]), symlinks={"link": "/etc"},
                  root="/work/project")
    r = evaluate_session(parse_session(text),
                         tree({"package-lock.json": "{}\n", "a.py": "a\n", "b.py": "b\n"}),
                         rules=rules)
    outcomes = [res.outcome for res in r.turns[0].results]
    assert [(str(o.status), o.rule) for o in outcomes] == [
        ("refused", "reserved"), ("refused", "symlink-escape"), ("applied", "")]
    assert "nothing of this command was applied" in outcomes[0].message
    assert r.states[-1].tree.paths() == ("a.py", "package-lock.json")


def test_a_failing_argument_leaves_the_whole_command_unapplied() -> None:
    r = run("## Turn 1\n```console\n:rm a.py missing/*.tmp\n```\n", {"a.py": "a\n"})
    outcome = r.turns[0].results[0].outcome
    assert (str(outcome.status), outcome.rule) == ("not_found", "glob-matched-nothing")
    assert "nothing of this command was applied" in outcome.message
    assert data(r, "a.py") == b"a\n"
