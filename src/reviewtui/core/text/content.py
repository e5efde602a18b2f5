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

from sys import getsizeof

try:  # hashlib would load OpenSSL, ~3 ms of a one-turn ``check``'s start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without its own blake2
    from hashlib import blake2b

from reviewtui.core.text.kept import KeptByIdentity

# id(text) -> (its bytes, its key): 256 texts at most, within 48 MB of texts and bytes.
_known = KeptByIdentity(256, 48 << 20)


def content_key(data: bytes) -> str:
    """The key of some bytes: a 256-bit BLAKE2b digest, as collision-proof as sha256."""
    return blake2b(data, digest_size=32).hexdigest()


def _entry(text: str) -> tuple[bytes, str]:
    found = _known.get(text)
    if isinstance(found, tuple):
        return found
    # surrogatepass: one byte string per text (a lone surrogate from a tolerant decode
    # kept apart from "?", which "replace" would have made of it)
    data = text.encode("utf-8", "surrogatepass")
    entry = (data, content_key(data))
    _known.put(text, entry, len(data) + getsizeof(text))
    return entry


def encoded(text: str) -> bytes:
    """``text`` as UTF-8 (lone surrogates passed through)."""
    return _entry(text)[0]


def text_key(text: str) -> str:
    """The content key of ``text``'s UTF-8 bytes (:func:`encoded`)."""
    return _entry(text)[1]
