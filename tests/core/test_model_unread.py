"""An unread file (``core/model/unread.py``) is, once anything looks at its content, exactly
the FileState its bytes make; before that, only its name and mode are known, and nothing a
reader can ask shows it as empty.

The reads are counted: each file is read once at most, and a session's evaluation reads
the files its operations touch and no other.
"""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import assert_same, base_files, make_tree, session_text

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.engine.links import is_link
from reviewtui.core.errors import DiskError
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.model.unread import UnreadFile
from reviewtui.core.protocol.session import parse_session


class Reads:
    """Read functions over a dict of bytes, each read counted by path."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files, self.count = files, dict.fromkeys(files, 0)

    def reader(self, path: str):  # type: ignore[no-untyped-def]
        def read() -> bytes:
            self.count[path] += 1
            return self.files[path]
        return read

    def tree(self, modes: dict[str, int] | None = None) -> Tree:
        return Tree.from_files({path: UnreadFile(self.reader(path), (modes or {}).get(
            path, 0o644)) for path in self.files})

    @property
    def read(self) -> set[str]:
        return {path for path, n in self.count.items() if n}


CONTENTS = st.one_of(
    st.binary(max_size=200),
    st.lists(st.sampled_from(["x = 1", "", "é", "\t\ty", "a\r", "\x00", "\ufeffz", "# c"]),
             max_size=8).flatmap(lambda lines: st.sampled_from(["\n", "\r\n"]).map(
                 lambda end: end.join(lines).encode())),
    st.sampled_from([b"", b"\n", b"\xef\xbb\xbf", b"\xef\xbb\xbfa\r\nb\n", b"a\nb", b"\xff\n"]),
)


@settings(max_examples=200, deadline=None)
@given(data=CONTENTS, mode=st.sampled_from([0o644, 0o755, 0o100600, 0o4755]),
       first=st.sampled_from(["data", "text", "lines", "eol", "binary", "digest", "eq",
                              "line_count", "final_newline", "hash", "size"]))
def test_once_read_it_is_what_from_bytes_makes(data: bytes, mode: int, first: str) -> None:
    reads = Reads({"f": data})
    unread = UnreadFile(reads.reader("f"), mode)
    made = FileState.from_bytes(data, mode=mode)
    assert unread.unread
    assert unread.mode == made.mode
    assert unread.revision == 0
    assert reads.count["f"] == 0  # the mode and the revision are known without a read
    # Whatever is asked first, the read happens then, once.
    if first == "eq":
        assert unread == made
    elif first == "hash":
        assert hash(unread) == hash(made)
    else:
        getattr(unread, first)
    assert reads.count["f"] == 1
    assert not unread.unread
    for name in ("data", "binary", "bom", "eol", "newline", "final_newline", "encoding",
                 "text", "line_count", "size", "digest"):
        assert getattr(unread, name) == getattr(made, name), name
    if not made.binary:
        assert unread.lines == made.lines
    assert unread == made
    assert made == unread
    assert hash(unread) == hash(made)
    assert reads.count["f"] == 1


def test_an_edit_of_an_unread_file_reads_it_and_edits_its_bytes() -> None:
    reads = Reads({"f": b"a\r\nb\r\n"})
    unread = UnreadFile(reads.reader("f"))
    edited = unread.splice(1, 2, ["c"])
    assert edited.data == b"a\r\nc\r\n"
    assert edited.revision == 1
    assert reads.count["f"] == 1
    assert unread.with_data(b"a\r\nb\r\n") is unread  # the same bytes: the same version


def test_names_modes_and_links_need_no_read() -> None:
    reads = Reads({"a.py": b"x\n", "d/b.py": b"y\n", "d/e/c.sh": b"z\n"})
    tree = reads.tree({"d/e/c.sh": 0o755})
    assert sorted(tree.paths()) == ["a.py", "d/b.py", "d/e/c.sh"]
    assert tree.get("d/e/c.sh") is not None
    assert not any(is_link(state) for _, state in tree.items())
    assert tree.diff(tree) == {}
    assert "d/b.py" in tree
    changed = tree.put({"a.py": FileState.from_bytes(b"new\n")}, 1).remove("d/b.py")
    moved = changed.rename({"d/e/c.sh": "c.sh"})
    assert moved.get("c.sh") is tree.get("d/e/c.sh")  # moved, still unread
    assert reads.read == set()
    # A diff tells changed content by comparing it: the one path whose object changed.
    assert set(moved.diff(tree)) == {"a.py", "d/b.py", "d/e/c.sh", "c.sh"}
    assert reads.read == {"a.py"}
    assert repr(tree.get("d/b.py")) == "UnreadFile(mode=644)"


def test_a_failed_read_raises_its_error_and_is_tried_again() -> None:
    attempts: list[int] = []

    def read() -> bytes:
        attempts.append(1)
        if len(attempts) == 1:
            raise DiskError("cannot read: gone", source="f", rule="changed-while-reading")
        return b"back\n"

    unread = UnreadFile(read)
    with pytest.raises(DiskError, match="gone"):
        unread.text  # noqa: B018 (the read is the point)
    assert unread.unread  # nothing was taken for its content
    assert unread.text == "back\n"
    assert len(attempts) == 2


def test_two_threads_asking_at_once_read_once() -> None:
    count: list[int] = []

    def slow() -> bytes:
        count.append(1)
        time.sleep(0.05)
        return b"a\nb\n"

    unread = UnreadFile(slow)
    seen: list[tuple[str, ...]] = []
    threads = [threading.Thread(target=lambda: seen.append(unread.lines)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert count == [1]
    assert seen == [("a", "b")] * 4


def test_evaluation_reads_only_the_files_its_operations_touch() -> None:
    files = {f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n".encode() for i in range(50)}
    reads = Reads(files)
    session = parse_session(
        "## Turn 1\n> go\n\n--- File: pkg/m7.py ---\n<<<<<<< SEARCH\n    return 7\n"
        "=======\n    return 70\n>>>>>>> REPLACE\n\n"
        "--- File: new.py ---\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n")
    lazy = evaluate_session(session, reads.tree(), policy=Policy.headless())
    eager = evaluate_session(session, Tree.from_files(
        {path: FileState.from_bytes(data) for path, data in files.items()}),
        policy=Policy.headless())
    assert [r.outcome.status for t in lazy.turns for r in t.results] == [
        r.outcome.status for t in eager.turns for r in t.results]
    final = lazy.states[-1].tree
    assert final.get("pkg/m7.py").data == b"def f7():\n    return 70\n"  # type: ignore[union-attr]
    assert reads.read == {"pkg/m7.py"}
    assert final == eager.states[-1].tree  # (this reads them all)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=session_text, files=base_files)
def test_a_session_over_unread_files_runs_as_over_read_ones(text: str,
                                                            files: dict[str, str]) -> None:
    """Edits, whole files and console commands (moves of unread files, removals, undo,
    restore) over a base of unread files: the same outcomes, checkpoints, undo stacks and
    removed-file stores as over the files read."""
    session = parse_session(text)
    reads = Reads({path: content.encode() for path, content in files.items()})
    lazy = evaluate_session(session, reads.tree(), policy=Policy.headless())
    eager = evaluate_session(session, make_tree(files), policy=Policy.headless())
    assert_same(lazy, eager)
    assert all(n <= 1 for n in reads.count.values())
