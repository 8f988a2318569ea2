"""The hearing reaches the session only through its seam (host.hearing.scorekeeper's
``Scorekeeper``): a word played, a word asked about and answered, a question about the
game while the host asks, a word put right, table talk and undo, with the session
wrapped so that every name the hearing uses on it is written down."""

from __future__ import annotations

import support

from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.host.hearing.scorekeeper import MEMBERS


class Watched:
    """A session, and every name read on it."""

    def __init__(self, session) -> None:
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "used", set())

    def __getattr__(self, name: str):
        self.used.add(name)
        return getattr(self._session, name)

    def __setattr__(self, name: str, value) -> None:
        self.used.add("=" + name)  # the hearing never sets anything on the session
        setattr(self._session, name, value)


def test_a_game_heard_at_the_table_uses_nothing_of_the_session_but_its_seam(table):
    t = table()
    watched = Watched(t.session)
    hearing = Hearing(watched, t.session.words, HearingSettings())
    said = support.said
    assert said(t, hearing, support.Heard(10, "percents", "Ann"))[0] == "Ann scores 5 points for percents."
    assert said(t, hearing, support.Heard(12, "no persons", "Ann"))[:2] == [
        "Sorry, Ann: persons, not percents.", "Ann scores 3 points for persons."]
    t("@board W B J S L C D G")
    said(t, hearing, support.unsure(30, "cheers", ["cheers", "chews"], speaker="Ben"))
    out = said(t, hearing, support.Heard(31.5, "what's the score", "Cat"))
    assert out[0].startswith("Round 1 of 6. Scores:")
    said(t, hearing, support.Heard(33, "chews", "Ben"))
    assert said(t, hearing, support.Heard(40, "wait", "Cat")) == ["Take your time."]
    said(t, hearing, support.Heard(45, "undo", "Ben"))
    assert t.game.state.used == [("persons", "Ann")]
    assert watched.used and watched.used <= MEMBERS, sorted(watched.used - MEMBERS)
