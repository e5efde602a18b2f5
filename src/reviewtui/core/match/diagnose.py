"""Stage 5: nothing matched. Say where the closest regions are and why they differ.

This path runs on every failed edit, so it never scores every window. Lines of SEARCH
vote for the window starts they imply: whole lines through the loose-key index, rare
identifiers through a search of the joined window (so a SEARCH whose every line was
since renamed still finds its region). The best-voted windows are bounded cheaply by
their token bags, and only a handful get the real ``similarity``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate

from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.expression import find_loose
from reviewtui.core.match.index import FileIndex, kept_per_version
from reviewtui.core.match.normalise import (
    ascii_punct,
    loose_key,
    quick_similarity,
    similarity,
    squash_key,
    token_bag,
)
from reviewtui.core.model.outcome import Candidate, Diagnosis, MatchResult, Status
from reviewtui.core.record import replace

CANDIDATE_FLOOR = 0.40
MAX_CANDIDATES = 3
PREVIEW_LINES = 8
_COMMON = 200  # a line or word found more often than this says nothing about where
_VOTED = 30  # windows pre-ranked by the cheap bound
_SCORED = 8  # windows given the real similarity
_RARE_WORDS = 8
_WORDS_COUNTED = 24
_WORD = re.compile(r"[A-Za-z_]\w{2,}")
_RESIZE = (0, -1, 1, -2, 2, -3, 3)  # region sizes tried for a whitespace-only match


def diagnose(index: FileIndex, core: Sequence[str],
             history: Sequence[Sequence[str]]) -> MatchResult:
    """NOT_FOUND for ``core`` (SEARCH without blank edges), with candidates and a hint."""
    stale = stale_version(core, history)
    squashed = "".join(squash_key(line) for line in core)
    scored: list[Candidate] = []
    for start in _best_windows(index, core):
        size = _whitespace_only_size(index, start, len(core), squashed, core)
        end = min(start + (size or len(core)), index.hi)
        score = similarity(core, index.lines[start:end])
        if score < CANDIDATE_FLOOR:
            continue
        diagnosis = Diagnosis.WHITESPACE_ONLY if size else Diagnosis.CONTENT_DIFFERS
        preview = tuple(index.lines[start : min(end, start + PREVIEW_LINES)])
        scored.append(Candidate(start + 1, end, score, diagnosis, preview))
    # SEARCH's text inside lines (a fragment of a line, as a str_replace tool sends it):
    # said first, with the lines that hold it, whatever their similarity.
    candidates = _part_of_lines(index, core)
    for candidate in sorted(scored, key=lambda c: (-c.similarity, c.start)):
        if not any(_overlap(candidate, other) for other in candidates):
            candidates.append(candidate)
    candidates = candidates[:MAX_CANDIDATES]
    if stale:
        # A region is what became of the lines SEARCH found in that earlier version when
        # it changed since: its text is not in that version. One that stands there as it
        # is now was only like SEARCH then too (QA s32 F15: "def sub(a, b):" was called
        # stale for a SEARCH of "def add(a, b):", which an edit had changed).
        version = history[stale - 1]
        if not isinstance(version, list | tuple):
            version = list(version)
        candidates = [replace(c, diagnosis=Diagnosis.STALE)
                      if c.diagnosis is Diagnosis.CONTENT_DIFFERS and not find_exact(
                          version, index.lines[c.start - 1 : c.end], 0, len(version))
                      else c for c in candidates]
    return MatchResult(Status.NOT_FOUND, candidates=tuple(candidates),
                       hint=_hint(candidates, stale, len(history)))


def _part_of_lines(index: FileIndex, core: Sequence[str]) -> list[Candidate]:
    """The lines (up to MAX_CANDIDATES stretches, in file order) that hold SEARCH's text
    as written but not as whole lines: it starts or ends inside a line. SEARCH holds whole
    lines, so this is never a match, only the clearest reason there is none. A search of
    the file's joined text (kept per version, as the word votes use it)."""
    needle = "\n".join(core)
    if not needle.strip():
        return []
    window = _window_text(index.lines, index.lo, index.hi)
    text = window.text
    at = text.find(needle)
    if at < 0:
        return []
    starts = window.line_starts()  # (one past the last line: the text's length + 1)
    out: list[Candidate] = []
    while at >= 0 and len(out) < MAX_CANDIDATES:
        first = bisect_right(starts, at) - 1
        last = bisect_right(starts, at + len(needle) - 1) - 1
        stop = at + len(needle)
        if at != starts[first] or stop != starts[last + 1] - 1:  # not whole lines
            lines = tuple(index.lines[index.lo + first : index.lo + last + 1])
            out.append(Candidate(index.lo + first + 1, index.lo + last + 1,
                                 similarity(core, lines), Diagnosis.PART_OF_A_LINE,
                                 lines[:PREVIEW_LINES]))
        at = text.find(needle, starts[last + 1]) if last + 1 < len(starts) - 1 else -1
    return out


