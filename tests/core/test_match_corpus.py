"""The matcher against real code: edits generated over Python standard-library files.

For each file, unique regions get an intended replacement; the SEARCH/REPLACE the
"model" sends is then perturbed the way models mistype (trailing whitespace, shifted or
dropped indentation, tabs, curly quotes, spurious blank edges, ``...`` elision), or made
stale or ambiguous. A result is *correct* when it does what a careful human would: the
spliced file equals the intended one (or, for stale and ambiguous edits, nothing is
written and the reason is reported). *Skipped* is a safe refusal. *Wrong* must be zero.

Run with ``pytest -s`` to see the table.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sysconfig
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    import fcntl
except ImportError:  # (not on Windows: each worker runs the corpus itself there)
    fcntl = None  # type: ignore[assignment]

from reviewtui.core.match import match_edit
from reviewtui.core.match.elision import is_marker
from reviewtui.core.match.normalise import is_blank, leading, loose_key
from reviewtui.core.model.outcome import Diagnosis, MatchResult, Status

pytestmark = pytest.mark.slow  # the corpus fixture is the slow part; keep its tests together

SEED = 20240611
FILES = 40
EDITS_PER_FILE = 8
EXPRESSION = ("none", "trailing", "indent", "tabs", "curly", "blank-edges", "mixed",
              "spaces-for-tabs", "spaces-dedented")


@dataclass(frozen=True)
class Edit:
    lines: tuple[str, ...]  # the file as the matcher sees it
    search: tuple[str, ...]
    replace: tuple[str, ...]
    intended: tuple[str, ...] | None  # the file after a correct edit
    history: tuple[tuple[str, ...], ...] = ()
    expected_locations: frozenset[tuple[int, int]] = frozenset()


def _stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    usable = []
    for path in sorted(root.glob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if 80 <= text.count("\n") <= 6000:
            usable.append(path)
    return sorted(random.Random(SEED).sample(usable, min(FILES, len(usable))))


def _read(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").replace("\r\n", "\n").split("\n"))


# -- regions and intended replacements ---------------------------------------------


def _loose_counts(lines: Sequence[str], size: int) -> Counter[tuple[str, ...]]:
    keys = [loose_key(line) for line in lines]
    return Counter(tuple(keys[i : i + size]) for i in range(len(lines) - size + 1))


def _pick_region(rng: random.Random, lines: Sequence[str], counts: dict[int, Counter[
        tuple[str, ...]]], sizes: tuple[int, int] = (1, 6)) -> tuple[int, int] | None:
    """A region unique even after normalisation, with no blank edges nor markers."""
    for _ in range(60):
        size = rng.randint(*sizes)
        start = rng.randrange(0, max(1, len(lines) - size))
        region = lines[start : start + size]
        if len(region) < size or is_blank(region[0]) or is_blank(region[-1]):
            continue
        if any(is_marker(region, at) for at in range(size)):
            continue
        if size not in counts:
            counts[size] = _loose_counts(lines, size)
        if counts[size][tuple(loose_key(line) for line in region)] == 1:
            return start, start + size
    return None


def _replacement(rng: random.Random, region: Sequence[str], step: str = "    ") -> list[str]:
    """Change one line, then add a line (indented like its neighbour, or one level
    deeper after a line opening a block) or delete one."""
    out = list(region)
    filled = [i for i, line in enumerate(out) if not is_blank(line)]
    changed = rng.choice(filled)
    out[changed] = out[changed] + "  # reviewed"
    if len(out) > 2 and rng.random() < 0.3:
        del out[rng.randrange(1, len(out) - 1)]
        return out
    after = rng.randrange(len(out))
    indent = leading(out[after])
    if out[after].rstrip().endswith(":"):
        indent += step
    out.insert(after + 1, indent + f"trace({after}, 'inserted')")
    return out


def _splice(lines: Sequence[str], start: int, end: int, new: Sequence[str]) -> tuple[str, ...]:
    return (*lines[:start], *new, *lines[end:])


# -- perturbations (how the model retypes the lines it sends) -------------------------


def _indent_map(lines: Sequence[str], change: Callable[[str], str]) -> list[str]:
    return [line if is_blank(line) else change(leading(line)) + line.lstrip()
            for line in lines]


def _trailing(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    return [line + "  " for line in search], [line + " \t" for line in replace]


def _indent(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    widths = [len(leading(line)) for line in search + replace if not is_blank(line)]
    if any("\t" in leading(line) for line in search + replace):
        return None
    drop = min(widths)
    if drop:  # dropped indentation: the model dedents what it quotes
        return (_indent_map(search, lambda lead: lead[drop:]),
                _indent_map(replace, lambda lead: lead[drop:]))
    return (_indent_map(search, lambda lead: "    " + lead),
            _indent_map(replace, lambda lead: "    " + lead))


def _tabs(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    # Only when SEARCH itself changes: an exact SEARCH keeps REPLACE as typed.
    if not any(len(leading(line)) >= 4 for line in search) or any(
            "\t" in line for line in search + replace):
        return None

    def to_tabs(lead: str) -> str:
        return "\t" * (len(lead) // 4) + " " * (len(lead) % 4)

    return _indent_map(search, to_tabs), _indent_map(replace, to_tabs)


def _curl(line: str) -> str:
    out, double, single = [], False, False
    for ch in line:
        if ch == '"':
            out.append("\u201d" if double else "\u201c")
            double = not double
        elif ch == "'":
            out.append("\u2019" if single else "\u2018")
            single = not single
        else:
            out.append(ch)
    return "".join(out)


def _curly(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    if not any("'" in line or '"' in line for line in search):
        return None
    # Lines the model copies are curled; lines it writes anew stay as it means them.
    quoted = set(search)
    return [_curl(line) for line in search], [
        _curl(line) if line in quoted else line for line in replace]


def _blank_edges(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    return ["", *search, ""], ["", *replace, ""]


def _mixed(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    """Several slips at once: shifted indentation, trailing spaces, curly quotes."""
    shifted = _indent(search, replace)
    if shifted is None:
        return None
    padded = [line + "  " for line in shifted[0]], [line + "  " for line in shifted[1]]
    return _curly(*padded) or padded


def _detab(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    """The file indents with tabs; the model types four spaces for each."""
    if not any("\t" in leading(line) for line in search):
        return None
    return (_indent_map(search, lambda lead: lead.replace("\t", "    ")),
            _indent_map(replace, lambda lead: lead.replace("\t", "    ")))


def _detab_dedent(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    """Spaces for the file's tabs, and the indentation shifted as well (see _indent)."""
    spaced = _detab(search, replace)
    return None if spaced is None else _indent(*spaced)


