"""The real-code corpus of the syntax tests and bench, and the edits made to it.

Where the corpus lives: the example files of the Pygments source distribution
(``tests/examplefiles/<lexer>/``: real programs in some 300 languages, collected to test
Pygments' lexers). ``make corpus`` fetches that sdist with pip (a registry package, pinned)
into ``.venv/corpus/``; ``REVIEWTUI_SYNTAX_CORPUS`` points elsewhere. It is not the
project's own writing, ships no code we run, and needs nothing but PyPI on a new machine.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reviewtui.core.syntax.languages import grammar_name
from reviewtui.core.syntax.parsing import Parsed, parse

ROOT = Path(__file__).resolve().parents[2]
PYGMENTS = "2.19.2"
DEFAULT_CORPUS = ROOT / ".venv" / "corpus" / f"pygments-{PYGMENTS}" / "tests" / "examplefiles"
MAX_BYTES = 60_000  # bigger files only slow the run down
PER_LANGUAGE = 6  # files per grammar, the largest first


# Real code other packages put on this machine (npm, PostgreSQL, the Google Cloud SDK...):
# used when present, for more and larger files of the languages it has. A new machine
# without them still has the Pygments corpus, which covers every language alone.
MACHINE_ROOTS = (
    Path("/usr/lib/node_modules/npm/node_modules"),
    Path("/usr/share/postgresql/15/extension"),
    Path("/usr/lib/google-cloud-sdk/platform"),
    Path("/usr/lib/perf-core/tests"),
    Path("/usr/include/linux"),
    Path("/usr/lib/ruby/3.1.0"),  # apt-get install ruby
    # Debian's documentation examples: real C (zlib, nettle), Go (git's contrib), and
    # the TypeScript of a Ruby gem's editor extension.
    Path("/usr/share/doc/zlib1g-dev/examples"),
    Path("/usr/share/doc/nettle-dev/examples"),
    Path("/usr/share/doc/git/contrib/persistent-https"),
    Path("/usr/lib/ruby/gems/3.1.0/gems/typeprof-0.21.2/vscode/src"),
)
MACHINE_FILES = 400  # per root, in name order, so a big root does not dominate the time


def corpus_root() -> Path:
    return Path(os.environ.get("REVIEWTUI_SYNTAX_CORPUS", DEFAULT_CORPUS))


def _files() -> Iterator[tuple[Path, Path]]:
    root = corpus_root()
    if root.is_dir():
        for file in sorted(root.rglob("*")):
            yield root, file
    for extra in MACHINE_ROOTS:
        if extra.is_dir():
            seen = 0
            for file in sorted(extra.rglob("*")):
                if grammar_name(file.name) is not None and file.is_file():
                    seen += 1
                    yield extra, file
                if seen >= MACHINE_FILES:
                    break


@dataclass(frozen=True)
class Sample:
    path: str  # corpus-relative, keeps the suffix the grammar is chosen by
    text: str


def corpus() -> dict[str, list[Sample]]:
    """Grammar name -> the corpus files it reads that parse cleanly as they are."""
    found: dict[str, list[tuple[str, Sample]]] = {}
    for root, file in _files():
        if not file.is_file() or file.suffix == ".output":
            continue
        grammar = grammar_name(file.name)
        if grammar is None or file.stat().st_size > MAX_BYTES:
            continue
        try:
            text = file.read_text("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        text = text.lstrip("\ufeff")
        found.setdefault(grammar, []).append(
            (file.name, Sample(str(file.relative_to(root.parent)), text)))
    # The largest first (ties in the order found); parsing stops at PER_LANGUAGE clean
    # ones, the same files as parsing all and keeping the largest clean ones.
    chosen: dict[str, list[Sample]] = {}
    for grammar, items in sorted(found.items()):
        for name, sample in sorted(items, key=lambda item: -len(item[1].text)):
            parsed = parse(name, sample.text)
            if parsed is None or parsed.tree.root_node.has_error:
                continue  # lexer stress tests the grammar does not accept: not a clean base
            chosen.setdefault(grammar, []).append(sample)
            if len(chosen[grammar]) == PER_LANGUAGE:
                break
    return chosen


# -- valid edits -------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def rename_identifier(sample: Sample, rng: random.Random) -> str | None:
    """Every whole-word use of one identifier (from the tree) renamed."""
    parsed = parse(sample.path, sample.text)
    assert parsed is not None
    names: set[str] = set()
    cursor = parsed.tree.walk()
    stack = [parsed.tree.root_node]
    del cursor
    while stack:
        node = stack.pop()
        if node.type == "identifier" and node.child_count == 0:
            text = parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")
            if len(text) >= 5 and _WORD.fullmatch(text):
                names.add(text)
        stack.extend(node.children)
    if not names:
        return None
    name = rng.choice(sorted(names))
    return re.sub(rf"(?<![\w$@]){re.escape(name)}(?![\w$])", name + "Rn", sample.text)


# Node kinds a line can hold alone and repeat. Not JSX elements: two side by side need a
# wrapper, so a repeated one is a real syntax error.
_STATEMENT = re.compile(r"^(?!jsx).*(statement|declaration|assignment|pair|element|call|command)")


def duplicate_statement(sample: Sample, rng: random.Random) -> tuple[str, int] | None:
    """A line that holds exactly one statement inside a block, written twice."""
    parsed = parse(sample.path, sample.text)
    assert parsed is not None
    lines = sample.text.split("\n")
    choices: list[int] = []
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        row, col = node.start_point
        end_row, _ = node.end_point
        if (row != end_row or not node.is_named or node.parent is None
                or node.parent.parent is None or not _STATEMENT.search(node.type)):
            continue
        line = lines[row]
        body = parsed.data[node.start_byte:node.end_byte].decode("utf-8", "replace")
        if line.strip() == body.strip() and line[:col].strip() == "":
            choices.append(row)
    if not choices:
        return None
    row = rng.choice(sorted(set(choices)))
    return "\n".join([*lines[: row + 1], lines[row], *lines[row + 1 :]]), row + 1


# -- breakages ---------------------------------------------------------------------------

_CLOSERS = re.compile(r"^\s*(\}|end|fi|done|esac|\)|\]|</\w+>)[;,)]*\s*$")


def breakages(sample: Sample, rng: random.Random, each: int = 3) -> Iterator[
        tuple[str, str, int]]:
    """(kind, broken text, 1-based line of the damage), up to ``each`` of every kind."""
    lines = sample.text.split("\n")
    parsed = parse(sample.path, sample.text)
    assert parsed is not None
    comment_rows = _comment_rows(parsed)
    html = parsed.grammar == "html"
    # HTML end tags are optional to its parser (as to a browser): deleting one is no error.
    closers = [] if html else [i for i, line in enumerate(lines) if _CLOSERS.match(line)
                               and i not in comment_rows]
    for i in rng.sample(closers, min(each, len(closers))):
        yield "delete closer", "\n".join(lines[:i] + lines[i + 1 :]), i + 1
    ends = _string_ends(parsed)
    quoted = [] if parsed.grammar in MULTILINE_STRINGS else [
        i for i, line in enumerate(lines) if line.count('"') == 2
        and i not in comment_rows and '\\"' not in line and "'" not in line
        and (i, len(line[: line.rindex('"')].encode())) in ends
        and (not html or _in_tag(line, line.rindex('"')))]
    for i in rng.sample(quoted, min(each, len(quoted))):
        line = lines[i]
        cut = line.rindex('"')
        yield "drop quote", "\n".join(
            [*lines[:i], line[:cut] + line[cut + 1 :], *lines[i + 1 :]]), i + 1
    halves = [i for i, line in enumerate(lines) if i not in comment_rows and (
        _in_tag(line, len(line) // 2) if html else _opens_before_middle(line))]
    for i in rng.sample(halves, min(each, len(halves))):
        line = lines[i]
        yield "cut line", "\n".join(
            [*lines[:i], line[: len(line) // 2], *lines[i + 1 :]]), i + 1
    if parsed.grammar == "yaml":  # YAML's own breakage: a key one space off its siblings
        keys = _yaml_sibling_keys(parsed)
        for i in rng.sample(keys, min(each, len(keys))):
            yield "misindent key", "\n".join([*lines[:i], " " + lines[i], *lines[i + 1 :]]), i + 1


def _yaml_sibling_keys(parsed: Parsed) -> list[int]:
    """Rows of one-line ``key: value`` pairs that follow a sibling pair in the same mapping
    (PyYAML rejects such a pair indented by one more space, as the grammar does)."""
    rows: list[int] = []
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        before = node.prev_named_sibling
        if (node.type == "block_mapping_pair" and node.start_point[0] == node.end_point[0]
                and before is not None and before.type == "block_mapping_pair"
                and before.start_point[1] == node.start_point[1]):
            rows.append(node.start_point[0])
    return sorted(rows)


# Where a double-quoted string may run on over lines, a dropped quote can leave the file
# valid (``bash -n`` agrees for shell): no "drop quote" breakage there.
MULTILINE_STRINGS = frozenset({"bash", "ruby", "php", "elixir", "yaml"})


def _string_ends(parsed: Parsed) -> set[tuple[int, int]]:
    """(row, byte column) of every closing ``"`` of a one-line string in the tree."""
    ends: set[tuple[int, int]] = set()
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        kind = node.type
        if ("string" in kind or "attribute_value" in kind) and not re.search(
                "template|fragment|content", kind):
            (row, _), (end_row, end_col) = node.start_point, node.end_point
            if row == end_row and parsed.data[node.end_byte - 1 : node.end_byte] == b'"':
                ends.add((row, end_col - 1))
        stack.extend(node.children)
    return ends


