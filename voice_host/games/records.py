"""The base of every action and event: a subclass is a frozen dataclass of its
annotated fields, without a decorator on each (there are about a hundred)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import dataclass_transform


@dataclass_transform(frozen_default=True)
class Record:
    """Plain, immutable data: fields, equality, a hash, a readable repr."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)
