"""An accepted edit lands where the reviewer saw it land, or nowhere (QA pass s32, F1).

Edit 1 swaps the bodies of ``a()`` and ``b()``; edit 2 turns ``return 1`` into
``return 100``, which after the swap is ``b()``'s line. Accepted there, it moved into
``a()`` when edit 1 was rejected afterwards (still "accepted", no word), and with edit 1
only pending the disk got ``a()`` changed at once while the workbench showed ``b()``.
"""

from __future__ import annotations

import json
from pathlib import Path

from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.engine.lineage import MOVED
from reviewtui.core.model.outcome import Diagnosis, Status
from reviewtui.shell.export import waits_on
from reviewtui.shell.review import Review

BASE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
SWAPPED = "def a():\n    return 2\n\n\ndef b():\n    return 1\n"
SWAP, BUMP = (1, 0), (1, 1)


def _edit(search: str, replace: str, label: int) -> str:
    return (f"Edit {label}\n<<<<<<< SEARCH\n{search}\n=======\n{replace}\n"
            ">>>>>>> REPLACE\n\n")


def _session(tmp_path: Path, *edits: tuple[str, str], base: str = BASE) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text(base)
    body = "".join(_edit(search, replace, n) for n, (search, replace) in
                   enumerate(edits, 1))
    session = tmp_path / "session.md"
    session.write_text(f"## Turn 1\n> swap, then bump b\n\n--- File: m.py ---\n{body}"
                       "### Changed files:\n- m.py\n")
    return session, root


def _swap_then_bump(tmp_path: Path) -> tuple[Path, Path]:
    return _session(tmp_path, (BASE.rstrip("\n"), SWAPPED.rstrip("\n")),
                    ("    return 1", "    return 100"))


def test_rejecting_the_edit_below_an_accept_does_not_move_it(tmp_path: Path) -> None:
    session, root = _swap_then_bump(tmp_path)
    with Review.open(session, root) as review:
        review.decide(SWAP, Decision.accept())
        review.decide(BUMP, Decision.accept())
        assert (root / "m.py").read_text() == SWAPPED.replace("return 1", "return 100")
        review.decide(SWAP, Decision.reject())
        # Not in a(), where nobody saw it: nothing of it lands, and it says where it would.
        assert (root / "m.py").read_text() == BASE
        outcome = review.outcome(BUMP)
        assert outcome.status is Status.NOT_FOUND
        assert outcome.rule == MOVED
        assert "now matches line 2 of m.py" in outcome.message
        assert [(c.start, c.end, c.diagnosis) for c in outcome.candidates] == [
            (2, 2, Diagnosis.MOVED)]
        assert not review.result(BUMP).landed
        # Taking the reject back puts it back where it was accepted.
        review.undo()
        assert (root / "m.py").read_text() == SWAPPED.replace("return 1", "return 100")
        assert review.outcome(BUMP).status is Status.APPLIED
        review.redo()
        assert (root / "m.py").read_text() == BASE
        # Accepted again where it now lands (the candidate shown): it lands there.
        review.decide(BUMP, Decision.place((2, 2), ("    return 1",)))
        assert (root / "m.py").read_text() == BASE.replace("return 1", "return 100")


def test_an_accept_over_a_pending_edit_waits_for_it_instead_of_landing_elsewhere(
        tmp_path: Path) -> None:
    session, root = _swap_then_bump(tmp_path)
    with Review.open(session, root) as review:
        review.decide(BUMP, Decision.accept())  # shown in b(), on the pending swap
        assert (root / "m.py").read_text() == BASE  # not written into a()
        assert waits_on(review.draft, review.display, BUMP) == "pending turn 1 Edit 1 · m.py"
        review.decide(SWAP, Decision.accept())
        assert (root / "m.py").read_text() == SWAPPED.replace("return 1", "return 100")


def test_the_pin_is_saved_and_holds_after_reopening(tmp_path: Path) -> None:
    session, root = _swap_then_bump(tmp_path)
    with Review.open(session, root) as review:
        review.decide(BUMP, Decision.accept())
        pinned = review.decisions[BUMP].at
    assert pinned is not None
    assert pinned[:4] == (("o", 1, 0, 5), ("o", 1, 0, 5), "change", 5)  # the swap's line 6
    saved = json.loads(session.with_name("session.md.review.json").read_text())
    ats = [item.get("at") for entry in saved["log"] for item in entry.get("items", [])]
    assert [at[:4] for at in ats] == [[["o", 1, 0, 5], ["o", 1, 0, 5], "change", 5]]
    with Review.open(session, root) as again:
        assert again.decisions[BUMP].at == pinned
        assert (root / "m.py").read_text() == BASE
        again.decide(SWAP, Decision.accept())
        assert (root / "m.py").read_text() == SWAPPED.replace("return 1", "return 100")


