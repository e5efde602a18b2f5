"""The raw reply view (``r``) draws what would take no cell as a picture, as the diffs do.

QA s44 helper-135 F3: the raw view sent a zero-width space in ``config<ZWSP>.py`` to the
terminal as it is, so the header read ``config.py``; an ESC or a right-to-left override
was dropped by the app's last filter without a trace. The reply is what the model wrote:
each such character is a picture there too (``⍰``, ``␛``, ``␣``), and a finding's message,
which quotes the session, likewise.
"""

from __future__ import annotations

from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.model.records import Span
from reviewtui.core.protocol.session import parse_session
from reviewtui.ui.screens.raw import render_raw

HOSTILE = "config\u200b.py"
SESSION = (
    "# Session: hostile\n\n## Turn 1\n> edit \x1b[2J\u202egnp.exe\n\n"
    f"--- File: {HOSTILE} ---\nEdit 1\n<<<<<<< SEARCH\nif\u00a0x:\n=======\nif x:\n"
    ">>>>>>> REPLACE\n\n### Changed files:\n- config.py\n")


def test_the_raw_reply_shows_every_hidden_character_as_a_picture() -> None:
    session = parse_session(SESSION)
    lines = SESSION.split("\n")
    turn = session.turns[0]
    finding = Finding("some-rule", Severity("warning"), Span(6, 6), f"{HOSTILE} \x1b[31m")
    plain = render_raw(lines, turn, [finding]).plain
    for hidden in ("\u200b", "\x1b", "\u202e", "\u00a0"):
        assert hidden not in plain
    assert "config⍰.py" in plain
    assert "␛[2J⍰gnp.exe" in plain
    assert "if␣x:" in plain
    assert "some-rule: config⍰.py ␛[31m" in plain
    assert "\t" not in SESSION  # (tabs are drawn as they are)
