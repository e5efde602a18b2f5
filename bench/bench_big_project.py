"""A small change in a big project: what listing the project instead of reading it saves.

    .venv/bin/python bench/bench_big_project.py [--files N]

Builds a project of N real Python files found on this machine (the virtualenv's installed
packages, their own relative paths; default 5,000, ~50 MB) and a unified diff of two hunks
in two of them, as a commit usually is. Then, in the same run:

* in-process, after the imports: ``apply --yes`` and ``check`` of that diff as shipped
  (the project listed, a file read when its content is first needed:
  ``core/model/unread.py``) against the same commands reading every file first (what
  every command did before; ``load_project(lazy=False)``); the workbench's opening
  (``Review.open(first_frame=True)``, dry run) reading the two named files at once and
  the rest when needed, against reading every file (what ``open --live`` still does);
* as processes (CPU of the child, commands in turn round after round): ``reviewtui apply``
  against ``git apply`` of the same diff.

The two files are put back between runs; every run's result is checked.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reviewtui.cli import main as cli_main

ROUNDS = 7
MARK = "# reviewtui bench: an added line\n"


def real_files(limit: int) -> list[tuple[str, bytes]]:
    """Up to ``limit`` .py files of the installed packages: (relative path, bytes)."""
    site = Path(sysconfig.get_paths()["purelib"])
    found: list[tuple[str, bytes]] = []
    for path in sorted(site.rglob("*.py")):
        if len(found) >= limit:
            break
        if path.is_symlink() or not path.is_file():
            continue
        found.append((path.relative_to(site).as_posix(), path.read_bytes()))
    return found


def changed(data: bytes) -> bytes:
    """The file with a line added after its first line and before its last."""
    lines = data.decode("utf-8").splitlines(keepends=True)
    return "".join([lines[0], MARK, *lines[1:-1], MARK, lines[-1]]).encode("utf-8")


def make_case(where: Path, files: list[tuple[str, bytes]]) -> tuple[Path, Path, dict[str, bytes]]:
    root = where / "project"
    for rel, data in files:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    # Two files of a few hundred lines, far apart in the tree.
    picks = [(rel, data) for rel, data in files
             if 200 <= data.count(b"\n") <= 2_000 and data.isascii()]
    chosen = [picks[len(picks) // 5], picks[(4 * len(picks)) // 5]]
    diff = []
    for rel, data in chosen:
        before = data.decode().splitlines(keepends=True)
        after = changed(data).decode().splitlines(keepends=True)
        diff.append(f"diff --git a/{rel} b/{rel}\n")
        diff.extend(difflib.unified_diff(before, after, f"a/{rel}", f"b/{rel}", n=3))
    patch = where / "change.diff"
    patch.write_text("".join(diff))
    return root, patch, dict(chosen)


def reset(root: Path, originals: dict[str, bytes]) -> None:
    for rel, data in originals.items():
        (root / rel).write_bytes(data)


def applied(root: Path, originals: dict[str, bytes]) -> bool:
    return all((root / rel).read_bytes() == changed(data) for rel, data in originals.items())


def in_process(args: list[str]) -> tuple[float, int]:
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(args)
    return time.perf_counter() - start, code


@contextlib.contextmanager
def reading_everything():
    """The commands as they were: every file of the project read first."""
    import reviewtui.cli.commands as commands
    import reviewtui.shell.resume as resume

    saved = resume.load_project, commands.load_project

    def eager(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        kwargs["lazy"] = False
        return saved[0](*args, **kwargs)  # type: ignore[arg-type]

    resume.load_project = commands.load_project = eager  # type: ignore[assignment]
    try:
        yield
    finally:
        resume.load_project, commands.load_project = saved


def paired(run: Callable[[], float], baseline: Callable[[], float]) -> tuple[float, float]:
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(ROUNDS):
        ours.append(run())
        theirs.append(baseline())
    return statistics.median(ours), statistics.median(theirs)


def child_cpu(cmd: list[str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=5_000)
    options = parser.parse_args()
    files = real_files(options.files)
    size = sum(len(data) for _, data in files)
    with tempfile.TemporaryDirectory() as tmp:
        root, patch, originals = make_case(Path(tmp), files)
        print(f"a project of {len(files):,} real Python files ({size / 1e6:.1f} MB); "
              f"a diff of 2 hunks in {', '.join(originals)}")
        apply_args = ["apply", "--yes", "--format", "unified", "--root", str(root), str(patch)]
        check_args = ["check", "--format", "unified", "--root", str(root), str(patch)]
        in_process(check_args)  # (imports, caches of the code: not timed)

        def one(args: list[str], expect_applied: bool) -> float:
            reset(root, originals)
            took, code = in_process(args)
            assert code == 0, f"{args[0]} exited {code}"
            assert applied(root, originals) == expect_applied
            return took

        def eager(args: list[str], expect_applied: bool) -> float:
            with reading_everything():
                return one(args, expect_applied)

        print(f"\nin-process, after the imports (median of {ROUNDS}, run in turn):")
        for label, args, writes in (("apply --yes", apply_args, True),
                                    ("check", check_args, False)):
            lazy, whole = paired(lambda a=args, w=writes: one(a, w),
                                 lambda a=args, w=writes: eager(a, w))
            print(f"  {label:12} {lazy * 1000:7.1f} ms; reading every file first "
                  f"{whole * 1000:7.1f} ms ({lazy / whole:.2f}x)")

        from reviewtui.shell.review import Review

        def opened(lazy: bool) -> float:
            start = time.perf_counter()
            with Review.open(patch, root, dry_run=True, format="unified", first_frame=True,
                             lazy=lazy) as review:
                took = time.perf_counter() - start
                unread = sum(bool(getattr(s, "unread", False)) for s in review.base.states())
                assert unread == (len(files) - 2 if lazy else 0), unread
            return took

        lazy, whole = paired(lambda: opened(True), lambda: opened(False))
        print(f"  {'open (workbench)':12} {lazy * 1000:7.1f} ms; reading every file first "
              f"{whole * 1000:7.1f} ms ({lazy / whole:.2f}x): the files the diff names read "
              "at opening, the rest when first needed")

        git = shutil.which("git")
        reviewtui = [sys.executable, "-m", "reviewtui", *apply_args]
        if git is None:
            print("\nprocesses: SKIPPED - no git on PATH for the `git apply` baseline")
            return

        def ours() -> float:
            reset(root, originals)
            taken = child_cpu(reviewtui, root)
            assert applied(root, originals), "reviewtui apply did not apply the diff"
            return taken

        def gits() -> float:
            reset(root, originals)
            taken = child_cpu([git, "apply", str(patch)], root)
            assert applied(root, originals), "git apply did not apply the diff"
            return taken

        mine, theirs = paired(ours, gits)
        print(f"\nprocesses (CPU of the child, median of {ROUNDS}, run in turn):")
        print(f"  reviewtui apply {mine * 1000:6.1f} ms; git apply {theirs * 1000:5.1f} ms "
              f"({mine / theirs:.0f}x: reviewtui's is mostly the interpreter and its "
              "imports, bench_startup.py)")


if __name__ == "__main__":
    main()
