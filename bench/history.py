"""Replay a git repository's real history through reviewtui, ``git apply`` and ``patch``.

    python bench/history.py REPO [N] [--drift K] [--keep]

For each of the last N non-merge commits of REPO (default 50), the commit's own
``git diff -M --binary PARENT COMMIT`` is applied to a copy of the parent's tree by
``reviewtui apply --format unified --yes --root DIR`` and by ``git apply``; each result is
compared with the commit's tree (bytes, executable bits, symbolic links). Per tool it
prints how many commits matched, were refused (non-zero exit), or came out wrong with exit
code 0 (the one outcome reviewtui must never produce), and the CPU time of the tool's
processes, side by side.

``--drift K`` applies each diff to the tree K commits older (K > 0) or newer (K < 0) than
its parent along the first-parent line instead, with reviewtui, ``git apply`` and GNU
``patch``. Every file a tool changed is compared with ``git merge-file``'s 3-way result
(ours: the drifted file, base: the parent's, theirs: the commit's): where that merge is
clean and the tool's file differs, the tool changed it wrongly. For reviewtui only the files
whose operations it reports as applied count (a file it refused stays as it was).

Trees are exported blob by blob (``git ls-tree`` + ``git cat-file --batch``): no filters,
no export-subst, symbolic links as links; submodules are skipped. Importable: tests call
:func:`replay` and :func:`drift` and read the returned records.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

GIT_DIFF = ("-c", "core.quotePath=true", "diff", "-M", "--binary", "--no-color",
            "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/")
LINK, FILE = "link", "file"
TOOLS = ("reviewtui", "git apply", "patch")

Entry = tuple[str, bytes, bool]  # (FILE or LINK, bytes or link target, executable)


# --- git --------------------------------------------------------------------------------

def git(repo: Path, *args: str, check: bool = True) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
    return done.stdout


class MissingObject(RuntimeError):
    """A blob this copy of the repository lacks (a mirror may leave out its largest
    files): a commit whose diff touches it is skipped, said in the report."""

    def __init__(self, oid: str) -> None:
        super().__init__(f"git cat-file: no object {oid}")


class Blobs:
    """Blob contents by id through one ``git cat-file --batch`` process, cached."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(["git", "-C", str(repo), "cat-file", "--batch"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._cache: dict[str, bytes] = {}

    def get(self, oid: str) -> bytes:
        data = self._cache.get(oid)
        if data is None:
            assert self._proc.stdin is not None
            assert self._proc.stdout is not None
            self._proc.stdin.write(oid.encode() + b"\n")
            self._proc.stdin.flush()
            header = self._proc.stdout.readline().split()
            if len(header) < 3:
                raise MissingObject(oid)
            data = self._proc.stdout.read(int(header[2]))
            self._proc.stdout.read(1)
            self._cache[oid] = data
        return data

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


def tree_of(repo: Path, blobs: Blobs, rev: str,
            missing: dict[str, str] | None = None) -> dict[str, Entry]:
    """Every file of ``rev``: path -> entry (submodules skipped). ``missing``: gets each
    file whose blob this copy lacks (path -> blob id), left out of the tree; without it
    such a file raises :class:`MissingObject`."""
    out: dict[str, Entry] = {}
    for record in git(repo, "ls-tree", "-r", "-z", rev).split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, oid = meta.decode().split()
        if kind != "blob":
            continue
        name = os.fsdecode(path)
        try:
            data = blobs.get(oid)
        except MissingObject:
            if missing is None:
                raise
            missing[name] = oid
            continue
        out[name] = (LINK, data, False) if mode == "120000" else (
            FILE, data, mode == "100755")
    return out


def commits(repo: Path, n: int, rev: str = "HEAD") -> list[tuple[str, str]]:
    """The last ``n`` non-merge commits that have a parent: (parent, commit), oldest first."""
    out = []
    for line in git(repo, "rev-list", "--no-merges", "--parents", f"-n{n}", rev).split(b"\n"):
        ids = line.decode().split()
        if len(ids) == 2:
            out.append((ids[1], ids[0]))
    return out[::-1]


def first_parent_line(repo: Path, rev: str = "HEAD") -> list[str]:
    return git(repo, "rev-list", "--first-parent", rev).decode().split()


# --- trees on disk --------------------------------------------------------------------

def export(entries: dict[str, Entry], dest: Path) -> None:
    for path, (kind, data, executable) in entries.items():
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == LINK:
            os.symlink(os.fsdecode(data), target)
        else:
            target.write_bytes(data)
            os.chmod(target, 0o755 if executable else 0o644)


