"""Settings, read one way everywhere: a frozen dataclass per section of the merged
configuration (config/default.toml, the table's file, the command line).

``class RoadSettings(Settings, sections=("road",))`` declares the fields with their
defaults; ``RoadSettings.from_config(cfg)`` reads them from those sections of the merged
dict (later sections win, unknown keys are ignored, lists become tuples). A subclass
that accepts older spellings of a key folds them in ``prepare``; one that checks its
values does so in ``__post_init__`` and raises ValueError with the sentence to say.

Pure: no I/O, so the rules core can declare its settings the same way
(voice_host.config reads the files).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, dataclass_transform


@dataclass_transform(frozen_default=True)
class Settings:
    """The base of every settings class (see the module's docstring)."""

    sections: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, *, sections: tuple[str, ...] = (), **kw) -> None:
        super().__init_subclass__(**kw)
        cls.sections = sections
        dataclass(frozen=True)(cls)

    @classmethod
    def prepare(cls, merged: dict) -> dict:
        """The merged sections' keys as the fields expect them (older spellings folded in)."""
        return merged

    @classmethod
    def from_config(cls, cfg: dict, **given):
        merged: dict = {}
        for name in cls.sections:
            merged.update(cfg.get(name, {}) or {})
        merged = cls.prepare(merged)
        fields = set(cls.__dataclass_fields__) - set(given)
        return cls(**given, **{k: tuple(v) if isinstance(v, list) else v for k, v in merged.items() if k in fields})


__all__ = ["Settings"]
