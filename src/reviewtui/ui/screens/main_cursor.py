"""Moving around the review: selection, navigation keys, and keys that wait for a job.

While a review job runs (:mod:`reviewtui.ui.review_jobs`), keys, palette actions and
clicks wait and then act in order; outside changes and live arrivals are shown once the
review is idle again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from itertools import compress
from operator import is_not

from textual import on
from textual.dom import DOMNode
from textual.events import Key
from textual.widgets import OptionList

from reviewtui.core.engine import OpKey
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.outside import MSG_BEING_WRITTEN, MSG_BEING_WRITTEN_MANY
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.ui.diagnostics import op_badge
from reviewtui.ui.messages import OutsideChangeTaken, SessionGrew
from reviewtui.ui.opview import op_title
from reviewtui.ui.screens.main_panes import ReviewPanes
from reviewtui.ui.screens.review_states import ReviewStates, review_states
from reviewtui.ui.widgets.diff_render import sanitize
from reviewtui.ui.widgets.findings import FindingsPanel
from reviewtui.ui.widgets.lists import (
    OpList,
    TurnList,
    op_prompt,
    op_row_title,
    op_row_titles,
    turn_prompt,
    unread_parts,
)
from reviewtui.ui.widgets.status_line import StatusLine
from reviewtui.ui.widgets.timeline import Timeline


def changed_positions(before: Sequence[object], after: Sequence[object]) -> Iterator[int]:
    """Positions of ``after`` whose item is not the very one ``before`` held there, and
    those past its end. A job leaves the turns it did not change with their very lists:
    comparing identities in C keeps a 5,000-turn session's scan off the Python loop."""
    yield from compress(range(len(after)), map(is_not, before, after))
    yield from range(len(before), len(after))


