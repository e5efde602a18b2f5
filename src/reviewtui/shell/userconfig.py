"""The user's own settings: ``$XDG_CONFIG_HOME/reviewtui/config.toml``."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from reviewtui.core.errors import ConfigError


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "reviewtui" / "config.toml"


def load_keymap(path: Path | None = None) -> dict[str, str]:
    """``[keys] accept = "y,space"``: binding id -> comma-separated keys."""
    path = path or config_path()
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read user config: {exc}", source=str(path),
                          rule="user-config") from None
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in keys.items()
    ):
        raise ConfigError('[keys] maps binding ids to key strings, e.g. accept = "y,space"',
                          source=str(path), rule="user-config")
    return dict(keys)
