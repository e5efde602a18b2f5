"""The disk and git: restore a checkpoint, unpin, export, commit the accepted turns."""

from __future__ import annotations

from functools import partial

from textual import work

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.text.plural import plural
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.ui.screens.main_cursor import ReviewCursor
from reviewtui.ui.worker_results import show_later


class DiskActions(ReviewCursor):
    def action_export(self, fmt: str) -> None:
        from reviewtui.core.export import render
        from reviewtui.shell.disk import atomic_write
        from reviewtui.shell.export import accepted_from_review

        text = render(accepted_from_review(self.review), fmt)
        suffix = {"patch": "patch", "markdown": "md", "json": "json", "fileops": "fileops.md"}
        # A scratch review writes beside its copy: samples in the repository stay untouched.
        anchor = self.review.root if self.review.scratch else self.review.loaded.file
        target = anchor.with_name(f"{anchor.name}.export.{suffix[fmt]}")
        atomic_write(target.parent, target.name, text.encode("utf-8"))
        self.notify(f"exported {fmt} to {target}", markup=False)

    def action_commit_turns(self) -> None:
        from reviewtui.ui.git_commit import commit_question, commit_refusal
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        question = commit_question(self.review)
        if not question:
            self.notify("nothing to commit: no accepted turn changes a file" if question == ""
                        else "only a --git or --worktree session can be committed")
            return
        refusal = commit_refusal(self.review)
        if refusal is not None:
            self.notify(refusal, severity="error", timeout=10, markup=False)
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.run_commit_turns()

        self.app.push_screen(ConfirmScreen(question), done)

    @work(thread=True, exclusive=True, group="git")
    def run_commit_turns(self) -> None:
        from reviewtui.ui.git_commit import commit_now

        text, severity = commit_now(self.review)
        show_later(self, self.notify, text, severity=severity, markup=False)

    def action_restore(self) -> None:
        from reviewtui.shell.replay import change_verb
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        preview = self.review.restore_preview(self.checkpoint)
        if preview.nothing_to_do:
            self.notify(f"the disk already matches checkpoint {self.checkpoint}")
            return
        # The restore's own plan: what it leaves in conflict first (a long list of writes
        # cut at 20 hid every conflict: QA s34 F2), then what it writes; counted above.
        entries = [f"  leave in conflict {path}" for path, _ in preview.conflicts]
        entries += [f"  {change_verb(old, new)} {path}" for path, old, new in preview.changes]
        lines = entries[:20]
        if len(entries) > 20:
            lines.append(f"  … and {len(entries) - 20} more")
        where = "(dry-run: nothing is written)" if self.review.dry_run else "on disk"
        counts = plural(len(preview.changes), "file") + " changed"
        if preview.conflicts:
            counts += f", {plural(len(preview.conflicts), 'file')} left in conflict"
        question = (f"Restore checkpoint {self.checkpoint} {where}? ({counts})\n"
                    + "\n".join(lines))

        checkpoint = self.checkpoint

        def done(ok: bool | None) -> None:
            if ok:
                self.jobs.submit("restoring", partial(self.review.restore, checkpoint),
                                 partial(self._restored, f"restored checkpoint {checkpoint}"))

        self.app.push_screen(ConfirmScreen(question), done)

    def action_unpin(self) -> None:
        self.jobs.submit("replaying", partial(self.review.restore,
                                              self.review.checkpoint_count - 1),
                         partial(self._restored, "unpinned: every decision replayed onto "
                                 "the disk"))

    def _restored(self, note: str, report: ReplayReport | ReviewtuiError) -> None:
        if isinstance(report, ReviewtuiError):
            raise report
        self._report(report)
        self.notify(note)
        self.refresh_after_decision()
