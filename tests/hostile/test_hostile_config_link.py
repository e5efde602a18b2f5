"""Threat: a project (or a session's folder) ships ``reviewtui.toml`` as a symbolic link to a
file elsewhere on the reviewer's machine, so reviewtui reads and acts on a file that is not the
project's: another project's trusted ``[checks]``, a file of the reviewer's own.

A linked configuration that leads out of its folder is refused, as git refuses a linked
``.gitattributes``: every command stops with a message naming the file and the rule, before
anything is applied or run. A link to a file inside the folder is read as that file.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main
from reviewtui.core.errors import ConfigError
from reviewtui.shell.project import load_project

MARK = "import sys\nopen(sys.argv[1], 'a').write('ran\\n')\n"

SESSION = """\
# Session: link

## Turn 1
> bump

--- File: app.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE
"""


def _elsewhere(arena: Any) -> Path:
    """A configuration outside the project whose check would leave a mark if it ran, and
    which reserves app.py (so reading it shows in the result)."""
    script = arena.work / "mark.py"
    script.write_text(MARK)
    command = " ".join(shlex.quote(w) for w in (sys.executable, str(script),
                                                str(arena.work / "ran"))) + " {path}"
    config = arena.work / "elsewhere" / "reviewtui.toml"
    config.parent.mkdir()
    config.write_text('[reserved]\npaths = ["app.py"]\n\n'
                      f'[checks]\n"*.py" = {json.dumps(command)}\n')
    return config


def _project(arena: Any) -> Path:
    (arena.root / "app.py").write_text("x = 1\n")
    session = arena.work / "s.md"
    session.write_text(SESSION)
    return session


@pytest.mark.parametrize("command", ["check", "apply"])
def test_a_root_config_linked_out_of_the_project_stops_every_command(
    arena: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    session = _project(arena)
    (arena.root / "reviewtui.toml").symlink_to(_elsewhere(arena))
    extra = ["--yes"] if command == "apply" else []
    code = main([command, str(session), "--root", str(arena.root), "--trust-checks", *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert "reviewtui.toml" in err
    assert "[config-link]" in err
    assert "Traceback" not in err
    assert (arena.root / "app.py").read_text() == "x = 1\n"  # nothing applied
    assert not (arena.work / "ran").exists()  # the linked file's check never ran


def test_a_session_folder_config_linked_out_is_refused_too(arena: Any) -> None:
    _project(arena)
    folder = arena.work / "downloaded"
    folder.mkdir()
    (folder / "reviewtui.toml").symlink_to(_elsewhere(arena))
    with pytest.raises(ConfigError) as refused:
        load_project(None, config_dirs=(folder,))
    assert refused.value.rule == "config-link"


def test_a_link_through_a_folder_link_that_leaves_is_refused(arena: Any) -> None:
    """The link itself points inside, but through a folder that is a link out: what counts
    is where it leads."""
    _project(arena)
    elsewhere = _elsewhere(arena)
    (arena.root / "conf").symlink_to(elsewhere.parent, target_is_directory=True)
    (arena.root / "reviewtui.toml").symlink_to("conf/reviewtui.toml")
    with pytest.raises(ConfigError) as refused:
        load_project(arena.root, lazy=True)
    assert refused.value.rule == "config-link"


def test_a_link_to_a_file_inside_the_project_is_read(
    arena: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    session = _project(arena)
    (arena.root / "config").mkdir()
    (arena.root / "config" / "review.toml").write_text('[reserved]\npaths = ["app.py"]\n')
    (arena.root / "reviewtui.toml").symlink_to("config/review.toml")
    assert load_project(arena.root, lazy=True).config.reserved == ("app.py",)
    code = main(["apply", str(session), "--root", str(arena.root), "--yes"])
    out = capsys.readouterr().out
    assert code == 1  # the edit is refused by the linked file's rule
    assert "reserved" in out
    assert (arena.root / "app.py").read_text() == "x = 1\n"
