"""Real history replayed byte for byte (issue 14): ``bench/history.py`` run from the tests.

Each commit's own ``git diff -M --binary`` is applied to its parent's tree with
``reviewtui apply`` and with ``git apply``, and both trees are compared with the commit's
(bytes, executable bits, symbolic links). Two histories: this repository's own, and a
small one built here so CRLF, a BOM, binary literals and deltas, symbolic links and mode
changes are exercised whatever the own history holds. Wrong with exit code 0 must never
happen; on every commit ``git apply`` reproduces, reviewtui must too (or refuse for a
reason tracked elsewhere, listed below).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reviewtui.cli import main

REPO = Path(__file__).resolve().parents[2]


def _load_history() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_history", REPO / "bench" / "history.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_history"] = module
    spec.loader.exec_module(module)
    return module


history = _load_history()


class _InProcess:
    """``bench/history.py``'s ``subprocess`` as its replays see it here: ``reviewtui apply``
    runs through ``main()`` in this process, with the working directory, environment and
    arguments the replay gave the child; every other program (git, patch) still runs as one.

    What these tests judge is what ``apply`` wrote and its exit status, not the process: a
    child per commit spent ~0.15 s of CPU importing reviewtui, some 60 times a run (the
    entry point and its exit are tested in tests/cli/).
    """

    PIPE = subprocess.PIPE

    def __init__(self, command: list[str]) -> None:
        self.command = command

    def Popen(self, *args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        return subprocess.Popen(*args, **kwargs)

    def run(self, argv: list[str], *, cwd: Path | None = None,
            env: dict[str, str] | None = None, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        if argv[:len(self.command)] != self.command:
            return subprocess.run(argv, cwd=cwd, env=env, **kwargs)
        assert kwargs == {"capture_output": True, "check": False}, kwargs
        out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
        out = io.TextIOWrapper(out_bytes, encoding="utf-8")
        err = io.TextIOWrapper(err_bytes, encoding="utf-8")
        with pytest.MonkeyPatch.context() as patch:
            if cwd is not None:
                patch.chdir(cwd)
            for name in set(os.environ) - set(env or os.environ):
                patch.delenv(name)
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(argv[len(self.command):])
                except SystemExit as stop:  # argparse: a usage error
                    code = stop.code if isinstance(stop.code, int) else 1
        out.flush()
        err.flush()
        return subprocess.CompletedProcess(argv, code, out_bytes.getvalue(), err_bytes.getvalue())


@pytest.fixture(autouse=True)
def apply_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "subprocess", _InProcess(history.reviewtui_command()))

# Refusals of the own history that other items of issue 14 own: a literal "..." read as a
# placeholder in a unified diff (item 6) and the built-in Gemfile.lock reservation (item 7).
# Each is a refusal with a reason, not a wrong tree; drop an entry once its item lands.
TRACKED_ELSEWHERE = ("placeholder", "reserved by built-in generated file")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent",
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def noise(n: int, seed: int) -> bytes:
    out = bytearray()
    value = seed
    while len(out) < n:
        value = (value * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(value >> 16 & 0xFF)
    return bytes(out)


TESTS_PY = "import app\n\n\ndef test_one():\n    assert app.one() == 1\n"


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A history with every feature real histories throw at the importer."""
    repo = tmp_path_factory.mktemp("synthetic")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "core.autocrlf", "false")
    (repo / "a.txt").write_text("one\ntwo\nthree\nfour\nfive\nsix\n")
    (repo / "crlf.txt").write_bytes(b"alpha\r\nbeta\r\ngamma\r\ndelta\r\n")
    (repo / "bom.txt").write_bytes("\ufeffhello\nworld\n".encode())
    (repo / "data.bin").write_bytes(b"\0" + noise(6000, 1))
    (repo / "run.sh").write_text("echo run\n")
    (repo / "test_app.py").write_text(TESTS_PY)
    (repo / "mixed.txt").write_bytes(b"one\ntwo\r\nthree\nfour\r\nfive\r\nsix\r\n")
    (repo / "blank.py").write_bytes(b"\n")
    commit(repo, "base")
    (repo / "win.bat").write_bytes(b"@echo off\r\necho hi\r\n")
    (repo / "bom2.txt").write_bytes("\ufeffnew bom file\n".encode())
    (repo / "tool.sh").write_text("#!/bin/sh\necho tool\n")
    os.chmod(repo / "tool.sh", 0o755)
    commit(repo, "CRLF, BOM and executable new files")
    data = bytearray((repo / "data.bin").read_bytes())
    data[3000:3010] = b"CHANGED..."
    (repo / "data.bin").write_bytes(bytes(data))
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0" + noise(300, 7))
    commit(repo, "binary delta and binary literal")
    os.chmod(repo / "run.sh", 0o755)
    (repo / "crlf.txt").write_bytes(b"alpha\r\nBETA\r\ngamma\r\ndelta\r\n")
    (repo / "tool.sh").write_text("#!/bin/sh\necho tool v2\n")
    os.chmod(repo / "tool.sh", 0o644)
    commit(repo, "mode only, CRLF edit, mode and content")
    (repo / "test_app.py").write_text(TESTS_PY + "\n\ndef test_two():\n    assert app.two()\n")
    (repo / "a.txt").write_text("ONE\ntwo\nthree\nfour\nfive\nsix\n")
    commit(repo, "append at the end, change line 1")
    git(repo, "mv", "a.txt", "b.txt")
    (repo / "b.txt").write_text("ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n")
    (repo / "data.bin").unlink()
    (repo / "bom.txt").write_bytes("\ufeffhello\nthere\n".encode())
    commit(repo, "rename with a change, binary removed, BOM edit")
    os.symlink("b.txt", repo / "link")
    commit(repo, "a symbolic link")
    (repo / "link").unlink()
    os.symlink("bom.txt", repo / "link")
    (repo / "run.sh").unlink()
    os.symlink("b.txt", repo / "run.sh")
    os.mkdir(repo / "sub")
    os.symlink("../crlf.txt", repo / "sub" / "up")
    commit(repo, "a link retargeted, a file made a link, a link up a folder")
    (repo / "link").unlink()
    (repo / "link").write_text("a file now\n")
    (repo / "run.sh").unlink()
    commit(repo, "a link made a file, a link removed")
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0" + noise(300, 8))
    commit(repo, "binary rewritten")
    # What AutoMapper's history holds (the old code wrote each with the file's old
    # conventions, exit 0): endings converted, a mark dropped, LF lines in a mixed file,
    # and a file of one blank line given content.
    (repo / "crlf.txt").write_bytes(b"alpha\nBETA\ngamma\ndelta\n")
    (repo / "bom.txt").write_bytes(b"hello\nthere\n")
    (repo / "mixed.txt").write_bytes(b"ONE\ntwo\r\nthree\nadded\n\nfour\r\nfive\r\nsix\r\n")
    (repo / "blank.py").write_bytes(b"\nimport os\n")
    commit(repo, "line endings converted, a BOM dropped, LF lines in a mixed file")
    return repo


