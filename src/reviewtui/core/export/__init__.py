"""Exports of a session's accepted result: a patch, a review report, canonical replies.

Pure: everything here reads a :class:`~reviewtui.core.export.accepted.Accepted` (an
evaluated session and where its decisions came from) and returns text. The shell decides
which decisions apply (``reviewtui export``: a review state's, else every operation that
applies) and where the text goes.

* ``patch``: a unified diff of the accepted result against the base (``git apply``);
* ``markdown``: a review report; ``json``: the same as data;
* ``fileops``: the accepted result re-emitted as canonical File Ops replies;
* ``context``: what the next prompt should carry (changed ranges, rejected and failed
  operations, files still needed), bounded in size.
"""

from __future__ import annotations

import json

from reviewtui.core.export.accepted import FORMATS, Accepted
from reviewtui.core.export.context import context_summary
from reviewtui.core.export.fileops import canonical_session
from reviewtui.core.export.forms import FormsTimeline
from reviewtui.core.export.patch import origins, renormalized, unified_patch
from reviewtui.core.export.report import report_json, report_markdown

__all__ = ["FORMATS", "Accepted", "export_patch", "render"]


def export_patch(accepted: Accepted) -> str:
    notes = [f"reviewtui export of {accepted.source}: the accepted result against its base",
             f"({accepted.decided_by})."]
    forms = FormsTimeline(accepted.run, accepted.base_blobs, accepted.always_text,
                          accepted.found_blobs, accepted.auto_text)
    base, result, stored = renormalized(accepted.run, accepted.base, accepted.result,
                                        forms.whole(), accepted.base_blobs)
    return unified_patch(base, result, origins(accepted.run), notes=notes, stored=stored)


def render(accepted: Accepted, fmt: str) -> str:
    """The export in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "patch":
        return export_patch(accepted)
    if fmt == "markdown":
        return report_markdown(accepted)
    if fmt == "json":
        return json.dumps(report_json(accepted), indent=2, ensure_ascii=False) + "\n"
    if fmt == "fileops":
        return canonical_session(accepted)
    if fmt == "context":
        return context_summary(accepted)
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
