"""Python syntax checked around the edits only, where that proves what a whole parse would.

``apply`` asks one question of each Python file it writes: did the batch of edits bring a
syntax error into it? Parsing the whole file (``symtable``, ~40 ms for 10,000 lines) costs
more than the rest of an ``apply``, so :func:`edits_parse_alone` first tries to answer from
the edited definitions alone. It says True only when all of these hold:

* every changed line lies inside a *region*: from an unchanged ``def``/``class``/decorator
  line (or the top of the file) to the next unchanged such line at the same or a lower
  indentation (or the end of the file); or, tried first, the statements of the block
  around it, on the terms of :mod:`reviewtui.core.syntax.pystatements`;
* neither region boundary starts inside a string, a comment or a backslash continuation,
  in the file before or after (a scan of strings and comments with the tokenizer's rules;
  Python 3.11's, so on a newer Python the answer is always "ask the whole file");
* the region, before and after the edits, dedented to column 0, parses on its own with no
  error from the parser or the symbol table, and declares nothing ``global``/``nonlocal``
  outside its own functions and classes (such errors depend on statements outside it);
  the names its top level binds or uses are declared by no ``global``/``nonlocal``
  statement outside a function (for a region in a block, whose scope may be a function's
  shared with statements outside the region: by none anywhere);
* a region in a block holds no ``import *`` (legal only at module level) and no ``:=``
  (illegal in a comprehension in a class body), which parse alone at the top of a module.

Then the file after the edits differs from the file before only by complete definitions
that parse, each in the same place: any error it has lies outside the regions, in text
the file before had, in the same context, so none is new. Anything else returns False
and the caller parses the whole file, as before. (Tried first: :mod:`.pytokens`, no region.)

The region *before* the edits is not parsed when its shape proves it complete in a file
before that parses (:func:`_complete_before`): it starts at a ``def`` or ``class`` line
(or the top of the file; a keyword line is never inside brackets there, an ``@`` line may
be a matrix product), its brackets balance outside strings and comments, every line of
it starts with the region's indentation, and no name any ``global``/``nonlocal``
statement declares is written in it. It then ends out of every bracket, at a line that
starts a statement of its block or an outer one, so its statements are whole (a
``def``/``class``/``@`` line there continues nothing but decorators above it, whose loss
breaks nothing), and swapping them for the region after, which parses alone, leaves the
rest read as before. (If the file before does not parse, an error inside the region
may have hidden a later one, the parser stopping at the first: that one is in text the
file before had, after whole statements at the same place, brackets and indentation as
before, so it is not counted new either.) A property test holds this to whole parses.
"""

from __future__ import annotations

import re
import sys
import warnings
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from reviewtui.core.syntax.pydeclared import Declared
from reviewtui.core.syntax.pylines import Change, _accounted, _Ended, _trimmed, split_lines
from reviewtui.core.syntax.pystatements import _DEF_OR_CLASS, statement_region
from reviewtui.core.syntax.pystrings import _ONE_LINE as _ONE_LINE  # (by their old names)
from reviewtui.core.syntax.pystrings import _SPANNING as _SPANNING
from reviewtui.core.syntax.pystrings import _TOKENS, _add_continued, _in_strings, continued_after
from reviewtui.core.syntax.pystrings import _long_strings as _long_strings

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    import ast

_BOUNDARY = re.compile(r"([ \t]*)(?:@|(?:async[ \t]+)?(?:def|class)[ \t])")
# A class header on one line, with no string, comment, nested bracket or continuation
# (possessive blanks: the two runs around the bases backtracked quadratically).
_CLASS_HEAD = re.compile(r"[ \t]*class[ \t]+\w+[ \t]*+(?:\([^()'\"#\\]*\))?[ \t]*+:[ \t]*\r?")
# What the symbol table allows at the top of a module but not in every block: ``import *``
# (not in a function), ``:=`` in a comprehension (not in a class body). Found anywhere in
# an indented region's text (a string or a nested scope too: stricter, never wrong).
_IN_BLOCK_ONLY = re.compile(r"import[\s\\]*\*|:=")
_SUPPORTED = sys.version_info < (3, 12)  # 3.12 tokenizes f-strings differently

