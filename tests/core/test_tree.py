"""File states keep a file's conventions; trees share structure and diff cheaply."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reviewtui.core.errors import PathRefused
from reviewtui.core.model.tree import FileState, Tree, tree_from_bytes

BOM = b"\xef\xbb\xbf"


# --- FileState -----------------------------------------------------------------------

def test_plain_lf_file() -> None:
    state = FileState.from_bytes(b"one\ntwo\n")
    assert state.lines == ("one", "two")
    assert state.text == "one\ntwo\n"
    assert (state.eol, state.newline, state.final_newline) == ("\n", "\n", True)
    assert not state.binary
    assert not state.bom
    assert state.encoding == "utf-8"
    assert state.mode == 0o644
    assert state.revision == 0


def test_crlf_file_stays_crlf() -> None:
    state = FileState.from_bytes(b"a\r\nb\r\n")
    assert state.eol == "\r\n"
    assert state.lines == ("a", "b")
    new = state.with_lines(["a", "B", "c"])
    assert new.data == b"a\r\nB\r\nc\r\n"


def test_bom_is_kept_and_hidden_from_lines() -> None:
    state = FileState.from_bytes(BOM + b"x = 1\n")
    assert state.bom
    assert state.lines == ("x = 1",)
    assert state.text == "x = 1\n"
    assert state.with_lines(["x = 2"]).data == BOM + b"x = 2\n"


def test_missing_final_newline_is_kept_unless_told() -> None:
    state = FileState.from_bytes(b"a\nb")
    assert not state.final_newline
    assert state.with_lines(["a", "c"]).data == b"a\nc"
    assert state.with_lines(["a", "c"], final_newline=True).data == b"a\nc\n"
    assert FileState.from_bytes(b"a\n").with_lines(["a"], final_newline=False).data == b"a"


def test_empty_file_gets_a_final_newline() -> None:
    assert FileState.from_bytes(b"").with_lines(["x"]).data == b"x\n"


def test_mixed_file_keeps_untouched_line_endings() -> None:
    state = FileState.from_bytes(b"a\r\nb\nc\r\nd\ne\r\n")
    assert state.eol == "mixed"
    assert state.newline == "\r\n"
    new = state.with_lines(["a", "b", "C", "new", "d", "e"])
    assert new.data == b"a\r\nb\nC\r\nnew\r\nd\ne\r\n"


def test_mixed_file_dominant_ending_for_new_lines() -> None:
    state = FileState.from_bytes(b"a\nb\nc\r\n")
    assert state.eol == "mixed"
    assert state.newline == "\n"
    assert state.with_lines(["a", "x", "c"]).data == b"a\nx\nc\r\n"


def test_lone_carriage_return_and_other_breaks_are_content() -> None:
    state = FileState.from_bytes(b"a\rb\x0cc\xe2\x80\xa8d\nlast\r")
    assert state.lines == ("a\rb\x0cc\u2028d", "last\r")
    assert state.with_lines(list(state.lines)) is state


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00", b"caf\xe9\n", b"a\x00b"])
def test_binary_detection(data: bytes) -> None:
    state = FileState.from_bytes(data)
    assert state.binary
    assert state.text is None
    assert state.lines == ()
    with pytest.raises(ValueError, match="binary"):
        state.with_lines(["x"])


def test_nul_after_the_sniff_window_is_still_text() -> None:
    assert not FileState.from_bytes(b"a" * 9000 + b"\x00").binary


def test_identical_writes_return_the_same_object() -> None:
    state = FileState.from_bytes(b"a\r\nb\r\n", mode=0o755, revision=4)
    assert state.with_lines(["a", "b"]) is state
    assert state.with_text("a\nb\n") is state
    assert state.with_data(b"a\r\nb\r\n") is state


def test_a_real_change_bumps_the_revision_and_keeps_the_mode() -> None:
    state = FileState.from_bytes(b"a\n", mode=0o755, revision=4)
    new = state.with_lines(["b"])
    assert new.revision == 5
    assert new.mode == 0o755
    assert state.with_data(b"zz").revision == 5


def test_with_text_keeps_bom_and_crlf_and_follows_the_final_newline() -> None:
    state = FileState.from_bytes(BOM + b"a\r\nb\r\n")
    assert state.with_text("x\ny").data == BOM + b"x\r\ny"
    assert state.with_text("x\ny\n").data == BOM + b"x\r\ny\r\n"


def test_with_text_replaces_a_binary_file() -> None:
    assert FileState.from_bytes(b"\x00\x01").with_text("hi\n").data == b"hi\n"


def test_lines_with_newlines_are_rejected() -> None:
    with pytest.raises(ValueError, match="newline"):
        FileState.from_bytes(b"a\n").with_lines(["a\nb"])


def test_digest_and_equality_follow_content() -> None:
    a = FileState.from_bytes(b"x\n", revision=1)
    b = FileState.from_bytes(b"x\n", revision=7)
    assert a == b
    assert a.digest == b.digest
    assert a.digest == hashlib.sha256(b"x\n").hexdigest()
    assert a != FileState.from_bytes(b"x\n", mode=0o755)
    assert "bytes" in repr(a)


@given(st.binary(max_size=200))
def test_rewriting_the_same_lines_is_a_no_op(data: bytes) -> None:
    state = FileState.from_bytes(data)
    if not state.binary:
        assert state.with_lines(list(state.lines)) is state
        assert state.with_data(data) is state


# --- Tree ----------------------------------------------------------------------------

def _tree() -> Tree:
    return tree_from_bytes({"src/a.js": b"a\n", "src/lib/b.js": b"b\n", "README.md": b"r\n"})


def test_tree_queries() -> None:
    tree = _tree()
    assert tree.paths() == ("README.md", "src/a.js", "src/lib/b.js")
    assert list(tree) == list(tree.paths())
    assert len(tree) == 3
    assert "src/a.js" in tree
    assert "src" not in tree
    assert "nope" not in tree
    assert tree.get("src/a.js") == FileState.from_bytes(b"a\n")
    assert tree.get("src") is None
    assert tree.get("src/a.js/x") is None
    assert tree.is_dir("src")
    assert tree.is_dir("src/lib")
    assert not tree.is_dir("src/a.js")
    assert not tree.is_dir("nope")
    assert tree.files_under("src") == ("src/a.js", "src/lib/b.js")
    assert tree.files_under("") == tree.paths()
    assert tree.dirs() == ("src", "src/lib")
    assert dict(tree.items())["README.md"].lines == ("r",)


def test_set_bumps_revision_and_identical_set_is_a_no_op() -> None:
    tree = _tree()
    same = tree.set("src/a.js", FileState.from_bytes(b"a\n"))
    assert same is tree
    assert same.revision == 0
    changed = tree.set("src/a.js", FileState.from_bytes(b"A\n"))
    assert changed.revision == 1
    assert tree.get("src/a.js") == FileState.from_bytes(b"a\n")


def test_remove_file_and_directory() -> None:
    tree = _tree()
    assert tree.remove("README.md").paths() == ("src/a.js", "src/lib/b.js")
    without_src = tree.remove("src")
    assert without_src.paths() == ("README.md",)
    assert not without_src.is_dir("src")
    with pytest.raises(KeyError):
        tree.remove("nope")


def test_rename_files_directories_and_swaps() -> None:
    tree = _tree()
    a, b = tree.get("src/a.js"), tree.get("src/lib/b.js")
    moved = tree.rename({"src/lib": "lib"})
    assert moved.paths() == ("README.md", "lib/b.js", "src/a.js")
    assert moved.get("lib/b.js") is b
    swapped = tree.rename({"src/a.js": "src/lib/b.js", "src/lib/b.js": "src/a.js"})
    assert swapped.get("src/a.js") is b
    assert swapped.get("src/lib/b.js") is a
    with pytest.raises(ValueError, match="same path"):
        tree.rename({"src/a.js": "x", "README.md": "x"})
    with pytest.raises(KeyError):
        tree.rename({"nope": "x"})


def test_file_and_directory_cannot_share_a_name() -> None:
    tree = _tree()
    with pytest.raises(PathRefused) as info:
        tree.set("src/a.js/inner", FileState.from_bytes(b""))
    assert info.value.rule == "path-conflict"
    with pytest.raises(PathRefused):
        tree.set("src", FileState.from_bytes(b""))
    # ...but one batch may turn a file into a directory
    turned = tree.apply({"README.md": None, "README.md/x": FileState.from_bytes(b"x")})
    assert turned.paths() == ("README.md/x", "src/a.js", "src/lib/b.js")


def test_unchanged_directories_are_shared() -> None:
    tree = tree_from_bytes({"a/x": b"1", "b/deep/y": b"2"})
    new = tree.set("a/x", FileState.from_bytes(b"changed"))
    assert new._node("b") is tree._node("b")
    assert new._node("a") is not tree._node("a")


def test_diff_lists_only_what_differs() -> None:
    tree = _tree()
    new = (tree.set("src/a.js", FileState.from_bytes(b"A\n"))
           .remove("README.md")
           .set("docs/new.md", FileState.from_bytes(b"n\n")))
    diff = tree.diff(new)
    assert list(diff) == ["README.md", "docs/new.md", "src/a.js"]
    assert diff["README.md"] == (tree.get("README.md"), None)
    assert diff["docs/new.md"] == (None, new.get("docs/new.md"))
    assert diff["src/a.js"] == (tree.get("src/a.js"), new.get("src/a.js"))
    assert tree.diff(tree) == {}


def test_diff_without_shared_history_compares_content() -> None:
    one, two = _tree(), _tree()
    assert one.diff(two) == {}
    assert one == two
    other = tree_from_bytes({"src/a.js": b"a\n", "src/lib/b.js": b"changed\n", "README.md": b"r\n"})
    assert list(one.diff(other)) == ["src/lib/b.js"]
    assert one != other


def test_diff_across_a_file_becoming_a_directory() -> None:
    tree = tree_from_bytes({"x": b"file"})
    new = tree.apply({"x": None, "x/y": FileState.from_bytes(b"y")})
    assert list(tree.diff(new)) == ["x", "x/y"]
    assert list(new.diff(tree)) == ["x", "x/y"]


def test_tree_repr_and_unhashable() -> None:
    assert repr(_tree()) == "Tree(3 files, r0)"
    with pytest.raises(TypeError):
        hash(_tree())


@given(st.dictionaries(st.lists(st.sampled_from(["a", "b", "c.py"]), min_size=1, max_size=4)
                       .map("/".join), st.binary(max_size=4), max_size=12))
def test_states_are_the_files_of_items(files: dict[str, bytes]) -> None:
    try:
        tree = Tree.from_files({path: FileState.from_bytes(data) for path, data in files.items()})
    except PathRefused:
        assume(False)  # a file and a folder of one name: no tree to walk
        raise
    walked = list(tree.states())
    listed = [state for _, state in tree.items()]
    assert sorted(map(id, walked)) == sorted(map(id, listed))
    assert len(walked) == len(files)


def test_mixed_file_changed_lines_keep_the_endings_of_the_lines_they_replace() -> None:
    # QA pass 84a: "c = 3\r\n" edited to "c = 30" became "c = 30\n" (the dominant ending,
    # LF by a tie), a change the model never asked for.
    state = FileState.from_bytes(b"a = 1\r\nb = 2\nc = 3\r\nd = 4\n")
    assert state.with_lines(["a = 1", "b = 20", "c = 30", "d = 4"]).data == (
        b"a = 1\r\nb = 20\nc = 30\r\nd = 4\n")


def test_mixed_file_lines_added_among_changed_ones_take_the_ending_above() -> None:
    state = FileState.from_bytes(b"top\nx\r\ny\nz\r\nend\n")
    new = state.with_lines(["top", "x", "inserted", "y", "Z", "end"])
    # x and y unchanged (their own), "inserted" after the CRLF line x, Z replaces z.
    assert new.data == b"top\nx\r\ninserted\r\ny\nZ\r\nend\n"


def test_mixed_file_uniform_replaced_run_gives_its_ending_to_every_new_line() -> None:
    state = FileState.from_bytes(b"a\nb\r\nc\r\nd\n")
    assert state.with_lines(["a", "B1", "B2", "B3", "d"]).data == b"a\nB1\r\nB2\r\nB3\r\nd\n"


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "dd", ""]),
                          st.sampled_from(["\n", "\r\n"])), min_size=2, max_size=12),
       st.data())
def test_mixed_file_splice_changes_no_ending_of_a_line_it_keeps(
        lines: list[tuple[str, str]], data: st.DataObject) -> None:
    state = FileState.from_bytes("".join(line + end for line, end in lines).encode())
    assume(state.eol == "mixed")
    lo = data.draw(st.integers(0, len(lines) - 1))
    hi = data.draw(st.integers(lo + 1, len(lines)))
    replacement = data.draw(st.lists(st.sampled_from(["X", "Y", "a"]), max_size=4))
    kept_after = [end for _, end in lines[hi:]]
    new_lines = [line for line, _ in lines[:lo]] + replacement + [
        line for line, _ in lines[hi:]]
    assume(new_lines)
    parts = (state.splice(lo, hi, replacement).text or "").split("\n")
    assert parts[-1] == ""  # the final newline kept
    ends = ["\r\n" if part.endswith("\r") else "\n" for part in parts[:-1]]
    assert len(ends) == len(new_lines)
    # Every line before and after the replaced stretch keeps its ending...
    assert ends[:lo] == [end for _, end in lines[:lo]]
    assert ends[len(ends) - len(kept_after):] == kept_after
    # ... and replaced line for line, each new line takes its old line's.
    if len(replacement) == hi - lo:
        assert ends[lo:hi] == [end for _, end in lines[lo:hi]]
    # Replacing lines that all ended alike, every new line ends so.
    if replacement and len({end for _, end in lines[lo:hi]}) == 1:
        assert set(ends[lo : lo + len(replacement)]) == {lines[lo][1]}


@pytest.mark.parametrize("shape", ["drop-one", "every-fifth-gone", "insert-and-change"])
def test_a_big_block_of_a_mixed_file_keeps_every_unchanged_lines_ending(shape: str) -> None:
    """QA pass s28 (F8): past 4,000,000 old x new lines the block's every line took the
    ending most of them had, unchanged lines too (700 CRLF lines written LF, exit 0)."""
    lines = [(f"line {i}" if i % 7 else "", "\r\n" if i % 3 == 0 else "\n")
             for i in range(2_200)]
    state = FileState.from_bytes("".join(t + e for t, e in lines).encode())
    assert state.eol == "mixed"
    if shape == "drop-one":
        kept = [pair for i, pair in enumerate(lines) if i != 1_000]
    elif shape == "every-fifth-gone":
        kept = [pair for i, pair in enumerate(lines) if i % 5 != 2]
    else:
        kept = list(lines)
        kept[500] = ("changed", lines[500][1])
        kept.insert(1_500, ("new", lines[1_499][1]))
    new = state.splice(0, len(lines), [text for text, _ in kept])
    assert new.data == "".join(t + e for t, e in kept).encode()
