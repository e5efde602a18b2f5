"""A text's UTF-8 bytes and its content key, worked out once per text object.

The syntax checks key their caches by content (a tree per version, diagnostics per pair
of versions) and tree-sitter reads bytes. Asked of every operation of a file, each of
them encoded and hashed both versions again: on a 3 MB file that was seven encodes and
four hashes an operation, most of ``check``'s 50 ms per edit. A version's text is one
object for as long as the decode cache holds it (``core/model/filestate.py``), so the
bytes and the key are remembered by the object's identity (the object is held, so its
id is not reused), within a budget of bytes: a big file's versions do not pile up.
"""

from __future__ import annotations

import _thread
from collections import OrderedDict
from sys import getsizeof

try:  # hashlib would load OpenSSL, ~3 ms of a one-turn ``check``'s start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without its own blake2
    from hashlib import blake2b

_COUNT = 256  # texts remembered at most
_BUDGET = 48 << 20  # and their bytes and encodings together (the latest always kept)
# id(text) -> (text, its bytes, its key)
_known: OrderedDict[int, tuple[str, bytes, str]] = OrderedDict()
_size = [0]
_lock = _thread.allocate_lock()  # (the workbench checks from workers too)


def content_key(data: bytes) -> str:
    """The key of some bytes: a 256-bit BLAKE2b digest, as collision-proof as sha256."""
    return blake2b(data, digest_size=32).hexdigest()


def _entry(text: str) -> tuple[str, bytes, str]:
    with _lock:
        found = _known.get(id(text))
        if found is not None and found[0] is text:
            _known.move_to_end(id(text))
            return found
    # surrogatepass: one byte string per text (a lone surrogate from a tolerant decode
    # kept apart from "?", which "replace" would have made of it)
    data = text.encode("utf-8", "surrogatepass")
    entry = (text, data, content_key(data))
    with _lock:
        replaced = _known.pop(id(text), None)
        if replaced is not None:
            _size[0] -= len(replaced[1]) + getsizeof(replaced[0])
        _known[id(text)] = entry
        _size[0] += len(data) + getsizeof(text)
        while len(_known) > 1 and (len(_known) > _COUNT or _size[0] > _BUDGET):
            old_text, old_data, _ = _known.popitem(last=False)[1]
            _size[0] -= len(old_data) + getsizeof(old_text)
    return entry


def encoded(text: str) -> bytes:
    """``text`` as UTF-8 (lone surrogates passed through)."""
    return _entry(text)[1]


def text_key(text: str) -> str:
    """The content key of ``text``'s UTF-8 bytes (:func:`encoded`)."""
    return _entry(text)[2]
