"""The line-signature parser (issue 13) reads every session exactly as the parser before it.

``_OldReplyParser`` and ``old_parse_markdown_session`` below are the File Ops parser as it
was before the reply parser searched line signatures (a frozen copy, kept only here as the
oracle): a Python test per line, no signature. The properties compare whole ``Session``
records (every block, operation, span, stray run and problem, with its rule and message)
on generated sessions made of grammar lines, near-misses of them and code.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.model.edit_shapes import LineRange
from reviewtui.core.model.records import (
    ConsoleBlock,
    ConsoleCommand,
    DividerSplit,
    Edit,
    FileBlock,
    Footer,
    FooterEntry,
    FullFile,
    ParseProblem,
    Reply,
    Session,
    Span,
    TextRun,
    Turn,
)
from reviewtui.core.protocol import edit_signs as signs_mod
from reviewtui.core.protocol import grammar as g
from reviewtui.core.protocol.console import parse_command
from reviewtui.core.protocol.cut import hold_cut
from reviewtui.core.protocol.footer import hold_inner_footer
from reviewtui.core.protocol.indented import hold_indented
from reviewtui.core.protocol.reply import parse_reply, split_lines
from reviewtui.core.protocol.session import parse_markdown_session
from reviewtui.core.text.hashline import parse_range

# -- the oracle: the parser before line signatures (frozen copy) ----------------------------

def old_parse_markdown_session(text: str, source: str = "session.md") -> Session:
    lines = split_lines(text)
    headings = _turn_headings(lines)
    meta_end = headings[0][0] if headings else len(lines)
    title = _title(lines, meta_end)
    problems: list[ParseProblem] = []
    if not headings:
        # (Since s27 a file of one reply and no heading is read as that reply: the rule
        # is applied here with the frozen parser, so the comparison stays whole.)
        reply = hold_indented(hold_inner_footer(
            hold_cut(_OldReplyParser(lines).parse(0, len(lines)), lines), lines), lines)
        if reply.blocks and not any(
                run.span.start > reply.blocks[0].span.start and not run.after_footer
                for run in reply.stray) and not any(
                p.rule == "second-footer" for p in reply.problems):
            return Session(source, "", "", (Turn(1, "", reply, Span(1, max(1, len(lines))),
                                                 Span(1, 1)),),
                           (ParseProblem("bare-reply", "no '## Turn N' heading: the file is "
                                         "read as one reply (turn 1, no request)", Span(1, 1),
                                         "warning"),))
        problems.append(ParseProblem("no-turns", "no '## Turn N' heading: the session has no "
                                     "turns", Span(1, max(1, len(lines))), "warning"))
    turns: list[Turn] = []
    for n, (start, number) in enumerate(headings):
        end = headings[n + 1][0] if n + 1 < len(headings) else len(lines)
        if number != n + 1:
            problems.append(ParseProblem(
                "turn-number", f"heading says Turn {number} but it is turn {n + 1} of the "
                "session", Span(start + 1, start + 1), "warning"))
        turns.append(_turn(lines, start, end, n + 1))
    meta = "\n".join(lines[:meta_end]).strip()
    return Session(source, title, meta, tuple(turns), tuple(problems))


def _turn_headings(lines: Sequence[str]) -> list[tuple[int, int]]:
    """Indexes of ``## Turn N`` lines, ignoring any inside a code fence."""
    found: list[tuple[int, int]] = []
    fence: g.Fence | None = None
    for i, line in enumerate(lines):
        first = line[:1]
        if first == "#" and fence is None:
            number = g.turn_number(line)
            if number is not None:
                found.append((i, number))
        elif first in "`~":
            if fence is None:
                fence = g.fence_open(line)
            elif fence.closes(line):
                fence = None
    return found


def _title(lines: Sequence[str], end: int) -> str:
    for line in lines[:end]:
        if line.startswith("# "):
            title = line[2:].strip()
            return title.split(":", 1)[1].strip() if title.lower().startswith("session:") else title
    return ""


