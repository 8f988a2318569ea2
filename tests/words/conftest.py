"""Fixtures of the words-layer tests: one shared default lexicon per session."""

from __future__ import annotations

import pytest

from voice_host.words import Words


@pytest.fixture(scope="session")
def words() -> Words:
    """The default dictionary (built into the user cache on the first run)."""
    return Words.load()
