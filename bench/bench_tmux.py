"""Keys in a real terminal: the workbench under tmux, from ``send-keys`` to the screen.

The in-process benches (``bench_ui.py``) time a key from its event to the screen drawn,
headless. Here the whole path is timed as a reviewer meets it: tmux delivers the key to
the workbench's terminal, Textual reads it, the review job runs, the frame is written, tmux
draws it. For each key the pane is captured every ~4 ms (``capture-pane``) until
``WATCH`` seconds have passed, and two times are taken:

- *first change*: the pane first differs from what it showed before the key;
- *final*: the pane first shows what it shows at the end of the watch (after every
  other screen in between). A key that draws a half-done screen first (a frame drawn
  before its size is known, a count filled in by the background evaluation) shows as a
  *final* later than its *first change*, and as more than one screen.

Sessions: the bundled ``refactor-multi-turn`` sample (its first operation is a console
command, with no diff) and the 500-turn / 5,000-operation session that ``bench_ui.py``
uses (made from real files as ``bench_apply.py`` makes them); ``--scale``: the 5,000-turn /
50,000-operation session instead. Keys: ``y u U n u`` (accept, undo, redo, reject, its
undo) in rounds, and ``j k``; the review writes to a scratch copy of the project, with the
watcher on, in a scratch config folder (the default layout).

Baseline, same run, same terminal size: a trivial Textual app that updates one line of
text on every key (what tmux, Textual's input and output and the polling cost alone).

Run: ``.venv/bin/python bench/bench_tmux.py [--scale]`` (without tmux it says so loudly and
measures nothing). Target (issue 13): each key's median <= 50 ms.
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_apply import make_case, real_files, session_text, write_root  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SIZE = (140, 45)
WATCH = 0.6  # seconds each key is watched for
POLL = 0.004
SOCKET = f"reviewtui-bench-{os.getpid()}-0"  # a new server for each launch (next_server)
KEYS = ["y", "u", "U", "n", "u"] * 3 + ["j", "k"] * 2
TRIVIAL = """\
from textual.app import App
from textual.widgets import Static

class Trivial(App):
    count = 0

    def compose(self):
        yield Static("no key yet", id="line")

    def on_key(self, event):
        self.count += 1
        self.query_one("#line", Static).update(f"key {self.count}: {event.key}")

Trivial().run()
"""


def tmux(*args: str, check: bool = True) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True,
                          check=check)
    return done.stdout


def next_server() -> None:
    """The server of the last launch goes; the next launch gets a new one (a new session
    on a server that is still shutting down would go down with it)."""
    global SOCKET
    tmux("kill-server", check=False)
    stem, count = SOCKET.rsplit("-", 1)
    SOCKET = f"{stem}-{int(count) + 1}"


def capture() -> str:
    return tmux("capture-pane", "-p", "-t", "bench")


def launch(command: str, env: dict[str, str]) -> None:
    """``command`` in a new pane, its process the pane's own (``exec``: its CPU is read)."""
    exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
    tmux("new-session", "-d", "-s", "bench", "-x", str(SIZE[0]), "-y", str(SIZE[1]),
         f"exec env {exports} {command}")


