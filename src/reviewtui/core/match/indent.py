"""Indentation: measure it, tell a file's style, and translate the model's into the file's.

Columns count a tab as ``TAB_COLUMNS`` everywhere, on both sides, so a delta measured in
the model's text can be carried into the file's and rendered back as tabs or spaces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from reviewtui.core.match.normalise import is_blank, leading
from reviewtui.core.record import record

TAB_COLUMNS = 4
_UNITS = (2, 3, 4, 8)  # plausible indentation steps; anything else is alignment


@record(frozen=True, slots=True)
class IndentStyle:
    """How a piece of text indents: with tabs or spaces, and how wide one level is."""

    tabs: bool
    unit: int | None  # columns per level; None when the text does not tell


def columns(indent: str) -> int:
    return len(indent) + (TAB_COLUMNS - 1) * indent.count("\t")


def respelled(typed: str, actual: str) -> bool:
    """Whether two indentations differ only in how the same columns are spelled: tabs on
    both sides, equal at a tab size of 4 or 8 (``"        \t"`` for ``"\t\t"``)."""
    return (typed != actual and ("\t" in typed) == ("\t" in actual)
            and any(typed.expandtabs(size) == actual.expandtabs(size) for size in (4, 8)))


def render(cols: int, style: IndentStyle) -> str:
    """``cols`` columns of indentation in the style (tabs, then alignment spaces)."""
    cols = max(cols, 0)
    if style.tabs:
        return "\t" * (cols // TAB_COLUMNS) + " " * (cols % TAB_COLUMNS)
    return " " * cols


def guess_style(lines: Iterable[str]) -> IndentStyle | None:
    """The indentation style of ``lines``, or None if no line is indented."""
    tab_led = space_led = 0
    widths: list[int] = []
    for line in lines:
        if is_blank(line):
            continue
        indent = leading(line)
        if indent.startswith("\t"):
            tab_led += 1
        elif indent:
            space_led += 1
        widths.append(columns(indent))
    if not tab_led and not space_led:
        return None
    if tab_led > space_led:
        return IndentStyle(tabs=True, unit=TAB_COLUMNS)
    return IndentStyle(tabs=False, unit=_guess_unit(widths))


def _guess_unit(widths: list[int]) -> int | None:
    """The most common step between neighbouring lines' indentation, if plausible."""
    steps = Counter(abs(b - a) for a, b in zip(widths, widths[1:], strict=False))
    plausible = [(count, -step) for step, count in steps.items() if step in _UNITS]
    if not plausible:
        return None
    _, negative_step = max(plausible)
    return -negative_step


def calibrate(pairs: Sequence[tuple[int, int]], model: IndentStyle | None,
              file: IndentStyle, widths: Sequence[int] = ()) -> Fraction:
    """File columns per model column, read off the lines SEARCH matched.

    ``pairs`` are (model columns, file columns) of matched non-blank lines. Two or more
    depths that agree on one ratio settle it (``f = shift + ratio * m``); lines that
    disagree (alignment, a sloppy line) or a single depth fall back on the styles:
    same character -> 1 (a level width guessed from a few lines of the model's is too
    often one jump of two levels); spaces for a file's tabs -> the first reading under
    which the matched lines and every line of the model's (``widths``, its columns)
    land on whole tabs; tabs for a file's spaces -> the one depth read as whole levels,
    else the ratio of their level widths.
    """
    seen: dict[int, set[int]] = {}
    for model_cols, file_cols in pairs:
        seen.setdefault(model_cols, set()).add(file_cols)
    if all(len(found) == 1 for found in seen.values()) and len(seen) >= 2:
        depths = sorted(seen)
        ratios = {Fraction(min(seen[b]) - min(seen[a]), b - a)
                  for a, b in zip(depths, depths[1:], strict=False)}
        if len(ratios) == 1 and (ratio := ratios.pop()) > 0:
            return ratio
    if model is None or model.tabs == file.tabs:
        return Fraction(1)
    levels = Fraction(file.unit or TAB_COLUMNS, model.unit or TAB_COLUMNS)
    if not file.tabs:
        return _one_depth_ratio(seen, file.tabs) or levels
    # The model typed spaces for tabs. Of the readings, the first under which the
    # matched depth and every line the model typed land on whole tabs: no shift, the
    # level widths, no scale (a model's level width guessed from one jump of eight
    # columns read a dedent by four as eight spaces to a tab).
    for reading in (_one_depth_ratio(seen, file.tabs), levels, Fraction(1)):
        if reading is not None and _on_tabs(reading, seen, widths):
            return reading
    return levels


def _on_tabs(ratio: Fraction, seen: dict[int, set[int]], widths: Sequence[int]) -> bool:
    """Whether, scaled by ``ratio`` and shifted to the deepest matched line, that line's
    shift and every model line (``widths``) fall on whole tabs."""
    if not seen:
        return True
    deepest = max(seen)
    shift = min(seen[deepest]) - deepest * ratio
    return shift % TAB_COLUMNS == 0 and not any(
        (width * ratio + shift) % TAB_COLUMNS for width in widths)


def _one_depth_ratio(seen: dict[int, set[int]], file_tabs: bool) -> Fraction | None:
    """Tabs against spaces at one depth: assume no shift if the widths fit a level."""
    for model_cols in sorted(seen, reverse=True):
        file_cols = min(seen[model_cols])
        tab_cols, space_cols = (file_cols, model_cols) if file_tabs else (model_cols, file_cols)
        levels = tab_cols // TAB_COLUMNS
        if (levels and tab_cols % TAB_COLUMNS == 0 and space_cols % levels == 0
                and space_cols // levels in _UNITS):
            return Fraction(file_cols, model_cols)
    return None
