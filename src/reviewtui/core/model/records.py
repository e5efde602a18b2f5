"""Immutable records for a parsed session: sessions, turns, replies and operations.

Every element keeps the 1-based, inclusive line span it came from in its source
file, so findings, outcomes and the UI can point at the exact lines the model wrote.
Texts are kept exactly as written; nothing here normalises paths or content.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from itertools import islice

from reviewtui.core.record import field, record
from reviewtui.core.record import replace as replace_record

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:  # only line-addressed edits carry one; their module loads with them
    from reviewtui.core.model.edit_shapes import Shape


@record(frozen=True, slots=True)
class Span:
    """Lines ``start``..``end`` (1-based, inclusive) of the source file."""

    start: int
    end: int

    def as_list(self) -> list[int]:
        return [self.start, self.end]


def join_lines(lines: tuple[str, ...]) -> str:
    """Lines to text: every line ends with a newline, so ``()`` and ``("",)`` differ."""
    return "".join(line + "\n" for line in lines)


class OpKind(StrEnum):
    CONSOLE = "console"
    EDIT = "edit"
    FULL_FILE = "full_file"


class CommandName(StrEnum):
    RM = "rm"
    MV = "mv"
    RN = "rn"
    UNDO = "undo"
    UNRM = "unrm"


@record(frozen=True, slots=True)
class ConsoleCommand:
    """One structural command line such as ``:mv -f src/a.js src/b.js``."""

    name: CommandName
    args: tuple[str, ...]
    force: bool
    text: str
    span: Span
    fenced: bool = True
    # Set by importers (apply_patch, unified diffs): each argument names one file exactly,
    # so no glob expansion and no directories (``Delete File: dir`` must fail, not recurse).
    literal: bool = False
    # A unified diff's deletion: the file's lines as the diff deletes them (None: not
    # known, as with ``git diff -D``). A file holding other lines is not removed.
    expect: tuple[str, ...] | None = None
    expect_blob: str = ""  # its git blob id from the diff's index line (abbreviated)
    expect_link: bool | None = None  # whether it is a symbolic link (None: not said)
    # Set by a git range's source on its checkout, never read from a session's text: why
    # this pure rename cannot be written as git's checkout writes it (the two paths'
    # attributes check its blob out otherwise); the command is refused with it.
    refused: str = ""
    # Likewise: git's checkout of the blob a deletion names (``expect_blob``), where it is
    # other bytes than the blob (re-encoded, ``$Id$`` expanded): the file may be removed;
    # True: its CRLF form (a file holding a NUL that a ``text`` attribute converts all the
    # same, which the deletion's own check takes for binary: QA s41 helper-126 M1).
    expect_form: bytes | bool | None = None
    kind: OpKind = field(default=OpKind.CONSOLE, init=False)

    @property
    def path(self) -> str | None:
        return self.args[0] if self.args else None


@record(frozen=True, slots=True)
class LineBytes:
    """What a byte-exact format (a unified diff) says of an edit's lines beyond their
    text, which never holds it: which SEARCH and which REPLACE lines (by position) end in
    CRLF, and whether the first of each starts with a byte order mark (a hunk at line 1).

    Where the SEARCH's endings and mark agree with the file's at the place it lands, the
    REPLACE is written with its own (``core/engine/endings.py``), as ``git apply`` would:
    a commit that changes line endings, adds LF lines to a CRLF file or drops a BOM.
    Elsewhere the new lines take the file's conventions.
    """

    search_crs: frozenset[int] = frozenset()
    replace_crs: frozenset[int] = frozenset()
    search_bom: bool = False
    replace_bom: bool = False


@record(frozen=True, slots=True)
class GitForms:
    """What a git diff says of a file around one section (on its last operation), and what
    a converting checkout writes for it (core/engine/checkout.py).

    ``after_blob``: git's id of the file once the section is done (40 hex); ``before_blob``
    the id before it ("" for a new file), at ``before_path`` when the section moves the
    file there (a rename; "": the same path). The git source asks git what its
    checkout writes for them here (shell/git_checkout.py): ``checked_out`` for the blob
    after, where that is not the blob (bytes; True for the blob with each LF written CRLF,
    kept as a flag, as a copy of every version would double the memory of a range; the
    blob's own bytes where the one before was converted and this one is not), and
    ``checked_before`` likewise for the blob before (None: not converted, or not asked).
    ``encoding``: the ``working-tree-encoding`` a ``.gitattributes`` the range changes
    gives the file at its last commit; git writes it re-encoded, the review as UTF-8, so
    the operation is refused. ``unsettled``: the path (the file's, or its rename's
    source) whose attributes the range changes so that git checks it out otherwise by the
    rules of one commit than another's that matters to it: the review cannot write it as
    git would, refused too ("": none).
    """

    after_blob: str
    before_blob: str = ""
    checked_out: bytes | bool | None = None
    checked_before: bytes | bool | None = None
    encoding: str = ""
    before_path: str = ""
    unsettled: str = ""


@record(frozen=True, slots=True)
class GitApplyRule:
    """How ``git apply`` would write a file of a plain diff (no range's checkout forms) on
    the git checkout the review writes, where that checkout converts it (set by the shell,
    ``shell/git_apply_rules.py``, on each operation of the file's section; the engine's
    use: ``core/engine/git_apply.py``). Git reads the file before patching as it would
    store it and writes the result as its checkout would: LF where the file held CRLF,
    CRLF in a new file (QA s54 helper-229: 15 files of a real history written LF where
    ``git apply`` writes CRLF, exit 0).

    ``reads``: what reading does to the file's CRLF, git's ``crlf_to_git`` ("none"; "auto":
    CRLF to LF unless the file looks binary; "all": every CRLF); ``writes``: what the
    checkout does to each LF without a CR, ``crlf_to_worktree`` ("none"; "auto": unless the
    result holds a CR or looks binary; "all"). ``keep_crlf``: a context or removed line of
    the section ends in CRLF, so git reads the file as it is; ``adds_cr``: an added line
    does. ``ident``: the path expands ``$Id$``; ``encoding``: the ``working-tree-encoding``
    git re-encodes it to ("": none). ``last``: this operation ends the section (the one
    whose result is converted). ``held``: the number of an earlier turn that changes how
    git converts files (a ``.gitattributes``): git applies this one by rules the review
    does not follow, so it is refused (0: none); with ``held_if_cr``, only where the file
    or the operation holds a CR (the new rules can only turn CRLF into LF). ``source``:
    the path a rename's section finds the file at (read by that path's rules; "": its
    own). ``am``: a series (``git am``, which patches the index's blob, not the file git
    would read: a file of mixed line endings is its blob as it is)."""

    reads: str = "none"
    writes: str = "none"
    keep_crlf: bool = False
    adds_cr: bool = False
    ident: bool = False
    encoding: str = ""
    last: bool = False
    held: int = 0
    held_if_cr: bool = False
    source: str = ""
    am: bool = False


Hunk = tuple[int, tuple[str, ...], tuple[str, ...]]  # (0-based new-side line, old, new)


class EarlierHunks:
    """The hunks of a diff section before one of its hunks (``Edit.earlier``): a prefix of
    one tuple that the section's edits share. (A copy for each edit made a 4,000-hunk
    section hold 8 million entries: 72 MB and 0.4 s more to import.) Equal where the
    prefixes are equal; its hash is its length and last hunk's."""

    __slots__ = ("_all", "_count")

    def __init__(self, hunks: tuple[Hunk, ...] = (), count: int | None = None) -> None:
        self._all = hunks
        self._count = len(hunks) if count is None else count

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Hunk]:
        return islice(self._all, self._count)

    def __reversed__(self) -> Iterator[Hunk]:
        return (self._all[k] for k in range(self._count - 1, -1, -1))

    def last(self) -> Hunk:
        return self._all[self._count - 1]

    def before_last(self) -> EarlierHunks:
        return EarlierHunks(self._all, self._count - 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EarlierHunks) and self._count == other._count and (
            self._all is other._all or self._all[:self._count] == other._all[:other._count])

    def __hash__(self) -> int:
        return hash((self._count, self.last() if self._count else None))

    def __repr__(self) -> str:
        return f"EarlierHunks({self._count} hunks)"


