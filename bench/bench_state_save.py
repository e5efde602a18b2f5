"""Saving and reading the review state: a state with 600 and 5,000 log entries.

A save follows every decision, undo and redo (and every call a live agent makes), and
the log grows by one entry each time, so late in a long review this is paid on every
key. Timed: ``state_text`` (a line per log entry and path record, each by json's C
encoder, one encoder for the whole text), against the two baselines of the same run:
``json.dumps(indent=1)`` (the format before 2026-12-02, which runs json's Python encoder)
and one ``json.dumps`` with no indent (the C encoder, everything on one line).

Reading: ``parse_state_json`` (the state's bounds: digits, depth) against ``json.loads``
of the same bytes in the same run, and the generic limits of every outside JSON
(``load_json``, a scan of every token) that it used to run first on every state.

Then what a key pays: ``StateFile.save`` of the log grown by one entry, after a save of the
rest (each entry's text kept from the save before, the file written and fsynced in a
temporary folder), with the log's earlier entries in segment blobs (as shipped, sealed past
``SEAL_BYTES``) against the whole log in the state file (sealing off), same run; and one
bulk entry of 25,000 decisions followed by one more step, the case that made the segments.

Run: ``.venv/bin/python bench/bench_state_save.py``.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_match import median_ms  # noqa: E402
from reviewtui.core.engine import Decision  # noqa: E402
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind  # noqa: E402
from reviewtui.core.text.limits import load_json  # noqa: E402
from reviewtui.shell import state  # noqa: E402
from reviewtui.shell.state import StateFile, parse_state_json, state_text  # noqa: E402


def _doc(entries: int) -> dict[str, Any]:
    item = {"turn": 1, "pos": 0, "path": "pkg/module.py", "edit": 1, "op": "cd32af43d7a4229b",
            "verdict": "accepted", "replacement": None, "force": False}
    record = {"base": {"sha": "ab" * 32, "mode": 420}, "seen": "cd" * 32,
              "ref": {"sha": "ef" * 32, "mode": 420}, "outside": False, "deleted": False}
    return {"format": "reviewtui-review-state", "version": 3,
            "session": {"file": "/work/session.md", "sha256": "12" * 32}, "root": "/work",
            "saved_at": "2026-12-02T15:00:00+0000",
            "log": [{"kind": "decide", "items": [dict(item, turn=n // 10 + 1, pos=n % 10)],
                     "seconds": n / 7} for n in range(entries)],
            "orphaned": [], "ui": {"checkpoint": 3},
            "paths": {f"pkg/module{n}.py": record for n in range(200)}}


def main() -> None:
    print("state text per save, median of 9 (ms); baselines in the same run")
    for entries in (600, 5_000):
        doc = _doc(entries)
        assert json.loads(state_text(doc)) == doc
        ours = median_ms(partial(state_text, doc), 9)
        indented = median_ms(partial(json.dumps, doc, indent=1, ensure_ascii=False), 9)
        one_line = median_ms(partial(json.dumps, doc, ensure_ascii=False), 9)
        print(f"  {entries:5d} log entries  state_text {ours:6.1f}   indent=1 {indented:6.1f} "
              f"(x{ours / indented:.2f})   one line {one_line:6.1f} (x{ours / one_line:.2f})")
    print("target: well under indent=1 (a line per entry costs less than twice one line)")
    print("state read per open (and per reading of a live server), median of 9 (ms)")
    for entries in (600, 5_000):
        raw = state_text(_doc(entries)).encode("utf-8")
        ours = median_ms(partial(parse_state_json, raw), 9)
        plain = median_ms(partial(json.loads, raw), 9)
        generic = median_ms(partial(load_json, raw.decode("utf-8")), 9)
        print(f"  {entries:5d} log entries  parse_state_json {ours:6.1f}   json.loads {plain:6.1f} "
              f"(x{ours / plain:.2f})   load_json (generic limits) {generic:6.1f}")
    print("target: a few times json.loads (the state's bounds; the generic scan only for a "
          "state that fails them)")
    print("one key's save, the log grown by one entry, median of 9 (ms, with fsync): "
          "segments / the whole log in the state file")
    for name, log in (("600 log entries", _log(600, 1)), ("5000 log entries", _log(5_000, 1)),
                      ("a 25,000-decision bulk entry", _log(1, 25_000))):
        sealed = _key_save(log, state.SEAL_BYTES)
        whole = _key_save(log, 1 << 62)
        print(f"  {name:30} {sealed:6.1f} / {whole:6.1f} (x{sealed / whole:.2f})")
    print("target: what a key saves does not grow with the log")


def _log(entries: int, items: int) -> list[LogEntry]:
    decision = Decision.accept()
    return [LogEntry(LogKind.DECIDE, tuple(
        DecisionItem(n + 1, k % 10, f"pkg/module{k % 200}.py", 1, "cd32af43d7a4229b", decision)
        for k in range(items)), seconds=1.5) for n in range(entries)]


def _key_save(log: list[LogEntry], seal: int) -> float:
    """Median ms of a save of ``log`` plus one more entry, after a save of ``log``."""
    old, state.SEAL_BYTES = state.SEAL_BYTES, seal
    try:
        times: list[float] = []
        for _ in range(9):
            with tempfile.TemporaryDirectory() as folder:
                kept = StateFile(Path(folder) / "s.review.json")
                session = Path(folder) / "s.md"
                doc = state.ReviewState(session_sha="12" * 32, log=list(log))
                kept.save(doc, session)
                doc.log.append(LogEntry(LogKind.UNDO))
                began = time.perf_counter()
                kept.save(doc, session)
                times.append((time.perf_counter() - began) * 1000)
        return statistics.median(times)
    finally:
        state.SEAL_BYTES = old


if __name__ == "__main__":
    main()