def _opens_before_middle(line: str) -> bool:
    """A bracket opens in the first half and closes in the second: cutting leaves it open."""
    if len(line.strip()) < 16 or line.count('"') % 2 or line.count("'") % 2:
        return False
    middle = len(line) // 2
    head, tail = line[:middle], line[middle:]
    return any(head.count(o) > head.count(c) and tail.count(c) > tail.count(o)
               for o, c in ("()", "[]", "{}"))


def _in_tag(line: str, at: int) -> bool:
    """``at`` falls inside one ``<tag ...>`` of the line (HTML: a cut there breaks it)."""
    start = line.rfind("<", 0, at)
    return start >= 0 and line.find(">", start) >= at and ">" not in line[start:at]


# Lines that a grammar does not read as code: comments, multi-line strings, heredocs, and
# C macro bodies (opaque text to a C parser, as to the compiler until they are expanded).
_OPAQUE = re.compile(r"comment|string|heredoc|preproc_(def|function_def|call|include|arg)")


def _comment_rows(parsed: Parsed) -> set[int]:
    rows: set[int] = set()
    stack = [parsed.tree.root_node]
    while stack:
        node = stack.pop()
        if _OPAQUE.search(node.type):
            first, last = node.start_point[0], node.end_point[0]
            if "string" not in node.type or first != last:  # a one-line string is code
                rows.update(range(first, last + 1))
            continue
        stack.extend(node.children)
    return rows
