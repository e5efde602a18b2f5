"""Independent pieces of work shared with forked copies of this process, on a machine with
more than one core: ``apply``'s syntax report, one check per written file.

A forked child starts with this process's memory as it stands (copied on write), so
nothing is sent to it: it works out its share of the items, writes the answers back as one
JSON document on a pipe and leaves with ``os._exit`` (no ``atexit`` handler, no flush of
output buffers the parent owns, no lock or state file touched). The parent works out its
own share meanwhile, then reads the children's.

The answer is always what ``[run(item) for item in items]`` gives here, only sooner. Any
doubt and a share is worked out in this process instead: no ``os.fork`` (Windows), one
core, too little work to pay for a fork (about a millisecond each), another thread alive
(a fork copies the locks it holds, not the thread that would release them), a child that
fails, dies or writes something unreadable.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence

from reviewtui.core.engine import OpKey, OpResult
from reviewtui.core.review.diagnostics import Diagnostic
from reviewtui.core.review.landed import chain_weight, diagnose_chain, landed_chains

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

# Work (in the items' own weights) a process must get for a fork to pay: a check of a
# 5,000-line Python file costs about what starting a child and reading its answer does.
SHARE = 5_000
MAX_WORKERS = 8
# What writing files costs against checking them (a LandedReport's head start when it is
# begun before the writes), measured on bench_apply.py's 191 code edits: ~11 ms of writes,
# ~45 ms of checks.
WRITES = 0.25


class LandedReport:
    """``core.review.landed.diagnose_landed``'s answer for ``apply``, its files checked in
    up to one process per core when they are many and long enough, and begun before the
    writes: the children check their files while this process writes (``head_start``,
    :data:`WRITES` there: the share kept for this process is lighter by what the writes
    cost, as a fraction of the checks).

    :meth:`finish` takes the results as they landed. A file whose operations landed as
    begun (the same outcome objects, in the same order) keeps the answer begun; any other
    is checked then. Close it (``with``) so that no child outlives a failed ``apply``."""

    def __init__(self, results: Sequence[OpResult], *, head_start: float = 0.0) -> None:
        self._chains = landed_chains(results)
        weights = [chain_weight(chain) for chain in self._chains]
        self._job = Forked(self._chains, _encoded, weights, share=SHARE,
                           head_start=int(sum(weights) * head_start))

    def finish(self, results: Sequence[OpResult]) -> dict[OpKey, tuple[Diagnostic, ...]]:
        begun = {chain[-1].outcome.path: (chain, answer)
                 for chain, answer in zip(self._chains, self._job.finish(), strict=True)}
        out: dict[OpKey, tuple[Diagnostic, ...]] = {}
        for chain in landed_chains(results):
            was, answer = begun.get(chain[-1].outcome.path, ((), None))
            if len(was) != len(chain) or any(
                    a.key != b.key or a.outcome is not b.outcome
                    for a, b in zip(was, chain, strict=True)):
                answer = _encoded(chain)  # it landed otherwise than begun
            if answer:
                out[chain[-1].key] = _decoded(answer)
        return out

    def __enter__(self) -> LandedReport:
        return self

    def __exit__(self, *exc: object) -> None:
        self._job.cancel()


def landed_report(results: Sequence[OpResult]) -> dict[OpKey, tuple[Diagnostic, ...]]:
    """:class:`LandedReport` of results already landed."""
    with LandedReport(results) as report:
        return report.finish(results)


def _encoded(chain: list[OpResult]) -> list[list[object]]:
    return [[d.line, d.col, d.message, d.introduced, d.check] for d in diagnose_chain(chain)]


def _decoded(answer: object) -> tuple[Diagnostic, ...]:
    assert isinstance(answer, list | tuple)  # what _encoded made, here or in a child
    return tuple(Diagnostic(*fields) for fields in answer)


def forked_map(items: Sequence[T], run: Callable[[T], object], weights: Sequence[int], *,
               share: int = SHARE, workers: int | None = None) -> list[object]:
    """``run`` of each item, in order (:class:`Forked` started and finished at once)."""
    return Forked(items, run, weights, share=share, workers=workers).finish()


class Forked:
    """``run`` of each item, shares of them worked out by forked children from the start
    and this process's share in :meth:`finish`, when that pays (see the module's doc).
    ``run`` must return what JSON writes and reads back as it was, up to tuples read back
    as lists (a child's answers come back that way). ``weights``: what each item costs;
    ``share``: the least weight worth a process; ``head_start``: the weight of what this
    process does before :meth:`finish`; ``workers``: the processes to use at most, this
    one included (default: the cores this process may run on)."""

    def __init__(self, items: Sequence[Any], run: Callable[[Any], object],
                 weights: Sequence[int], *, share: int = SHARE, head_start: int = 0,
                 workers: int | None = None) -> None:
        self._items, self._run = items, run
        self._children: list[tuple[int, int, list[int]]] = []  # (pid, read end, indices)
        count = _workers() if workers is None else workers
        shares = plan_shares(weights, count, share, head_start)
        if len(shares) < 2 or not _can_fork():
            self._local = list(range(len(items)))
            return
        import json  # noqa: F401  (loaded once, before the children: they inherit it)

        self._local = list(shares[0])
        for indices in shares[1:]:
            try:
                self._children.append(_spawn(items, run, indices))
            except OSError:  # no fork now (too many processes, no memory): here instead
                self._local.extend(indices)

    def finish(self) -> list[object]:
        items, run = self._items, self._run
        out: list[object] = [None] * len(items)
        try:
            for index in self._local:  # this process's share, the children's meanwhile
                out[index] = run(items[index])
        except BaseException:
            self.cancel()
            raise
        children, self._children = self._children, []
        for pid, fd, indices in children:
            answers = _collect(pid, fd, len(indices))
            for at, index in enumerate(indices):
                out[index] = run(items[index]) if answers is None else answers[at]
        return out

    def cancel(self) -> None:
        """Stop and reap the children not collected yet (their answers are not wanted)."""
        children, self._children = self._children, []
        for pid, fd, _indices in children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            _collect(pid, fd, 0)


def plan_shares(weights: Sequence[int], workers: int, share: int = SHARE,
                head_start: int = 0) -> list[list[int]]:
    """The items' indices in shares of about equal weight, heaviest item first into the
    lightest share, the first share (this process's) counted from ``head_start``; as many
    shares as ``workers`` allows and each gets ``share`` of weight, at least one. Each
    share's indices ascend; only the first may be empty."""
    total = sum(weights) + head_start
    count = max(1, min(workers, MAX_WORKERS, len(weights) + (head_start > 0),
                       total // max(share, 1)))
    loads = [head_start] + [0] * (count - 1)
    shares: list[list[int]] = [[] for _ in range(count)]
    for index in sorted(range(len(weights)), key=lambda i: -weights[i]):
        lightest = loads.index(min(loads))
        shares[lightest].append(index)
        loads[lightest] += weights[index]
    return [sorted(shares[0]), *(sorted(indices) for indices in shares[1:] if indices)]


def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")  # (never imported: no thread was started)
    return threading is None or threading.active_count() == 1


def _spawn(items: Sequence[Any], run: Callable[[Any], object], indices: list[int]
           ) -> tuple[int, int, list[int]]:
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        raise
    if pid == 0:  # the child: answer, write, leave; never return into the caller
        status = 1
        try:
            import json  # (as in _collect: loaded already, see forked_map)

            os.close(read)
            data = memoryview(json.dumps([run(items[i]) for i in indices]).encode())
            while data:
                data = data[os.write(write, data) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return pid, read, indices


def _collect(pid: int, fd: int, count: int) -> list[object] | None:
    """A child's answers (``count`` of them), or None when it failed in any way."""
    parts: list[bytes] = []
    try:
        while chunk := os.read(fd, 1 << 16):
            parts.append(chunk)
    except OSError:
        parts = []
    finally:
        os.close(fd)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return None
    if status != 0:
        return None
    import json

    try:
        answers = json.loads(b"".join(parts))
    except ValueError:
        return None
    return answers if isinstance(answers, list) and len(answers) == count else None