NO_HUNKS = EarlierHunks()


@record(frozen=True, slots=True)
class DividerSplit:
    """Another reading of a File Ops edit whose lines between its SEARCH and REPLACE markers
    hold more than one divider-like line: the SEARCH ends before the divider on ``line``
    (1-based, in the source). The engine takes the one reading found in the file, or none
    (QA s47 helper-147 H6: a quoted git conflict or RST underline split the edit wrongly)."""

    line: int
    search_lines: tuple[str, ...]
    replace_lines: tuple[str, ...]


# ``Edit.codex``: an apply_patch chunk in a text of several patches (held where Codex's own
# search would not write it) or in a lone patch (noted); see core/engine/codex_seek.py.
CODEX_HOLD = "hold"
CODEX_NOTE = "note"


@record(frozen=True, slots=True)
class CodexChunk:
    """A later chunk of an apply_patch section, as Codex's search looks for it
    (``Edit.codex_later``): its ``@@`` line(s), old lines, ``*** End of File``, and the
    1-based line of the source where it starts."""

    anchor: tuple[str, ...]
    search_lines: tuple[str, ...]
    at_end: bool
    line: int


@record(frozen=True, slots=True)
class Edit:
    """A search/replace edit under a file header.

    ``number`` is the label the model wrote (``Edit 3``), ``None`` when unlabelled;
    ``ordinal`` is its 1-based position among the file block's edits.

    The optional fields carry what other formats say about where an edit goes (File Ops
    replies leave them at their defaults; see docs/formats.md):

    * ``anchor``: lines (an apply_patch ``@@`` header) found in order, exactly or
      whitespace-trimmed; the SEARCH must lie after the last one;
    * ``at_end``: the SEARCH must match the last lines of the file; with an empty
      SEARCH the REPLACE is appended to the file;
    * ``replace_all``: every occurrence is replaced instead of reporting ambiguity;
    * ``substring``: SEARCH and REPLACE are texts (``"\\n".join`` of the lines) matched
      exactly anywhere in the file, not whole lines (Claude Code's ``Edit``);
    * ``line_hint``: the 0-based line where SEARCH is expected (a unified diff's
      ``@@`` numbers): a match there wins over others, but it is only a hint;
    * ``final_newline``: whether the file ends with a newline afterwards (None: as it was);
    * ``at_start``: the SEARCH must be the file's first lines (a unified hunk at line 1);
    * ``follows``: searched first after where the previous edit of the same path in the
      turn ended (apply_patch chunks run in order); only then in the whole file;
    * ``later``: the SEARCH lines of the section's following edits, so that of several
      exact occurrences the only one that leaves room for them in order is taken;
    * ``literal``: the text is exact (a unified diff, apply_patch, Claude Code, tool calls):
      it has no elision semantics, so a ``...`` line is code, never a placeholder;
    * ``codex``: an apply_patch chunk, checked against where Codex's own search puts it
      (``core/engine/codex_seek.py``): ``"hold"`` in a text of several patches, ``"note"``
      in a lone one; ``""`` for every other format;
    * ``aider``: a block of a reply an Aider history logs as applied, checked against
      where Aider's own matcher puts it (``core/engine/aider_seek.py``);
    * ``line_bytes``: for a format that carries the file's bytes (a unified diff), what
      its lines held beyond their text (:class:`LineBytes`); None: the file's conventions
      decide, as for a model's edit.
    """

    path: str
    ordinal: int
    number: int | None
    search_lines: tuple[str, ...]
    replace_lines: tuple[str, ...]
    span: Span
    search_span: Span
    replace_span: Span
    anchor: tuple[str, ...] = ()
    at_end: bool = False
    replace_all: bool = False
    substring: bool = False
    # Claude Code's deletion: a substring edit whose REPLACE is empty and whose text does
    # not end a line takes the newline after it too where the file holds one there (its
    # Edit tool removes the line, not only its text; QA s46 helper-142 H1).
    eats_newline: bool = False
    line_hint: int | None = None
    final_newline: bool | None = None
    at_start: bool = False
    follows: bool = False
    # The SEARCH lines of the edits that follow this one in its section, in order (an
    # apply_patch Update File): an occurrence they leave no room after is not a candidate.
    later: tuple[tuple[str, ...], ...] = ()
    # A line-addressed shape (line range, window, batch: reviewtui.core.model.edit_shapes)
    # says where the edit goes instead of SEARCH alone; None for a plain search/replace.
    shape: Shape | None = None
    literal: bool = False
    line_bytes: LineBytes | None = None
    # A unified hunk of a section whose git index line is known (and whose lines hold no
    # CR, BOM or missing final newline): the file's blob id before the section
    # (abbreviated, as the diff gives it), and each hunk of the section before this one
    # as (0-based line on the new side, old lines, new lines). When the file with those
    # hunks taken back has that id, the hunk's line number is exact (see
    # core/engine/preimage.py): it places an addition with no context (``-U0``); where it
    # does not hold, blank old lines, or a text found elsewhere too, are not placed by
    # the line number alone (QA s44 helper-134 H4).
    preimage: str = ""
    earlier: EarlierHunks = NO_HUNKS
    # What a git diff says of the file around its section (the section's last operation
    # only): see :class:`GitForms`.
    git_forms: GitForms | None = None
    # How git apply writes the file on the converting checkout the review writes (a
    # plain diff's section): see :class:`GitApplyRule`.
    git_apply: GitApplyRule | None = None
    # The edit read at each later divider-like line (its own fields hold the first): see
    # :class:`DividerSplit`; () when its body holds one divider.
    other_splits: tuple[DividerSplit, ...] = ()
    # An apply_patch chunk: checked against Codex's own search (core/engine/codex_seek.py):
    # "hold" among several patches (one Codex would refuse is held), "note" in a lone one.
    codex: str = ""
    # The first chunk of such a section: the section's later chunks, which Codex places
    # before it writes any (one it refuses: it writes none of them).
    codex_later: tuple[CodexChunk, ...] = ()
    # A block of an Aider history whose reply Aider logged as applied: checked against
    # where Aider's own matcher puts it (core/engine/aider_seek.py).
    aider: bool = False
    kind: OpKind = field(default=OpKind.EDIT, init=False)

    @property
    def search(self) -> str:
        return join_lines(self.search_lines)

    @property
    def replace(self) -> str:
        return join_lines(self.replace_lines)

    @property
    def label(self) -> int:
        return self.number if self.number is not None else self.ordinal


