"""Sentences out (voice_host.host.announce): one table of events and the sentences the
host says for them, and the checks that no event type and no refusal code goes unsaid."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from voice_host.games import events as shared
from voice_host.games.dexikon import events as D
from voice_host.games.phlounder import events as F
from voice_host.games.prolix import events as P
from voice_host.games.road import events as R
from voice_host.host.announce import Announcer, reason, sentence
from voice_host.host.announce.refusals import REASONS

ROOT = Path(__file__).resolve().parents[3]
FIVE_N = F.Target("5", "N", (4, 7))
JEWELERS = (("W", 5), ("J", 5), ("S", 3), ("L", 2))

SAID = [
    # every game
    (shared.GameStarted("prolix-duel", ("Ann", "Ben"), 0, 5), "Prolix Duel for Ann and Ben: first to 5 marks wins."),
    (shared.StartDraws(((("Ann", "K"), ("Ben", "C")),), "Ben"), "Drawing for first player: Ann K, Ben C. Ben starts."),
    (shared.TurnStarted("Ben", 1), "Round 1: Ben's turn."),
    (shared.TurnStarted("Ben", 1, again=True), "Ben, go again."),
    (shared.ChallengeResolved("Cat", "Ben", "jibblewock", False, reason="not_found"),
     "The challenge succeeds: jibblewock is void, it is not in the dictionary."),
    (shared.ChallengeResolved("Ben", "Ann", "jewelers", True, by_vote=True, penalty=2),
     "The table knows it: jewelers stands. Ben's challenge fails and costs 2 points at the end."),
    (shared.ScoresReport((shared.Standing("Ann", 15), shared.Standing("Ben", 0)), 1, 6),
     "Round 1 of 6. Scores: Ann 15; Ben 0."),
    (shared.GameOver((shared.Standing("Ann", 19), shared.Standing("Ben", 19)), ("Ann", "Ben"), "shared"),
     "Game over. Final scores: Ann 19; Ben 19. Ann and Ben tie on points and on every word, and share the victory."),
    (shared.GameOver((shared.Standing(("Ann", "Cat"), 17), shared.Standing(("Ben", "Dan"), 15)), (("Ann", "Cat"),)),
     "Game over. Final scores: Ann and Cat 17; Ben and Dan 15. Ann and Cat win!"),
    (shared.GameOver((shared.Standing(("Ann", "Cat"), 17), shared.Standing(("Ben", "Dan"), 17)), (("Ann", "Cat"),),
                     "best_word"),
     "Game over. Final scores: Ann and Cat 17; Ben and Dan 17. Ann and Cat win the tie on the best single word."),
    (shared.RoundsSheet("Ben", ((1, "jawbones", 17, ("counts", 2)),), 19),
     "Ben's sheet. round 1: jawbones for 17 (counts, plus 2). Total 19."),
    (shared.RoundsSheet("Ann", ((1, (("fire", 7), ("fir", 6)), 13, ()), (2, None, 0, ("pass",))), 13),
     "Ann's sheet. round 1: fire 7 and fir 6 for 13; round 2: pass. Total 13."),
    # a road play's one word is said once with its points
    (shared.RoundsSheet("Ann", ((1, (("jump", 15),), 15, ()),), 15), "Ann's sheet. round 1: jump 15. Total 15."),
    (shared.TurnReport(None, 6, over=True), "Nobody's turn: the game is over."),
    (shared.TurnReport(None, 0), "Nobody's turn yet: the game hasn't begun."),
    (shared.TurnReport("Ben", 2, waiting_for="Ann"), "Round 2: Ben's turn. Waiting for Ann to draw."),
    (shared.VoidedReport((("jibblewock", "Cat", 1),)), "Voided by a challenge: jibblewock by Cat in round 1."),
    (shared.Refused("unknown_player", {"player": "Dan", "players": ("Ann", "Ben", "Cat")}),
     "I don't know a player called Dan; the players are Ann, Ben and Cat."),
    (shared.TimeReport(None, timer=False), "Nothing is on the clock in this game."),
    (shared.Refused("cheapie", {"word": "jigsaws", "earlier": "jigsaw", "by": "Ben", "rule": "plural"}),
     "No cheapies: jigsaws can't be played, Ben already played jigsaw and it only changes the plural."),
    # Prolix
    (P.WordScored("Ann", "jewelers", 15, JEWELERS), "Ann scores 15 points for jewelers."),
    (P.Interrupted("Cat", "jigsaw", 14, 2, 12, "Ben"), "Cat interrupts Ben with jigsaw: 14, minus 2, scores 12."),
    (P.AwaitDraw("Ann", 2), "Ann, draw 2 tiles and tell me the letters."),
    (P.TilesDrawn("Ann", ("M", "N")), "Ann draws M and N."),
    (P.TimerExpired("Ann"), "Time! The timer interrupts Ann."),
    (P.TieBreak((("Ann", "jeweler", 12), ("Ben", "jibblewock", 18)), ("Ben",)),
     "Tiebreaker: Ann jeweler 12; Ben jibblewock 18. Ben wins it."),
    (P.VoteAsked(("Cat", "Dan"), "jewelers"), "Cat and Dan: do you know the word jewelers? Say yes or no."),
    (P.DuelRoundStarted(2, ("Ann", 1)), "Round 2. Ann leads and carries a handicap of 1."),
    (P.DuelScored(1, (("Ann", "jewelers", 15, 15), ("Ben", "cowbell", 13, 13)), "Ann"),
     "Ann jewelers 15; Ben cowbell 13. Ann takes the mark."),
    (P.DuelScored(2, (("Ben", "jobs", 12, 12), ("Ann", None, 0, 0)), "Ben"),
     "Ben jobs 12; Ann no word. Ben takes the mark."),
    (P.DuelScored(2, (("Ben", "jobs", 12, 12), ("Ann", "jigsaw", 14, 11)), "Ben"),
     "Ben jobs 12; Ann jigsaw 14, minus 3 is 11. Ben takes the mark."),
    (P.ReduxScored(1, "Ann", (("Ann", "jewelers", 15, 0), ("Ben", "jibblewock", 0, -2), ("Cat", "cowbell", 13, -1))),
     "Round 1 scores: Ann jewelers 15; Ben jibblewock 0, minus 2; Cat cowbell 13, minus 1."),
    (P.BestWord((("jewelers", 15),), 15), "That was the best word the board allowed."),
    (P.BestWord(()), None),
    # Phlounder
    (F.DiceRolled(FIVE_N, None, "Ann"), "Ann rolls: a 5-letter noun. Go!"),
    (F.BellRung("Ben", (), ("Cat", "Ann")), "Bell! Ben, your word? Cat and Ann: your words and unused letters."),
    (F.PhlounderScored(1, "Ann", False, ("Ann", "zzzzq", "not_found"), (), (("Ann", -5), ("Ben", 7)), 2, False),
     "Round 1: Ann's bell was illegal, Ann's zzzzq: it is not in the dictionary. Ann minus 5; Ben plus 7."),
    (F.TeamsSet((("Ann", "Cat"), ("Ben", "Dan"))), "Teams: Ann and Cat; Ben and Dan."),
    (F.TeamSheet(("Ann", "Cat"), ((1, "Ann", True, (("Ann", "table", 5, True), ("Cat", "chair", 5, True)), 2, 12),
                                  (2, "Cat", False, (), 0, -10)), 2),
     "Ann and Cat's sheet. round 1: Ann table 5, Cat chair 5 and 2 for Ann's bell: 12; "
     "round 2: Cat's illegal bell: minus 10. Total 2."),
    (F.TeamSheet(("Ben", "Dan"), ((1, "Ann", True, (("Ben", "lamp", 2, True), ("Dan", None, -1, False)), 0, 1),
                                  (2, "Cat", False, (), 0, 14),
                                  (3, "Ben", True, (("Ben", "ruin", 4, True), ("Dan", "zorp", -4, False)), 2, 2)), 17),
     "Ben and Dan's sheet. round 1: Ben lamp 2 and Dan no word, minus 1: 1; round 2: Cat's illegal bell: plus 14; "
     "round 3: Ben ruin 4, Dan zorp doesn't count, minus 4 and 2 for Ben's bell: 2. Total 17."),
    (F.TeamSheet(("Ann", "Cat"), (), 0), "Ann and Cat's sheet: nothing yet. Total 0."),
    # Dexikon
    (D.WordBanked("Ann", "catch", 5, 1), "Ann banks catch for 5 points: 1 word banked."),
    (D.WordSpent("Ann", None, None), "Ann spends."),
    (D.ConcedeAsked("Ann", "catch"), "Ann, do you concede catch? Say concede, or check to look it up."),
    (D.TallyNoted("Ann", "returned", 1, 0), "Ann returns 1 penalty card: 0 left."),
    (D.LastWordsWaiting(("Ann", "Ben"), ()), "Last words: waiting for a last word from Ann and Ben."),
    (D.LastWordsWaiting(("Ben",), (("Ann", "counterfeiting"),)),
     "Last words: waiting for a last word from Ben; Ann's counterfeiting can still be challenged."),
    (D.LastWordsWaiting((), (("Ben", "xyzzyq"),)),
     "Last words: every last word is in; Ben's xyzzyq can still be challenged."),
    # road
    (R.RoadPlayed("Ann", (("fire", 7), ("fir", 6)), 13, 13, 80), "Ann plays fire 7 and fir 6: 13 points, 13 in all. 80 tiles left in the bag."),
    (R.LastChance("Ben"), "Ben, everyone else has passed: if you pass too, the game ends."),
    (R.RoadStarted(("Ann", "Ben"), 10, 0),
     "Road game for Ann and Ben. Each player draws 10 tiles. The racks take every tile: the bag is empty, "
     "so there are no mulligans."),
    (shared.Refused("bad_tiles", {"tiles": 11, "rack": 10}), "A rack holds 10 tiles, so a play can't use 11."),
    (shared.Refused("bad_tiles", {"tiles": 0, "rack": 10}), "A play puts at least one tile on the board."),
    (shared.Refused("set_too_small", {"set_size": 20, "players": 3, "rack": 10}),
     "A set of 20 tiles can't fill 3 racks of 10: it needs at least 30 tiles."),
]


@pytest.mark.parametrize("event, said", SAID, ids=[type(e).__name__ for e, _ in SAID])
def test_each_event_is_said(event, said):
    assert sentence(event) == said
    assert Announcer().say(event) == said


def event_types() -> list[type]:
    modules = [shared, *(importlib.import_module(f"voice_host.games.{f}.events") for f in shared.FAMILIES)]
    return sorted({cls for m in modules for _, cls in inspect.getmembers(m, inspect.isclass)
                   if issubclass(cls, shared.Event) and cls is not shared.Event}, key=lambda c: c.__name__)


def test_every_event_type_has_a_sentence():
    unsaid = sentence.dispatch(shared.Event)
    missing = [cls.__name__ for cls in event_types() if sentence.dispatch(cls) is unsaid]
    assert missing == []
    assert len(event_types()) > 60


def test_an_event_without_a_sentence_fails_loudly():
    class Unheard(shared.Event):
        pass

    with pytest.raises(NotImplementedError, match="Unheard"):
        sentence(Unheard())


def refusal_codes() -> set[str]:
    """Every refusal code the code gives (rules, phrases, the host, the script reader)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "voice_host").rglob("*.py")
                       if "announce" not in p.parts)
    return (set(re.findall(r'(?:Refusal|Refused|Unplayable|_refuse)\(\s*"([a-z_]+)"', source))
            | set(re.findall(r'"error": "([a-z_]+)"', source)))


def test_every_refusal_code_has_a_reason():
    codes = refusal_codes()
    assert len(codes) > 60
    assert sorted(codes - set(REASONS)) == []


def test_a_reason_missing_its_details_is_still_a_sentence():
    assert reason("no_such_code", {}) == "I can't do that right now."
    assert reason("cheapie", {}) == "I can't do that right now."