def read_tree(root: Path) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        for name in list(dirnames):
            if (base / name).is_symlink():
                dirnames.remove(name)
                filenames.append(name)
        for name in filenames:
            full = base / name
            rel = full.relative_to(root).as_posix()
            info = full.lstat()
            if stat.S_ISLNK(info.st_mode):
                out[rel] = (LINK, os.fsencode(os.readlink(full)), False)
            elif stat.S_ISREG(info.st_mode):
                out[rel] = (FILE, full.read_bytes(), bool(info.st_mode & 0o100))
    return out


def differences(got: dict[str, Entry], want: dict[str, Entry]) -> list[str]:
    return sorted(p for p in set(got) | set(want) if got.get(p) != want.get(p))


# --- the tools ------------------------------------------------------------------------

@dataclass(slots=True)
class Run:
    code: int
    cpu: float
    output: str


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reviewtui_command() -> list[str]:
    beside = Path(sys.executable).with_name("reviewtui")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("reviewtui")
    return [found] if found else [sys.executable, "-m", "reviewtui"]


def run_tool(tool: str, patch: Path, root: Path, reviewtui: Sequence[str],
             json_report: bool = False) -> Run:
    if tool == "reviewtui":
        argv = [*reviewtui, "apply", str(patch), "--format", "unified", "--yes",
                "--root", str(root), *(["--json"] if json_report else [])]
        cwd = patch.parent
    elif tool == "git apply":
        argv = ["git", "apply", "--whitespace=nowarn", str(patch)]
        cwd = root
    else:
        argv = ["patch", "-p1", "--batch", "--forward", "--no-backup-if-mismatch",
                "--reject-file=-", "--quiet", "-i", str(patch), "-d", str(root)]
        cwd = patch.parent
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(root.parent), LC_ALL="C.UTF-8")
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    before = _cpu()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, env=env, check=False)
    spent = _cpu() - before
    return Run(done.returncode, spent, (done.stdout + done.stderr).decode(errors="replace"))


def applied_paths(output: str) -> set[str] | None:
    """Paths of ``reviewtui apply --json`` whose every operation landed (None: no JSON)."""
    start = output.find("{")
    try:
        doc = json.loads(output[start:]) if start >= 0 else None
    except json.JSONDecodeError:
        doc = None
    if not isinstance(doc, dict):
        return None
    landed: dict[str, bool] = {}
    for turn in doc.get("turns", []):
        for op in turn.get("ops", []):
            path = op.get("path")
            if not path:
                continue
            ok = op.get("status") == "applied"
            landed[path] = landed.get(path, True) and ok
            args = op.get("command") or ""
            if ok and op.get("kind") == "console" and isinstance(args, str):
                try:
                    words = shlex.split(args)[1:]
                except ValueError:
                    words = []
                landed.update((word, True) for word in words if word != "-f")
    return {path for path, ok in landed.items() if ok}


# --- replay on the parent ---------------------------------------------------------------

@dataclass(slots=True)
class Tally:
    match: int = 0
    refused: int = 0
    wrong: int = 0  # wrong tree with exit code 0
    refused_wrong_files: int = 0  # refused, yet a file ended as neither parent nor commit
    cpu: float = 0.0


@dataclass(slots=True)
class CommitResult:
    parent: str
    commit: str
    results: dict[str, str] = field(default_factory=dict)  # tool -> match/refused/wrong
    notes: dict[str, str] = field(default_factory=dict)  # tool -> first differing paths


@dataclass(slots=True)
class ReplayReport:
    repo: str
    tools: tuple[str, ...]
    tallies: dict[str, Tally]
    commits: list[CommitResult]


@contextmanager
def _scratch(keep: bool) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="history-"))
    try:
        yield path
    finally:
        if keep:
            print(f"kept {path}", file=sys.stderr)
        else:
            shutil.rmtree(path, ignore_errors=True)