def stale_version(core: Sequence[str], history: Sequence[Sequence[str]]) -> int | None:
    """The newest 1-based version in ``history`` holding SEARCH, exactly or loosely."""
    keys = [loose_key(line) for line in core]
    longest = max(keys, key=len)
    for number in range(len(history), 0, -1):
        version = history[number - 1]
        if not isinstance(version, list | tuple):
            version = list(version)
        if find_exact(version, core, 0, len(version)):
            return number
        # Cheap gate before normalising a whole version: its longest line must be there.
        if longest not in ascii_punct("\n".join(version)):
            continue
        old = FileIndex(version, 0, len(version))
        if find_loose(old, keys, 0, len(version)):
            return number
    return None


def _best_windows(index: FileIndex, core: Sequence[str]) -> list[int]:
    votes: dict[int, float] = {}
    _vote_lines(index, core, votes)
    _vote_words(index, core, votes)
    if not votes:
        _vote_squashed(index, core, votes)
    size = len(core)
    highest = max(index.lo, index.hi - size)
    starts = {min(max(start, index.lo), highest) for start in votes}
    # Scoring work grows with the SEARCH: look at fewer windows for a long one.
    scale = max(1, size // 40)
    voted = sorted(starts, key=lambda s: (-votes.get(s, 0.0), s))[: max(4, _VOTED // scale)]
    wanted = token_bag(core)
    bound = {s: quick_similarity(wanted, token_bag(index.lines[s : s + size]))
             for s in voted}
    ranked = sorted(voted, key=lambda s: (-bound[s], s))[: max(2, _SCORED // scale)]
    return [s for s in ranked if bound[s] >= CANDIDATE_FLOOR]


def _vote_lines(index: FileIndex, core: Sequence[str], votes: dict[int, float]) -> None:
    for offset, line in enumerate(core):
        key = loose_key(line)
        if len(key) < 3:
            continue  # blank lines and lone braces are everywhere
        hits = index.positions(key)
        if len(hits) > _COMMON:
            continue
        for hit in hits:
            votes[hit - offset] = votes.get(hit - offset, 0.0) + 1.0


def _vote_squashed(index: FileIndex, core: Sequence[str], votes: dict[int, float]) -> None:
    """A vote per SEARCH line that is a file line once the whitespace inside both is
    removed: a SEARCH spaced otherwise (``f(1, 2)`` for ``f(1,2)``) whose lines and words
    gave no vote (short names: QA pass 85 found "nothing in the file is similar"). Asked
    only then, as its map costs about what the diagnosis did without it."""
    for offset, line in enumerate(core):
        squashed = "".join(loose_key(line).split())
        if len(squashed) < 3:
            continue
        hits = index.squashed_positions(squashed)
        if len(hits) > _COMMON:
            continue
        for hit in hits:
            votes[hit - offset] = votes.get(hit - offset, 0.0) + 1.0


def _vote_words(index: FileIndex, core: Sequence[str], votes: dict[int, float]) -> None:
    """Half a vote per rare identifier shared by a SEARCH line and a file line."""
    window = _window_text(index.lines, index.lo, index.hi)
    text = window.text
    # Counting costs a pass over the text each: only the longest words, likely the rarest.
    words = sorted(set(_WORD.findall("\n".join(core))), key=lambda w: (-len(w), w))
    counts = {word: window.count(word) for word in words[:_WORDS_COUNTED]}
    rare = sorted((n, word) for word, n in counts.items() if 0 < n <= _COMMON)[:_RARE_WORDS]
    if not rare:
        return
    line_starts = window.line_starts()
    for _, word in rare:
        offsets = [i for i, line in enumerate(core) if word in line]
        for found in _whole_words(text, word):
            position = index.lo + bisect_right(line_starts, found) - 1
            for offset in offsets:
                votes[position - offset] = votes.get(position - offset, 0.0) + 0.5


def _whole_words(text: str, word: str) -> Iterator[int]:
    """Where ``word`` (a word character at each end, as :data:`_WORD` makes them) stands
    alone in ``text``: what ``re.finditer(rf"\\b{word}\\b", text)`` finds, by ``str.find``
    and a look at the character on each side (the regex took ~30 ms a word on a 1.2 MB
    ``package-lock.json``, for each refused hunk of a diff: 17 s of one commit's 20)."""
    size, end = len(word), len(text)
    at = text.find(word)
    while at >= 0:
        stop = at + size
        if not (at and _is_word(text[at - 1])) and not (stop < end and _is_word(text[stop])):
            yield at
            at = text.find(word, stop)
        else:
            at = text.find(word, at + 1)


def _is_word(character: str) -> bool:
    """``\\w`` of a ``str`` pattern: what ``str.isalnum`` says, and the underscore."""
    return character.isalnum() or character == "_"


class _Window:
    """The lines ``[lo, hi)`` of one file version joined with newlines, and (when asked)
    the offset of each line's start."""

    def __init__(self, lines: Sequence[str], lo: int, hi: int) -> None:
        self._window = lines[lo:hi]
        self.text = "\n".join(self._window)
        self._starts: list[int] | None = None
        self._counts: dict[str, int] = {}

    def count(self, word: str) -> int:
        """``text.count(word)``, remembered (a diff's refused hunks share most words)."""
        found = self._counts.get(word)
        if found is None:
            found = self._counts[word] = self.text.count(word)
        return found

    def line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = list(accumulate((len(line) + 1 for line in self._window),
                                           initial=0))
        return self._starts


_windows: list[tuple[Sequence[str], int, int, _Window]] = []


def _window_text(lines: Sequence[str], lo: int, hi: int) -> _Window:
    """The joined window of ``lines``, kept for the next failed edit of the same version (a
    diff's hunks that no longer apply each asked for it again: 1.2 MB joined per hunk)."""
    return kept_per_version(_windows, lines, lo, hi, lambda: _Window(lines, lo, hi))


def _whitespace_only_size(index: FileIndex, start: int, size: int, squashed: str,
                          core: Sequence[str] = ()) -> int:
    """A region size at ``start`` equal to SEARCH (``core``) once all whitespace is gone,
    or 0. Whitespace inside a quoted string on one line is the string's content: a region
    whose strings read otherwise differs in content (QA pass s28: ``print("a    b")`` for
    ``print("a b")`` was called whitespace only)."""
    for delta in _RESIZE:
        end = start + size + delta
        if delta + size < 1 or end > index.hi:
            continue
        region = index.lines[start:end]
        if "".join(squash_key(line) for line in region) == squashed:
            if _quoted(core) != _quoted(region):
                return 0
            return size + delta
    return 0


_QUOTED = re.compile(r"""("|')(?:\\.|(?!\1).)*\1""")


def _quoted(lines: Sequence[str]) -> list[str]:
    """The one-line quoted strings of ``lines`` with their whitespace as written."""
    return [found.group() for line in lines if '"' in line or "'" in line
            for found in _QUOTED.finditer(line)]


def _overlap(one: Candidate, other: Candidate) -> bool:
    return one.start <= other.end and other.start <= one.end


def _hint(candidates: Sequence[Candidate], stale: int | None, versions: int) -> str:
    earlier = ""
    if stale is not None:
        earlier = (f"probably stale: SEARCH is in version {stale} of {versions} earlier "
                   "versions of this file but not in the current one")
    if not candidates:
        nothing = f"{Diagnosis.NOTHING_SIMILAR} to SEARCH in the file"
        return f"{earlier}; {nothing}" if earlier else nothing
    best = candidates[0]
    if best.diagnosis is Diagnosis.PART_OF_A_LINE:
        part = (f"SEARCH is part of a line: its text is inside {best.lines_named()}, and "
                "SEARCH holds whole lines")
        return f"{earlier}; {part}" if earlier else part
    closest = (f"closest is lines {best.start}-{best.end} "
               f"({round(best.similarity * 100)}% similar, {best.diagnosis})")
    return f"{earlier}; {closest}" if earlier else f"no match; {closest}"
