"""Blocks a reply may hold only part of: not operations, said (rule ``cut-off``).

A reply is cut off when the model's output stops early (a length limit, a dropped
connection): what it wrote last is then incomplete, and replaying it writes a truncated
file or runs half a command (``:rm src`` of ``:rm src/old.py``: a whole folder removed).
The protocol ends every reply with its ``### Changed files:`` footer, so a missing footer
is the sign; a fence that never closes is another. A SEARCH/REPLACE edit carries its own
end (``>>>>>>> REPLACE``; one without it is never read), so only blocks that run to
where the text stops are in doubt (QA s47 helper-147 H3, H4):

* a file block or console block whose fence never closes: its content runs to the end
  of the reply;
* in a reply with no footer, its last block when nothing closes it: an unfenced full file
  (its content runs to the end), or the last of command lines outside a fence;
* a fenced full file whose fence may have closed at a fence of its own (a markdown
  file's code sample): its content opens a sample it does not close, or holds a file
  header or the footer, or the fence closing it is indented and so is the text after it
  (a YAML block scalar's sample), or text with a fence follows it before the next block
  or the footer (or any text, in a reply with no footer), or a program's text ends
  inside a multi-line string, comment or here-document (a docstring's, a template
  literal's, a heredoc's sample: open_strings.py, open_literals.py); or, for a document
  (Markdown or plain text, or any file in a fence without a language), a file block
  opened by a fence without a language starts on the line right after its closing fence
  (a sample showing a header), a bare fence that may close it is left over after it
  before the footer, outside the fences of the blocks after it, or an unfenced file
  block the footer does not name follows it (a sample showing a reply or a command: the
  blocks read from it lie between); and every block after it, which may be that file's
  own text.

Each such block stays in the reply with no operations, and a ``cut-off`` problem (an
error) says why over its lines: the workbench shows it as not read, ``apply`` prints it
and exits 1. Fencing the file with a fence longer than any in it (````), or adding the
footer to a reply that is whole, makes it an operation again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.model.records import (
    ConsoleBlock,
    FileBlock,
    FullFile,
    ParseProblem,
    Reply,
    Span,
)
from reviewtui.core.protocol import grammar as g
from reviewtui.core.protocol.closed_later import LaterEnds, closed_later
from reviewtui.core.protocol.open_strings import open_string
from reviewtui.core.record import replace

CUT_OFF = "cut-off"
_NEVER_CLOSED = "its fence is never closed: the reply stops inside it"


def hold_cut(reply: Reply, lines: Sequence[str]) -> Reply:
    """``reply`` (parsed from ``lines``: its spans count in them from 1) with the blocks it
    may hold only part of emptied, each said (module doc)."""
    unclosed = [p.span.start for p in reply.problems if p.rule == "unclosed-fence"]
    blocks = list(reply.blocks)
    problems = list(reply.problems)
    last = max((n for n, block in enumerate(blocks) if _has_ops(block)), default=None)
    early: int | None = None  # the line of a file whose fence closed early: all after too
    ends = LaterEnds(lines)  # (the reply's template end tags: read once, if asked)
    for n, block in enumerate(blocks):
        if not _has_ops(block):
            continue
        why = None
        if any(block.span.start <= at <= block.span.end for at in unclosed):
            why = _NEVER_CLOSED
        elif early is not None:
            why = (f"it follows a file whose fence closed early (line {early}): it may be "
                   "that file's own text")
        elif reply.footer is None and n == last and not block.fenced and (
                isinstance(block, ConsoleBlock) or _full_file(block)):
            why = ("the reply ends in it with no '### Changed files:' footer after it, "
                   "and nothing closes it: the reply may have stopped inside it")
        elif isinstance(block, FileBlock) and block.fenced and _full_file(block) and (
                why := _closed_early(reply, lines, block, _next_start(reply, blocks, n),
                                     ends)):
            early = block.span.start
        if why is None:
            continue
        span = block.span
        if isinstance(block, FileBlock):
            blocks[n] = replace(block, ops=())
            what = "this file's content may be cut off and is"
        elif block.fenced:
            blocks[n] = replace(block, commands=())
            what = "these commands may be cut off and are"
        else:  # (lines outside a fence: each whole but the last, which may be cut)
            *kept, cut = block.commands
            blocks[n] = replace(block, commands=tuple(kept))
            span = cut.span
            what = "this command may be cut off and is"
        if why.startswith(_NEVER_CLOSED):  # (said by the parser's problem: one of them)
            at = next(k for k, p in enumerate(problems) if p.rule == "unclosed-fence"
                      and block.span.start <= p.span.start <= block.span.end)
            problems[at] = replace(problems[at], message=problems[at].message
                                   + f"; {what} not read as an operation")
            continue
        problems.append(ParseProblem(CUT_OFF, f"{what} not read as an operation: {why}",
                                     span))
    if blocks == list(reply.blocks):
        return reply
    return replace(reply, blocks=tuple(blocks),
                   problems=tuple(sorted(problems, key=lambda p: p.span.start)))


def _closed_early(reply: Reply, lines: Sequence[str], block: FileBlock,
                  until: int, ends: LaterEnds) -> str | None:
    """Why the fence of ``block``, a fenced full file, may have closed at a fence of the
    file's own (a markdown file's code sample), or None (QA s47 helper-147 H3,
    helper-154 H3): its content opens a sample it does not close; it holds a file header
    or the footer (the rest of the reply swallowed); text with a fence follows it before
    any other block; or text follows it in a reply with no footer; for a document, a bare
    fence that may close it is left over after it (_left_over); a program's text ends
    inside a string (open_strings); it leaves a template block open whose end tag stands
    later in the reply (closed_later); for a document, a block a sample may have made
    follows it (_bare_block_after, _unlisted_after); or its fence lines do not pair up and
    what follows may be its text (_unpaired_and_followed)."""
    (op,) = [op for op in block.ops if isinstance(op, FullFile)][:1]
    if (opened := _open_sample(op.lines)) is not None:
        return (f"its content's code sample at line {op.span.start + opened} is not "
                "closed in it: the sample's own closing fence may have closed the file's; "
                "fence the file with a fence longer than any in it")
    inner = next((k for k, line in enumerate(op.lines)
                  if g.header_path(line) is not None or g.is_footer(line)), None)
    if inner is not None:
        return (f"its content holds a file header or the footer (line "
                f"{op.span.start + inner}): the fence meant to close it may not have")
    if (fence := _fence_after(reply, block, until)) is not None:
        return (f"text with a fence (line {fence}) follows the fence that closes it, "
                "before any other block: a fenced sample of the file's own may have "
                "closed it early; fence the file with a longer fence (````)")
    if reply.footer is None and any(run.span.start > block.span.end for run in reply.stray):
        return ("text follows the fence that closes it in a reply with no footer: a "
                "fenced sample of the file's own may have closed it early")
    if (indented := _indented_close(lines, block)) is not None:
        return (f"the fence that closes it (line {block.span.end}) is indented, and so is "
                f"the text after it (line {indented}): a code sample of the file's own (in "
                "a YAML block scalar, an indented sample) may have closed its fence; fence "
                "the file with a fence longer than any in it")
    wrapper = _opening_fence(lines, block)
    if wrapper is None:
        return _unpaired_and_followed(reply, block, op)
    document = _may_hold_samples(block.path, wrapper)
    if document and (left := _left_over(reply, lines, block, wrapper)) is not None:
        return (f"a bare fence line that may close it (line {left}) is left over after "
                "it, outside any block's fence: a sample of the file's own may have "
                "closed its fence, and what lies between be the rest of it; fence the "
                "file with a fence longer than any in it")
    if not document and (left := _left_over(reply, lines, block, wrapper)) is not None and any(
            isinstance(b, ConsoleBlock) and block.span.end < b.span.start < left
            for b in reply.blocks):
        return (f"a console block and then a bare fence line that may close it (line "
                f"{left}) follow it, outside any block's fence: a sample of the file's own "
                "showing a command may have closed its fence, the command being the "
                "sample's; fence the file with a fence longer than any in it")
    if (opened := open_string(block.path, wrapper.info, op.lines)) is not None:
        return (f"its content ends inside a string, comment or element opened at line "
                f"{op.span.start + opened}: a code sample in it (a docstring's, a template "
                "literal's, a comment's, a here-document's, a <pre>'s) may have closed the "
                "file's fence; fence the file with a fence longer than any in it")
    if document and _markdown(block.path, wrapper) and (
            opened := _open_html_block(op.lines)) is not None:
        return (f"its content ends inside an HTML block opened at line "
                f"{op.span.start + opened} (a <pre>, <script>, <style>, <textarea>, a comment): "
                "Markdown reads it to its end tag, so a code sample in it may have closed "
                "the file's fence; fence the file with a fence longer than any in it")
    if _not_program(block.path, wrapper.info, op.lines) and (left_open := closed_later(
            op.lines, ends, block.span.end - 1,
            document=_prose(block.path),
            markdown=("mdx" if _suffix(block.path) == ".mdx" or wrapper.info == "mdx" else "md")
            if _markdown(block.path, wrapper) else "",
            go=not block.path.lower().endswith((".hbs", ".handlebars", ".mustache", ".gjs",
                                                ".gts")),
            ci=_CI_FILE.search(block.path) is not None)
            ) is not None:
        opened, end_tag, at = left_open
        what = "an HTML element" if end_tag.startswith("</") else "a template block"
        return (f"its content leaves {what} open (line {op.span.start + opened}) "
                f"whose end, {end_tag}, stands later in the reply (line {at + 1}): a code "
                "sample in the block may have closed the file's fence, and the rest of the "
                "file be read as other blocks; fence the file with a fence longer than any "
                "in it")
    if not document and (later := _unlisted_bare_next(reply, lines, block)) is not None:
        return (f"the next block, of {later.path!r} (line {later.span.start}), is one the "
                "footer does not list, opened by a fence without a language: a sample of "
                "the file's own showing a reply may have closed its fence, that block being "
                "the sample; list the file in the footer, or fence this one with a fence "
                "longer than any in it")
    if document and (later := _bare_block_after(lines, reply, block, wrapper)) is not None:
        return (f"a block of {later.path!r} (line {later.span.start}) follows the fence that "
                "closes it at once, opened by a fence without a language: a sample of the "
                "file's own showing a reply may have closed its fence; fence this file with "
                "a fence longer than any in it, or put a blank line before the next header")
    if document and (later := _unlisted_after(reply, lines, block)) is not None:
        return (f"a block of {later.path!r} (line {later.span.start}) that the footer "
                "does not list and no fence opens follows it: a sample of the file's own "
                "showing a reply may have closed its fence, that block being the sample; "
                "list the file in the footer, or fence this one with a fence longer than "
                "any in it")
    return _unpaired_and_followed(reply, block, op)


def _bare_block_after(lines: Sequence[str], reply: Reply, block: FileBlock,
                      wrapper: g.Fence) -> FileBlock | None:
    """The file block whose header stands on the line right after the fence that closed
    ``block``, when a fence without a language that could have closed ``block``'s own
    (same character, at least as long) opens it; None. A sample of the file's own showing
    a header closes its fence at the sample's opening fence: the header follows at once,
    the sample's closing fence opens the header's file, and the rest of the file is its
    content (QA s48 helper-165 #3, #4: src/app.py written from a Markdown file's sample,
    or from the rest of a Python file whose docstring showed one, exit 0, the footer
    naming src/app.py)."""
    later = next((b for b in reply.blocks if b.span.start > block.span.end), None)
    if (not isinstance(later, FileBlock) or not later.fenced
            or later.header_span.start != block.span.end + 1):
        return None
    fence = _opening_fence(lines, later)
    if (fence is None or fence.info or fence.char != wrapper.char
            or fence.length < wrapper.length):
        return None
    return later


# Files whose text may show fenced samples (Markdown and plain-text documents); a fence
# without a language around a file says nothing of what it holds either.
_DOCUMENTS = frozenset({"", ".md", ".markdown", ".mdx", ".mdown", ".mkd", ".rmd", ".qmd",
                        ".txt", ".rst", ".adoc", ".org", ".ipynb"})
_DOCUMENT_INFO = frozenset({"", "markdown", "md", "mdx", "text", "txt", "rst", "gfm"})


# (a CI pipeline's file, whose ${{ }} are its expressions: no Go action)
_CI_FILE = re.compile(r"(?:^|/)(?:\.github/|\.azure|azure-pipelines)|pipelines?\.ya?ml$", re.I)


def _suffix(path: str) -> str:
    """A file name's last suffix, in lower case ("" for none, or a dot file's)."""
    name = path.rsplit("/", 1)[-1].lower()
    return name[name.rfind("."):] if "." in name.lstrip(".") else ""


def _prose(path: str) -> bool:
    """Whether a file is a document by its name (Markdown, plain text, no suffix), whatever
    its fence says."""
    return _suffix(path) in _DOCUMENTS


def _may_hold_samples(path: str, wrapper: g.Fence) -> bool:
    """Whether a file is read further for samples that may have closed its fence: what
    follows a program's file (a fence with its language) past the next block is its own
    (QA s48 helper-164 #3: a prose sample after the reply's edits held every file)."""
    return _prose(path) or wrapper.info in _DOCUMENT_INFO


def _opening_fence(lines: Sequence[str], block: FileBlock) -> g.Fence | None:
    """The fence that opens ``block``'s content (the first fence line after its header)."""
    return next((f for k in range(block.header_span.end, block.span.end)
                 if (f := g.fence_open(lines[k].strip())) is not None), None)


def _unlisted_after(reply: Reply, lines: Sequence[str], block: FileBlock) -> FileBlock | None:
    """An unfenced file block after ``block``, before the footer, that the footer does not
    name (a sample's ``--- File:`` line, its content running on: helper-161); None.
    Without a footer nothing is listed: such replies are held on other grounds."""
    if reply.footer is None:
        return None
    for later in reply.blocks:
        if (not isinstance(later, FileBlock) or later.span.start <= block.span.end
                or later.span.start >= reply.footer.span.start):
            continue
        if not later.fenced and not _listed(later.path, lines, reply.footer.span,
                                            reply.span.end):
            return later
    return None


def _unlisted_bare_next(reply: Reply, lines: Sequence[str],
                        block: FileBlock) -> FileBlock | None:
    """The block right after ``block``, when it is a file's the footer does not name,
    fenced by a fence without a language; None. A sample showing a reply inside a string
    of a language no reader knows (a PHP here-document) closes the file's fence, and the
    sample's own closing fence opens its file: src/app.py written from the rest of
    tool.php, exit 0 (QA s49 helper-175's languages left out)."""
    later = next((b for b in reply.blocks if b.span.start > block.span.end), None)
    if not (isinstance(later, FileBlock) and later.fenced):
        return None
    # (a sample naming the file itself is held however the footer lists it: its tail
    # was written over the file)
    itself = later.path.removeprefix("./") == block.path.removeprefix("./")
    if not itself and (reply.footer is None or later.span.start >= reply.footer.span.start
                       or _listed(later.path, lines, reply.footer.span, reply.span.end)):
        return None
    fence = _opening_fence(lines, later)
    return later if fence is not None and not fence.info else None


_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")


def _listed(path: str, lines: Sequence[str], footer: Span, end: int) -> bool:
    """Whether the footer's list names ``path``: a word of its item lines, or of a table's
    rows right after them, split at blanks and the marks around a path (list marks,
    links, emphasis, code; ``./`` dropped), or an item that is the path whole (a name
    with a space). QA s49 helper-184 b5, b7, b8 (./Makefile, |Makefile|, my notes.txt);
    helper-185, 186 (a word that holds the path is not it: src/app.py.bak, ~src/app.py;
    nor a table anywhere after the list)."""
    path = path.removeprefix("./")
    rows: list[str] = []  # (its list's items, numbered or not, a loose one too; or a
    kind = ""  # table; or one plain line right under it: of one kind, the first row's)
    for line in lines[footer.start:end]:
        text = line.strip()
        if not text:
            continue
        this = "item" if _ITEM.match(text) else "table" if text.startswith("|") else "plain"
        if this == "plain" and not kind and text.endswith(":"):
            continue  # (a lead-in, "These files:"; "Not src/app.py:" lists nothing)
        if text.startswith("#") or (kind and this != kind) or kind == "plain":
            break
        kind = this
        rows.append(line)
    for row in rows:
        raw = [w.rstrip(".").removeprefix("./")
               for w in re.split(r"[\s\[\](){}<>*`'\",:;|!?=\u201c\u201d\u2018\u2019]+", row)]
        if kind == "plain" and len([w for w in raw if w not in ("and", "&", "")]) > 6:
            return False  # (a sentence, no list: helper-187)
        words = {*raw, *(w.strip("_") for w in raw if w.startswith("_") and w.endswith("_")
                         and not path.startswith("_"))}
        item = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", row).strip(" *`")
        whole = item.removeprefix("./")
        if (path in words or whole == path or whole.startswith(path + " ")
                or whole.startswith(path + "` ")
                or (whole.endswith("/") and path.startswith(whole))):
            return True  # (a name with a split mark, notes(1).txt (new); a folder alone)
    return False