def replay(repo: Path, n: int, *, tools: Sequence[str] = ("reviewtui", "git apply"),
           reviewtui: Sequence[str] | None = None, keep: bool = False,
           rev: str = "HEAD", progress: bool = False,
           only: Collection[str] | None = None) -> ReplayReport:
    """Each commit's own diff applied to its parent's tree, compared with its tree.

    ``only``: of the last ``n`` commits, replay just these (full ids); None replays all.
    """
    command = list(reviewtui or reviewtui_command())
    blobs = Blobs(repo)
    tallies = {tool: Tally() for tool in tools}
    results: list[CommitResult] = []
    skipped: list[str] = []
    try:
        chosen = [(p, c) for p, c in commits(repo, n, rev) if only is None or c in only]
        for number, (parent, commit) in enumerate(chosen):
            lacking: dict[str, str] = {}
            lacking_after: dict[str, str] = {}
            before = tree_of(repo, blobs, parent, lacking)
            after = tree_of(repo, blobs, commit, lacking_after)
            if lacking != lacking_after:  # the commit changes a file this copy lacks
                skipped.append(commit)
                continue
            # (A file lacking in both, unchanged, is left out of both trees: the diff
            # does not name it.)
            result = CommitResult(parent, commit)
            with _scratch(keep) as work:
                patch = work / "commit.diff"
                patch.write_bytes(git(repo, *GIT_DIFF, parent, commit))
                for tool in tools:
                    root = work / tool.replace(" ", "-") / "root"
                    root.mkdir(parents=True)
                    export(before, root)
                    done = run_tool(tool, patch, root, command)
                    got = read_tree(root)
                    wrong_paths = differences(got, after)
                    tally = tallies[tool]
                    tally.cpu += done.cpu
                    if done.code != 0:
                        verdict = "refused"
                        tally.refused += 1
                        stray = [p for p in wrong_paths if got.get(p) != before.get(p)]
                        tally.refused_wrong_files += len(stray)
                        result.notes[tool] = _first_line(done.output)
                        if stray:
                            result.notes[tool] += "; changed wrongly: " + ", ".join(stray[:3])
                    elif wrong_paths:
                        verdict = "wrong"
                        tally.wrong += 1
                        result.notes[tool] = "differs: " + ", ".join(wrong_paths[:3])
                    else:
                        verdict = "match"
                        tally.match += 1
                    result.results[tool] = verdict
            results.append(result)
            if progress:
                print(f"  {number + 1:4d} {commit[:10]} "
                      + "  ".join(f"{t}={v}" for t, v in result.results.items()),
                      file=sys.stderr)
    finally:
        blobs.close()
    if skipped:
        print(f"!!! {len(skipped)} commit(s) skipped: they change a file whose blob this copy "
              f"of the repository lacks (first: {skipped[0][:10]})", file=sys.stderr)
    return ReplayReport(str(repo), tuple(tools), tallies, results)


def _first_line(output: str) -> str:
    """Why a tool refused: reviewtui's first operation that did not apply, else a line."""
    start = output.find("{")
    try:
        doc = json.loads(output[start:]) if start >= 0 else None
    except json.JSONDecodeError:
        doc = None
    if isinstance(doc, dict):
        for turn in doc.get("turns", []):
            for op in turn.get("ops", []):
                if op.get("status") != "applied":
                    return (f"{op.get('path')}: {op.get('status')} "
                            f"{op.get('message', '')}")[:200]
    for line in output.splitlines():
        text = line.strip()
        if text and not text.startswith(("{", "}", "[", "]", '"')):
            return text.split(".diff:", 1)[-1][:300]
    return ""


# --- drift ------------------------------------------------------------------------------

@dataclass(slots=True)
class DriftTally:
    agree: int = 0  # changed, and equal to the clean 3-way result
    wrong: int = 0  # changed, the 3-way result is clean and differs
    unverifiable: int = 0  # changed where the 3-way merge conflicts (or binary)
    untouched: int = 0  # the diff's file left as it was (refused, or not reported)
    partial: int = 0  # reviewtui: some of the file's operations landed, some were refused
    cpu: float = 0.0


@dataclass(slots=True)
class DriftReport:
    repo: str
    k: int
    tools: tuple[str, ...]
    tallies: dict[str, DriftTally]
    commits: int
    wrong_files: list[tuple[str, str, str]]  # (tool, commit, path)


Change = tuple[str, str | None, str | None]  # (status letter, old path, new path)


def _changed_paths(repo: Path, parent: str, commit: str) -> list[Change]:
    """(status, old path, new path) of the diff, renames paired."""
    raw = git(repo, "diff", "-M", "--name-status", "-z", "--no-ext-diff", parent, commit)
    words = [os.fsdecode(w) for w in raw.split(b"\0")]
    out: list[Change] = []
    i = 0
    while i < len(words) and words[i]:
        status = words[i]
        if status[0] in "RC":
            out.append((status[0], words[i + 1], words[i + 2]))
            i += 3
        else:
            path = words[i + 1]
            out.append((status[0], None if status[0] == "A" else path,
                        None if status[0] == "D" else path))
            i += 2
    return out