def _covered(text: str, strings: set[int] | None = None) -> set[int]:
    """0-based lines whose start lies inside a string, or continues the line above.
    ``strings``: the first part (:func:`_in_strings`) when it is already known."""
    inside = set(_in_strings(text) if strings is None else strings)
    _add_continued(text, inside)
    return inside


def _in_strings_after(before: str, after: str, new: Sequence[str], changes: Sequence[Change],
                      old_inside: set[int], old: Sequence[str] | None = None) -> set[int]:
    """:func:`_in_strings` of ``after``, knowing that of ``before`` (``old_inside``): only
    the text from each change to the next line where both scans are out of any token is
    scanned again; between two such lines and the next change, the text is the same in both
    files and so are the tokens. (Without a final newline, the last line of one may have
    no newline where the other has one, and a text ending in a backslash could make a
    triple quote fail to match at all, which depends on everything after it: both are
    scanned whole; so are changes past the last line of either.) ``old``:
    ``before.split("\n")`` when already split (its newlines need no count)."""
    if not (before.endswith("\n") and after.endswith("\n")) or (changes and (
            changes[-1][0] >= len(new) or changes[-1][2] > (
                before.count("\n") if old is None else len(old) - 1))):
        return _in_strings(after)
    inside: set[int] = set()
    olds = sorted(old_inside)
    grown = [0]
    for lo, hi, old_lo, old_hi in changes:
        grown.append(grown[-1] + (hi - lo) - (old_hi - old_lo))
    count, size, last = len(changes), len(new), len(new) - 1
    synced, k = 0, 0  # line ``synced`` starts out of any token in both; changes[k] is next
    while k < count:
        lo, shift = changes[k][0], grown[k]
        # The unchanged stretch: the same lines inside strings as in ``before``.
        first, stop = bisect_right(olds, synced - shift), bisect_left(olds, lo - shift)
        inside.update(map(shift.__add__, olds[first:stop]))
        start = lo  # scan again from the last line before the change out of any token
        while start > synced and start - shift in old_inside:
            start -= 1
        # The first line past the change out of any token of the file before; once a
        # token of the file after starts at or past it, none of those spans it either.
        candidate, k = _resync(start + 1, last, k, changes, grown, old_inside)
        # Its lines from ``start`` to the candidate, joined: a token that spans the
        # candidate reaches their end, and then all the rest is read (to its end).
        limit = size if candidate is None else candidate
        text = "\n".join(new[start:limit]) + ("" if limit == size else "\n")
        cut, line, at, pos = None if candidate is None else len(text), start, 0, 0
        while (found := _TOKENS.search(text, pos)) and (cut is None or found.start() < cut):
            if cut is not None and found.end() >= len(text):  # it may run on
                text, cut = "\n".join(new[start:]), None
                continue
            token = found.group()
            if "\n" in token:
                line, at = line + text.count("\n", at, found.start()), found.start()
                newlines = token.count("\n")
                inside.update(range(line + 1, line + 1 + newlines))
            pos = found.end()
        if cut is None:
            return inside  # read to the end: no token spans a line from here on
        assert candidate is not None  # the loop stops early only at one
        synced = candidate
        k += 1
    shift = grown[count]
    inside.update(map(shift.__add__, olds[bisect_right(olds, synced - shift):]))
    return inside


def _resync(free: int, upto: int, k: int, changes: Sequence[Change], grown: list[int],
            old_inside: set[int]) -> tuple[int | None, int]:
    """The first line from ``free`` to ``upto`` past ``changes[k]``, unchanged and out
    of any token of the file before (``None`` if there is none); and the change it
    follows."""
    line = max(free, changes[k][1])
    while line <= upto:
        following = changes[k + 1][0] if k + 1 < len(changes) else upto + 1
        if line < following:
            if line - grown[k + 1] not in old_inside:
                return line, k
            line += 1
        else:
            k += 1
            line = max(line, changes[k][1])
    return None, k


_OUTWARD = "outward"  # the region needs the definition around it (a nonlocal's binding)