@record(frozen=True, slots=True)
class FileBytes:
    """What a source says about a file's bytes when it cannot say it in lines.

    ``kind`` is "literal" (``data`` is the new content), "delta" (``data`` is a git delta
    over the current content), "keep" (the content stays: only the mode changes),
    "missing" (the source says the file changed but carries no data, as git's
    ``Binary files a/x and b/x differ``: it cannot be applied) or "submodule" (the path is
    a git submodule whose commit changes: not a file's content, never applied) or
    "unread" (part of the file's diff could not be read: its patch is not whole).
    ``old_id``/``new_id`` are git blob ids (40 hex) when the source gives them in full, for
    verification; for a submodule, the commits it moves from and to (as given).

    A git checkout may write a blob otherwise than git stores it (``core.autocrlf``: CRLF
    line endings); ``checkout`` then holds what it writes for the blob ``old_id`` and for
    ``new_id`` at this path (None: the blob as it is), and the blob ``old_id`` itself,
    which a delta is made from (see :class:`CheckoutForms`; the git source fills it in,
    asking git itself).
    """

    kind: str
    data: bytes = b""
    old_id: str = ""
    new_id: str = ""
    checkout: CheckoutForms | None = None


@record(frozen=True, slots=True)
class CheckoutForms:
    """What a git checkout writes for a binary patch's two blobs at its path, where that
    is not the blob itself (:class:`FileBytes`): ``old`` the checkout of ``old_id`` (the
    bytes the patch then applies to), ``old_blob`` that blob, ``new`` the checkout of
    ``new_id`` and ``new_blob`` that blob (None both: the blob as it is)."""

    old: bytes
    old_blob: bytes
    new: bytes | None = None
    new_blob: bytes | None = None


