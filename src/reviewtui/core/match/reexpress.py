"""Write a REPLACE in the file's conventions once its SEARCH has landed.

A REPLACE line that is an unchanged SEARCH line (same text after normalisation, same
relative indentation, at a place of a longest alignment of the two) becomes the file's
own line, byte for byte: curly quotes, tabs and all. Any other line is the model's text
with its indentation re-grafted. A line that rewrites a SEARCH line at that line's depth
takes the file's indentation of it, byte for byte. Any other measures from the nearest
unchanged or rewritten line in the model's text (above it, else below): at that line's
depth it takes that line's indentation; whole levels deeper than a line aligned with
spaces after its tabs, that indentation and tabs, as an editor makes it; otherwise the
columns carried into the file's and rendered in its tabs or spaces. A new line at an
edge of the edit whose block runs on past the region (a body added under the ``def`` a
SEARCH ends with) takes the tabs or spaces of the file's lines beyond that edge.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from reviewtui.core.match.brackets import brackets_on, nest
from reviewtui.core.match.indent import (
    TAB_COLUMNS,
    IndentStyle,
    calibrate,
    columns,
    guess_style,
    render,
    respelled,
)
from reviewtui.core.match.landing import BLANK_LINES, INDENTATION, TABS, TRAILING
from reviewtui.core.match.normalise import aligned, is_blank, leading, line_tokens, loose_key


class UnknownIndent(Exception):
    """New lines join file lines beyond the region that do not show how to indent them:
    the edit is held (``hint``), not written in a guessed style."""

    def __init__(self, hint: str) -> None:
        super().__init__(hint)
        self.hint = hint


_Key = tuple[int, str]
_Anchor = tuple[int, str]  # (columns in the model's text, the file line's indentation)


def reexpress(
    region: Sequence[str],
    search: Sequence[str],
    replace: Sequence[str],
    partner: Mapping[int, int],
    kinds: frozenset[str],
    file_style: Callable[[], IndentStyle | None],
    around: tuple[Sequence[str], int] | None = None,
) -> tuple[str, ...]:
    """``replace`` rewritten for the file.

    ``partner`` maps a SEARCH line index to the region line it matched (every line for
    the expression stage, only the similar ones for a near match). ``file_style`` is
    asked for the whole file's style when the region alone does not tell. ``around``:
    the whole file's lines and the region's first index in them, for the lines of a
    block the region cuts (a new line at its edge joins them). Raises
    :class:`UnknownIndent` when those lines do not show how to indent such a line.
    """
    if not kinds - {BLANK_LINES}:
        return tuple(replace)
    blocks = _blocks([_key(s) for s in search], [_key(r) for r in replace])
    kept = _unchanged(blocks, partner)
    regraft = (_Regraft(region, search, replace, partner, kept, file_style,
                        _rewritten(blocks, search, replace, partner), around)
               if kinds & {INDENTATION, TABS} and _regrafted(search, region, partner)
               else None)
    # New lines keep their own trailing whitespace (a Markdown hard break: QA s45
    # helper-138 #3, dropped because a context line matched without the file's), unless
    # the SEARCH was typed with trailing whitespace the file does not have: noise then.
    noisy = TRAILING in kinds and _typed_trailing(search, region, partner)
    out: list[str] = []
    for j, line in enumerate(replace):
        if j in kept:
            out.append(region[kept[j]])
            continue
        body = line.strip() if noisy else line.lstrip()
        if not body:
            out.append("" if noisy or regraft is not None else line)
        elif regraft is None:
            out.append(leading(line) + body)
        else:
            out.append(regraft.indent(j, line) + body)
    return tuple(out)


def _regrafted(search: Sequence[str], region: Sequence[str],
               partner: Mapping[int, int]) -> bool:
    """Whether some line's indentation differs otherwise than in how the same columns are
    spelled ("        \t" for "\t\t", tabs of 8): only then are new lines re-indented
    (measured in tabs of 4, such a line read as another depth, and a Makefile's new
    recipe line came out in spaces)."""
    return any(not respelled(typed, actual) and typed != actual
               for typed, actual in ((leading(search[i]), leading(region[j]))
                                     for i, j in partner.items() if not is_blank(search[i])))


def _typed_trailing(search: Sequence[str], region: Sequence[str],
                    partner: Mapping[int, int]) -> bool:
    """Whether a SEARCH line ends in whitespace its file line does not end in."""
    return any(typed != typed.rstrip() and region[at] == region[at].rstrip()
               for typed, at in ((search[i], j) for i, j in partner.items()))


class _Regraft:
    """Indentation for new REPLACE lines, in the file's columns and characters."""

    def __init__(self, region: Sequence[str], search: Sequence[str], replace: Sequence[str],
                 partner: Mapping[int, int], kept: Mapping[int, int],
                 file_style: Callable[[], IndentStyle | None],
                 rewritten: Mapping[int, int],
                 around: tuple[Sequence[str], int] | None) -> None:
        self._own = {j: leading(region[i]) for j, i in rewritten.items()}
        fixed = {**kept, **rewritten}
        self._anchors = _Anchors(replace, region, fixed)
        self._fallback = _search_anchor(search, region, partner)
        model = guess_style([*search, *replace])
        self._style = (_file_style(region, model, file_style) or model
                       or IndentStyle(tabs=False, unit=None))
        typed = [(columns(leading(search[i])), leading(region[j]))
                 for i, j in partner.items() if not is_blank(search[i])]
        matched = [(model_columns, columns(indent)) for model_columns, indent in typed]
        widths = [columns(leading(line)) for line in (*search, *replace) if not is_blank(line)]
        self._scale = calibrate(matched, model, self._style, widths)
        self._mixed = _mixed(region)
        self._file_style = file_style
        self._edges = (_Edges(search, replace, region, fixed, around, typed, model, widths,
                              None if self._mixed else self._style.tabs)
                       if around is not None else None)
        # (mixed regions) model depth -> {REPLACE index: file indentation} of the lines the
        # edit leaves alone, and the last new line indented: (index, model columns, indent)
        self._depths: dict[int, dict[int, str]] = {}
        self._last: tuple[int, int, str] | None = None
        if self._mixed:
            for k, at in sorted({**kept, **rewritten}.items()):
                if not is_blank(replace[k]):
                    self._depths.setdefault(columns(leading(replace[k])), {})[k] = (
                        leading(region[at]))

    def indent(self, j: int, line: str) -> str:
        own = self._own.get(j)
        if own is not None:
            return own
        edge = self._edges.indent(j) if self._edges is not None else None
        if edge is not None:
            indent = edge
        else:
            model_columns, file_indent = self._anchors.nearest(j) or self._fallback
            if not self._mixed:
                return self._measured(line, model_columns, file_indent)
            indent = self._mixed_indent(j, line, model_columns, file_indent)
        self._last = (j, columns(leading(line)), indent)
        return indent

    def _mixed_indent(self, j: int, line: str, model_columns: int, file_indent: str) -> str:
        """In a region mixing tabs and spaces, a new line measures from the nearest line
        above it, a new one too (a new block's lines agree with its first: QA s48
        helper-165 #1, a new function's ``if`` came out in tabs and its body in spaces, a
        TabError). Measured from a line not indented, the model's depth means what it means
        on the line the edit left alone right below it at that depth (the block it opens or
        joins: helper-167 #4, an if added at the top of a tab-indented body came out in the
        file's spaces), else on the lines it left alone at that depth when they agree
        (helper-164 #2: a Makefile's new recipe line under a new target came out in spaces;
        its ``    gcc`` a few lines off is a tab in the file); else the whole file's style
        (a Makefile's continuation in spaces and its recipe in tabs: helper-165 #2)."""
        if self._last is not None and self._last[0] > self._anchors.above(j):
            _, model_columns, file_indent = self._last  # (lines are indented in order)
        same = self._depths.get(columns(leading(line))) if not file_indent else None
        if same:
            below = self._anchors.below(j)
            if below in same:
                return same[below]
            if len(set(same.values())) == 1:
                return next(iter(same.values()))
        return self._measured(line, model_columns, file_indent)

    def _measured(self, line: str, model_columns: int, file_indent: str) -> str:
        delta = columns(leading(line)) - model_columns
        if delta == 0:
            return file_indent
        shift = round(delta * self._scale)
        style = self._anchor_style(file_indent)
        if (shift > 0 and style.tabs and shift % TAB_COLUMNS == 0
                and file_indent.startswith("\t") and file_indent.endswith(" ")):
            # Whole levels deeper than a line aligned with spaces after its tabs: what an
            # editor makes (the line above's indentation, then Tab). Rendering the columns
            # afresh would move the alignment spaces after the new tabs instead.
            return file_indent + "\t" * (shift // TAB_COLUMNS)
        return render(columns(file_indent) + shift, style)

    def _anchor_style(self, file_indent: str) -> IndentStyle:
        """Tabs or spaces for a line measured from a line indented ``file_indent``. In a
        region that indents some lines with tabs and others with spaces, the region's
        majority says nothing about this line: measured from a tab-led line it takes tabs
        (a tab-indented function in a space-indented file), from a space-led one spaces,
        from one not indented the whole file's style (a docstring's two-space items among
        a tab-indented file's lines: the new line came out in spaces, the matcher sweep's
        seed 20)."""
        if not self._mixed:
            return self._style
        if not file_indent:
            return self._file_style() or self._style
        tabs = file_indent.startswith("\t")
        if tabs == self._style.tabs:
            return self._style
        return IndentStyle(tabs=tabs, unit=TAB_COLUMNS if tabs else None)


def _file_style(region: Sequence[str], model: IndentStyle | None,
                whole: Callable[[], IndentStyle | None]) -> IndentStyle | None:
    """Tabs or spaces as the region shows them. The whole file is read only when the
    region is not indented, or for the level width when the model's tabs must become the
    file's spaces: a handful of lines (continuations, alignment) would mislead it."""
    local = guess_style(region)
    if local is None:
        return whole()
    if model is not None and model.tabs and not local.tabs:
        overall = whole()
        if overall is not None and not overall.tabs and overall.unit:
            return IndentStyle(tabs=False, unit=overall.unit)
    return local


def _mixed(region: Sequence[str]) -> bool:
    leads = {leading(line)[:1] for line in region if not is_blank(line)}
    return {"\t", " "} <= leads


def _key(line: str) -> _Key:
    if is_blank(line):
        return (0, "")
    return (columns(leading(line)), loose_key(line))


def _unchanged(blocks: Sequence[tuple[int, int, int]],
               partner: Mapping[int, int]) -> dict[int, int]:
    """REPLACE index -> region index, for REPLACE lines the edit leaves alone (``blocks``:
    the SEARCH and REPLACE lines aligned by their keys)."""
    kept: dict[int, int] = {}
    for i, j, size in blocks:
        for step in range(size):
            if i + step in partner:
                kept[j + step] = partner[i + step]
    return kept


def _rewritten(blocks: Sequence[tuple[int, int, int]], search: Sequence[str],
               replace: Sequence[str], partner: Mapping[int, int]) -> dict[int, int]:
    """REPLACE index -> region index, for REPLACE lines that rewrite a SEARCH line at its
    depth (in the model's columns): they take that line's indentation from the file, byte
    for byte, and new lines measure from them as from an unchanged line.

    Between two stretches the edit leaves alone, REPLACE lines are paired with the SEARCH
    lines there, in order, so that the pairs share the most words (each pair at least
    half of its words; :func:`_pairs`). Measured from an unchanged line further off
    instead, a docstring line indented with tabs among lines indented with spaces came
    out in spaces (the corpus test, on tabbed files)."""
    out: dict[int, int] = {}
    i_end = j_end = 0
    for i, j, size in (*blocks, (len(search), len(replace), 0)):
        if i > i_end and j > j_end and (i - i_end) * (j - j_end) <= _PAIRS:
            olds = [search[n] if n in partner else "" for n in range(i_end, i)]
            for n, k in _pairs(olds, replace[j_end:j]):
                if columns(leading(olds[n])) == columns(leading(replace[j_end + k])):
                    out[j_end + k] = partner[i_end + n]
        i_end, j_end = i + size, j + size
    return out


_PAIRS = 2_500  # a longer rewrite is re-grafted from its unchanged lines alone


def _pairs(olds: Sequence[str], news: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs ``(old, new)`` in order (no two crossing) of lines sharing at least half
    their words and punctuation, with the most shared in all: a line added beside the
    one it rewrites is not taken for it for a word or two in common."""
    new_bags = [_bag(line) for line in news]
    return _best_pairs([[_shared(old, new) for new in new_bags]
                        for old in map(_bag, olds)], len(news))


def _best_pairs(scores: Sequence[Sequence[float]], m: int) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of rows and columns of ``scores`` (``m`` columns), in order (no
    two crossing), of positive score and the greatest total, the earliest such when
    several are: with a score of 1 for equal lines, a longest common subsequence."""
    n = len(scores)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]  # of [i:] x [j:]
    for i in range(n - 1, -1, -1):
        row, below, scored = best[i], best[i + 1], scores[i]
        for j in range(m - 1, -1, -1):
            here = scored[j]
            row[j] = max(below[j], row[j + 1], below[j + 1] + here if here else 0.0)
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if scores[i][j] and best[i][j] == best[i + 1][j + 1] + scores[i][j]:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _bag(line: str) -> Counter[str]:
    return Counter() if is_blank(line) else Counter(line_tokens(line))


def _shared(a: Counter[str], b: Counter[str]) -> float:
    """2 * shared tokens / all tokens, or 0 when that is under a half."""
    total = a.total() + b.total()
    share = 2 * (a & b).total() / total if total else 0.0
    return share if share >= 0.5 else 0.0


def _blocks(a: Sequence[_Key], b: Sequence[_Key]) -> list[tuple[int, int, int]]:
    """Matching blocks ``(i, j, size)`` of a longest common subsequence of ``a`` and
    ``b`` (difflib's blocks past ``_LCS_CELLS``). difflib takes the longest block first
    and then the earliest: a lone "#" in SEARCH paired with the last "#" of REPLACE left
    every line in between unmatched, and an unchanged line with a straight quote was
    written as the model's text, curly quote and all."""
    head = 0  # the lines both start with, and end with, are matched as they are
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    n, m = len(a) - head - tail, len(b) - head - tail
    if n * m > _LCS_CELLS:
        return aligned(a, b)
    out: list[tuple[int, int, int]] = [(0, 0, head)] if head else []
    inner = b[head : head + m]
    middle = _best_pairs([[1.0 if x == y else 0.0 for y in inner] for x in a[head : head + n]],
                         m)
    for i, j in [*((head + i, head + j) for i, j in middle),
                 *((len(a) - tail + k, len(b) - tail + k) for k in range(tail))]:
        if out and out[-1][0] + out[-1][2] == i and out[-1][1] + out[-1][2] == j:
            out[-1] = (out[-1][0], out[-1][1], out[-1][2] + 1)  # runs into the block before
        else:
            out.append((i, j, 1))
    return out


_LCS_CELLS = 10_000


class _Anchors:
    """Unchanged, non-blank REPLACE lines: where a new line measures its indentation from."""

    def __init__(self, replace: Sequence[str], region: Sequence[str],
                 kept: Mapping[int, int]) -> None:
        self._at = sorted(j for j in kept if not is_blank(replace[j]))
        self._anchor = {
            j: (columns(leading(replace[j])), leading(region[kept[j]])) for j in self._at
        }

    def below(self, j: int) -> int | None:
        """The index of the closest one below ``j``, None when none is."""
        at = bisect_left(self._at, j + 1)
        return self._at[at] if at < len(self._at) else None

    def above(self, j: int) -> int:
        """The index of the closest one above ``j``, -1 when none is."""
        at = bisect_left(self._at, j)
        return self._at[at - 1] if at else -1

    def nearest(self, j: int) -> _Anchor | None:
        """The closest one above ``j`` (a new line usually follows its context), else
        the closest below."""
        at = bisect_left(self._at, j)
        if at:
            return self._anchor[self._at[at - 1]]
        return self._anchor[self._at[at]] if at < len(self._at) else None


def _search_anchor(
    search: Sequence[str], region: Sequence[str], partner: Mapping[int, int]
) -> _Anchor:
    """With no unchanged line to measure from: the first matched SEARCH line."""
    for i, line in enumerate(search):
        if i in partner and not is_blank(line):
            return (columns(leading(line)), leading(region[partner[i]]))
    return (0, "")


class _Edges:
    """New lines at an edge of the edit whose block runs on outside the region: the
    lines above the edit's first unindented line when the edit leaves none of them alone,
    or those below its last. Such a line joins the file's lines beyond the region (a
    body added under a ``def`` the SEARCH ends with), so their tabs or spaces decide,
    not the region's (a tab-indented function above it, QA s48 fuzz: a TabError).
    Measured from the unindented line in the model's columns and rendered in those lines'
    characters; when they mix tabs and spaces or are not indented as the rendering would
    be (another level width), :class:`UnknownIndent`."""

    def __init__(self, search: Sequence[str], replace: Sequence[str],
                 region: Sequence[str], fixed: Mapping[int, int],
                 around: tuple[Sequence[str], int],
                 typed: Sequence[tuple[int, str]], model: IndentStyle | None,
                 widths: Sequence[int], region_tabs: bool | None) -> None:
        self._search, self._replace = search, replace
        self._region_tabs = region_tabs  # (None: the region mixes tabs and spaces)
        self._typed, self._model, self._widths = typed, model, widths
        self._lines, self._start, self._end = around[0], around[1], around[1] + len(region)
        self._head_to, self._tail_from = 0, len(replace)
        self._rendered: dict[bool, tuple[IndentStyle, Fraction] | None] = {}
        # (A comment at column 0 ends no block: commented-out code, an editor's comment
        # toggle, a C preprocessor line. QA s49 helper-177: one inside a tab body held
        # a line added under it.)
        zeros = {columns(leading(replace[k])) for k, at in fixed.items()
                 if not _no_boundary(replace[k]) and not leading(region[at])}
        if len(zeros) != 1:
            return  # no line the edit leaves unindented: the region is inside one block
        self._zero = zeros.pop()
        tops = [k for k, line in enumerate(replace)
                if not _no_boundary(line) and columns(leading(line)) <= self._zero]
        if not tops:
            return
        shown = [k for k in fixed if not _no_boundary(replace[k])]  # (a comment above a
        # def is no line of the block either side: QA s49 helper-181 01, 02)
        if min(shown) >= tops[0]:
            self._head_to = tops[0]
        if max(shown) <= tops[-1]:
            self._tail_from = tops[-1] + 1

    def indent(self, j: int) -> str | None:
        """The indentation of new line ``j``, None when it is not at such an edge or the
        block it joins ends with the region."""
        if self._head_to <= j < self._tail_from:
            return None
        below = j >= self._tail_from
        if below not in self._rendered:
            self._rendered[below] = self._rendering(below, j)
        rendering = self._rendered[below]
        if rendering is None:
            return None
        style, scale = rendering
        return render(round((columns(leading(self._replace[j])) - self._zero) * scale), style)

    def _rendering(self, below: bool, j: int) -> tuple[IndentStyle, Fraction] | None:
        beyond, whole, near = (_beyond(self._lines, self._end, len(self._lines), 1) if below
                               else _beyond(self._lines, self._start - 1, -1, -1, _ABOVE))
        if not beyond:
            return None
        leads = {indent[:1] for indent in beyond}
        if len(leads) != 1:
            raise UnknownIndent(self._unknown(j, below, near, "whose lines mix tabs and spaces"))
        tabs = leads == {"\t"}
        style = IndentStyle(tabs=tabs, unit=TAB_COLUMNS if tabs else None)
        pairs = [(model_columns, columns(indent)) for model_columns, indent in self._typed
                 if indent[:1] in ("", *leads)]
        scale = calibrate(pairs, self._model, style, self._widths)
        if (tabs == self._region_tabs and scale == 1
                and not any(indent for _, indent in self._typed)):
            # The block beyond is indented with what the region's rendering writes, and
            # the edit's columns are the file's: nothing to settle, no guess (an edit
            # shifted by a column whose new last line has a line of another depth under
            # it was held: the matcher's slip property, s49). Where the edit shows indented
            # lines, the block beyond may be of another width than the region's (a model
            # typing two for the file's four, or four for a function by two above one by
            # four): it is checked (QA s49 helper-177 01b, helper-181 03).
            return None
        run = [columns(leading(line)) - self._zero
               for line in (self._replace[self._tail_from:] if below
                            else self._replace[: self._head_to]) if not _no_boundary(line)]
        if below:
            # The first line under the unindented one is its block's first level: every
            # line beyond starts with it, or they are not that block's (a docstring's
            # examples indented by two: read as its level, the sweep's seed 4 added a
            # line by two, not four) or the file's level is not the one rendered.
            first = render(round(run[0] * scale), style)
            if not all(indent.startswith(first) for indent in beyond):
                raise UnknownIndent(self._unknown(
                    j, below, near, f"whose lines do not all start with the first level {first!r}"))
            # (Lines beyond all deeper than that level are left to the columns the edit
            # shows: a Makefile's two-tab recipe lines under a target held a new one-tab
            # recipe line, QA s49 helper-177.)
        elif not whole:
            # The block's top is out of sight: its first level is not known, and the
            # model's columns copied as they are wrote a line above a def into an if of
            # the function before (QA s49 helper-177: 17 lines of body, then the if).
            raise UnknownIndent(self._unknown(
                j, below, near, f"whose first line is {_ABOVE} lines away or more"))
        else:
            # The line after the unindented one above is that block's first level, and
            # the model's is where it first indents a line under an unindented one.
            unit = self._first_level()
            first = render(round(unit * scale), style) if unit else ""
            if first != beyond[-1]:
                raise UnknownIndent(self._unknown(
                    j, below, near, f"whose first level is {beyond[-1]!r}, not {first!r}"
                    if first else "whose first level the edit does not show"))
        return style, scale

    def _first_level(self) -> int | None:
        """The model's first level, in columns past the unindented lines: the first line
        indented right under an unindented one, in SEARCH or REPLACE, never a line that
        continues another; None where none shows it (a width guessed from the steps
        between lines read 8 off two levels at once in the sweep's seed 3, and off a
        continuation typed deeper passed a wrong scale: QA s49 helper-185 #2) or where a
        line's bracket count is not known (helper-182 01, 02; reading on past it, or
        taking the new lines' own level, put lines in the wrong block: helper-183)."""
        for lines in (self._search, self._replace):
            above = None
            # brackets left open by the lines so far (a block's brace: "b"), or a backslash
            # ending the last: a line inside them continues one (a parameter list, a dict)
            opened: list[str] = []
            slash = False
            for line in lines:
                if is_blank(line):
                    continue
                marks = brackets_on(line)
                if marks is None:
                    return None  # (its level unreadable here: the edge is held)
                continued = slash or any(mark != "b" for mark in opened)
                nest(opened, marks)
                slash = line.rstrip().endswith("\\")  # (Q = 1 + \ : the next continues)
                if continued:
                    continue  # (QA s49 helper-177: "  b):" read as the first level)
                width = columns(leading(line)) - self._zero
                if above is not None and above <= 0 < width:
                    return width
                above = width
        return None

    def _unknown(self, j: int, below: bool, near: int, why: str) -> str:
        side = "below" if below else "above"
        text = self._replace[j].strip()
        shown = text if len(text) <= 60 else text[:57] + "..."
        return (f"REPLACE's new line {shown!r} joins the indented block {side} the "
                f"matched lines (file line {near + 1}), {why}: how to indent it there is "
                "not known; nothing was applied; send the edit with those lines in SEARCH "
                "and REPLACE")


def _no_boundary(line: str) -> bool:
    """A blank line or a comment line (``#``, ``//``: at column 0 in the file, or typed
    indented by the model for one): neither ends an indented block nor shows its level
    (QA s49 helper-182 03: ``# helper`` typed by four counted as an unindented line)."""
    return is_blank(line) or line.lstrip().startswith(("#", "//"))


_BEYOND = 16  # lines read beyond a region's edge, at most, for the block it cuts
_ABOVE = 2_000  # ... above it: to the block's top, whose first level must be seen
_BEYOND_BLANK = 200


def _beyond(lines: Sequence[str], at: int, stop: int, step: int,
            most: int = _BEYOND) -> tuple[list[str], bool, int]:
    """The indentation of the non-blank lines from ``at`` on (by ``step``) up to the
    first unindented one, nearest first, at most ``_BEYOND`` of them; whether that
    unindented line (or the file's edge) was reached: the block is all there; and the
    nearest one's index."""
    found: list[str] = []
    span = range(at, stop, step)
    near = at
    for k in span[:_BEYOND_BLANK * most // _BEYOND]:
        line = lines[k]
        if _no_boundary(line):
            continue
        indent = leading(line)
        if not indent:
            return found, True, near
        if not found:
            near = k
        found.append(indent)
        if len(found) == most:
            return found, False, near
    return found, len(span) <= _BEYOND_BLANK * most // _BEYOND, near
