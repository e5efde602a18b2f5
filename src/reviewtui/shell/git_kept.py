"""Files a review's commit stores as the blob they already are, not as ``git add`` would
make them again (:func:`kept_blobs`, for :func:`reviewtui.shell.git.build_commits`).

``git add`` converts a file's bytes by the attributes in force (``text``, ``eol``,
``core.autocrlf``): of a blob that holds CRLF, or mixed endings, a checkout writes bytes
that ``git add`` does not turn back into that blob. A file the review only moved, or whose
mode alone it changed, was then committed as another blob than the range's: a content
change no one made, exit 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from reviewtui.core.importers.gitbinary import blob_id

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.git import CommitStep, Repo


def kept_blobs(repo: Repo, step: CommitStep, removed: list[str],
               env: Mapping[str, str]) -> dict[str, str]:
    """Path -> blob, for each file ``step`` moves as it was (``step.moved``, no blob known
    for it) whose bytes are the blob of the file it was moved from: through ``git add`` a
    blob holding CRLF, which autocrlf checks out as it is, was stored LF at the new path,
    exit 0 (QA s40 helper-124 H1). Only that file's: matched by bytes alone, an LF blob's
    CRLF checkout took another removed file's CRLF blob (helper-125 H1). Likewise a file
    with CRLF whose bytes are the blob its own path holds (its mode changed alone): git
    add renormalized the CRLF blob a ``text`` attribute checks out as it is (qa55 fuzz
    seed 653, older, exit 0).

    "Are the blob": byte for byte, or as git checks that blob out at the path (``cat-file
    --filters``, the attributes of the index the commit is made in): under ``* text
    eol=crlf`` a blob of mixed endings is checked out all CRLF, and its mode change alone
    was committed as an LF blob (QA s44 helper-136 F1, fuzz seeds 1030 and 1039)."""
    sources = {old: new for new, old in step.moved.items()
               if old in removed and new not in step.blobs
               and step.changes.get(new) is not None}
    sources.update((path, path) for path, state in step.changes.items()
                   if state is not None and path not in step.blobs and path not in sources
                   and b"\r\n" in state.data)
    if not sources:
        return {}
    named = ["--", *sources] if len(sources) <= 256 else []  # (a big step: all of them)
    listed = repo.git("--literal-pathspecs", "ls-files", "-s", "-z", *named, env=env)
    found: dict[str, str] = {}
    unsure: list[tuple[str, str]] = []  # (new path, the blob its source holds)
    for entry in listed.split(b"\0"):
        meta, _, raw = entry.partition(b"\t")
        new = sources.get(raw.decode("utf-8", "surrogateescape"))
        state = step.changes.get(new) if new is not None else None
        if new is None or state is None or not meta.startswith(b"100"):
            continue
        blob = meta.split()[1].decode()
        if blob_id(state.data) == blob:
            found[new] = blob
        elif b"\r\n" in state.data and "\n" not in new:
            unsure.append((new, blob))
    if unsure:
        found.update(_checked_out_as(repo, step, unsure, env))
    return found


def _checked_out_as(repo: Repo, step: CommitStep, unsure: list[tuple[str, str]],
                    env: Mapping[str, str]) -> dict[str, str]:
    """Of ``unsure`` (path, blob), those whose bytes are what git checks the blob out as
    at that path, with the attributes of the index in ``env`` (an empty work tree: the
    review's own files do not decide). One call each (``--batch --filters`` gives the
    unconverted size in its header, so a batch of them cannot be told apart); few files
    are unsure: CRLF ones moved or changed in mode alone."""
    import tempfile  # (a review's commits with CRLF files alone)

    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="reviewtui-attr-") as empty:
        for path, blob in unsure:
            state = step.changes.get(path)
            shown = repo.git("--work-tree", empty, "cat-file", "--filters", f"--path={path}",
                             blob, env=env)
            if state is not None and shown == state.data:
                found[path] = blob
    return found
