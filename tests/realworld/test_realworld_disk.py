"""Issue 12's last item and issue 14's items 2-4 on a real disk, through ``reviewtui apply``.

The engine tests show the intended trees; these show the replay writes them: a mode
change of an existing file reaches the disk (it used to be dropped with exit 0), a CRLF
new file keeps its CRs, a binary literal is written byte for byte, a symbolic link is made
as a link, and a binary change without data is refused with exit 1, nothing written for it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from reviewtui.cli import main

MODE_AND_CRLF = (
    "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
    "diff --git a/win.bat b/win.bat\nnew file mode 100644\n--- /dev/null\n+++ b/win.bat\n"
    "@@ -0,0 +1,2 @@\n+@echo off\r\n+echo hi\r\n"
)


def apply(tmp_path: Path, root: Path, text: str) -> int:
    patch = tmp_path / "change.diff"
    patch.write_text(text, newline="")
    return main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(root)])


def test_mode_change_and_crlf_new_file_reach_the_disk(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "run.sh").write_text("echo run\n")
    os.chmod(root / "run.sh", 0o644)
    assert apply(tmp_path, root, MODE_AND_CRLF) == 0
    assert stat.S_IMODE((root / "run.sh").stat().st_mode) == 0o755
    assert (root / "run.sh").read_bytes() == b"echo run\n"
    assert (root / "win.bat").read_bytes() == b"@echo off\r\necho hi\r\n"
    capsys.readouterr()
    # Applied again: already there, nothing rewritten, still exit 0.
    assert apply(tmp_path, root, MODE_AND_CRLF.split("diff --git a/win.bat")[0]) == 0
    assert "0 files written" in capsys.readouterr().out


def test_link_is_made_and_dataless_binary_is_refused_with_exit_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "x.bin").write_bytes(b"\0old")
    text = ("diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n"
            "@@ -0,0 +1 @@\n+x.bin\n\\ No newline at end of file\n"
            "diff --git a/x.bin b/x.bin\nindex 1234567..89abcde 100644\n"
            "Binary files a/x.bin and b/x.bin differ\n")
    assert apply(tmp_path, root, text) == 1
    out = capsys.readouterr().out
    assert "carries no data" in out
    assert os.readlink(root / "link") == "x.bin"  # a link, never a file holding "x.bin"
    assert (root / "x.bin").read_bytes() == b"\0old"


LINKS = ("diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n"
         "@@ -0,0 +1 @@\n+f.txt\n\\ No newline at end of file\n"
         "diff --git a/old b/old\nindex 1111111..2222222 120000\n--- a/old\n+++ b/old\n"
         "@@ -1 +1 @@\n-f.txt\n\\ No newline at end of file\n+l\n"
         "\\ No newline at end of file\n")


def test_links_go_through_the_review_state_and_restore(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "f.txt").write_text("f\n")
    (root / "old").symlink_to("f.txt")
    patch = tmp_path / "change.diff"
    patch.write_text(LINKS)
    state = tmp_path / "s.review.json"
    assert main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(root),
                 "--state", str(state)]) == 0
    assert (os.readlink(root / "l"), os.readlink(root / "old")) == ("f.txt", "l")
    # The state file keeps links as links: restoring checkpoint 0 puts the old one back.
    assert main(["restore", str(patch), "--format", "unified", "--root", str(root),
                 "--state", str(state), "--checkpoint", "0", "--yes"]) == 0
    assert os.readlink(root / "old") == "f.txt"
    assert not (root / "l").is_symlink()
    assert not (root / "l").exists()
    assert (root / "f.txt").read_text() == "f\n"
