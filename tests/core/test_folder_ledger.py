"""The folder ledger (core/review/folders.py): which emptied folders a removal may take."""

from __future__ import annotations

import pytest

from reviewtui.core.review.folders import FolderLedger, folders_of


def test_folders_of_a_path_outermost_first() -> None:
    assert folders_of("a/b/c.txt") == ["a", "a/b"]
    assert folders_of("top.txt") == []


def test_a_creation_keeps_the_folders_it_did_not_make() -> None:
    ledger = FolderLedger()
    ledger.creating(["a/b/c/new.txt"])
    ledger.made_folder("a/b")  # the write made a/b and a/b/c: a was there
    ledger.made_folder("a/b/c")
    assert [ledger.may_remove(f) for f in ("a/b/c", "a/b", "a")] == [True, True, False]
    ledger.creating(["a/b/other.txt"])  # a folder the review made stays the review's
    assert ledger.may_remove("a/b")


def test_a_folder_made_again_by_the_user_is_theirs() -> None:
    ledger = FolderLedger()
    ledger.creating(["d/new.txt"])
    ledger.made_folder("d")
    ledger.removed_folder("d")
    ledger.creating(["d/new.txt"])  # the user made d/ since; the write makes none
    assert not ledger.may_remove("d")


def test_the_saved_ledger_reads_back() -> None:
    ledger = FolderLedger(made=["x"], found=["a"])
    again = FolderLedger.from_json(ledger.to_json())
    assert (again.made, again.found) == ({"x"}, {"a"})
    assert FolderLedger().empty
    assert not again.empty


@pytest.mark.parametrize("saved", [None, "a", [], {"made": "x"}, {"found": [1, None, "a"]}])
def test_an_unreadable_saved_ledger_keeps_only_its_names(saved: object) -> None:
    ledger = FolderLedger.from_json(saved)
    assert ledger.made == set()
    assert ledger.found == ({"a"} if isinstance(saved, dict) and "found" in saved else set())