def test_synthetic_history_replays_like_git_apply(synthetic: Path) -> None:
    report = history.replay(synthetic, 20)
    assert len(report.commits) == 10
    assert report.tallies["git apply"].match == 10
    assert report.tallies["reviewtui"].wrong == 0
    assert report.tallies["reviewtui"].refused_wrong_files == 0
    verdicts = {c.commit: c.results["reviewtui"] for c in report.commits}
    # Every commit, links included (made, retargeted, turned into files and back, removed).
    assert set(verdicts.values()) == {"match"}, report.commits


def test_synthetic_history_under_drift_changes_no_file_wrongly(synthetic: Path) -> None:
    for k in (1, -1, 2):
        report = history.drift(synthetic, 20, k)
        assert report.commits > 0
        assert report.tallies["reviewtui"].wrong == 0, report.wrong_files


# What a diff can carry besides plain text hunks, and how `git log -p --binary -M` shows it.
DIFF_FEATURES: dict[str, tuple[bytes, ...]] = {
    "rename": (b"rename from ",),
    "copy": (b"copy from ",),
    "binary": (b"GIT binary patch", b"Binary files "),
    "mode change": (b"old mode ",),
    "executable or link": (b"new file mode 100755", b"new file mode 120000",
                           b"deleted file mode 120000"),
    "deletion": (b"deleted file mode ",),
    "no newline at end": (b"\\ No newline at end of file",),
}
OWN_HISTORY = 40  # the window of own commits looked at
OWN_SAMPLE_EVERY = 4  # of the plain ones, every fourth (and the newest) is replayed


def diff_features(repo: Path, n: int) -> dict[str, set[str]]:
    """The features of each of the last ``n`` commits' diffs, by full id, newest first."""
    out = subprocess.run(["git", "-C", str(repo), "log", f"-n{n}", "--no-merges", "-M", "-p",
                          "--binary", "--no-color", "--no-ext-diff", "--format=%x00%H"],
                         capture_output=True, check=True).stdout
    found: dict[str, set[str]] = {}
    current: set[str] = set()
    for line in out.split(b"\n"):
        if line.startswith(b"\0"):
            current = found.setdefault(line[1:].decode(), set())
            continue
        for feature, starts in DIFF_FEATURES.items():
            if line.startswith(starts):
                current.add(feature)
        if line[:1] in (b"+", b"-", b" ") and not line.startswith((b"+++ ", b"--- ")):
            if line.endswith(b"\r"):
                current.add("CRLF")
            if line[1:4] == b"\xef\xbb\xbf":
                current.add("BOM")
    return found


