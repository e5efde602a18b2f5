"""Chunks of a text of several apply_patch patches land only where Codex's own search
(``core/engine/codex_seek.py``) writes them (QA s47 helper-148 F5); the expected results
are what Codex's binary (codex-cli 0.171.0) did with each patch alone."""

from __future__ import annotations

import pytest

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

BOM = "\ufeff"


def _patch(*body: str) -> str:
    return "\n".join(("*** Begin Patch", *body, "*** End Patch"))


def _run(files: dict[str, str], *patches: str) -> tuple[list[tuple[Status, str]], dict[str, str]]:
    text = "".join(f"The model wrote:\n\n{patch}\n\n" for patch in patches)
    session = import_session(text, "s.md", format="apply_patch")
    tree = Tree.from_files({p: FileState.from_bytes(t.encode()) for p, t in files.items()})
    run = evaluate_session(session, tree, policy=Policy.headless())
    results = [(r.outcome.status, r.outcome.rule) for t in run.turns for r in t.results]
    final = {p: (run.final.get(p).data.decode() if run.final.get(p) else "") for p in files}
    return results, final


OTHER = _patch("*** Add File: z.txt", "+z")  # a second patch: the text is a transcript


@pytest.mark.parametrize(("before", "chunk"), [
    ("a\u2026\n", ("-a...", "+b")),            # an ellipsis Codex does not read as '...'
    ("a\u200bb\n", ("-ab", "+c")),              # a zero-width space
    ("s = 5\u2032\n", ("-s = 5'", "+s = 1")),  # a prime for an apostrophe
    ("a\nb\n", (" ", "-a", "+c")),              # a blank line the file does not have
    (f"{BOM}def a\nx\n", ("-x", "+y")),         # (with the @@ line below)
])
def test_a_chunk_codex_refuses_is_held_among_several_patches(
        before: str, chunk: tuple[str, ...]) -> None:
    header = "@@ def a" if before.startswith(BOM) else "@@"
    patch = _patch("*** Update File: f.txt", header, *chunk)
    results, final = _run({"f.txt": before}, patch, OTHER)
    assert results[0] == (Status.REFUSED, "codex-refused")
    assert final["f.txt"] == before
    # Alone, the patch lands as reviewtui reads it (docs/formats.md's allowances).
    alone, _ = _run({"f.txt": before}, patch)
    assert alone[0][0] is Status.APPLIED


def test_an_update_of_a_missing_file_is_held_among_several_patches() -> None:
    results, _ = _run({}, _patch("*** Update File: n.txt", "@@", "+a"), OTHER)
    assert results[0] == (Status.REFUSED, "codex-refused")


def test_a_chunk_codex_places_elsewhere_is_held_even_alone() -> None:
    # Line 1 is "    pass" after the byte-order mark: to Codex it is not, and its search
    # takes line 3 (surrounding whitespace ignored), where reviewtui took line 1.
    before = f"{BOM}    pass\nb\n\tpass\n"
    patch = _patch("*** Update File: f.txt", "@@", "     pass", "+NEW")
    for patches in ((patch,), (patch, OTHER)):
        results, final = _run({"f.txt": before}, *patches)
        assert results[0] == (Status.REFUSED, "codex-elsewhere")
        assert final["f.txt"] == before


def test_a_nested_context_among_several_patches_is_a_patch_codex_rejected() -> None:
    before = "class A:\n    def f(self):\n        return 1\n"
    nested = _patch("*** Update File: f.txt", "@@ class A:", "@@     def f(self):",
                    "-        return 1", "+        return 2")
    session = import_session(f"one:\n\n{nested}\n\ntwo:\n\n{OTHER}\n", "s.md",
                             format="apply_patch")
    first = session.turns[0].reply
    assert first.ops == ()
    assert first.problems[0].rule == "patch-nested-context"
    assert first.problems[0].severity == "error"
    alone, final = _run({"f.txt": before}, nested)  # alone: read as a narrower context
    assert alone == [(Status.APPLIED, "")]
    assert final["f.txt"] == "class A:\n    def f(self):\n        return 2\n"


def test_chunks_codex_finds_land_as_before() -> None:
    before = "def f():\n    x = 1  \n\ty = 2\nz = \u201cq\u201d\n"
    patch = _patch("*** Update File: f.txt", "@@ def f():", "-    x = 1", "+    x = 10",
                   "@@", "-    y = 2", "+    y = 20", "@@", "-z = \"q\"", "+z = 3")
    results, final = _run({"f.txt": before}, patch, OTHER)
    assert [status for status, _ in results[:3]] == [Status.APPLIED] * 3
    assert final["f.txt"] == "def f():\n    x = 10\n\ty = 20\nz = 3\n"


def test_crlf_lines_are_found_by_codex_trailing_whitespace_tier() -> None:
    before = "a\r\nb\r\nc\r\n"
    results, final = _run({"f.txt": before},
                          _patch("*** Update File: f.txt", "@@", " a", "-b", "+B"), OTHER)
    assert results[0] == (Status.APPLIED, "")
    assert final["f.txt"] == "a\r\nB\r\nc\r\n"