def _left_over(reply: Reply, lines: Sequence[str], block: FileBlock,
               wrapper: g.Fence) -> int | None:
    """The line of a bare fence after ``block`` that may close its fence, outside the fences
    of the blocks after it and not closing a sample opened in text with a language, up to
    the footer (or the reply's end); None (QA s48 helper-162 #1, helper-161).

    A sample of the file's own that closed its fence early leaves two fences after it: the
    sample's closing one and the file's. Between them may stand a console block (the sample
    showed a command: ``:rm notes.txt`` ran, the file was written cut, exit 0) or a file
    block (the sample showed a reply: its file was written from it), which the check of
    the text right after the file did not look past."""
    stop = reply.footer.span.start - 1 if reply.footer is not None else reply.span.end
    fenced = [(b.span.start, b.span.end) for b in reply.blocks
              if b.fenced and b.span.start > block.span.end]
    sample: g.Fence | None = None
    for at in range(block.span.end + 1, stop + 1):
        if any(a <= at <= b for a, b in fenced):
            continue
        line = lines[at - 1]
        if sample is not None:
            if sample.closes(line):
                sample = None
            continue
        if line[:4] == "    " or (fence := g.fence_open(line.lstrip(" "))) is None:
            continue
        if fence.info:
            sample = fence
        elif fence.char == wrapper.char and fence.length >= wrapper.length:
            return at
    return None


