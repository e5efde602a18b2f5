"""Navigation keys: operations, files, checkpoints, the tree, go to edit N, search."""

from __future__ import annotations

from reviewtui.core.model.records import Edit, FullFile
from reviewtui.ui.screens.main_cursor import ReviewCursor
from reviewtui.ui.screens.search import SearchScreen


class NavigationActions(ReviewCursor):

    def action_cursor(self, delta: int) -> None:
        results = self.review.display.turns[self.turn_pos].results if self.session_turns else ()
        if results:
            self.select(self.turn_pos, max(0, min(len(results) - 1, self.op_pos + delta)))

    def _op_count(self, turn_pos: int) -> int:
        """How many operations turn position ``turn_pos`` has (evaluating it if need be)."""
        self.review.evaluate_through(self.session_turns[turn_pos].index)
        return len(self.review.display.turns[turn_pos].results)

    def action_next_op(self, delta: int) -> None:
        """``delta`` operations on in reading order, across turns, stopping at either end.
        Walks only the turns it passes (a list of every operation of a 50,000-operation
        session took the event loop a tenth of a second a key)."""
        turns = self.session_turns
        if not turns or not delta:
            return
        step = 1 if delta > 0 else -1
        tp, opp = self.turn_pos, self.op_pos
        on_op = 0 <= opp < self._op_count(tp)
        left = abs(delta) if on_op else 1  # off an operation: the nearest one that way
        found = (tp, opp) if on_op else None
        while left:
            opp += step
            while not 0 <= opp < self._op_count(tp):
                tp += step
                if not 0 <= tp < len(turns):
                    if found is not None:
                        self.select(*found)  # at the end: stay (shown again)
                    return
                opp = 0 if step > 0 else self._op_count(tp) - 1
            found = (tp, opp)
            left -= 1
        if found is not None:
            self.select(*found)

    def action_next_file(self, delta: int) -> None:
        flat = list(self.iter_results())
        here = next((i for i, (tp, opp, _) in enumerate(flat)
                     if (tp, opp) == (self.turn_pos, self.op_pos)), 0)
        current_path = getattr(flat[here][2].op, "path", None) if flat else None

        def path_at(i: int) -> str | None:
            op = flat[i][2].op
            return op.path if isinstance(op, Edit | FullFile) else None

        steps = range(here + delta, len(flat) if delta > 0 else -1, delta)
        for i in steps:
            path = path_at(i)
            if path is not None and path != current_path:
                # `{` lands like `}`: on the first operation of that file's run.
                while delta < 0 and i > 0 and path_at(i - 1) == path:
                    i -= 1
                self.select(flat[i][0], flat[i][1])
                return

    def action_checkpoint(self, delta: int) -> None:
        self.go_checkpoint(self.checkpoint + delta)

    def action_goto_edit(self) -> None:
        from reviewtui.ui.screens.dialogs import PromptScreen

        def done(answer: str | None) -> None:
            if not answer or not answer.strip().isdigit():
                return
            number = int(answer)
            results = self.review.display.turns[self.turn_pos].results
            selected = self.current()
            current_path = getattr(selected.op, "path", None) if selected else None
            for opp, r in enumerate(results):
                if isinstance(r.op, Edit) and r.op.label == number and (
                    current_path is None or r.op.path == current_path):
                    self.select(self.turn_pos, opp)
                    return
            self.notify(f"no Edit {number} in this file and turn", severity="warning")

        self.app.push_screen(PromptScreen("Go to edit number:"), done)

    def action_tree(self) -> None:
        from reviewtui.ui.screens.tree import TreeScreen

        def done(checkpoint: int | None) -> None:
            if checkpoint is not None:
                self.go_checkpoint(checkpoint)

        self.app.push_screen(TreeScreen(self.review, self.checkpoint), done)

    def action_pick_checkpoint(self) -> None:
        from reviewtui.ui.screens.dialogs import CheckpointPicker

        rows = [(t.index, t.request, states) for t, states in
                zip(self.session_turns, self._turn_states, strict=False)]

        def done(choice: int | None) -> None:
            if choice is not None:
                self.go_checkpoint(choice)

        self.app.push_screen(CheckpointPicker(rows, self.checkpoint), done)

    def action_search(self) -> None:
        self.app.push_screen(SearchScreen(list(self.iter_results()),
                                          (self.turn_pos, self.op_pos), reply_to=self))

    def on_search_screen_found(self, message: SearchScreen.Found) -> None:
        message.stop()
        self.select(message.turn_pos, message.op_pos)
        self.refresh_status(note=message.note)
