"""The entry point imports a headless command's module with the cyclic collector off and
freezes what the imports made (issue 13, "Headless start-up"): the collector is on again
for the work, and the imported objects are no longer walked by its collections."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import gc, sys
from reviewtui.cli import _import_uncollected
before = gc.get_freeze_count()
_import_uncollected(sys.argv[1])
print(gc.isenabled(), gc.get_freeze_count() > before, sys.argv[2] in sys.modules)
"""


def test_a_headless_commands_imports_are_frozen_and_the_collector_is_on_again() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE, "check", "reviewtui.cli.commands"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]


def test_the_collector_stays_off_if_it_was_off() -> None:
    probe = "import gc; gc.disable()\n" + _PROBE
    done = subprocess.run([sys.executable, "-c", probe, "stats", "reviewtui.cli.stats"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"]
