"""Threat: a user's own file that merely ends in ``.reviewtui-tmp`` is deleted on open.

Only names reviewtui's atomic writes make count as leftovers of an interrupted write:
``.<name>.<16 hex nonce><8 hex tag>.reviewtui-tmp``, where the tag hashes the name and
the nonce. Anything else is a project file like any other.
"""

from __future__ import annotations

import os
import re

from disk_threat_kit import Arena
from hypothesis import given
from hypothesis import strategies as st

from diskkit import Ed, make_project, tree_bytes, write_session
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.disk import is_temp_name, temp_name
from reviewtui.shell.review import Review
from reviewtui.shell.snapshot import read_snapshot
from reviewtui.shell.watch import ChangeFilter

USER_FILES = {
    "notes.reviewtui-tmp": "mine\n",
    ".a.txt.reviewtui-tmp": "mine too\n",
    ".a.txt.k3j9x0qa.reviewtui-tmp": "shaped like the old mkstemp names\n",
    "sub/.b.txt.0123456789abcdef01234567.reviewtui-tmp": "hex, but the tag is wrong\n",
}


def test_user_files_ending_in_the_suffix_survive_open_and_apply(arena: Arena) -> None:
    make_project(arena.root, {"a.txt": "a\n", **USER_FILES})
    ours = temp_name("a.txt")  # a real leftover of an interrupted write
    (arena.root / ours).write_bytes(b"half written")
    session = write_session(arena.work, [[Ed("a.txt", "a", "b")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        review.decide((1, 0), Decision.accept())
    finally:
        review.close()
    (arena.root / ours).write_bytes(b"half written")
    again = write_session(arena.work, [[Ed("a.txt", "b", "c")]], name="again.md")
    assert main(["apply", str(again), "--root", str(arena.root), "--yes"]) == 0
    on_disk = tree_bytes(arena.root)
    for rel, text in USER_FILES.items():
        assert on_disk[rel] == text.encode(), rel
    assert ours not in on_disk
    assert on_disk["a.txt"] == b"c\n"


def test_user_files_with_the_suffix_are_project_files() -> None:
    for name in USER_FILES:
        assert not is_temp_name(os.path.basename(name)), name


def test_the_snapshot_reads_them_as_files(arena: Arena) -> None:
    make_project(arena.root, USER_FILES)
    (arena.root / temp_name("x.py")).write_bytes(b"")
    snap = read_snapshot(arena.root)
    assert sorted(snap.files) == sorted(USER_FILES)
    assert len(snap.leftovers) == 1


@given(st.text(alphabet=st.characters(blacklist_characters="/\0"), min_size=1, max_size=300))
def test_every_temp_name_is_recognised_and_fits_a_file_name(name: str) -> None:
    made = temp_name(name)
    assert is_temp_name(made)
    assert len(os.fsencode(made)) <= 255
    assert re.fullmatch(r"\..+\.[0-9a-f]{24}\.reviewtui-tmp", made, re.DOTALL)


@given(st.text(alphabet=st.characters(blacklist_characters="/\0"), min_size=1,
               max_size=40), st.integers(min_value=0, max_value=23),
       st.sampled_from("0123456789abcdef"))
def test_a_name_with_any_other_hex_is_not_ours(name: str, where: int, digit: str) -> None:
    made = temp_name(name)
    start = len(made) - len(".reviewtui-tmp") - 24
    hexes = made[start:start + 24]
    if hexes[where] == digit:
        return  # the same name
    forged = made[:start] + hexes[:where] + digit + hexes[where + 1:] + made[start + 24:]
    # Changing the nonce or the tag breaks the hash that ties them (a 1 in 2**32 chance
    # that a change to the nonce collides is not a user file's bad luck but a forgery).
    assert not is_temp_name(forged)


def test_the_watcher_sees_user_files_and_ignores_only_ours(arena: Arena) -> None:
    watching = ChangeFilter(arena.root)
    for rel in USER_FILES:
        assert watching.wanted(rel, is_dir=False), rel
    assert not watching.wanted(temp_name("a.txt"), is_dir=False)
