"""False positives of the truncation guard on real source files (issue 14, item 6).

A File Ops reply that writes ``...`` or "rest of the file unchanged" where code belongs
would truncate the file, so the engine refuses it. Real code contains such lines too
(Python stubs and Protocols, doctests, Markdown code samples, comments): every refusal of
a real file is a false positive. This bench takes real files from this machine and asks
the engine what a model writing them verbatim would get:

* **full file**: the file written as a File Ops full file over an older version of it
  (one line, so nothing of it is "already in the file");
* **edit**: for a few random blocks of each file, the file without the block plus an
  edit whose SEARCH is the lines before the block and whose REPLACE is those lines and
  the block (a model adding that code);
* **literal**: the same edits read from a format with exact text (a unified diff,
  apply_patch, Claude Code): these must never be refused as truncation;
* **true positives**: the other side of the guard. Each file truncated the way models
  do it (a random block replaced by ``# ... existing code ...``, ``...``, ``# rest of the
  file unchanged`` and the like, at the block's indentation) and written as a full file
  over its real version: how many are still refused. A block inside a docstring or a
  Markdown code sample is content by design, so the rate is below 100% on both sides.

It prints, per corpus (stdlib, site-packages, Markdown), how many files and edits were
refused as truncation, and the lines that caused it. The baseline is the same measure
against the code of an older commit (``--before REV``, default: the commit before the
fix), extracted with ``git archive`` into a temporary folder and run in a subprocess, so
both figures come from the same run on the same files.

Run: ``.venv/bin/python bench/bench_placeholders.py [--limit N] [--before REV]
[--show K] [DIR...]`` (extra DIRs join the corpus as "extra").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BEFORE = "ffcaaa9"  # the branch point of the fix: the guard as issue 14 found it
EDITS_PER_FILE = 4
MARKERS = {
    ".py": ("# ... existing code ...", "...", "# rest of the file unchanged",
            "# ... (rest of the method)", "# ..."),
    ".md": ("...", "<!-- ... -->", "[rest of the file unchanged]", "// ... existing code ..."),
}
MAX_BYTES = 400_000


def corpora(extra: list[str]) -> dict[str, list[Path]]:
    purelib = Path(sysconfig.get_paths()["purelib"])
    stdlib = Path(sysconfig.get_paths(vars={"base": sys.base_prefix,
                                            "installed_base": sys.base_prefix})["stdlib"])
    out: dict[str, list[Path]] = {
        "stdlib .py": _files([stdlib], (".py", ".pyi"), skip="site-packages"),
        "site-packages .py/.pyi": _files([purelib], (".py", ".pyi")),
        "Markdown .md": _files([purelib, stdlib, Path("/usr/share/doc"),
                                Path("/usr/lib/node_modules"), REPO / "docs"], (".md",)),
    }
    if extra:
        out["extra"] = _files([Path(d) for d in extra], (".py", ".pyi", ".md", ".js", ".ts"))
    return out


def _files(roots: list[Path], suffixes: tuple[str, ...], skip: str = "") -> list[Path]:
    found: set[Path] = set()
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != skip and not d.startswith("."))
            for name in filenames:
                if name.endswith(suffixes):
                    path = Path(dirpath) / name
                    if path.is_file() and not path.is_symlink():
                        found.add(path)
    return sorted(found)


def _read(path: Path) -> list[str] | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) > MAX_BYTES or b"\0" in data:
        return None
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None


def _blocks(lines: list[str], rng: random.Random) -> Iterator[tuple[int, int]]:
    """Random blocks (start, end) with at least one line before them to anchor on."""
    if len(lines) < 3:
        return
    for _ in range(EDITS_PER_FILE):
        start = rng.randrange(1, len(lines))
        yield start, min(len(lines), start + rng.randint(1, 25))


def measure(files: list[Path], label: str, limit: int) -> dict[str, object]:
    """Run in the code under test (this process's ``reviewtui``)."""
    from reviewtui.core.engine.file_edits import FileContext, evaluate_full_file
    from reviewtui.core.match import match_edit
    from reviewtui.core.model.outcome import Status
    from reviewtui.core.model.records import FullFile, Span
    from reviewtui.core.model.tree import FileState, Tree

    literal_supported = "literal" in FullFile.__dataclass_fields__
    rng = random.Random(14)
    picked = files if limit <= 0 or len(files) <= limit else sorted(rng.sample(files, limit))
    counts: Counter[str] = Counter()
    culprits: Counter[str] = Counter()
    started = time.process_time()
    for path in picked:
        lines = _read(path)
        if lines is None:
            continue
        name = path.name
        counts["files"] += 1
        counts["lines"] += len(lines)
        tree = Tree.from_files({name: FileState.from_text("# previous version\n")})
        outcome, _ = evaluate_full_file(tree, FullFile(name, tuple(lines), Span(1, 1)),
                                        FileContext())
        if outcome.rule == "truncation-placeholder":
            counts["full refused"] += 1
            culprits[_culprit(outcome.message)] += 1
        for start, end in _blocks(lines, rng):
            anchor = lines[max(0, start - 3) : start]
            if not any(line.strip() for line in anchor):
                continue
            before = lines[:start] + lines[end:]
            counts["edits"] += 1
            result = match_edit(before, anchor, [*anchor, *lines[start:end]], path=name)
            if result.status is Status.REFUSED and result.rule == "truncation-placeholder":
                counts["edits refused"] += 1
                culprits[_culprit(result.hint)] += 1
            if literal_supported:
                literal = match_edit(before, anchor, [*anchor, *lines[start:end]], path=name,
                                     literal=True)  # type: ignore[call-arg]
                if literal.rule == "truncation-placeholder":
                    counts["literal refused"] += 1
        marks = MARKERS[".md" if name.endswith(".md") else ".py"]
        for start, end in list(_blocks(lines, rng))[:2]:
            indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
            cut = [*lines[:start], indent + rng.choice(marks), *lines[end:]]
            tree = Tree.from_files({name: FileState.from_text("\n".join(lines) + "\n")})
            counts["truncations"] += 1
            outcome, _ = evaluate_full_file(tree, FullFile(name, tuple(cut), Span(1, 1)),
                                            FileContext())
            if outcome.rule == "truncation-placeholder":
                counts["truncations caught"] += 1
    counts["cpu ms"] = round((time.process_time() - started) * 1000)
    return {"label": label, "counts": dict(counts), "literal": literal_supported,
            "culprits": culprits.most_common(40)}


def _culprit(text: str) -> str:
    """The quoted placeholder line a refusal names."""
    for quote in ("'", '"'):
        head, sep, rest = text.partition(f"({quote}")
        if sep:
            return quote + rest.split(f"{quote})", 1)[0][:60] + quote
        head, sep, rest = text.partition(f" placeholder {quote}")
        if sep:
            return quote + rest.split(f"{quote} (", 1)[0][:60] + quote
    return text[:60]


def _child(args: argparse.Namespace) -> None:
    """Measure every corpus with the code on sys.path and print JSON."""
    groups = corpora(args.dirs)
    import reviewtui

    print(f"measuring {reviewtui.__file__}", file=sys.stderr)
    print(json.dumps([measure(files, label, args.limit) for label, files in groups.items()]))


def _baseline(rev: str, args: argparse.Namespace) -> list[dict[str, object]] | None:
    with tempfile.TemporaryDirectory(prefix="bench-placeholders-") as tmp:
        archive = Path(tmp) / "src.tar"
        made = subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), rev,
                               "src"], capture_output=True, text=True)
        if made.returncode != 0:
            print(f"baseline {rev}: git archive failed ({made.stderr.strip()}); "
                  "no before figures")
            return None
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        cmd = [sys.executable, __file__, "--child", "--limit", str(args.limit), *args.dirs]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)
        if done.returncode != 0:
            print(f"baseline {rev} failed: {done.stderr.strip()[-500:]}")
            return None
        return json.loads(done.stdout)  # type: ignore[no-any-return]


