"""Every regular expression of ``src/reviewtui`` against crafted long lines (ReDoS sweep).

    .venv/bin/python bench/redos.py [--only NAME] [--sizes 1000,2000,4000,8000]

Sessions, transcripts, state files and project files are outside text, so no pattern may
backtrack super-linearly on a line someone crafted (a 2,000-character line of spaces once
made a parser pattern take 35 s). This script finds the patterns itself: every
``re.Pattern`` and ``LazyPattern`` a module of the package holds (also inside a tuple, list
or dict), plus the patterns written inline in function bodies (``INLINE`` below, kept in
step with ``grep -rnE "re\\.(compile|match|search|...)\\(" src``). How each is called is
read from the source (``NAME.match(`` / ``.search(`` / ``.sub(`` ...): ``match``,
``fullmatch``, or ``search`` (every start tried: ``search``, ``sub``, ``findall``,
``finditer``, ``split``); a pattern whose calls are not found is timed as searched.

The crafted lines are built from the pattern itself: a partial sample of the pattern (what
it must read before one of its runs: "> Skipping edits to ", "class A"), then a long run of
one unit (a character the pattern's runs accept, or a short prefix of the pattern, so that
a searched pattern starts again at every unit), then a tail that fails it (``\\x00``, ``x``,
nothing). Screening times every such line at 400 characters once; the five slowest lines of
each pattern are then timed at each size (best of three), and the slowest is printed with
its growth per doubling. Linear is about x2; x4 is quadratic; anything above x3 is flagged
``SUPER-LINEAR``. A size is skipped once a call passes 2 s.

Not seen here: a pattern whose least width passes these sizes (``[\d_]{4300,}``) refuses
shorter lines by their length; its growth is not computed below that width.

Baseline (same run): ``str.count`` over the same line, to show what a linear scan costs.
Target: no pattern flagged. Takes a minute or two (not in ``make bench``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]  # the re module's parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import reviewtui  # noqa: E402
from reviewtui.core.importers.aider import MARKER_LINE  # noqa: E402
from reviewtui.core.review.diagnostics import TOML_AT, TOML_END  # noqa: E402
from reviewtui.core.text.lazy_pattern import LazyPattern  # noqa: E402

SRC = Path(reviewtui.__file__).resolve().parent
SCREEN_SIZE = 400
TOP = 5
GIVE_UP_S = 2.0
TAILS = ("\x00", "x", "")
# Characters that runs commonly accept, besides what each pattern names itself.
EXTRA_UNITS = (" ", "\t", "*", "-", "#", '"', "'", "\\", "0", "a", ".", "\n", "<", ">",
               "(", ")", "/", ":", "=", "`", "~", "_", ",", "\u2003")

# Patterns written inline (module, what they are called here, pattern, flags, method).
INLINE: tuple[tuple[str, str, str, int, str], ...] = (
    ("shell/git.py", "ident", r"^(.*>) (\d+) ([+-]\d{4})$", 0, "match"),
    ("shell/git_sources.py", "sha", r"[0-9a-f]{40}|[0-9a-f]{64}", 0, "fullmatch"),
    ("core/text/limits.py", "needle", r"(?<!\d)12345(?!\d)", 0, "search"),
    ("core/protocol/config.py", "toml-line", r"line (\d+)", 0, "search"),
    ("core/protocol/config.py", "giant_number", r"(?<![\d_])[\d_]{4300,}", 0, "search"),
    ("core/review/diagnostics.py", "TOML_AT", TOML_AT, 0, "search"),
    ("core/review/diagnostics.py", "TOML_END", TOML_END, 0, "search"),
    ("core/export/report.py", "backticks", r"`+", 0, "search"),
    ("core/lint/paths.py", "separators", r"[\\/]", 0, "search"),
    ("core/syntax/pyregions.py", "name", r"\bname\b", 0, "search"),
    ("core/syntax/pyregions.py", "def", r"(?:async[ \t]+)?def[ \t]", 0, "match"),
    ("core/importers/claude.py", "tool-error", r"</?tool_use_error>", 0, "search"),
    ("core/importers/aider.py", "started", r"^# aider chat started at", re.MULTILINE, "search"),
    ("core/importers/aider.py", "request", r"^#### ", re.MULTILINE, "search"),
    ("core/importers/aider.py", "MARKER_LINE", MARKER_LINE, re.MULTILINE, "search"),
    ("core/importers/gitlog.py", "sha", r"[0-9a-f]{7,64}", 0, "fullmatch"),
    ("core/importers/unified.py", "diff-git", r"^diff --git ", re.MULTILINE, "search"),
    ("core/importers/unified.py", "headers", r"^--- .*\n\+\+\+ .*\n@@ -\d", re.MULTILINE,
     "search"),
    ("core/importers/unified.py", "subject", r"^\[PATCH[^\]]*\]\s*", 0, "search"),
    ("core/importers/unified.py", "mode", r"[0-7]{6}", 0, "fullmatch"),
    ("core/importers/unified.py", "index",
     r"^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]{6}))?\s*$", 0, "match"),
    ("core/importers/diffpaths.py", "octal", r"[0-7]{3}", 0, "fullmatch"),
    ("core/match/diagnose.py", "word", r"\bword\b", 0, "search"),
)
# Calls the source scan cannot see (the pattern is reached through a loop variable).
USES = {
    "core/agent/outline.py:_PATTERNS": "search",
    "core/syntax/pycomments.py:_FSTRING_OPENERS": "search",
    "core/text/markers.py:_BARE_PHRASE": "fullmatch",  # as ``phrase``, like _PHRASE
    # The header's grammar, written down; header_path reads it by hand (and tests compare).
    "core/protocol/grammar.py:HEADER_RE": "not run",
}
_CALL = r"\b{name}(?:\.compiled\(\))?\.(match|fullmatch|search|subn?|findall|finditer|split)\("


@dataclass
class Subject:
    where: str  # module path under src/reviewtui, and the name
    pattern: re.Pattern[str]
    methods: list[str] = field(default_factory=list)
    assumed: bool = False


def _module_patterns() -> Iterator[tuple[str, str, re.Pattern[str] | LazyPattern]]:
    for info in pkgutil.walk_packages(reviewtui.__path__, "reviewtui."):
        if info.name.endswith("__main__"):
            continue  # runs the command line when imported
        try:
            module = importlib.import_module(info.name)
        except Exception as exc:  # an optional dependency missing: say so, go on
            print(f"  (not imported: {info.name}: {exc})")
            continue
        rel = Path(module.__file__ or "").resolve().relative_to(SRC).as_posix()
        for name, value in vars(module).items():
            items = (value.values() if isinstance(value, dict)
                     else value if isinstance(value, tuple | list) else (value,))
            for item in items:
                parts = item if isinstance(item, tuple) else (item,)
                for part in parts:
                    if isinstance(part, re.Pattern | LazyPattern):
                        yield rel, name, part


def subjects() -> list[Subject]:
    sources = {p.relative_to(SRC).as_posix(): p.read_text() for p in SRC.rglob("*.py")}
    found: dict[tuple[str, int], Subject] = {}
    for rel, name, value in _module_patterns():
        compiled = value.compiled() if isinstance(value, LazyPattern) else value
        if not isinstance(compiled.pattern, str):
            continue
        key = (compiled.pattern, compiled.flags)
        if key in found:
            continue
        subject = Subject(f"{rel}:{name}", compiled)
        call = re.compile(_CALL.format(name=re.escape(name)))
        for text in sources.values():
            for method in call.findall(text):
                kind = method if method in ("match", "fullmatch") else "search"
                if kind not in subject.methods:
                    subject.methods.append(kind)
        if not subject.methods:
            subject.methods = [USES.get(subject.where, "search")]
            subject.assumed = subject.where not in USES
        found[key] = subject
    for rel, name, pattern, flags, method in INLINE:
        compiled = re.compile(pattern, flags)
        found.setdefault((pattern, flags), Subject(f"{rel}:{name} (inline)", compiled,
                                                   [method]))
    return list(found.values())


# --- crafted lines from the pattern's own parse tree --------------------------------------

def _chars_of(items: object) -> list[str]:
    """One or two characters each set, category or range of a parsed class accepts."""
    out: list[str] = []
    for op, arg in items:  # type: ignore[attr-defined]
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "RANGE":
            out += [chr(arg[0]), chr(arg[1])]
        elif name == "CATEGORY":
            cat = str(arg)
            out += {"CATEGORY_SPACE": [" ", "\t"], "CATEGORY_DIGIT": ["0"],
                    "CATEGORY_WORD": ["a", "_"], "CATEGORY_NOT_SPACE": ["a"],
                    "CATEGORY_NOT_DIGIT": ["a"], "CATEGORY_NOT_WORD": [" ", "-"],
                    }.get(cat, [])
        elif name == "NEGATE":
            out += ["a", " ", "-"]
    return out


def _sample(seq: object) -> str:
    """A short string the parsed sequence ``seq`` reads (not always a match: lookarounds
    and back references are left out)."""
    out = []
    for op, arg in seq:  # type: ignore[attr-defined]
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "NOT_LITERAL":
            out.append("a" if arg != ord("a") else "b")
        elif name == "IN":
            chars = [c for c in _chars_of(arg) if c]
            negated = any(str(o) == "NEGATE" for o, _ in arg)
            out.append("a" if negated or not chars else chars[0])
        elif name == "ANY":
            out.append("a")
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = arg
            out.append(_sample(sub) * max(low, 1))
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            out.append(_sample(arg[-1]))
        elif name == "BRANCH":
            out.append(_sample(arg[1][0]))
    return "".join(out)


def _prefixes(seq: object) -> Iterator[str]:
    """Every partial sample: what the pattern reads up to each of its items, nested."""
    base = ""
    for op, arg in seq:  # type: ignore[attr-defined]
        name = str(op)
        yield base
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            for inner in _prefixes(arg[2]):
                yield base + inner
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            for inner in _prefixes(arg[-1]):
                yield base + inner
        elif name == "BRANCH":
            for alternative in arg[1][:12]:
                for inner in _prefixes(alternative):
                    yield base + inner
        base += _sample([(op, arg)])
    yield base


def _units(parsed: object) -> list[str]:
    chars: list[str] = []

    def walk(seq: object) -> None:
        for op, arg in seq:  # type: ignore[attr-defined]
            name = str(op)
            if name == "LITERAL":
                chars.append(chr(arg))
            elif name == "IN":
                chars.extend(_chars_of(arg))
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(arg[2])
            elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
                walk(arg[-1])
            elif name == "BRANCH":
                for alternative in arg[1]:
                    walk(alternative)
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(arg[1])
    walk(parsed)
    return list(dict.fromkeys(chars + list(EXTRA_UNITS)))


def crafted(pattern: re.Pattern[str]) -> Iterator[tuple[str, str, str]]:
    """(head, unit, tail): the line is head + unit * k + tail."""
    parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    heads = list(dict.fromkeys(p for p in _prefixes(parsed) if len(p) <= 60))[:60]
    units = _units(parsed)[:40]
    units += [h for h in heads if 2 <= len(h) <= 8][:10]  # the pattern starting again
    for head in heads:
        for unit in units:
            for tail in TAILS:
                yield head, unit, tail


def line_of(head: str, unit: str, tail: str, size: int) -> str:
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def call(pattern: re.Pattern[str], method: str) -> Callable[[str], object]:
    return getattr(pattern, method)  # type: ignore[no-any-return]


def once(fn: Callable[[str], object], line: str) -> float:
    start = time.perf_counter()
    fn(line)
    return time.perf_counter() - start


def best(fn: Callable[[str], object], line: str, rounds: int = 3) -> float:
    """Best of ``rounds``; a quick call is timed in batches of about 5 ms (timer noise)."""
    first = once(fn, line)
    if first > GIVE_UP_S / 2:
        return first
    batch = max(1, int(0.005 / max(first, 1e-7)))
    times = [first]
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(batch):
            fn(line)
        times.append((time.perf_counter() - start) / batch)
    return min(times)


def sweep(subject: Subject, sizes: list[int]) -> tuple[str, list[float | None], str]:
    """The worst crafted line's method, times per size and a readable form of the line."""
    candidates: list[tuple[float, str, tuple[str, str, str]]] = []
    for method in subject.methods:
        fn = call(subject.pattern, method)
        for parts in crafted(subject.pattern):
            candidates.append((once(fn, line_of(*parts, SCREEN_SIZE)), method, parts))
    candidates.sort(reverse=True)
    worst: tuple[float, str, list[float | None], tuple[str, str, str]] | None = None
    for _screen, method, parts in candidates[:TOP]:
        fn = call(subject.pattern, method)
        times: list[float | None] = []
        for size in sizes:
            if times and (times[-1] is None or times[-1] > GIVE_UP_S):
                times.append(None)
                continue
            times.append(best(fn, line_of(*parts, size)))
        known = [t for t in times if t is not None]
        if worst is None or known[-1] * (2 ** (len(times) - len(known))) > worst[0]:
            worst = (known[-1] * (2 ** (len(times) - len(known))), method, times, parts)
    assert worst is not None
    head, unit, tail = worst[3]
    return worst[1], worst[2], f"{head!r} + {unit!r}*k + {tail!r}"


