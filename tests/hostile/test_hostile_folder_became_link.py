"""A folder of the project replaced by a link to outside while a review is closed: the
review opens, says which saved record it ignored, writes nothing through the link (QA
pass s32, F3: the saved base of ``docs/cv.md`` no longer fitted the tree, and opening
failed with "cannot write 'docs': it is a file, not a directory"; the live workbench
exited with status 2 and the agent's ``status`` and ``diff`` failed from then on)."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review

CV = "# CV\n\n- Rust\n"


def test_a_folder_swapped_for_an_outside_link_is_reported_not_fatal(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "cv.md").write_text(CV)
    (root / "app.py").write_text("x = 1\n")
    session = tmp_path / "session.md"
    session.write_text(
        "## Turn 1\n> go\n\n--- File: docs/cv.md ---\n<<<<<<< SEARCH\n- Rust\n=======\n"
        "- Zig\n>>>>>>> REPLACE\n\n--- File: app.py ---\n<<<<<<< SEARCH\nx = 1\n=======\n"
        "x = 2\n>>>>>>> REPLACE\n\n### Changed files:\n- docs/cv.md\n- app.py\n")
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
    assert (root / "docs" / "cv.md").read_text() == CV.replace("Rust", "Zig")
    outside.mkdir()
    (root / "docs").rename(outside / "docs")
    (root / "docs").symlink_to(outside / "docs")
    before = (outside / "docs" / "cv.md").read_bytes()
    with Review.open(session, root) as again:
        assert any("ignored the saved record of docs/cv.md" in problem
                   and "a folder on its way is no folder on disk now" in problem
                   for problem in again.state_problems), again.state_problems
        assert again.outcome((1, 0)).status is Status.REFUSED
        assert again.outcome((1, 1)).status is Status.APPLIED
    assert (outside / "docs" / "cv.md").read_bytes() == before  # nothing through the link
    assert (root / "docs").is_symlink()
    assert (root / "app.py").read_text() == "x = 2\n"
