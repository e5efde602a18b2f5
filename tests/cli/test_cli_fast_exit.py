"""A headless command ends its process without the interpreter's teardown (issue 13,
"Headless start-up"), and nothing is lost by it.

``reviewtui.cli.run`` (the entry point of ``reviewtui`` and ``python -m reviewtui``)
flushes stdout and stderr and calls ``os._exit`` after ``check``, ``lint``, ``apply``,
``restore``, ``view``, ``export``, ``stats`` and ``--help``. These tests run real child
processes: the statuses and output are the ones ``raise SystemExit(main())`` gives, and
work asked for at exit (an ``atexit`` function, a thread still running) still happens,
because then the process ends the usual way.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# The end the entry point had before: main(), then the interpreter's own exit.
USUAL_END = "import sys; from reviewtui.cli import main; raise SystemExit(main())"


def _project(tmp: Path) -> tuple[Path, Path, Path]:
    base = tmp / "base"
    base.mkdir()
    (base / "mod.py").write_text("def f(x):\n    return x + 7\n")
    good = tmp / "good.md"
    good.write_text("## Turn 1\n--- File: mod.py ---\n<<<<<<< SEARCH\n    return x + 7\n"
                    "=======\n    return x + 70\n>>>>>>> REPLACE\n\n### Changed files:\n"
                    "- mod.py\n")
    bad = tmp / "bad.md"
    bad.write_text("## Turn 1\n--- File: mod.py ---\n<<<<<<< SEARCH\nnot there\n=======\n"
                   "new\n>>>>>>> REPLACE\n")
    return base, good, bad


# One command line per way of ending: clean, findings, JSON output, a missing file, a usage
# error, another command's output, argparse's own exits, the default command.
CASES = ("check-clean", "check-findings", "check-json", "check-missing", "check-bad-option",
         "stats", "help", "version", "no-such-command-file")


def _argvs(tmp: Path) -> dict[str, list[str]]:
    base, good, bad = _project(tmp)
    argvs = {
        "check-clean": ["check", str(good), "--root", str(base)],
        "check-findings": ["check", str(bad), "--root", str(base)],
        "check-json": ["check", str(bad), "--root", str(base), "--json"],
        "check-missing": ["check", str(tmp / "nope.md")],
        "check-bad-option": ["check", str(good), "--bogus"],
        "stats": ["stats", str(good), "--root", str(base)],
        "help": ["--help"],
        "version": ["--version"],
        "no-such-command-file": [str(tmp / "nope.md"), "--dry-run"],
    }
    assert tuple(argvs) == CASES
    return argvs


@pytest.mark.parametrize("name", CASES)
def test_statuses_and_output_are_those_of_the_usual_end(tmp_path: Path, name: str) -> None:
    argv = _argvs(tmp_path)[name]
    fast = subprocess.run([sys.executable, "-m", "reviewtui", *argv], capture_output=True,
                          cwd=tmp_path, timeout=120, check=False)
    usual = subprocess.run([sys.executable, "-c", USUAL_END, *argv], capture_output=True,
                           cwd=tmp_path, timeout=120, check=False)
    assert (fast.returncode, fast.stdout, fast.stderr.replace(b"-m reviewtui", b"-c")) == (
        usual.returncode, usual.stdout, usual.stderr.replace(b"-m reviewtui", b"-c"))
    assert fast.returncode in (0, 1, 2)


def _child(tmp: Path, before: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``run()`` in a child after ``before``; os._exit reports itself on stderr."""
    code = ("import os, sys\n"
            "real = os._exit\n"
            "def reported(code):\n"
            "    sys.stderr.write(f'os._exit({code})\\n'); sys.stderr.flush(); real(code)\n"
            "os._exit = reported\n"
            f"{before}\n"
            f"sys.argv = ['reviewtui', *{argv!r}]\n"
            "from reviewtui.cli import run\n"
            "run()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp, timeout=120, check=False)


def test_a_headless_command_ends_at_once_with_its_status(tmp_path: Path) -> None:
    argv = _argvs(tmp_path)["check-findings"]
    done = _child(tmp_path, "", argv)
    assert done.returncode == 1
    assert done.stderr == "os._exit(1)\n"
    assert ": not_found" in done.stdout  # flushed before the end


def test_work_asked_for_at_exit_still_runs(tmp_path: Path) -> None:
    marker = tmp_path / "atexit-ran"
    done = _child(tmp_path, f"import atexit, pathlib\natexit.register(pathlib.Path({str(marker)!r})"
                  ".write_text, 'ran')", _argvs(tmp_path)["check-findings"])
    assert done.returncode == 1
    assert "os._exit" not in done.stderr  # the usual end: it runs the atexit function
    assert marker.read_text() == "ran"


def test_a_thread_still_running_is_waited_for(tmp_path: Path) -> None:
    marker = tmp_path / "thread-done"
    # The thread outlives the command whatever the machine's load: it writes only once
    # the main thread has ended, which an os._exit would never let it see.
    before = ("import threading, time, pathlib\n"
              "def late():\n"
              "    while threading.main_thread().is_alive():\n"
              "        time.sleep(0.01)\n"
              f"    pathlib.Path({str(marker)!r}).write_text('done')\n"
              "threading.Thread(target=late).start()")
    done = _child(tmp_path, before, _argvs(tmp_path)["check-clean"])
    assert done.returncode == 0
    assert "os._exit" not in done.stderr
    assert marker.read_text() == "done"


def test_the_workbench_never_ends_at_once(tmp_path: Path) -> None:
    """``open`` (here: a usage error before any UI) keeps the interpreter's own end."""
    done = _child(tmp_path, "", ["open", "--gate", "nonsense"])
    assert done.returncode == 2
    assert "os._exit" not in done.stderr
