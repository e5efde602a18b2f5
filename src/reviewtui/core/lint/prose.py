"""Rules about stray text: anything in a reply that is neither a block nor the footer.

The parser already keeps stray text out of files; these rules say why it should not
be there at all. Consecutive stray runs with no block between them (a paragraph
split by blank lines) form one *stretch* and get one finding. Each stretch before
the footer gets exactly one of three ids, the most specific that fits:

* ``preamble`` — the stretch opens the reply and reads like an introduction;
* ``recap`` — the stretch closes the blocks (just before the footer) and reads
  like a summary;
* ``prose-before-footer`` — any other stray text before the footer.

So an introduction is reported once, as ``preamble``, never also as prose.
Stretches after the footer are ``text-after-footer``. ``recap-in-file`` covers the
recap the parser could not see as prose: the last paragraph of an unfenced full
file, which would be written into the file.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from reviewtui.core.lint.base import Hit, LintContext, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.model.records import FileBlock, FullFile, Span, TextRun
from reviewtui.core.record import record
from reviewtui.core.text.lazy_pattern import LazyPattern

_VERBS = (
    r"updated|changed|added|removed|fixed|modified|made|renamed|moved|created|refactored|"
    r"implemented|replaced|deleted|introduced|extracted|kept|left|adjusted|wrapped|split|merged"
)
PREAMBLE_RE = LazyPattern(  # compiled on first use (start-up)
    r"""^(?:
        sure|certainly|of\ course|absolutely|okay|ok|alright|all\ right|great|got\ it|
        understood|no\ problem|happy\ to|glad\ to|yes|hello|hi|hey|thanks|thank\ you|
        sorry|apologies|i\ apologi[sz]e|you(?:'re|’re|\ are)\ right|good\ (?:question|catch|point)|
        it\ (?:looks|seems)\ like|as\ requested|
        here(?:'s|’s|\ is|\ are)|below\ (?:is|are)|the\ following|
        i(?:'ll|’ll|'m|’m|'d|’d|\ will|\ would|\ am|\ can|\ need\ to|\ see|\ understand)|
        let\ me|let's|let’s|let\ us|we(?:'ll|’ll|\ will|\ need\ to|\ can|\ should)|
        to\ (?:do|fix|implement|add|address|achieve|make|support|solve|handle)
            \ (?:this|that|the|it)|
        first(?:,|\ of\ all|\ i|\ we)|in\ order\ to|
        you\ (?:want|asked|need|'d\ like|would\ like)|based\ on|looking\ at|
        this\ (?:reply|response|answer|patch|change)\ (?:will|adds|updates|implements)
    )(?!\w)""",
    re.IGNORECASE | re.VERBOSE,
)
RECAP_RE = LazyPattern(  # compiled on first use (start-up)
    rf"""^(?:
        summary|in\ summary|to\ summari[sz]e|overall|recap|changes(?:\ made)?|what\ changed|
        key\ changes|
        this\ (?:change|patch|update|edit|fix|commit|reply|refactor(?:ing)?|should|will|
               ensures|makes|keeps|adds|removes|fixes|updates|way)|
        these\ (?:changes|edits|updates)|the\ (?:above\ )?(?:changes|edits|patch|update)|
        with\ (?:this|these)\ changes?|now,?\ (?:the|it|you|all|every)|
        that(?:'s|’s|\ is)\ (?:it|all)|done|all\ done|
        i(?:'ve|’ve|\ have)\ (?:\w+\ )?(?:{_VERBS}|also)|
        (?:{_VERBS})|
        let\ me\ know|hope\ (?:this|that)\ helps|feel\ free|you\ can\ now
    )(?!\w)""",
    re.IGNORECASE | re.VERBOSE,
)
# Markdown decoration in front of a sentence: headings, quotes, bullets, emphasis.
_DECORATION = LazyPattern(  # compiled on first use (start-up)
    r"^[\s#>*_+\-]*(?:\d+[.)]\s+)?")


def _reads_like(pattern: LazyPattern, lines: tuple[str, ...]) -> bool:
    for line in lines:
        text = _DECORATION.sub("", line).strip()
        if text and pattern.match(text):
            return True
    return False


@record(frozen=True, slots=True)
class Stretch:
    """Stray runs with no block between them."""

    span: Span
    lines: tuple[str, ...]
    after_footer: bool
    head: bool  # nothing but stray text comes before it
    tail: bool  # no block comes after it (before the footer)

    @property
    def quote(self) -> str:
        first = next((ln.strip() for ln in self.lines if ln.strip()), "")
        return first if len(first) <= 48 else first[:45] + "..."


def stretches(ctx: LintContext) -> list[Stretch]:
    return ctx.memo(_stretches)


def _stretches(ctx: LintContext) -> list[Stretch]:
    reply = ctx.reply
    blocks: list[Span] = []
    for block in reply.blocks:
        if isinstance(block, FileBlock):
            blocks.append(block.header_span)
            blocks.extend(op.span for op in block.ops)
        else:
            blocks.append(block.span)
    walls = [span.start for span in blocks]
    if reply.footer is not None:
        walls.append(reply.footer.span.start)
    if reply.need_span is not None:
        walls.append(reply.need_span.start)
    walls.sort()

    def wall_between(first: int, last: int) -> bool:
        k = bisect_right(walls, first)
        return k < len(walls) and walls[k] < last

    groups: list[list[TextRun]] = []
    for run in sorted(reply.stray, key=lambda r: r.span.start):
        if groups:
            prev = groups[-1][-1]
            if prev.after_footer == run.after_footer and not wall_between(prev.span.end,
                                                                          run.span.start):
                groups[-1].append(run)
                continue
        groups.append([run])

    first_block = min((b.start for b in blocks), default=None)
    last_block = max((b.end for b in blocks), default=None)
    out: list[Stretch] = []
    for group in groups:
        span = Span(group[0].span.start, group[-1].span.end)
        out.append(Stretch(
            span=span,
            lines=tuple(line for run in group for line in run.lines),
            after_footer=group[0].after_footer,
            head=first_block is None or first_block > span.end,
            tail=last_block is None or last_block < span.start,
        ))
    return out


def classify(stretch: Stretch) -> str:
    """The one rule id a stretch before the footer is reported under."""
    if stretch.head and _reads_like(PREAMBLE_RE, stretch.lines):
        return "preamble"
    if stretch.tail and _reads_like(RECAP_RE, stretch.lines):
        return "recap"
    return "prose-before-footer"


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


@rule("prose-before-footer", Severity.ERROR,
      "text before the footer that is neither a console block nor a file block")
def prose_before_footer(ctx: LintContext) -> Iterator[Hit]:
    for s in stretches(ctx):
        if not s.after_footer and classify(s) == "prose-before-footer":
            yield Hit(s.span, f"{_lines(len(s.lines))} of stray text ({s.quote!r}): before the "
                      "footer only blocks may appear; text there is not applied and can hide a "
                      "broken block")


@rule("preamble", Severity.WARNING, "the reply opens with an introduction or an echo of the "
      "request")
def preamble(ctx: LintContext) -> Iterator[Hit]:
    for s in stretches(ctx):
        if not s.after_footer and classify(s) == "preamble":
            yield Hit(s.span, f"the reply opens with an introduction ({s.quote!r}); it costs "
                      "tokens and tells the applier nothing: start with the first block")


@rule("recap", Severity.WARNING, "a summary of the changes between the last block and the "
      "footer")
def recap(ctx: LintContext) -> Iterator[Hit]:
    for s in stretches(ctx):
        if not s.after_footer and classify(s) == "recap":
            yield Hit(s.span, f"a recap before the footer ({s.quote!r}); the footer already "
                      "lists what changed, so this only costs tokens")


@rule("text-after-footer", Severity.WARNING, "text after the footer other than a Need: line")
def text_after_footer(ctx: LintContext) -> Iterator[Hit]:
    for s in stretches(ctx):
        if s.after_footer:
            yield Hit(s.span, f"{_lines(len(s.lines))} of text after the footer ({s.quote!r}); "
                      "only a 'Need:' line of missing paths may follow it")


# Files whose content is prose anyway: a closing sentence there is not a recap.
_PROSE_FILES = (".md", ".markdown", ".txt", ".rst", ".adoc", ".org")
_CODE_CHARS = LazyPattern(r"[=(){}\[\];<>]")  # compiled on first use (start-up)


def trailing_recap(lines: tuple[str, ...]) -> int | None:
    """Index of a last paragraph that reads like a recap, if the content has one."""
    blank = max((k for k, line in enumerate(lines) if not line.strip()), default=None)
    if blank is None or blank + 1 >= len(lines):
        return None
    first = lines[blank + 1].strip()
    if first[:1].isalpha() and not _CODE_CHARS.search(first) and RECAP_RE.match(first):
        return blank + 1
    return None


@rule("recap-in-file", Severity.ERROR, "a recap swallowed into the end of an unfenced full file")
def recap_in_file(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        if block.fenced or block.path.lower().endswith(_PROSE_FILES):
            continue
        for op in block.ops:
            if isinstance(op, FullFile) and (k := trailing_recap(op.lines)) is not None:
                start = op.span.start + k
                yield Hit(Span(start, op.span.end), f"the full file {op.path!r} ends with a "
                          f"recap ({op.lines[k].strip()!r}) that would be written into the file; "
                          "without a fence, content runs until the next block or footer",
                          op.path)


RULES = (prose_before_footer, preamble, recap, recap_in_file, text_after_footer)
