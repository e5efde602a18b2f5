"""What ``git add`` of the reviewed checkout stores for a file git converts only where the
index holds no CRLF (``text=auto``, ``core.autocrlf`` true or input): the exports store the
same blob.

QA s42 (helper-128 H4, older, exit 0 wrong): a CRLF blob renamed with a change (or added
by an earlier commit of the range) and a hunk of it rejected: both exports kept the CRLF
the blob found held, where ``git add -A`` of the reviewed checkout stores LF, since git
looks for CRLF in the index at the file's own path, and the checkout reviewed (the range's
base) has nothing there. Where it has a CRLF blob at that path, git keeps the CRLF.
The measure: ``git add -A`` in the reviewed checkout for the whole patch; the review's
own commits (a ``git add`` per turn) for the series; each export applied to A.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitkit import configure, git, stored_commits, tree_of
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.model.records import Edit
from reviewtui.shell.git_commit import commit_review
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review


def _text(nl: bytes, *words: tuple[int, bytes]) -> bytes:
    lines = [b"line %d" % n + nl for n in range(30)]
    for at, new in words:
        lines[at] = new + nl
    return b"".join(lines)


EDITS = ((2, b"ONE"), (15, b"TWO"), (27, b"THREE"))
CRLF, EDITED = _text(b"\r\n"), _text(b"\r\n", *EDITS)
LF, EDITED_LF = _text(b"\n"), _text(b"\n", *EDITS)
# name -> (commits after A, each path -> bytes or None (A holds z.txt as CRLF, c.txt as
# LF); the commit
# whose TWO hunk is rejected; the path that ends with it; whether the patch, and the
# series, keep its CRLF where the checkout has it: git's rule, told by git in the test)
CASES: dict[str, tuple[list[dict[str, bytes | None]], int, str, bool, bool]] = {
    "renamed": ([{"z.txt": None, "y.txt": EDITED}], 1, "y.txt", False, False),
    "renamed-then-edited": ([{"z.txt": None, "y.txt": CRLF}, {"y.txt": EDITED}], 2, "y.txt",
                            False, True),
    "added-then-edited": ([{"n.txt": CRLF}, {"n.txt": EDITED}], 2, "n.txt", False, True),
    "in-place": ([{"z.txt": EDITED}], 1, "z.txt", True, True),  # the index has CRLF there
    # QA s43 helper-131 H1: the base's CRLF blob made LF (the same checkout), then edited
    "renormalized-then-edited": ([{"z.txt": LF}, {"z.txt": EDITED_LF}], 2, "z.txt", True,
                                 False),
    # helper-131 H3: an LF file edited, then moved as it is onto the base's CRLF z.txt
    "moved-onto-a-crlf-path": ([{"z.txt": None, "c.txt": EDITED_LF},
                                {"c.txt": None, "z.txt": EDITED_LF}], 1, "z.txt", True, False),
}
CONFIGS = {"autocrlf": (("core.autocrlf=true",), b""), "input": (("core.autocrlf=input",), b""),
           "text-auto": ((), b"* text=auto\n")}


def _source(tmp_path: Path, attributes: bytes, steps: list[dict[str, bytes | None]]
            ) -> tuple[Path, list[str]]:
    """Commits whose blobs hold the bytes given (no attribute converts them)."""
    return stored_commits(tmp_path / "source", [
        {".gitattributes": attributes or b"*.md text\n", "z.txt": CRLF,
         "c.txt": LF}, *steps])


def _clone(source: Path, where: Path, rev: str, config: tuple[str, ...]) -> Path:
    settings = [part for setting in config for part in ("-c", setting)]
    git(where.parent, "clone", "-q", "--no-checkout", *settings, str(source), str(where))
    git(where, "checkout", "-q", "--detach", rev)
    return where


Choice = Callable[[Review, tuple[int, int], str], Decision]


def _reviewed(repo: Path, spec: str, state: Path, choose: Choice) -> tuple[str, ...]:
    """The range reviewed on ``repo`` (state saved at ``state``), each operation decided
    by ``choose(review, key, op_text)``; the review's own commits of it (``commit_review``
    on a branch ``reviewed``)."""
    configure(repo, user__name="R", user__email="r@example.com")
    opened = open_range(spec, str(repo), keep=True)
    try:
        with Review.open(opened.session, opened.root, state_path=state) as review:
            for turn in review.session.turns:
                for pos, op in enumerate(turn.reply.ops):
                    key = (turn.index, pos)
                    text = ("\n".join((*op.search_lines, *op.replace_lines))
                            if isinstance(op, Edit) else str(op))  # (what the diff shows)
                    review.decide(key, choose(review, key, text))
            return tuple(commit_review(review, "reviewed").commits)
    finally:
        opened.close()


def _exported_as_reviewed(tmp_path: Path, source: Path, base: str, repo: Path, spec: str,
                          state: Path, made: tuple[str, ...], form: str) -> None:
    """The export of the review applied to a plain clone at ``base``: the patch stores what
    ``git add -A`` of the reviewed checkout stores, the series' mails what the review's own
    commits (``made``) hold, commit by commit."""
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", form,
                 "--state", str(state), "-o", str(out)]) == 0
    plain = _clone(source, tmp_path / "plain", base, ())
    (plain / ".git" / "info" / "attributes").write_text("* -text\n")
    if form == "patch":
        git(repo, "add", "-A")
        git(plain, "apply", "--cached", str(out))
        assert git(plain, "write-tree").strip() == git(repo, "write-tree").strip()
        return
    git(plain, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
        "--keep-cr", str(out))
    for back in range(len(made)):
        assert tree_of(plain, f"HEAD~{back}") == tree_of(repo, f"reviewed~{back}")


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_export_stores_what_git_add_stores(tmp_path: Path, case: str, config: str,
                                              form: str) -> None:
    """The patch, one commit of the whole result: what ``git add -A`` of the reviewed
    checkout stores (the index read is the base's). The series, a commit per turn: what
    the review's own commits store (``git add`` of each turn's files on an index of the
    commit before: a file renamed or added by an earlier commit keeps its CRLF there)."""
    steps, rejecting, path, patch_keeps, series_keeps = CASES[case]
    settings, attributes = CONFIGS[config]
    source, commits = _source(tmp_path, attributes, steps)
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    rejected: list[tuple[int, int]] = []

    def choose(_review: Review, key: tuple[int, int], op: str) -> Decision:
        if key[0] == rejecting and "TWO" in op:
            rejected.append(key)
            return Decision.reject()
        return Decision.accept()

    made = _reviewed(repo, spec, state, choose)
    assert len(rejected) == 1
    assert len(made) == len(commits) - 1
    on_disk = (repo / path).read_bytes()
    assert on_disk.replace(b"\r\n", b"\n") == EDITED_LF.replace(b"TWO", b"line 15")
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", form,
                 "--state", str(state), "-o", str(out)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    (plain / ".git" / "info" / "attributes").write_text("* -text\n")
    if form == "patch":
        git(repo, "add", "-A")
        want = git(repo, "rev-parse", f":{path}").strip()
        git(plain, "apply", "--cached", str(out))
        assert git(plain, "rev-parse", f":{path}").strip() == want
        kept = patch_keeps
    else:
        git(plain, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
            "--keep-cr", str(out))
        for back in range(len(made)):
            assert tree_of(plain, f"HEAD~{back}") == tree_of(repo, f"reviewed~{back}")
        want = git(repo, "rev-parse", f"reviewed:{path}").strip()
        kept = series_keeps
    stored = git(repo, "cat-file", "-p", want).encode()
    assert (b"\r\n" in stored) == (kept and b"\r\n" in on_disk)  # git's rule, seen


def test_a_file_that_is_the_blob_its_section_left_is_committed_as_that_blob(
        tmp_path: Path) -> None:
    """QA s43 helper-131 H2 (older): c1 changes lines 3 and 15 of a CRLF blob (line 15's
    hunk rejected), c2 renames the file and changes both back; its line-15 hunk, the
    section's last, is not found, and the file is exactly c2's blob. The review's own
    commit stored it through git add (LF: the index had no y.txt), since only a section's
    last operation carries its forms; the series stores the blob, as commit_review now."""
    v0, v2 = _text(b"\r\n", (3, b"V0-3"), (15, b"V0-15")), _text(b"\r\n", (3, b"V2-3"),
                                                                  (15, b"V2-15"))
    source, commits = stored_commits(tmp_path / "source", [
        {"z.txt": v2, "k": b"k\n"}, {"z.txt": v0}, {"z.txt": None, "y.txt": v2}])
    repo = _clone(source, tmp_path / "review", commits[0], ("core.autocrlf=true",))
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    unlanded: list[tuple[int, int]] = []

    def choose(review: Review, key: tuple[int, int], op: str) -> Decision:
        if "15" in op and "V" in op and (key[0] == 1 or not review.result(key).landed):
            if key[0] == 2:
                unlanded.append(key)
            return Decision.reject()
        return Decision.accept()

    made = _reviewed(repo, spec, state, choose)
    assert len(unlanded) == 1  # turn 2's line-15 hunk, the section's last, not found
    assert (repo / "y.txt").read_bytes() == v2  # git's checkout of c2's blob, as it is
    blob = git(source, "rev-parse", f"{commits[-1]}:y.txt").strip()
    assert git(repo, "rev-parse", "reviewed:y.txt").strip() == blob
    _exported_as_reviewed(tmp_path, source, commits[0], repo, spec, state, made, "series")


@pytest.mark.parametrize("config", ["autocrlf", "text-auto-eol-crlf"])
def test_a_rejected_rename_keeps_the_forms_of_the_file_it_leaves(tmp_path: Path,
                                                                 config: str) -> None:
    """QA s43 helper-132 H1 (older): c1 deletes a.txt and edits k, c2 renames k to a.txt
    with edits. The deletion and the rename rejected, the edits land on the a.txt kept;
    k is exactly the checkout of c1's LF blob. The landed edits of the renamed section
    forgot k's forms, and the whole patch stored k with the checkout's CRLF, exit 0."""
    lf = _text(b"\n")
    settings, attributes = ((("core.autocrlf=true",), b"*.md text\n") if config == "autocrlf"
                            else ((), b"* text=auto eol=crlf\n"))
    source, commits = stored_commits(tmp_path / "source", [
        {".gitattributes": attributes, "a.txt": _text(b"\r\n"), "k": lf},
        {"a.txt": None, "k": _text(b"\n", (3, b"E3"))},
        {"k": None, "a.txt": _text(b"\n", (3, b"E3"), (15, b"E15"), (27, b"E27"))}])
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    _reviewed(repo, spec, state, lambda _review, _key, op: (
        Decision.reject() if ":rm" in op or ":mv" in op else Decision.accept()))
    assert (repo / "k").exists()
    out = tmp_path / "out.patch"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", "patch",
                 "--state", str(state), "-o", str(out)]) == 0
    git(repo, "add", "-A")
    want = git(repo, "write-tree").strip()
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    (plain / ".git" / "info" / "attributes").write_text("* -text\n")
    git(plain, "apply", "--cached", str(out))
    assert git(plain, "write-tree").strip() == want
    assert b"\r\n" not in git(repo, "cat-file", "-p", f"{want}:k").encode()


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("line", [0, 11, 29])
def test_a_mail_finds_the_blob_the_mail_before_it_left(tmp_path: Path, config: str,
                                                       line: int) -> None:
    """qa55's fuzz seed 317 (older, loud): c1 makes the base's CRLF blob LF with an edit,
    c2 makes it CRLF again with another. The reviewer's own text for c1's hunk leaves
    CRLF on disk, which the review's commit of c1 keeps (the index before it holds a CRLF
    blob there). The series' mail of c2 read its old side as c1's LF blob, the blob its
    section found, and ``git am`` refused it: mail 1 had left CRLF. (The reviewer's text
    is c1's with a CR added to one ``line``: c2's hunk rewrites every line, and the
    matcher forgives a CR.)"""
    settings, attributes = CONFIGS[config]
    source, commits = _source(tmp_path, attributes, [
        {"z.txt": _text(b"\n", (2, b"ONE"))}, {"z.txt": _text(b"\r\n", (2, b"ONE"),
                                                                (15, b"TWO"))}])
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    edited: list[tuple[int, int]] = []

    def choose(review: Review, key: tuple[int, int], _op: str) -> Decision:
        op = review.result(key).op
        if key[0] == 1 and isinstance(op, Edit) and op.path == "z.txt":
            edited.append(key)
            lines = list(op.replace_lines)
            lines[line] += "\r"
            return Decision.edit(tuple(lines))
        return Decision.accept()

    made = _reviewed(repo, spec, state, choose)
    assert len(edited) == 1
    assert len(made) == 2
    # (git's rule: the CRLF stays where the checkout does not write c1's blob as CRLF)
    stored = git(repo, "cat-file", "-p", "reviewed~1:z.txt").encode()
    assert (b"\r\n" in stored) == (config != "autocrlf")
    _exported_as_reviewed(tmp_path, source, commits[0], repo, spec, state, made, "series")


ENDINGS_REJECTED: dict[str, list[dict[str, bytes | None]]] = {
    # qa55 fuzz seed 320: the base's CRLF blob, a commit making it LF (rejected), then
    # an edit of the LF blob (one hunk rejected)
    "in-place": [{"z.txt": LF}, {"z.txt": EDITED_LF}],
    # seed 337: the same after a rename, and the old path given a file again
    "renamed": [{"z.txt": None, "m.txt": CRLF}, {"m.txt": LF}, {"m.txt": EDITED_LF},
                {"z.txt": _text(b"\r\n", (5, b"NEW"))}],
    # the CRLF blob an accepted commit left, instead of the base's
    "left-by-a-commit": [{"z.txt": _text(b"\r\n", (2, b"ONE"))},
                         {"z.txt": _text(b"\n", (2, b"ONE"))}, {"z.txt": EDITED_LF}],
}


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("case", sorted(ENDINGS_REJECTED))
def test_a_blob_whose_endings_change_was_rejected_stays_the_bases(
        tmp_path: Path, case: str, config: str, form: str) -> None:
    """qa55 fuzz seeds 320, 337 (older, loud): a commit turning the base's CRLF blob LF
    is rejected, and a later commit edits the LF blob, one hunk rejected. That commit's
    section finds the LF blob for the file's CRLF bytes (the checkout writes both alike
    under autocrlf), and the exports took the base's file for it too: the patch's old
    side was LF and applied to nothing; so was the series'. The base's own blob is what
    the file holds until a landed operation changes it. Where an accepted commit left the
    CRLF blob instead (found writing this test, exit 0), the series stored the edited
    file LF where the review's commit keeps its CRLF (git's index holds CRLF there)."""
    settings, attributes = CONFIGS[config]
    source, commits = _source(tmp_path, attributes, ENDINGS_REJECTED[case])
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"

    endings = 2 if case == "left-by-a-commit" else 1 + (case == "renamed")

    def choose(_review: Review, key: tuple[int, int], op: str) -> Decision:
        if "TWO" in op or key[0] == endings:
            return Decision.reject()  # (a hunk of the edit; the endings change)
        return Decision.accept()

    made = _reviewed(repo, spec, state, choose)
    path = "m.txt" if case == "renamed" else "z.txt"
    assert (repo / path).read_bytes().replace(b"\r\n", b"\n") == _text(b"\n", (2, b"ONE"),
                                                                       (27, b"THREE"))
    _exported_as_reviewed(tmp_path, source, commits[0], repo, spec, state, made, form)


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_a_deletion_behind_a_rejected_endings_change_removes_the_bases_blob(
        tmp_path: Path, config: str, form: str) -> None:
    """qa55 fuzz seed 52 (older, loud): c1 turns the base's LF c.txt CRLF (rejected: the
    file stays the base's blob, written CRLF by autocrlf), c2 deletes it. The deletion
    names c1's CRLF blob, which the CRLF bytes on disk are byte for byte, and the series'
    mail removed that blob; git's index holds the base's LF one, and git am refused it."""
    settings, attributes = CONFIGS[config]
    source, commits = _source(tmp_path, attributes, [
        {"c.txt": _text(b"\r\n"), "k": b"k\n"}, {"c.txt": None, "k": b"k2\n"}])
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    rejected: list[tuple[int, int]] = []

    def choose(review: Review, key: tuple[int, int], _op: str) -> Decision:
        op = review.result(key).op
        if key[0] == 1 and isinstance(op, Edit) and op.path == "c.txt":
            rejected.append(key)
            return Decision.reject()
        return Decision.accept()

    made = _reviewed(repo, spec, state, choose)
    assert len(rejected) == 1
    assert not (repo / "c.txt").exists()
    _exported_as_reviewed(tmp_path, source, commits[0], repo, spec, state, made, form)


MIXED = CRLF.replace(b"line 7\r\n", b"line 7\n")  # (one line's ending LF)


@pytest.mark.parametrize("blob", ["crlf", "mixed"])
@pytest.mark.parametrize("attributes", [b"z.txt text eol=crlf\n", b"z.txt text\n",
                                        b"* text=auto\n"])
def test_a_mode_change_alone_commits_the_blob_it_found(tmp_path: Path,
                                                       attributes: bytes, blob: str) -> None:
    """qa55 fuzz seed 653 (older, exit 0): a commit that only makes a CRLF blob
    executable, under an explicit ``text`` attribute (which git add turns LF). The
    review's own commit staged the file through git add and held the LF blob: a commit
    the range never made, unlike the series and ``git am`` of it. A file whose bytes are
    the blob its path holds, as git checks it out, keeps that blob: a blob of mixed
    endings is checked out all CRLF under ``eol=crlf`` (QA s44 helper-136 F1, seeds 1030
    and 1039: its mode change alone was committed as an LF blob)."""
    source, commits = stored_commits(tmp_path / "source", [
        {".gitattributes": attributes, "z.txt": CRLF if blob == "crlf" else MIXED,
         "k": b"k\n"}, {"k": b"k2\n"}])
    found = git(source, "rev-parse", "HEAD:z.txt").strip()
    git(source, "update-index", "--cacheinfo", f"100755,{found},z.txt")
    git(source, "commit", "-q", "-m", "chmod")
    commits.append(git(source, "rev-parse", "HEAD").strip())
    repo = _clone(source, tmp_path / "review", commits[0], ("core.autocrlf=true",))
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    made = _reviewed(repo, spec, state, lambda _review, _key, _op: Decision.accept())
    assert len(made) == 2
    assert tree_of(repo, "reviewed") == tree_of(source, commits[-1])
    out = tmp_path / "out.series"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", "series",
                 "--state", str(state), "-o", str(out)]) == 0
    plain = _clone(source, tmp_path / "plain", commits[0], ())
    (plain / ".git" / "info" / "attributes").write_text("* -text\n")
    git(plain, "reset", "-q", "--hard")  # (checked out again as stored: a mixed blob too)
    git(plain, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
        "--keep-cr", str(out))
    assert tree_of(plain, "HEAD") == tree_of(source, commits[-1])
