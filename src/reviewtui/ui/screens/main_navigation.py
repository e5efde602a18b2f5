"""Navigation keys: operations, files, checkpoints, the tree, go to edit N, search."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from reviewtui.core.engine import OpResult
from reviewtui.core.engine.opstate import OpState
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.ui.screens.main_cursor import ReviewCursor
from reviewtui.ui.screens.search import SearchScreen
from reviewtui.ui.widgets.lists import unread_parts


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
        if not self.session_turns or not delta:
            return
        here = (self.turn_pos, self.op_pos)
        on_op = 0 <= self.op_pos < self._op_count(self.turn_pos)
        found = here if on_op else None  # at either end: stay (shown again)
        passed = self._results_from(here, 1 if delta > 0 else -1)
        # Off an operation (a turn without any): the nearest one that way.
        for tp, opp, _ in islice(passed, abs(delta) if on_op else 1):
            found = (tp, opp)
        if found is not None:
            self.select(*found)

    def action_next_file(self, delta: int) -> None:
        """The first operation of the next (``delta`` 1) or previous (-1) run of another
        file's operations in reading order. Walks only the operations it passes (a list
        of every operation of a 50,000-operation session took the loop ~0.1 s a key)."""
        if not self.session_turns:
            return
        current = self.result(self.turn_pos, self.op_pos)
        here = (self.turn_pos, self.op_pos) if current is not None else self._first_op()
        if here is None:
            return
        current_path = getattr(self.result(*here), "op", None)
        current_path = getattr(current_path, "path", None)
        found: tuple[int, int] | None = None
        path_found: str | None = None
        for tp, opp, result in self._results_from(here, delta):
            path = _file_path(result)
            if found is None:
                if path is not None and path != current_path:
                    found = (tp, opp)
                    if delta > 0:
                        break
                    path_found = path
            elif path == path_found:  # `{` lands like `}`: on the first of that run
                found = (tp, opp)
            else:
                break
        if found is not None:
            self.select(*found)

    def action_next_problem(self) -> None:
        """The next operation in conflict or that did not apply, in reading order after the
        cursor and round again from the first turn; says so when there is none. Reads the
        states the screen already holds (every turn evaluated so far): no evaluation here."""
        states = self._turn_states
        turns = len(states)
        if not turns:
            return
        here_turn = min(self.turn_pos, turns - 1)
        for step in range(turns + 1):
            tp = (here_turn + step) % turns
            start = self.op_pos + 1 if step == 0 else 0
            stop = self.op_pos + 1 if step == turns else len(states[tp])
            for opp in range(start, stop):
                if states[tp][opp] in _PROBLEMS:
                    self.select(tp, opp)
                    return
        self.notify("no operation is in conflict or failed to apply")

    def _first_op(self) -> tuple[int, int] | None:
        """The first operation of the session (where ``{`` and ``}`` start from when the
        cursor is on a turn without operations)."""
        for tp in range(len(self.session_turns)):
            if self._op_count(tp):
                return tp, 0
        return None

    def _results_from(self, here: tuple[int, int], step: int
                      ) -> Iterator[tuple[int, int, OpResult]]:
        """Results in reading order after (``step`` 1) or before (-1) position ``here``,
        evaluating a turn only when the walk reaches it."""
        tp, opp = here
        turns = len(self.session_turns)
        while 0 <= tp < turns:
            count = self._op_count(tp)
            results = self.review.display.turns[tp].results
            opp += step
            while 0 <= opp < count:
                yield tp, opp, results[opp]
                opp += step
            tp += step
            if 0 <= tp < turns:
                opp = -1 if step > 0 else self._op_count(tp)

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

        # Every turn: one the background evaluation has not reached is listed too.
        states = self._turn_states
        rows = [(t.index, t.request, states[pos] if pos < len(states) else None)
                for pos, t in enumerate(self.session_turns)]
        unread = {t.index: n for t in self.session_turns if (n := unread_parts(t))}

        def done(choice: int | None) -> None:
            if choice is not None:
                self.go_checkpoint(choice)

        self.app.push_screen(CheckpointPicker(rows, self.checkpoint, unread), done)

    def action_search(self) -> None:
        self.app.push_screen(SearchScreen(list(self.session_turns), self.review.decisions,
                                          (self.turn_pos, self.op_pos), reply_to=self))

    def on_search_screen_found(self, message: SearchScreen.Found) -> None:
        message.stop()
        self.select(message.turn_pos, message.op_pos)
        self.refresh_status(note=message.note)


_PROBLEMS = frozenset({OpState.CONFLICT, OpState.NOT_FOUND, OpState.AMBIGUOUS,
                       OpState.NEEDS_REVIEW, OpState.REFUSED})


def _file_path(result: OpResult) -> str | None:
    op = result.op
    return op.path if isinstance(op, Edit | FullFile) else None
