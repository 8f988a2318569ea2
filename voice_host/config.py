"""Settings: config/default.toml, a table's own TOML file on top, CLI overrides last.

The merged result is a plain dict (what the event log's header stores, so a resumed
game runs with exactly the settings it started with). The table's file is checked
against config/default.toml's keys when it is read (voice_host.config_schema: a value of
the wrong type or range, an unknown key or section, said in one sentence); a resumed
log's header is not checked again, so an old log still resumes.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from voice_host.config_schema import SettingsProblem, check

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"


def merge(base: dict, extra: dict) -> dict:
    """Deep-merge ``extra`` over ``base`` (a new dict)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def read_toml(path: str | Path) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def load(path: str | Path | None = None, overrides: dict | None = None) -> dict:
    """The merged configuration, with each game's tile set read in from its file.

    Raises ``SettingsProblem`` (a ValueError) with one sentence when the table's file
    holds a key or a value the host cannot use. ``overrides`` (the command line's
    options, checked there with the same limits, or a benchmark's) are not checked."""
    cfg = read_toml(CONFIG_DIR / "default.toml")
    base_dir = CONFIG_DIR
    if path is not None:
        cfg = merge(cfg, read_toml(path))
        base_dir = Path(path).resolve().parent
    check(cfg, str(path) if path is not None else None)
    cfg = merge(cfg, overrides or {})
    for section in cfg.values():
        if isinstance(section, dict) and isinstance(section.get("tiles"), str):
            tiles = Path(section["tiles"])
            if not tiles.is_absolute():
                tiles = (base_dir / tiles) if (base_dir / tiles).exists() else CONFIG_DIR / tiles
            section["tileset"] = read_toml(tiles)
    return cfg


__all__ = ["CONFIG_DIR", "SettingsProblem", "load", "merge", "read_toml"]
