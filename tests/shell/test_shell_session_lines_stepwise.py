"""The raw view's session lines, read a piece at a time (loader.session_lines_stepwise),
are exactly ``read_text(path).splitlines()``, and are refused when the file on disk is no
longer the session that was loaded.

The pieces end just after a newline. A cut anywhere else can split a UTF-8 sequence or a
"\\r\\n" (one line break read as two), and every line break ``splitlines`` knows must
still end its line: the texts below mix them all, with small pieces so that cuts land
everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.digests import sha256
from reviewtui.core.errors import SessionFormatError
from reviewtui.shell.loader import read_text, session_lines_stepwise

BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
          "\u2029"]
text_parts = st.lists(st.one_of(st.sampled_from(BREAKS), st.text(min_size=1, max_size=6),
                                st.sampled_from(["é", "日本", "🙂", "x"])), max_size=40)


def run(path: Path, sha: str, piece: int) -> tuple[list[str], int]:
    pauses = 0
    for item in session_lines_stepwise(path, sha, piece):
        if item is None:
            pauses += 1
        else:
            return item, pauses
    raise AssertionError("no lines at the end")


@settings(max_examples=300, deadline=None)
@given(parts=text_parts, bom=st.booleans(), piece=st.integers(1, 12))
def test_lines_read_in_pieces_are_the_whole_texts_lines(
        tmp_path_factory: pytest.TempPathFactory, parts: list[str], bom: bool,
        piece: int) -> None:
    data = ("\ufeff" if bom else "").encode() + "".join(parts).encode("utf-8",
                                                                       "surrogatepass")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return  # (a lone surrogate from st.text: not a session anyone could load)
    path = tmp_path_factory.mktemp("s") / "session.md"
    path.write_bytes(data)
    lines, pauses = run(path, sha256(data).hexdigest(), piece)
    assert lines == read_text(path).splitlines()
    assert pauses >= len(data) // piece  # it did pause between pieces


def test_a_session_changed_on_disk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "session.md"
    path.write_text("## Turn 1\n> go\n")
    loaded_sha = sha256(path.read_bytes()).hexdigest()
    path.write_text("## Turn 1\n> something else\n")
    with pytest.raises(SessionFormatError) as caught:
        run(path, loaded_sha, 4)
    assert caught.value.rule == "session-changed"
    assert str(path) in str(caught.value)
