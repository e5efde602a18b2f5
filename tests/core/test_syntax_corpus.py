"""Tree-sitter checks on real code: no false alarms after valid edits, breakages found.

The corpus is real code this project did not write (see ``syntaxkit``): the Pygments
example files that ``make corpus`` fetches, plus code other packages installed on the
machine. A language with no clean file in it is skipped with the reason.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
import syntaxkit as kit

from reviewtui.core.review.diagnostics import diagnose_change

# The languages the done-when asks for; each must reach both figures where it has files.
LANGUAGES = ("bash", "c", "c-sharp", "cpp", "css", "go", "haskell", "html", "java",
             "javascript", "lua", "php", "ruby", "scala", "swift", "typescript", "tsx", "yaml")
MIN_LANGUAGES = 12
DETECTED = 0.95  # share of breakages reported as introduced within 3 lines


@cache
def _corpus() -> dict[str, list[kit.Sample]]:
    return kit.corpus()


def _samples(language: str) -> list[kit.Sample]:
    samples = _corpus().get(language, [])
    if not samples:
        pytest.skip(f"SKIPPED LOUDLY: no clean {language} file in the corpus at "
                    f"{kit.corpus_root()} or the machine roots (run `make corpus`)")
    return samples


@pytest.mark.slow
def test_the_corpus_covers_twelve_languages() -> None:
    if not kit.corpus_root().is_dir():
        pytest.skip(f"SKIPPED LOUDLY: no corpus at {kit.corpus_root()}: run `make corpus`")
    assert len(_corpus()) >= MIN_LANGUAGES, sorted(_corpus())


@pytest.mark.parametrize("language", LANGUAGES)
def test_valid_edits_introduce_nothing(language: str) -> None:
    edits = 0
    for sample in _samples(language):
        rng = random.Random(sample.path)
        variants = [("no-op", sample.text)]
        renamed = kit.rename_identifier(sample, rng)
        if renamed is not None:
            variants.append(("rename", renamed))
        duplicated = kit.duplicate_statement(sample, rng)
        if duplicated is not None:
            variants.append(("duplicate line", duplicated[0]))
        for kind, text in variants:
            edits += 1
            blamed = [d for d in diagnose_change(sample.path, sample.text, text)
                      if d.introduced]
            assert blamed == [], f"{kind} of {sample.path}"
    assert edits >= len(_samples(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_breakages_are_reported_at_their_line(language: str) -> None:
    cases, found, missed = 0, 0, []
    for sample in _samples(language):
        rng = random.Random(sample.path)
        for kind, broken, line in kit.breakages(sample, rng):
            cases += 1
            blamed = [d for d in diagnose_change(sample.path, sample.text, broken)
                      if d.introduced]
            if any(abs(d.line - line) <= 3 for d in blamed):
                found += 1
            else:
                missed.append((kind, sample.path, line, [(d.line, d.message) for d in blamed]))
    if cases == 0:
        pytest.skip(f"SKIPPED LOUDLY: the {language} files offer no line to break")
    assert found / cases >= DETECTED, missed
