"""Replay onto disk: the per-file compare-and-swap write against a plain atomic write.

Opens a review of FILES files in nested folders, accepts one edit per file in a single
decision (one replay writing every file), and times that replay against a baseline
measured in the same run: the same bytes written with the plain technique (temp file,
write, fsync, os.replace, directory fsync) by path, with no guard at all. The ratio is
what the safety costs: O_NOFOLLOW folder descriptors, the re-read before each rename,
the removal ordering, and the review's own bookkeeping and state file.

Run: .venv/bin/python bench/bench_replay_disk.py
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

FILES = 300
ROUNDS = 3


def _content(i: int) -> bytes:
    return "".join(f"value_{i}_{n} = {n}\n" for n in range(200)).encode()


def _session(path: Path) -> None:
    out = ["# Session: bench\n\n## Turn 1\n> edit every file\n"]
    for i in range(FILES):
        out.append(f"\n--- File: {_name(i)} ---\n<<<<<<< SEARCH\nvalue_{i}_7 = 7\n=======\n"
                   f"value_{i}_7 = 700\n>>>>>>> REPLACE\n")
    out.append("\n### Changed files:\n" + "".join(f"- {_name(i)}\n" for i in range(FILES)))
    path.write_text("".join(out))


def _name(i: int) -> str:
    return f"src/pkg{i % 10}/mod{i % 3}/f{i}.py"


def _project(root: Path) -> None:
    for i in range(FILES):
        target = root / _name(i)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_content(i))


def plain_writes(root: Path) -> float:
    start = time.perf_counter()
    for i in range(FILES):
        target = root / _name(i)
        data = _content(i).replace(f"value_{i}_7 = 7\n".encode(), f"value_{i}_7 = 700\n".encode())
        tmp = target.with_name(f".{target.name}.tmp")
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        fd = os.open(target.parent, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    return time.perf_counter() - start


def replay(work: Path, root: Path) -> float:
    session = work / "s.md"
    _session(session)
    with Review.open(session, root, state_path=work / "s.review.json") as review:
        start = time.perf_counter()
        report = review.decide_many([((1, i), Decision.accept()) for i in range(FILES)])
        elapsed = time.perf_counter() - start
        assert len(report.written) == FILES, report.messages[:3]
    return elapsed


def main() -> None:
    plain: list[float] = []
    ours: list[float] = []
    for _ in range(ROUNDS):
        base = Path(tempfile.mkdtemp(prefix="bench-replay-"))
        try:
            for name in ("plain", "review"):
                (base / name).mkdir()
                _project(base / name)
            plain.append(plain_writes(base / "plain"))
            ours.append(replay(base, base / "review"))
        finally:
            shutil.rmtree(base)
    p, r = statistics.median(plain), statistics.median(ours)
    print(f"{FILES} files, median of {ROUNDS}")
    print(f"baseline: plain atomic writes          {p * 1000:8.1f} ms")
    print(f"replay: review, compare-and-swap writes {r * 1000:8.1f} ms  ({r / p:.2f}x baseline)")


if __name__ == "__main__":
    main()
