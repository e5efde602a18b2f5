"""The environment every git call runs in (``shell/git.py``): the user's, without the
``GIT_*`` variables that could slip in another repository, index, work tree or identity,
but with those saying where the user's own configuration is, and the settings reviewtui
gives git through ``GIT_CONFIG_COUNT``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

# Where your environment puts your own git configuration: kept, as HOME is (QA s55
# helper-230 R6: a core.autocrlf given so was not read, and a diff's files were written LF
# where git writes CRLF, exit 0). Every other GIT_* variable (GIT_DIR, GIT_WORK_TREE, ...)
# stays out: none decides which repository or files git reads.
_USER_CONFIG = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
                "GIT_CONFIG_PARAMETERS")


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment without ``GIT_*`` overrides but your configuration's
    (:data:`_USER_CONFIG`, and ``GIT_CONFIG_COUNT``'s settings, before the caller's own:
    later ones win), plus what the caller means to set."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GIT_") or k in _USER_CONFIG}
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C",
                "GIT_NO_LAZY_FETCH": "1"})  # (git 2.44+; before, protocol.allow=never)
    extra = dict(extra or {})
    settings = _counted(os.environ) + _counted(extra)
    extra = {k: v for k, v in extra.items() if not k.startswith("GIT_CONFIG_")
             or k in _USER_CONFIG}
    env.update(config_env(settings))
    env.update(extra)
    return env


def _counted(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """The settings ``GIT_CONFIG_COUNT`` gives in ``env`` (none where it is not a count, or
    a key or value is missing: git refuses those)."""
    count = env.get("GIT_CONFIG_COUNT", "")
    if not count.isascii() or not count.isdigit() or int(count) > 10_000:
        return []
    pairs = [(env.get(f"GIT_CONFIG_KEY_{n}"), env.get(f"GIT_CONFIG_VALUE_{n}"))
             for n in range(int(count))]
    if any(key is None or value is None for key, value in pairs):
        return []
    return [(key, value) for key, value in pairs if key is not None and value is not None]



def config_env(settings: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Configuration given to git through its environment (``GIT_CONFIG_COUNT``), not as
    ``-c KEY=VALUE``: git splits a ``-c`` argument at its first ``=``, so a key holding one
    (a filter named ``x=y``) could not be set that way, and the repository's own setting
    of it would stay on."""
    env = {"GIT_CONFIG_COUNT": str(len(settings))} if settings else {}
    for n, (key, value) in enumerate(settings):
        env[f"GIT_CONFIG_KEY_{n}"] = key
        env[f"GIT_CONFIG_VALUE_{n}"] = value
    return env