def test_seek_is_codex_seek_sequence() -> None:
    from reviewtui.core.engine.codex_seek import seek  # (here: the module is new)

    lines = ["foo   ", "  bar", "baz\u2014", "", "end"]
    assert seek(lines, ["foo"], 0, False) == 0             # trailing whitespace
    assert seek(lines, ["bar"], 0, False) == 1             # surrounding whitespace
    assert seek(lines, ["baz-"], 0, False) == 2            # a dash read as '-'
    assert seek(lines, ["bar"], 2, False) is None          # from the start given only
    assert seek(lines, ["", "end"], 0, True) == 3          # the very end
    assert seek(lines, ["baz-", ""], 0, True) is None      # not at the end
    assert seek(lines, [], 4, False) == 4
    assert seek(["x"], ["x", "y"], 0, False) is None


def test_an_at_line_is_looked_for_with_its_trailing_whitespace_trimmed() -> None:
    # Codex's parser trims the @@ line (QA qa79 #1): '@@ done ' looks for 'done'.
    from reviewtui.core.engine.codex_seek import codex_anchor

    assert codex_anchor("  done \t\u00a0") == "  done"
    patch = _patch("*** Update File: f.txt", "@@ done ", " x", "+y")
    before = "done \nx\ndone\n"  # Codex: 'done' is line 3, no 'x' after it: refused
    results, final = _run({"f.txt": before}, patch, OTHER)
    assert results[0] == (Status.REFUSED, "codex-refused")
    assert final["f.txt"] == before
    before = "done \nx\ndone\nx\n"  # Codex writes 'y' after line 4, even alone
    for patches in ((patch,), (patch, OTHER)):
        results, final = _run({"f.txt": before}, *patches)
        assert results[0][0] is not Status.APPLIED  # (ambiguous alone)
        assert final["f.txt"] == before
    results, final = _run({"f.txt": "done \nx\n"}, patch, OTHER)  # its trailing tier
    assert results[0] == (Status.APPLIED, "")
    assert final["f.txt"] == "done \nx\ny\n"


def test_an_end_of_file_chunk_is_not_found_before_where_the_previous_one_ended() -> None:
    from reviewtui.core.engine.codex_seek import seek

    assert seek(["a", "b", "c"], ["c"], 3, True) is None
    assert seek(["a", "b", "c"], ["c"], 2, True) == 2
    # Its old lines are the previous chunk's trailing context: Codex refuses the patch.
    patch = _patch("*** Update File: f.txt", "@@", " b", "+X", " c", "@@", " c", "+N",
                   "*** End of File")
    results, final = _run({"f.txt": "a\nb\nc\n"}, patch, OTHER)
    assert results[0][0] is Status.REFUSED
    assert final["f.txt"] == "a\nb\nc\n"


def test_a_lone_blank_old_line_codex_takes_none_of_is_held_even_alone() -> None:
    # QA qa79 #3: Codex (0.171) wrote 'a\nb\nX\n\n\nN\n', the blank line twice,
    # reviewtui 'a\nb\nX\n\nN\n'; held, its section with it.
    patch = _patch("*** Update File: f.txt", "@@", " b", "+X", " ", "@@", " ", "+N",
                   "*** End of File")
    for patches in ((patch,), (patch, OTHER)):
        results, final = _run({"f.txt": "a\nb\n\n"}, *patches)
        assert results[0] == (Status.REFUSED, "codex-elsewhere")
    assert results[1][0] is Status.REFUSED  # (alone, apply holds the file not whole)
    assert final["f.txt"] == "a\nb\n\n"
    # The same chunk first in its section, on a file with no blank line: Codex inserts it
    # at the top ('\nN\na\nb\n').
    results, final = _run({"f.txt": "a\nb\n"},
                          _patch("*** Update File: f.txt", "@@", " ", "+N"), OTHER)
    assert results[0][0] is Status.REFUSED
    assert final["f.txt"] == "a\nb\n"


def test_a_held_sections_move_is_held() -> None:
    # QA qa79 #2: the retry moves the file, which the held one did not.
    first = _patch("*** Update File: f.txt", "*** Move to: g.txt", "@@", " alpha", "+ALPHA")
    retry = _patch("*** Update File: f.txt", "*** Move to: g.txt", "@@", f" {BOM}alpha",
                   "+ALPHA")
    results, final = _run({"f.txt": f"{BOM}alpha\nbeta\n", "g.txt": ""}, first, retry)
    assert results[:2] == [(Status.REFUSED, "codex-refused")] * 2
    assert [status for status, _ in results[2:]] == [Status.APPLIED] * 2
    assert final == {"f.txt": "", "g.txt": f"{BOM}alpha\nALPHA\nbeta\n"}