def _pct(part: object, whole: object) -> str:
    p, w = int(part or 0), int(whole or 0)  # type: ignore[call-overload]
    return f"{p} ({100 * p / w:.2f}%)" if w else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*")
    parser.add_argument("--limit", type=int, default=3000,
                        help="files per corpus, sampled (0: all; default 3000)")
    parser.add_argument("--before", default=BEFORE, help="the baseline commit")
    parser.add_argument("--show", type=int, default=12, help="culprit lines to list")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args)
        return
    sys.path.insert(0, str(REPO / "src"))
    before = _baseline(args.before, args) if args.before else None
    after = [measure(files, label, args.limit) for label, files in corpora(args.dirs).items()]
    print(f"truncation refusals of real files written verbatim (sample of up to {args.limit} "
          "files per corpus; a refusal is a false positive)\n")
    head = (f"{'corpus':24} {'files':>6} {'edits':>6}  {'full-file refused':>19} "
            f"{'edits refused':>17} {'literal edits':>14} {'truncations caught':>19} "
            f"{'cpu ms':>7}")
    for name, rows in (("before " + args.before, before), ("now", after)):
        if rows is None:
            continue
        print(f"-- {name}")
        print(head)
        for row in rows:
            c = row["counts"]
            assert isinstance(c, dict)
            literal = _pct(c.get("literal refused"), c.get("edits")) if row["literal"] else "n/a"
            print(f"{row['label']:24} {c.get('files', 0):>6} {c.get('edits', 0):>6}  "
                  f"{_pct(c.get('full refused'), c.get('files')):>19} "
                  f"{_pct(c.get('edits refused'), c.get('edits')):>17} {literal:>14} "
                  f"{_pct(c.get('truncations caught'), c.get('truncations')):>19} "
                  f"{c.get('cpu ms', 0):>7}")
        print()
    for name, rows in (("before", before), ("now", after)):
        for row in rows or ():
            culprits = row["culprits"]
            assert isinstance(culprits, list)
            if culprits and args.show:
                print(f"{name} {row['label']}: most frequent refused lines")
                for line, n in culprits[: args.show]:
                    print(f"  {n:5}  {line}")


if __name__ == "__main__":
    main()
