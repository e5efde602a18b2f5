"""An Aider history opened as a single file (it usually lies in the project root it
edits) keeps its review state under $XDG_STATE_HOME/reviewtui/, like the other
single-transcript formats, not beside the history in the project."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review
from reviewtui.shell.statepath import state_path_for

HISTORY = """\
# aider chat started at 2024-06-01 10:00:00

#### Make the greeting friendlier.

greeting.py
```python
<<<<<<< SEARCH
    return "Hello " + name
=======
    return "Hello there, " + name + "!"
>>>>>>> REPLACE
```
"""


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "state-home"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "greeting.py").write_text('def greet(name):\n    return "Hello " + name\n')
    (root / ".aider.chat.history.md").write_text(HISTORY)
    return root


def test_an_aider_history_keeps_its_state_under_xdg_state_home(
        tmp_path: Path, state_home: Path) -> None:
    root = _project(tmp_path)
    history = root / ".aider.chat.history.md"
    loaded = load_session(history)
    assert loaded.session.format == "aider"
    path, note = state_path_for(loaded)
    assert path.parent == state_home / "reviewtui"
    assert path.name.startswith(".aider.chat.history.md-")
    assert "a single transcript file" in note
    with Review.open(history, root) as review:
        assert review.state_path == path
        report = review.decide((1, 0), Decision.accept())
        assert report.written == ["greeting.py"]
    assert sorted(p.name for p in root.iterdir()) == [".aider.chat.history.md", "greeting.py"]
    assert path.is_file()
    assert "Hello there" in (root / "greeting.py").read_text()
    with Review.open(history, root) as review:  # found again on reopen
        assert review.state_path == path
        assert review.decisions


def test_a_review_saved_beside_an_aider_history_stays_there(
        tmp_path: Path, state_home: Path) -> None:
    """A state written beside the history (before Aider histories moved to the state
    folder) is still found: its decisions are not left behind by a fresh review."""
    root = _project(tmp_path)
    history = root / ".aider.chat.history.md"
    beside = root / ".aider.chat.history.md.review.json"
    with Review.open(history, root, state_path=beside) as review:
        review.decide((1, 0), Decision.accept())
    assert beside.is_file()
    path, note = state_path_for(load_session(history))
    assert (path, note) == (beside, "")
    with Review.open(history, root) as review:
        assert review.state_path == beside
        assert review.decisions
    assert not state_home.exists()