_MARKDOWN = frozenset({".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn", ".mdwn", ".livemd",
                       ".rmd", ".qmd"})
# CommonMark's HTML blocks that run to an end marker, not to a blank line (types 1-5):
# their start at a line's start (three spaces at most), and what ends each
_HTML_BLOCK = re.compile(r" {0,3}(?:<(pre|script|style|textarea)(?:[\s>]|$)|(<!--)|(<\?)"
                         r"|(<!\[CDATA\[)|(<![A-Za-z]))", re.I)
_HTML_BLOCK_END = {1: re.compile(r"</(?:pre|script|style|textarea)>", re.I),
                   2: re.compile("-->"), 3: re.compile(r"\?>"), 4: re.compile(r"\]\]>"),
                   5: re.compile(">")}


def _not_program(path: str, info: str, lines: Sequence[str]) -> bool:
    """Whether a file is no program a reader knows (markup, a template, a document, any
    other text): a program's template tags stand in its strings, no block of its own
    (QA s52 helper-214: a Python string '{% block x %}' held the file beside a template
    closing one)."""
    from reviewtui.core.protocol.open_shell import is_shell
    from reviewtui.core.protocol.open_strings import program_language

    if (path.endswith((".py", ".pyi", ".pyw")) or info in ("python", "py", "python3")
            or is_shell(path, info, lines)):
        return False
    return program_language(path, info, lines) in (None, "markup", "csv")


