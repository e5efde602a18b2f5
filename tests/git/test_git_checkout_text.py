"""Text a range leaves on a checkout that converts it (``core.autocrlf``, ``eol``,
``working-tree-encoding``): written as ``git checkout`` writes it there.

The review wrote a new file, or a file git had left as it stores it (no newline, CRLF in
the blob, empty), as git stores the new version: LF where git writes CRLF, UTF-8 where it
writes UTF-16 (and ``--commit`` committed that garbled), exit 0 (QA s37 helper-111 F3,
F4, F6). The measure of every test: what a fresh clone of the source at B holds, with
the same configuration and attributes, compared with the whole review root.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gitkit import commit_all, configure, disk_of, git, new_repo, stored_commits, tree_of
from reviewtui.cli import main
from reviewtui.core.errors import DecisionRefused

if TYPE_CHECKING:
    from reviewtui.core.engine import Decision

AUTOCRLF = ("core.autocrlf=true",)
TEXT3 = b"line one\nline two\nline three\n"


def _source(tmp_path: Path, before: dict[str, bytes], after: dict[str, bytes]
            ) -> tuple[Path, str, str]:
    """A repository whose files are ``before`` (A) and then ``after`` (B, None: removed),
    each stored as given."""
    source = new_repo(tmp_path / "source")
    made = []
    for files in (before, after):
        for name, data in files.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes(data)
        made.append(commit_all(source, "step"))  # (its id read from .git: no process)
    return source, made[0], made[1]


def _clone(source: Path, where: Path, rev: str, config: tuple[str, ...],
           info: str = "") -> Path:
    """A clone at ``rev`` (``info``: its .git/info/attributes, set before the checkout)."""
    settings = [part for setting in config for part in ("-c", setting)]
    git(where.parent, "clone", "-q", "--no-checkout", *settings, str(source), str(where))
    clone = where
    if info:
        (clone / ".git" / "info" / "attributes").write_text(info)
    git(clone, "checkout", "-q", "--detach", rev)
    configure(clone, user__name="R", user__email="r@example.com")
    return clone


def _replay(tmp_path: Path, before: dict[str, bytes], after: dict[str, bytes],
            config: tuple[str, ...] = AUTOCRLF, info: str = "",
            *extra: str) -> tuple[Path, Path, str]:
    """The range A..B applied on a checkout of A, and a fresh checkout of B beside it."""
    source, base, head = _source(tmp_path, before, after)
    repo = _clone(source, tmp_path / "review", base, config, info)
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes", *extra])
    assert code == 0
    return repo, _clone(source, tmp_path / "at-head", head, config, info), head


def test_a_new_file_is_written_with_the_checkouts_line_endings(tmp_path: Path) -> None:
    repo, want, _ = _replay(tmp_path, {"k.txt": b"k\n"},
                            {"new.txt": b"new\nfile\n", "sub/deep.md": b"# t\n\nx\n"})
    assert (repo / "new.txt").read_bytes() == b"new\r\nfile\r\n"
    assert disk_of(repo) == disk_of(want)


@pytest.mark.parametrize("before", [b"hello", b"a\r\nb\r\n", b""],
                         ids=["no-newline", "crlf-in-the-blob", "empty"])
def test_a_file_git_left_as_stored_takes_the_checkout_of_its_next_version(
        tmp_path: Path, before: bytes) -> None:
    """Git did not convert A's blob (nothing to convert, or CRLF stored), so the file had
    no CRLF of its own for the review to keep; git's checkout of B has CRLF."""
    repo, want, _ = _replay(tmp_path, {"f.txt": before}, {"f.txt": b"hello\nworld\n"})
    assert (repo / "f.txt").read_bytes() == b"hello\r\nworld\r\n"
    assert disk_of(repo) == disk_of(want)


def test_a_byte_order_mark_a_commit_drops_is_dropped_on_a_crlf_checkout(
        tmp_path: Path) -> None:
    """The file is CRLF on disk, the diff LF: its BOM was kept, exit 0 (found replaying
    Newtonsoft.Json's 9317d71a on an autocrlf clone)."""
    bom = "\ufeff".encode()
    repo, want, _ = _replay(tmp_path, {"f.cs": bom + b"a\nb\nc\n"}, {"f.cs": b"a\nB\nc\n"})
    assert (repo / "f.cs").read_bytes() == b"a\r\nB\r\nc\r\n"
    assert disk_of(repo) == disk_of(want)


def test_a_range_that_adds_an_eol_rule_refuses_the_files_it_governs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A range that adds ``eol=crlf`` for the files it edits and creates: their text was
    written as the review writes it, LF where git's checkout writes CRLF, exit 0 (QA s37
    helper-111 F6; following the attributes from commit to commit was tried in s38 and
    taken out: helper-116, helper-117). Refused now, named (``git-attributes``); the
    attribute file itself is written, and ``--commit`` commits nothing of the others."""
    source, base, head = _source(tmp_path, {"f.txt": b"a\n"},
                                 {".gitattributes": b"*.txt text eol=crlf\n",
                                  "f.txt": b"a\nb\n", "g.txt": b"g\n"})
    repo = _clone(source, tmp_path / "review", base, ())
    git(repo, "switch", "-q", "-c", "work")
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "this range changes how git checks f.txt out" in out
    assert "this range changes how git checks g.txt out" in out
    assert (repo / "f.txt").read_bytes() == b"a\n"
    assert not (repo / "g.txt").exists()
    committed = tree_of(repo, "HEAD")
    assert committed["f.txt"] == tree_of(source, base)["f.txt"]
    assert "g.txt" not in committed


def test_an_expanded_id_with_crlf_is_written_as_git_expands_it(tmp_path: Path) -> None:
    """``ident`` and autocrlf: git's checkout is not the blob with CRLF line endings
    alone (``$Id$`` is expanded), so it is kept as git wrote it, not as a CRLF flag."""
    repo, want, _ = _replay(tmp_path, {"k.txt": b"k\n"},
                            {"id.txt": b"$Id$\nline\n", "plain.txt": b"p\nq\n"},
                            AUTOCRLF, "id.txt ident\n")
    assert (repo / "id.txt").read_bytes().startswith(b"$Id: ")
    assert (repo / "plain.txt").read_bytes() == b"p\r\nq\r\n"
    assert disk_of(repo) == disk_of(want)


def test_a_utf16_checkout_gets_utf16_and_commits_the_blob(tmp_path: Path) -> None:
    """``working-tree-encoding``: the new file was written as UTF-8, which git then read as
    UTF-16 and committed garbled, exit 0."""
    repo, want, head = _replay(tmp_path, {"k": b"k\n"}, {"new.txt": "h\u00e9llo\n".encode()},
                               (), "*.txt text working-tree-encoding=UTF-16LE\n",
                               "--commit", "--branch", "reviewed")
    assert (repo / "new.txt").read_bytes() == "h\u00e9llo\n".encode("utf-16-le")
    assert disk_of(repo) == disk_of(want)
    source = tmp_path / "source"
    assert tree_of(repo, "reviewed") == tree_of(source, head)


def test_a_file_with_changes_of_its_own_keeps_the_reviews_bytes(tmp_path: Path) -> None:
    """A file that is not the blob the commit leaves (a line of the user's in it) is
    written as the review writes it: the user's line and the user's LF endings stay (git
    checks out no such file; writing B's checkout would drop the user's line)."""
    lines = [f"line {n}\n".encode() for n in range(10)]
    after = [b"LINE 0\n", *lines[1:]]
    source, base, head = _source(tmp_path, {"f.txt": b"".join(lines)},
                                 {"f.txt": b"".join(after)})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    assert (repo / "f.txt").read_bytes() == b"".join(lines).replace(b"\n", b"\r\n")
    (repo / "f.txt").write_bytes(b"".join([*lines[:9], b"mine\n"]))  # (LF: clean to git)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "f.txt").read_bytes() == b"".join([*after[:9], b"mine\n"])


def test_a_plain_checkout_asks_git_nothing_and_changes_no_operation(tmp_path: Path) -> None:
    from reviewtui.shell.git import Repo
    from reviewtui.shell.git_checkout import checkout_forms
    from reviewtui.shell.loader import load_session

    source, base, head = _source(tmp_path, {"f.txt": b"a\n"}, {"f.txt": b"a\nb\n",
                                                                "n.txt": b"n\n"})
    patch = tmp_path / "range.patch"
    patch.write_bytes(git_log(source, base, head))
    session = load_session(patch).session
    blobs = [op.git_forms.after_blob for t in session.turns for op in t.reply.ops
             if getattr(op, "git_forms", None) is not None]
    assert sorted(blobs) == sorted(git(source, "rev-parse", f"{head}:{name}").strip()
                                   for name in ("f.txt", "n.txt"))
    adjust = checkout_forms(Repo.at(source), base)
    assert adjust(session) is session


def git_log(source: Path, base: str, head: str) -> bytes:
    from reviewtui.shell.git import DIFF_ARGS

    out = git(source, "log", "--reverse", "--format=From %H Mon Sep 17 00:00:00 2001%n"
              "Subject: %s%n", *DIFF_ARGS, f"{base}..{head}")
    return out.encode()


def test_a_path_that_is_a_folder_then_a_file_costs_no_other_file_its_form(
        tmp_path: Path) -> None:
    """``x/y.txt`` then ``x``: git cannot hold both in one index; one such path left every
    file of the range written as git stores it, exit 0 (QA s38 helper-116 R9)."""
    source = new_repo(tmp_path / "source")
    steps: list[tuple[dict[str, bytes], list[str]]] = [
        ({"k": b"k\n"}, []),
        ({"x/y.txt": b"a\nb\n", "n.txt": b"line one\nline two\n"}, []),
        ({"x": b"a\nB\n"}, ["x/y.txt"]),
        ({"n.txt": b"line one\nline TWO\n"}, []),
    ]
    for files, removed in steps:
        for name in removed:
            (source / name).unlink()
            (source / name).parent.rmdir()
        for name, data in files.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes(data)
        git(source, "add", "-A")
        git(source, "commit", "-q", "-m", "step")
    base, head = (git(source, "rev-parse", rev).strip() for rev in ("HEAD~3", "HEAD"))
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "n.txt").read_bytes() == b"line one\r\nline TWO\r\n"
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", head, AUTOCRLF))


def test_an_untracked_file_holding_the_new_files_bytes_is_left_alone(
        tmp_path: Path) -> None:
    """Your own file where the range adds one, with the same bytes as git stores it: the
    review takes it as there (as before), and does not rewrite it in the checkout's form
    (git would refuse to overwrite it: QA s38 helper-116 R11)."""
    source, base, head = _source(tmp_path, {"k": b"k\n"}, {"n.txt": b"new\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    (repo / "n.txt").write_bytes(b"new\n")
    main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"])
    assert (repo / "n.txt").read_bytes() == b"new\n"


@pytest.mark.parametrize("how", ["skipped", "rejected"])
def test_forms_wait_for_the_attributes_they_were_asked_by(
        tmp_path: Path, how: str) -> None:
    """The turn that adds ``.gitattributes`` skipped (``--turns``) or its attributes
    rejected: no CRLF is written (QA s38 helper-116 R3: forms asked by the attributes to
    come were written, CRLF committed, exit 0). The files the rule governs are refused
    since s39 (their attributes change within the range)."""
    source = new_repo(tmp_path / "source")
    (source / "f.txt").write_bytes(b"one\ntwo\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "A")
    (source / ".gitattributes").write_bytes(b"*.txt eol=crlf\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "attributes")
    (source / "f.txt").write_bytes(b"one\nTWO\n")
    (source / "n.txt").write_bytes(b"n\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "edit")
    base, head = (git(source, "rev-parse", rev).strip() for rev in ("HEAD~2", "HEAD"))
    repo = _clone(source, tmp_path / "review", base, ())
    spec = f"{base}..{head}"
    if how == "skipped":
        assert main(["apply", "--git", spec, "--root", str(repo), "--yes",
                     "--turns", "2"]) == 1
    else:
        from reviewtui.core.engine import Decision
        from reviewtui.shell.git_sources import open_range
        from reviewtui.shell.review import Review

        opened = open_range(spec, str(repo), keep=True)
        try:
            with Review.open(opened.session, opened.root) as review:
                turns = review.session.turns
                for turn in turns:
                    for pos, op in enumerate(turn.reply.ops):
                        with contextlib.suppress(DecisionRefused):  # (git-attributes)
                            review.decide((turn.index, pos), Decision.reject()
                                          if op.path == ".gitattributes"
                                          else Decision.accept())
        finally:
            opened.close()
    assert not (repo / ".gitattributes").exists()
    # (refused since s39: the range changes how git checks them out)
    assert (repo / "f.txt").read_bytes() == b"one\ntwo\n"
    assert not (repo / "n.txt").exists()


def test_a_kept_session_restored_on_the_checkout_reads_the_forms(tmp_path: Path) -> None:
    """``restore`` of the session file a range keeps, on the checkout: read with the forms
    the review was made with. Read without them, checkpoint 0 was "restored" with the new
    file still there (QA s38 helper-116 R4)."""
    source, base, head = _source(tmp_path, {"f.txt": b"a\n"}, {"f.txt": b"a\nb\n",
                                                                "n.txt": b"new\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    state = tmp_path / "review.json"
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--state", str(state)]) == 0
    assert (repo / "n.txt").read_bytes() == b"new\r\n"
    kept = next((repo / ".git" / "reviewtui").glob("range-*.patch"))
    # (its own process, as a user runs it: this one remembers how --git read the file)
    done = subprocess.run([sys.executable, "-m", "reviewtui", "restore", str(kept), "--root",
                           str(repo), "--checkpoint", "0", "--yes", "--state", str(state)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "ignored the saved record" not in done.stderr
    assert not (repo / "n.txt").exists()
    assert (repo / "f.txt").read_bytes() == b"a\r\n"


def test_a_subfolder_as_root_is_refused(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A range's paths are from the repository's top: replayed under ``--root sub``,
    ``sub/n.txt`` was written as ``sub/sub/n.txt``, exit 0 (QA s38 helper-116 R10)."""
    source, base, head = _source(tmp_path, {"sub/k": b"k\n"}, {"sub/n.txt": b"n\n",
                                                                "top.txt": b"t\n"})
    repo = _clone(source, tmp_path / "review", base, ())
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo / "sub"),
                 "--yes"]) == 2
    assert "--root must be its top folder" in capsys.readouterr().err
    assert sorted(disk_of(repo)) == ["sub/k"]


