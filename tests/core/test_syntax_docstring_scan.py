"""The string scan opens a triple-quoted string without its pattern when only blanks stand
between a place out of every token and the quotes (a docstring's first line): it finds what
running :data:`_TOKENS` over the whole text finds, on docstring-shaped text too."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from reviewtui.core.syntax import pystrings

# Indents, quotes after blanks, after a token that ended on the line, after a comment
# mark or another quote (where the pattern must decide), backslashes.
PIECES = [" ", "    ", "\t", "\f", '"""', "'''", '"', "'", "#", "\\", "\\\n", "\n", "x",
          '""', "''", '""""', "r", "f", "(", "\r"]


def reference(text: str) -> list[tuple[int, int]]:
    out, line, at = [], 0, 0
    for found in pystrings._TOKENS.finditer(text):
        token = found.group()
        if "\n" in token:
            line += text.count("\n", at, found.start())
            at = found.start()
            out.append((line, token.count("\n")))
    return out


@settings(max_examples=800)
@given(st.lists(st.sampled_from(PIECES), max_size=48).map("".join))
@example('    """a\n    b"""\n    """c"""  """d\n"""')
@example("'a' '''b\n'''")
@example("# '''\n    '''x\n'''")
@example("\f'''a\n'''")
def test_the_scan_matches_every_token_on_docstring_shaped_text(text: str) -> None:
    assert list(pystrings._long_strings(text)) == reference(text)