def _turn(lines: Sequence[str], start: int, end: int, index: int) -> Turn:
    i = start + 1
    request: list[str] = []
    while i < end and not lines[i].strip():
        i += 1
    while i < end and lines[i].startswith(">"):
        request.append(lines[i][2:] if lines[i].startswith("> ") else lines[i][1:])
        i += 1
    reply = hold_indented(hold_inner_footer(
        hold_cut(_OldReplyParser(lines).parse(i, end), lines), lines), lines)
    return Turn(index, "\n".join(request).strip(), reply, Span(start + 1, max(start + 1, end)),
                Span(start + 1, start + 1))


class _OldReplyParser:
    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.blocks: list[FileBlock | ConsoleBlock] = []
        self.stray: list[TextRun] = []
        self.problems: list[ParseProblem] = []
        self.footer: Footer | None = None
        self.need: list[str] = []
        self.need_span: Span | None = None
        self._pending: list[int] = []

    # -- entry -------------------------------------------------------------
    def parse(self, start: int, end: int) -> Reply:
        self._region(start, end)
        self._flush()
        return Reply(
            span=Span(start + 1, max(start + 1, end)),
            blocks=tuple(self.blocks),
            footer=self.footer,
            need=tuple(self.need),
            need_span=self.need_span,
            stray=tuple(self.stray),
            problems=tuple(self.problems),
        )

    # -- helpers -----------------------------------------------------------
    def _problem(self, rule: str, message: str, first: int, last: int | None = None) -> None:
        self.problems.append(
            ParseProblem(rule, message, Span(first + 1, (last if last is not None else first) + 1))
        )

    def _flush(self) -> None:
        """Turn the pending run of unclassified lines into one stray-text record."""
        if not self._pending:
            return
        first, last = self._pending[0], self._pending[-1]
        self.stray.append(
            TextRun(
                Span(first + 1, last + 1),
                tuple(self.lines[first : last + 1]),
                after_footer=self.footer is not None,
            )
        )
        self._pending = []

    def _next_nonblank(self, i: int, end: int) -> int:
        lines = self.lines
        while i < end and not lines[i].strip():
            i += 1
        return i

    def _find_close(self, i: int, end: int, fence: g.Fence) -> int:
        lines = self.lines
        char = fence.char
        while i < end:
            line = lines[i]
            if (line[:1] == char or line.lstrip()[:1] == char) and (
                    fence.closes(line) or g.closes_before_block(fence, lines, i, end)):
                return i
            i += 1
        return end

    def _console_body(self, i: int, end: int) -> bool:
        """True when every non-blank line of ``lines[i:end]`` is a command (and one exists)."""
        seen = False
        for line in self.lines[i:end]:
            if not line.strip():
                continue
            if not g.is_command(line):
                return False
            seen = True
        return seen

    def _starts_console(self, i: int, end: int) -> bool:
        fence = g.fence_open(self.lines[i])
        if fence is None or fence.info not in g.CONSOLE_INFOS:
            return False
        close = self._find_close(i + 1, end, fence)
        return close < end and self._console_body(i + 1, close)

    # -- the block stream --------------------------------------------------
    def _region(self, i: int, end: int) -> None:
        lines = self.lines
        while i < end:
            line = lines[i]
            if not line.strip():
                self._flush()
                i += 1
                continue
            first = line.lstrip()[:1]
            if first == "#" and g.is_footer(line):
                self._flush()
                i = self._footer(i, end)
                continue
            if first == "-" and (path := g.header_path(line)) is not None:
                self._flush()
                i = self._file_block(i, end, path)
                continue
            if first in "`~" and (fence := g.fence_open(line)) is not None:
                self._flush()
                i = self._fenced_top(i, end, fence)
                continue
            if first == ":" and g.is_command(line):
                self._flush()
                i = self._bare_console(i, end)
                continue
            if first in "<E*" and (g.is_search(line) or g.edit_label(line) is not None):
                self._flush()
                i = self._orphan_edits(i, end)
                continue
            if first in "N*" and g.NEED_RE.match(line):
                self._flush()
                i = self._need(i, end)
                continue
            self._stray(i)
            i += 1

    def _fenced_top(self, i: int, end: int, fence: g.Fence) -> int:
        close = self._find_close(i + 1, end, fence)
        if close == end:
            self._problem("unclosed-fence", f"code fence opened with {fence.char * fence.length} "
                          "is never closed", i)
        if fence.info in g.CONSOLE_INFOS and self._console_body(i + 1, close):
            commands: list[ConsoleCommand] = []
            for k in range(i + 1, close):
                if lines_k := self.lines[k].strip():
                    parsed = parse_command(lines_k, k + 1, fenced=True)
                    if isinstance(parsed, ParseProblem):
                        self.problems.append(parsed)
                    else:
                        commands.append(parsed)
            self.blocks.append(ConsoleBlock(Span(i + 1, min(close, end - 1) + 1),
                                            tuple(commands), fenced=True))
            return close + 1
        inner = self._next_nonblank(i + 1, close)
        if inner < close and (
            g.header_path(self.lines[inner]) is not None or g.is_footer(self.lines[inner])
        ):
            # A fence around whole file blocks: its lines are wrapping, not content.
            self._region(i + 1, close)
            self._flush()
            return close + 1
        # A code sample in prose: stray text, never file content.
        self._pending.extend(range(i, min(close + 1, end)))
        self._flush()
        return close + 1

    def _bare_console(self, i: int, end: int) -> int:
        start = i
        commands: list[ConsoleCommand] = []
        while i < end and g.is_command(self.lines[i]):
            parsed = parse_command(self.lines[i], i + 1, fenced=False)
            if isinstance(parsed, ParseProblem):
                self.problems.append(parsed)
            else:
                commands.append(parsed)
            i += 1
        self.blocks.append(ConsoleBlock(Span(start + 1, i), tuple(commands), fenced=False))
        return i

    # -- file blocks -------------------------------------------------------
    def _file_block(self, i: int, end: int, path: str) -> int:
        header = Span(i + 1, i + 1)
        if not path:
            self._problem("header-without-path", "file header names no path: expected "
                          "'--- File: <path> ---'", i)
        k = self._next_nonblank(i + 1, end)
        if k >= end or self._terminates(k, end):
            self._problem("empty-file-block", f"file block for {path!r} has neither edits nor "
                          "content", i)
            self.blocks.append(FileBlock(path, header, header, ()))
            return k
        fence = g.fence_open(self.lines[k])
        if fence is not None and not self._opens_edit_fence(k, end):
            close = self._find_close(k + 1, end, fence)
            if close == end:
                self._problem("unclosed-fence", f"code fence for {path!r} is never closed; its "
                              "content runs to the end of the reply", k)
            ops = self._body(k + 1, close, path)
            last = min(close, end - 1)
            self.blocks.append(FileBlock(path, header, Span(i + 1, last + 1), ops, fenced=True))
            return close + 1
        term = self._terminator(k, end)
        fenced = fence is not None
        if self._has_search(k, term):
            ops, stop = self._edits(k, term, path)
        else:
            stop = term
            last = g.wrapper_dropped(self.lines, k, self._trim_blank(k, term))
            ops = self._full_file(path, k, last, Span(k + 1, last), fenced=False)
        last_line = self._trim_blank(i + 1, stop)
        self.blocks.append(FileBlock(path, header, Span(i + 1, max(i + 1, last_line)), ops,
                                     fenced=fenced))
        return stop

    def _trim_blank(self, first: int, stop: int) -> int:
        """``stop`` moved back over blank lines, not before ``first``."""
        while stop > first and not self.lines[stop - 1].strip():
            stop -= 1
        return stop

    def _body(self, i: int, end: int, path: str) -> tuple[Edit | FullFile, ...]:
        """The inside of a fence under a header: edits if it has markers, else content."""
        if self._has_search(i, end):
            ops, stop = self._edits(i, end, path)
            self._pending.extend(k for k in range(stop, end) if self.lines[k].strip())
            self._flush()
            return ops
        # An empty body points at its opening fence line.
        span = Span(i + 1, end) if end > i else Span(i, i)
        # (QA s47 helper-154 M3: the fence's length says whether markers in it are content)
        fence = g.fence_open(self.lines[i - 1]) if i > 0 else None
        return self._full_file(path, i, end, span, fenced=fence.length if fence else 3)

    def _stray(self, i: int) -> None:
        # (QA s47 helper-147 H2: a stray line that starts a broken edit is a problem too)
        self._pending.append(i)
        if (found := signs_mod.stray_problem(self.lines[i], i)) is not None:
            self.problems.append(found)

    def _full_file(self, path: str, i: int, end: int, span: Span, *, fenced: int,
                   ) -> tuple[FullFile, ...]:
        # (QA s47 helper-147 H2: a broken edit is no full file; a line at a time; helper-154
        # M3, M4, M7: the fence's length, other tools' markers, an indented fence line)
        content = [k for k in range(i, end) if self.lines[k].strip()]
        if content:
            first, signs = content[0], [None, None, None]
            original = None
            for k in range(first, end):
                line = self.lines[k]
                if signs_mod.is_search_like(line):
                    signs[0] = k
                    break
                if original is None and signs_mod.is_original(line):
                    original = k
                elif signs[1] is None and signs_mod.is_divider_like(line):
                    signs[1] = k
                elif signs[1] is not None and signs[2] is None and \
                        signs_mod.is_replace_like(line):
                    signs[2] = k
                elif original is not None and signs_mod.is_updated(line):
                    signs[0] = original
                    break
            head = self.lines[first]
            indented = not fenced and head != head.lstrip() and \
                g.fence_open(head.lstrip()) is not None
            problem = signs_mod.broken_edit(self.lines, path, first,
                                            signs_mod.label_rest(self.lines[first]),
                                            (signs[0], signs[1], signs[2]), fenced=fenced,
                                            indented=indented)
            if problem is not None:
                self.problems.append(problem)
                return ()
        return (FullFile(path, tuple(self.lines[i:end]), span),)

    def _has_search(self, i: int, end: int) -> bool:
        return any(
            (line[:1] == "<" and g.is_search(line))
            or (line.lstrip()[:1] in ("E", "*") and g.edit_address(line) is not None)
            for line in self.lines[i:end]
        )

    def _terminates(self, k: int, end: int) -> bool:
        line = self.lines[k]
        return (
            g.header_path(line) is not None
            or g.is_footer(line)
            or self._starts_console(k, end)
        )

    def _terminator(self, k: int, end: int) -> int:
        """Where unfenced content ends: the next header, footer or fenced console block."""
        lines = self.lines
        while k < end:
            first = lines[k].lstrip()[:1]
            if first in "-#`~" and self._terminates(k, end):
                return k
            k += 1
        return end

    def _opens_edit_fence(self, k: int, end: int) -> bool:
        nxt = self._next_nonblank(k + 1, end)
        return nxt < end and (
            g.is_search(self.lines[nxt]) or g.edit_label(self.lines[nxt]) is not None
        )

    # -- edits ---------------------------------------------------------------
    def _edits(self, i: int, end: int, path: str) -> tuple[tuple[Edit, ...], int]:
        """Read labelled SEARCH/REPLACE edits; stop at the first line that is none of them."""
        edits: list[Edit] = []
        label: tuple[int, int] | None = None  # (number, line index)
        address: tuple[str, str | None] | None = None  # ``Edit N @ A-B``: a line range
        fence: g.Fence | None = None
        lines = self.lines
        while i < end:
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            if fence is not None and fence.closes(line):
                fence = None
                i += 1
                continue
            if fence is None and (opened := g.fence_open(line)) and self._opens_edit_fence(i, end):
                fence = opened
                i += 1
                continue
            number = g.edit_label(line)
            if number is not None:
                if label is not None:
                    self._problem("dangling-label", f"'Edit {label[0]}' is not followed by a "
                                  "SEARCH block", label[1])
                label = (number, i)
                address = g.edit_address(line)
                i += 1
                continue
            if label is not None and address is not None and g.is_divider(line):
                edit, i = self._replace_only(i, end, path, len(edits) + 1, label, address)
                if edit is not None:
                    edits.append(edit)
                label = address = None
                continue
            if g.is_search(line):
                edit, i = self._one_edit(i, end, path, len(edits) + 1, label)
                if edit is not None:
                    edits.append(edit)
                label = None
                continue
            if line[:1] in "=>" and g.is_marker(line):
                self._problem("stray-marker", f"{line.strip()!r} without an opening "
                              "'<<<<<<< SEARCH'", i)
                i += 1
                continue
            if path and fence is None and i < end and self._pending_is_prose(i, end):
                # Prose between edits of one file: record it, keep reading this block.
                self._stray(i)
                i += 1
                continue
            break
        self._flush()
        if label is not None:
            self._problem("dangling-label", f"'Edit {label[0]}' is not followed by a SEARCH "
                          "block", label[1])
        if fence is not None:
            self._problem("unclosed-fence", "code fence around an edit is never closed", i - 1)
        return tuple(edits), i

    def _pending_is_prose(self, i: int, end: int) -> bool:
        """A line that is no block start, before more edits of the same file block."""
        if self._terminates(i, end) or g.is_command(self.lines[i]):
            return False
        if g.NEED_RE.match(self.lines[i]):
            return False
        k = i
        lines = self.lines
        while k < end and lines[k].strip() and not self._terminates(k, end):
            if g.is_search(lines[k]) or g.edit_label(lines[k]) is not None:
                return True
            k += 1
        k = self._next_nonblank(k, end)
        return k < end and (g.is_search(lines[k]) or g.edit_label(lines[k]) is not None)

    def _one_edit(
        self, s: int, end: int, path: str, ordinal: int, label: tuple[int, int] | None
    ) -> tuple[Edit | None, int]:
        lines = self.lines
        j = s + 1
        # First-character tests keep this loop cheap: it runs over every line of code.
        while j < end:
            line = lines[j]
            first = line[:1]
            if first == "=" and g.is_divider(line):
                break
            if (first in "<>" and (g.is_search(line) or g.is_replace(line))) or (
                first in "-#" and self._hard_stop(j)
            ):
                self._problem("unterminated-edit", "SEARCH block has no '=======' divider "
                              "before the next block", s, j - 1)
                # A REPLACE marker closes this broken edit; anything else starts the next.
                return None, j + 1 if g.is_replace(line) else j
            j += 1
        if j >= end:
            self._problem("unterminated-edit", "SEARCH block is never closed: expected "
                          "'=======' then '>>>>>>> REPLACE'", s, end - 1)
            return None, end
        r = j + 1
        while r < end:
            line = lines[r]
            first = line[:1]
            if first == ">" and g.is_replace(line):
                break
            if (first == "<" and g.is_search(line)) or (first in "-#" and self._hard_stop(r)):
                self._problem("unterminated-edit", "edit has no '>>>>>>> REPLACE' marker "
                              "before the next block", s, r - 1)
                return None, r
            r += 1
        if r >= end:
            self._problem("unterminated-edit", "edit is never closed: expected "
                          "'>>>>>>> REPLACE'", s, end - 1)
            return None, end
        first_line = label[1] if label is not None else s
        edit = Edit(
            path=path,
            ordinal=ordinal,
            number=label[0] if label is not None else None,
            search_lines=tuple(lines[s + 1 : j]),
            replace_lines=tuple(lines[j + 1 : r]),
            span=Span(first_line + 1, r + 1),
            search_span=Span(s + 1, j + 1),
            replace_span=Span(j + 1, r + 1),
            # (QA s47 helper-147 H6: the edit read at each later divider too)
            other_splits=tuple(
                DividerSplit(k + 1, tuple(lines[s + 1 : k]), tuple(lines[k + 1 : r]))
                for k in range(j + 1, r) if g.is_divider(lines[k])),
        )
        return edit, r + 1

    def _replace_only(
        self, s: int, end: int, path: str, ordinal: int, label: tuple[int, int],
        address: tuple[str, str | None],
    ) -> tuple[Edit | None, int]:
        """``Edit N @ A-B`` then ``=======``, the new lines, ``>>>>>>> REPLACE``."""
        lines = self.lines
        r = s + 1
        while r < end and not g.is_replace(lines[r]):
            if g.is_search(lines[r]) or self._hard_stop(r):
                break
            r += 1
        if r >= end or not g.is_replace(lines[r]):
            self._problem("unterminated-edit", "line-range edit has no '>>>>>>> REPLACE' "
                          "marker", s, r - 1)
            return None, r
        refs = parse_range(address[0])
        if refs is None:
            self._problem("bad-address", f"'@ {address[0]}' is not a line range: write "
                          "'@ 140-148' or '@ 12:a3-15:f0'", label[1])
            return None, r + 1
        edit = Edit(
            path=path, ordinal=ordinal, number=label[0], search_lines=(),
            replace_lines=tuple(lines[s + 1 : r]), span=Span(label[1] + 1, r + 1),
            search_span=Span(label[1] + 1, label[1] + 1), replace_span=Span(s + 1, r + 1),
            shape=LineRange(refs[0], refs[1], address[1]),
        )
        return edit, r + 1

    def _hard_stop(self, j: int) -> bool:
        line = self.lines[j]
        first = line.lstrip()[:1]
        return (first == "-" and g.header_path(line) is not None) or (
            first == "#" and g.is_footer(line)
        )

    def _orphan_edits(self, i: int, end: int) -> int:
        before = len(self.problems)
        edits, stop = self._edits(i, end, "")
        if edits or not any(p.rule == "dangling-label" for p in self.problems[before:]):
            last = max(i, self._trim_blank(i, stop) - 1)
            self._problem("edit-without-header", "edit appears before any '--- File: <path> "
                          "---' header; it is not applied", i, last)
        return stop if stop > i else i + 1

    # -- footer ------------------------------------------------------------
    def _footer(self, i: int, end: int) -> int:
        if self.footer is not None:
            self._problem("second-footer", "a second '### Changed files:' footer", i)
            self._pending.append(i)
            return i + 1
        entries: list[FooterEntry] = []
        k = i + 1
        last = i
        while k < end:
            line = self.lines[k]
            if not line.strip():
                k += 1
                continue
            item = g.list_item(line)
            if item is None:
                break
            entries.append(_footer_entry(item, k))
            last = k
            k += 1
        self.footer = Footer(Span(i + 1, last + 1), tuple(entries))
        return last + 1

    def _need(self, i: int, end: int) -> int:
        m = g.NEED_RE.match(self.lines[i])
        rest = m.group("rest").strip() if m else ""
        items = [p.strip(" `") for p in rest.split(",") if p.strip(" `")]
        last = i
        k = i + 1
        while not items and k < end:
            line = self.lines[k]
            if not line.strip():
                k += 1
                continue
            item = g.list_item(line)
            if item is None:
                break
            items_here = item.strip(" `")
            self.need.append(items_here)
            last = k
            k += 1
        self.need.extend(items)
        self.need_span = Span(i + 1, last + 1)
        return last + 1


