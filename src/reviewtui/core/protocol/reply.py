"""Parse one model reply (a stream of console and file blocks, then a footer).

The parser is line-based and never raises on malformed input: whatever it cannot
read as the grammar says becomes a ``ParseProblem`` (with a span) or a ``TextRun``
of stray text, and never file content. Spans are 1-based line numbers in the
source file that holds the reply, so a reply inside a session keeps true line numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.model.records import (
    ConsoleBlock,
    ConsoleCommand,
    Edit,
    FileBlock,
    Footer,
    FooterEntry,
    FullFile,
    ParseProblem,
    Reply,
    Span,
    TextRun,
)
from reviewtui.core.protocol import grammar as g
from reviewtui.core.protocol.cut import hold_cut
from reviewtui.core.protocol.edit_signs import full_file_problem, other_splits, stray_problem
from reviewtui.core.protocol.footer import footer_entry, hold_inner_footer
from reviewtui.core.protocol.indented import hold_indented
from reviewtui.core.protocol.quick import quick_blocks
from reviewtui.core.text.lines import split_lines


def parse_reply(lines: Sequence[str], start: int = 0, end: int | None = None, *,
                signature: str | None = None) -> Reply:
    """Parse ``lines[start:end]`` (lines without their line endings) as one reply.

    ``signature`` is :func:`line_signature` of all of ``lines``, when the caller parses
    several replies of one list (a session): else it is made for ``lines[start:end]``.
    """
    stop = len(lines) if end is None else end
    if signature is None:
        reply = _ReplyParser(lines, line_signature(lines[start:stop]), start).parse(start, stop)
    else:
        reply = _ReplyParser(lines, signature, 0).parse(start, stop)
    return hold_indented(hold_inner_footer(hold_cut(reply, lines), lines), lines)


def parse_reply_text(text: str) -> Reply:
    return parse_reply(split_lines(text))


def line_signature(lines: Sequence[str]) -> str:
    """One character per line: its first character after leading whitespace, or a space
    for a blank line.

    Every grammar line is told by that character (or by its first character, which is the
    same one when it is not whitespace), so the parser finds the next line that can be a
    marker, header, fence or footer with one ``re`` search over this string instead of a
    Python test per line of code.
    """
    return "".join([line.lstrip()[:1] or " " for line in lines])


# Searches over a line signature (see line_signature): the lines that can be ...
_NONBLANK = re.compile(r"[^ ]")  # ... not blank
_TERMINATOR = re.compile(r"[-#`~]")  # ... a header, footer or fence (_terminates)
_EDIT_STOP = re.compile(r"[-#<=>]")  # ... a divider, marker or hard stop (_one_edit)
_REPLACE_STOP = re.compile(r"[-#<>]")  # ... a REPLACE marker or what ends an edit early
_SEARCH_OR_LABEL = re.compile(r"[<E*]")  # ... a SEARCH marker or an ``Edit N @`` label


class _ReplyParser:
    def __init__(self, lines: Sequence[str], signature: str, base: int) -> None:
        self.lines = lines
        # line_signature of lines[base:]: the signature of line i is signature[i - base].
        self.sig = signature
        self.base = base
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

    def _find(self, pattern: re.Pattern[str], i: int, end: int) -> int:
        """The first line in ``[i, end)`` whose signature matches ``pattern``, else ``end``."""
        if i >= end:
            return end
        base = self.base
        m = pattern.search(self.sig, i - base, end - base)
        return end if m is None else m.start() + base

    def _blank(self, i: int) -> bool:
        return self.sig[i - self.base] == " "

    def _next_nonblank(self, i: int, end: int) -> int:
        return i if i >= end else self._find(_NONBLANK, i, end)

    def _find_close(self, i: int, end: int, fence: g.Fence) -> int:
        lines, sig, base, char = self.lines, self.sig, self.base, fence.char
        while i < end:
            # A line whose first character is the fence's has that signature too.
            at = sig.find(char, i - base, end - base)
            if at < 0:
                return end
            i = at + base
            if fence.closes(lines[i]) or g.closes_before_block(fence, lines, i, end):
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
        lines, sig, base = self.lines, self.sig, self.base
        while i < end:
            line = lines[i]
            first = sig[i - base]
            if first == " ":
                self._flush()
                i += 1
                continue
            if first == "#" and g.is_footer(line):
                self._flush()
                i = self._footer(i, end)
                continue
            if first == "-" and (path := g.header_path(line)) is not None:
                self._flush()
                stop = quick_blocks(lines, sig, base, i, end, path, self.blocks)  # most
                i = stop if stop >= 0 else self._file_block(i, end, path)
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
            from reviewtui.core.protocol.console import parse_command  # here: few replies

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
        from reviewtui.core.protocol.console import parse_command  # here: few replies

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
        sig, base = self.sig, self.base
        # Each test below is false unless the line's signature is its first character.
        fence = g.fence_open(self.lines[k]) if sig[k - base] in "`~" else None
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
        if (sig[k - base] == "<" and g.is_search(self.lines[k])) or self._has_search(k, term):
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
        sig, base = self.sig, self.base
        while stop > first and sig[stop - 1 - base] == " ":
            stop -= 1
        return stop

    def _body(self, i: int, end: int, path: str) -> tuple[Edit | FullFile, ...]:
        """The inside of a fence under a header: edits if it has markers, else content."""
        if self._has_search(i, end):
            ops, stop = self._edits(i, end, path)
            self._pending.extend(k for k in range(stop, end) if self.lines[k].strip())
            self._flush()
            return ops
        # An empty body points at its opening fence line, the line before it.
        fence = g.fence_open(self.lines[i - 1]) if i > 0 else None
        return self._full_file(path, i, end, Span(i + 1, end) if end > i else Span(i, i),
                               fenced=fence.length if fence is not None else 3)

    def _full_file(self, path: str, i: int, end: int, span: Span, *, fenced: int,
                   ) -> tuple[FullFile, ...]:
        """``lines[i:end]`` as the content of ``path``, unless they are a broken edit;
        ``fenced``: the length of the fence around them (0: none)."""
        problem = full_file_problem(self.lines, self.sig, self.base, i, end, path, fenced=fenced)
        if problem is None:
            return (FullFile(path, tuple(self.lines[i:end]), span),)
        self.problems.append(problem)
        return ()

    def _stray(self, i: int) -> None:
        """Line ``i`` as stray text; a problem too when it starts a broken edit (H2)."""
        self._pending.append(i)
        if self.sig[i - self.base] in "<E*-" and (found := stray_problem(self.lines[i], i)):
            self.problems.append(found)

    def _has_search(self, i: int, end: int) -> bool:
        lines, sig, base = self.lines, self.sig, self.base
        while (i := self._find(_SEARCH_OR_LABEL, i, end)) < end:
            line = lines[i]
            if (line[:1] == "<" and g.is_search(line)) or (
                    sig[i - base] in "E*" and g.edit_address(line) is not None):
                return True
            i += 1
        return False

    def _terminates(self, k: int, end: int) -> bool:
        """A header, a footer, or a fenced console block starts at line ``k``."""
        first = self.sig[k - self.base]  # each test below needs its own first character
        if first == "-":
            return g.header_path(self.lines[k]) is not None
        if first == "#":
            return g.is_footer(self.lines[k])
        return first in "`~" and self._starts_console(k, end)

    def _terminator(self, k: int, end: int) -> int:
        """Where unfenced content ends: the next header, footer or fenced console block."""
        # _terminates inlined: this runs over every comment line of every file block.
        lines, sig, base = self.lines, self.sig, self.base
        search = _TERMINATOR.search
        while k < end and (m := search(sig, k - base, end - base)) is not None:
            k = m.start() + base
            first = sig[k - base]
            if first == "#":
                if g.FOOTER_RE.match(lines[k]):  # g.is_footer, its first character known
                    return k
            elif first == "-":
                if g.header_path(lines[k]) is not None:
                    return k
            elif self._starts_console(k, end):
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
        lines, sig, base = self.lines, self.sig, self.base
        while i < end:
            line = lines[i]
            first = sig[i - base]  # each test below is false unless it is the right one
            if first == " ":
                i += 1
                continue
            if fence is not None and fence.closes(line):
                fence = None
                i += 1
                continue
            if (fence is None and first in "`~" and (opened := g.fence_open(line))
                    and self._opens_edit_fence(i, end)):
                fence = opened
                i += 1
                continue
            number = g.edit_label(line) if first in "E*" else None
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
            if first == "<" and g.is_search(line):
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
        lines, sig, base = self.lines, self.sig, self.base
        j = s + 1
        # Only lines whose signature can make them a divider, a marker or a hard stop are
        # looked at: this runs over every line of code.
        search = _EDIT_STOP.search
        while j < end and (m := search(sig, j - base, end - base)) is not None:
            j = m.start() + base
            line = lines[j]
            first = line[:1]
            if first == "=" and g.DIVIDER_RE.match(line):
                break
            if (first in "<>" and (g.is_search(line) or g.is_replace(line))) or (
                first in "-#" and self._hard_stop(j)
            ):
                self._problem("unterminated-edit", "SEARCH block has no '=======' divider "
                              "before the next block", s, j - 1)
                # A REPLACE marker closes this broken edit; anything else starts the next.
                return None, j + 1 if g.is_replace(line) else j
            j += 1
        else:  # no such line before the end
            j = end
        if j >= end:
            self._problem("unterminated-edit", "SEARCH block is never closed: expected "
                          "'=======' then '>>>>>>> REPLACE'", s, end - 1)
            return None, end
        r = j + 1
        search = _REPLACE_STOP.search
        while r < end and (m := search(sig, r - base, end - base)) is not None:
            r = m.start() + base
            line = lines[r]
            first = line[:1]
            if first == ">" and g.REPLACE_RE.match(line):
                break
            if (first == "<" and g.is_search(line)) or (first in "-#" and self._hard_stop(r)):
                self._problem("unterminated-edit", "edit has no '>>>>>>> REPLACE' marker "
                              "before the next block", s, r - 1)
                return None, r
            r += 1
        else:  # no such line before the end
            r = end
        if r >= end:
            self._problem("unterminated-edit", "edit is never closed: expected "
                          "'>>>>>>> REPLACE'", s, end - 1)
            return None, end
        first_line = label[1] if label is not None else s
        edit = Edit(  # path, ordinal, number, SEARCH, REPLACE, span, their spans
            path, ordinal, label[0] if label is not None else None,
            tuple(lines[s + 1 : j]), tuple(lines[j + 1 : r]),
            Span(first_line + 1, r + 1), Span(s + 1, j + 1), Span(j + 1, r + 1),
            other_splits=other_splits(lines, sig, base, s, j, r),
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
        from reviewtui.core.model.edit_shapes import LineRange
        from reviewtui.core.text.hashline import parse_range

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
        first = self.sig[j - self.base]
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
            entries.append(footer_entry(item, k))
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

