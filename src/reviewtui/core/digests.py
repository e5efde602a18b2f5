"""SHA-256 digests without loading OpenSSL for the first few of a process (start-up).

``hashlib.sha256`` comes from OpenSSL, and loading it (``_hashlib``) costs ~3.5 ms of a
short ``apply``: more than hashing what a small session hashes (the lock's root path, the
session file, each operation's fingerprint, the temp files' tags). The first
``BUILTIN_BYTES`` bytes a process hashes here go through CPython's own SHA-256, which
gives the same digests (it is the same function) at ~1/10 of OpenSSL's speed on a machine
with SHA instructions; whatever comes after goes through hashlib's, so a big session pays
at most ~2 ms for having started this way. Lock files, state files and fingerprints are
named and compared by these digests: they must never change, and they do not.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from hashlib import _Hash
    from typing import Any


def _builtin_sha256() -> Any:
    """CPython's own SHA-256 (``_sha256`` in 3.11, ``_sha2`` from 3.12), or None."""
    for name in ("_sha256", "_sha2"):
        try:
            return __import__(name).sha256
        except (ImportError, AttributeError):  # pragma: no cover - other versions, builds
            continue
    return None  # pragma: no cover


_builtin = _builtin_sha256()

BUILTIN_BYTES = 256 * 1024
_left = [BUILTIN_BYTES]  # (two threads at once may both take the last bytes: harmless)


def sha256(data: bytes = b"") -> _Hash:
    """``hashlib.sha256(data)``, the same digest."""
    if _builtin is not None and len(data) <= _left[0]:
        _left[0] -= len(data)
        made: _Hash = _builtin(data)
        return made
    import hashlib

    return hashlib.sha256(data)