def process_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` so far (Linux's /proc), None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(quiet: float, limit: float) -> float:
    """Wait until the program in the pane is idle (the first frame drawn and the opening's
    background work done: evaluation, lint): under 5% of a core for ``quiet`` seconds in
    a row; where its CPU cannot be read, until the pane has not changed for that long.
    Seconds waited."""
    start = time.perf_counter()
    pid = int(tmux("list-panes", "-t", "bench", "-F", "#{pane_pid}").split()[0])
    idle_since = time.perf_counter()
    used, shown = process_cpu(pid), capture()
    while time.perf_counter() - start < limit:
        time.sleep(0.25)
        now_used, now_shown = process_cpu(pid), capture()
        busy = (now_used - used > 0.05 * 0.25) if (now_used is not None and used is not None) \
            else now_shown != shown
        used, shown = now_used, now_shown
        if busy:
            idle_since = time.perf_counter()
        elif time.perf_counter() - idle_since >= quiet:
            break
    return time.perf_counter() - start


def press(key: str) -> tuple[float | None, float, int]:
    """(first change, final, distinct screens after the key) in seconds."""
    before = capture()
    seen: list[tuple[float, str]] = []
    start = time.perf_counter()
    tmux("send-keys", "-t", "bench", key)
    while (at := time.perf_counter() - start) < WATCH:
        shown = capture()
        if not seen or seen[-1][1] != shown:
            seen.append((at, shown))
        time.sleep(POLL)
    final = seen[-1][1]
    first = next((at for at, shown in seen if shown != before), None)
    arrived = [at for i, (at, shown) in enumerate(seen)
               if shown == final and (i == 0 or seen[i - 1][1] != final)][-1]
    screens = len({shown for _, shown in seen if shown != before})
    return first, arrived, screens


def run_keys(keys: list[str], gap: float = 0.4) -> dict[str, list[tuple[float, float, int]]]:
    out: dict[str, list[tuple[float, float, int]]] = {}
    for key in keys:
        first, final, screens = press(key)
        out.setdefault(key, []).append((first if first is not None else final, final, screens))
        time.sleep(gap)
    return out


def baseline(work: Path) -> float:
    script = work / "trivial.py"
    script.write_text(TRIVIAL)
    launch(f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}", {})
    settle(0.5, 10)
    figures = run_keys(["x"] * 15, gap=0.2)["x"]
    next_server()
    return statistics.median(first for first, _, _ in figures)


def workbench(name: str, session: Path, root: Path, work: Path, base: float) -> None:
    config, state = Path(tempfile.mkdtemp(dir=work)), Path(tempfile.mkdtemp(dir=work))
    env = {"XDG_CONFIG_HOME": str(config), "XDG_STATE_HOME": str(state),
           "PYTHONPATH": str(REPO / "src")}
    launch(f"{shlex.quote(sys.executable)} -m reviewtui open {shlex.quote(str(session))} "
           f"--root {shlex.quote(str(root))}", env)
    waited = settle(2.0, 300)
    figures = run_keys(KEYS)
    next_server()
    print(f"{name} (ready after {waited:.1f} s):", flush=True)
    names = {"y": "y (accept)", "u": "u (undo)", "U": "U (redo)", "n": "n (reject)",
             "j": "j (next op)", "k": "k (previous op)"}
    for key, rows in figures.items():
        first = statistics.median(row[0] for row in rows) * 1000
        final = statistics.median(row[1] for row in rows) * 1000
        screens = max(row[2] for row in rows)
        print(f"  {names[key]:16s} first change {first:5.0f} ms ({first / base / 1000:4.1f}x "
              f"baseline)  final {final:5.0f} ms  screens <= {screens}  n={len(rows)}",
              flush=True)


def main() -> None:
    if shutil.which("tmux") is None:  # loudly, but make bench goes on to the next script
        print("!!! SKIPPED: tmux is not installed (apt-get install tmux); no figures",
              flush=True)
        return
    scale = "--scale" in sys.argv[1:]
    # The workbench imports lazily: compiled first, as an installed copy is.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "src")], check=True)
    with tempfile.TemporaryDirectory(prefix="bench-tmux-") as tmp:
        work = Path(tmp)
        base = baseline(work)
        print(f"baseline: a trivial Textual app, key to screen {base * 1000:.0f} ms median "
              f"(terminal {SIZE[0]}x{SIZE[1]}, load {os.getloadavg()[0]:.2f})", flush=True)
        sample = REPO / "sample_sessions" / "refactor-multi-turn"
        shutil.copytree(sample / "base", work / "sample" / "root")
        shutil.copy(sample / "session.md", work / "sample")  # its review state goes beside it
        workbench("the refactor-multi-turn sample", work / "sample" / "session.md",
                  work / "sample" / "root", work, base)
        turns = 5000 if scale else 500
        case = make_case(f"{turns} turns", real_files(200 if scale else 100, max_lines=400),
                         turns, 10, 3)
        root = write_root(case, work / "big")
        session = work / "big" / "session.md"
        session.write_text(session_text(case))
        workbench(f"{case.ops:,} operations", session, root, work, base)
        print("target (issue 13): each key's median <= 50 ms", flush=True)


if __name__ == "__main__":
    main()
