"""The review state file's ``paths``: each path record as JSON and back, its contents as
references to the blob store (:class:`reviewtui.shell.state.BlobStore`), written first."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from reviewtui.core.digests import sha256
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.links import link_state
from reviewtui.core.errors import MissingBlob, StateFormatError
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.log import _expect, _get
from reviewtui.core.review.plan import PathRecord
from reviewtui.core.review.rebase import OutsideLayer
from reviewtui.shell.disk import LINK_MODE
from reviewtui.shell.state import PERMISSION_BITS, _is_sha

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

    from reviewtui.shell.state import BlobStore


def _content_json(state: FileState | None) -> dict[str, Any] | None:
    return None if state is None else {"sha": state.digest, "mode": state.mode}


def encode_record(record: PathRecord) -> dict[str, Any]:
    """Contents as blob references; the caller writes the blobs first (see ``blobs_of``)."""
    seen = record.seen
    data: dict[str, Any] = {
        "base": _content_json(record.base),
        "seen": None if seen is None else seen.digest,
        "ref": _content_json(record.ref),
        "outside": record.outside,
        "deleted": record.deleted,
    }
    if record.layer is not None:
        data["layer"] = _layer_json(record.layer)
    if record.note:
        data["note"] = record.note
    if record.moved_with:  # the other ends of the moves the disk holds (see PathRecord)
        data["moved_with"] = list(record.moved_with)
    if record.writing is not None:  # saved just before that write (see PathRecord)
        data["writing"] = record.writing.digest
        if record.writing_stat is not None:
            data["writing_stat"] = list(record.writing_stat)
    written_at = (record.written_at if record.written_at is not None
                  else record.saved_written_at)
    if written_at is not None:  # which draft ``ref`` is (see PathRecord)
        data["written_at"] = written_at
    if record.deleted and record.gone is not None and record.gone_at is not None:
        base, seen, ref, layer = record.gone
        data["gone"] = {"base": _content_json(base), "seen": _content_json(seen),
                        "ref": _content_json(ref), "at": record.gone_at}
        if layer is not None:
            data["gone"]["layer"] = _layer_json(layer)
    return data


def _layer_json(layer: OutsideLayer) -> dict[str, str | None]:
    return {"ours": _sha_or_none(layer.ours), "theirs": _sha_or_none(layer.theirs)}


def _layer_from(data: Any, blobs: BlobStore) -> OutsideLayer | None:
    """A saved layer's two sides (None when there is none); MissingBlob when one is gone."""
    if not isinstance(data, dict):
        return None
    return OutsideLayer(_bytes_from(data.get("ours"), blobs),
                        _bytes_from(data.get("theirs"), blobs))


def _sha_or_none(data: bytes | None) -> str | None:
    return None if data is None else sha256(data).hexdigest()


def blobs_of(record: PathRecord, *, with_ref: bool = True) -> list[tuple[str, bytes]]:
    """(sha256, content) that ``encode_record`` refers to: they go to the blob store first.

    ``ref`` (what was last written, before any outside layer) is only needed to tell an
    outside change made while the review was closed, so saves during the review may skip
    it (a content blob per write would double the writes); :meth:`Review.close` stores it.
    Without it, such a change is taken as the file's new base.
    """
    wanted = [record.base, record.ref] if with_ref else [record.base]
    layers = [record.layer]
    if record.deleted and record.gone is not None and record.gone_at is not None:
        wanted += record.gone[:3]  # (deleted outside: what it was before)
        layers.append(record.gone[3])
    out = [(s.digest, s.data) for s in wanted if s is not None]
    for layer in layers:
        if layer is not None:
            out += [(sha256(d).hexdigest(), d)
                    for d in (layer.ours, layer.theirs) if d is not None]
    return out


