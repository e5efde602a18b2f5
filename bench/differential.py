"""Random edits replayed by reviewtui and by the tool that made the patch, compared byte
for byte: git's own ``git diff`` + ``git apply``, and Codex's ``apply_patch`` binary.

    python bench/differential.py [--seed N] [--cases N] [--only git|codex]

Each case is a small random file (lines from a short vocabulary, so lines repeat; CRLF and
LF endings mixed, sometimes a byte order mark or no final newline) and a random change of
it (lines changed, endings flipped, lines inserted and removed, the mark or the final
newline toggled):

- git: ``git diff --no-index --binary`` of the two versions, applied by ``git apply`` and
  by ``reviewtui apply --format unified``; both must give the second version;
- codex (LF files, where apply_patch's format has no way to say otherwise): an
  ``apply_patch`` of the change with three lines of context and ``*** End of File`` when a
  chunk reaches the end, applied by Codex's binary (found as in ``bench_match.py``) and by
  ``reviewtui apply --format apply_patch``; reviewtui must write what Codex writes.

A case where reviewtui writes other bytes, or exits 0 without the intended result, is
printed as WRONG with its folder (kept under the temp folder named at the start). Found on
2026-12-03: blank context lines read as an empty SEARCH and appended again (both formats),
and line endings of a unified diff written in the file's convention (75 of 99 git cases
wrong on the code before that day).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_match import find_apply_patch, run_apply_patch  # noqa: E402

REVIEWTUI = [sys.executable, "-m", "reviewtui"]
WORDS = ["a", "b", "c", "x = 1", "", "    pass", "}", "return x", "  y", "z\t", "é"]
BOM = "\ufeff"

Rows = list[tuple[str, str]]  # (line, its ending)


def versions(rng: random.Random, endings: tuple[str, ...]) -> tuple[bytes, bytes]:
    rows: Rows = [(rng.choice(WORDS), rng.choice(endings)) for _ in range(rng.randint(1, 14))]
    new = list(rows)
    for _ in range(rng.randint(1, 4)):
        at, roll = rng.randint(0, len(new)), rng.random()
        if roll < 0.3 and at < len(new):
            new[at] = (rng.choice(WORDS) + "!", new[at][1])
        elif roll < 0.5 and at < len(new) and len(endings) > 1:
            new[at] = (new[at][0], "\n" if new[at][1] == "\r\n" else "\r\n")
        elif roll < 0.8:
            new.insert(at, (rng.choice(WORDS) + "+", rng.choice(endings)))
        elif at < len(new) and len(new) > 1:
            del new[at]
    mark = len(endings) > 1 and rng.random() < 0.2
    final = rng.random() < 0.8 or len(endings) == 1
    toggle = len(endings) > 1 and rng.random() < 0.2
    return (_bytes(rows, mark, final),
            _bytes(new, mark != (toggle and rng.random() < 0.5),
                   final != (toggle and rng.random() < 0.5)))


def _bytes(rows: Rows, mark: bool, final: bool) -> bytes:
    body = "".join(line + end for line, end in rows)
    if not final:
        body = body.removesuffix("\r\n").removesuffix("\n")
    return ((BOM if mark else "") + body).encode()


def apply_patch_text(old: list[str], new: list[str]) -> str:
    out = ["*** Begin Patch", "*** Update File: f.txt"]
    for group in SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(3):
        out.append("@@")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out += [" " + line for line in old[a1:a2]]
            else:
                out += ["-" + line for line in old[a1:a2]] + ["+" + line for line in new[b1:b2]]
        if group[-1][2] == len(old):
            out.append("*** End of File")
    return "\n".join([*out, "*** End Patch"]) + "\n"


def reviewtui(fmt: str, patch: Path, root: Path) -> int:
    return subprocess.run([*REVIEWTUI, "apply", "--format", fmt, "--yes", "--root", str(root),
                           str(patch)], capture_output=True, check=False).returncode


def one_case(kind: str, rng: random.Random, folder: Path, codex: str | None) -> str:
    """'same', 'refused' (reviewtui left the file and said so) or 'WRONG'."""
    before, after = versions(rng, ("\n", "\r\n") if kind == "git" else ("\n",))
    if before == after or before.endswith(b"\r") or after.endswith(b"\r"):
        return "skipped"  # (a lone CR ending a file: see tests/core/test_diff_endings.py)
    for side in ("a", "b", "theirs", "ours"):
        (folder / side).mkdir(parents=True)
    (folder / "a" / "f.txt").write_bytes(before)
    (folder / "b" / "f.txt").write_bytes(after)
    for side in ("theirs", "ours"):
        (folder / side / "f.txt").write_bytes(before)
    if kind == "git":
        diff = subprocess.run(["git", "-c", "core.autocrlf=false", "diff", "--no-index",
                               "--binary", "a/f.txt", "b/f.txt"], cwd=folder,
                              capture_output=True, check=False).stdout
        diff = diff.replace(b"a/a/f.txt", b"a/f.txt").replace(b"b/b/f.txt", b"b/f.txt")
        patch = folder / "change.diff"
        patch.write_bytes(diff)
        subprocess.run(["git", "-c", "core.autocrlf=false", "apply", str(patch)],
                       cwd=folder / "theirs", capture_output=True, check=False)
        code = reviewtui("unified", patch, folder / "ours")
    else:
        assert codex is not None
        text = apply_patch_text(before.decode().splitlines(), after.decode().splitlines())
        patch = folder / "change.patch"
        patch.write_text(text)
        run_apply_patch(codex, text, str(folder / "theirs"))
        code = reviewtui("apply_patch", patch, folder / "ours")
    theirs = (folder / "theirs" / "f.txt").read_bytes()
    ours = (folder / "ours" / "f.txt").read_bytes()
    if ours == theirs:
        return "same"
    return "refused" if ours == before and code != 0 else "WRONG"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--only", choices=("git", "codex"))
    args = parser.parse_args()
    codex = find_apply_patch()
    kinds = [k for k in ("git", "codex") if args.only in (None, k)]
    if "codex" in kinds and codex is None:
        print("!!! Codex apply_patch not found: that comparison is skipped (npm install "
              "--prefix /tmp/codex-npm @openai/codex)", flush=True)
        kinds.remove("codex")
    work = Path(tempfile.mkdtemp(prefix="reviewtui-differential-"))
    print(f"cases kept under {work} when they differ", flush=True)
    for kind in kinds:
        rng = random.Random(args.seed)
        tally: dict[str, int] = {}
        for n in range(args.cases):
            folder = work / f"{kind}-{n}"
            verdict = one_case(kind, rng, folder, codex[0] if codex else None)
            tally[verdict] = tally.get(verdict, 0) + 1
            if verdict in ("same", "skipped"):
                shutil.rmtree(folder, ignore_errors=True)
            else:
                print(f"  {verdict}: {folder}", flush=True)
        print(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())), flush=True)


if __name__ == "__main__":
    main()