@record(frozen=True, slots=True)
class FullFile:
    """The whole content of a file, as written under its header.

    ``final_newline`` is False only when a source says the file ends without one (a
    unified diff's ``\\ No newline at end of file``, a Claude Code ``Write``). ``literal``
    as for :class:`Edit`: exact text, never judged for truncation placeholders.
    ``mode`` is the file's mode afterwards when the source states one (git's
    ``new file mode``/``new mode``; 0o120000 is a symbolic link whose target is the
    content); ``payload`` replaces ``lines`` for content a text format cannot carry.
    ``creates``: the file did not exist where the source was made, so one that exists
    with other content is not overwritten.
    """

    path: str
    lines: tuple[str, ...]
    span: Span
    final_newline: bool = True
    mode: int | None = None
    payload: FileBytes | None = None
    literal: bool = False
    creates: bool = False  # the source says the file is new (``--- /dev/null``)
    was: tuple[str, ...] | None = None  # a link's old target, as the source says it
    git_forms: GitForms | None = None  # as for :class:`Edit`
    git_apply: GitApplyRule | None = None  # as for :class:`Edit`
    kind: OpKind = field(default=OpKind.FULL_FILE, init=False)

    @property
    def content(self) -> str:
        text = join_lines(self.lines)
        return text if self.final_newline else text[:-1]