def growth(times: list[float | None]) -> list[float]:
    out = []
    for a, b in zip(times, times[1:], strict=False):
        if a is not None and b is not None and a > 0:
            out.append(b / a)
    return out


def ms(t: float | None) -> str:
    return "   skipped" if t is None else f"{t * 1000:10.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="patterns whose place or text holds this")
    parser.add_argument("--sizes", default="1000,2000,4000,8000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    every = subjects()
    if args.only:
        every = [s for s in every if args.only in s.where or args.only in s.pattern.pattern]
    print(f"{len(every)} patterns; times in ms of the slowest crafted line per size "
          f"({', '.join(f'{s:,}' for s in sizes)} characters), growth per doubling")
    baseline = [best(lambda line: line.count("\x00"), " " * s) for s in sizes]
    print(f"{'baseline str.count':58} {''.join(ms(t) for t in baseline)}")
    flagged = []
    for subject in every:
        if subject.methods == ["not run"]:
            print(f"{subject.where:58} (not run by the package: not timed)")
            continue
        method, times, shape = sweep(subject, sizes)
        # A line shorter than the pattern's least width is refused by its length alone.
        width = sre_parse.parse(subject.pattern.pattern, subject.pattern.flags).getwidth()[0]
        steps = growth([t if size >= width else None for t, size in zip(times, sizes,
                                                                          strict=True)])
        mean = (steps[0] * steps[-1]) ** 0.5 if steps else 0.0  # first and last doubling
        skipped = any(t is None for t in times)
        flag = "SUPER-LINEAR" if mean > 3 or skipped else ""
        label = f"{subject.where} .{method}{' (assumed)' if subject.assumed else ''}"
        print(f"{label[:58]:58} {''.join(ms(t) for t in times)}  "
              f"{' '.join(f'x{g:.1f}' for g in steps)} {flag}"
              + (f"(no line shorter than {width:,} can match)" if width > sizes[0] else ""))
        if flag:
            flagged.append(subject)
            print(f"    {subject.pattern.pattern[:100]!r}")
            print(f"    line: {shape}")
    print(f"\n{len(flagged)} of {len(every)} patterns grow super-linearly"
          + (": " + ", ".join(s.where for s in flagged) if flagged else ""))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