def _footer_entry(item: str, k: int) -> FooterEntry:
    text = item.strip()
    if text.startswith("`"):
        close = text.find("`", 1)
        if close > 0:
            return FooterEntry(text[1:close], _note(text[close + 1 :]), Span(k + 1, k + 1))
    path, _, rest = text.partition(" ")
    path = path.strip("`*")
    if path.endswith(":") and len(path) > 1:  # "- src/a.py: what changed"
        path = path[:-1]
    return FooterEntry(path, _note(rest), Span(k + 1, k + 1))


def _note(rest: str) -> str:
    return rest.strip().lstrip("—–-:").strip()


# -- generated sessions -----------------------------------------------------------------------

# Grammar lines, near-misses of them (indented, too short, wrong case, trailing text) and
# code whose first character is one the signature search looks for.
SOUP = [
    "--- File: a.py ---", "  --- File: b/c.py ---", "--- File:  ---", "---", "-- File: a ---",
    "<<<<<<< SEARCH", "<<<<< SEARCH", "<<<<<<<SEARCH", " <<<<<<< SEARCH", "<<<< SEARCH",
    "=======", "=====", "====", "  =======", "======= x",
    ">>>>>>> REPLACE", ">>>>>>>REPLACE", " >>>>>>> REPLACE", ">>> REPLACE",
    "Edit 1", "Edit 2:", "**Edit 3**", "  Edit 4", "Edit 5 @ 3-4", "Edit 6 @ 2:ab-3:cd rev 1f",
    "Edit 7 @ zz", "**Edit 8 @ 4-5**", "Edits", "*args", "Exception()",
    "```", "````", "```console", "```python", "~~~", "~~~ sh", "  ```", "``` x y", "```bash",
    ":rm a.py", ":mv a b", ":mv -f a b", ":undo", ":bogus", ":", "  :rm c", ":rn a b",
    "### Changed files:", "## Changed files", "#### changed FILES :", "  ### Changed files",
    "- a.py", "- `b.py` (new)", "* c.py: why", "+ d", "-x",
    "Need: lib/x.js, y", "**Need:**", "Need:", "Needle",
    "## Turn 1", "## Turn 2", "## Turn 7 extra", "##Turn 3", "# Session: t", "# title",
    "> request", ">", "> ", ">>",
    "", " ", "\t", "  \t ", "x = 1", "    return x", "# a comment", "    # indented comment",
    "\u2028", "\x1c", "\u3000x", "\f", "\ufeff", "é",
    # (QA s47 helper-154: other tools' markers, a range with a space, an indented fence)
    "------- SEARCH", "+++++++ REPLACE", "<<<<<<< ORIGINAL", ">>>>>>> UPDATED", "Edit 9 @ 2 3",
    "   ```json", "   ```",
]

