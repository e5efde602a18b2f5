"""An accepted ``:undo`` takes back the command it took back when the reviewer accepted it,
or nothing (QA pass s31, helper-93 F2): the workshop tour's turn 5 is ``:unrm
notes/scratch.tmp``, ``:rn greeter/legacy_format.py greeter/legacy.py``, ``:undo``. With
all three accepted, the ``:undo`` takes the rename back; rejecting the ``:rn`` afterwards
made it take back the ``:unrm`` instead, deleting the file the reviewer had seen restored,
its row still reading accepted. (Since QA s45 an undo whose own command did not run takes
back nothing at all.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review

TOUR = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"
UNRM, RN, UNDO = (5, 0), (5, 1), (5, 2)


def _tour(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    session = tmp_path / "session.md"
    shutil.copy(TOUR / "session.md", session)
    return session, root


def _accept_all(review: Review) -> None:
    for turn in review.session.turns:
        review.decide_many([((turn.index, pos), Decision.accept())
                            for pos in range(len(turn.reply.ops))], skip_unappliable=True)


def test_rejecting_the_command_an_accepted_undo_took_back_undoes_nothing(
        tmp_path: Path) -> None:
    session, root = _tour(tmp_path)
    with Review.open(session, root) as review:
        _accept_all(review)
        assert review.decisions[UNDO].undoes == "rn greeter/legacy_format.py greeter/legacy.py"
        assert (root / "notes" / "scratch.tmp").is_file()
        assert (root / "greeter" / "legacy_format.py").is_file()
        review.decide(RN, Decision.reject())
        # The restored file stays; the :undo lands nowhere and says why: the command of
        # its reply it takes back did not run (QA s45 helper-139 #7: it reached an
        # earlier command instead, depending on the order of the decisions).
        assert (root / "notes" / "scratch.tmp").is_file()
        assert (root / "greeter" / "legacy_format.py").is_file()
        outcome = review.outcome(UNDO)
        assert outcome.status is Status.NOT_FOUND
        assert outcome.rule == "nothing-to-undo"
        assert "takes back :rn greeter/legacy_format.py greeter/legacy.py" in outcome.message
        # Accepted again, it still takes back nothing: never the :unrm.
        with pytest.raises(DecisionRefused):
            review.decide(UNDO, Decision.accept())
        assert (root / "notes" / "scratch.tmp").is_file()
    with Review.open(session, root) as again:
        assert again.outcome(UNDO).rule == "nothing-to-undo"
        assert (root / "notes" / "scratch.tmp").is_file()


def test_an_undo_accepted_before_its_target_landed_waits_for_it(tmp_path: Path) -> None:
    """A :undo accepted alone takes back what the workbench showed it taking back (the
    :rn, landing pending): it lands once that is accepted, not before on something else."""
    session, root = _tour(tmp_path)
    with Review.open(session, root) as review:
        for turn in review.session.turns[:4]:
            review.decide_many([((turn.index, pos), Decision.accept())
                                for pos in range(len(turn.reply.ops))],
                               skip_unappliable=True)
        review.decide_many([(UNRM, Decision.accept()), (UNDO, Decision.accept())],
                           skip_unappliable=True)
        assert review.decisions[UNDO].undoes == "rn greeter/legacy_format.py greeter/legacy.py"
        assert (root / "notes" / "scratch.tmp").is_file()  # not undone in the :rn's place
        review.decide(RN, Decision.accept())
        assert (root / "greeter" / "legacy_format.py").is_file()  # renamed, then undone
        assert not (root / "greeter" / "legacy.py").exists()
        assert (root / "notes" / "scratch.tmp").is_file()
