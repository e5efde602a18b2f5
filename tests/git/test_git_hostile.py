"""A repository is untrusted input: nothing it configures runs while reviewtui uses it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.core.engine import Decision
from reviewtui.shell.export import load_accepted
from reviewtui.shell.git_commit import commit_review, git_series
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.git_worktree import open_worktree
from reviewtui.shell.review import Review

PROGRAMS = ("hook", "external", "textconv", "clean", "process", "fsmonitor", "gpg", "pager")


def _armed_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A repository whose hooks and configuration would each leave a canary file."""
    canaries = tmp_path / "canaries"
    canaries.mkdir()
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("".join(f"{n}\n" for n in range(30)))
    commit_all(repo, "Base")
    (repo / "a.txt").write_text("".join(f"{n}\n" for n in range(30)).replace("5\n", "five\n"))
    head = commit_all(repo, "Five in words")
    git(repo, "reset", "-q", "--hard", "HEAD~1")

    def program(name: str) -> str:
        script = canaries / f"{name}.sh"
        script.write_text(f"#!/bin/sh\ntouch '{canaries}/{name}.ran'\ncat\n")
        script.chmod(0o755)
        return str(script)

    hooks = repo / ".git" / "hooks"
    for hook in ("pre-commit", "post-commit", "commit-msg", "reference-transaction",
                 "post-index-change", "post-checkout"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch '{canaries}/hook.ran'\n")
        (hooks / hook).chmod(0o755)
    (repo / ".gitattributes").write_text("* filter=evil diff=evil\n")
    git(repo, "add", ".gitattributes")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "attributes")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "cherry-pick", "-n", head)
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "Five in words")
    tip = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "reset", "-q", "--hard", base)
    for key, name in (("diff.external", "external"), ("diff.evil.textconv", "textconv"),
                      ("filter.evil.clean", "clean"), ("filter.evil.smudge", "clean"),
                      ("filter.evil.process", "process"), ("core.fsmonitor", "fsmonitor"),
                      ("gpg.program", "gpg"), ("core.pager", "pager")):
        git(repo, "config", key, program(name))
    git(repo, "config", "commit.gpgSign", "true")
    git(repo, "config", "log.showSignature", "true")
    (repo / "range.txt").write_text(f"{base}..{tip}")
    return repo, canaries


def _ran(canaries: Path) -> list[str]:
    return sorted(p.name for p in canaries.glob("*.ran"))


def test_nothing_the_repository_configures_runs(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    repo, canaries = _armed_repo(tmp_path)
    spec = (repo / "range.txt").read_text()
    (repo / "range.txt").unlink()
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))  # ignored: no GIT_* passes
    source = open_range(spec, str(repo), keep=True)
    with Review.open(source.session, source.root) as review:
        review.decide_many(review.applicable())
        assert "five" in (repo / "a.txt").read_text()
        accepted, _ = load_accepted(source.session, source.root)
        assert "Subject: [PATCH] Five in words" in git_series(accepted)
        report = commit_review(review)
    assert len(report.commits) == 1
    (repo / "a.txt").write_text((repo / "a.txt").read_text() + "tail\n")
    work = open_worktree(str(repo), keep=True)
    with Review.open(work.session, work.root, state_path=work.state) as review:
        key = sorted(review.decisions)[0]
        review.decide(key, Decision.reject())
        assert not (repo / "a.txt").read_text().endswith("tail\n")
    assert _ran(canaries) == []
    assert all(not (canaries / f"{name}.ran").exists() for name in PROGRAMS)
    assert os.environ["GIT_DIR"].endswith("elsewhere")


def _one_edit(tmp_path: Path, files: dict[str, str], edited: dict[str, str]
              ) -> tuple[Path, str, str]:
    """A repository of ``files``, then one commit writing ``edited``: (it, A, B)."""
    repo = new_repo(tmp_path / "repo")
    for name, text in files.items():
        (repo / name).write_text(text)
    base = commit_all(repo, "Base")
    for name, text in edited.items():
        (repo / name).write_text(text)
    return repo, base, commit_all(repo, "Edit")


def test_a_filter_named_with_an_equals_sign_never_runs(tmp_path: Path) -> None:
    """``-c filter.x=y.clean=`` sets the key ``filter.x`` (git splits at the first ``=``),
    so a driver named ``x=y`` stayed on and ran on ``--worktree`` and ``--commit`` (QA pass
    84b): the overrides now go through ``GIT_CONFIG_COUNT``."""
    from reviewtui.cli import main

    marker = tmp_path / "ran"
    repo, base, head = _one_edit(tmp_path, {".gitattributes": "* filter=x=y\n",
                                            "a.txt": "one\ntwo\n"}, {"a.txt": "one\nTWO\n"})
    for part in ("clean", "smudge"):
        git(repo, "config", f"filter.x=y.{part}", f"sh -c 'touch {marker}; cat'")
    git(repo, "config", "filter.x=y.required", "true")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "reviewed"]) == 0
    (repo / "a.txt").write_text("one\nTWO\nthree\n")
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    assert not marker.exists()
    assert git(repo, "rev-parse", "reviewed^{tree}") == git(repo, "rev-parse", f"{head}^{{tree}}")


def test_a_promised_object_is_never_fetched_through_the_repositorys_transport(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing object of a "partial clone" makes git fetch it from the promisor remote,
    whose URL may be a program (``ext::``): it ran (QA pass 84b). reviewtui allows no
    transport; the missing object is a refusal."""
    from reviewtui.cli import main

    marker = tmp_path / "ran"
    repo, base, head = _one_edit(tmp_path, {"a.txt": "a\n", "b.txt": "big\n"}, {"a.txt": "a2\n"})
    blob = git(repo, "rev-parse", f"{base}:b.txt").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    for key, value in (("core.repositoryformatversion", "1"),
                       ("extensions.partialClone", "origin"),
                       ("remote.origin.promisor", "true"),
                       ("remote.origin.url", f"ext::sh -c touch% {marker}% ;false"),
                       ("protocol.ext.allow", "always")):
        git(repo, "config", key, value)
    git(repo, "checkout", "-q", "--detach", head)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 2
    assert not marker.exists()
    assert f"the repository lacks b.txt ({blob})" in capsys.readouterr().err


def test_a_plain_diff_on_an_armed_checkout_runs_nothing_it_configures(
        tmp_path: Path) -> None:
    """A unified diff applied to a git checkout asks git how it converts each file
    (``shell/git_apply_rules.py``: ``rev-parse``, ``check-attr``); the repository's
    hooks, filters, fsmonitor, pager run none of their programs, also with ``core.autocrlf``
    making the file's rule one that converts."""
    from reviewtui.cli import main

    repo, canaries = _armed_repo(tmp_path)
    git(repo, "config", "core.autocrlf", "true")
    diff = tmp_path / "five.diff"
    diff.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -5,3 +5,3 @@\n 4\n-5\n+five\n 6\n")
    assert main(["apply", "--root", str(repo), "--yes", str(diff)]) == 0
    assert main(["check", "--root", str(repo), str(diff)]) == 1  # (applied: not found now)
    # (written as git apply writes it there: the rules were asked of git)
    assert (repo / "a.txt").read_bytes().count(b"\r\n") == 30
    assert b"five\r\n" in (repo / "a.txt").read_bytes()
    assert _ran(canaries) == []