def _markdown(path: str, wrapper: g.Fence) -> bool:
    return _suffix(path) in _MARKDOWN or wrapper.info in ("markdown", "md", "gfm", "mdx")


def _open_html_block(lines: Sequence[str]) -> int | None:
    """The index of the line opening an HTML block that ``lines`` (a Markdown document's)
    leave open, read as CommonMark reads it: a ``<pre>``, ``<script>``, ``<style>`` or
    ``<textarea>`` block, a comment, an instruction, a CDATA section or a declaration,
    each starting a line outside a code sample and running to the line holding its end
    (blank lines and fence lines in it are its text). QA s52 helper-213: a README's
    ``<pre>`` or comment showing a reply closed the fence around it, exit 0."""
    fence: tuple[str, int] | None = None
    k = 0
    while k < len(lines):
        line = lines[k]
        moved, fence = _next_fence(line, fence)
        if not moved and fence is None and (m := _HTML_BLOCK.match(line)) is not None:
            kind = next(n for n in range(1, 6) if m.group(n))
            end, start = _HTML_BLOCK_END[kind], k
            # (a comment's end from its own "--": <!--> is whole, as CommonMark reads it)
            after = m.start(1) if kind == 1 else m.start(2) + 2 if kind == 2 else m.end()
            while end.search(line, after) is None:
                k, after = k + 1, 0
                if k == len(lines):
                    return start
                line = lines[k]
        k += 1
    return None