def _gone_from(data: Any, blobs: BlobStore) -> tuple[tuple[FileState | None, FileState | None,
                                                            FileState | None,
                                                            OutsideLayer | None], int] | None:
    """A saved ``gone`` and the log length with it; None when absent or unreadable (the
    record is read without it: the file, if it comes back, is then taken as new)."""
    if not isinstance(data, dict) or type(data.get("at")) is not int or data["at"] < 0:
        return None
    try:
        base, seen, ref = (_content_from(data.get(side), blobs)
                           for side in ("base", "seen", "ref"))
        layer = _layer_from(data.get("layer"), blobs)
    except (MissingBlob, StateFormatError, ValueError):
        return None
    return (base, seen, ref, layer), data["at"]


def _content_from(data: Any, blobs: BlobStore) -> FileState | None:
    if data is None:
        return None
    _expect(isinstance(data, dict), "a content reference is not an object")
    raw = blobs.get(_get(data, "sha", str))
    if raw is None:
        raise MissingBlob(str(data.get("sha")))
    mode = _get(data, "mode", int)
    if mode == LINK_MODE:  # a symbolic link: the blob is its target
        return link_state(raw)
    return FileState.from_bytes(raw, mode=mode & PERMISSION_BITS)


def _bytes_from(sha: Any, blobs: BlobStore) -> bytes | None:
    if sha is None:
        return None
    _expect(isinstance(sha, str), "a layer side is not a hash")
    raw = blobs.get(sha)
    if raw is None:
        raise MissingBlob(sha)
    return raw


def decode_record(path: str, data: Mapping[str, Any], blobs: BlobStore
                  ) -> tuple[PathRecord | None, str]:
    """A saved record, or (None, why) when its contents cannot be recovered."""
    try:
        base = _content_from(data.get("base"), blobs)
        seen = data.get("seen")
        _expect(seen is None or isinstance(seen, str), "bad seen hash")
        try:
            ref = _content_from(data.get("ref"), blobs)
        except MissingBlob:
            ref = None  # only needed to tell an outside change while closed; see Review
        layer = _layer_from(data.get("layer"), blobs)
    except MissingBlob as exc:
        return None, (f"{path}: the saved original content (blob {exc.sha[:12]}) is "
                      "missing; the file on disk is taken as its base")
    except StateFormatError as exc:
        return None, f"{path}: unreadable bookkeeping ({exc}); the file on disk is its base"
    record = PathRecord(base=base, seen=None, ref=ref, layer=layer,
                        outside=bool(data.get("outside")), deleted=bool(data.get("deleted")),
                        note=str(data.get("note", "")), from_state=True, saved_seen=seen,
                        saved_writing=data.get("writing"),
                        saved_writing_stat=_stat_from(data.get("writing_stat")))
    # (Untrusted: a path that is no path names nothing; one too many only holds a file.)
    ends = data.get("moved_with")
    record.moved_with = tuple(sorted({end for end in ends if isinstance(end, str)
                                      and normalize_or_none(end) == end})) if isinstance(
        ends, list) else ()
    at = data.get("written_at")
    record.saved_written_at = at if type(at) is int and 0 <= at < 1 << 62 else None
    gone = _gone_from(data.get("gone"), blobs) if record.deleted else None
    if gone is not None:
        record.gone, record.gone_at = gone
    return record, ""


def orphaned_blobs(orphaned: Iterable[Mapping[str, Any]]) -> set[str]:
    """Blobs that ignored path records under ``orphaned`` name: kept, never applied."""
    out: set[str] = set()
    for entry in orphaned:
        record = entry.get("record")
        if not isinstance(record, dict):
            continue
        gone = record.get("gone")
        for part in (record, gone if isinstance(gone, dict) else {}):
            for side in ("base", "ref", "seen"):
                content = part.get(side)
                if isinstance(content, dict) and _is_sha(content.get("sha")):
                    out.add(content["sha"])
    return out


def _stat_from(value: Any) -> tuple[int, int, int, int] | None:
    """A saved ``writing_stat`` (four whole numbers), or None for anything else."""
    if (isinstance(value, list) and len(value) == 4
            and all(type(n) is int and 0 <= n < 1 << 64 for n in value)):
        return (value[0], value[1], value[2], value[3])
    return None
