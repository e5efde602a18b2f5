"""Nothing shown in the workbench reaches the terminal as a control character.

Requests, model text, file contents and paths come from outside; a request holding
``ESC [ 2 J`` or a carriage return would otherwise be written to the terminal as it is
and could erase, move or overwrite what the reviewer reads (Rich keeps ESC in ``Text``;
it drops only BEL, BS, VT, FF and CR). Escaping each of the many places that build text
from outside input is easy to miss once, so the app filters every rendered line instead:
one rule at the last step before the terminal, for every widget and screen.

Control characters take no cell (Rich measures them, and the bidirectional controls, as
zero width), so dropping them keeps every line's layout as Textual computed it.
"""

from __future__ import annotations

import re

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

# C0 (tab and newline included: Textual expands tabs and splits lines before this point,
# so one left in a segment came from outside), DEL and C1 (0x9b is a one-byte CSI), and
# the bidirectional embeddings, overrides and isolates that make a terminal show text in
# another order than it is stored ("Trojan Source"): the review shows the stored order;
# and the line and paragraph separators, which Rich measures as no cell. (The diff views
# show each of these as a picture instead: widgets/diff_render.py.)
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def without_controls(text: str) -> str:
    return CONTROLS.sub("", text)


class DropControls(LineFilter):
    """A line filter that removes control characters from the text of every segment
    (segments that are themselves terminal controls, Textual's own, are kept)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        search = CONTROLS.search
        if not any(search(seg.text) for seg in segments if not seg.control):
            return segments
        return [seg if seg.control or not search(seg.text)
                else Segment(without_controls(seg.text), seg.style, seg.control)
                for seg in segments]