def _unchanged(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    return search, replace


PERTURB: dict[str, Callable[[list[str], list[str]], tuple[list[str], list[str]] | None]] = {
    "none": _unchanged,
    "trailing": _trailing,
    "indent": _indent,
    "tabs": _tabs,
    "curly": _curly,
    "blank-edges": _blank_edges,
    "mixed": _mixed,
    "spaces-for-tabs": _detab,
    "spaces-dedented": _detab_dedent,
}


# -- edit generators ------------------------------------------------------------------


@functools.cache
def _tabbed(lines: tuple[str, ...]) -> tuple[str, ...]:
    """The file indented with tabs (made once per file, not once per edit)."""
    return tuple(_indent_map(lines, lambda lead: lead.replace("    ", "\t")))


def _expression_edit(rng: random.Random, lines: tuple[str, ...], counts: dict[
        int, Counter[tuple[str, ...]]], kind: str) -> Edit | None:
    step = "    "
    if kind in ("spaces-for-tabs", "spaces-dedented"):
        lines = _tabbed(lines)
        step = "\t"
    span = _pick_region(rng, lines, counts)
    if span is None:
        return None
    start, end = span
    region = list(lines[start:end])
    replacement = _replacement(rng, region, step)
    sent = PERTURB[kind](region, replacement)
    if sent is None:
        return None
    return Edit(lines, tuple(sent[0]), tuple(sent[1]), _splice(lines, start, end, replacement))


def _elision_edit(rng: random.Random, lines: tuple[str, ...], counts: dict[
        int, Counter[tuple[str, ...]]]) -> Edit | None:
    span = _pick_region(rng, lines, counts, sizes=(8, 24))
    if span is None:
        return None
    start, end = span
    region = list(lines[start:end])
    if any(is_blank(line) for line in (region[1], region[-2])):
        return None
    head, tail = region[:2], region[-2:]
    marker = leading(region[2]) + "# ... existing code ..."
    new_head = [head[0] + "  # reviewed", head[1]]
    intended = _splice(lines, start, end, [*new_head, *region[2:]])
    return Edit(lines, (*head, marker, *tail), (*new_head, marker, *tail), intended)


def _stale_edit(rng: random.Random, lines: tuple[str, ...], counts: dict[
        int, Counter[tuple[str, ...]]]) -> Edit | None:
    span = _pick_region(rng, lines, counts, sizes=(2, 6))
    if span is None:
        return None
    start, end = span
    region = list(lines[start:end])
    # Since the model read the file, every line of the region changed.
    current = _splice(lines, start, end, [
        line if is_blank(line) else line + "  # since changed" for line in region])
    return Edit(current, tuple(region), tuple(_replacement(rng, region)), None,
                history=(lines,))


def _ambiguous_edit(rng: random.Random, lines: tuple[str, ...]) -> Edit | None:
    seen = Counter(lines)
    repeated = sorted(line for line, n in seen.items()
                      if n > 1 and len(line.strip()) >= 8 and not is_marker([line], 0))
    if not repeated:
        return None
    line = rng.choice(repeated)
    where = frozenset((i + 1, i + 1) for i, current in enumerate(lines) if current == line)
    return Edit(lines, (line,), (line + "  # which one?",), None, expected_locations=where)


# -- judging --------------------------------------------------------------------------


SKIPS = (Status.REFUSED, Status.NOT_FOUND, Status.AMBIGUOUS, Status.NEEDS_REVIEW)


def _judge(category: str, edit: Edit, result: MatchResult) -> str:
    """Verdict: correct, wrong, or the status of a safe skip."""
    if result.status is Status.APPLIED:
        if edit.intended is None:
            return "wrong"
        after = _splice(edit.lines, result.start, result.end, result.new_lines)
        return "correct" if after == edit.intended else "wrong"
    if category == "ambiguous" and result.status is Status.AMBIGUOUS:
        return "correct" if set(result.locations) == edit.expected_locations else "wrong"
    if category == "stale" and result.status is Status.NOT_FOUND:
        stale = any(c.diagnosis is Diagnosis.STALE for c in result.candidates)
        if stale or "stale" in result.hint:
            return "correct"
    return str(result.status)


def _run_corpus() -> tuple[dict[str, Counter[str]], list[str]]:
    table: dict[str, Counter[str]] = {}
    failures: list[str] = []
    categories = (*EXPRESSION, "elision", "stale", "ambiguous")
    for number, path in enumerate(_stdlib_files()):
        lines = _read(path)
        counts: dict[int, Counter[tuple[str, ...]]] = {}
        for category in categories:
            rng = random.Random(f"{SEED}-{number}-{category}")
            for _ in range(EDITS_PER_FILE):
                if category in EXPRESSION:
                    edit = _expression_edit(rng, lines, counts, category)
                elif category == "elision":
                    edit = _elision_edit(rng, lines, counts)
                elif category == "stale":
                    edit = _stale_edit(rng, lines, counts)
                else:
                    edit = _ambiguous_edit(rng, lines)
                if edit is None:
                    continue
                result = match_edit(edit.lines, edit.search, edit.replace,
                                    history=edit.history)
                verdict = _judge(category, edit, result)
                table.setdefault(category, Counter())[verdict] += 1
                if verdict == "wrong":
                    failures.append(f"{category} {path.name}: {result.method} {result.hint}"
                                    f"\n  search={edit.search!r}\n  got={result.new_lines!r}")
    return table, failures


def _skipped(counts: Counter[str]) -> int:
    return sum(counts[str(status)] for status in SKIPS)


def _format(table: dict[str, Counter[str]]) -> str:
    reasons = " ".join(f"{str(status):>12}" for status in SKIPS)
    rows = [f"{'category':<16} {'correct':>7} {'skipped':>7} ({reasons}) {'wrong':>5} "
            f"{'total':>5}"]
    for category, counts in table.items():
        total = sum(counts.values())
        split = " ".join(f"{counts[str(status)]:>12}" for status in SKIPS)
        rows.append(f"{category:<16} {counts['correct']:>7} {_skipped(counts):>7} ({split}) "
                    f"{counts['wrong']:>5} {total:>5}")
    return "\n".join(rows)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Counter[str]], list[str]]:
    if not _stdlib_files():
        pytest.skip("no standard-library sources on this machine")
    return _once_per_run(tmp_path_factory)