class ReviewCursor(ReviewPanes):
    async def on_key(self, event: Key) -> None:
        if self.app.screen is not self:
            # An earlier key of the same read opened a screen (``t t``, ``s enter``): this
            # key is that screen's. Walked here it ran the new screen's binding before its
            # widgets were composed (NoMatches, the app gone: QA).
            event.stop()
            event.prevent_default()
            self._hand_on(event.key, event.character)
            return
        if self.jobs.backlog:
            # The review is changing in a thread: this key acts once it is done, in order.
            event.stop()
            event.prevent_default()
            self.jobs.when_idle(partial(self._replay_key, event.key, event.character))
            return
        # Its binding runs here, before the screen looks at the next key: left to bubble to
        # the app, two keys read at once (a paste, a slow link, ``send-keys y n``) both
        # passed the check above before the first one's binding had queued its job, so the
        # second acted on the operation the first had just decided, and a ``q`` quit before
        # an accept was saved (QA pass s31). The app's own binding walk (the focus chain,
        # an action that skips handing the key on), as the bubbled key would get.
        self._catch_up()
        if await self.app._check_bindings(event.key):  # noqa: SLF001
            event.stop()
            event.prevent_default()

    def _catch_up(self) -> None:
        """The cursor as the lists show it, before a key acts: a highlight message not read
        yet (``j y`` in one read with the turns list focused) left ``y`` on the turn before,
        accepting and writing another operation than the screen showed (QA s53 helper-226)."""
        for selector, handler in (("#turns", self._turn_highlighted),
                                  ("#ops", self._op_highlighted)):
            found = self.query(selector)
            listed = found.first(OptionList) if found else None
            if listed is not None and listed.highlighted is not None and listed.highlighted != (
                    self.turn_pos if selector == "#turns" else self.op_pos):
                index = listed.highlighted
                handler(OptionList.OptionHighlighted(listed, listed.get_option_at_index(index),
                                                     index))

    async def _replay_key(self, key: str, character: str | None) -> None:
        """A key that waited for a review job: run what it is bound to now."""
        if self.app.screen is not self:  # an earlier key opened a dialog: it goes there
            self._hand_on(key, character)
            return
        await self.app._check_bindings(key)  # noqa: SLF001  (as on_key: the binding walk)

    def _hand_on(self, key: str, character: str | None) -> None:
        """The key to the app again, which gives it to the screen shown, once that screen
        is mounted (its queue runs the callback after its on_mount: screens/ready.py)."""
        top = self.app.screen
        post = partial(self.app.post_message, Key(key, character).set_sender(self.app))
        if top.is_mounted:
            post()
        else:
            top.call_later(post)

    async def run_action(self, action: str,
                         namespaces: Mapping[str, DOMNode] | None = None) -> None:
        """The palette's way in: like a key, an action waits for a running review job."""
        if self.jobs.busy:
            self.jobs.when_idle(partial(self.call_later, self.run_action, action, namespaces))
            return
        await super().run_action(action, namespaces)

    def _show_progress(self, text: str) -> None:
        self.query_one(StatusLine).progress = text

    @on(OptionList.OptionHighlighted, "#turns")
    def _turn_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Messages arrive after the fact: act only on one that still describes the list.
        if event.option_list.highlighted != event.option_index:
            return
        if self.jobs.busy:  # a click while the review changes: once it is done
            self.jobs.when_idle(partial(self._turn_highlighted, event))
            return
        if event.option_index != self.turn_pos:
            self.turn_pos = event.option_index
            self.op_pos = 0
            self.checkpoint = self.session_turns[self.turn_pos].index
            self.refresh_turn()
            self.refresh_timeline()

    @on(OptionList.OptionHighlighted, "#ops")
    def _op_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.highlighted != event.option_index:
            return
        if self.jobs.busy:
            self.jobs.when_idle(partial(self._op_highlighted, event))
            return
        if event.option_index != self.op_pos:
            self.op_pos = event.option_index
            self.refresh_detail()

    @on(Timeline.Picked)
    def _timeline_picked(self, event: Timeline.Picked) -> None:
        self.go_checkpoint(event.checkpoint)

    @on(FindingsPanel.Jump)
    def _finding_jump(self, event: FindingsPanel.Jump) -> None:
        self.select_line(event.turn, event.line)

    def select(self, turn_pos: int, op_pos: int) -> None:
        changed_turn = turn_pos != self.turn_pos
        self.turn_pos, self.op_pos = turn_pos, op_pos
        if changed_turn:
            self.checkpoint = self.session_turns[turn_pos].index
            self.query_one("#turns", TurnList).highlighted = turn_pos
            self.refresh_turn()
            self.refresh_timeline()
        else:
            self.query_one("#ops", OpList).highlighted = op_pos
            self.refresh_detail()

    def select_line(self, turn_index: int | None, line: int) -> None:
        """Select the operation whose span holds ``line`` (a finding's line)."""
        for tp, opp, result in self.iter_results():
            if turn_index is not None and result.key[0] != turn_index:
                continue
            if result.op.span.start <= line <= result.op.span.end:
                self.select(tp, opp)
                return
        for tp, turn in enumerate(self.session_turns):
            if turn.index == turn_index:
                self.select(tp, 0)
                return

    def select_key(self, key: OpKey | None) -> bool:
        """Select the operation ``key`` (the one an undo or redo changed); False if none."""
        pos = next((p for p, t in enumerate(self.session_turns) if key and t.index == key[0]),
                   None)
        if key is not None and pos is not None:
            self.select(pos, key[1])
            return True
        return False

    def move_to_next_undecided(self) -> bool:
        """The next undecided operation in reading order, from the start of this turn
        (False: there is none, the cursor stays)."""
        complete = self.review.evaluation_complete
        found = self.states.next_undecided(self.turn_pos, wrap=complete)
        if found is None and not complete:  # the next one may be in a turn not yet evaluated
            self.review.finish_evaluation()
            # As after the last background slice: the rows of the turns just evaluated,
            # not the states alone (the rows then read "… evaluating" for good: the next
            # slice found no change to draw).
            self.turns_evaluated("")
            found = self.states.next_undecided(self.turn_pos)
        if found is not None:
            self.select(*found)
        return found is not None

    def go_checkpoint(self, checkpoint: int) -> None:
        """Scrub: show the session as it stood at ``checkpoint``. Nothing is written."""
        turns = self.session_turns
        if not turns:
            return
        checkpoint = max(0, min(turns[-1].index, checkpoint))
        self.checkpoint = checkpoint
        pos = max(0, next((p for p, t in enumerate(turns) if t.index >= checkpoint), 0))
        if pos != self.turn_pos:
            self.turn_pos, self.op_pos = pos, 0
            self.query_one("#turns", TurnList).highlighted = pos
            self.refresh_turn()
        self.refresh_timeline()

    def on_outside_change_taken(self, message: OutsideChangeTaken) -> None:
        """The watcher's change was taken in by the review: show what it did."""
        message.stop()
        self.jobs.when_idle(partial(self._outside_reported, message.report))

    def on_session_grew(self, message: SessionGrew) -> None:
        message.stop()
        self.jobs.when_idle(partial(self.session_grew, message.new, message.accepted,
                                    message.problem))

    def _outside_reported(self, report: ReplayReport) -> None:
        if report.unchanged:
            return  # its own write, seen by the watcher: drawing it again repaints the same
        self._report(report)
        self.refresh_after_decision()

    def session_grew(self, new: tuple[OpKey, ...], accepted: tuple[OpKey, ...],
                     problem: str) -> None:
        """A live session recorded operations: show them, and say so."""
        if problem:
            self.notify(problem, severity="error", timeout=10, markup=False)
            return
        was_empty = not self.review.display.turns or self.current() is None
        self.refresh_all()
        titles = [op_title(self.review.result(key).op) for key in new]
        shown = ", ".join(titles[:3]) + (f" and {len(titles) - 3} more" if len(titles) > 3
                                         else "")
        note = f"arrived: {shown}"
        if accepted:
            note += f" ({len(accepted)} accepted by the gate)"
        self.notify(note, markup=False)
        current = self.current()
        if was_empty or (current is not None and self.state_of(current).decided):
            first = next(((tp, opp) for tp, opp, r in self.iter_results() if r.key == new[0]),
                         None)
            if first is not None:
                self.select(*first)

    def _note_reevaluated(self, paths: list[str]) -> None:
        """Name the pending operations an outside change re-evaluated to another outcome."""
        changed = []
        states = self.states
        for tp, opp, result in self.iter_results():
            was = states.status_at(tp, opp, result.key)
            if (was is not None and was is not result.outcome.status
                    and not self.state_of(result).decided
                    and getattr(result.op, "path", None) in paths):
                label = op_row_title(result.op, 60)
                changed.append(f"turn {result.key[0]} {label}: now {result.outcome.status}")
        if changed:
            more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
            self.notify("outside change re-evaluated " + "; ".join(changed[:3]) + more,
                        severity="warning", markup=False, timeout=8)

    def _report(self, report: object) -> None:
        outside = getattr(report, "outside", None)
        if outside:
            self._note_reevaluated(list(outside))
        conflicts = getattr(report, "conflicts", None)
        rebased = getattr(report, "rebased", None)
        # Paths changed outside come from the disk: hidden characters as pictures.
        if conflicts:
            # A move's other end waits with its source (a held conflict): it did not change.
            known = self.review.conflicts
            held = [p for p in conflicts if p in known and known[p].kind is ConflictKind.HELD]
            changed = ", ".join(p for p in conflicts if p not in held)
            parts = [f"{changed} changed on disk; nothing written there"] if changed else []
            if held:
                parts.append(f"{', '.join(held)} not written either: a move is written whole")
            self.notify(sanitize("conflict: " + "; ".join(parts)), severity="warning",
                        markup=False)
        if rebased:
            self.notify(sanitize(f"rebased over an outside change: {', '.join(rebased)}"),
                        markup=False)
        for _key, notice in getattr(report, "reverted", ()):
            self.notify(sanitize(notice), severity="warning", markup=False)
        for notice in getattr(report, "told", ()):
            self.notify(sanitize(notice), severity="warning", markup=False, timeout=10)
        waiting = [path for path, note in getattr(report, "events", ())
                   if note == MSG_BEING_WRITTEN]
        if waiting:  # said once as it starts, and for each key pressed on it meanwhile
            names = sorted(set(waiting))
            said = MSG_BEING_WRITTEN if len(names) == 1 else MSG_BEING_WRITTEN_MANY
            self.notify(sanitize(f"{', '.join(names)}: {said}"), severity="warning",
                        markup=False, timeout=8)

    def turns_evaluated(self, note: str) -> None:
        """More turns were evaluated after the first frame or a change (ui/evaluating.py):
        only the rows that changed, the counts, and the timeline once all are known."""
        before = self._turn_states
        self.states = review_states(self.review, self.states)
        after = self._turn_states
        turn_list = self.query_one("#turns", TurnList)
        for pos in changed_positions(before, after):
            if pos >= len(before) or before[pos] != after[pos]:
                turn = self.session_turns[pos]
                turn_list.update_turn(pos, turn_prompt(turn.index, turn.request, after[pos],
                                                       unread=unread_parts(turn)))
        if not note:
            self.refresh_timeline()  # every mark at once, when all are known
        self.refresh_status(note)

    def refresh_after_decision(self, states: ReviewStates | None = None, *,
                               detail: bool = True) -> None:
        """Show the review as a job left it (``states``: computed in the job's thread).
        ``detail=False``: the caller selects an operation next (which shows it)."""
        before = self._turn_states
        # Without the job's states (an outside change, which the watcher also reports
        # for the workbench's own writes): only the turns that changed are computed
        # again; all of them took a 50,000-operation session's loop a third of a second.
        self._recompute_states(states or review_states(self.review, before=self.states))
        turn_list = self.query_one("#turns", TurnList)
        ops = self.query_one("#ops", OpList)
        after = self._turn_states
        turns = self.session_turns
        for pos in changed_positions(before, after):
            now = after[pos]
            if pos >= len(before) or before[pos] != now:
                turn = turns[pos]
                turn_list.update_turn(pos, turn_prompt(turn.index, turn.request, now,
                                                       unread=unread_parts(turn)))
        if self.turn_pos >= len(turns):  # a session of no turns: nothing else to show
            self.refresh_timeline()
            if detail:
                self.refresh_detail(keep_pane=True)
            return
        # The cursor may have moved past what the job's walk reached (a timeline click is
        # not held back for a job): that turn first.
        self.review.evaluate_through(turns[self.turn_pos].index)
        results = self.review.display.turns[self.turn_pos].results
        titles = op_row_titles([r.op for r in results], self._op_room())
        for pos, result in enumerate(results):
            ops.update_op(pos, op_prompt(titles[pos], self.state_of(result),
                                         op_badge(result, wait=False)))
        self.refresh_timeline()
        if detail:
            self.refresh_detail(keep_pane=True)
        self._check_syntax_later(results)
