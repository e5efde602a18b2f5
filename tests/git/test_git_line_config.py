"""``core.autocrlf`` and ``core.eol`` read once, with the filter drivers, when a command
opens the repository (``Repo.at``), against git's own reading of them (``git config
--type=bool``, which the review asked two or three processes for each time before):
every value a user may write gives the same line-ending settings either way, and a value
whose reading is not plain (a number with a unit, a word git refuses) is still asked of
git."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import new_repo
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo
from reviewtui.shell.git_line_config import known_line_config, line_config

PLAIN = ["true", "TRUE", "Yes", "on", "1", "2", "01", "0", "false", "No", "OFF", '""',
         "input", "INPUT"]
ASKED = ["1k", "-1", "1M"]  # (a word git refuses stops git itself: Repo.at says so)


def _repo_with(tmp_path: Path, core: str) -> Repo:
    repo = new_repo(tmp_path / "repo")  # (autocrlf = false first: the last value wins)
    with (repo / ".git" / "config").open("a") as config:
        config.write(f"[core]\n{core}")
    return Repo.at(repo)


def _as_git_reads(repo: Repo) -> tuple[str, bytes]:
    return line_config(replace(repo, line=None))  # (nothing read: git is asked)


@pytest.mark.parametrize("value", PLAIN + ASKED)
@pytest.mark.parametrize("eol", ["", "\teol = crlf\n", "\teol = LF\n", "\teol\n"],
                         ids=["no-eol", "eol-crlf", "eol-LF", "eol-no-value"])
def test_the_settings_read_once_are_what_git_reads(tmp_path: Path, value: str,
                                                   eol: str) -> None:
    repo = _repo_with(tmp_path, f"\tautocrlf = {value}\n{eol}")
    known = known_line_config(repo)
    assert (known is None) == (value in ASKED)
    assert line_config(repo) == _as_git_reads(repo)


def test_a_key_with_no_value_is_true_as_git_reads_it(tmp_path: Path) -> None:
    repo = _repo_with(tmp_path, "\tautocrlf\n")
    assert known_line_config(repo) == ("true", b"")
    assert _as_git_reads(repo) == ("true", b"")


def test_unset_settings_convert_nothing(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    from gitkit import git

    git(plain, "init", "-q")
    repo = Repo.at(plain)
    assert repo.line == ()
    assert known_line_config(repo) == ("false", b"") == _as_git_reads(repo)


def test_filters_and_line_settings_come_from_one_listing(tmp_path: Path) -> None:
    """A filter driver's overrides are found as before, beside the line settings."""
    repo = _repo_with(tmp_path, "\tautocrlf = input\n\teol = crlf\n")
    with (repo.top / ".git" / "config").open("a") as config:
        config.write('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\trequired = true\n')
    again = Repo.at(repo.top)
    assert ("filter.lfs.clean", "") in again.overrides
    assert ("filter.lfs.required", "false") in again.overrides
    assert dict(again.line or ()) == {"core.autocrlf": "input", "core.eol": "crlf"}
    assert line_config(again) == ("input", b"crlf") == _as_git_reads(again)
