"""A Markdown document whose sample reply stands in an HTML block that runs to its end tag
(a ``<pre>``, ``<script>``, ``<style>``, ``<textarea>``, a comment): held (rule
``cut-off``, ``cut._open_html_block``). CommonMark reads such a block to its end, fence
lines and blank lines in it being its text; the sample's fence line closed the fence
around the document, and the rest ran on as other blocks, keep.txt removed or src/app.c
written, exit 0 (QA s52 helper-213: documents were read for their fences alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_reply_held
from reviewtui.cli import main
from reviewtui.core.protocol.cut import _open_html_block

CASES = [
    ("pre", "README.md", "# Tool\n\n<pre>\n{s}</pre>\n\nMore.\n"),
    ("comment", "docs/guide.md", "# Guide\n\n<!-- draft, not shown:\n{s}-->\n\nText.\n"),
    ("script", "docs/x.markdown", '# X\n<script type="text/plain">\n{s}</script>\n'),
    ("textarea after blank lines", "notes.md", "Try:\n\n<textarea rows=9>\n\n{s}</textarea>\n"),
    ("pre in capitals", "CHANGES.md", "## 1.0\n<PRE class=log>\n{s}</PRE>\n"),
    ("another markdown suffix", "notes/a.livemd", "# A\n<pre>\n{s}</pre>\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_a_sample_in_an_html_block_holds_the_document(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, path: str,
        text: str, sample: str) -> None:
    assert_reply_held(tmp_path, case, path, "", text, sample)
    line = 6 + next(k for k, row in enumerate(text.split("\n")) if row.startswith("<"))
    assert f"ends inside an HTML block opened at line {line}" in capsys.readouterr().out, case


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_document_fenced_longer_is_written_whole(case: str, path: str,
                                                          text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


def test_html_blocks_read_as_commonmark_reads_them() -> None:
    # closed, on its line or later; a comment's end from its own "--" (<!--> is whole)
    for whole in (["<pre>a</pre>", "x"], ["<!-- a", "b -->", "c"], ["<!-->", "x"],
                  ["<style>", "a { b: c }", "</style>"], ["<?php x ?>"], ["<!DOCTYPE html>"],
                  ["<![CDATA[ a", "]]>"],
                  # not a block's start: in a code sample, indented four, another name
                  ["```", "<pre>", "```", "x"], ["~~~", "<!--", "~~~"], ["    <pre>", "x"],
                  ["<prefix>", "x"], ["text <pre> inside a line"]):
        assert _open_html_block(whole) is None, whole
    for cut, at in ((["# x", "<pre>", "a"], 1), (["<PRE class=x>", "```"], 0),
                    (["<!-- a", "", "```"], 0), (["x", "   <script>"], 1),
                    (["<pre>a</pre>", "<pre>", "b"], 1), (["<!X y", "z"], 0)):
        assert _open_html_block(cut) == at, cut


def test_a_readme_with_closed_html_blocks_and_samples_is_written_whole(
        tmp_path: Path) -> None:
    text = ("# Tool\n\n<!-- badges -->\n<pre>\nusage: tool [-h]\n</pre>\n\n```html\n<pre>\n"
            "```\n\n<details>\n<summary>More</summary>\n\nText.\n</details>\n")
    reply = tmp_path / "s.md"
    reply.write_text(f"--- File: README.md ---\n````markdown\n{text}````\n\n"
                     "### Changed files:\n- README.md\n")
    root = tmp_path / "root"
    root.mkdir()
    assert main(["apply", str(reply), "--root", str(root), "--yes"]) == 0
    assert (root / "README.md").read_text() == text


# A Markdown document leaving an HTML element open (a <details> around its install sample,
# GitHub's favourite; a <div>) whose end tag stands later in the reply: the rest of a file
# cut there (``closed_later``; QA s53 helper-220: the README was written cut, exit 0). An
# MDX page reads its <pre> as a Markdown page does (W7).
LATER = [
    ("details", "README.md", "# Tool\n\n<details>\n<summary>Install</summary>\n\n{s}\n"
     "</details>\n"),
    ("div over lines", "docs/intro.md",
     '# Intro\n\n<div\n  align="center">\n\nRun:\n\n{s}</div>\n'),
    ("nested details", "README.md", "<details>\n<summary>A</summary>\n\n<details>\n"
     "<summary>B</summary>\n\n{s}</details>\n</details>\n"),
    ("mdx details", "docs/guide.mdx", "# Guide\n\n<details>\n<summary>Run</summary>\n\n{s}"
     "</details>\n"),
    ("mdx pre", "docs/guide.mdx", "# Guide\n\n<pre>\n{s}</pre>\n"),
    # (QA s53 helper-224: in a quote, a centred paragraph, an MDX component)
    ("details in a quote", "README.md", "# A\n\n> <details>\n> <summary>Run</summary>\n\n{s}"
     "> </details>\n"),
    ("centred paragraph", "README.md", '<p align="center">\n\n{s}</p>\n'),
    ("mdx steps", "docs/install.mdx", "<Steps>\n\n1. Run:\n\n{s}\n</Steps>\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), LATER, ids=[c[0] for c in LATER])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_a_sample_in_an_html_element_closed_later_holds_the_document(
        tmp_path: Path, case: str, path: str, text: str, sample: str) -> None:
    assert_reply_held(tmp_path, case, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), LATER, ids=[c[0] for c in LATER])
def test_the_same_element_fenced_longer_is_written_whole(case: str, path: str,
                                                         text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


VALID_BESIDE_HTML = [
    ("an indented sample", "README.md", "# X\n\nWrap it so:\n\n    <details>\n"
                                        "    <summary>More</summary>\n\nThen close it.\n"),
    ("a comment", "README.md", '# X\n\n<!--\n<div align="center">\n-->\n\nText.\n'),
    ("a pre block", "README.md", "# X\n\n<pre>\n&lt;div&gt;\n<div>\n</pre>\n"),
    ("an mdx tag with an arrow", "docs/a.mdx", "# A\n\n<div onClick={() => go()} />\n"
                                               "<Card hidden={a > b} />\n"),
]


@pytest.mark.parametrize(("case", "path", "text"), VALID_BESIDE_HTML,
                         ids=[c[0] for c in VALID_BESIDE_HTML])
def test_markup_shown_in_a_document_beside_a_page_is_no_open_element(
        tmp_path: Path, case: str, path: str, text: str) -> None:
    """QA s53 helper-224: each was held beside an index.html closing a <div>."""
    page = "<div class=\"app\">\n<details><summary>x</summary>y</details>\n<p>z</p>\n</div>\n"
    root = tmp_path / "root"
    root.mkdir()
    reply = tmp_path / "s.md"
    reply.write_text(f"## Turn 1\n> x\n\n--- File: {path} ---\n`````\n{text}`````\n\n"
                     f"--- File: index.html ---\n```html\n{page}```\n\n"
                     f"### Changed files:\n- {path}\n- index.html\n")
    assert main(["apply", str(reply), "--root", str(root), "--yes"]) == 0, case
    assert (root / path).read_text() == text


def test_a_readme_leaving_details_open_with_no_end_later_is_written(tmp_path: Path) -> None:
    """A README whose own <details> is never closed (free-programming-books' HOWTO-kn.md),
    with a page beside it: nothing later closes it, so it is no cut and is written; a
    <details> shown in a fenced sample or a code span is no element, and a list item's
    indented </details> closes one (pyenv's README)."""
    readme = ("# How to\n\n<details>\n<summary>More</summary>\n\nText.\n\n"
              "Use `<details>` for long parts:\n\n````html\n<details>\n````\n\n"
              "- item\n  <div>\n\n  Indented.\n\n     </div>\n")
    page = "<p>Hi</p>\n<div>x</div>\n"
    root = tmp_path / "root"
    root.mkdir()
    reply = tmp_path / "s.md"
    reply.write_text(f"## Turn 1\n> x\n\n--- File: README.md ---\n`````markdown\n{readme}`````\n\n"
                     f"--- File: docs/page.html ---\n```html\n{page}```\n\n"
                     "### Changed files:\n- README.md\n- docs/page.html\n")
    assert main(["apply", str(reply), "--root", str(root), "--yes"]) == 0
    assert (root / "README.md").read_text() == readme
    assert (root / "docs/page.html").read_text() == page
