"""A regular-expression search with a deadline, in a child process.

Python's ``re`` holds the interpreter lock for the whole of one match, and a pattern such
as ``^(a+)+$`` backtracks exponentially: run in the MCP server's worker thread it froze
every other call, and no thread can interrupt it. So the pattern runs in a child Python
(``python -m reviewtui.shell.regex_search``, about 30 ms to start) fed the lines on stdin;
past the deadline the child is killed and the agent is told the pattern took too long.
Literal searches stay in process (``in`` is linear).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable

from reviewtui.core.agent.answers import search_lines
from reviewtui.core.model.tree import FileState

SEARCH_SECONDS = 5.0  # a sane pattern over a large project takes well under a second


class PatternError(ValueError):
    """What to tell the agent instead of hits (a pattern that does not compile or ran too
    long); a ValueError like ``re.error``, which the callers already answer."""


def bounded_search(files: Iterable[tuple[str, FileState]], pattern: str,
                   seconds: float | None = None) -> tuple[list[tuple[str, int]], int]:
    """``search_lines(files, pattern, regex=True)`` run in a child killed after
    ``seconds`` (default :data:`SEARCH_SECONDS`): (hits in path order, total count), or
    :class:`PatternError`."""
    seconds = SEARCH_SECONDS if seconds is None else seconds
    request = {"pattern": pattern, "files": [[path, list(state.lines)] for path, state in files]}
    try:
        done = subprocess.run([sys.executable, "-m", __name__],
                              input=json.dumps(request).encode("ascii"),  # \u escapes: any str
                              capture_output=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:  # run() has killed and reaped the child
        raise PatternError(f"the pattern took longer than {seconds:g} s and was stopped "
                           "(nested repetition such as (a+)+ backtracks without end); "
                           "simplify it or search for a literal") from None
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        raise PatternError(f"the search failed (exit {done.returncode})") from None
    if "error" in answer:
        raise PatternError(answer["error"])
    return [(path, number) for path, number in answer["hits"]], answer["total"]


def _serve() -> None:
    """The child's side: a request on stdin, hits (or the compile error) on stdout."""
    request = json.loads(sys.stdin.buffer.read())
    files = [(path, FileState(None, lines=tuple(lines))) for path, lines in request["files"]]
    try:
        hits, total = search_lines(files, request["pattern"], regex=True)
    except Exception as exc:  # re.error, a recursion limit: the agent's pattern to fix
        out: dict[str, object] = {"error": f"the pattern does not compile ({exc})"}
    else:
        out = {"hits": hits, "total": total}
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    _serve()
