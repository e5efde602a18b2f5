"""What ``restore --yes`` prints is what the restore left: a conflict the opening found
at the checkpoint then on disk, and the restore settled, is not printed as one (QA s46
helper-141 F10: three conflict lines, then "restored" with none, exit 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main

SESSION = """## Turn 1
> edit m

--- File: m.py ---
<<<<<<< SEARCH
    return 1
=======
    return 10
>>>>>>> REPLACE

### Changed files:
- (above)

## Turn 2
> a new file

--- File: new.py ---
```python
print("new")
```

### Changed files:
- new.py (new)
"""


def test_back_to_the_last_checkpoint_prints_no_conflict_it_settled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text("def a():\n    return 1\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    state = str(tmp_path / "st.json")
    common = [str(session), "--root", str(root), "--state", state]
    assert main(["apply", *common, "--yes"]) == 0
    with (root / "m.py").open("a") as m:
        m.write("# outside line\n")
    (root / "new.py").write_text('print("new")\nprint("outside")\n')
    assert main(["restore", *common, "--checkpoint", "0", "--yes"]) == 1  # conflicts kept
    assert "2 conflicts" in capsys.readouterr().out
    assert main(["restore", *common, "--checkpoint", "2", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "conflict" not in out, out
    assert "checkpoint 2 restored" in out
    assert (root / "m.py").read_text() == "def a():\n    return 10\n# outside line\n"