def _open_sample(lines: tuple[str, ...]) -> int | None:
    """The index of the line that opens a code sample ``lines`` leave open, as CommonMark
    reads fences, or None (QA s47 helper-158 L1: fence lines were counted, and a sample
    showing another kind of fence, a ``~~~`` one holding a ``` line, held a whole file).

    A fence line is three or more backticks or tildes indented by three spaces at most (a
    sample in a list item too, QA s47 helper-157 H1; deeper ones are code's own lines); a
    backtick fence's info string holds no backtick. A sample opened by ``n`` of a
    character is closed only by a bare run of at least ``n`` of the same; inside it every
    other line is its text. The fence around the file closed at the first line that
    closes it, so none inside does; a sample left open either gave its closing fence to
    the file's, or holds that line as its own text: the file may go on after it, either way.
    """
    opened: int | None = None
    fence: tuple[str, int] | None = None
    for k, line in enumerate(lines):
        moved, fence = _next_fence(line, fence)
        if moved:
            opened = k if fence is not None else None
    return opened


def _next_fence(line: str, fence: tuple[str, int] | None) -> tuple[bool, tuple[str, int] | None]:
    """Whether ``line`` opens or closes a code sample, as CommonMark reads fences (see
    :func:`_open_sample`), and the sample open after it (its character and length) given
    ``fence``, the one open before it."""
    stripped = line.lstrip(" ")
    if stripped[:1] not in ("`", "~") or len(line) - len(stripped) > 3:
        return False, fence
    run = len(stripped) - len(stripped.lstrip(stripped[0]))
    if run < 3:
        return False, fence
    rest = stripped[run:]
    if fence is None:
        if stripped[0] == "~" or "`" not in rest:
            return True, (stripped[0], run)
        return False, None
    if stripped[0] == fence[0] and run >= fence[1] and not rest.strip():
        return True, None
    return False, fence