def test_an_unrelated_reject_above_leaves_an_accept_where_it_was(tmp_path: Path) -> None:
    """No false alarm: an edit that added lines above, or rewrote a stretch while repeating
    the accepted edit's line as context, moves nothing when rejected."""
    base = "import os\n\n\ndef a():\n    x = 1\n    y = 2\n    return x + y\n"
    session, root = _session(
        tmp_path,
        ("import os", "import os\nimport sys\nimport re"),  # two lines added above
        ("def a():\n    x = 1\n    y = 2", "def a():\n    x = 10\n    y = 2"),  # y kept
        ("    y = 2", "    y = 20"),
        base=base)
    with Review.open(session, root) as review:
        review.decide_many([((1, pos), Decision.accept()) for pos in range(3)])
        assert (root / "m.py").read_text() == (
            "import os\nimport sys\nimport re\n\n\ndef a():\n    x = 10\n    y = 20\n"
            "    return x + y\n")
        review.decide((1, 0), Decision.reject())
        review.decide((1, 1), Decision.reject())
        assert (root / "m.py").read_text() == base.replace("y = 2", "y = 20")
        assert review.outcome((1, 2)).status is Status.APPLIED


def test_a_bulk_accept_pins_each_edit_where_it_lands(tmp_path: Path) -> None:
    session, root = _swap_then_bump(tmp_path)
    with Review.open(session, root) as review:
        review.decide_many([(SWAP, Decision.accept()), (BUMP, Decision.accept())])
        pinned = review.decisions[BUMP].at
        assert pinned is not None
        assert pinned[:2] == (("o", 1, 0, 5), ("o", 1, 0, 5))
        review.decide(SWAP, Decision.reject())
        assert (root / "m.py").read_text() == BASE


def test_an_insertion_after_a_swapped_line_does_not_follow_it(tmp_path: Path) -> None:
    """An edit that adds a line after b()'s ``return 1`` (after the swap): with the swap
    rejected, that text is a()'s, and the new line would have gone into a()."""
    session, root = _session(tmp_path, (BASE.rstrip("\n"), SWAPPED.rstrip("\n")),
                             ("    return 1", "    return 1\n    # b's"))
    with Review.open(session, root) as review:
        review.decide_many([(SWAP, Decision.accept()), (BUMP, Decision.accept())])
        assert review.decisions[BUMP].at is not None
        assert review.decisions[BUMP].at[2] == "between"
        assert (root / "m.py").read_text() == SWAPPED + "    # b's\n"
        review.decide(SWAP, Decision.reject())
        assert (root / "m.py").read_text() == BASE
        assert review.outcome(BUMP).rule == MOVED
    saved = json.loads(session.with_name("session.md.review.json").read_text())
    ats = [item["at"] for entry in saved["log"] for item in entry.get("items", [])
           if "at" in item and (item["turn"], item["pos"]) == BUMP]
    assert [at[:3] for at in ats] == [[["o", 1, 0, 5], ["o", 1, 0, 5], "between"]]
    with Review.open(session, root) as again:  # an accept that does not land, reopened
        # on the file as the review left it: as it was left, accepted and not landing
        # (s43: taken back, it let any accept it clashed with be written on opening)
        assert again.decisions[BUMP].verdict is Verdict.ACCEPTED
        assert again.outcome(BUMP).rule == MOVED
        assert again.state_problems == []
        assert (root / "m.py").read_text() == BASE


def test_an_insertion_stays_next_to_the_line_it_was_seen_before(tmp_path: Path) -> None:
    """fd's history: a test inserted before "/// Explicit root path", after lines an
    earlier commit added; with that commit rejected, the same context text sits before
    the same line: the insertion is where it was seen (next to that line)."""
    base = "def f():\n    pass\n\n# end\n"
    session, root = _session(
        tmp_path,
        ("def f():\n    pass", "def f():\n    pass\n\n\ndef g():\n    pass"),  # g() added
        ("    pass\n\n# end", "    pass\n\n# h() next\n\n# end"),
        base=base)
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
        assert (root / "m.py").read_text() == (
            "def f():\n    pass\n\n\ndef g():\n    pass\n\n# h() next\n\n# end\n")
        review.decide((1, 0), Decision.reject())
        assert review.outcome((1, 1)).status is Status.APPLIED
        assert (root / "m.py").read_text() == "def f():\n    pass\n\n# h() next\n\n# end\n"
