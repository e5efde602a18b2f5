"""Every workbench worker that takes arguments names itself (``@work(description=...)``).

Without a description Textual builds one from ``repr`` of the arguments when the worker
starts: the diff worker's pane repr'd a big file's texts before and after (megabytes, on
the event loop), and the syntax worker's results repr'd their file versions, which built
and kept every version's bytes (1.6 GB of a 3 MB file's versions in the workbench)."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "src" / "reviewtui" / "ui"


def _workers() -> list[tuple[str, ast.FunctionDef, ast.Call]]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for decorator in node.decorator_list:
                if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name)
                        and decorator.func.id == "work"):
                    found.append((f"{path.relative_to(UI)}:{node.name}", node, decorator))
    return found


def test_workers_with_arguments_have_a_description() -> None:
    workers = _workers()
    assert len(workers) >= 8  # (the walk finds them)
    bare = [name for name, node, decorator in workers
            if len(node.args.args) + len(node.args.kwonlyargs) > 1
            and not any(keyword.arg == "description" for keyword in decorator.keywords)]
    assert bare == []