def own_commits_to_replay() -> list[str]:
    """Of the last OWN_HISTORY own commits: each whose diff carries a feature of its own
    (rename, copy, binary, mode change, link, deletion, missing final newline, CRLF, BOM),
    plus the newest and every OWN_SAMPLE_EVERY-th of the rest as a sample of plain text
    hunks. Replaying all forty cost 39 s of a 2-minute suite on a quiet 2-core machine;
    binary and mode commits from the whole history have their own test below, and the
    synthetic history above builds every feature whether or not the own history has it.
    """
    features = diff_features(REPO, OWN_HISTORY)
    newest_first = list(features)
    return [sha for index, sha in enumerate(newest_first)
            if features[sha] or index % OWN_SAMPLE_EVERY == 0]


@pytest.mark.slow
def test_own_history_replays_like_git_apply() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("LOUD: this copy of reviewtui is not a git checkout, so it has no "
                    "history to replay (the synthetic history above still runs)")
    chosen = own_commits_to_replay()
    report = history.replay(REPO, OWN_HISTORY, only=set(chosen))
    assert report.commits, "no commits with a parent: a shallow clone?"
    # Every chosen commit with a parent was replayed (only the root commit has none).
    assert len(report.commits) >= len(chosen) - 1
    ours = report.tallies["reviewtui"]
    assert ours.wrong == 0, [(c.commit, c.notes) for c in report.commits]
    for c in report.commits:
        if c.results["git apply"] != "match" or c.results["reviewtui"] == "match":
            continue
        note = c.notes.get("reviewtui", "")
        assert c.results["reviewtui"] == "refused", (c.commit, note)
        assert any(reason in note for reason in TRACKED_ELSEWHERE), (c.commit, note)


def test_the_feature_scan_sees_what_the_synthetic_history_holds(synthetic: Path) -> None:
    """The scan that picks own commits finds each feature where the synthetic history has it."""
    by_message = {}
    for sha, features in diff_features(synthetic, 20).items():
        message = subprocess.run(["git", "-C", str(synthetic), "log", "-1", "--format=%s", sha],
                                 capture_output=True, check=True, text=True).stdout.strip()
        by_message[message] = features
    assert by_message["CRLF, BOM and executable new files"] == {
        "CRLF", "BOM", "executable or link"}
    assert by_message["binary delta and binary literal"] == {"binary"}
    assert by_message["mode only, CRLF edit, mode and content"] == {"mode change", "CRLF"}
    assert by_message["rename with a change, binary removed, BOM edit"] == {
        "rename", "binary", "deletion", "BOM"}
    assert by_message["a symbolic link"] == {"executable or link", "no newline at end"}
    assert by_message["append at the end, change line 1"] == set()


def feature_commits(limit: int = 12) -> list[str]:
    """Own commits with binary files, mode changes or CRLF lines, wherever in history."""
    out = subprocess.run(["git", "-C", str(REPO), "log", "--no-merges", "--numstat",
                          "--summary", "--format=@%H"], capture_output=True, check=True)
    found: list[str] = []
    current = ""
    for raw in out.stdout.decode(errors="replace").splitlines():
        if raw.startswith("@"):
            current = raw[1:]
        elif current and current not in found and (
                raw.startswith("-\t-\t") or " mode change " in raw
                or " create mode 100755" in raw):
            found.append(current)
    return found[:limit]


@pytest.mark.slow
def test_own_commits_with_binary_and_modes_replay_like_git_apply() -> None:
    if not (REPO / ".git").exists():
        pytest.skip("LOUD: this copy of reviewtui is not a git checkout: no own history")
    commits = feature_commits()
    assert commits, "the own history has binary files and mode changes (issue 14)"
    for sha in commits:
        report = history.replay(REPO, 1, rev=sha)
        if not report.commits:
            continue  # the root commit has no parent to apply to
        (result,) = report.commits
        assert report.tallies["reviewtui"].wrong == 0, (sha, result.notes)
        if result.results["git apply"] == "match" and result.results["reviewtui"] != "match":
            note = result.notes.get("reviewtui", "")
            assert any(reason in note for reason in TRACKED_ELSEWHERE), (sha, note)