CODE = st.text(alphabet=st.sampled_from(list(" \t#-=<>`~:E*N+>xy")), max_size=8)
LINE = st.one_of(st.sampled_from(SOUP), st.sampled_from(SOUP), CODE)


def _edit(path: str, search: list[str], replace: list[str], label: str | None) -> list[str]:
    out = [f"--- File: {path} ---"] if path else []
    if label is not None:
        out.append(label)
    return out + ["<<<<<<< SEARCH", *search, "=======", *replace, ">>>>>>> REPLACE", ""]


# sessions()'s choices, each strategy made once (a strategy made at each draw is built and
# validated again every time); the draws are the same.
KINDS = st.sampled_from(["edit", "edit", "range", "full", "console", "prose", "need"])
PATHS = st.sampled_from(["a.py", "src/b.py", ""])
BODY = st.lists(LINE, max_size=5)
REPLACE = st.lists(LINE, max_size=4)
LABELS = st.sampled_from([None, "Edit 1", "**Edit 2**", "Edit 3 @ 1-2", "**Edit 4 @ 2-3**"])
RANGE_LABELS = st.sampled_from(["Edit 1 @ 1-2", "**Edit 2 @ 3-4**", "Edit 3 @ x"])
FENCES = st.sampled_from(["", "```", "````python", "~~~"])
CONSOLE_FENCES = st.sampled_from([("```console", "```"), ("~~~sh", "~~~"), ("```", "```"),
                                  ("````bash", "````")])
