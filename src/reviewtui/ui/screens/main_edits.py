"""Deciding with the reviewer's own text: edit in place, edit the SEARCH, $EDITOR, split."""

from __future__ import annotations

from pathlib import PurePosixPath

from reviewtui.core.engine import Decision, OpResult, Verdict
from reviewtui.core.engine.filebytes import NO_TEXT_EDIT, takes_no_text
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.ui.screens.main_decisions import DecisionActions


class EditActions(DecisionActions):
    def action_edit(self) -> None:
        from reviewtui.ui.screens.edit import EditScreen, cannot_edit_in_place, edits_faithfully

        result = self.current()
        if result is None or isinstance(result.op, ConsoleCommand):
            self.action_no_edit()
            return
        if takes_no_text(result.op):
            self.notify(NO_TEXT_EDIT, severity="warning", markup=False)
            return
        text = self._editable_text(result)
        if not edits_faithfully(text):
            self.notify(cannot_edit_in_place("replacement", "edit it with E ($EDITOR)"),
                        severity="warning", markup=False)
            return

        def done(new_text: str | None) -> None:
            if new_text is not None:
                self.decide(Decision.edit(tuple(new_text.split("\n"))))

        self.app.push_screen(EditScreen(text, path=result.op.path), done)

    def action_no_edit(self) -> None:
        self.notify("a console command has no text to edit: y accepts it, n rejects it",
                    severity="warning")

    def action_edit_search(self) -> None:
        from reviewtui.ui.screens.edit import EditScreen, cannot_edit_in_place, edits_faithfully

        result = self.current()
        if result is None or not isinstance(result.op, Edit) or result.op.shape is not None:
            self.notify("only search/replace edits have a SEARCH to edit", severity="warning")
            return
        op = result.op
        search = result.decision.search if result.decision.search is not None else (
            op.search_lines)
        replacement = (result.decision.replacement
                       if result.decision.verdict is Verdict.EDITED else None)
        if not edits_faithfully("\n".join(search)):
            self.notify(cannot_edit_in_place("SEARCH", "nothing was changed"),
                        severity="warning", markup=False)
            return

        def done(new_text: str | None) -> None:
            if new_text is None:
                return

            def said() -> None:  # (once decided: the outcome before it named other lines)
                outcome = self.review.outcome(result.key)
                self.notify(f"SEARCH edited: {outcome.status} - {outcome.message}",
                            markup=False, severity="information"
                            if outcome.status is Status.APPLIED else "warning")

            self.decide(Decision.with_search(tuple(new_text.split("\n")), replacement),
                        [result.key], then=said)

        self.app.push_screen(EditScreen("\n".join(search), path=op.path, what="SEARCH"),
                             done)

    def _editable_text(self, result: OpResult) -> str:
        replacement = result.decision.replacement
        if replacement is not None:
            return "\n".join(replacement)
        op = result.op
        if isinstance(op, Edit):
            return "\n".join(op.replace_lines)
        assert isinstance(op, FullFile)
        return "\n".join(op.lines)

    def action_edit_external(self) -> None:
        result = self.current()
        if result is None or isinstance(result.op, ConsoleCommand):
            self.notify("only edits and full files have text to edit", severity="warning")
            return
        if takes_no_text(result.op):
            self.notify(NO_TEXT_EDIT, severity="warning", markup=False)
            return
        from reviewtui.ui.editor import edit_externally

        text = edit_externally(self.app, self._editable_text(result),
                               suffix=PurePosixPath(result.op.path).suffix)
        if text is not None:
            self.decide(Decision.edit(tuple(text.split("\n"))))

    def action_split(self) -> None:
        from reviewtui.ui.screens.hunks import HunkScreen, split_source

        result = self.current()
        source = split_source(result) if result is not None else "no operation selected"
        if isinstance(source, str):
            self.notify(source, severity="warning", markup=False)
            return

        def done(lines: tuple[str, ...] | None) -> None:
            if lines is not None:
                self.decide(source.decision_for(lines))

        self.app.push_screen(HunkScreen(source), done)