def _once_per_run(
        tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Counter[str]], list[str]]:
    """The corpus run, made once per test run: under pytest-xdist the module's tests are
    spread over the workers, and each worker built the module's fixture again (~3.7 s of
    CPU each). The first worker to ask runs it and leaves the result beside the workers'
    temporary folders; the others wait for it and read it (the same run: same table)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None or fcntl is None:
        return _run_corpus()
    shared = tmp_path_factory.getbasetemp().parent / f"match-corpus-{run}.json"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            saved = json.loads(shared.read_text())
            return {k: Counter(v) for k, v in saved["table"].items()}, saved["failures"]
        table, failures = _run_corpus()
        part = shared.with_suffix(".part")
        part.write_text(json.dumps({"table": table, "failures": failures}))
        part.replace(shared)
        return table, failures


def test_corpus_never_wrong(corpus: tuple[dict[str, Counter[str]], list[str]]) -> None:
    table, failures = corpus
    report = _format(table)
    print("\n" + report)
    assert not failures, report + "\n\n" + "\n".join(failures[:10])


@pytest.mark.parametrize("category", EXPRESSION)
def test_expression_edits_land(
    corpus: tuple[dict[str, Counter[str]], list[str]], category: str
) -> None:
    table, _ = corpus
    counts = table[category]
    total = sum(counts.values())
    assert total >= 60, _format(table)
    assert counts["correct"] >= 0.9 * total, _format(table)


def test_stale_and_ambiguous_are_reported(
    corpus: tuple[dict[str, Counter[str]], list[str]],
) -> None:
    table, _ = corpus
    for category in ("stale", "ambiguous", "elision"):
        counts = table[category]
        assert counts["correct"] >= 0.8 * sum(counts.values()), _format(table)
