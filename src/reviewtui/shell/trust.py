"""Which projects' check commands the reviewer trusts to run.

A ``reviewtui.toml`` with a ``[checks]`` table is someone else's code: its commands never run
until the reviewer trusts that exact file. Trust is remembered per sha256 of the file's bytes
in ``$XDG_CONFIG_HOME/reviewtui/trusted-checks.json``, so any change to the file asks again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path

TRUST_FILE = "trusted-checks.json"


def trust_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "reviewtui" / TRUST_FILE


def config_digest(config_bytes: bytes) -> str:
    return hashlib.sha256(config_bytes).hexdigest()


def _load(path: Path) -> dict[str, dict[str, object]]:
    """The trusted digests; an unreadable or malformed file trusts nothing."""
    import json  # here: a project without [checks] never reads the trust file

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    trusted = data.get("trusted") if isinstance(data, dict) else None
    if not isinstance(trusted, dict):
        return {}
    return {k: v for k, v in trusted.items() if isinstance(k, str) and isinstance(v, dict)}


def is_trusted(config_bytes: bytes, path: Path | None = None) -> bool:
    """Has the reviewer trusted a config file with exactly these bytes?"""
    return is_trusted_digest(config_digest(config_bytes), path)


def is_trusted_digest(digest: str, path: Path | None = None) -> bool:
    """Has the reviewer trusted the config file whose bytes have this sha256?"""
    return bool(digest) and digest in _load(path or trust_path())


def trust(config_bytes: bytes, source: str, path: Path | None = None) -> None:
    """Remember that the reviewer trusts these bytes (``source``: where they were read)."""
    trust_digest(config_digest(config_bytes), source, path)


def trust_digest(digest: str, source: str, path: Path | None = None) -> None:
    """Remember that the reviewer trusts the config file whose bytes have this sha256."""
    path = path or trust_path()
    trusted = _load(path)
    trusted[digest] = {
        "source": source,
        "trusted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    import json

    data = json.dumps({"version": 1, "trusted": trusted}, indent=2, sort_keys=True) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only when trusting: reading the trust file needs none of it

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