def _unpaired_and_followed(reply: Reply, block: FileBlock, op: FullFile) -> str | None:
    """Why a file whose samples all close but whose fence lines do not pair up (a ``~~~``
    sample showing a ``` line) may go on past its fence all the same, or None.

    Its fence may have closed at a fence line of the file's own outside any sample (one
    that opens a sample, showing a reply: its header next). That sample's text is then
    read as blocks, and its closing fence and the file's are left over. A file block
    the footer does not list, a console block, or text with a fence after it before the
    footer may be that; with the footer alone or plain text after it the file is whole.
    These files were held whatever followed them while fence lines were counted (QA s47
    helper-158 L1): one followed by such blocks still is.
    """
    fences = [k for k, line in enumerate(op.lines) if _fence_line(line)]
    if len(fences) % 2 == 0:
        return None
    end = reply.footer.span.start if reply.footer is not None else 1 << 62
    listed = {entry.path for entry in reply.footer.entries} if reply.footer else set()
    later = [b for b in reply.blocks if block.span.end < b.span.start < end]
    unlisted = next((b for b in later if isinstance(b, FileBlock) and b.path not in listed),
                    None)
    what = next((f"a console block (line {b.span.start})" if isinstance(b, ConsoleBlock)
                 else f"a block of {b.path!r} (line {b.span.start})" for b in later
                 if isinstance(b, ConsoleBlock) or b is unlisted), None)
    if what is None:
        what = next((f"text with a fence (line {run.span.start + k})"
                     for run in reply.stray if block.span.end < run.span.start < end
                     for k, line in enumerate(run.lines) if _fence_line(line)), None)
    if what is None:
        return None
    return (f"its content's fence lines do not pair up (line {op.span.start + fences[-1]}) "
            f"and {what} follows it: a fence line of the file's own may have closed its "
            "fence, and what follows be the rest of it; fence the file with a fence longer "
            "than any in it")