ACTIONS = st.sampled_from(["drop", "dup", "insert", "replace"])
ENDINGS = st.sampled_from(["\n", "\r\n"])
UP_TO = {n: st.integers(0, n) for n in (4, 5, 6)}


@st.composite
def sessions(draw: st.DrawFn) -> str:
    """Mostly well-formed turns of edits, full files and commands, then mutations."""
    lines: list[str] = []
    if draw(st.booleans()):
        lines += ["# Session: generated", "meta", ""]
    for n in range(1, draw(UP_TO[5]) + 1):
        lines += [f"## Turn {n}", "> do it", ""]
        for _ in range(draw(UP_TO[4])):
            kind = draw(KINDS)
            path = draw(PATHS)
            body = draw(BODY)
            if kind == "edit":
                label = draw(LABELS)
                lines += _edit(path, body, draw(REPLACE), label)
            elif kind == "range":  # a line-range edit: a label with an address, no SEARCH
                label = draw(RANGE_LABELS)
                lines += [f"--- File: {path} ---", label, "=======", *body, ">>>>>>> REPLACE", ""]
            elif kind == "full":
                fence = draw(FENCES)
                wrap = [fence] if fence else []
                lines += [f"--- File: {path} ---", *wrap, *body, *wrap, ""]
            elif kind == "console":
                fence, close = draw(CONSOLE_FENCES)
                lines += [fence, ":mv a.py b.py", ":rm c.py", close, ""]
            elif kind == "need":
                lines += ["Need: x.py, y.py", ""]
            else:
                lines += [*body, ""]
        if draw(st.booleans()):
            lines += ["### Changed files:", "- a.py", "- `src/b.py` (new)", ""]
    for _ in range(draw(UP_TO[6])):
        action = draw(ACTIONS)
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if action == "drop":
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "insert":
            lines.insert(i, draw(LINE))
        else:
            lines[i] = draw(LINE)
    ending = draw(ENDINGS)
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


