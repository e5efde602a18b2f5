"""Strings read as their language reads them, where a sample reply in one closed the fence
around the file (rule ``cut-off``; known since s50/s51, each written cut with keep.txt
removed or src/app.c written, exit 0): PowerShell's curly quotes (its tokenizer takes
``“..”`` for ``".."`` and ``‘..’`` for ``'..'``), Erlang/OTP 27's sigils (``~s[..]``,
``~B<..>``) and a CSV file's quoted field over lines (RFC 4180)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cutkit import COMBO, LISTED, assert_fenced_longer_whole, assert_held, assert_not_held

CASES = [
    ("powershell curly double quotes", "scripts/help.ps1", "$help = \u201c\nA reply:\n{s}"
     "\u201d\nWrite-Output $help\n"),
    ("powershell curly single quotes", "scripts/help.ps1", "$help = \u2018\nA reply:\n{s}"
     "\u2019\nWrite-Output $help\n"),
    ("powershell curly closes straight", "scripts/help.psm1", "$help = \u201c\nA reply:\n{s}"
     '"\n'),
    ("erlang sigil in brackets", "src/help.erl", "-module(help).\nhelp() -> ~s[\nA reply:\n"
     "{s}].\n"),
    ("erlang verbatim sigil", "src/help.erl", "-module(help).\nhelp() -> ~B<\nA reply:\n{s}>.\n"),
    ("csv quoted field", "data/answers.csv", 'id,text\n1,"\nA reply:\n{s}"\n2,ok\n'),
    ("tsv quoted field", "data/answers.tsv", 'id\ttext\n1\t"A reply:\n{s}"\n'),
    ("semicolons, a header's names holding commas", "data/a.csv", '"Name, first";"Notes, '
     'long"\n"Bob";"see\n{s}"\n'),
]


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("sample", [COMBO, LISTED], ids=["combo", "listed"])
def test_a_sample_in_such_a_string_holds_the_file(tmp_path: Path, case: str, path: str,
                                                  text: str, sample: str) -> None:
    assert_held(tmp_path, case, path, "", text, sample)


@pytest.mark.parametrize(("case", "path", "text"), CASES, ids=[c[0] for c in CASES])
def test_the_same_file_fenced_longer_is_written_whole(case: str, path: str, text: str) -> None:
    assert_fenced_longer_whole(case, path, "", text)


WHOLE = [
    ("a.ps1", "$a = \u201cit\u2019s here\u201d\n$b = \u2018say \u201chi\u201d\u2019\n"
     "# don\u2019t\nWrite-Output $a $b\n"),
    ("a.erl", "-module(a).\nf() -> {~s[a \"b\" c], ~B<x\\>, ~\"q\", ~|p|, \"~p~n\"}.\n"
     "g() -> ~s{\nover lines\n}.\n"),
    ("a.csv", 'id,text,size\n1,"a, b",5" screen\n2,"line one\nline two","say ""hi"""\n3,,\n'),
    ("b.csv", "a;b\n1;\"x;\ny\"\n"),
]


@pytest.mark.parametrize(("path", "text"), WHOLE, ids=[w[0] for w in WHOLE])
def test_a_whole_file_is_read_whole(path: str, text: str) -> None:
    assert_not_held(path, text)
