"""Real git repositories in temporary folders for the git tests."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from pathlib import Path

ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
# Fixed dates: the same commits (and ids) on every run, so snapshots can show them.
ENV.update({"GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
            "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
            "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z"})


def git(repo: Path, *args: str, input: bytes | None = None) -> str:
    done = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args], cwd=repo,
                          input=input, capture_output=True, env=ENV, check=True)
    return done.stdout.decode("utf-8", "surrogateescape")


def git_bytes(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, env=ENV,
                          check=True).stdout


def configure(repo: Path, **settings: str) -> None:
    """``git config`` of each ``section__key=value`` (``user__name="R"``), written into the
    repository's own config file as git writes it: a git process per setting was a
    thousand processes of the suite. Repositories whose ``.git`` is no folder (a worktree's
    link) get ``git config``."""
    config = repo / ".git" / "config"
    if not config.is_file():
        for name, value in settings.items():
            git(repo, "config", name.replace("__", "."), value)
        return
    sections: dict[str, list[str]] = {}
    for name, value in settings.items():
        section, key = name.split("__")
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        sections.setdefault(section, []).append(f'\t{key} = "{quoted}"\n')
    with config.open("a") as out:
        out.write("".join(f"[{section}]\n" + "".join(lines)
                          for section, lines in sections.items()))


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    configure(path, user__name="Rita Reviewer", user__email="rita@example.org",
              core__autocrlf="false")
    return path


def head_of(repo: Path) -> str:
    """The commit HEAD names, read from the repository's files where git keeps it loose
    (else ``git rev-parse``)."""
    git_dir = repo / ".git"
    with contextlib.suppress(OSError):
        head = (git_dir / "HEAD").read_text().strip()
        if head.startswith("ref: "):
            head = (git_dir / head[5:]).read_text().strip()
        if len(head) == 40:
            return head
    return git(repo, "rev-parse", "HEAD").strip()


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return head_of(repo)


BINARY = bytes(range(256)) * 4


def stored_commits(where: Path, steps: list[dict[str, bytes | None]]
                   ) -> tuple[Path, list[str]]:
    """A new repository at ``where`` with a commit per step (path -> bytes, None removes),
    every blob holding the bytes given (``hash-object --no-filters``: no attribute converts
    them); the repository and the commits, in order."""
    source = new_repo(where)
    commits = []
    with tempfile.TemporaryDirectory() as scratch:
        for files in steps:
            # A step's blobs in one hash-object and its index in one update-index (a
            # process per file and command was most of the git tests' processes).
            kept = [(name, data) for name, data in files.items() if data is not None]
            for n, (_, data) in enumerate(kept):
                Path(scratch, str(n)).write_bytes(data)
            blobs = git(source, "hash-object", "-w", "--no-filters", "--stdin-paths",
                        input="".join(f"{scratch}/{n}\n" for n in range(len(kept))
                                      ).encode()).split() if kept else []
            entries = {name: f"0 {'0' * 40}" for name, data in files.items() if data is None}
            entries.update((name, f"100644 {blob}")
                           for (name, _), blob in zip(kept, blobs, strict=True))
            if entries:
                git(source, "update-index", "-z", "--index-info", input=b"".join(
                    f"{entry}\t".encode() + os.fsencode(name) + b"\0"
                    for name, entry in entries.items()))
            git(source, "commit", "-q", "--allow-empty", "-m", "step")
            commits.append(head_of(source))
    return source, commits


def clone_at(source: Path, where: Path, rev: str, *config: str) -> Path:
    """A clone of ``source`` at ``where`` with these ``-c`` settings (``core.autocrlf=true``),
    checked out at ``rev`` (detached): what git itself writes there."""
    settings = [part for setting in config for part in ("-c", setting)]
    git(where.parent, "clone", "-q", *settings, str(source), str(where))
    git(where, "checkout", "-q", "--detach", rev)
    return where


def five_commits(repo: Path) -> tuple[str, str]:
    """A base commit, then: an edit, a rename, a mode change, a binary file, a CRLF edit."""
    (repo / "notes.txt").write_text("one\ntwo\nthree\nfour\n")
    (repo / "old_name.py").write_text("def f():\n    return 1\n")
    (repo / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (repo / "dos.txt").write_bytes(b"alpha\r\nbeta\r\ngamma\r\n")
    base = commit_all(repo, "Base")
    (repo / "notes.txt").write_text("one\nTWO\nthree\nfour\n")
    commit_all(repo, "Shout the second note\n\nThe reviewer asked for emphasis.")
    (repo / "old_name.py").rename(repo / "new_name.py")
    commit_all(repo, "Rename old_name.py to new_name.py")
    (repo / "run.sh").chmod(0o755)
    commit_all(repo, "Make run.sh executable")
    (repo / "logo.bin").write_bytes(BINARY)
    commit_all(repo, "Add a binary logo")
    (repo / "dos.txt").write_bytes(b"alpha\r\nBETA\r\ngamma\r\ndelta\r\n")
    head = commit_all(repo, "Edit the CRLF file")
    return base, head


def tree_of(repo: Path, rev: str) -> dict[str, tuple[str, bytes]]:
    """path -> (git mode, content) of every file of ``rev``."""
    listed = []
    for item in git_bytes(repo, "ls-tree", "-r", "-z", rev).split(b"\0"):
        if not item:
            continue
        meta, _, path = item.partition(b"\t")
        mode, _, sha = meta.decode().split()
        listed.append((path.decode(), mode, sha))
    if not listed:
        return {}
    # Every blob from one cat-file (a process per blob was a thousand in the suite).
    batch = subprocess.run(["git", "cat-file", "--batch"], cwd=repo, capture_output=True,
                           env=ENV, check=True, input="".join(
                               f"{sha}\n" for _, _, sha in listed).encode()).stdout
    out: dict[str, tuple[str, bytes]] = {}
    at = 0
    for path, mode, sha in listed:
        header_end = batch.index(b"\n", at)
        header = batch[at:header_end].split()
        if header[1:2] != [b"blob"]:  # a submodule's commit, missing or not: no blob
            raise subprocess.CalledProcessError(128, ["git", "cat-file", "blob", sha])
        found, _, size = header
        assert found.decode() == sha, header
        start = header_end + 1
        out[path] = (mode, batch[start:start + int(size)])
        at = start + int(size) + 1
    return out


def disk_of(root: Path) -> dict[str, tuple[str, bytes]]:
    """The same shape for a folder on disk (``.git`` left out)."""
    out: dict[str, tuple[str, bytes]] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".git" or not path.is_file():
            continue
        mode = "100755" if path.stat().st_mode & 0o111 else "100644"
        out[rel.as_posix()] = (mode, path.read_bytes())
    return out


def raw_object(repo: Path, kind: bytes, body: bytes) -> str:
    """Write a loose object as git would, without git's own checks (crafted trees)."""
    import hashlib
    import zlib

    raw = kind + b" %d\0" % len(body) + body
    sha = hashlib.sha1(raw).hexdigest()
    folder = repo / ".git" / "objects" / sha[:2]
    folder.mkdir(exist_ok=True)
    (folder / sha[2:]).write_bytes(zlib.compress(raw))
    return sha


def raw_tree(repo: Path, entries: list[tuple[bytes, bytes, str]]) -> str:
    """A tree object from (mode, name, sha) entries, in the order given."""
    return raw_object(repo, b"tree", b"".join(
        mode + b" " + name + b"\0" + bytes.fromhex(sha) for mode, name, sha in entries))


def link_file_link(tmp_path: Path, *, at_base: bool) -> tuple[Path, list[str]]:
    """A repository where a.txt is a file at A (``at_base``) or no file, then a link to k,
    a file again, and a link again, a commit each. Returns it (at B) and its commits."""
    repo = new_repo(tmp_path / "repo")
    (repo / "k").write_text("k\n")
    if at_base:
        (repo / "a.txt").write_text("first text\n")
    commits = [commit_all(repo, "A")]
    for step in ("link", "file", "link"):
        if (repo / "a.txt").is_symlink() or (repo / "a.txt").exists():
            (repo / "a.txt").unlink()
        if step == "link":
            (repo / "a.txt").symlink_to("k")
        else:
            (repo / "a.txt").write_text("line 1\nline 2\n")
        commits.append(commit_all(repo, step))
    return repo, commits
