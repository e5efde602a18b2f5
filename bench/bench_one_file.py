"""Long sessions whose every turn edits the same file (importers red-team finding 10).

    .venv/bin/python bench/bench_one_file.py [--big]

An agent that works on one file for hours leaves thousands of turns that each change it.
Two costs grew with the square of the turns there, and are measured here:

- ``check`` of N such turns, N = 2,000 / 4,000 / 8,000 (``--big``: and 16,000): the time
  per step must grow about linearly (x2 turns -> about x2 time). Each turn's edit took the
  list of every earlier turn naming the file for its stale check: 8,000 Claude Code turns
  took 12.2 s, and 100,000 took 221 s.
- A reject at turn 6 of 8,000 (``Review.decide``, headless, no disk written): every later
  edit then fails. Each failure was diagnosed at once, over every earlier version: 16.4 s
  for Claude Code, 3.4 s for File Ops. Its baseline, in the same run: evaluating the whole
  session once (``Review.open`` of the same session), which the reject must not exceed by
  much, as it re-evaluates the turns after the reject and nothing else.

Both formats: Claude Code JSONL (literal edits: the placed path) and File Ops (the
deferred path). The file is 101 lines; turn i changes ``count = i`` into ``count = i+1``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reviewtui.cli import main as cli_main  # noqa: E402
from reviewtui.core.engine.decisions import Decision  # noqa: E402
from reviewtui.shell.review import Review  # noqa: E402

BASE = "".join(f"x{i} = {i}\n" for i in range(50)) + "count = 0\n" + "".join(
    f"y{i} = {i}\n" for i in range(50))


def claude_session(n: int) -> str:
    out = []
    for i in range(n):
        out.append({"type": "user", "cwd": "/p",
                    "message": {"role": "user", "content": f"bump {i}"}})
        out.append({"type": "assistant", "cwd": "/p", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": "Edit", "input": {
                "file_path": "/p/a.py", "old_string": f"count = {i}\n",
                "new_string": f"count = {i + 1}\n"}}]}})
        out.append({"type": "user", "cwd": "/p", "message": {"role": "user", "content": [
            {"tool_use_id": f"t{i}", "type": "tool_result", "content": "ok"}]}})
    return "".join(json.dumps(item) + "\n" for item in out)


def fileops_session(n: int) -> str:
    return "# Session: one file\n\n" + "".join(
        f"## Turn {i + 1}\n\n> bump\n\n--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n"
        f"count = {i}\n=======\ncount = {i + 1}\n>>>>>>> REPLACE\n\n### Changed files:\n"
        "- a.py\n\n" for i in range(n))


FORMATS = {"Claude Code": (claude_session, "session.claude.jsonl"),
           "File Ops": (fileops_session, "session.md")}


def make(where: Path, fmt: str, n: int) -> tuple[Path, Path]:
    build, name = FORMATS[fmt]
    (where / "proj").mkdir(parents=True)
    (where / "proj" / "a.py").write_text(BASE)
    session = where / name
    session.write_text(build(n))
    return session, where / "proj"


def timed_check(session: Path, root: Path) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        cli_main(["check", "--root", str(root), str(session)])
    return time.perf_counter() - start


def main() -> None:
    sizes = [2_000, 4_000, 8_000] + ([16_000] if "--big" in sys.argv[1:] else [])
    with tempfile.TemporaryDirectory(prefix="bench-one-file-") as tmp:
        for fmt in FORMATS:
            figures = []
            for n in sizes:
                session, root = make(Path(tmp) / f"{fmt[0]}{n}", fmt, n)
                figures.append(timed_check(session, root))
            steps = " ".join(f"x{b / a:.1f}" for a, b in zip(figures, figures[1:], strict=False))
            print(f"check, {fmt}: " + " / ".join(f"{n:,} turns {t:.2f} s"
                                                  for n, t in zip(sizes, figures, strict=True))
                  + f"  (per x2 turns: {steps}; linear is about x2)", flush=True)
        for fmt in FORMATS:
            session, root = make(Path(tmp) / f"r{fmt[0]}", fmt, 8_000)
            start = time.perf_counter()
            review = Review.open(session, root, dry_run=True)
            opened = time.perf_counter() - start
            keys = [(turn.index, pos) for turn in review.display.session.turns
                    for pos in range(len(turn.reply.ops))]
            for key in keys[:5]:
                review.decide(key, Decision.accept())
            start = time.perf_counter()
            review.decide(keys[5], Decision.reject())
            rejected = time.perf_counter() - start
            failed = sum(1 for turn in review.display.turns for r in turn.results
                         if r.outcome.status.value == "not_found")
            review.close()
            print(f"reject at turn 6 of 8,000, {fmt}: {rejected:.2f} s ({failed:,} later edits "
                  f"now fail)  baseline, opening the session (one whole evaluation): "
                  f"{opened:.2f} s  ratio {rejected / opened:.2f}x", flush=True)


if __name__ == "__main__":
    main()
