"""Opening a git commit range (``reviewtui open --git A..B``) against ``git log -p``.

Figures, best of a few runs each (wall clock), and the median CPU time of the runs
(user + system, reviewtui's process and the git processes it ran), measured in the same run:

* baseline: ``git log -p --first-parent A..B`` written to a pipe and discarded;
* session: the same log in reviewtui's shape written by git into the session file while
  A's tree is copied to a scratch folder and the commits already written are read into
  turns (``open_range``), then ``load_session`` (which takes the turns already read);
* open: all of that plus ``Review.open(first_frame=True)`` in dry-run: what the
  workbench needs before its first frame (the draft, and the display up to the first
  turn); the workbench evaluates the rest afterwards, a slice at a time;
* evaluated: open, then every turn evaluated (what ``check`` / ``apply`` open with, and
  the workbench once its background evaluation is done);
* check: what ``check --git`` does before its report (the range, A as the base, every turn
  evaluated), with A listed by ``ls-tree`` and read from git's objects as shipped
  (``shell/git_tree.py``), and with A copied into a folder as before, in the same run.

Ranges: this project's own history (its first to its last commit), a generated
repository of 200 commits, each editing three of 120 files, and any REPO given. Target:
open within 3x the baseline. On a shared machine the wall-clock ratios move with the load
(printed first); the CPU ratio moves less, and the wall clock can be below it where git
and reviewtui work at the same time (two cores).
Run: ``.venv/bin/python bench/bench_git.py [REPO [N]]`` (with REPO: also the last N
first-parent commits of that repository, default 200).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.loader import load_session
from reviewtui.shell.project import load_project
from reviewtui.shell.review import Review

RUNS = 5
TARGET = 3.0
PROJECT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def best(work: Callable[[], object]) -> tuple[float, float]:
    """The best wall-clock time of RUNS runs, and their median CPU time."""
    times, cpus = [], []
    for _ in range(RUNS):
        start, cpu = time.perf_counter(), cpu_now()
        work()
        times.append(time.perf_counter() - start)
        cpus.append(cpu_now() - cpu)
    return min(times), statistics.median(cpus)


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True,
                          env=env or ENV).stdout.decode()


def generated(folder: Path, commits: int = 200, files: int = 120) -> tuple[str, str]:
    env = {**ENV, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
    git(folder, "init", "-q", "-b", "main")
    for n in range(files):
        body = "".join(f"def f_{n}_{k}(x):\n    return x + {k}\n\n" for k in range(60))
        (folder / f"mod_{n}.py").write_text(body)
    git(folder, "add", "-A", env=env)
    git(folder, "commit", "-qm", "base", env=env)
    base = git(folder, "rev-parse", "HEAD").strip()
    for c in range(commits):
        for n in ((c * 7) % files, (c * 13 + 5) % files, (c * 29 + 11) % files):
            path = folder / f"mod_{n}.py"
            lines = path.read_text().splitlines(keepends=True)
            at = (c * 17) % (len(lines) - 2)
            lines[at:at + 1] = [f"    # commit {c} was here\n", lines[at]]
            path.write_text("".join(lines))
        git(folder, "commit", "-qam", f"Commit {c}: annotate three modules\n\nBody {c}.",
            env=env)
    return base, git(folder, "rev-parse", "HEAD").strip()


def measure(label: str, repo: Path, base: str, head: str) -> float:
    count = int(git(repo, "rev-list", "--count", "--first-parent", f"{base}..{head}"))

    def baseline() -> None:
        subprocess.run(["git", "log", "-p", "--first-parent", f"{base}..{head}"], cwd=repo,
                       stdout=subprocess.DEVNULL, check=True, env=ENV)

    def session() -> None:
        source = open_range(f"{base}..{head}", str(repo), keep=False)
        try:
            load_session(source.session, root=source.root)  # as Review.open reads it
        finally:
            source.close()

    def opened(*, everything: bool = False) -> None:
        source = open_range(f"{base}..{head}", str(repo), keep=False)
        try:
            with Review.open(source.session, source.root, dry_run=True,
                             first_frame=True) as review:
                if everything:
                    review.finish_evaluation()
        finally:
            source.close()

    def checked(*, listed: bool) -> None:
        """What ``check --git`` does before its report: the range, A as its base (read
        from git when ``listed``, else copied as before), every turn evaluated."""
        source = open_range(f"{base}..{head}", str(repo), keep=False, listed=listed)
        try:
            loaded = load_session(source.session, root=source.root)
            project = load_project(source.root, lazy=True)
            evaluate_session(loaded.session, project.tree, rules=project.rules,
                             policy=Policy.headless())
        finally:
            source.close()

    (t_base, c_base), (t_session, c_session) = best(baseline), best(session)
    (t_open, c_open), (t_all, c_all) = best(opened), best(lambda: opened(everything=True))
    (t_check, c_check) = best(lambda: checked(listed=True))
    (t_copied, c_copied) = best(lambda: checked(listed=False))
    ratio = t_open / t_base
    print(f"{label}: {count} commits")
    print(f"  {'':32s}{'wall (best)':>18s}{'cpu (median)':>18s}")
    print(f"  {'git log -p (baseline)':32s}{t_base * 1000:9.1f} ms{'':6s}"
          f"{c_base * 1000:9.1f} ms")
    for name, wall, cpu in (("session (log + copy + import)", t_session, c_session),
                            ("open (workbench-ready, dry run)", t_open, c_open),
                            ("open + every turn evaluated", t_all, c_all),
                            ("check: A read from git", t_check, c_check),
                            ("check: A copied (as before)", t_copied, c_copied)):
        print(f"  {name:32s}{wall * 1000:9.1f} ms {wall / t_base:5.1f}x"
              f"{cpu * 1000:9.1f} ms {cpu / c_base:5.1f}x")
    print(f"  target: workbench-ready open <= {TARGET:.0f}x the baseline's wall clock: "
          f"{'met' if ratio <= TARGET else 'NOT met'}")
    return ratio


def main() -> None:
    print("load average: " + " ".join(f"{n:.1f}" for n in os.getloadavg()) +
          f" ({os.cpu_count()} cores)")
    if len(sys.argv) > 1:  # any local repository: its last N first-parent commits
        repo = Path(sys.argv[1]).resolve()
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
        base = git(repo, "rev-parse", f"HEAD~{n}").strip()
        measure(f"{repo.name}, last {n} commits", repo, base, "HEAD")
    first = git(PROJECT, "rev-list", "--max-parents=0", "HEAD").split()[0]
    measure("this project's history", PROJECT, first, "HEAD")
    with tempfile.TemporaryDirectory(prefix="reviewtui-bench-git-") as tmp:
        base, head = generated(Path(tmp))
        measure("generated repository", Path(tmp), base, head)


if __name__ == "__main__":
    main()
