"""``reviewtui.toml``: the project's own rules for the engine (read from text, no I/O)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

from reviewtui.core.errors import ConfigError

CONFIG_NAME = "reviewtui.toml"


@dataclass(frozen=True, slots=True)
class ProjectConfig:
    reserved: tuple[str, ...] = ()
    source: str = CONFIG_NAME


def parse_config(text: str, source: str = CONFIG_NAME) -> ProjectConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"not valid TOML: {exc}", source=source,
                          line=int(m.group(1)) if m else None, rule="toml") from None
    reserved = data.get("reserved", {})
    if not isinstance(reserved, dict):
        raise ConfigError("[reserved] must be a table", source=source, rule="reserved")
    paths = reserved.get("paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError('[reserved] paths must be a list of strings such as ["dist/**"]',
                          source=source, rule="reserved")
    return ProjectConfig(tuple(paths), source)