def _parses(lines: Sequence[str], indent: str, last: bool,
            declared: frozenset[str] = frozenset(),
            narrower: Callable[[], frozenset[str]] | None = None) -> bool | str:
    """Whether these lines, with ``indent`` taken off each, parse as a module; ``last``:
    they end the file (no newline is added after them, as none is there). ``declared``:
    names some ``global``/``nonlocal`` statement of the file names (anywhere);
    ``narrower``: the names that count of those, asked only when one is written here.
    :data:`_OUTWARD` when a ``nonlocal`` finds its binding only in an enclosing function.
    """
    if indent:
        width = len(indent)
        if any(line[:width] != indent and line.strip() for line in lines):
            return False  # a line leaves the definition's block: not a region
        lines = [line[width:] for line in lines]
    text = "\n".join(lines) + ("" if last else "\n")
    if indent and _IN_BLOCK_ONLY.search(text):
        return False  # legal at the top of a module, maybe not in the block around it
    import symtable  # here: edits the tokens prove (comments, strings) parse nothing

    try:  # the caller silences warnings (edits_parse_alone: once, not for each region)
        table = symtable.symtable(text, "<region>", "exec")
    except SyntaxError as err:
        return _OUTWARD if indent and "nonlocal" in str(err.msg) else False
    except (ValueError, RecursionError, MemoryError):
        return False
    # A global or nonlocal statement outside every function and class of the region
    # belongs to the scope around it, whose other statements are not here: its errors
    # ("assigned before global declaration") depend on them. Inside one, it is local.
    # For the same reason a name the region's own scope uses must not be declared
    # global anywhere in the file (a function's declaration shows up here too: harmless).
    if "global" not in text and "nonlocal" not in text and (not declared or (
            text.isascii() and not any(name in text for name in declared))):
        # Nothing below can object (the symbols cost as much as the parse): no statement
        # here declares a name, and no declared name is written here (a symbol is a name
        # written in the text; ASCII text holds no spelling that normalises to another).
        return True
    if narrower is not None:
        declared = narrower()
    symbols = table.get_symbols()
    if any(symbol.get_name() in declared and (
            symbol.is_assigned() or symbol.is_referenced() or symbol.is_imported()
            or symbol.is_annotated()) for symbol in symbols):
        return False
    if not any(symbol.is_declared_global() or symbol.is_nonlocal() for symbol in symbols):
        return True
    import ast

    return not _outer_declarations(ast.parse(text))  # a function's own are marked too


def _complete_before(old: Sequence[str], lo: int, hi: int, indent: str, head: str | bool,
                     declared: frozenset[str],
                     narrower: Callable[[], frozenset[str]] | None = None) -> bool:
    """Whether ``old[lo:hi]``, a region of the file before, need not be parsed: it holds
    complete statements of the block it starts in whenever the file before parses.

    ``head``: its first line (True for the top of the file). When that is a ``def`` or
    ``class`` line (never inside brackets in a file that parses; an ``@`` line may be a
    matrix product there), its brackets balance (strings and comments left out), and
    every line is in the block (starts with ``indent``), the region ends out of every
    bracket, at a line that starts a statement, as its first line does; its last
    statement is whole unless that line continues it, and a ``def``/``class``/``@`` line
    continues nothing but decorators above it, whose loss or gain breaks nothing. A name
    a ``global``/``nonlocal`` statement declares, written in it, sends it to the parser:
    a nested ``nonlocal`` outside may need a binding that the edits removed from it.
    (``narrower``: as :func:`_parses` has it.)"""
    if head is not True and (not isinstance(head, str) or _DEF_OR_CLASS.match(head) is None):
        return False
    width = len(indent)
    lines = old[lo:hi]
    if width and any(line[:width] != indent and line.strip() for line in lines):
        return False
    text = "\n".join(lines)
    if '"' in text or "'" in text or "#" in text:
        text = _TOKENS.sub("", text)
    if (text.count("(") + text.count("[") + text.count("{")
            != text.count(")") + text.count("]") + text.count("}")):
        return False
    # str.find first: a word pattern of all the names costs a try at every word.
    if narrower is not None and any(name in text for name in declared if name):
        declared = narrower()
    return not any(name in text and re.search(rf"\b{re.escape(name)}\b", text)
                   for name in declared if name)