def _steps(tmp_path: Path, steps: list[dict[str, bytes | None]]) -> tuple[Path, list[str]]:
    """A source repository of these commits (each: path -> bytes, None: removed)."""
    source = new_repo(tmp_path / "source")
    commits = []
    for files in steps:
        for name, data in files.items():
            if data is None:
                (source / name).unlink()
                continue
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes(data)
        git(source, "add", "-A")
        git(source, "commit", "-q", "--allow-empty", "-m", "step")
        commits.append(git(source, "rev-parse", "HEAD").strip())
    return source, commits


def test_a_file_written_crlf_is_written_as_stored_once_the_attributes_go(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One commit adds ``eol=crlf`` and edits f.txt, a later one removes the attribute, a
    third edits f.txt: following the attributes, the review kept the CRLF it had written,
    and ``--commit`` committed it (QA s38 helper-116 R1). A file whose attributes the
    range changes is refused now (``git-attributes``): no CRLF written or committed."""
    source, commits = _steps(tmp_path, [
        {"f.txt": b"one\ntwo\n"},
        {".gitattributes": b"*.txt eol=crlf\n", "f.txt": b"one\nTWO\n"},
        {".gitattributes": None},
        {"f.txt": b"one\ntwo\n"},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    git(repo, "switch", "-q", "-c", "work")
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"])
    assert code == 1
    assert "this range changes how git checks f.txt out" in capsys.readouterr().out
    assert (repo / "f.txt").read_bytes() == b"one\ntwo\n"
    assert tree_of(repo, "HEAD")["f.txt"] == tree_of(source, commits[0])["f.txt"]


def test_a_blob_with_a_cr_is_written_as_autocrlf_leaves_it(tmp_path: Path) -> None:
    """autocrlf writes a new file CRLF; a later commit puts a CR in one of its lines, and
    git checks that blob out as it is (a blob holding CR is not converted): the review
    wrote every line CRLF (QA s38 helper-116 R2)."""
    source, commits = _steps(tmp_path, [
        {"k": b"k\n"},
        {"n.txt": b"a\nb\nc\n"},
        {"n.txt": b"a\nB\r\nc\n"},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert (repo / "n.txt").read_bytes() == b"a\nB\r\nc\n"
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1],
                                           AUTOCRLF))


def test_a_crlf_file_with_a_change_of_yours_keeps_it_when_git_would_not_convert(
        tmp_path: Path) -> None:
    """The same range, but your own edit in n.txt before the commit that adds the CR: the
    file is not git's checkout of the blob before, so the review's bytes stand (your
    line kept), not git's checkout of B."""
    source, commits = _steps(tmp_path, [
        {"k": b"k\n"},
        {"n.txt": b"a\nb\nc\nd\ne\nf\ng\n"},
        {"n.txt": b"a\nB\r\nc\nd\ne\nf\ng\n"},
    ])
    repo = _clone(source, tmp_path / "review", commits[1], AUTOCRLF)
    (repo / "n.txt").write_bytes(b"a\r\nb\r\nc\r\nd\r\ne\r\nf\r\nmine\r\n")
    assert main(["apply", "--git", f"{commits[1]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert (repo / "n.txt").read_bytes().endswith(b"mine\r\n")


def test_an_autocrlf_with_no_value_is_true_as_git_reads_it(tmp_path: Path) -> None:
    """``[core] autocrlf`` with no value: true to git, which writes CRLF; read as false,
    the new file was written LF (QA s38 helper-117 N1)."""
    source, base, head = _source(tmp_path, {"k": b"k\n"}, {"n.txt": b"n\n"})
    repo = _clone(source, tmp_path / "review", base, ())
    with (repo / ".git" / "config").open("a") as config:
        config.write("[core]\n\tautocrlf\n")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "n.txt").read_bytes() == b"n\r\n"


def test_a_kept_session_on_a_checkout_of_another_commit_takes_no_forms(
        tmp_path: Path) -> None:
    """The kept session file applied on the checkout moved to another commit (whose
    attributes say ``-text``): its files were written by that commit's attributes, not
    the range's start's, and a forged header can name any start (QA s38 helper-117 N3):
    no forms, the text as the review writes it, as ``git cherry-pick`` writes it."""
    from reviewtui.shell.git_sources import open_range

    source, base, head = _source(tmp_path, {"k": b"k\n"}, {"n.txt": b"n\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    open_range(f"{base}..{head}", str(repo), keep=True).close()  # (the file kept, as open)
    kept = next((repo / ".git" / "reviewtui").glob("range-*.patch"))
    (repo / ".gitattributes").write_text("*.txt -text\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "attributes of mine")
    done = subprocess.run([sys.executable, "-m", "reviewtui", "apply", str(kept), "--root",
                           str(repo), "--yes"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (repo / "n.txt").read_bytes() == b"n\n"


def test_a_file_the_ranges_attributes_re_encode_is_refused_not_garbled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A range that adds ``working-tree-encoding=UTF-16LE`` for the files it writes: git
    writes them UTF-16, the review writes UTF-8, and ``--commit`` committed those bytes
    read as UTF-16 (garbled), exit 0 (QA s38 helper-117 N2, older). Refused now, named,
    exit 1; nothing of either file written, no garbled blob committed."""
    lines = b"".join(b"line %d\n" % n for n in range(12))
    source, base, head = _source(
        tmp_path, {"old.txt": lines, "k": b"k\n"},
        {".gitattributes": b"*.txt text working-tree-encoding=UTF-16LE\n",
         "new.txt": "h\u00e9\n".encode(),
         "old.txt": lines.replace(b"line 1\n", b"LINE 1\n").replace(b"line 10", b"LINE 10")})
    repo = _clone(source, tmp_path / "review", base, ())
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "reviewed"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "git checks new.txt out as UTF-16LE" in out
    assert not (repo / "new.txt").exists()
    assert (repo / "old.txt").read_bytes() == lines
    committed = tree_of(repo, "reviewed")
    assert "new.txt" not in committed
    assert committed["old.txt"] == tree_of(source, base)["old.txt"]


@pytest.mark.parametrize("after", [b"a\nb\nc\n", b"a\nB\nc\n"], ids=["endings-only", "edit"])
def test_a_normalizing_commit_commits_its_blob(tmp_path: Path, after: bytes) -> None:
    """A commit turning a CRLF blob into LF, on an autocrlf checkout: the disk gets git's
    checkout (CRLF), and ``--commit`` stages B's blob, not what ``git add`` makes of those
    bytes against A's CRLF blob (kept CRLF; an endings-only change made no commit: QA s38
    helper-118 F1)."""
    source, base, head = _source(tmp_path, {"f.txt": b"a\r\nb\r\nc\r\n"}, {"f.txt": after})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit"]) == 0
    assert (repo / "f.txt").read_bytes() == after.replace(b"\n", b"\r\n")
    assert tree_of(repo, "HEAD") == tree_of(source, head)


def test_a_new_crlf_blob_is_committed_with_its_crlf(tmp_path: Path) -> None:
    """B adds a file stored with CRLF: autocrlf checks it out as it is, and ``git add`` of
    those bytes against no blob stored LF (QA s38 helper-118 F2, older)."""
    source, base, head = _source(tmp_path, {"k": b"k\n"}, {"w.bat": b"@echo off\r\nx\r\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "reviewed"]) == 0
    assert tree_of(repo, "reviewed") == tree_of(source, head)


def test_a_utf8_working_tree_encoding_is_no_re_encoding(tmp_path: Path) -> None:
    """``working-tree-encoding=UTF-8`` (or utf8): git writes the bytes as they are, so the
    file is not refused (QA s38 helper-117's refusal did: helper-118 F5)."""
    source, base, head = _source(tmp_path, {"k": b"k\n"},
                                 {".gitattributes": b"*.txt working-tree-encoding=utf8\n",
                                  "n.txt": "h\u00e9\n".encode()})
    repo = _clone(source, tmp_path / "review", base, ())
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "n.txt").read_bytes() == "h\u00e9\n".encode()


def test_an_export_carries_the_blob_not_the_checkouts_crlf(tmp_path: Path) -> None:
    """A review on an autocrlf checkout writes a new file CRLF; its exported patch carried
    those CRs, and ``git apply`` on a checkout that converts nothing wrote them (QA s38
    helper-118 F6): the patch holds the blob, as ``git diff`` would."""
    source, base, head = _source(tmp_path, {"k": b"k\n"}, {"n.txt": b"a\nb\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    state = tmp_path / "review.json"
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--state", str(state)]) == 0
    assert (repo / "n.txt").read_bytes() == b"a\r\nb\r\n"
    patch = tmp_path / "out.patch"
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo), "--format",
                 "patch", "--state", str(state), "-o", str(patch)]) == 0
    plain = _clone(source, tmp_path / "plain", base, ())
    git(plain, "apply", str(patch))
    assert (plain / "n.txt").read_bytes() == b"a\nb\n"


def test_the_reviewers_own_text_is_not_rewritten(tmp_path: Path) -> None:
    """B gives line 2 a CR; the reviewer edits the hunk (``e``) to drop it: the file keeps
    the reviewer's text, not git's checkout of B (QA s38 helper-118 F7)."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    source, base, head = _source(tmp_path, {"f.txt": b"a\nb\nc\n"}, {"f.txt": b"a\nB\r\nc\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    opened = open_range(f"{base}..{head}", str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root) as review:
            review.decide((1, 0), Decision.edit(("a", "B", "c")))
    finally:
        opened.close()
    assert (repo / "f.txt").read_bytes() == b"a\r\nB\r\nc\r\n"


def test_your_lf_copy_of_a_crlf_checkout_keeps_its_lf(tmp_path: Path) -> None:
    """You saved f.txt with LF on an autocrlf checkout: the range's result is B's blob,
    but the file was not git's checkout of A's, so it is not rewritten CRLF (QA s38
    helper-118 F8: your line endings were lost without a word)."""
    source, base, head = _source(tmp_path, {"f.txt": b"a\nb\nc\n"}, {"f.txt": b"a\nB\nc\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    (repo / "f.txt").write_bytes(b"a\nb\nc\n")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "f.txt").read_bytes() == b"a\nB\nc\n"


def test_a_renamed_file_given_a_cr_is_written_as_autocrlf_leaves_it(tmp_path: Path) -> None:
    """A commit renames n.txt and puts a CR in one of its lines: autocrlf checks that blob
    out as it is (LF lines and the one CRLF), and the review wrote every line CRLF, exit
    0: a rename's section named no blob before, so the file's form before could not be
    checked (QA s38 helper-118 F3). The blob before is now checked where it was, at the
    old path."""
    lines = b"".join(b"line %d\n" % n for n in range(10))
    source, commits = _steps(tmp_path, [
        {"old/n.txt": lines},
        {"old/n.txt": None, "new/n.txt": lines.replace(b"line 4\n", b"LINE 4\r\n")},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    assert "rename from old/n.txt" in git(source, "show", "-M", commits[1])
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert (repo / "new" / "n.txt").read_bytes() == lines.replace(b"line 4\n", b"LINE 4\r\n")
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1],
                                           AUTOCRLF))


def test_a_renamed_file_you_changed_keeps_your_line_endings(tmp_path: Path) -> None:
    """The same rename, but you saved old/n.txt with LF: it is not git's checkout of the
    blob before, so the review's bytes stand (not rewritten as git's checkout of B)."""
    lines = b"".join(b"line %d\n" % n for n in range(10))
    source, commits = _steps(tmp_path, [
        {"old/n.txt": lines},
        {"old/n.txt": None, "new/n.txt": lines.replace(b"line 4\n", b"LINE 4\n")},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    (repo / "old" / "n.txt").write_bytes(lines)
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert (repo / "new" / "n.txt").read_bytes() == lines.replace(b"line 4\n", b"LINE 4\n")


def test_an_encoding_only_a_middle_commit_sets_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One commit adds ``working-tree-encoding=UTF-16LE`` and a file under it, the next
    takes the attribute away: the first commit's checkout writes the file UTF-16, and
    ``--commit`` committed the review's UTF-8 bytes read as UTF-16, garbled, exit 0; only
    the last commit's attributes were read (QA s38 helper-118 F4). Every attribute state
    of the range is read now: refused, nothing garbled committed."""
    source, commits = _steps(tmp_path, [
        {"k": b"k\n"},
        {".gitattributes": b"*.txt text working-tree-encoding=UTF-16LE\n",
         "n.txt": "h\u00e9\n".encode()},
        {".gitattributes": None},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit", "--branch", "reviewed"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "git checks n.txt out as UTF-16LE" in out
    assert not (repo / "n.txt").exists()
    for rev in git(repo, "rev-list", f"{commits[0]}..reviewed").split():
        assert "n.txt" not in tree_of(repo, rev)


def test_an_encoding_the_start_gives_is_read_when_the_range_drops_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The start gives n.txt ``working-tree-encoding=UTF-16LE``; a commit edits it and a
    later one drops the attribute. The edit was refused as an edit of a binary file (the
    UTF-16 checkout read as bytes), which says nothing of why; the start's attributes are
    one of the range's states now, and the refusal names the encoding."""
    text = "".join(f"l\u00e9 {n}\n" for n in range(8))
    edited = text.replace("l\u00e9 3", "L\u00c9 3")
    source, commits = _steps(tmp_path, [
        {".gitattributes": b"*.txt text working-tree-encoding=UTF-16LE\n",
         "n.txt": text.encode("utf-16le")},
        {"n.txt": edited.encode("utf-16le")},
        {".gitattributes": None, "n.txt": edited.encode(), "k": b"k\n"},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    before = (repo / "n.txt").read_bytes()
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "git checks n.txt out as UTF-16LE" in out
    assert (repo / "n.txt").read_bytes() == before


def test_every_attribute_state_of_a_range_is_read_merges_too(tmp_path: Path) -> None:
    """The attribute states a range's files are written under: the start's, then each
    first-parent commit's that changes one (a merge bringing a side branch's attributes
    counts, compared with its first parent), each distinct set once."""
    from reviewtui.shell.git import Repo
    from reviewtui.shell.git_attribute_states import attribute_states

    source = new_repo(tmp_path / "source")
    (source / "d").mkdir()
    (source / "d" / ".gitattributes").write_text("*.txt text\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "start")
    base = git(source, "rev-parse", "HEAD").strip()
    git(source, "switch", "-q", "-c", "side")
    (source / ".gitattributes").write_text("*.x binary\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "side")
    git(source, "switch", "-q", "-")
    (source / "k").write_text("k\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "main")
    git(source, "merge", "-q", "--no-edit", "side")
    git(source, "rm", "-q", "d/.gitattributes")
    git(source, "commit", "-q", "-m", "drop")
    (source / "k").write_text("k2\n")
    git(source, "commit", "-q", "-am", "again")
    states, governing = attribute_states(Repo.at(source), base, "HEAD")
    named = [sorted(line.rsplit(b"\t", 1)[1] for line in state.split(b"\0") if line)
             for state in states]
    assert named == [[b"d/.gitattributes"], [b".gitattributes", b"d/.gitattributes"],
                     [b".gitattributes"]]
    assert governing == [0, 1, 2, 2]  # main, the merge, drop, again


def _staged_first(tmp_path: Path, steps: list[dict[str, bytes | None]]
                  ) -> tuple[Path, list[str]]:
    """As :func:`_steps`, but every blob holds the bytes given (staged with ``hash-object
    --no-filters``: no attribute converts them)."""
    return stored_commits(tmp_path / "source", steps)


def _applied_and_exported(repo: Path, spec: str, tmp_path: Path, form: str) -> Path:
    """``apply --state`` of the range ``spec`` on ``repo``, then ``export --format form``
    of that review (both exit 0): the exported file."""
    state = tmp_path / "review.json"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes",
                 "--state", str(state)]) == 0
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", form,
                 "--state", str(state), "-o", str(out)]) == 0
    return out


def _applies_to_a(source: Path, commits: list[str], out: Path, form: str,
                  tmp_path: Path) -> None:
    """The exported ``out`` applied to A on a clone that converts nothing (``git apply
    --cached`` of a patch, ``git am --keep-cr`` of a series) gives B's tree, and each mail
    of a series its commit's."""
    plain = _clone(source, tmp_path / "plain", commits[0], (), info="* -text\n")
    if form == "patch":
        git(plain, "apply", "--cached", str(out))
        assert git(plain, "write-tree").strip() == git(source, "rev-parse",
                                                        f"{commits[-1]}^{{tree}}").strip()
        return
    git(plain, "am", "-q", "--keep-cr", str(out))
    for back, commit in enumerate(reversed(commits[1:])):
        assert tree_of(plain, f"HEAD~{back}") == tree_of(source, commit)

def _blob_as_exported(source: Path, commits: list[str], repo: Path, state: Path,
                      form: str, tmp_path: Path) -> tuple[str, str]:
    """(the blob ``git add`` makes of the review's a.txt; the one its export of ``form``,
    applied to A, leaves)."""
    want = git(repo, "hash-object", "--path=a.txt", str(repo / "a.txt")).strip()
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--format", form, "--state", str(state), "-o", str(out)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], (), info="* -text\n")
    if form == "patch":
        git(plain, "apply", "--cached", str(out))
        return want, git(plain, "ls-files", "-s", "a.txt").split()[1]
    git(plain, "am", "-q", "--keep-cr", str(out))
    return want, git(plain, "rev-parse", "HEAD:a.txt").strip()



def test_an_encoding_a_later_commit_sets_and_drops_leaves_an_earlier_edit_alone(
        tmp_path: Path) -> None:
    """g.txt is edited by the first commit; the second gives *.txt UTF-16LE, the third
    takes it away: no commit that writes g.txt, nor B, encodes it. Every attribute state
    was read for every file, and the edit was refused with a false reason (QA s39
    helper-119 F6)."""
    text = b"line one\nline two\n"
    source, commits = _staged_first(tmp_path, [
        {"g.txt": text}, {"g.txt": text + b"edit\n"},
        {".gitattributes": b"*.txt working-tree-encoding=UTF-16LE\n"},
        {".gitattributes": None},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1], ()))


@pytest.mark.parametrize("before", [{"f.dat": b"abc\0def\nx\n"}, {"k": b"k\n"}],
                         ids=["changed", "created"])
def test_a_binary_diffed_file_the_range_re_encodes_is_refused(
        tmp_path: Path, before: dict[str, bytes | None],
        capsys: pytest.CaptureFixture[str]) -> None:
    """UTF-8 text holding a NUL (git diffs it as binary) that the range's attributes give
    UTF-16LE: git's checkout re-encodes it, the review wrote the blob, exit 0 (QA s39
    helper-119 F2: binary patches were left out of the refusal)."""
    source, commits = _staged_first(tmp_path, [before, {
        ".gitattributes": b"*.dat working-tree-encoding=UTF-16LE\n",
        "f.dat": b"abc\0def\ny\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    was = disk_of(repo)
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert "git checks f.dat out as UTF-16LE" in out
    assert {k: v for k, v in disk_of(repo).items() if k != ".gitattributes"} == was


@pytest.mark.parametrize(("encoding", "rename"), [
    ("ISO-8859-1", False), ("ISO-8859-1", True), ("UTF-16LE", True)])
def test_an_encoded_file_on_an_autocrlf_checkout_is_written_re_encoded(
        tmp_path: Path, encoding: str, rename: bool) -> None:
    """autocrlf, and *.txt has a working-tree-encoding: the review kept the file's CRLF
    but wrote UTF-8 where git writes the encoding (a plain edit, or a rename from a plain
    path into an encoded one), exit 0, and ``--commit`` committed it garbled (QA s39
    helper-119 F1, older). The file was git's checkout of the blob before, the result is
    the blob after in other line endings: git's checkout of it is written."""
    lines = "".join(f"line {n}\n" for n in range(8))
    edited = lines.replace("line 6", "l\u00efne 6")
    attributes = f"*.txt working-tree-encoding={encoding}\n".encode()
    old = "f.md" if rename else "f.txt"  # (a UTF-16 f.txt before is read as binary)
    source, commits = _steps(tmp_path, [
        {".gitattributes": attributes, old: lines.encode()},
        {old: None, "f.txt": edited.encode(encoding)} if rename
        else {"f.txt": edited.encode(encoding)},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"]) == 0
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1],
                                           AUTOCRLF))
    assert tree_of(repo, "HEAD") == tree_of(source, commits[-1])


def test_files_whose_attributes_a_range_does_not_change_keep_their_forms(
        tmp_path: Path) -> None:
    """A range that adds a rule for ``*.bat`` only, then new.txt and an edit of old.txt:
    every file got no forms because an attribute file changed, and on autocrlf new.txt was
    written LF where git writes CRLF, exit 0 (QA s39 helper-120 F2; curl on an autocrlf
    clone, 4 of 27 windows). Their attributes are the same in every commit: git's checkout
    of them is written. Reopened half way (the review's own attribute file on disk), the
    same."""
    source, commits = _steps(tmp_path, [
        {".gitattributes": b"*.c whitespace=tab-in-indent\n", "old.txt": b"x\n"},
        {".gitattributes": b"*.c whitespace=tab-in-indent\n*.bat text eol=crlf\n"},
        {"new.txt": b"new 1\nnew 2\n", "old.txt": b"x\ny\n"},
    ])
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    at_head = _clone(source, tmp_path / "at-head", commits[-1], AUTOCRLF)
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert (repo / "new.txt").read_bytes() == b"new 1\r\nnew 2\r\n"
    assert disk_of(repo) == disk_of(at_head)
    repo = _clone(source, tmp_path / "halves", commits[0], AUTOCRLF)
    for turn in (1, 2):  # each in its own opening of the kept review
        opened = open_range(f"{commits[0]}..{commits[-1]}", str(repo), keep=True)
        try:
            with Review.open(opened.session, opened.root) as review:
                for pos, _op in enumerate(review.session.turns[turn - 1].reply.ops):
                    review.decide((turn, pos), Decision.accept())
        finally:
            opened.close()
    assert disk_of(repo) == disk_of(at_head)


def test_a_file_whose_attributes_the_range_changes_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rule the range adds names the file itself (``-text``): git checks it out
    otherwise in the commits before than after, so no form of the start holds for it, and
    the review kept its CRLF where git writes LF, exit 0: refused (``git-attributes``);
    the file beside it, whose attributes stay, gets its CRLF."""
    source, commits = _steps(tmp_path, [
        {"a.txt": b"a\n", "b.txt": b"b\n"},
        {".gitattributes": b"a.txt -text\n", "a.txt": b"a\nA\n", "b.txt": b"b\nB\n"},
    ])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    assert code == 1
    assert "this range changes how git checks a.txt out" in capsys.readouterr().out
    assert (repo / "b.txt").read_bytes() == b"b\r\nB\r\n"
    assert (repo / "a.txt").read_bytes() == b"a\r\n"  # (refused: git writes a\nA\n)


@pytest.mark.parametrize(("attributes", "old", "new", "config"), [
    (b"*.txt working-tree-encoding=UTF-16LE\n", "f.md", "g.txt", ()),
    (b"*.txt working-tree-encoding=UTF-16LE\n", "f.txt", "g.md", ()),
    (b"*.bin -text\n", "f.txt", "g.bin", AUTOCRLF),
], ids=["into-encoded", "out-of-encoded", "into-minus-text"])
def test_a_pure_rename_git_checks_out_otherwise_is_refused(
        tmp_path: Path, attributes: bytes, old: str, new: str, config: tuple[str, ...],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A rename with no content change (git names no blob) between paths whose attributes
    check the blob out differently: the bytes moved as they were, exit 0, and ``--commit``
    committed a blob B never had (QA s39 helper-119 F3, older). Refused now, named; the
    file stays where it was and nothing of it is committed."""
    text = b"line one\nline two\nline three\n"
    source, commits = _staged_first(tmp_path, [{".gitattributes": attributes, old: text},
                                               {old: None, new: text}])
    assert "rename from" in git(source, "show", "-M", commits[-1])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    was = (repo / old).read_bytes()
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit", "--branch", "reviewed"])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert f"git checks {old} out otherwise at {new}" in out
    assert (repo / old).read_bytes() == was
    assert not (repo / new).exists()
    assert "1 commit on reviewed" not in out  # (the turn's one operation did not land)


def test_a_pure_rename_between_paths_checked_out_alike_moves(tmp_path: Path) -> None:
    """The same rename between folders whose attributes agree (autocrlf converts both):
    moved, as git's checkout writes it."""
    text = b"line one\nline two\nline three\n"
    source, commits = _steps(tmp_path, [{"a/f.txt": text}, {"a/f.txt": None, "b/f.txt": text}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1],
                                           AUTOCRLF))


@pytest.mark.parametrize("after", [
    {"f.txt": b"one\ntwo\nthree\nfour\nSIX\n"},
    {"f.txt": None, "g.txt": b"one\ntwo\nthree\nfour\nSIX\n"},
    {"f.txt": None, "g.txt": b"one\ntwo\nthree\nfour\nsix\r\n"},
], ids=["edit", "rename-edit", "rename-adds-cr"])
def test_an_export_of_an_autocrlf_review_applies_to_the_blobs(
        tmp_path: Path, after: dict[str, bytes | None]) -> None:
    """The old side of an exported patch was the checkout's CRLF file and the new side the
    blob: every line rewritten, and ``git apply --cached`` on A refused it (QA s39
    helper-119 F5, older). Both sides are the blobs now: the patch gives B's tree."""
    source, commits = _steps(tmp_path, [{"f.txt": b"one\ntwo\nthree\nfour\nsix\n"}, after])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    state = tmp_path / "review.json"
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--state", str(state)]) == 0
    patch = tmp_path / "out.patch"
    assert main(["export", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--format", "patch", "--state", str(state), "-o", str(patch)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    git(plain, "apply", "--cached", str(patch))
    assert git(plain, "write-tree").strip() == git(source, "rev-parse",
                                                    f"{commits[-1]}^{{tree}}").strip()


@pytest.mark.parametrize(("rule", "new", "config"), [
    (b"*.dat -text\n", "a.dat", AUTOCRLF), (b"*.cmd eol=crlf\n", "a.cmd", ())],
    ids=["minus-text-on-autocrlf", "eol-crlf"])
def test_a_pure_rename_into_attributes_the_range_changes_is_refused(
        tmp_path: Path, rule: bytes, new: str, config: tuple[str, ...],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A pure rename into a path whose attributes the same commit changes: only paths the
    range left alone were judged, so the bytes moved as they were, exit 0 (QA s39
    helper-121 F1). Refused."""
    text = b"line one\nline two\nline three\nline four\nline five\n"
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.bin -text\n", "a.txt": text},
        {"a.txt": None, new: text, ".gitattributes": b"*.bin -text\n" + rule}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    was = (repo / "a.txt").read_bytes()
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert f"renaming a.txt to {new} on this checkout (this range changes" in out
    assert (repo / "a.txt").read_bytes() == was
    assert not (repo / new).exists()


def test_a_pure_rename_in_a_kept_file_whose_commits_do_not_match_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The kept session file with its two commits swapped: its turns no longer map to the
    range's commits, and the rename's check was skipped (the bytes moved, CRLF kept where
    git writes LF, exit 0: QA s39 helper-121 F2). Refused where either path converts."""
    import re

    from reviewtui.shell.git_sources import open_range

    text = b"line one\nline two\nline three\n"
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.bin -text\n", "a.txt": text, "k.md": text},
        {"k.md": text + b"x\n"}, {"a.txt": None, "a.bin": text}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    open_range(f"{commits[0]}..{commits[-1]}", str(repo), keep=True).close()
    kept = next((repo / ".git" / "reviewtui").glob("range-*.patch"))
    head, one, two = re.split(r"(?m)^(?=From [0-9a-f]{40} )", kept.read_text())
    edited = tmp_path / "edited.patch"
    edited.write_text(head + two + one)
    code = main(["apply", str(edited), "--root", str(repo), "--yes"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "cannot tell which blob it moves" in out
    assert not (repo / "a.bin").exists()


def test_attributes_that_go_and_come_back_refuse_the_files_they_govern(
        tmp_path: Path) -> None:
    """``.gitattributes`` goes A -> X -> A (X: ``*.txt -text``) on autocrlf: g.txt, edited
    under A's rules again, was committed by ``--commit`` as a CRLF blob B never had, and
    n.txt written LF where git writes CRLF, exit 0 (QA s39 helper-121 F9). f.txt, written
    under X, is refused (the range changes how git checks it out); g.txt and n.txt,
    written under A's rules as they are at the start and at B, get git's checkout and
    their blobs are committed."""
    text = b"line one\nline two\nline three\n"
    source, commits = _staged_first(tmp_path, [
        {"f.txt": text, "g.txt": text, ".gitattributes": b"*.md text\n"},
        {".gitattributes": b"*.txt -text\n", "f.txt": text + b"four\n"},
        {".gitattributes": b"*.md text\n", "g.txt": text + b"four\n", "n.txt": text}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"]) == 1
    committed, at_head = tree_of(repo, "HEAD"), tree_of(source, commits[-1])
    assert committed["f.txt"] == tree_of(source, commits[0])["f.txt"]
    assert committed["g.txt"] == at_head["g.txt"]
    assert committed["n.txt"] == at_head["n.txt"]
    assert (repo / "n.txt").read_bytes() == text.replace(b"\n", b"\r\n")


def test_a_gitattributes_link_is_read_as_git_reads_it(tmp_path: Path) -> None:
    """A ``.gitattributes`` committed as a symbolic link whose target is a rule: git reads
    the rule from the index (``*.txt eol=crlf``: n.txt checked out CRLF); taken for no
    rule, the range's files counted as unchanged by it and were written LF, exit 0 (QA
    s39 helper-121 F7)."""
    source = new_repo(tmp_path / "source")
    (source / "k").write_text("k\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "A")
    (source / ".gitattributes").symlink_to("*.txt eol=crlf")
    (source / "n.txt").write_bytes(b"a\nb\n")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "B")
    base, head = (git(source, "rev-parse", rev).strip() for rev in ("HEAD~1", "HEAD"))
    repo = _clone(source, tmp_path / "review", base, ())
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"])
    assert code == 1  # (its attributes are the link's rule at B, none at A: refused)
    assert not (repo / "n.txt").exists()


@pytest.mark.parametrize("after", [{"f.txt": None}, {"f.txt": None, "g/f.txt": TEXT3}],
                         ids=["deletion", "pure-rename"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_export_of_an_autocrlf_deletion_or_rename_applies_to_the_blobs(
        tmp_path: Path, after: dict[str, bytes | None], form: str) -> None:
    """A deletion exported from a review kept on an autocrlf checkout removed its CRLF
    lines, and a series wrote a pure rename as a removal and an addition of those bytes:
    neither applied to A's blobs (QA s39 helper-121 F5). The removed side is the blob
    now, and a series writes a rename as one."""
    source, commits = _steps(tmp_path, [{"f.txt": TEXT3, "k": b"k\n"}, after])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    state = tmp_path / "review.json"
    spec = f"{commits[0]}..{commits[-1]}"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--state",
                 str(state)]) == 0
    out = tmp_path / "out"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", form,
                 "--state", str(state), "-o", str(out)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    if form == "patch":
        git(plain, "apply", "--cached", str(out))
        tree = git(plain, "write-tree").strip()
    else:
        git(plain, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
            "--keep-cr", str(out))
        tree = git(plain, "rev-parse", "HEAD^{tree}").strip()
    assert tree == git(source, "rev-parse", f"{commits[-1]}^{{tree}}").strip()


@pytest.mark.parametrize("attributes", [b"*.txt text working-tree-encoding=UTF-16LE\n",
                                        b"*.txt ident\n"], ids=["utf-16", "ident"])
def test_an_export_carries_the_blob_of_a_re_encoded_or_expanded_file(
        tmp_path: Path, attributes: bytes) -> None:
    """A new file the checkout writes UTF-16, or with ``$Id$`` expanded: the export carried
    those bytes, and ``git apply --cached`` on A gave a tree that is not B's, exit 0 (QA
    s39 helper-121 F3, older). The outcome keeps the blob; the export carries it."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes, "k": b"k\n"},
        {"n.txt": "$Id$\nh\u00e9\n".encode()}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    state = tmp_path / "review.json"
    spec = f"{commits[0]}..{commits[-1]}"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--state",
                 str(state)]) == 0
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1], ()))
    patch = tmp_path / "out.patch"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", "patch",
                 "--state", str(state), "-o", str(patch)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    git(plain, "apply", "--cached", str(patch))
    assert git(plain, "write-tree").strip() == git(
        source, "rev-parse", f"{commits[-1]}^{{tree}}").strip()


@pytest.mark.parametrize("attributes", [b"*.txt working-tree-encoding=UTF-16LE\n",
                                        b"*.txt working-tree-encoding=ISO-8859-1\n",
                                        b"*.txt ident\n"], ids=["utf-16", "latin-1", "ident"])
def test_a_file_git_re_encodes_or_expands_is_deleted(
        tmp_path: Path, attributes: bytes) -> None:
    """Deleting an untouched file the checkout writes re-encoded or with ``$Id$`` expanded
    was refused: "now a file with other content ... git apply refuses it too", both false
    (QA s39 helper-121 F4, older). The deletion knows git's checkout of its blob now."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes, "f.txt": "$Id$\ncaf\u00e9\n".encode(), "k": b"k\n"},
        {"f.txt": None}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    assert (repo / "f.txt").read_bytes() != "$Id$\ncaf\u00e9\n".encode()
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 0
    assert not (repo / "f.txt").exists()


def test_a_commit_turning_an_lf_blob_into_crlf_is_committed(tmp_path: Path) -> None:
    """The other way round: an LF blob made CRLF, on autocrlf (git writes both as the same
    CRLF file). ``--commit`` said "nothing to commit" and kept A's blob, exit 0 (QA s39
    helper-121 F6: the bytes' own id is the new blob's, so the change was not seen)."""
    source, base, head = _source(tmp_path, {"f.txt": b"a\nb\nc\n"},
                                 {"f.txt": b"a\r\nb\r\nc\r\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit"]) == 0
    assert (repo / "f.txt").read_bytes() == b"a\r\nb\r\nc\r\n"
    assert tree_of(repo, "HEAD") == tree_of(source, head)


@pytest.mark.parametrize(("before", "after"), [(b"a\nb\n", b"a\r\nb\r\n"),
                                               (b"a\r\nb\r\n", b"a\nb\n")],
                         ids=["lf-to-crlf", "crlf-to-lf"])
def test_an_export_of_an_endings_only_commit_on_autocrlf_holds_it(
        tmp_path: Path, before: bytes, after: bytes) -> None:
    """A commit that only changes a blob's line endings, on autocrlf (git writes both as
    one CRLF file): the exported patch left it out, exit 0 (QA s39 helper-121 F6; s38
    helper-118 F6 "renorm"). The patch holds the blobs' change, and gives B's tree."""
    source, base, head = _source(tmp_path, {"f.txt": before, "k": b"k\n"},
                                 {"f.txt": after, "k": b"k\nmore\n"})
    repo = _clone(source, tmp_path / "review", base, AUTOCRLF)
    state = tmp_path / "review.json"
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--state", str(state)]) == 0
    patch = tmp_path / "out.patch"
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo), "--format",
                 "patch", "--state", str(state), "-o", str(patch)]) == 0
    plain = _clone(source, tmp_path / "plain", base, ())
    git(plain, "apply", "--cached", str(patch))
    assert git(plain, "write-tree").strip() == git(source, "rev-parse",
                                                    f"{head}^{{tree}}").strip()


@pytest.mark.parametrize(("steps", "config"), [
    ([{".gitattributes": b"* text=auto\n", "a.txt": TEXT3},
      {".gitattributes": None, "a.txt": TEXT3 + b"four\n", "n.txt": TEXT3}], AUTOCRLF),
    ([{"a.c": TEXT3}, {".gitattributes": b"*.c text\n", "a.c": TEXT3 + b"four\n",
                       "n.c": TEXT3}], AUTOCRLF),
    ([{".gitattributes": b"*.cmd eol=crlf\n*.bat eol=crlf\n", "x.cmd": TEXT3,
       "y.cmd": TEXT3},
      {".gitattributes": b"*.bat eol=crlf\n", "x.cmd": None, "x.bat": TEXT3,
       "y.cmd": None, "y.bat": TEXT3 + b"four\n"}], ()),
    ([{"p/.gitattributes": b"*.sln eol=crlf\n", "p/a.sln": TEXT3, "p/b.sln": TEXT3},
      {"p/.gitattributes": None, "p/t/.gitattributes": b"*.sln eol=crlf\n",
       "p/a.sln": None, "p/t/a.sln": TEXT3, "p/b.sln": None,
       "p/t/b.sln": TEXT3 + b"four\n"}], ()),
], ids=["text-auto-removed", "text-added-on-autocrlf", "cmd-renamed-bat",
        "rules-moved-with-their-files"])
def test_attributes_that_change_but_convert_alike_are_written_as_git_writes(
        tmp_path: Path, steps: list[dict[str, bytes | None]],
        config: tuple[str, ...]) -> None:
    """A range that changes ``.gitattributes`` where git's checkout of each file stays
    the same: ``* text=auto`` dropped on autocrlf (the same as no rule there), ``*.c text``
    added on autocrlf (LF text converted either way), ``.cmd`` files renamed ``.bat``
    with the ``.cmd`` rule dropped (both CRLF), a folder's rules moved with its files
    (curl 57d349fe). Refused as ``git-attributes`` by comparing the attributes' values,
    not what git does with them, and the paths a rename leaves by the states after it
    (QA s39 helper-122 F2; curl ``cda243d..e2c747b`` and ``9784f9a..38bdef0`` on
    autocrlf exited 0 with B's files before s39). Written as a fresh checkout of B, and
    B's blobs committed."""
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], config)
    git(repo, "switch", "-q", "-c", "work")
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"])
    assert code == 0
    assert disk_of(repo) == disk_of(_clone(source, tmp_path / "at-head", commits[-1],
                                           config))
    assert tree_of(repo, "HEAD") == tree_of(source, commits[-1])


@pytest.mark.parametrize(("steps", "name", "config"), [
    ([{"a.c": b"one\r\ntwo\n"}, {".gitattributes": b"*.c text\n",
                                 "a.c": b"one\r\ntwo\nthree\n"}], "a.c", AUTOCRLF),
    ([{".gitattributes": b"*.cmd eol=crlf\n", "x.cmd": TEXT3},
      {".gitattributes": b"*.bat eol=crlf\n", "x.cmd": TEXT3 + b"four\n"}], "x.cmd", ()),
    ([{"a.txt": TEXT3}, {".gitattributes": b"n.txt -text\n", "n.txt": TEXT3}], "n.txt",
     AUTOCRLF),
], ids=["text-added-where-autocrlf-left-the-blob", "rule-removed-from-an-edited-file",
        "new-file-with-its-own-rule"])
def test_attributes_that_change_how_a_blob_is_written_still_refuse_it(
        tmp_path: Path, steps: list[dict[str, bytes | None]], name: str,
        config: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """The other side of the test above: ``*.c text`` added on autocrlf over a blob
    holding a CR (autocrlf leaves it, ``text`` converts its LF line), an ``eol=crlf`` rule
    taken from a file the commit edits, a new file added with a rule of its own (written
    by the start's rules where you reject or skip that rule): git writes the file
    otherwise by one state than by another, refused (``git-attributes``)."""
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], config)
    was = (repo / name).read_bytes() if (repo / name).exists() else None
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    assert code == 1
    assert f"this range changes how git checks {name} out" in capsys.readouterr().out
    assert ((repo / name).read_bytes() if (repo / name).exists() else None) == was


@pytest.mark.parametrize(("attributes", "config"), [
    (b"", AUTOCRLF), (b"*.txt eol=crlf\n", ())], ids=["autocrlf", "eol-crlf"])
@pytest.mark.parametrize("ending", [b"\r\n", b"\n"], ids=["to-lf", "to-crlf"])
def test_a_series_holds_a_commit_that_only_changes_line_endings(
        tmp_path: Path, attributes: bytes, config: tuple[str, ...], ending: bytes) -> None:
    """The series of a range on a checkout that writes CRLF, one of whose commits only
    turns a blob's CRLF into LF (or back; git writes both as one CRLF file), then a later
    commit edits it: the mail of that commit left the change out, and ``git am`` made a
    tree B never had, exit 0 (curl ``cdbfad9..9acf759``, .github/CODEOWNERS, on
    autocrlf; QA s39 helper-122 O2, older). Each mail holds its blobs' change now."""
    other = b"\n" if ending == b"\r\n" else b"\r\n"
    text = b"one" + ending + b"two" + ending
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes or b"*.md text\n", "f.txt": text, "k": b"k\n"},
        {"f.txt": text.replace(ending, other), "k": b"k\nmore\n"},
        {"f.txt": text.replace(ending, other) + b"three" + other}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    mails = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "series")
    # (on a clone that converts nothing: on eol=crlf git's own format-patch series of
    # these commits does not apply either, the CRLF blob "does not match index")
    _applies_to_a(source, commits, mails, "series", tmp_path)


@pytest.mark.parametrize(("rule", "config"), [
    (b"*.txt -text\n", AUTOCRLF), (b"*.txt text eol=crlf\n", ())],
    ids=["minus-text-on-autocrlf", "eol-crlf-on-plain"])
def test_a_file_the_ranges_attributes_make_look_changed_is_not_someone_elses(
        tmp_path: Path, rule: bytes, config: tuple[str, ...],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A range adds a rule for k.txt, which it does not touch: once the review had written
    the rule, ``git status`` called k.txt modified (its checkout under the old rule no
    longer matches), and ``--commit`` refused it as someone else's change, exit 2, with
    the range's files left written and uncommitted (QA s39 helper-121 F8). k.txt is git's
    checkout of its blob by the rules it was checked out by: it is left as ``git switch``
    leaves it, and the commit is B's tree. A real change of k.txt is still refused."""
    text = b"line one\nline two\n"
    source, commits = _staged_first(tmp_path, [
        {"k.txt": text, "m.md": text}, {".gitattributes": rule, "m.md": text + b"x\n"}])
    for changed in (False, True):
        repo = _clone(source, tmp_path / f"review-{changed}", commits[0], config)
        git(repo, "switch", "-q", "-c", "work")
        was = (repo / "k.txt").read_bytes()
        if changed:
            (repo / "k.txt").write_bytes(was + b"mine\n")
        code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                     "--yes", "--commit"])
        err = capsys.readouterr().err
        if changed:
            assert code == 2
            assert "changes the review did not make (k.txt)" in err
            assert (repo / "k.txt").read_bytes() == was + b"mine\n"
        else:
            assert code == 0, err
            assert tree_of(repo, "HEAD") == tree_of(source, commits[-1])
            assert (repo / "k.txt").read_bytes() == was


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize(("ending", "more"), [(b"\r\n", b""), (b"\n", b""), (b"\n", b"x")],
                         ids=["to-lf", "to-crlf", "to-crlf-and-more"])
def test_an_export_of_a_file_deleted_and_added_again_in_other_endings_holds_it(
        tmp_path: Path, form: str, ending: bytes, more: bytes) -> None:
    """On autocrlf, a commit deletes f.txt and a later one adds it again with the other
    line endings in its blob (git writes both as one CRLF file): the patch left the
    change out (the two sides were the same bytes), exit 0 with a tree B never had, and
    the series' deletion did not apply (QA s39 helper-122 O2, older). Added again with
    other text too, the patch's old side was the checkout's CRLF, which did not apply
    (QA s40 helper-124 H4). Both give B now."""
    other = b"\n" if ending == b"\r\n" else b"\r\n"
    text = b"one" + ending + b"two" + ending
    source, commits = _staged_first(tmp_path, [
        {"f.txt": text, "k": b"k\n"}, {"f.txt": None, "k": b"k\nmore\n"},
        {"f.txt": text.replace(ending, other) + (more + other if more else b"")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


def _switched(source: Path, where: Path, base: str, head: str, config: str) -> Path:
    """What git's own switch from ``base`` to ``head`` leaves (``config``: appended to the
    clone's .git/config before its checkout)."""
    git(where.parent, "clone", "-q", "--no-checkout", str(source), str(where))
    with (where / ".git" / "config").open("a") as file:
        file.write(config)
    git(where, "checkout", "-q", "--detach", base)
    git(where, "checkout", "-q", "--detach", head)
    return where


@pytest.mark.parametrize(("steps", "config"), [
    ([{"f.txt": b"a\nb\n"}, {".gitattributes": b"*.txt -text\n", "f.txt": b"a\nc\n"}],
     "[core]\n\tautocrlf\n"),
    ([{".gitattributes": b"*.txt -text\n", "f.txt": b"a\nb\n"},
      {".gitattributes": b"*.txt text=unset eol=crlf\n", "f.txt": b"a\nc\n"}], ""),
    ([{".gitattributes": b"*.txt text\n", "f.txt": b"a\nb\n"},
      {".gitattributes": b"*.txt text=set\n", "f.txt": b"a\r\nb\nc\n"}],
     "[core]\n\tautocrlf = true\n"),
], ids=["autocrlf-with-no-value", "text-equals-unset", "text-equals-set"])
def test_rules_git_reads_otherwise_than_they_print_are_not_taken_as_equal(
        tmp_path: Path, steps: list[dict[str, bytes | None]], config: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``[core] autocrlf`` with no value (true to git) read as false, and an attribute
    given the value "set" or "unset" in so many words (check-attr prints it as ``text`` or
    ``-text``; git takes it for a value it does not know): the rules of the two states
    were taken as equal, and f.txt written with the start's form where git writes another,
    exit 0 (QA s40 helper-123 F1, F2). Refused now, and the rest of the range is git's."""
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], ())
    with (repo / ".git" / "config").open("a") as file:
        file.write(config)
    for name in git(repo, "ls-files").split():  # (written again by that configuration)
        (repo / name).unlink()
    git(repo, "checkout", "-q", "--", ".")
    was = (repo / "f.txt").read_bytes()
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    assert code == 1
    assert "this range changes how git checks f.txt out" in capsys.readouterr().out
    assert (repo / "f.txt").read_bytes() == was
    switched = _switched(source, tmp_path / "switched", commits[0], commits[-1], config)
    assert (repo / ".gitattributes").read_bytes() == (
        switched / ".gitattributes").read_bytes()


def test_a_review_that_wrote_the_ranges_rules_reads_them_as_the_ranges(
        tmp_path: Path) -> None:
    """``*.c text`` added on autocrlf: applied, exit 0; then the export of the same review
    read the working tree's new .gitattributes (HEAD still at A) as the user's own rules,
    refused m.c as a saved accept that no longer lands, exit 1, and its patch did not give
    B's tree (QA s40 helper-123 F3). The working tree's attribute files are compared with
    the range's states by content."""
    source, commits = _staged_first(tmp_path, [
        {"m.c": b"one\ntwo\n", "k": b"k\n"},
        {".gitattributes": b"*.c text\n", "m.c": b"one\ntwo\nx\n", "n.c": b"n\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    patch = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "patch")
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    git(plain, "apply", "--cached", str(patch))
    assert git(plain, "write-tree").strip() == git(source, "rev-parse",
                                                    f"{commits[-1]}^{{tree}}").strip()


def test_a_refusal_by_a_renames_source_names_the_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """b.txt's rules never change; those of a.cmd, which a commit renames to b.txt and
    edits, do: the refusal named b.txt, whose rules did not change (QA s40 helper-123
    F4). It names a.cmd, and says where it went."""
    text = b"one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.txt eol=crlf\n", "a.cmd": text},
        {".gitattributes": b"*.txt eol=crlf\n*.cmd eol=crlf\n", "a.cmd": text + b"x\n"},
        {"a.cmd": None, "b.txt": text + b"x\ny\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"]) == 1
    assert "how git checks a.cmd out (renamed to b.txt)" in capsys.readouterr().out


@pytest.mark.parametrize(("line", "config"), [
    (b"line 15", ()), (b"line 1\n", ()), (b"line 1\n", AUTOCRLF)],
    ids=["far-from-it", "next-to-it", "next-to-it-on-autocrlf"])
def test_an_ident_file_edited_gets_the_new_id(tmp_path: Path, line: bytes,
                                              config: tuple[str, ...]) -> None:
    """``*.c ident``: git checks a.c out with ``$Id: <blob> $``; a commit edits a line far
    from it: the review kept the id of the blob before, where git writes the new blob's,
    exit 0; or next to it (the hunk holds ``$Id$``): "SEARCH not found", exit 1 (QA s40).
    Written as git's checkout now; the commit stores B's blob."""
    body = b"".join(b"line %d\n" % n for n in range(20))
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.c ident\n", "a.c": b"/* $Id$ */\n" + body},
        {"a.c": b"/* $Id$ */\n" + body.replace(line, line.upper())}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"]) == 0
    switched = _switched(source, tmp_path / "switched", commits[0], commits[-1],
                         "[core]\n\tautocrlf = true\n" if config else "")
    assert (repo / "a.c").read_bytes() == (switched / "a.c").read_bytes()
    blob = git(source, "rev-parse", f"{commits[-1]}:a.c").strip()
    assert (repo / "a.c").read_bytes().startswith(f"/* $Id: {blob} $ */".encode())
    assert tree_of(repo, "HEAD") == tree_of(source, commits[-1])


@pytest.mark.parametrize("later", [False, True], ids=["rename-only", "then-edited"])
def test_a_pure_rename_of_a_crlf_blob_commits_that_blob(tmp_path: Path, later: bool) -> None:
    """On autocrlf, a commit renames a.txt, whose blob holds CRLF (checked out as it is),
    without changing it: ``--commit`` stored the moved file through ``git add``, which made
    it an LF blob B never had, exit 0 (QA s40 helper-124 H1). The removed file's blob is
    committed at the new path."""
    crlf = b"one\r\ntwo\r\n"
    steps: list[dict[str, bytes | None]] = [{"a.txt": crlf, "k": b"k\n"},
                                            {"a.txt": None, "b.txt": crlf}]
    if later:
        steps.append({"b.txt": crlf + b"three\r\n"})
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"]) == 0
    for back, commit in enumerate(reversed(commits[1:])):
        assert tree_of(repo, f"HEAD~{back}") == tree_of(source, commit)


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize(("attributes", "config"), [
    (b"", AUTOCRLF), (b"*.txt eol=crlf\n", ())], ids=["autocrlf", "eol-crlf"])
@pytest.mark.parametrize("how", ["reject", "edit"])
def test_an_export_of_a_reviewed_result_stores_what_git_add_stores(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...],
        how: str) -> None:
    """On a checkout that writes CRLF where git stores LF, the reviewer rejects or edits
    by hand the middle commit's edit of a.txt: the file is no blob of the range, and its
    export carried its CRLF lines, which git apply and git am stored as a blob git add of
    the same file never makes, exit 0 (QA s40 helper-124 H5). Stored as git add stores
    it: LF."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    lines = [b"line %d\n" % n for n in range(30)]
    steps: list[dict[str, bytes | None]] = [{".gitattributes": attributes or b"*.md text\n",
                                             "a.txt": b"".join(lines)}]
    for at, word in ((2, b"ONE"), (15, b"TWO"), (27, b"THREE")):
        lines[at] = word + b"\n"
        steps.append({"a.txt": b"".join(lines)})
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], config)
    spec = f"{commits[0]}..{commits[-1]}"
    state = tmp_path / "review.json"
    opened = open_range(spec, str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root, state_path=state) as review:
            for turn in review.session.turns:
                for pos, _op in enumerate(turn.reply.ops):
                    review.decide((turn.index, pos), Decision.accept() if turn.index != 2
                                  else Decision.reject() if how == "reject"
                                  else Decision.edit(("TWO BY HAND",)))
    finally:
        opened.close()
    want, got = _blob_as_exported(source, commits, repo, state, form, tmp_path)
    assert got == want


@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_export_of_a_pure_rename_then_an_edit_on_autocrlf_applies(
        tmp_path: Path, form: str) -> None:
    """On autocrlf, a commit renames a.txt as it is and a later one edits b.txt: the
    rename's removed side was the checkout's CRLF, its new side the blob ("similarity
    index 0%"), and neither the patch nor the series applied to A (QA s40 helper-124 H3,
    older). The moved bytes stand for the blob the later edit found at b.txt."""
    text = b"one\ntwo\nthree\n"
    source, commits = _staged_first(tmp_path, [
        {"a.txt": text, "k": b"k\n"}, {"a.txt": None, "b.txt": text},
        {"b.txt": text.replace(b"two", b"TWO")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


def test_a_file_made_a_link_where_its_rule_changes_is_no_attribute_change(
        tmp_path: Path) -> None:
    """a.txt becomes a link in the commit that changes the ``*.txt`` rule: it was refused
    as ``git-attributes``, though no attribute converts a link (QA s40 helper-124 M2)."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.txt eol=crlf\n", "a.txt": b"one\ntwo\n", "k": b"k\n"}])
    link = git(source, "hash-object", "-w", "--stdin", input=b"k").strip()
    git(source, "update-index", "--cacheinfo", f"120000,{link},a.txt")
    rule = git(source, "hash-object", "-w", "--stdin", input=b"*.txt -text\n").strip()
    git(source, "update-index", "--cacheinfo", f"100644,{rule},.gitattributes")
    git(source, "commit", "-q", "-m", "a.txt a link, *.txt -text")
    head = git(source, "rev-parse", "HEAD").strip()
    repo = _clone(source, tmp_path / "review", commits[0], ())
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{head}", "--root", str(repo), "--yes",
                 "--commit"]) == 0
    assert (repo / "a.txt").is_symlink()
    assert disk_of(repo) == disk_of(_switched(source, tmp_path / "sw", commits[0], head, ""))
    assert tree_of(repo, "HEAD") == tree_of(source, head)


def test_a_folder_moved_with_a_crlf_and_an_lf_blob_of_one_text_keeps_each(
        tmp_path: Path) -> None:
    """On autocrlf, d/ holds the same text stored CRLF (win.txt) and LF (unix.txt; checked
    out CRLF, the same bytes as win.txt's blob); a commit moves d/ to e/: matched by bytes
    alone, unix.txt was committed as win.txt's blob, exit 0 (QA s40 helper-125 H1, new in
    1cc46c0). Each moved file is matched with the file it was moved from."""
    source, commits = _staged_first(tmp_path, [
        {"d/win.txt": b"same\r\ntext\r\n", "d/unix.txt": b"same\ntext\n"},
        {"d/win.txt": None, "d/unix.txt": None, "e/win.txt": b"same\r\ntext\r\n",
         "e/unix.txt": b"same\ntext\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    git(repo, "switch", "-q", "-c", "work")
    assert main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes", "--commit"]) == 0
    assert tree_of(repo, "HEAD") == tree_of(source, commits[-1])


@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_export_of_reviewed_text_git_takes_for_binary_keeps_its_bytes(
        tmp_path: Path, form: str) -> None:
    """On autocrlf the reviewer's own text holds a lone CR: git add stores such a file as
    it is (it is not text to git's line-ending conversion), and the export made its CRLF
    LF, exit 0 (QA s40 helper-125 H2, new in eac1597)."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    lines = [b"line %d\n" % n for n in range(12)]
    source, commits = _staged_first(tmp_path, [
        {"a.txt": b"".join(lines)},
        {"a.txt": b"".join(lines).replace(b"line 5\n", b"FIVE\n")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    opened = open_range(spec, str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root, state_path=state) as review:
            review.decide((1, 0), Decision.edit(("FI\rVE",)))
    finally:
        opened.close()
    want, got = _blob_as_exported(source, commits, repo, state, form, tmp_path)
    assert got == want


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_patch_of_a_rename_then_a_change_of_line_endings_gives_b(tmp_path: Path,
                                                                  form: str) -> None:
    """On autocrlf a.txt, stored CRLF, is renamed b.txt, and a later commit only turns its
    blob LF (one CRLF file on disk throughout): the rename took the blob the later commit
    left, moved A's blob as it was with exit 0, and the tree was not B's (QA s40
    helper-125 H3, new in 48a8de0); the series' rename mail did not apply (older)."""
    source, commits = _staged_first(tmp_path, [
        {"a.txt": b"one\r\ntwo\r\n", "k": b"k\n"}, {"a.txt": None, "b.txt": b"one\r\ntwo\r\n"},
        {"b.txt": b"one\ntwo\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_rename_and_back_then_an_edit_exports_each_commit(tmp_path: Path, form: str) -> None:
    """On autocrlf a.txt (an LF blob) is renamed b.txt, renamed back, then edited: what the
    edit finds at a.txt is the blob the renames moved, through both of them (the first
    mail rewrote every line CRLF to LF and made a tree the range never had: QA s40
    helper-124 H6)."""
    text = b"one\ntwo\nthree\n"
    source, commits = _staged_first(tmp_path, [
        {"a.txt": text, "k": b"k\n"}, {"a.txt": None, "b.txt": text},
        {"b.txt": None, "a.txt": text}, {"a.txt": text.replace(b"two", b"TWO")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


def test_a_literal_id_line_without_ident_is_text(tmp_path: Path) -> None:
    """No ``ident`` attribute, autocrlf: a.txt holds the line ``$Id: foo $``, which a
    commit turns into ``$Id$`` beside another edit; the reviewer rejects that edit: the
    result, read as an expanded ``$Id$``, was written as the commit's file, exit 0 (QA
    s40 helper-125 H4, new in 7300645). The rejection holds."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    lines = [b"header\n", b"$Id: foo $\n"] + [b"line %d\n" % n for n in range(3, 30)]
    after = list(lines)
    after[1], after[25] = b"$Id$\n", b"LINE 26\n"
    source, commits = _staged_first(tmp_path, [{"a.txt": b"".join(lines)},
                                               {"a.txt": b"".join(after)}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    opened = open_range(f"{commits[0]}..{commits[-1]}", str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root) as review:
            ops = review.session.turns[0].reply.ops
            for pos, op in enumerate(ops):
                review.decide((1, pos), Decision.reject() if any(
                    "$Id" in line for line in getattr(op, "search_lines", ()))
                    else Decision.accept())
    finally:
        opened.close()
    data = (repo / "a.txt").read_bytes()
    assert b"$Id: foo $\r\n" in data
    assert b"LINE 26\r\n" in data


@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_export_reads_each_files_bytes_by_the_blob_they_stood_for_then(
        tmp_path: Path, form: str) -> None:
    """On autocrlf b.txt is added as an LF blob, deleted, and a.txt (a CRLF blob of the
    same text: one CRLF file on disk each time) renamed onto it: the export took the
    final bytes for the LF blob the path held two commits before, and both the patch and
    the series applied to A with exit 0 and gave b.txt LF where B holds CRLF (QA s40
    helper-124 H2, older). A file's bytes stand for the blob of the commit that left
    them."""
    source, commits = _staged_first(tmp_path, [
        {"a.txt": b"one\r\ntwo\r\n", "k": b"k\n"}, {"b.txt": b"one\ntwo\n"},
        {"b.txt": None}, {"a.txt": None, "b.txt": b"one\r\ntwo\r\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_export_reads_the_bases_bytes_by_the_bases_blob(tmp_path: Path, form: str) -> None:
    """The other way round: a.txt starts as a CRLF blob, a commit turns it LF (the same
    CRLF file on disk), another renames it as it is and a last one edits it: each side of
    each change is the blob of its own moment."""
    source, commits = _staged_first(tmp_path, [
        {"a.txt": b"one\r\ntwo\r\nthree\r\n", "k": b"k\n"},
        {"a.txt": b"one\ntwo\nthree\n"}, {"a.txt": None, "b.txt": b"one\ntwo\nthree\n"},
        {"b.txt": b"one\nTWO\nthree\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


def test_a_series_reads_a_commit_split_into_parts_to_its_last_part(tmp_path: Path) -> None:
    """On autocrlf one commit makes the file m a folder (the session reads it in two parts,
    the removal first) and renames p.txt (an LF blob) as it is; a later commit edits q.txt.
    The commit's mail was read by the forms around its first part alone: the rename was
    written with every line made CRLF, and the next mail did not apply (QA s41 helper-126
    H2; with a hunk rejected, exit 0 and a wrong tree)."""
    text = b"".join(b"line %d\n" % n for n in range(1, 11))
    source, commits = _staged_first(tmp_path, [
        {"m": b"m\n", "p.txt": text, "k": b"k\n"},
        {"m": None, "m/y.txt": b"y\n", "p.txt": None, "q.txt": text},
        {"q.txt": text.replace(b"line 4", b"LINE 4")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "series")
    _applies_to_a(source, commits, out, "series", tmp_path)


@pytest.mark.parametrize("config", [(), AUTOCRLF], ids=["plain", "autocrlf"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_blob_an_edit_left_is_not_the_ends_once_the_path_is_replaced(
        tmp_path: Path, config: tuple[str, ...], form: str) -> None:
    """a.txt and c.txt are CRLF blobs of one text; a commit turns a.txt's blob LF, the next
    deletes it, the last renames c.txt onto it: B's a.txt is A's blob. The patch took the
    blob the edit left for the end's and turned a.txt LF, exit 0, on a plain checkout too
    (QA s41 helper-126 H4, older): a deletion or a move onto a path takes away what its
    last writer left."""
    crlf = b"".join(b"line %d\r\n" % n for n in range(1, 11))
    source, commits = _staged_first(tmp_path, [
        {"a.txt": crlf, "c.txt": crlf, "k": b"k\n"}, {"a.txt": crlf.replace(b"\r", b"")},
        {"a.txt": None}, {"c.txt": None, "a.txt": crlf}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


def test_a_file_moved_away_and_back_as_it_was_is_no_change(tmp_path: Path) -> None:
    """On autocrlf a.txt (an LF blob) is made a CRLF blob, moved to b.txt, made LF again and
    moved back: B's tree is A's, yet the patch turned a.txt into the CRLF blob, exit 0 (QA
    s41 helper-126 H4): a pure move carries the blob its last writer left."""
    lf = b"".join(b"line %d\n" % n for n in range(1, 11))
    crlf = lf.replace(b"\n", b"\r\n")
    source, commits = _staged_first(tmp_path, [
        {"a.txt": lf, "k": b"k\n"}, {"a.txt": crlf}, {"a.txt": None, "b.txt": crlf},
        {"b.txt": lf}, {"b.txt": None, "a.txt": lf}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "patch")
    assert "diff --git" not in out.read_text()
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "series")
    _applies_to_a(source, commits, out, "series", tmp_path)


def test_a_series_pairs_renames_as_the_commit_made_them(tmp_path: Path) -> None:
    """On autocrlf a.txt (an LF blob) and b.txt (a CRLF blob) hold one text, one CRLF file
    on disk each; one commit renames a.txt to d.txt and b.txt to c.txt as they are. The
    mail paired them by their bytes, a.txt to c.txt and b.txt to d.txt, and each took the
    other's blob, exit 0 (QA s41 helper-126 H5, older)."""
    lf = b"".join(b"line %d\n" % n for n in range(1, 11))
    source, commits = _staged_first(tmp_path, [
        {"a.txt": lf, "b.txt": lf.replace(b"\n", b"\r\n"), "k": b"k\n"},
        {"a.txt": None, "b.txt": None, "d.txt": lf, "c.txt": lf.replace(b"\n", b"\r\n")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, "series")
    _applies_to_a(source, commits, out, "series", tmp_path)


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_converted_binary_file_renamed_with_a_change_names_as_blob(
        tmp_path: Path, form: str) -> None:
    """``*.bin text eol=crlf``: a file holding NULs, which git checks out with CRLF, is
    renamed with a change. Its binary patch named the checkout's bytes as the old blob, and
    git apply and git am refused it (QA s41 helper-126 M3, older): at the turn's start the
    file is at the path it is renamed from."""
    data = b"".join(b"a\0 line %d\n" % n for n in range(1, 13))
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.bin text eol=crlf\n", "a.bin": data, "k": b"k\n"},
        {"a.bin": None, "b.bin": data.replace(b"line 4", b"LINE 4")}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_rejected_last_hunk_leaves_the_file_stored_as_git_add_stores_it(
        tmp_path: Path, form: str) -> None:
    """On autocrlf a commit edits a.txt in two hunks; the reviewer accepts the first and
    rejects the last. Only a section's last operation carries its forms, so the landed
    one had none and both exports carried the file's CRLF lines, which git apply and git
    am stored as a blob git add of the same file never makes, exit 0 (QA s41 helper-126
    H3, older; rejecting the first hunk was right)."""
    from reviewtui.core.engine import Decision

    lines = [b"line %d\n" % n for n in range(30)]
    edited = list(lines)
    edited[2], edited[25] = b"ONE\n", b"TWO\n"
    source, commits = _staged_first(tmp_path, [{"a.txt": b"".join(lines)},
                                               {"a.txt": b"".join(edited)}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    state = tmp_path / "review.json"
    assert _reviewed(commits, repo, state, lambda pos: Decision.accept() if pos == 0
                     else Decision.reject()) == 2
    assert (repo / "a.txt").read_bytes() == b"".join(edited[:25] + lines[25:]).replace(
        b"\n", b"\r\n")
    want, got = _blob_as_exported(source, commits, repo, state, form, tmp_path)
    assert got == want


@pytest.mark.parametrize("case", ["same-text-other-blob", "other-file-moved-on"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_path_given_the_same_bytes_after_its_file_moved_away_holds_its_blob(
        tmp_path: Path, form: str, case: str) -> None:
    """On autocrlf a.txt (an LF blob) is moved to c.txt as it is and no later commit reads
    it; a.txt then holds a CRLF blob of the same text (added, or b.txt moved onto it): one
    CRLF file on disk at A and at B. The patch left a.txt out and wrote c.txt with the
    checkout's CRLF, and git apply made a tree B never had, exit 0 (QA s41 helper-126 H1,
    older; with other text at a.txt, git apply refused it). The base's blobs are read from
    git where no section names them."""
    lf = b"".join(b"line %d\n" % n for n in range(1, 11))
    crlf = lf.replace(b"\n", b"\r\n")
    first: dict[str, bytes | None] = {"a.txt": lf, "k": b"k\n"}
    if case == "same-text-other-blob":
        later: dict[str, bytes | None] = {"a.txt": crlf}
    else:
        first["b.txt"] = crlf
        later = {"b.txt": None, "a.txt": crlf}
    source, commits = _staged_first(tmp_path, [first, {"a.txt": None, "c.txt": lf}, later])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("changed", [False, True], ids=["as-checked-out", "changed-on-disk"])
def test_a_converted_file_holding_a_nul_is_deleted_as_git_deletes_it(
        tmp_path: Path, changed: bool) -> None:
    """``*.bin text eol=crlf``: a.bin holds a NUL, which git converts all the same, and a
    commit deletes it. The deletion's check took the CRLF checkout for other content and
    refused it, exit 1, where git apply removes it (QA s41 helper-126 M1, older). A file
    that is not exactly git's checkout of the blob is still left alone."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": b"*.bin text eol=crlf\n", "a.bin": b"a\0b\nc\nd\n", "k": b"k\n"},
        {"a.bin": None}])
    repo = _clone(source, tmp_path / "review", commits[0], ())
    assert (repo / "a.bin").read_bytes() == b"a\0b\r\nc\r\nd\r\n"
    if changed:
        (repo / "a.bin").write_bytes(b"a\0b\r\nc\r\nD\r\n")
    code = main(["apply", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--yes"])
    assert code == (1 if changed else 0)
    assert (repo / "a.bin").exists() == changed


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_mode_changed_alone_keeps_the_blob(tmp_path: Path, form: str) -> None:
    """On autocrlf a commit only makes a.txt (an LF blob, checked out CRLF) executable,
    as curl's 602964ec5e does to 16 scripts: the mode change ended the file's forms and
    both exports rewrote every line with CRLF, exit 0 (QA s41 helper-127 H1, new in
    41cfe81 and f200ac2). A mode changed alone leaves the bytes and their blob."""
    text = b"".join(b"line %d\n" % n for n in range(1, 11))
    source, commits = _staged_first(tmp_path, [{"a.txt": text, "k": b"k\n"}])
    blob = git(source, "rev-parse", "HEAD:a.txt").strip()
    git(source, "update-index", "--cacheinfo", f"100755,{blob},a.txt")
    git(source, "commit", "-q", "-m", "chmod")
    commits.append(git(source, "rev-parse", "HEAD").strip())
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_rename_with_a_change_onto_a_deleted_path_gives_its_blob(
        tmp_path: Path, form: str) -> None:
    """On autocrlf p.txt (an LF blob) is deleted, then q.txt renamed onto it with a change
    that leaves the CRLF blob of p.txt's text: one CRLF file on disk at A and at B. The
    whole patch dropped the blob the rename left and left p.txt out, exit 0 (QA s41
    helper-127 H2, older)."""
    lf = b"".join(b"line %d\n" % n for n in range(1, 11))
    source, commits = _staged_first(tmp_path, [
        {"p.txt": lf, "q.txt": lf.replace(b"line 4", b"LINE 4"), "k": b"k\n"},
        {"p.txt": None}, {"q.txt": None, "p.txt": lf.replace(b"\n", b"\r\n")}])
    repo = _clone(source, tmp_path / "review", commits[0], AUTOCRLF)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize(("attributes", "config"), [
    (b"* text eol=crlf\n", ()), (b"* text\n", AUTOCRLF), (b"", AUTOCRLF)],
    ids=["text-eol-crlf", "text-autocrlf", "autocrlf"])
@pytest.mark.parametrize("rejected", ["first", "last"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_reviewed_crlf_blob_is_exported_as_git_add_stores_it(
        tmp_path: Path, form: str, rejected: str, attributes: bytes,
        config: tuple[str, ...]) -> None:
    """a.txt is a CRLF blob (committed before its attribute); a commit edits it in three
    hunks, and the reviewer rejects one. Under an explicit ``text`` attribute git add
    stores the reviewed file LF, which both exports kept CRLF, exit 0 (QA s41 helper-127
    H3, older); under ``core.autocrlf`` alone git add keeps the CRLF the blob held, as
    the exports do."""
    from reviewtui.core.engine import Decision

    lines = [b"line %d\r\n" % n for n in range(40)]
    edited = list(lines)
    for at, word in ((2, b"ONE"), (19, b"TWO"), (35, b"THREE")):
        edited[at] = word + b"\r\n"
    first = {"a.txt": b"".join(lines), "k": b"k\n"}
    if attributes:
        first[".gitattributes"] = attributes
    source, commits = _staged_first(tmp_path, [first, {"a.txt": b"".join(edited)}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    state = tmp_path / "review.json"
    refused = 0 if rejected == "first" else 2
    assert _reviewed(commits, repo, state, lambda pos: Decision.reject() if pos == refused
                     else Decision.accept()) == 3
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", f"{commits[0]}..{commits[-1]}", "--root", str(repo),
                 "--format", form, "--state", str(state), "-o", str(out)]) == 0
    git(repo, "add", "a.txt")
    want = git(repo, "ls-files", "-s", "a.txt").split()[1]
    plain = _clone(source, tmp_path / "plain", commits[0], (), info="* -text\n")
    if form == "patch":
        git(plain, "apply", "--cached", str(out))
        got = git(plain, "ls-files", "-s", "a.txt").split()[1]
    else:
        git(plain, "am", "-q", "--keep-cr", str(out))
        got = git(plain, "rev-parse", "HEAD:a.txt").strip()
    assert got == want


def _reviewed(commits: list[str], repo: Path, state: Path,
              decide: Callable[[int], Decision]) -> int:
    """The range's review on ``repo`` (its session kept), each operation of its first
    turn decided by ``decide(position)``, saved in ``state``: how many operations it has."""
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    opened = open_range(f"{commits[0]}..{commits[-1]}", str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root, state_path=state) as review:
            count = len(review.session.turns[0].reply.ops)
            for pos in range(count):
                review.decide((1, pos), decide(pos))
    finally:
        opened.close()
    return count


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize("case", ["path-taken-again", "endings-only", "renamed-same-bytes"])
def test_a_converted_binary_files_blob_change_is_exported_as_its_blobs(
        tmp_path: Path, form: str, case: str) -> None:
    """``*.bin text eol=crlf``: a.bin holds a NUL, which git converts all the same, so its
    LF blob and its CRLF blob are one CRLF file on disk. When only the blob changes (a
    commit turns its endings, or a.bin moves to c.bin as it is and the CRLF blob takes its
    path), the whole patch left a.bin out and git apply made a tree B never had, exit 0;
    with the endings alone the patch and the mail were empty (QA s41 helper-127 H4 and L1,
    older): the blob change of a file git takes for binary was skipped. Now it is a binary
    patch from the blob found to the blob left. Renamed with a change that ends as the
    same bytes under another blob, it went out as a pure rename (the series was right)."""
    lf = b"a\0b\nline 2\nline 3\nline 4\nline 5\nline 6\n"
    crlf = lf.replace(b"\n", b"\r\n")
    steps: list[dict[str, bytes | None]] = [
        {".gitattributes": b"*.bin text eol=crlf\n", "a.bin": lf, "k": b"k\n"}]
    if case == "path-taken-again":
        steps += [{"a.bin": None, "c.bin": lf}, {"a.bin": crlf}]
    elif case == "endings-only":
        steps += [{"a.bin": crlf}]
    else:  # (the CRLF blob at A, the LF blob of the same text at B)
        steps[0]["a.bin"] = crlf
        steps += [{"a.bin": lf.replace(b"line 4", b"LINE 4")}, {"a.bin": None, "c.bin": lf}]
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], ())
    assert (repo / "a.bin").read_bytes() == crlf
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    assert b"GIT binary patch" in out.read_bytes()
    _applies_to_a(source, commits, out, form, tmp_path)


# The explicit text attributes a git checkout converts line endings by, each with its config.
EXPLICIT_TEXT = pytest.mark.parametrize(("attributes", "config"), [
    (b"* text eol=crlf\n", ()), (b"* text\n", AUTOCRLF)], ids=["text-eol-crlf", "text-autocrlf"])


@pytest.mark.parametrize("data", [b"line 1\r\nline 2\nline 3\r\nline 4\n",
                                  b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\r\n\r\n\n\r end\n"],
                         ids=["mixed-endings", "png-like"])
@EXPLICIT_TEXT
@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_added_blob_of_mixed_endings_is_exported_as_that_blob(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...],
        data: bytes) -> None:
    """Under an explicit text attribute a commit adds a blob holding both CRLF and LF (or
    PNG-like bytes with CR and LF): git checks it out with CRLF on every line. Accepted
    whole, both exports stored it as git add stores that checkout, every CRLF as LF, and
    git apply and git am made a tree B never had, exit 0 (QA s42 helper-128 H3, new in
    d3bdf55: a result other than the blob is stored so; git's checkout of the blob is the
    blob)."""
    source, commits = _staged_first(tmp_path, [{".gitattributes": attributes, "k": b"k\n"},
                                               {"a.dat": data}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


MIXED = b"".join(b"line %d%s" % (n, b"\r\n" if n % 2 else b"\n") for n in range(40))


@pytest.mark.parametrize(("after", "extra"), [
    (MIXED.replace(b"\r\n", b"\n"), b""), (MIXED.replace(b"\r\n", b"\n").replace(
        b"line 4\n", b"line 4\r\n"), b""), (MIXED.replace(b"\r\n", b"\n"), b"a\0")],
    ids=["renormalized", "other-lines-crlf", "holding-a-nul"])
@EXPLICIT_TEXT
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_blob_of_mixed_endings_renormalized_is_exported(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...], after: bytes,
        extra: bytes) -> None:
    """a.txt is a blob holding CRLF on some lines and LF on others (committed before its
    attribute); a commit makes it all LF (git add --renormalize), or moves its CRLFs to
    other lines, and edits k. Under an explicit text attribute both blobs are one all-CRLF
    file on disk: both exports left a.txt out, and git apply and git am made a tree B
    never had, exit 0 (QA s42 helper-128 H2, older). The bytes of such a blob are read
    from git (``Accepted.found_blobs``)."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes, "a.txt": extra + MIXED, "k": b"k\n"},
        {"a.txt": extra + after, "k": b"k2\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("how", ["accepted", "first-rejected", "last-rejected"])
@EXPLICIT_TEXT
@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_edited_blob_of_mixed_endings_is_exported_as_git_stores_it(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...],
        how: str) -> None:
    """a.txt is a blob of mixed line endings; a commit edits three of its lines. The
    exports wrote the old side as the checkout's all-CRLF lines, and git apply and git am
    refused them, accepted whole or with a hunk rejected (QA s42 helper-128 M4, older).
    Accepted whole, the export gives B's blob; reviewed, what git add makes of the file."""
    from reviewtui.core.engine import Decision

    lines = MIXED.splitlines(keepends=True)
    edited = list(lines)
    for at, word in ((2, b"ONE"), (19, b"TWO"), (35, b"THREE")):
        edited[at] = word + lines[at][len(b"line %d" % at):]
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes, "a.txt": MIXED, "k": b"k\n"},
        {"a.txt": b"".join(edited)}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    if how == "accepted":
        out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
        _applies_to_a(source, commits, out, form, tmp_path)
        return
    state = tmp_path / "review.json"
    refused = 0 if how == "first-rejected" else 2
    assert _reviewed(commits, repo, state, lambda pos: Decision.reject() if pos == refused
                     else Decision.accept()) == 3
    want, got = _blob_as_exported(source, commits, repo, state, form, tmp_path)
    assert got == want


@pytest.mark.parametrize("moved", [False, True], ids=["alone", "old-blob-moved-away"])
@pytest.mark.parametrize("config", [(), AUTOCRLF], ids=["text-eol-crlf", "autocrlf"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_an_endings_change_with_a_mode_change_keeps_the_blob_left(
        tmp_path: Path, form: str, config: tuple[str, ...], moved: bool) -> None:
    """A commit makes b.txt executable; the next turns its LF blob into the CRLF blob of
    the same text and its mode back (a section of an edit, which carries the blobs, then
    a mode change): one CRLF file of one mode at A and at B. The whole patch took the mode
    change for the last writer and forgot the CRLF blob, and git apply made a tree B never
    had, exit 0 (s42 fuzz seed 4013, older)."""
    lf = b"".join(b"line %d\n" % n for n in range(1, 13))
    first: dict[str, bytes | None] = {"b.txt": lf, "k": b"k\n"}
    if not config:
        first[".gitattributes"] = b"* text eol=crlf\n"
    source, commits = _staged_first(tmp_path, [first])
    lf_blob = git(source, "rev-parse", "HEAD:b.txt").strip()
    for mode, data in (("100755", lf), ("100644", lf.replace(b"\n", b"\r\n"))):
        blob = git(source, "hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
        git(source, "update-index", "--cacheinfo", f"{mode},{blob},b.txt")
        if moved and mode == "100644":  # (the old blob at another path: git reads no rename)
            git(source, "update-index", "--add", "--cacheinfo", f"100755,{lf_blob},c.txt")
        git(source, "commit", "-q", "-m", f"mode {mode}")
        commits.append(git(source, "rev-parse", "HEAD").strip())
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


OTHER_MIXED = b"".join(b"line %d%s" % (n, b"\n" if n % 2 else b"\r\n") for n in range(40))


@pytest.mark.parametrize("case", ["deleted", "deleted-and-added-again", "added-as-another-blob",
                                  "renamed-as-another-blob"])
@EXPLICIT_TEXT
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_blob_of_mixed_endings_deleted_or_moved_is_exported(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...],
        case: str) -> None:
    """a.txt is a blob of mixed line endings (all CRLF on disk). Deleted, its removal was
    written with the checkout's CRLF lines, which git refused (QA s42 helper-129 M1);
    deleted and added again as another blob of the same checkout, the whole patch left it
    out, exit 0 (H2); renamed as another blob of the same checkout (with a NUL), git
    refused the exports (M2; the series was exit 0 wrong before s42). All older. The
    deletion's blob is read from git too."""
    nul = b"a\0" if case == "renamed-as-another-blob" else b""
    steps: list[dict[str, bytes | None]] = [
        {".gitattributes": attributes, "a.txt": nul + MIXED, "k": b"k\n"}]
    if case == "deleted":
        steps.append({"a.txt": None, "k": b"k2\n"})
    elif case == "deleted-and-added-again":
        steps += [{"a.txt": None}, {"a.txt": MIXED, "k": b"k2\n"}]
    elif case == "added-as-another-blob":
        steps += [{"a.txt": None}, {"a.txt": OTHER_MIXED, "k": b"k2\n"}]
    else:
        steps.append({"a.txt": None, "c.txt": nul + OTHER_MIXED, "k": b"k2\n"})
    source, commits = _staged_first(tmp_path, steps)
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)


@pytest.mark.parametrize("again", [MIXED, OTHER_MIXED, MIXED.replace(b"\r\n", b"\n")],
                         ids=["same-blob", "another-mixed-blob", "lf-blob"])
@EXPLICIT_TEXT
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_blob_of_mixed_endings_moved_as_it_is_keeps_its_blob(
        tmp_path: Path, form: str, attributes: bytes, config: tuple[str, ...],
        again: bytes) -> None:
    """b.txt, a blob of mixed line endings, is moved to a.txt as it is; a later commit
    adds b.txt again. No section reads the moved blob, and its all-CRLF checkout does
    not tell it: the whole patch wrote a.txt with the checkout's CRLF and left b.txt as
    it was, exit 0 (QA s42 helper-130 H1, older). The base's such blobs are read from git."""
    source, commits = _staged_first(tmp_path, [
        {".gitattributes": attributes, "b.txt": MIXED, "k": b"k\n"},
        {"b.txt": None, "a.txt": MIXED}, {"b.txt": again, "k": b"k2\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], config)
    out = _applied_and_exported(repo, f"{commits[0]}..{commits[-1]}", tmp_path, form)
    _applies_to_a(source, commits, out, form, tmp_path)
