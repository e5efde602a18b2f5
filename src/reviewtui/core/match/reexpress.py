"""Write a REPLACE in the file's conventions once its SEARCH has landed.

Two rules. A REPLACE line that is an unchanged SEARCH line (same text after
normalisation, same relative indentation, same spot in the diff) becomes the file's own
line, byte for byte: curly quotes, tabs and all. Any other line is the model's text with
its indentation re-grafted: measured against the nearest unchanged line in the model's
text, carried into the file's columns, rendered in the file's tabs or spaces. A line as
deep as a SEARCH line it rewrites, or as that unchanged line, takes its indentation
from the file byte for byte; one whole levels deeper than a line aligned with spaces
after its tabs takes that line's and adds tabs, as an editor would.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence

from reviewtui.core.match.indent import (
    TAB_COLUMNS,
    IndentStyle,
    calibrate,
    columns,
    guess_style,
    render,
)
from reviewtui.core.match.landing import BLANK_LINES, INDENTATION, TABS, TRAILING
from reviewtui.core.match.normalise import aligned, is_blank, leading, loose_key

_Key = tuple[int, str]
_Anchor = tuple[int, str]  # (columns in the model's text, the file line's indentation)


def reexpress(
    region: Sequence[str],
    search: Sequence[str],
    replace: Sequence[str],
    partner: Mapping[int, int],
    kinds: frozenset[str],
    file_style: Callable[[], IndentStyle | None],
) -> tuple[str, ...]:
    """``replace`` rewritten for the file.

    ``partner`` maps a SEARCH line index to the region line it matched (every line for
    the expression stage, only the similar ones for a near match). ``file_style`` is
    asked for the whole file's style when the region alone does not tell.
    """
    if not kinds - {BLANK_LINES}:
        return tuple(replace)
    blocks = aligned([_key(s) for s in search], [_key(r) for r in replace])
    kept = _unchanged(blocks, partner)
    regraft = (_Regraft(region, search, replace, partner, kept, file_style,
                        _SameDepth(blocks, search, replace, region, partner))
               if kinds & {INDENTATION, TABS} else None)
    out: list[str] = []
    for j, line in enumerate(replace):
        if j in kept:
            out.append(region[kept[j]])
            continue
        body = line.strip() if TRAILING in kinds else line.lstrip()
        if not body:
            out.append("")
        elif regraft is None:
            out.append(leading(line) + body)
        else:
            out.append(regraft.indent(j, line) + body)
    return tuple(out)


class _Regraft:
    """Indentation for new REPLACE lines, in the file's columns and characters."""

    def __init__(self, region: Sequence[str], search: Sequence[str], replace: Sequence[str],
                 partner: Mapping[int, int], kept: Mapping[int, int],
                 file_style: Callable[[], IndentStyle | None], same_depth: _SameDepth) -> None:
        self._anchors = _Anchors(replace, region, kept)
        self._same_depth = same_depth
        self._fallback = _search_anchor(search, region, partner)
        model = guess_style([*search, *replace])
        self._style = (_file_style(region, model, file_style) or model
                       or IndentStyle(tabs=False, unit=None))
        matched = [(columns(leading(search[i])), columns(leading(region[j])))
                   for i, j in partner.items() if not is_blank(search[i])]
        self._scale = calibrate(matched, model, self._style)

    def indent(self, j: int, line: str) -> str:
        own = self._same_depth.indent(j, columns(leading(line)))
        if own is not None:
            return own
        model_columns, file_indent = self._anchors.nearest(j) or self._fallback
        delta = columns(leading(line)) - model_columns
        if delta == 0:
            return file_indent
        shift = round(delta * self._scale)
        if (shift > 0 and self._style.tabs and shift % TAB_COLUMNS == 0
                and file_indent.startswith("\t") and file_indent.endswith(" ")):
            # Whole levels deeper than a line aligned with spaces after its tabs: what an
            # editor makes (the line above's indentation, then Tab). Rendering the columns
            # afresh would move the alignment spaces after the new tabs instead.
            return file_indent + "\t" * (shift // TAB_COLUMNS)
        return render(columns(file_indent) + shift, self._style)


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


class _SameDepth:
    """The file's own indentation for a REPLACE line the model typed as deep as a SEARCH
    line it rewrites.

    Between two stretches the edit leaves alone, the REPLACE lines rewrite the SEARCH
    lines there: a line edited in place, one added beside it. One at the depth (in the
    model's columns) of a rewritten SEARCH line takes that line's indentation from the
    file, byte for byte (the nearest such line first), as an unchanged line does. Measured
    from an unchanged line further off instead, it came out in the region's majority
    style: a docstring line indented with tabs among lines indented with spaces lost
    its tabs."""

    def __init__(self, blocks: Sequence[tuple[int, int, int]], search: Sequence[str],
                 replace: Sequence[str], region: Sequence[str],
                 partner: Mapping[int, int]) -> None:
        # (REPLACE lo, REPLACE hi, SEARCH lo, SEARCH hi) of each stretch between blocks
        self._gaps: list[tuple[int, int, int, int]] = []
        i_end = j_end = 0
        for i, j, size in (*blocks, (len(search), len(replace), 0)):
            if j > j_end and i > i_end:
                self._gaps.append((j_end, j, i_end, i))
            i_end, j_end = i + size, j + size
        self._his = [gap[1] for gap in self._gaps]
        self._depth = {i: (columns(leading(search[i])), leading(region[partner[i]]))
                       for i in partner if not is_blank(search[i])}

    def indent(self, j: int, model_columns: int) -> str | None:
        at = bisect_right(self._his, j)
        if at == len(self._gaps) or self._gaps[at][0] > j:
            return None
        j_lo, _, i_lo, i_hi = self._gaps[at]
        place = i_lo + (j - j_lo)  # the SEARCH line at the same spot of the stretch
        for i in sorted(range(i_lo, i_hi), key=lambda i: abs(i - place)):
            found = self._depth.get(i)
            if found is not None and found[0] == model_columns:
                return found[1]
        return None


class _Anchors:
    """Unchanged, non-blank REPLACE lines: where a new line measures its indentation from."""

    def __init__(self, replace: Sequence[str], region: Sequence[str],
                 kept: Mapping[int, int]) -> None:
        self._at = sorted(j for j in kept if not is_blank(replace[j]))
        self._anchor = {
            j: (columns(leading(replace[j])), leading(region[kept[j]])) for j in self._at
        }

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
