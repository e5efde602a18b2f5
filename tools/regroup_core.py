#!/usr/bin/env python3
"""Regroup ``src/reviewtui/core``'s loose modules into packages by stage.

Moves each module with ``git mv`` (so history follows) and rewrites every reference to
it in the tracked text files under src/, tests/, bench/, docs/ plus README.md and
pyproject.toml: ``from X import ...`` statements, ``from reviewtui.core import name``
(kept under the same local name), dotted names in strings and docs
(``"reviewtui.core.tree.FileState"``), and file paths (``core/tree.py``).

Idempotent: a move whose target exists is skipped, and a reference already in its new
form is left alone, so it can be re-run on a newer main after other branches landed.
It prints every move and every file it rewrote. Finally it lets ruff re-sort the import
blocks it touched (import order only). Run it from the repository root:

    python3 tools/regroup_core.py            # do it
    python3 tools/regroup_core.py --dry-run  # only say what it would do
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

# Old module -> new module, relative to src/reviewtui (paths, not dotted names).
MOVES: dict[str, str] = {
    # model/: the immutable records every stage passes on
    "core/model.py": "core/model/records.py",
    "core/outcome.py": "core/model/outcome.py",
    "core/tree.py": "core/model/tree.py",
    "core/shapes.py": "core/model/edit_shapes.py",
    # text/: line-level helpers for outside text
    "core/hashline.py": "core/text/hashline.py",
    "core/diff.py": "core/text/diff.py",
    "core/placeholders.py": "core/text/markers.py",
    "core/plural.py": "core/text/plural.py",
    "core/limits.py": "core/text/limits.py",
    # paths/: what a model may name, and what a pattern matches
    "core/paths.py": "core/paths/safety.py",
    "core/wildcard.py": "core/paths/wildcard.py",
    "core/gitignore.py": "core/paths/gitignore.py",
    # engine/: evaluation (and the same-named pairs made unambiguous)
    "core/structural.py": "core/engine/structural.py",
    "core/engine/fileops.py": "core/engine/file_edits.py",
    "core/engine/shapes.py": "core/engine/line_edits.py",
    # review/: what the reviewer is shown and decides on
    "core/rebase.py": "core/review/rebase.py",
    "core/diagnostics.py": "core/review/diagnostics.py",
    "core/partial.py": "core/review/partial.py",
    "core/search.py": "core/review/search.py",
    "core/stats.py": "core/review/stats.py",
    # agent/: what `reviewtui mcp` and `reviewtui view` answer
    "core/agent.py": "core/agent/answers.py",
    "core/outline.py": "core/agent/outline.py",
    # export/: its record module no longer shares a name with core/model/
    "core/export/model.py": "core/export/accepted.py",
}

NEW_PACKAGES: dict[str, str] = {
    "core/model": "The records every stage passes on: sessions and operations, outcomes, "
                  "the virtual tree, edit shapes.",
    "core/text": "Line-level helpers for outside text: line ids, diffs, placeholder "
                 "markers, bounds, counted nouns.",
    "core/paths": "Paths: what a model may name (safety), wildcards and .gitignore "
                  "patterns.",
    "core/agent": "What an agent is told: compact answers and outlines for `reviewtui mcp` "
                  "and `reviewtui view`.",
}

PACKAGE_ROOT = Path("src/reviewtui")
REWRITE_DIRS = ("src", "tests", "bench", "docs")
REWRITE_FILES = ("README.md", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".tcss"}


def dotted(rel: str) -> str:
    return "reviewtui." + rel.removesuffix(".py").replace("/", ".")


OLD_TO_NEW = {dotted(old): dotted(new) for old, new in MOVES.items()}
NEW_MODULES = set(OLD_TO_NEW.values())


def children(name: str) -> set[str]:
    """Submodules of ``name`` that only exist after the moves (``model`` -> records...)."""
    prefix = name + "."
    return {m[len(prefix):].split(".")[0] for m in NEW_MODULES if m.startswith(prefix)}


# A dotted old name, not already followed by one of the new submodules of that name.
_DOTTED = re.compile(
    r"(?<![\w.])(" + "|".join(re.escape(o) for o in sorted(OLD_TO_NEW, key=len, reverse=True))
    + r")(?![\w])"
)
_FROM = re.compile(r"^([ \t]*)from[ \t]+(reviewtui(?:\.\w+)*)[ \t]+import[ \t]+"
                   r"(\([^)]*\)|[^\n]*)", re.MULTILINE)


def _dotted_sub(match: re.Match[str]) -> str:
    old = match.group(1)
    rest = match.string[match.end():]
    kids = children(old)
    if kids and re.match(r"\.(" + "|".join(kids) + r")\b", rest):
        return old  # already the new package's submodule
    return OLD_TO_NEW[old]


def _names(body: str) -> list[tuple[str, str | None]] | None:
    """``a, b as c`` -> [(a, None), (b, c)]; None when it is not a plain name list."""
    inner = body.strip()
    if inner.startswith("("):
        inner = inner[1:-1]
    inner = re.sub(r"#[^\n]*", "", inner)
    out: list[tuple[str, str | None]] = []
    for part in inner.replace("\n", " ").split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 1 and words[0].isidentifier():
            out.append((words[0], None))
        elif len(words) == 3 and words[1] == "as":
            out.append((words[0], words[2]))
        else:
            return None
    return out


def _from_sub(match: re.Match[str]) -> str:
    indent, module, body = match.group(1), match.group(2), match.group(3)
    trailing = ""
    if not body.lstrip().startswith("("):
        code, hash_, comment = body.partition("#")
        body, trailing = code.rstrip(), (f"  #{comment}" if hash_ else "")
    names = _names(body)
    if names is None:
        return match.group(0)
    moved = [(n, a) for n, a in names if f"{module}.{n}" in OLD_TO_NEW]
    if moved:  # from reviewtui.core import tree  ->  from reviewtui.core.model import tree
        kept = [(n, a) for n, a in names if f"{module}.{n}" not in OLD_TO_NEW]
        lines = []
        if kept:
            listed = ", ".join(n if a is None else f"{n} as {a}" for n, a in kept)
            lines.append(f"{indent}from {module} import {listed}")
        for name, alias in moved:
            parent, _, leaf = OLD_TO_NEW[f"{module}.{name}"].rpartition(".")
            local = alias or name
            lines.append(f"{indent}from {parent} import {leaf}"
                         + ("" if leaf == local else f" as {local}"))
        return "\n".join(lines) + trailing
    if module in OLD_TO_NEW:
        kids = children(module)
        if kids and all(n in kids for n, _ in names):
            return match.group(0)  # from reviewtui.core.model import records: already new
        return match.group(0).replace(module, OLD_TO_NEW[module], 1)
    return match.group(0)


def _path_patterns() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for old, new in MOVES.items():
        old_tail, new_tail = old.removeprefix("core/"), new.removeprefix("core/")
        if "/" in old_tail:  # engine/fileops.py: also written without core/
            pattern = r"(?<![\w.-])((?:src/)?(?:reviewtui/)?(?:core/)?)" + re.escape(old_tail)
        else:
            pattern = r"(?<![\w.-])((?:src/)?(?:reviewtui/)?core/)" + re.escape(old_tail)
        out.append((re.compile(pattern + r"(?![\w])"), new_tail))
    return out


PATHS = _path_patterns()


def rewrite(text: str, python: bool) -> str:
    if python:
        pieces, last = [], 0
        for match in _FROM.finditer(text):
            pieces.append(_DOTTED.sub(_dotted_sub, text[last:match.start()]))
            pieces.append(_from_sub(match))
            last = match.end()
        pieces.append(_DOTTED.sub(_dotted_sub, text[last:]))
        text = "".join(pieces)
    else:
        text = _DOTTED.sub(_dotted_sub, text)
    for pattern, new_tail in PATHS:  # the prefix as written (src/, core/ or none) is kept
        text = pattern.sub(_keep_prefix(new_tail), text)
    return text


def _keep_prefix(new_tail: str) -> Callable[[re.Match[str]], str]:
    return lambda match: match.group(1) + new_tail


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z", *REWRITE_DIRS, *REWRITE_FILES],
                            capture_output=True, check=True).stdout.decode().split("\0")
    return [Path(p) for p in listed
            if p and Path(p).is_file()
            and (Path(p).suffix in TEXT_SUFFIXES or p in REWRITE_FILES)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    if not (PACKAGE_ROOT / "core").is_dir():
        print("run this from the repository root", file=sys.stderr)
        return 2
    changed = 0
    for package, doc in NEW_PACKAGES.items():
        init = PACKAGE_ROOT / package / "__init__.py"
        if not init.exists():
            print(f"create  {init}")
            changed += 1
            if not args.dry_run:
                init.parent.mkdir(parents=True, exist_ok=True)
                body = "\n".join(textwrap.wrap(doc, 92))
                init.write_text(f'"""{body}\n"""\n' if "\n" in body else f'"""{body}"""\n',
                                encoding="utf-8")
                subprocess.run(["git", "add", str(init)], check=True)
    for old, new in MOVES.items():
        src, dst = PACKAGE_ROOT / old, PACKAGE_ROOT / new
        if dst.exists() and not src.exists():
            continue
        if dst.exists() and src.exists():
            print(f"CONFLICT both {src} and {dst} exist: merge them by hand", file=sys.stderr)
            return 1
        if not src.exists():
            print(f"MISSING {src}: nothing to move", file=sys.stderr)
            continue
        print(f"git mv  {src} -> {dst}")
        changed += 1
        if not args.dry_run:
            dst.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["git", "mv", str(src), str(dst)], check=True)
    touched_py = []
    for path in tracked_files():
        if path.resolve() == Path(__file__).resolve():
            continue
        try:
            before = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        after = rewrite(before, path.suffix == ".py")
        if after != before:
            count = len(set(after.splitlines()) - set(before.splitlines()))
            print(f"rewrite {path} ({count} rewritten line{'s' if count != 1 else ''})")
            changed += 1
            if not args.dry_run:
                path.write_text(after, encoding="utf-8")
                if path.suffix == ".py":
                    touched_py.append(str(path))
    ruff = shutil.which("ruff") or (".venv/bin/ruff" if Path(".venv/bin/ruff").exists()
                                    else None)
    if touched_py and ruff:
        subprocess.run([ruff, "check", "--quiet", "--select", "I", "--fix", *touched_py],
                       check=False)
        print(f"ruff re-sorted the import blocks of {len(touched_py)} files")
        long = subprocess.run([ruff, "check", "--quiet", "--select", "E501",
                               "--output-format", "concise", *touched_py],
                              capture_output=True, text=True, check=False).stdout
        if long.strip():
            print("lines now over the length limit (rewrap them by hand):\n" + long.strip())
    print(f"{changed} change(s)" + (" (dry run)" if args.dry_run else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
