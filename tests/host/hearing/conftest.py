"""The hearing's tests: a table with the host's hearing on it."""

from __future__ import annotations

import pytest

from voice_host.host.hearing import Hearing, HearingSettings


@pytest.fixture
def ear(table):
    """(the table, a Hearing with the default settings on its session)."""
    t = table()
    return t, Hearing(t.session, t.session.words, HearingSettings())