def _same(text: str) -> None:
    assert parse_markdown_session(text) == old_parse_markdown_session(text)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(sessions())
def test_generated_sessions_parse_as_before(text: str) -> None:
    _same(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=60), st.sampled_from(["\n", "\r\n"]))
def test_grammar_soup_parses_as_before(lines: list[str], ending: str) -> None:
    _same(ending.join(lines))
    _same("## Turn 1\n" + ending.join(lines))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_parses_as_before(text: str) -> None:
    _same(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=40), st.data())
def test_reply_slices_parse_as_before(lines: list[str], data: st.DataObject) -> None:
    """A reply read from a slice of a longer list (a transcript, an importer)."""
    start = data.draw(st.integers(0, len(lines)))
    end = data.draw(st.integers(start, len(lines)))
    assert parse_reply(lines, start, end) == hold_indented(hold_inner_footer(
        hold_cut(_OldReplyParser(lines).parse(start, end), lines), lines), lines)


def test_the_bench_shape_parses_as_before() -> None:
    """The bench's generated session (bench_first_frame.py), in small."""
    lines: list[str] = []
    for n in range(1, 30):
        lines += [f"## Turn {n}", "> edit", ""]
        for k in range(10):
            lines += _edit(f"pkg/mod{k}.py", ["    if x:", "        # keep", "        y()"],
                           ["    if x:", f"        # keep  # edit {n}.{k}", "        y()"],
                           None)
    text = "\n".join(lines) + "\n"
    session = parse_markdown_session(text)
    assert session == old_parse_markdown_session(text)
    assert sum(len(t.reply.ops) for t in session.turns) == 290
    assert all(t.reply.problems == () and t.reply.stray == () for t in session.turns)

