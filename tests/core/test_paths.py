"""Path normalisation and refusals, globbing, reserved paths and symlink escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.errors import PathRefused
from reviewtui.core.paths.safety import (
    ReservedRules,
    escapes_via_symlink,
    expand_glob,
    glob_match,
    is_glob,
    normalize_path,
    review_file_of,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("src/app.js", "src/app.js"),
        ("./src/app.js", "src/app.js"),
        ("src//app.js", "src/app.js"),
        ("src/./app.js", "src/app.js"),
        ("src/", "src"),
        ("a/../b.js", "b.js"),
        ("a/b/../../c/d.js", "c/d.js"),
        ("  src/a.js ", "src/a.js"),
        ("src / a.js", "src/a.js"),
        ("cafe\u0301.txt", "caf\u00e9.txt"),  # NFD in, NFC out
        (".gitignore", ".gitignore"),
        (".github/workflows/ci.yml", ".github/workflows/ci.yml"),
        ("pages/[id].js", "pages/[id].js"),
        ("a/~b", "a/~b"),
        ("a/C:", "a/C:"),
    ],
)
def test_normalize_path_canonical_form(raw: str, expected: str) -> None:
    assert normalize_path(raw) == expected


@pytest.mark.parametrize(
    ("raw", "rule"),
    [
        ("/etc/passwd", "absolute-path"),
        ("//server/share/x", "absolute-path"),
        ("C:/Users/x.txt", "drive-letter"),
        ("c:x.txt", "drive-letter"),
        ("~/notes.txt", "home-path"),
        ("~root/x", "home-path"),
        ("./~/x", "home-path"),
        ("a/../C:/x", "drive-letter"),
        ("src\\app.js", "backslash"),
        ("../outside.js", "parent-escape"),
        ("a/../../outside.js", "parent-escape"),
        ("a\x00b", "control-character"),
        ("a\nb", "control-character"),
        ("a\tb", "control-character"),
        ("a\x7fb", "control-character"),
        ("evil\u202etxt.js", "control-character"),
        (".git", "git-dir"),
        (".git/config", "git-dir"),
        ("sub/.git/hooks/pre-commit", "git-dir"),
        (".git /config", "git-dir"),
        (".GIT/config", "git-dir"),
        ("a/../.git/HEAD", "git-dir"),
        # (the git directory's aliases on HFS+ and NTFS, as git refuses them: QA s53
        # helper-221)
        (".git\u200c/config", "git-dir"),
        ("sub/.g\ufeffit/hooks/x", "git-dir"),
        ("git~1/config", "git-dir"),
        ("GIT~1/config", "git-dir"),
        (".git./config", "git-dir"),
        (".git. ./config", "git-dir"),
        (".git::$INDEX_ALLOCATION/config", "git-dir"),
        ("GIT~1./config", "git-dir"),
        ("git~1:$DATA/config", "git-dir"),
        ("Git~1 ./config", "git-dir"),
        ("", "empty-path"),
        ("   ", "empty-path"),
        (".", "empty-path"),
        ("./", "empty-path"),
        ("a/..", "empty-path"),
    ],
)
def test_normalize_path_refusals_carry_rule_and_path(raw: str, rule: str) -> None:
    with pytest.raises(PathRefused) as info:
        normalize_path(raw)
    err = info.value
    assert err.rule == rule
    assert err.path == raw
    assert repr(raw) in err.message
    assert f"[{rule}]" in str(err)


_PIECES = st.sampled_from(
    ["a", "b.js", ".", "..", "", ".git", ".GIT", "~", "C:", "\\", "\x00", "e\u0301", " ", "*",
     ".git.", "\u200c", "git~1"]
)


@given(st.lists(_PIECES, max_size=6).map("/".join) | st.text(max_size=20))
def test_normalize_path_invariants(raw: str) -> None:
    try:
        path = normalize_path(raw)
    except PathRefused:
        return
    parts = path.split("/")
    assert ".." not in parts
    assert "." not in parts
    assert "" not in parts
    assert not path.startswith("/")
    assert all(p.casefold() != ".git" for p in parts)
    assert normalize_path(path) == path


@pytest.mark.parametrize("name", [".gitignore", ".github/x", "git~2/x", ".git.d/x", "git/x",
                                  ".gitmodules", "a/.git-blame-ignore-revs"])
def test_names_like_the_git_directory_are_files(name: str) -> None:
    assert normalize_path(name) == name


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("*.js", "a.js", True),
        ("*.js", "src/a.js", False),
        ("src/*.js", "src/a.js", True),
        ("src/*.js", "src/lib/a.js", False),
        ("**/*.pyc", "a.pyc", True),
        ("**/*.pyc", "x/y/a.pyc", True),
        ("dist/**", "dist/a.js", True),
        ("dist/**", "dist/a/b/c.js", True),
        ("dist/**", "dist", False),
        ("dist/**", "distro/a.js", False),
        ("src/**/test.py", "src/test.py", True),
        ("src/**/test.py", "src/a/b/test.py", True),
        ("src/**/**/test.py", "src/test.py", True),
        ("**", "a/b/c", True),
        ("a?.js", "ab.js", True),
        ("a?.js", "a/.js", False),
        ("a**b", "axxb", True),
        ("a**b", "a/b", False),
        ("a.b", "axb", False),
        ("pages/[id].js", "pages/[id].js", True),
        ("pages/[id].js", "pages/i.js", False),
    ],
)
def test_glob_match(pattern: str, path: str, matches: bool) -> None:
    assert glob_match(pattern, path) is matches


def test_expand_glob_is_sorted() -> None:
    paths = ["z/a.js", "a.js", "m/n/b.js", "c.py"]
    assert expand_glob("**/*.js", paths) == ["a.js", "m/n/b.js", "z/a.js"]
    assert expand_glob("*.md", paths) == []


def test_is_glob() -> None:
    assert is_glob("src/*.js")
    assert is_glob("a?.js")
    assert not is_glob("pages/[id].js")


def test_reserved_rules_name_the_config_entry_first() -> None:
    rules = ReservedRules.from_patterns(["dist/**", "*.lock"])
    assert rules.reserved_by("dist/app.js") == 'reviewtui.toml [reserved] paths "dist/**"'
    assert rules.reserved_by("yarn.lock") == 'reviewtui.toml [reserved] paths "*.lock"'
    assert rules.reserved_by("src/app.js") is None


@pytest.mark.parametrize(
    ("path", "label"),
    [
        ("package-lock.json", "package-lock.json"),
        ("web/package-lock.json", "package-lock.json"),
        ("poetry.lock", "poetry.lock"),
        ("Cargo.lock", "Cargo.lock"),
        ("static/app.min.js", "*.min.js"),
        ("a.min.css", "*.min.css"),
        ("pkg/__pycache__/m.cpython-311.pyc", "*.pyc"),
        ("pkg/__pycache__/notes.txt", "__pycache__/"),
        ("node_modules/left-pad/index.js", "node_modules/"),
        ("packages/ui/node_modules/x/y.js", "node_modules/"),
    ],
)
def test_reserved_rules_builtin_generated_files(path: str, label: str) -> None:
    # Built-in generated files are pointed out, no longer reserved (issue 14, item 7).
    assert ReservedRules().reserved_by(path) is None
    assert ReservedRules().generated_by(path) == label


def test_reserved_rules_builtins_can_be_turned_off() -> None:
    rules = ReservedRules.from_patterns([], builtins=False)
    assert rules.generated_by("package-lock.json") is None


def test_reserved_rules_source_names_the_config_file() -> None:
    rules = ReservedRules.from_patterns(["gen/**"], source="sub/reviewtui.toml")
    assert rules.reserved_by("gen/x") == 'sub/reviewtui.toml [reserved] paths "gen/**"'


@pytest.mark.parametrize(
    ("path", "symlinks", "escapes"),
    [
        ("src/a.js", {}, False),
        ("out/a.js", {"out": "/tmp/elsewhere"}, True),
        ("out/a.js", {"out": "/home/me/project/build"}, False),
        ("out/a.js", {"out": "/home/me/projectx"}, True),
        ("up/a.js", {"up": ".."}, True),
        ("pkg/app/shared/a.js", {"pkg/app/shared": "../shared"}, False),
        ("pkg/app/shared/a.js", {"pkg/app/shared": "../../../x"}, True),
        ("a/b/c.js", {"a": "x", "x/b": "../.."}, True),
        ("a/b/c.js", {"a": "x", "x/b": "y"}, False),
        ("loop/a", {"loop": "loop"}, True),
        ("link", {"link": "../secret.txt"}, True),
        ("docs/guide.md", {"docs": "."}, False),
    ],
)
def test_escapes_via_symlink(path: str, symlinks: dict[str, str], escapes: bool) -> None:
    assert escapes_via_symlink(path, symlinks, root="/home/me/project") is escapes


def test_absolute_symlink_without_root_counts_as_escaping() -> None:
    assert escapes_via_symlink("out/a.js", {"out": "/home/me/project/build"})


OWN = {"s.md": "the session file", "s.md.review.json": "the review state",
       "s.md.review.blobs": "the review state's blob folder"}


@pytest.mark.parametrize(("path", "mine"), [
    ("s.md", "s.md"), ("s.md.review.json", "s.md.review.json"),
    ("S.MD.Review.JSON", "s.md.review.json"),  # one file on macOS and Windows
    ("s.md.review.blobs/ab12", "s.md.review.blobs"),
    ("s.md.review.json.written", "s.md.review.json"),  # named after the closest one
    ("s.md.review.json.corrupt-1", "s.md.review.json"), ("s.md.orig", "s.md"),
    ("s.mdx", None), ("sub/s.md", None), ("s", None), ("s.md.review", "s.md")])
def test_review_file_of(path: str, mine: str | None) -> None:
    assert review_file_of(path, OWN) == mine