Operation = ConsoleCommand | Edit | FullFile


@record(frozen=True, slots=True)
class FileBlock:
    """A ``--- File: path ---`` header and what follows it."""

    path: str
    header_span: Span
    span: Span
    ops: tuple[Edit | FullFile, ...]
    fenced: bool = False


@record(frozen=True, slots=True)
class ConsoleBlock:
    span: Span
    commands: tuple[ConsoleCommand, ...]
    fenced: bool


@record(frozen=True, slots=True)
class FooterEntry:
    path: str
    note: str
    span: Span


@record(frozen=True, slots=True)
class Footer:
    span: Span
    entries: tuple[FooterEntry, ...]


@record(frozen=True, slots=True)
class TextRun:
    """Lines that are neither blocks nor footer: prose the protocol forbids."""

    span: Span
    lines: tuple[str, ...]
    after_footer: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@record(frozen=True, slots=True)
class ParseProblem:
    """Something the parser could not read as the grammar says; lint reports it."""

    rule: str
    message: str
    span: Span
    severity: str = "error"
    # A change the session's agent made, or may have made, that no operation carries (a
    # Claude Code sub-agent's edits kept in its own transcript, a notebook edit, a shell
    # command that changes files, a call with no result): ``apply`` says so and exits 1.
    unmade: bool = False


@record(frozen=True, slots=True)
class Reply:
    """One model reply: blocks in the order written, then the footer."""

    span: Span
    blocks: tuple[FileBlock | ConsoleBlock, ...]
    footer: Footer | None
    need: tuple[str, ...]
    need_span: Span | None
    stray: tuple[TextRun, ...]
    problems: tuple[ParseProblem, ...]

    @property
    def ops(self) -> tuple[Operation, ...]:
        """Every operation in reply order."""
        out: list[Operation] = []
        for block in self.blocks:
            if isinstance(block, ConsoleBlock):
                out.extend(block.commands)
            else:
                out.extend(block.ops)
        return tuple(out)

    @property
    def file_blocks(self) -> tuple[FileBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, FileBlock))

    @property
    def console_blocks(self) -> tuple[ConsoleBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ConsoleBlock))


@record(frozen=True, slots=True)
class Turn:
    index: int
    request: str
    reply: Reply
    span: Span
    heading_span: Span | None = None


def literal_reply(reply: Reply) -> Reply:
    """``reply`` with every file operation marked ``literal`` (exact text, no elision);
    ``reply`` itself when they all are already."""
    if all(op.literal for block in reply.blocks if isinstance(block, FileBlock)
           for op in block.ops):
        return reply
    blocks = tuple(
        replace_record(block, ops=tuple(op if op.literal else
                                             replace_record(op, literal=True)
                                             for op in block.ops))
        if isinstance(block, FileBlock) else block
        for block in reply.blocks)
    return replace_record(reply, blocks=blocks)


@record(frozen=True, slots=True)
class Session:
    source: str
    title: str
    meta: str
    turns: tuple[Turn, ...]
    problems: tuple[ParseProblem, ...] = ()
    # Where the session came from: "fileops", "chat", "apply_patch", "aider", "unified"
    # or "claude" (reviewtui.core.importers.FORMATS).
    format: str = "fileops"


def literal_session(session: Session) -> Session:
    """``session`` with every file operation marked ``literal``: what importers of formats
    that carry exact text (unified diffs, apply_patch, Claude Code, tool calls) return.
    Turns already literal are kept as they are (the session itself when all are)."""
    turns = []
    changed = False
    for turn in session.turns:
        reply = literal_reply(turn.reply)
        if reply is not turn.reply:
            turn = replace_record(turn, reply=reply)
            changed = True
        turns.append(turn)
    return replace_record(session, turns=tuple(turns)) if changed else session
