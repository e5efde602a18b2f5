"""Which review states this machine wrote: a seal each save adds, by a key kept outside
every project.

A review state is untrusted input (one can be shipped beside a session). One saved for
another folder than it is opened on decides nothing on its own (``shell/resume.py``),
which also set aside a review whose project was moved, and then let its saved originals go
(QA s45 helper-140 F1: a file the review had removed could no longer be brought back).
The seal tells them apart: the state's bytes with an HMAC-SHA256 by a random key in
``$XDG_STATE_HOME/reviewtui/state-key`` (mode 600), written as the document's last key.
A state this machine sealed is its own wherever it is opened; one without a valid seal
(from elsewhere, hand-made, or saved before seals) is its own nowhere, not even on the root
it names: a shipped state can name the folder it will be checked out to (``/workspaces/
<repo>``, a CI workspace), and it removed a file as the workbench opened (QA s46 helper-141
F4). No key (an unwritable state home) seals nothing: then the root decides, as before.
"""

from __future__ import annotations

import hmac
import re

from reviewtui.shell.userkey import user_key

_SEAL = re.compile(rb',\n "seal": "([0-9a-f]{64})"\n}\n\Z')
_key: list[bytes | None] = []  # read once per process


def _the_key() -> bytes | None:
    """The key, read (or made) once per process: none is tried again at every save."""
    if not _key:
        _key.append(user_key())
    return _key[0]


def can_seal() -> bool:
    """Whether this machine has a key (an unwritable state home has none)."""
    return _the_key() is not None


def sealed(data: bytes) -> bytes:
    """``data`` (a state file's JSON, ending ``\\n}\\n``) with its seal as the last key;
    ``data`` itself without a key."""
    key = _the_key()
    if key is None or not data.endswith(b"\n}\n"):
        return data
    digest = hmac.new(key, data, "sha256").hexdigest().encode()
    return data[:-3] + b',\n "seal": "' + digest + b'"\n}\n'


def sealed_here(raw: bytes) -> bool:
    """Whether ``raw`` (a state file's bytes) carries this machine's seal over the rest."""
    found = _SEAL.search(raw)
    key = _the_key() if found is not None else None
    if found is None or key is None:
        return False
    data = raw[: found.start()] + b"\n}\n"
    return hmac.compare_digest(hmac.new(key, data, "sha256").hexdigest().encode(),
                               found.group(1))