def _outer_declarations(tree: ast.AST) -> bool:
    """A global or nonlocal statement outside every function, class and lambda."""
    import ast

    if isinstance(tree, ast.Global | ast.Nonlocal):
        return True
    if isinstance(tree, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
        return False
    return any(_outer_declarations(child) for child in ast.iter_child_nodes(tree))


def _class_body(lines: Sequence[str], head: int) -> str | None:
    """The indentation of the first statement under the class header ``lines[head]`` (one
    line, matching :data:`_CLASS_HEAD`): the first line below that is not blank or a
    comment; None when there is none, or its indentation is not spaces and tabs alone.

    A region from such a header to an unchanged definition at exactly that indentation,
    where no statement is less indented (:func:`_leaves_block`), with a ``pass`` there in
    place of the rest, parses on its own before and after the edits only if the
    definition continues the class body in both, at the same level (an indentation at
    that level cannot be any deeper block's): the rest of the class then reads the same
    in the same context, as for a whole definition."""
    for line in lines[head + 1 :]:
        stripped = line.lstrip(" \t")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        return None if stripped[0].isspace() else line[: len(line) - len(stripped)]
    return None


def _leaves_block(lines: Sequence[str], lo: int, hi: int, inside: set[int], body: str) -> bool:
    """Whether a line of ``lines[lo:hi]`` that may start a statement (not blank, not a
    comment, not inside a string or continued from the line above) does not start with
    ``body``: the class may end there, and a ``pass`` at ``body`` would then stand in a
    block opened after it. (A line inside brackets is judged too: stricter, never wrong.)"""
    for at in range(lo, hi):
        line = lines[at]
        if line.startswith(body) or at in inside:
            continue
        stripped = line.lstrip(" \t")
        if stripped.strip() and not stripped.startswith("#"):
            return True
    return False


def changes_of(steps: Sequence[tuple[int, int, int]]) -> list[Change]:
    """The changed stretches after a series of edits of one file, each edit given as
    ``(first, last, shift)``: lines ``first..last`` (1-based, inclusive; ``last = first - 1``
    for an insertion) of the version before it were replaced, and the file grew by
    ``shift`` lines. Overlapping or touching stretches merge."""
    spans: list[tuple[int, int, int]] = []  # (first, end) now, and the length it had first
    for first, last, shift in steps:
        lo, hi = first - 1, last
        kept: list[tuple[int, int, int]] = []
        merged_lo, merged_hi, merged = lo, hi, []
        for span in spans:
            if span[1] < lo:
                kept.append(span)
            elif span[0] > hi:
                kept.append((span[0] + shift, span[1] + shift, span[2]))
            else:
                merged.append(span)
                merged_lo, merged_hi = min(merged_lo, span[0]), max(merged_hi, span[1])
        # Unchanged lines inside the merged stretch stand for themselves in the first
        # version; each earlier stretch for the lines it had there.
        length = (merged_hi - merged_lo - sum(s[1] - s[0] for s in merged)
                  + sum(s[2] for s in merged))
        kept.append((merged_lo, merged_hi + shift, length))
        spans = sorted(kept)
    out: list[Change] = []
    grown = 0
    for lo, hi, length in spans:
        out.append((lo, hi, lo - grown, lo - grown + length))
        grown += hi - lo - length
    return out


def edits_parse_alone(before: str, after: str | Callable[[], str], changes: Sequence[Change],
                      budget: float = 0.25, before_lines: Sequence[str] | None = None,
                      after_lines: Sequence[str] | None = None, *,
                      after_final_newline: bool | None = None) -> bool:
    """True when the regions around ``changes`` (see the module's doc) prove that
    ``after`` has no syntax error ``before`` did not have; False means "parse it all".
    ``budget``: the share of the file the regions may cover before a whole parse is
    cheaper. ``before_lines``/``after_lines``: the texts' lines, when already split (see
    :func:`split_lines`).

    ``after`` may be a function that makes the text: with ``after_lines`` and
    ``after_final_newline`` (whether the text ends with a newline) it is then not called
    when the tokens prove every change (:mod:`.pytokens` reads lines near the changes
    alone). The lines outside ``changes`` are the lines of ``before`` (what ``changes``
    means), so what the text would be checked for -- a ``\r``, the ``barry_as_FLUFL``
    future -- is looked for in ``before`` and the changed lines."""
    from reviewtui.core.syntax.pycomments import appended_comments
    from reviewtui.core.syntax.pytokens import as_read, quiet_changes

    if not _SUPPORTED or not changes:
        return False
    ended = before.endswith("\n")  # whether the texts end with a newline: see below
    old: Sequence[str] | None = None
    strings_old: set[int] = set()
    continued_old: list[int] = []  # lines after a backslash-newline, from the same scan
    quiet: set[int] = set()
    made: tuple[str, ...] | None = None  # the lines after, split (made below from the lines)
    if callable(after):
        make_after = after
        if (after_lines and after_final_newline is not None and changes[-1][1] <= len(after_lines)
                and "\r" not in before and "barry_as_FLUFL" not in before
                and not any("\r" in line or "barry_as_FLUFL" in line
                            for lo, hi, _, _ in changes for line in after_lines[lo:hi])):
            if ended != (after_final_newline or (len(after_lines) > 1 and not after_lines[-1])):
                return False  # the end of the file changed (below)
            new_lines = _Ended(after_lines) if after_final_newline else after_lines
            old = split_lines(before, before_lines)
            if not _accounted(changes, old, new_lines):
                return False
            changes = _trimmed(changes, old, new_lines)
            if appended_comments(before, old, new_lines, changes):
                return True  # comments added at line ends: no scan (pycomments)
            # A tuple from here on (as split_lines gives): indexed line by line below.
            new_lines = made = (*after_lines, "") if after_final_newline else tuple(after_lines)
            strings_old = _in_strings(before, continued_old)
            if len(quiet := quiet_changes(old, new_lines, changes, strings_old)) == len(changes):
                return True  # comments and strings' text alone (pytokens): no text needed
        after = make_after()
    texts = as_read(before, after)  # "\r\n" as the tokenizer reads it; None: a lone "\r"
    if "barry_as_FLUFL" in after or texts is None:
        return False
    if ended != after.endswith("\n"):  # a newline gained or lost at the very end, maybe
        return False  # outside every change: it can decide a parse ("x = \\" then the end)
    if texts != (before, after):
        old = None  # (not from the lines above: those are read only without a "\r")
    before, after = texts
    new = made if made is not None and old is not None else split_lines(after, after_lines)
    if old is None:
        old = split_lines(before, before_lines)
        if not _accounted(changes, old, new):
            return False
        changes = _trimmed(changes, old, new)
        if appended_comments(before, old, new, changes):
            return True
        strings_old = _in_strings(before, continued_old := [])
        if len(quiet := quiet_changes(old, new, changes, strings_old)) == len(changes):
            return True  # comments and strings' text alone: no region to parse (pytokens)
    inside_old = strings_old.union(continued_old)  # (as _covered: no whole-text scan again)
    inside_new = _in_strings_after(before, after, new, changes, strings_old, old)
    inside_new.update(continued_after(new, changes, len(old), continued_old))
    found = Declared(after, new, inside_new)
    anywhere, outside = found.every, found.outside  # (those outside functions: if asked)
    ends = [change[1] for change in changes]
    grown = [0]
    for lo, hi, old_lo, old_hi in changes:
        grown.append(grown[-1] + (hi - lo) - (old_hi - old_lo))

    def changed(line: int) -> bool:
        at = bisect_right(ends, line)
        return at < len(changes) and changes[at][0] <= line

    def to_old(line: int) -> int:  # an unchanged line of ``after`` in ``before``
        return line - grown[bisect_right(ends, line)]

    def boundary(line: int) -> re.Match[str] | None:
        # The pattern first: it rules out most lines, at the cost of one C call.
        found = _BOUNDARY.match(new[line]) if line < len(new) else None
        if found is None or changed(line) or line in inside_new:
            return None
        return found if to_old(line) not in inside_old else None

    verdicts: dict[tuple[int, int, bool, str, bool, str | None], bool | str] = {}

    def parses(which: Sequence[str], lo: int, hi: int, indent: str, last: bool,
               body: str | None = None) -> bool | str:
        """:func:`_parses` of ``which[lo:hi]`` (``new`` or ``old``), once for each: a region
        tried again (a wider definition around a change, a later change) is not re-parsed.
        ``body``: the region is a class's first lines; a ``pass`` at this indentation
        stands for the rest of its body."""
        key = (lo, hi, last, indent, which is new, body)
        verdict = verdicts.get(key)
        if verdict is None:
            lines = which[lo:hi] if body is None else [*which[lo:hi], body + "pass"]
            # A region in a block may share a function's scope with declarations of
            # that function, outside the region: every name declared anywhere counts.
            verdict = verdicts[key] = _parses(lines, indent, last,
                                              anywhere, None if indent else outside)
        return verdict

    def class_part(start: int, hi: int, indent: str) -> int | None:
        """Where a region from the class header ``new[start]`` may end before the class
        does (see :func:`_class_body`): the first definition at the class body's
        indentation past the change, when that proves the change alone; else None."""
        body = _class_body(new, start)
        if body is None or not body.startswith(indent) or len(body) <= len(indent):
            return None
        cut = max(hi, start + 1)
        while cut < len(new):
            found = boundary(cut)
            if found is not None:
                if found.group(1) == body:
                    break
                if not found.group(1).startswith(body):
                    return None  # the class (or its body's block) ends first
            cut += 1
        else:
            return None
        old_start, old_cut = to_old(start), to_old(cut)
        if (_class_body(old, old_start) != body
                or _leaves_block(new, start + 1, cut, inside_new, body)
                or _leaves_block(old, old_start + 1, old_cut, inside_old, body)):
            return None
        if parses(new, start, cut, indent, False, body) is not True:
            return None
        if parses(old, old_start, old_cut, indent, False, body) is not True:
            return None
        return cut

    def free(line: int) -> bool:
        return (line < len(new) and not changed(line) and line not in inside_new
                and to_old(line) not in inside_old)

    def statements(k: int, known: int | None) -> tuple[int, int] | None:
        """The statements around ``changes[k]``, [first, end), when they prove it alone
        (see :mod:`reviewtui.core.syntax.pystatements`), else None (``known``: see walk)."""
        found = statement_region(new, old, k, changes, free, to_old,
                                 lambda text: _TOKENS.sub("", text), known)
        if found is None:
            return None
        first, end, indent = found
        last = end >= len(new)
        if parses(new, first, end, indent, last) is not True:
            return None
        old_first, old_end = to_old(first), len(old) if last else to_old(end)
        narrower = None if indent else outside
        if not _complete_before(old, old_first, old_end, indent, True, anywhere,
                                narrower) and parses(
                old, old_first, old_end, indent, last) is not True:
            return None
        return first, end

    def walk() -> bool:
        """Each change proved by its region (or not)."""
        covered_to = 0
        spent = 0
        known: int | None = None  # where the last statement region proved ends
        for k, (lo, hi, _old_lo, _old_hi) in enumerate(changes):
            if k in quiet or (hi <= covered_to and lo < covered_to):
                continue  # the same tokens, or inside the region of an earlier change
            block = statements(k, known)
            if block is not None:
                spent += block[1] - block[0]
                if spent > budget * len(new):
                    return False
                covered_to = known = block[1]
                continue
            start, shorter = lo - 1, None  # shorter: the next start must be outside this
            while True:  # the nearest definition above that holds the change
                while start >= 0 and not ((found := boundary(start)) is not None and (
                        shorter is None or (len(found.group(1)) < len(shorter)
                                            and shorter.startswith(found.group(1))))):
                    start -= 1
                indent = "" if start < 0 else boundary(start).group(1)  # type: ignore[union-attr]
                if start >= 0 and _CLASS_HEAD.fullmatch(new[start]) is not None:
                    # A change in a class's first lines: its part down to the next method
                    # may prove it, without the whole class.
                    part = class_part(start, hi, indent)
                    if part is not None:
                        spent += part - start
                        if spent > budget * len(new):
                            return False
                        end = part
                        break
                end = max(hi, start + 1)
                while end < len(new) and not ((found := boundary(end)) is not None
                                              and indent.startswith(found.group(1))):
                    end += 1
                region = new[max(start, 0) : end]
                old_start = 0 if start < 0 else to_old(start)  # the top of the file is the top
                last = end >= len(new)
                old_end = len(old) if last else to_old(end)
                spent += end - max(start, 0)
                if spent > budget * len(new):
                    return False
                verdict = parses(new, max(start, 0), end, indent, last)
                if verdict is True and not _complete_before(
                        old, old_start, old_end, indent, start < 0 or new[start],
                        anywhere, None if indent else outside):
                    verdict = parses(old, old_start, old_end, indent, last)
                if verdict is True:
                    break
                if verdict is False and not (indent and any(  # the change leaves the block
                        line[: len(indent)] != indent and line.strip() for line in region)):
                    return False
                start, shorter = start - 1, indent  # the definition around this one
            covered_to = end
        return True

    # What the regions parse may warn (an invalid escape, "is" with a literal) is
    # silenced once here: entering catch_warnings for each region cost as much as
    # parsing a small one.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return walk()
