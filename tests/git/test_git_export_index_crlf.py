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

from pathlib import Path

import pytest

from gitkit import git, stored_commits, tree_of
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.git_commit import commit_review
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review

LINES = [b"line %d\r\n" % n for n in range(30)]
CRLF = b"".join(LINES)


def _edited(*words: tuple[int, bytes]) -> bytes:
    lines = list(LINES)
    for at, word in words:
        lines[at] = word + b"\r\n"
    return b"".join(lines)


EDITED = _edited((2, b"ONE"), (15, b"TWO"), (27, b"THREE"))
# name -> (commits after A, each path -> bytes or None; the path reviewed)
CASES: dict[str, tuple[list[dict[str, bytes | None]], str]] = {
    "renamed": ([{"z.txt": None, "y.txt": EDITED}], "y.txt"),
    "renamed-then-edited": ([{"z.txt": None, "y.txt": CRLF}, {"y.txt": EDITED}], "y.txt"),
    "added-then-edited": ([{"n.txt": CRLF}, {"n.txt": EDITED}], "n.txt"),
    "in-place": ([{"z.txt": EDITED}], "z.txt"),  # the index has CRLF there: kept
}
CONFIGS = {"autocrlf": (("core.autocrlf=true",), b""), "input": (("core.autocrlf=input",), b""),
           "text-auto": ((), b"* text=auto\n")}


def _source(tmp_path: Path, attributes: bytes, steps: list[dict[str, bytes | None]]
            ) -> tuple[Path, list[str]]:
    """Commits whose blobs hold the bytes given (no attribute converts them)."""
    return stored_commits(tmp_path / "source", [
        {".gitattributes": attributes or b"*.md text\n", "z.txt": CRLF}, *steps])


def _clone(source: Path, where: Path, rev: str, config: tuple[str, ...]) -> Path:
    settings = [part for setting in config for part in ("-c", setting)]
    git(where.parent, "clone", "-q", "--no-checkout", *settings, str(source), str(where))
    git(where, "checkout", "-q", "--detach", rev)
    return where


@pytest.mark.parametrize("form", ["patch", "series"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_export_stores_what_git_add_stores(tmp_path: Path, case: str, config: str,
                                              form: str) -> None:
    """The patch, one commit of the whole result: what ``git add -A`` of the reviewed
    checkout stores (the index read is the base's). The series, a commit per turn: what
    the review's own commits store (``git add`` of each turn's files on an index of the
    commit before: a file renamed or added by an earlier commit keeps its CRLF there)."""
    steps, path = CASES[case]
    settings, attributes = CONFIGS[config]
    source, commits = _source(tmp_path, attributes, steps)
    repo = _clone(source, tmp_path / "review", commits[0], settings)
    git(repo, "config", "user.name", "R")
    git(repo, "config", "user.email", "r@example.com")
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    opened = open_range(spec, str(repo), keep=True)
    rejected = 0
    try:
        with Review.open(opened.session, opened.root, state_path=state) as review:
            for turn in review.session.turns:
                for pos, op in enumerate(turn.reply.ops):
                    middle = turn.index == len(commits) - 1 and "TWO" in str(op)
                    rejected += middle
                    review.decide((turn.index, pos),
                                  Decision.reject() if middle else Decision.accept())
            made = commit_review(review, "reviewed").commits
    finally:
        opened.close()
    assert rejected == 1
    assert len(made) == len(commits) - 1
    assert (repo / path).read_bytes() == EDITED.replace(b"TWO", b"line 15")  # as checked out
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
        kept = case == "in-place"
    else:
        git(plain, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
            "--keep-cr", str(out))
        for back in range(len(made)):
            assert tree_of(plain, f"HEAD~{back}") == tree_of(repo, f"reviewed~{back}")
        want = git(repo, "rev-parse", f"reviewed:{path}").strip()
        kept = case != "renamed"
    stored = git(repo, "cat-file", "-p", want).encode()
    assert (b"\r\n" in stored) == kept  # git's rule, not the test's
