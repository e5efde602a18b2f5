"""The review screen's keys: every binding with its id (remap it in config.toml [keys])
and the palette-only commands. The actions live in the screen's rooms (main_*.py)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

MAIN_BINDINGS: list[BindingType] = [
    Binding("y,space", "accept", "Accept", id="accept",
            tooltip="accept this operation; the cursor moves to the next undecided one"),
    Binding("n", "reject", "Reject", id="reject",
            tooltip="reject it: later edits are re-evaluated as if it was never written"),
    Binding("N", "reject_reason", "Reject with reason", show=False, id="reject-reason",
            tooltip="reject it with a one-line reason (kept for the next prompt: "
                    "export --format context)"),
    Binding("a", "accept_file", "Accept file", show=False, id="accept-file",
            tooltip="accept this and the later undecided operations of this file in "
                    "the turn"),
    Binding("d", "reject_file", "Reject file", show=False, id="reject-file",
            tooltip="reject this and the later undecided operations of this file in "
                    "the turn"),
    Binding("A", "accept_turn", "Accept turn", id="accept-turn",
            tooltip="accept every pending operation of the turn that applies (asks)"),
    Binding("F", "force", "Force", show=False, id="force",
            tooltip="accept a near match or a duplicate-line refusal after seeing it"),
    Binding("e", "edit", "Edit", id="edit",
            tooltip="edit the replacement in place (ctrl+s applies, escape cancels)"),
    # Where Edit is off (a console command: not in the bar), the key says why rather
    # than nothing: Textual tries a key's next binding when the first is off.
    Binding("e", "no_edit", "Why no Edit", show=False, id="edit-console",
            tooltip="on a console command (no text to edit): say so"),
    Binding("ctrl+e", "edit_search", "Edit SEARCH", show=False, id="edit-search",
            tooltip="edit the SEARCH of a failed edit in place and run the matching "
                    "cascade on it again (ctrl+s applies, escape cancels)"),
    Binding("E", "edit_external", "$EDITOR", show=False, id="edit-external",
            tooltip="edit the replacement in $VISUAL / $EDITOR"),
    Binding("s", "split", "Split", show=False, id="split",
            tooltip="split the edit into its change blocks; take some blocks, or lines "
                    "with v there"),
    Binding("u,ctrl+z", "undo", "Undo", id="undo",
            tooltip="undo the last decision (a bulk key is one step)"),
    Binding("U,ctrl+r", "redo", "Redo", show=False, id="redo",
            tooltip="redo the last undone decision"),
    Binding("j,down", "cursor(1)", "Down", show=False, id="down",
            tooltip="next operation of this turn"),
    Binding("k,up", "cursor(-1)", "Up", show=False, id="up",
            tooltip="previous operation of this turn"),
    Binding("J,right_square_bracket", "next_op(1)", "Next op", show=False, id="next-op",
            tooltip="next operation, across turns"),
    Binding("K,left_square_bracket", "next_op(-1)", "Prev op", show=False, id="prev-op",
            tooltip="previous operation, across turns"),
    Binding("right_curly_bracket", "next_file(1)", "Next file", show=False,
            id="next-file", tooltip="first operation of the next file"),
    Binding("left_curly_bracket", "next_file(-1)", "Prev file", show=False,
            id="prev-file", tooltip="first operation of the previous file"),
    Binding("exclamation_mark", "next_problem", "Next problem", show=False,
            id="next-problem", tooltip="next operation in conflict or that did not apply "
                                       "(not found, ambiguous, near match, refused), "
                                       "across turns, from the top again after the last"),
    Binding("full_stop", "checkpoint(1)", "Next cp", id="next-checkpoint",
            tooltip="next checkpoint (read-only scrubbing: nothing is written)"),
    Binding("comma", "checkpoint(-1)", "Prev cp", show=False, id="prev-checkpoint",
            tooltip="previous checkpoint"),
    Binding("t", "tree", "Tree", show=False, id="tree",
            tooltip="the whole tree as it stood at this checkpoint (read-only)"),
    Binding("T", "pick_checkpoint", "Checkpoints", show=False, id="pick-checkpoint",
            tooltip="pick a checkpoint from a list of turns with their requests"),
    Binding("ctrl+t", "restore", "Restore", show=False, id="restore",
            tooltip="restore the current checkpoint onto disk (previews, then asks)"),
    Binding("P", "unpin", "Unpin disk", show=False, id="unpin",
            tooltip="after ctrl+t: unpin the disk and replay every decision onto it"),
    Binding("V", "toggle_mode", "Split/unified", show=False, id="toggle-mode",
            tooltip="side-by-side or unified diff"),
    Binding("H", "toggle_hashline", "Line ids", show=False, id="toggle-hashline",
            tooltip="show every line's id (12:a3) instead of its number"),
    Binding("W", "toggle_whitespace", "Whitespace", show=False, id="toggle-whitespace",
            tooltip="ignore whitespace in the diff"),
    Binding("R", "toggle_request", "Request", show=False, id="toggle-request",
            tooltip="fold / unfold the turn's whole request above the operation"),
    Binding("w", "toggle_wrap", "Wrap", show=False, id="toggle-wrap",
            tooltip="wrap long diff lines (default) or scroll them sideways (← →)"),
    Binding("b", "toggle_panel", "Side panel", show=False, id="toggle-panel",
            tooltip="hide / show the turn and operation lists (the diff takes the width)"),
    Binding("left", "scroll_diff(-8)", "Scroll left", show=False, id="scroll-left",
            tooltip="scroll the diff left (long lines, wrapping off)"),
    Binding("right", "scroll_diff(8)", "Scroll right", show=False, id="scroll-right",
            tooltip="scroll the diff right (long lines, wrapping off)"),
    Binding("minus", "context(-1)", "Less context", show=False, id="less-context",
            tooltip="fewer unchanged lines around changes"),
    Binding("plus", "context(1)", "More context", show=False, id="more-context",
            tooltip="more unchanged lines around changes"),
    Binding("x", "expand", "Expand", show=False, id="expand",
            tooltip="expand every collapsed region (or click one)"),
    Binding("c", "next_pane", "Next candidate", show=False, id="next-pane",
            tooltip="next candidate / location of a failed edit"),
    Binding("f", "toggle_findings", "Findings", id="findings",
            tooltip="the turn's lint findings; Enter jumps to the operation"),
    Binding("r", "raw", "Raw reply", show=False, id="raw",
            tooltip="the raw reply with findings marked in place"),
    Binding("g", "goto_edit", "Go to edit", show=False, id="goto",
            tooltip="jump to Edit N of this file"),
    Binding("slash", "search", "Search", show=False, id="search",
            tooltip="search paths, SEARCH/REPLACE and file text (enter / up: "
                    "next / previous)"),
    Binding("question_mark", "help", "Help", id="help", tooltip="this list"),
    Binding("colon", "app.command_palette", "Commands", show=False, id="commands",
            tooltip="the command palette (also ctrl+p): every action by name"),
    Binding("q", "quit_review", "Quit", id="quit",
            tooltip="quit (decisions are already saved; asks if files are in conflict "
                    "or held open elsewhere)"),
    Binding("tab", "app.focus_next", "Focus", show=False, id="focus-next",
            tooltip="move focus between the lists, the diff and the findings"),
    Binding("S", "stats", "Statistics", show=False, id="stats",
            tooltip="session statistics with bar charts (reviewtui stats)"),
    Binding("G", "commit_turns", "Commit turns", show=False, id="commit-turns",
            tooltip="git sessions: commit the accepted turns, one commit per turn"),
]

# Palette-only commands (no key): the exports of `reviewtui export`.
MAIN_EXTRA_COMMANDS = [
    (f"Export: {fmt}", f"write the accepted result {what} beside the session",
     f"export('{fmt}')")
    for fmt, what in (("patch", "as a unified diff that git apply accepts"),
                      ("markdown", "as a review report"),
                      ("json", "as a JSON report"),
                      ("fileops", "as canonical File Ops replies"))
]


def keymap_problems(keymap: dict[str, str]) -> list[str]:
    """What a ``[keys]`` remap of the review screen's keys gets wrong, said when it is read
    (QA s45 helper-137 #5: ``accept = "q"`` took ``q`` from quit without a word, so ``q``
    accepted and wrote): an id no binding has, a key another binding keeps."""
    keys_of = {b.id: keymap.get(b.id, b.key) for b in MAIN_BINDINGS
               if isinstance(b, Binding) and b.id}
    problems = [f"[keys] {name}: no key of the review screen has that id (the ids: "
                f"{', '.join(sorted(keys_of))})" for name in keymap if name not in keys_of]
    held: dict[str, str] = {}
    for name, keys in keys_of.items():
        for key in (k.strip() for k in keys.split(",") if k.strip()):
            other = held.setdefault(key, str(name))
            if other != name and (name in keymap or other in keymap):
                problems.append(f"[keys] {key!r} is both {other}'s and {name}'s key: "
                                f"only one of them can have it; give the other another")
    return problems
