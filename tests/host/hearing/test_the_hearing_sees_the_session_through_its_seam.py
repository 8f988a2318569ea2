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


class Traced(Watched):
    """A session, and every name read on it in order."""

    def __init__(self, session) -> None:
        super().__init__(session)
        object.__setattr__(self, "order", [])

    def __getattr__(self, name: str):
        self.order.append(name)
        return super().__getattr__(name)


def after_the_play(order: list[str]) -> list[str]:
    return order[len(order) - order[::-1].index("play"):]


def test_once_the_hearing_has_played_a_word_it_asks_the_session_nothing_more_about_it(table):
    t = table()
    traced = Traced(t.session)
    hearing = Hearing(traced, t.session.words, HearingSettings())
    hearing.hear(support.Heard(10, "jewelers", "Ann"))
    assert "play" in traced.order and after_the_play(traced.order) == []
    traced.order.clear()  # and the word can still be put right by its player
    hearing.hear(support.Heard(11, "no jewellery", "Ann"))
    assert after_the_play(traced.order) == []
    hearing.tick(13)
    assert t.game.state.used == [("jewellery", "Ann")]


class SearchingEars:
    """A listener whose recognizer searches what may be said (moonshine's)."""

    searches = True

    def __init__(self) -> None:
        self.told: list = []

    def constrain(self, sayable) -> None:
        self.told.append(sayable)

    def expect(self, phrases) -> None:
        pass

    def hear_above(self, level_db) -> None:
        pass


def test_once_a_word_is_played_the_hearing_only_reads_the_game_to_tell_the_listener_what_comes_next(table):
    """After the play, the hearing hands the session nothing more: it reads the game as
    it now stands (what it expects, whether a word may still be put right) to tell the
    recognizer what may be said next."""
    t = table()
    traced, ears = Traced(t.session), SearchingEars()
    hearing = Hearing(traced, t.session.words, HearingSettings(), ears=ears)
    told = len(ears.told)
    hearing.hear(support.Heard(10, "jewelers", "Ann"))
    assert len(ears.told) == told + 1
    assert set(after_the_play(traced.order)) <= {"spoken", "players", "expectation", "records", "undoable"}, \
        traced.order