def merge3(ours: bytes, base: bytes, theirs: bytes) -> bytes | None:
    """``git merge-file``'s result, or None when it conflicts or a side is binary."""
    if any(b"\0" in side for side in (ours, base, theirs)):
        return None
    with tempfile.TemporaryDirectory(prefix="merge3-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(tmp) / name
            path.write_bytes(data)
            paths.append(str(path))
        done = subprocess.run(["git", "merge-file", "-p", "-q", *paths], capture_output=True,
                              check=False)
    return done.stdout if done.returncode == 0 else None


def drift(repo: Path, n: int, k: int, *, tools: Sequence[str] = TOOLS,
          reviewtui: Sequence[str] | None = None, keep: bool = False,
          rev: str = "HEAD", progress: bool = False) -> DriftReport:
    """Each commit's diff applied K commits away from its parent, judged by 3-way merges."""
    if k == 0:
        raise ValueError("--drift needs K other than 0")
    command = list(reviewtui or reviewtui_command())
    line = first_parent_line(repo, rev)
    position = {oid: i for i, oid in enumerate(line)}  # 0 is the newest
    blobs = Blobs(repo)
    tallies = {tool: DriftTally() for tool in tools}
    wrong: list[tuple[str, str, str]] = []
    skipped: list[str] = []
    count = 0
    try:
        for parent, commit in commits(repo, n, rev):
            if k > 0:  # older: K steps down the parent's own first-parent line
                found = git(repo, "rev-parse", "--verify", "-q", f"{parent}~{k}", check=False)
                base_rev = found.decode().strip()
                if not base_rev:
                    continue
            else:  # newer: K steps up HEAD's first-parent line, when the parent is on it
                at = position.get(parent)
                if at is None or not 0 <= at + k < len(line):
                    continue
                base_rev = line[at + k]
            lacking: list[dict[str, str]] = [{}, {}, {}]
            base, before, after = (tree_of(repo, blobs, rev, lack) for rev, lack in
                                   zip((base_rev, parent, commit), lacking, strict=True))
            changes = _changed_paths(repo, parent, commit)
            if any(path in lack for lack in lacking for _, old, new in changes
                   for path in (old, new)):
                skipped.append(commit)  # it changes a file this copy lacks a blob of
                continue
            count += 1
            with _scratch(keep) as work:
                patch = work / "commit.diff"
                patch.write_bytes(git(repo, *GIT_DIFF, parent, commit))
                for tool in tools:
                    root = work / tool.replace(" ", "-") / "root"
                    root.mkdir(parents=True)
                    export(base, root)
                    done = run_tool(tool, patch, root, command, json_report=True)
                    got = read_tree(root)
                    tally = tallies[tool]
                    tally.cpu += done.cpu
                    reported = applied_paths(done.output) if tool == "reviewtui" else None
                    for status, old, new in changes:
                        path = new or old
                        assert path is not None
                        if (old is None or old not in before) and path not in after:
                            continue  # a submodule: in neither exported tree, not judged
                        if tool == "reviewtui" and (reported is None or path not in reported):
                            changed = got.get(path) != base.get(path)
                            if changed:
                                tally.partial += 1
                            else:
                                tally.untouched += 1
                            continue
                        verdict = _judge(status, old, new, base, before, after, got)
                        if verdict == "wrong":
                            wrong.append((tool, commit, path))
                        setattr(tally, verdict, getattr(tally, verdict) + 1)
            if progress:
                print(f"  {commit[:10]} on {base_rev[:10]}: "
                      + "  ".join(f"{t}: {tallies[t].wrong} wrong" for t in tools),
                      file=sys.stderr)
    finally:
        blobs.close()
    if skipped:
        print(f"!!! {len(skipped)} commit(s) skipped: they change a file whose blob this copy "
              f"of the repository lacks (first: {skipped[0][:10]})", file=sys.stderr)
    return DriftReport(str(repo), k, tuple(tools), tallies, count, wrong)


def _judge(status: str, old: str | None, new: str | None, base: dict[str, Entry],
           before: dict[str, Entry], after: dict[str, Entry], got: dict[str, Entry]) -> str:
    """agree / wrong / unverifiable / untouched for one file of the diff."""
    path = new or old
    assert path is not None
    start = base.get(old) if old is not None else base.get(path)
    if status == "D":
        assert old is not None
        if got.get(old) == start:
            return "untouched"
        if start == before.get(old):
            return "agree" if old not in got else "wrong"
        return "unverifiable"  # removing a file that changed meanwhile: a conflict
    result = got.get(path)
    moved_away = old is not None and old != path and old in base and old not in got
    if result == base.get(path) and not moved_away:
        return "untouched"
    want = after.get(path)
    assert want is not None
    if start is None:
        return "agree" if result == want else "wrong"
    if start[0] == LINK or want[0] == LINK or (old is not None and before.get(old) is None):
        return "agree" if result == want else "unverifiable"
    ancestor = before[old][1] if old is not None else b""
    merged = merge3(start[1], ancestor, want[1])
    if merged is None:
        return "unverifiable"
    if result is None or result[1] != merged:
        return "wrong"
    return "agree"


# --- printing --------------------------------------------------------------------------

def print_replay(report: ReplayReport, commits_shown: int = 10) -> None:
    total = len(report.commits)
    print(f"{report.repo}: {total} non-merge commits, each diff applied to its parent")
    print(f"{'tool':<12}{'match':>8}{'refused':>9}{'wrong, exit 0':>15}{'CPU s':>9}"
          f"{'ms/commit':>11}")
    for tool in report.tools:
        t = report.tallies[tool]
        per = 1000 * t.cpu / total if total else 0.0
        print(f"{tool:<12}{t.match:>8}{t.refused:>9}{t.wrong:>15}{t.cpu:>9.2f}{per:>11.1f}")
    base = report.tallies.get("git apply")
    ours = report.tallies.get("reviewtui")
    if base and ours and base.cpu:
        print(f"reviewtui CPU / git apply CPU: {ours.cpu / base.cpu:.1f}x")
    if ours and ours.refused_wrong_files:
        print(f"files reviewtui changed wrongly in refused commits: {ours.refused_wrong_files}")
    agree = [c for c in report.commits if c.results.get("git apply") == "match"]
    differ = [c for c in agree if c.results.get("reviewtui") != "match"]
    print(f"commits git apply reproduces: {len(agree)}; reviewtui differs on {len(differ)}")
    reasons: dict[str, int] = {}
    for c in differ:
        reason = refusal_kind(c.notes.get("reviewtui", ""))
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"  {count:4d} x {reason}")
    shown = [c for c in report.commits if any(v != "match" for v in c.results.values())
             and (refusal_kind(c.notes.get("reviewtui", "")) == OTHER
                  or "changed wrongly" in c.notes.get("reviewtui", "")
                  or c.results.get("reviewtui") == "wrong")]
    for c in shown[:commits_shown]:
        parts = [f"{tool}={c.results[tool]}"
                 + (f" ({c.notes[tool]})" if tool in c.notes else "") for tool in report.tools]
        print(f"  {c.commit[:10]}: " + "; ".join(parts))


