"""The cut-off rule's string reading on real code (``syntaxkit``'s corpus: the Pygments
example files ``make corpus`` fetches, plus code other packages put on the machine).

No needless hold: every file of a language ``open_strings.program_language`` names,
wrapped whole in a reply (a fence longer than any in it, the footer), is read. And
detection: each file cut at lines Pygments' lexer reads inside a multi-line string or
comment (the file as a sample's fence would leave it) is said to end inside a string.
Pygments is a second opinion, not the truth: it reads an ``#if 0`` region as a comment
and Ruby's ``%{..}`` strings (which the Ruby reader leaves out), runs a heredoc token
one line past its terminator, and lexes a ``.pl`` file as Prolog (a Perl comment's
apostrophe opening a quoted atom) and a ``.t`` file as TADS (which no reader reads), so a
few cuts it counts are none; the share is checked.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
import syntaxkit as kit

from reviewtui.core.protocol.open_strings import open_string, program_language
from reviewtui.core.protocol.reply import parse_reply_text

MAX_CHARS = 300_000
PER_LANGUAGE = 40  # files lexed per language for the cuts (Pygments: ~10 s for all 1,146)
DETECTED = 0.97  # of the cuts Pygments reads inside a multi-line string or comment


@cache
def _files() -> list[tuple[str, str, str]]:
    """(name, language, text) of every corpus file of a language read."""
    found = []
    for _root, file in kit._files():
        if not file.is_file() or file.suffix == ".output":
            continue
        try:
            text = file.read_text("utf-8").lstrip("\ufeff")
        except (UnicodeDecodeError, OSError):
            continue
        first = text[:200].split("\n", 1)[0]
        language = program_language(file.name, "", [first])
        if language is not None and len(text) <= MAX_CHARS:
            found.append((str(file), language, text))
    if not found:
        pytest.skip(f"SKIPPED LOUDLY: no corpus at {kit.corpus_root()} and no code of the "
                    "languages read in the machine roots: run `make corpus`")
    return found


@pytest.mark.slow
def test_no_correct_file_is_held(capsys: pytest.CaptureFixture[str]) -> None:
    held = []
    counts: dict[str, int] = {}
    for path, language, text in _files():
        name = Path(path).name
        counts[language] = counts.get(language, 0) + 1
        fence = "`" * max(4, 1 + max((len(run) for run in text.split("\n")
                                       if run and set(run.strip()) == {"`"}), default=0))
        reply = f"--- File: {name} ---\n{fence}\n{text}{fence}\n\n### Changed files:\n- {name}\n"
        problems = [p for p in parse_reply_text(reply).problems
                    if p.rule == "cut-off" and "ends inside a string" in p.message]
        if problems and not _invalid(path):
            held.append(path)
    with capsys.disabled():
        print(f"\ncut-off string reading, whole files: {sum(counts.values())} checked "
              f"({counts}), {len(held)} held")
    assert held == []


def _invalid(path: str) -> bool:
    """A file written to be invalid (tomllib's tests of unclosed strings, if present), or
    itself cut: a page that opens ``<html`` and has no ``</html>`` (Pygments' html/test.html
    stops inside its ``<pre>``, with no end tag after it)."""
    if "/invalid/" in path:
        return True
    if path.endswith((".html", ".htm")):
        text = Path(path).read_text("utf-8", "replace").lower()
        return "<html" in text and "</html>" not in text
    return False


@pytest.mark.slow
def test_a_file_cut_inside_a_multiline_string_is_said(
        capsys: pytest.CaptureFixture[str]) -> None:
    from pygments.lexers import get_lexer_for_filename
    from pygments.token import Comment, String
    from pygments.util import ClassNotFound

    rng = random.Random(7)
    cuts = detected = 0
    missed = []
    by_language: dict[str, list[tuple[str, str, str]]] = {}
    for found in _files():
        by_language.setdefault(found[1], []).append(found)
    chosen = [found for files in by_language.values()
              for found in rng.sample(files, min(PER_LANGUAGE, len(files)))]
    for path, _language, text in chosen:
        name = Path(path).name
        try:
            lexer = get_lexer_for_filename(name, stripnl=False, ensurenl=True)
        except ClassNotFound:
            continue
        inside = []
        row = 0
        for kind, value in lexer.get_tokens(text):
            # lines a token reaches past a newline of its own, its last newline not
            # counted (the token ends with it): cutting before them leaves it open
            spans = value.count("\n") - value.endswith("\n")
            if spans > 0 and ((kind in String and kind not in String.Char
                               and kind not in String.Regex) or kind in Comment.Multiline):
                inside.extend(range(row + 1, row + spans + 1))
            row += value.count("\n")
        lines = text.splitlines()
        for cut in rng.sample(inside, min(5, len(inside))):
            cuts += 1
            if open_string(name, "", lines[:cut]) is not None:
                detected += 1
            else:
                missed.append(f"{path}:{cut}")
    with capsys.disabled():
        print(f"\ncut-off string reading, cut files: {cuts} cuts inside a multi-line string "
              f"or comment (Pygments), {detected} said; missed: {missed}")
    if cuts == 0:
        pytest.skip(f"SKIPPED LOUDLY: no Pygments example files at {kit.corpus_root()}")
    assert detected >= DETECTED * cuts
