"""Swap ``dataclasses.field``/``replace`` for reviewtui.core.record's, mechanically.

Run from the repository root:  .venv/bin/python swap_fields.py   (after swap_records.py)
Idempotent: run it again after merging branches that add or touch records.

A module that still uses the stock ``dataclass`` decorator keeps its ``field`` (the stock
decorator would take record's field() for a plain default). Elsewhere:
* ``from dataclasses import field, replace`` -> ``from reviewtui.core.record import ...``;
* ``import dataclasses`` used only as ``dataclasses.replace``/``dataclasses.field``: those
  calls lose the prefix and the names come from reviewtui.core.record.
Then ``ruff check --fix --select I`` sorts the touched files' imports.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

SWAPPABLE = {"field", "replace"}


def swap(path: Path) -> bool:
    text = path.read_text()
    tree = ast.parse(text)
    stock_decorator = any(isinstance(n, ast.Name) and n.id == "dataclass" for n in ast.walk(tree)) \
        or any(isinstance(n, ast.Attribute) and n.attr == "dataclass"
               and isinstance(n.value, ast.Name) and n.value.id == "dataclasses"
               for n in ast.walk(tree))
    swappable = SWAPPABLE - ({"field"} if stock_decorator else set())
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
             and isinstance(n.value, ast.Name) and n.value.id == "dataclasses"}
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Store)} | {
        n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)} | {
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    wanted: set[str] = set()
    out = []
    drop_module = bool(attrs) and attrs <= swappable
    # a module that uses the name for something else (a parameter "replace") gets an alias
    alias = {name: f"{name}_record" if name in bound else name for name in swappable}
    at = None
    for line in text.splitlines(keepends=True):
        match = re.fullmatch(r"from dataclasses import (.+)\n", line)
        if match:
            names = [n.strip() for n in match.group(1).split(",")]
            moved = [n for n in names if n in swappable]
            kept = [n for n in names if n not in swappable]
            wanted.update(moved)
            if kept:
                out.append(f"from dataclasses import {', '.join(kept)}\n")
            at = len(out)
            continue
        if line == "import dataclasses\n" and drop_module:
            wanted.update(attrs)
            at = len(out)
            continue
        out.append(line)
    if not wanted:
        return False
    if any(alias[name] != name for name in wanted) and not drop_module:
        raise SystemExit(f"{path}: 'from dataclasses import' of a name bound here; by hand")
    assert at is not None
    names = [name if alias[name] == name else f"{name} as {alias[name]}" for name in wanted]
    existing = [i for i, line in enumerate(out)
                if line.startswith("from reviewtui.core.record import ")]
    if existing:
        names += [n.strip() for n in out[existing[0]][34:].split(",")]
        del out[existing[0]]
        at -= existing[0] < at
    out.insert(at, f"from reviewtui.core.record import {', '.join(sorted(set(names)))}\n")
    text = "".join(out)
    if drop_module:
        text = re.sub(r"\bdataclasses\.(field|replace)\b", lambda m: alias[m.group(1)], text)
    path.write_text(text)
    print(f"{path}: {', '.join(sorted(wanted))}")
    return True


def main() -> None:
    root = Path("src/reviewtui")
    touched = [p for p in sorted(root.rglob("*.py"))
               if not (p.name == "record.py" and p.parent.name == "core") if swap(p)]
    if touched:
        ruff = Path(sys.executable).with_name("ruff")
        subprocess.run([str(ruff), "check", "--fix", "--select", "I", "--quiet",
                        *map(str, touched)], check=False)


if __name__ == "__main__":
    main()
