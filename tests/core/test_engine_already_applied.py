"""Under drift, a diff whose change is already in the file is not applied twice.

Found by ``bench/history.py pallets/click 250 --drift -3``: a commit's insertion, replayed
on a newer tree that already held it (the commit came back through a merge), matched its
context where the inserted block ends and duplicated 82 lines with exit 0. GNU patch does
the same; the 3-way merge leaves the file as it is.
"""

from __future__ import annotations

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

BASE = ("import pytest\n\n\ndef test_one():\n    assert True\n\n\n"
        "def test_repr():\n    pass\n    # end\n")
NEW = "def test_new():\n    assert True\n\n\n"
# The inserted block ends as its leading context does ("assert True" and two blank
# lines): in a file that already has the block, the context matches after it too.
DIFF = """\
--- a/t.py
+++ b/t.py
@@ -5,6 +5,10 @@ def test_one():
     assert True
 
 
+def test_new():
+    assert True
+
+
 def test_repr():
     pass
     # end
"""


def run(text: str, diff: str = DIFF, path: str = "t.py") -> tuple[Status, str, bytes]:
    """The one operation's status and rule, and the file after, with ``diff`` on ``text``."""
    tree = Tree.from_files({path: FileState.from_text(text)})
    result = evaluate_session(import_unified(diff, "c.diff"), tree)
    (op,) = result.turns[0].results
    final = result.states[-1].tree.get(path)
    assert final is not None
    return op.outcome.status, op.outcome.rule, final.data


def test_the_diff_applies_on_its_own_base() -> None:
    status, _, data = run(BASE)
    assert status is Status.APPLIED
    assert data.decode() == BASE.replace("def test_repr", NEW + "def test_repr")


def test_a_change_already_there_is_refused_not_duplicated() -> None:
    already = BASE.replace("def test_repr", NEW + "def test_repr")
    status, rule, data = run(already)
    assert (status, rule) == (Status.REFUSED, "already-applied")
    assert data.decode() == already
    assert data.decode().count("def test_new") == 1


def test_an_off_line_landing_of_a_change_not_yet_there_still_applies() -> None:
    drifted = BASE.replace("import pytest\n", "import pytest\nimport click\n")
    status, _, data = run(drifted)
    assert status is Status.APPLIED
    assert data.decode().count("def test_new") == 1


# An end-pinned hunk (context above, none below: git applies it at the end of the file
# only) takes the same check. Found by ``bench/history.py junegunn/fzf 100 --drift -3``:
# commit 9dfdba41 appends two Go functions to runeindex_ref.go; on a tree three commits
# newer, which already ended with them, the three context lines ("\t}", "\treturn -1",
# "}") matched again at the new end, and the pinned path appended both functions a
# second time with exit 0 (GNU patch and git apply do the same to that file).
GO_BASE = "package algo\n\nfunc a() int {\n\tif x {\n\t}\n\treturn -1\n}\n"
GO_NEW = "\nfunc b() int {\n\tif y {\n\t}\n\treturn -1\n}\n"
GO_DIFF = """\
--- a/r.go
+++ b/r.go
@@ -5,3 +5,9 @@ func a() int {
 \t}
 \treturn -1
 }
+
+func b() int {
+\tif y {
+\t}
+\treturn -1
+}
"""


def run_go(text: str) -> tuple[Status, str, bytes]:
    return run(text, GO_DIFF, "r.go")


def test_an_end_pinned_hunk_applies_on_its_own_base() -> None:
    status, _, data = run_go(GO_BASE)
    assert status is Status.APPLIED
    assert data.decode() == GO_BASE + GO_NEW


def test_an_end_pinned_hunk_already_there_is_refused_not_appended_again() -> None:
    status, rule, data = run_go(GO_BASE + GO_NEW)
    assert (status, rule) == (Status.REFUSED, "already-applied")
    assert data.decode() == GO_BASE + GO_NEW


def test_an_end_pinned_hunk_on_a_file_grown_above_still_applies() -> None:
    grown = GO_BASE.replace("package algo\n", "package algo\n\nimport \"fmt\"\n")
    status, _, data = run_go(grown)
    assert status is Status.APPLIED
    assert data.decode() == grown + GO_NEW
