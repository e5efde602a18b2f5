"""Structural console commands on the virtual tree, and undoing them."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.engine.structural import CommandResult, apply_command, apply_commands
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.model.records import CommandName, ConsoleCommand, Span
from reviewtui.core.model.tree import FileState, Tree, tree_from_bytes

FILES = {
    "src/a.js": b"a\n",
    "src/b.jsx": b"b\r\n",
    "src/c.jsx": b"c",
    "src/data.json": b"{}\n",
    "src/util/helpers.js": b"h\n",
    "lib/x.js": b"x\n",
    "dist/app.js": b"d\n",
    "dist/css/app.css": b"c\n",
    "logo.png": b"\x89PNG\x00\x00",
    "README.md": b"# r\n",
}


def cmd(line: str) -> ConsoleCommand:
    """A command as the protocol parser builds it (``-f`` lifted into ``force``)."""
    name, *words = shlex.split(line.lstrip(":"))
    force = "-f" in words
    args = tuple(w for w in words if w != "-f")
    return ConsoleCommand(CommandName(name), args, force, line, Span(1, 1))


def run(state: StructuralState, *lines: str) -> tuple[StructuralState, CommandResult]:
    result = CommandResult(False, "no command")
    for line in lines:
        state, result = apply_command(state, cmd(line))
    return state, result


@pytest.fixture
def start() -> StructuralState:
    return StructuralState(tree_from_bytes(FILES))


# --- :rm -----------------------------------------------------------------------------

def test_rm_file_keeps_its_content_for_unrm(start: StructuralState) -> None:
    state, result = run(start, ":rm src/a.js")
    assert result.ok
    assert result.changes == (("src/a.js", None),)
    assert "src/a.js" not in state.tree
    assert state.removed["src/a.js"] is start.tree.get("src/a.js")
    assert result.ledger == "rm src/a.js r0->r1"


def test_rm_directory_removes_everything_under_it(start: StructuralState) -> None:
    state, result = run(start, ":rm dist")
    assert result.ok
    assert [old for old, _ in result.changes] == ["dist/app.js", "dist/css/app.css"]
    assert not state.tree.is_dir("dist")


def test_rm_double_star_glob(start: StructuralState) -> None:
    state, result = run(start, ":rm src/**/*.js")
    assert result.ok
    assert [old for old, _ in result.changes] == ["src/a.js", "src/util/helpers.js"]


def test_rm_glob_matching_nothing_is_an_error_but_other_args_apply(
    start: StructuralState,
) -> None:
    state, result = run(start, ":rm *.txt README.md")
    assert not result.ok
    assert result.rule == "glob-matched-nothing"
    assert result.changes == (("README.md", None),)
    assert "README.md" not in state.tree
    assert "*.txt" in result.message
    assert result.ledger.endswith("r0->r1 glob-matched-nothing")


def test_rm_only_bad_args_changes_nothing(start: StructuralState) -> None:
    state, result = run(start, ":rm nope.js")
    assert not result.ok
    assert result.rule == "no-such-path"
    assert state is start
    assert result.ledger == "rm nope.js r0 no-such-path"


def test_rm_binary_file(start: StructuralState) -> None:
    state, result = run(start, ":rm logo.png")
    assert result.ok
    assert state.removed["logo.png"].binary


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        (":rm /etc/passwd", "absolute-path"),
        (":rm ../x", "parent-escape"),
        (":rm .git/config", "git-dir"),
        (":mv src/a.js ~/a.js", "home-path"),
        (":unrm C:/x", "drive-letter"),
    ],
)
def test_refused_paths_fail_with_the_refusal_rule(
    start: StructuralState, line: str, rule: str,
) -> None:
    state, result = run(start, line)
    assert not result.ok
    assert result.rule == rule
    assert state is start


# --- :mv -----------------------------------------------------------------------------

def test_mv_file(start: StructuralState) -> None:
    state, result = run(start, ":mv src/a.js src/main.js")
    assert result.ok
    assert result.changes == (("src/a.js", "src/main.js"),)
    assert state.tree.get("src/main.js") is start.tree.get("src/a.js")
    assert result.ledger == "mv src/a.js src/main.js r0->r1"


def test_mv_onto_existing_file_needs_force(start: StructuralState) -> None:
    state, result = run(start, ":mv src/a.js lib/x.js")
    assert not result.ok
    assert result.rule == "dest-exists"
    assert state is start
    assert "-f" in result.message


def test_mv_force_overwrites_and_keeps_the_old_file_recoverable(
    start: StructuralState,
) -> None:
    state, result = run(start, ":mv -f src/a.js lib/x.js")
    assert result.ok
    assert result.changes == (("lib/x.js", None), ("src/a.js", "lib/x.js"))
    assert state.tree.get("lib/x.js") is start.tree.get("src/a.js")
    assert state.removed["lib/x.js"] is start.tree.get("lib/x.js")
    assert result.ledger == "mv -f src/a.js lib/x.js r0->r1"


@pytest.mark.parametrize("dest", ["lib/", "lib", "newdir/"])
def test_mv_into_directory(start: StructuralState, dest: str) -> None:
    state, result = run(start, f":mv src/a.js {dest}")
    target = dest.rstrip("/") + "/a.js"
    assert result.ok
    assert result.changes == (("src/a.js", target),)
    assert target in state.tree


def test_mv_into_root(start: StructuralState) -> None:
    state, result = run(start, ":mv src/util/helpers.js .")
    assert result.ok
    assert "helpers.js" in state.tree


def test_mv_directory(start: StructuralState) -> None:
    state, result = run(start, ":mv src/util lib/")
    assert result.ok
    assert result.changes == (("src/util/helpers.js", "lib/util/helpers.js"),)
    state, result = run(start, ":mv dist build")
    assert result.ok
    assert state.tree.files_under("build") == ("build/app.js", "build/css/app.css")


def test_mv_glob_into_directory(start: StructuralState) -> None:
    state, result = run(start, ":mv src/*.jsx components")
    assert result.ok
    assert state.tree.files_under("components") == ("components/b.jsx", "components/c.jsx")


def test_mv_missing_source_and_into_itself(start: StructuralState) -> None:
    assert run(start, ":mv nope.js x.js")[1].rule == "no-such-path"
    assert run(start, ":mv src src/util/")[1].rule == "into-itself"
    assert run(start, ":mv src/*.py lib/")[1].rule == "glob-matched-nothing"


def test_mv_file_cannot_replace_a_directory_even_with_force(start: StructuralState) -> None:
    result = run(start, ":mv -f README.md src/util/helpers.js/x")[1]
    assert result.rule == "dest-exists"
    result = run(start, ":mv -f lib/x.js src/util/helpers.js")[1]
    assert result.ok  # a file onto a file is fine with -f


def test_mv_binary_file(start: StructuralState) -> None:
    state, result = run(start, ":mv logo.png assets/")
    assert result.ok
    assert state.tree.get("assets/logo.png") is start.tree.get("logo.png")


def test_mv_to_the_same_place_changes_nothing(start: StructuralState) -> None:
    state, result = run(start, ":mv src/a.js src/")
    assert result.ok
    assert result.changes == ()
    assert state.tree is start.tree


# --- :rn -----------------------------------------------------------------------------

def test_rn_file_with_sibling_name(start: StructuralState) -> None:
    state, result = run(start, ":rn src/a.js main.js")
    assert result.ok
    assert result.changes == (("src/a.js", "src/main.js"),)


def test_rn_file_with_full_path(start: StructuralState) -> None:
    state, result = run(start, ":rn src/a.js lib/a.js")
    assert result.ok
    assert "lib/a.js" in state.tree


def test_rn_directory(start: StructuralState) -> None:
    state, result = run(start, ":rn src/util helpers")
    assert result.ok
    assert result.changes == (("src/util/helpers.js", "src/helpers/helpers.js"),)


def test_rn_substring_across_several_files(start: StructuralState) -> None:
    state, result = run(start, ":rn .jsx .tsx")
    assert result.ok
    assert result.changes == (("src/b.jsx", "src/b.tsx"), ("src/c.jsx", "src/c.tsx"))
    assert state.tree.get("src/b.tsx") is start.tree.get("src/b.jsx")


def test_rn_extension_only_matches_at_the_end(start: StructuralState) -> None:
    state, result = run(start, ":rn .js .ts")
    assert result.ok
    assert "src/data.json" in state.tree  # not "src/data.tson"
    assert {new for _, new in result.changes} == {
        "src/a.ts", "src/util/helpers.ts", "lib/x.ts", "dist/app.ts"}


def test_rn_substring_inside_names(start: StructuralState) -> None:
    state, result = run(start, ":rn help assist")
    assert result.ok
    assert result.changes == (("src/util/helpers.js", "src/util/assisters.js"),)


def test_rn_no_match_and_collisions(start: StructuralState) -> None:
    assert run(start, ":rn .vue .svelte")[1].rule == "no-such-path"
    assert run(start, ":rn src/nope.js x.js")[1].rule == "no-such-path"
    collide = StructuralState(start.tree.set("src/b.js", FileState.from_bytes(b"old")))
    assert run(collide, ":rn .jsx .js")[1].rule == "dest-exists"
    forced, result = run(collide, ":rn -f .jsx .js")
    assert result.ok
    assert forced.removed["src/b.js"].data == b"old"


def test_rn_to_git_dir_is_refused(start: StructuralState) -> None:
    assert run(start, ":rn README.md .git")[1].rule == "git-dir"


# --- :undo and :unrm -----------------------------------------------------------------

def test_undo_reverses_only_the_last_of_two_commands(start: StructuralState) -> None:
    state, _ = run(start, ":mv src/a.js lib/", ":rm README.md")
    state, result = run(state, ":undo")
    assert result.ok
    assert result.changes == ((None, "README.md"),)
    assert "README.md" in state.tree
    assert "lib/a.js" in state.tree
    state, result = run(state, ":undo")
    assert result.ok
    assert state.tree == start.tree
    assert run(state, ":undo")[1].rule == "nothing-to-undo"


def test_undo_of_a_glob_rm_restores_every_file(start: StructuralState) -> None:
    state, _ = run(start, ":rm **/*.js")
    assert state.tree.files_under("dist") == ("dist/css/app.css",)
    state, result = run(state, ":undo")
    assert result.ok
    assert state.tree == start.tree
    assert len(result.changes) == 4
    assert dict(state.removed) == {}


def test_undo_of_mv_force_brings_back_the_overwritten_file(start: StructuralState) -> None:
    state, _ = run(start, ":mv -f src/a.js lib/x.js", ":undo")
    assert state.tree == start.tree
    assert state.tree.get("lib/x.js") is start.tree.get("lib/x.js")


def test_undo_keeps_later_content_edits(start: StructuralState) -> None:
    state, _ = run(start, ":mv src/a.js lib/a.js")
    edited = state.tree.get("lib/a.js")
    assert edited is not None
    state = StructuralState(state.tree.set("lib/a.js", edited.with_lines(["edited"])),
                            state.undo_stack, state.removed)
    state, result = run(state, ":undo")
    assert result.ok
    assert state.tree.get("src/a.js") == FileState.from_bytes(b"edited\n")


def test_undo_refuses_when_the_old_path_was_filled_again(start: StructuralState) -> None:
    state, _ = run(start, ":rm README.md")
    refilled = StructuralState(state.tree.set("README.md", FileState.from_bytes(b"new")),
                               state.undo_stack, state.removed)
    again, result = run(refilled, ":undo")
    assert not result.ok
    assert result.rule == "dest-exists"
    assert again is refilled


def test_unrm_restores_content_even_after_later_commands(start: StructuralState) -> None:
    state, _ = run(start, ":rm src/c.jsx", ":mv lib dist/", ":rn README.md README.txt")
    state, result = run(state, ":unrm src/c.jsx")
    assert result.ok
    assert result.changes == ((None, "src/c.jsx"),)
    assert state.tree.get("src/c.jsx") is start.tree.get("src/c.jsx")
    assert "src/c.jsx" not in state.removed
    state, result = run(state, ":undo")  # undoes the :unrm
    assert result.ok
    assert "src/c.jsx" not in state.tree
    assert "src/c.jsx" in state.removed


def test_unrm_directory_and_glob(start: StructuralState) -> None:
    state, _ = run(start, ":rm dist src/*.jsx")
    state, result = run(state, ":unrm dist src/*.jsx")
    assert result.ok
    assert state.tree == start.tree


def test_unrm_errors(start: StructuralState) -> None:
    assert run(start, ":unrm src/a.js")[1].rule == "not-removed"
    state, _ = run(start, ":rm README.md")
    state = StructuralState(state.tree.set("README.md", FileState.from_bytes(b"new")),
                            state.undo_stack, state.removed)
    assert run(state, ":unrm README.md")[1].rule == "dest-exists"


def test_bad_arguments_and_unknown_commands(start: StructuralState) -> None:
    weird = ConsoleCommand(CommandName.MV, ("only-one",), False, ":mv only-one", Span(1, 1))
    assert apply_command(start, weird)[1].rule == "bad-command-arguments"
    assert run(start, ":undo extra")[1].rule == "bad-command-arguments"
    unknown = ConsoleCommand("cp", ("a", "b"), False, ":cp a b", Span(1, 1))  # type: ignore[arg-type]
    state, result = apply_command(start, unknown)
    assert result.rule == "unknown-command"
    assert state is start


def test_apply_commands_runs_in_order(start: StructuralState) -> None:
    state, results = apply_commands(start, [cmd(":mv src/a.js b.js"), cmd(":rm nope"),
                                            cmd(":rm b.js")])
    assert [r.ok for r in results] == [True, False, True]
    assert "b.js" not in state.tree
    assert state.tree.revision == 2


# --- properties ----------------------------------------------------------------------

_NAMES = st.sampled_from(["a", "b", "c.js", "d.py", "sub"])
_PATHS = st.lists(_NAMES, min_size=1, max_size=3).map("/".join)


@st.composite
def _trees(draw: st.DrawFn) -> Tree:
    files: dict[str, FileState] = {}
    for path in draw(st.lists(_PATHS, min_size=1, max_size=8)):
        try:
            files[path] = FileState.from_bytes(path.encode())
            Tree.from_files(files)
        except Exception:  # a file where another path needs a directory: drop it
            del files[path]
    return Tree.from_files(files)


@given(_trees(), _PATHS, _PATHS, st.booleans(), st.booleans())
def test_mv_then_undo_returns_the_identical_tree(
    tree: Tree, src: str, dest: str, force: bool, slash: bool,
) -> None:
    start = StructuralState(tree)
    line = f":mv {'-f ' if force else ''}{src} {dest}{'/' if slash else ''}"
    state, result = apply_command(start, cmd(line))
    if not result.ok or not result.changes:
        assert state.tree is tree
        return
    undone, result = apply_command(state, cmd(":undo"))
    assert result.ok
    assert undone.tree == tree
    assert all(undone.tree.get(p) is s for p, s in tree.items())
    assert dict(undone.removed) == {}


@given(_trees(), st.lists(_PATHS, min_size=1, max_size=3))
def test_rm_then_undo_returns_the_identical_tree(tree: Tree, paths: list[str]) -> None:
    state, result = apply_command(StructuralState(tree), cmd(":rm " + " ".join(paths)))
    if result.changes:
        undone, result = apply_command(state, cmd(":undo"))
        assert result.ok
        assert undone.tree == tree
        assert all(undone.tree.get(p) is s for p, s in tree.items())


_COMMANDS = st.one_of(
    st.builds(lambda f, s, d, slash: f":mv {'-f ' if f else ''}{s} {d}{'/' if slash else ''}",
              st.booleans(), _PATHS, _PATHS, st.booleans()),
    st.builds(lambda f, o, n: f":rn {'-f ' if f else ''}{o} {n}",
              st.booleans(), _PATHS | st.sampled_from([".js", ".py", "b"]),
              _NAMES | st.sampled_from([".ts", "e"])),
    st.builds(lambda ps: ":rm " + " ".join(ps),
              st.lists(_PATHS | st.sampled_from(["**/*.js", "*/b", "sub/**"]), min_size=1,
                       max_size=2)),
    st.builds(lambda p: f":unrm {p}", _PATHS),
    st.just(":undo"),
)


@given(_trees(), st.lists(_COMMANDS, max_size=8))
def test_undoing_every_command_returns_to_the_start(tree: Tree, lines: list[str]) -> None:
    state = StructuralState(tree)
    for line in lines:
        state, _ = apply_command(state, cmd(line))
    for _ in range(len(state.undo_stack)):
        state, result = apply_command(state, cmd(":undo"))
        assert result.ok, result.message
    assert state.tree == tree
    assert all(state.tree.get(p) is s for p, s in tree.items())
