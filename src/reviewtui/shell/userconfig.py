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


# --- layout: the workbench's last view choices --------------------------------------

LAYOUT_DEFAULTS: dict[str, bool | int | str] = {
    "panel": True,  # the turn and operation lists beside the diff
    "mode": "split",  # "split" or "unified"
    "wrap": True,  # soft-wrap long diff lines (else: scroll sideways)
    "whitespace": False,  # ignore whitespace in the diff
    "context": 3,  # unchanged lines around each change
}


def layout_path() -> Path:
    """Beside config.toml, which stays the user's own: this one the workbench rewrites."""
    return config_path().with_name("layout.toml")


def load_layout(path: Path | None = None) -> dict[str, bool | int | str]:
    """The remembered layout; a missing, unreadable or odd entry falls back to its default."""
    layout = dict(LAYOUT_DEFAULTS)
    path = path or layout_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return layout
    for key, default in LAYOUT_DEFAULTS.items():
        value = data.get(key)
        if isinstance(default, bool):
            if isinstance(value, bool):
                layout[key] = value
        elif isinstance(default, int):
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 50:
                layout[key] = value
        elif value in ("split", "unified"):
            layout[key] = value
    return layout


def save_layout(layout: dict[str, bool | int | str], path: Path | None = None) -> None:
    """Write the layout (best effort: a read-only config folder only loses the memory)."""
    from reviewtui.shell.disk import atomic_write

    path = path or layout_path()
    lines = ["# reviewtui remembers the workbench's last layout here (rewritten on change)"]
    for key in LAYOUT_DEFAULTS:
        value = layout.get(key, LAYOUT_DEFAULTS[key])
        shown = ("true" if value else "false") if isinstance(value, bool) else (
            str(value) if isinstance(value, int) else f'"{value}"')
        lines.append(f"{key} = {shown}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path.parent, path.name, ("\n".join(lines) + "\n").encode("utf-8"))
    except Exception:  # noqa: BLE001 - remembering the layout must never break a review
        return
