"""The core is pure: importing any core module never imports Textual or Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import reviewtui.core


def core_modules() -> list[str]:
    prefix = reviewtui.core.__name__ + "."
    return [m.name for m in pkgutil.walk_packages(reviewtui.core.__path__, prefix)]


def test_core_has_modules() -> None:
    names = core_modules()
    assert "reviewtui.core.engine.session" in names
    assert "reviewtui.core.match.cascade" in names


def test_core_imports_neither_textual_nor_rich() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "", f"core modules pulled in: {out}"