OTHER = "other refusals (listed below)"
KNOWN_REFUSALS = (
    ("reserved by built-in generated file",
     "a built-in generated-file reservation (issue 14, item 7)"),
    ("is a placeholder", "a literal '...' read as a placeholder (issue 14, item 6)"),
    ("reviewtui does not create links", "a symbolic link (refused by rule)"),
)


def refusal_kind(note: str) -> str:
    for needle, label in KNOWN_REFUSALS:
        if needle in note:
            return label
    return OTHER


def print_drift(report: DriftReport) -> None:
    way = f"{report.k} older" if report.k > 0 else f"{-report.k} newer"
    print(f"{report.repo}: {report.commits} diffs applied to the tree {way} than the parent; "
          "files judged by git merge-file")
    print(f"{'tool':<12}{'agree':>8}{'wrong':>8}{'conflict':>10}{'untouched':>11}"
          f"{'partial':>9}{'CPU s':>9}")
    for tool in report.tools:
        t = report.tallies[tool]
        print(f"{tool:<12}{t.agree:>8}{t.wrong:>8}{t.unverifiable:>10}{t.untouched:>11}"
              f"{t.partial:>9}{t.cpu:>9.2f}")
    print("agree/wrong: a changed file equal to / differing from the clean 3-way merge; "
          "conflict: the merge conflicts; partial: reviewtui applied some of the file's "
          "operations and refused others (not judged)")
    for tool, commit, path in report.wrong_files[:15]:
        print(f"  wrong: {tool} {commit[:10]} {path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("n", type=int, nargs="?", default=50)
    parser.add_argument("--drift", type=int, metavar="K",
                        help="apply each diff K commits older (K > 0) or newer (K < 0)")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--keep", action="store_true", help="keep the scratch trees")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    if args.drift:
        print_drift(drift(args.repo, args.n, args.drift, keep=args.keep, rev=args.rev,
                          progress=args.progress))
        return 0
    print_replay(replay(args.repo, args.n, keep=args.keep, rev=args.rev,
                        progress=args.progress))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
