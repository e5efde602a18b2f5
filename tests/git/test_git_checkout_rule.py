"""``checkout_rule`` against git itself: two files it gives the same rule are checked out
alike by ``git checkout-index``, for every blob shape (LF, CRLF, mixed, a lone CR, a NUL,
no last newline, ``$Id$``), under each line-ending configuration. The rule decides which
files of a range that changes ``.gitattributes`` keep their checkout forms
(``shell/git_attribute_states.stable_paths``): equal rules for unequal checkouts wrote a
file otherwise than git, exit 0."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from gitkit import git, new_repo
from reviewtui.shell.git import Repo
from reviewtui.shell.git_attribute_states import checkout_rules
from reviewtui.shell.git_line_config import checkout_config

TEXTS = ["text", "-text", "text=auto", "!text", "text=input", "crlf", "-crlf", "crlf=input",
         "binary"]
EOLS = ["", "eol=lf", "eol=crlf"]
EXTRA = ["", "ident", "working-tree-encoding=UTF-16LE", "working-tree-encoding=utf-8"]
BLOBS = [b"a\nb\n", b"a\r\nb\r\n", b"a\r\nb\nc\n", b"a\rb\n", b"a\0b\n", b"a\nb",
         b"$Id$\nx\n", b""]


@pytest.mark.parametrize("config", [
    "", "[core]\n\tautocrlf = true\n", "[core]\n\tautocrlf = input\n",
    "[core]\n\teol = crlf\n", "[core]\n\tautocrlf\n",
    "[core]\n\tautocrlf = false\n\teol = lf\n"],
    ids=["none", "autocrlf", "input", "eol-crlf", "autocrlf-no-value", "eol-lf"])
def test_files_given_one_rule_are_checked_out_alike(tmp_path: Path, config: str) -> None:
    repo = new_repo(tmp_path / "repo")
    with (repo / ".git" / "config").open("a") as file:
        file.write(config)
    lines = [" ".join(part for part in combo if part)
             for combo in itertools.product(TEXTS, EOLS, EXTRA)]
    rules = "".join(f"p{n}_* {line}\n" for n, line in enumerate(lines))
    attributes = git(repo, "hash-object", "-w", "--stdin", input=rules.encode()).strip()
    ids = [git(repo, "hash-object", "-w", "--no-filters", "--stdin", input=blob).strip()
           for blob in BLOBS]
    names = [f"p{n}_{k}" for n in range(len(lines)) for k in range(len(BLOBS))]
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{attributes},.gitattributes")
    git(repo, "update-index", "-z", "--index-info", input=b"".join(
        f"100644 {ids[int(name.split('_')[1])]}\t{name}\0".encode() for name in names))
    tree = tmp_path / "out"
    tree.mkdir()
    git(repo, f"--work-tree={tree}", "checkout-index", "-a", "-f")
    found = checkout_rules(Repo.at(repo), [f"p{n}_0" for n in range(len(lines))],
                           checkout_config(Repo.at(repo)), "--cached")
    by_rule: dict[tuple[str, str, bool], list[int]] = {}
    for n in range(len(lines)):
        by_rule.setdefault(found[f"p{n}_0"], []).append(n)
    assert len(by_rule) > 1
    for rule, members in by_rule.items():
        first = members[0]
        for n in members[1:]:
            for k in range(len(BLOBS)):
                assert (tree / f"p{n}_{k}").read_bytes() == (
                    tree / f"p{first}_{k}").read_bytes(), (rule, lines[first], lines[n],
                                                           BLOBS[k])