def _indented_close(lines: Sequence[str], block: FileBlock) -> int | None:
    """The line (from 1) of the text right after ``block`` when the fence closing it is
    indented and that text is indented at least as far; None. A file's fence opens at a
    line's start, and a model closes it there too: an indented fence line closing it is
    the file's own, in text the file indents (a YAML block scalar's sample, whose header
    and fence lines, indented too, were read as a block of their own: the file was written
    cut, QA s50), and the text after it is the rest of the file."""
    close = lines[block.span.end - 1] if 0 < block.span.end <= len(lines) else ""
    width = len(close) - len(close.lstrip(" \t"))
    if width == 0:
        return None
    k = next((k for k in range(block.span.end, len(lines)) if lines[k].strip()), None)
    if k is None:
        return None
    after = lines[k]
    return k + 1 if len(after) - len(after.lstrip(" \t")) >= width else None


def _fence_line(line: str) -> bool:
    """A line CommonMark may read as a fence (indented by three spaces at most)."""
    return line[:4] != "    " and g.fence_open(line.lstrip(" ")) is not None


def _has_ops(block: FileBlock | ConsoleBlock) -> bool:
    return bool(block.ops if isinstance(block, FileBlock) else block.commands)


def _full_file(block: FileBlock | ConsoleBlock) -> bool:
    return isinstance(block, FileBlock) and any(isinstance(op, FullFile) for op in block.ops)


def _next_start(reply: Reply, blocks: list[FileBlock | ConsoleBlock], n: int) -> int:
    """The first line of what follows block ``n``: the next block or the footer."""
    footer = reply.footer.span.start if reply.footer else 1 << 62
    return min(blocks[n + 1].span.start, footer) if n + 1 < len(blocks) else footer


def _fence_after(reply: Reply, block: FileBlock | ConsoleBlock, until: int) -> int | None:
    """The first fence line of stray text right after ``block`` (no block between), when it
    is a bare one (the file's own sample's, or the file's, left over: a sample the model
    opens in prose names its language, QA s47 helper-154 L1), or the line of an unclosed
    fence opened there; None."""
    for run in reply.stray:
        if block.span.end < run.span.start < until:
            for k, line in enumerate(run.lines):
                if (fence := g.fence_open(line)) is not None:
                    return run.span.start + k if not fence.info else None
    return next((p.span.start for p in reply.problems if p.rule == "unclosed-fence"
                 and block.span.end < p.span.start < until), None)



