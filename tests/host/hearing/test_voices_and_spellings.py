"""Voices enrolled in play, names heard by sound, spellings asked
about, and the game's opening said before anything heard is judged.

The utterances are what the speech layer emits; the voice prints are a stand-in that
records what the host enrolled (tests/speech has the real d-vectors on real audio).
"""

from __future__ import annotations

import numpy as np
import pytest
import support

from voice_host.host.announcer import spelling_hint
from voice_host.host.hearing import Hearing, HearingSettings
from voice_host.speech.audio import speech_level
from voice_host.host.hearing.attribute import sounds_like


def Heard(start: float, text: str, speaker: str | None = None, confidence: float = 0.0) -> support.Heard:
    """An utterance of one microphone, with its audio (for the voice prints): nobody
    attributed unless said."""
    return support.Heard(start, text, speaker, confidence, audio=np.ones(16000, np.float32))


class Prints:
    """Records enrollments like speech.voiceprint.VoicePrints (players, enroll, forget)."""

    def __init__(self):
        self.clips: dict[str, int] = {}

    @property
    def players(self):
        return list(self.clips)

    def enroll(self, name, audio):
        self.clips[name] = self.clips.get(name, 0) + 1

    def forget(self, name):
        self.clips.pop(name, None)


@pytest.fixture
def ear(table):
    def make(**kw):
        t = table(**kw)
        return t, Hearing(t.session, t.session.words, HearingSettings(), voiceprints=Prints())
    return make


said = support.said


def test_names_sound_alike():
    assert sounds_like("and", "Ann") and sounds_like("been", "Ben") and sounds_like("cut", "Cat")
    assert not sounds_like("jewelers", "Ann") and not sounds_like("bun", "Ann")


def test_a_name_heard_as_another_word_still_names_the_player(ear):
    t, hearing = ear()
    assert said(t, hearing, Heard(10, "and jawbones"))[0] == "Ann scores 17 points for jawbones."
    t("@board W B J S L C D G")
    # Ben's turn, his name heard as "been"
    assert said(t, hearing, Heard(20, "been says cowbells"))[0] == "Ben scores 16 points for cowbells."
    assert hearing.voiceprints.clips == {"Ann": 1, "Ben": 1}  # a name said first teaches the voice
    # a sentence that is chatter stays chatter, names or not
    assert said(t, hearing, Heard(30, "cut that out please")) == [
        "I didn't catch a word in 'cut that out please'. Say just the word, or 'play' and the word."]


def test_saying_who_you_are_enrolls_your_voice_at_any_moment(ear):
    t, hearing = ear()
    out = said(t, hearing, Heard(1, "I am Ben and I am ready to play"), Heard(5, "my name is cut"))
    assert out == ["Thank you, Ben. I know your voice now.", "Thank you, Cat. I know your voice now."]
    assert hearing.voiceprints.clips == {"Ben": 1, "Cat": 1}
    assert t.game.state.used == []  # not a play
    said(t, hearing, Heard(7, "i am man and i am ready to play"))  # a letter away from one name only
    assert hearing.voiceprints.clips == {"Ben": 1, "Cat": 1, "Ann": 1}
    said(t, hearing, Heard(9, "this is Ben again"))  # again: enrolled anew, not added to
    assert hearing.voiceprints.clips == {"Ben": 1, "Cat": 1, "Ann": 1}


def test_an_introduction_heard_in_two_parts_is_one_voice(ear):
    t, hearing = ear()
    out = said(t, hearing, Heard(1, "I am Ben"), Heard(2.5, "and I am ready to play"), Heard(8, "and I am ready to play"))
    # the rest of Ben's sentence adds to Ben's print ("and" is not Ann); a lone one later is chatter
    assert out == ["Thank you, Ben. I know your voice now.",
                   "I didn't catch a word in 'and i am ready to play'. Say just the word, or 'play' and the word."]
    assert hearing.voiceprints.clips == {"Ben": 2}


def test_the_opening_is_said_before_anything_heard_is_judged(ear):
    t, hearing = ear(start=None, board=None)
    out = said(t, hearing, Heard(2, "I am Ann"), Heard(6, "lanterns"))
    assert out[0] == "Thank you, Ann. I know your voice now."
    assert out[1].startswith("Prolix Classic for Ann, Ben and Cat")
    assert out[-1] == "Who said lanterns?"


def test_the_game_begins_once_every_player_has_said_who_they_are(ear):
    """A recording (`play --audio`, the demo): nobody is asked, so the board was announced
    only when the first word came, after it had been said."""
    t, hearing = ear(start=None, board=None)
    out = said(t, hearing, Heard(1, "I am Ann and I am ready to play"), Heard(5, "I am Ben and I am ready to play"))
    assert out == ["Thank you, Ann. I know your voice now.", "Thank you, Ben. I know your voice now."]
    assert not t.session.begun
    out = said(t, hearing, Heard(9, "I am Cat"))
    assert out[0] == "Thank you, Cat. I know your voice now."
    assert out[1].startswith("Prolix Classic for Ann, Ben and Cat") and out[-1].startswith("Round 1: ")
    assert said(t, hearing, Heard(10.5, "and I am ready to play")) == []  # the rest of Cat's sentence
    assert hearing.voiceprints.clips == {"Ann": 1, "Ben": 1, "Cat": 2}


def test_the_live_opening_asks_each_player_in_turn(ear):
    t, hearing = ear(start=None, board=None)
    hearing.start_enrollment(0.0)
    assert t.heard == ["Ann, so I know your voice, please say: I am Ann, and I am ready to play."]
    out = said(t, hearing, Heard(3, "hello everyone"))  # the player asked, whatever they said
    assert out == ["Thank you, Ann. I know your voice now.",
                   "Ben, so I know your voice, please say: I am Ben, and I am ready to play."]
    hearing.tick(20)  # Ben says nothing for 15 s: the host moves on to Cat
    assert t.heard[-1] == "Cat, so I know your voice, please say: I am Cat, and I am ready to play."
    out = said(t, hearing, Heard(22, "I am Cat and I am ready to play"))
    assert out[:2] == ["Thank you, Cat. I know your voice now.",
                       "I didn't hear Ben, so say your name before your word, like 'Ben, jewelers', until I know your voice."]
    assert out[2].startswith("Prolix Classic for Ann, Ben and Cat")
    assert t.session.begun and hearing.voiceprints.players == ["Ann", "Cat"]


def test_the_opening_does_not_take_a_word_of_its_own_question_heard_back_for_the_player_asked(ear):
    """Live, with the host's voice heard back before its canceller had learnt the room:
    "you", heard at 0% as the host still asked Dee to say who she is, was taken as her
    introduction ("Thank you, Dee"), so the host's own voice became Dee's print and the
    table's voices went to the wrong sheets all game. A word or two the host stopped for
    is not an introduction unless it says who it is."""
    t, hearing = ear(start=None, board=None)
    hearing.start_enrollment(0.0)
    for text in ("you", "thank"):
        heard = Heard(1, text)
        heard.barged = True
        assert said(t, hearing, heard) == []
    assert hearing.voiceprints.players == []
    out = said(t, hearing, Heard(4, "I am Ann and I am ready to play"))
    assert out[0] == "Thank you, Ann. I know your voice now."
    heard = Heard(8, "i am ben")
    heard.barged = True  # over the host's question, and saying who it is
    assert said(t, hearing, heard)[0] == "Thank you, Ben. I know your voice now."


def test_the_opening_does_not_take_a_known_voice_for_the_player_asked(ear):
    """Live, held-out table: Fay's first word, said while the host still asked Dee (whose
    introduction it had missed), was taken as Dee's: "Thank you, Dee", and Fay's voice
    went to Dee's sheet from then on. A voice the prints know surely is not the player
    asked (one they do not know still is: the test above)."""
    t, hearing = ear(start=None, board=None)
    hearing.start_enrollment(0.0)
    said(t, hearing, Heard(2, "I am Ann and I am ready to play"))
    assert t.heard[-1] == "Ben, so I know your voice, please say: I am Ben, and I am ready to play."
    known = support.Heard(5, "lanterns", "Ann", 0.95, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
    out = said(t, hearing, known)  # Ann plays: the game begins, and the word is hers
    assert out[0] == "I didn't hear Ben and Cat, so say your name before your word, like 'Ben, jewelers', until I " \
                     "know your voice."
    assert "Ann interrupts Cat with lanterns: 12, minus 2, scores 10." in out
    assert hearing.voiceprints.clips == {"Ann": 1}  # Ben's print is not Ann's voice


def test_a_fragment_in_a_known_voice_leaves_the_opening_asking(ear):
    """Live, held-out table at 10 dB: a fragment heard as "i" in Dee's voice, while the
    host asked Eli, opened the game, and nobody after Dee was ever enrolled; so did a
    word the recognizer was far from sure of ("newborn", 0.00). What is neither an
    introduction nor a sure play nor a command does not end the opening."""
    t, hearing = ear(start=None, board=None)
    hearing.start_enrollment(0.0)
    said(t, hearing, Heard(2, "I am Ann and I am ready to play"))
    asked = "Ben, so I know your voice, please say: I am Ben, and I am ready to play."
    assert t.heard[-1] == asked
    for fragment in ("i", "um and"):
        known = support.Heard(5, fragment, "Ann", 0.95, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
        assert said(t, hearing, known) == []
    doubtful = support.Heard(6, "newborn", "Ann", confidence=0.0, speaker_method="voiceprint", constrained=True,
                             audio=np.ones(16000, np.float32))  # heard at 10 dB for the rest of Ann's sentence
    assert said(t, hearing, doubtful) == []
    assert not t.session.begun and t.heard[-1] == asked
    out = said(t, hearing, Heard(8, "I am Ben and I am ready to play"))
    assert out == ["Thank you, Ben. I know your voice now.",
                   "Cat, so I know your voice, please say: I am Cat, and I am ready to play."]
    assert hearing.voiceprints.clips == {"Ann": 1, "Ben": 1}


def test_the_asked_players_sentence_is_theirs_whoever_the_prints_say_it_sounds_like(ear):
    """Live, held-out table at 10 dB: Eli's answer, its start lost ("and i am ready to
    play"), came 4 s after Dee's whole introduction and sounded nearest Dee. It was taken
    for the rest of hers, so Eli's voice went into Dee's print and Eli's words to Dee's
    sheet. A finished introduction has no rest; the sentence the host asked for, naming
    nobody, is the asked player's."""
    t, hearing = ear(start=None, board=None)
    hearing.start_enrollment(0.0)
    said(t, hearing, Heard(1, "I am Ann and I am ready to play"))
    nearest_ann = support.Heard(3, "and i am ready to play", "Ann", 0.94, speaker_method="voiceprint",
                                audio=np.ones(16000, np.float32))
    out = said(t, hearing, nearest_ann)
    assert out == ["Thank you, Ben. I know your voice now.",
                   "Cat, so I know your voice, please say: I am Cat, and I am ready to play."]
    mangled = support.Heard(6, "i then passed and died and ready to play", "Ann", 0.2, speaker_method="voiceprint",
                            audio=np.ones(16000, np.float32))
    out = said(t, hearing, mangled)
    assert out[0] == "Thank you, Cat. I know your voice now."
    assert out[1].startswith("Prolix Classic for Ann, Ben and Cat")
    assert hearing.voiceprints.clips == {"Ann": 1, "Ben": 1, "Cat": 1}


def test_a_finished_introduction_has_no_rest(ear):
    t, hearing = ear()
    out = said(t, hearing, Heard(1, "I am Ben and I am ready to play"), Heard(2.5, "and I am ready to play"))
    assert out == ["Thank you, Ben. I know your voice now.",
                   "I didn't catch a word in 'and i am ready to play'. Say just the word, or 'play' and the word."]
    assert hearing.voiceprints.clips == {"Ben": 1}


def test_homophones_that_score_differently_are_asked_about(ear):
    t, hearing = ear(board="K N G H T S L R")
    value = {w: t.game.score(w)[0] for w in ("knight", "night")}
    assert value["knight"] != value["night"]
    assert said(t, hearing, Heard(10, "night", "Ann", 0.95)) == ["knight with a K, or night?"]
    assert t.game.state.used == []
    out = said(t, hearing, Heard(12, "with a k", "Ann", 0.95))
    assert out[0] == f"Ann scores {value['knight']} points for knight."
    t("@board K N G H T S L R")
    said(t, hearing, Heard(20, "knight", "Ben", 0.95))
    out = said(t, hearing, Heard(22, "no", "Ben", 0.95))  # not the first: the other
    assert out[0] == f"Ben scores {value['night']} points for night."


def test_a_doubt_taken_without_a_question_is_still_asked_which_spelling(ear):
    t, hearing = ear(board="K N G H T S L R")
    doubt = support.Heard(10, "night", "Ann", confidence=0.6, constrained=True,
                          alternatives=[("night", 5.0), ("nights", 1.0)])  # far below: not a doubt worth asking
    assert said(t, hearing, doubt) == ["knight with a K, or night?"]


def test_homophones_that_score_the_same_are_taken_and_spelled(ear):
    t, hearing = ear()  # one L on the board: jewellers scores what jewelers scores
    assert said(t, hearing, Heard(10, "jewelers", "Ann", 0.95))[:2] == [
        "jewelers, spelled J E W E L E R S.", "Ann scores 15 points for jewelers."]


def test_an_unanswered_spelling_question_takes_the_higher_scoring_spelling(ear):
    t, hearing = ear(board="K N G H T S L R")  # the K is on the board: a player says night meaning knight
    said(t, hearing, Heard(10, "night", "Ann", 0.95))
    hearing.tick(19)
    assert "I'll take knight." in t.heard[-3:]
    assert t.game.state.used == [("knight", "Ann")]


def test_spelling_hints():
    assert spelling_hint("knight", "night") == "knight with a K"
    assert spelling_hint("jewellers", "jewelers") == "jewellers with two L's"
    assert spelling_hint("hour", "our") == "hour with an H"
    assert spelling_hint("their", "there") == "their, spelled T H E I R"


def test_an_unclear_name_in_the_last_introduction_is_the_player_left(ear):
    t, hearing = ear()
    said(t, hearing, Heard(1, "I am Ann and I am ready to play"))
    assert said(t, hearing, Heard(5, "i am fuss and i am ready to play"))[0].startswith("I didn't catch")  # Ben or Cat?
    assert hearing.voiceprints.clips == {"Ann": 1}
    said(t, hearing, Heard(9, "I am Ben and I am ready to play"))
    out = said(t, hearing, Heard(13, "i am fuss and i am ready to play"))  # only Cat is left
    assert out == ["Thank you, Cat. I know your voice now."] and hearing.voiceprints.clips == {"Ann": 1, "Ben": 1, "Cat": 1}
    assert said(t, hearing, Heard(17, "i am ready to play")) != ["Thank you, Cat. I know your voice now."]


def test_a_word_claimed_by_its_player_teaches_the_host_that_voice(ear):
    t, hearing = ear()
    assert said(t, hearing, Heard(10, "lanterns"))[-1] == "Who said lanterns?"
    out = said(t, hearing, Heard(12, "it was cat"))
    assert out[0] == "Cat interrupts Ann with lanterns: 5, minus 2, scores 3."
    assert hearing.voiceprints.clips == {"Cat": 1}  # the word's voice, now Cat's
    t("@board W B J S L C D G")
    assert said(t, hearing, Heard(20, "cowbells"))[-1] == "Who said cowbells?"
    assert said(t, hearing, Heard(22, "it was bed"))[0].startswith("Ben ")  # a name a letter off: the nearest
    assert hearing.voiceprints.clips == {"Cat": 1, "Ben": 1}


def test_an_introduction_heard_as_nonsense_before_ready_to_play_is_the_player_left(ear):
    """Held-out table at 10 dB: Gus's "I am Gus, and I am ready to play" was heard "i
    didn't thus invite him ready to play", 1.5 s after Fay's. Gus got no voice print and
    every word of his went to Fay's sheet. A whole sentence before "ready to play" is an
    introduction (the one player left); three words or fewer are the rest of the last one."""
    t, hearing = ear()
    said(t, hearing, Heard(1, "I am Ann and I am ready to play"))
    said(t, hearing, Heard(5, "I am Ben"))
    out = said(t, hearing, Heard(6.5, "and i am ready to play"))  # Ben's sentence, though only Cat is left
    assert out == [] and hearing.voiceprints.clips == {"Ann": 1, "Ben": 2}
    out = said(t, hearing, Heard(9, "i didn't thus invite him ready to play"))
    assert out == ["Thank you, Cat. I know your voice now."]
    assert hearing.voiceprints.clips == {"Ann": 1, "Ben": 2, "Cat": 1}


def test_the_rest_of_an_introduction_misheard_in_that_voice_is_not_a_play(ear):
    """Held-out table at 10 dB: "I am Eli, and I am ready to play" came in two parts, the
    second heard "i am worthy" in Eli's voice: "I didn't catch a word in 'i am worthy'"."""
    t, hearing = ear()
    said(t, hearing, Heard(1, "I am Ann"))
    rest = support.Heard(2.2, "i am worthy", "Ann", 0.2, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
    assert said(t, hearing, rest) == [] and hearing.voiceprints.clips == {"Ann": 2}
    other = support.Heard(7, "i am worthy", "Ann", 0.2, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
    assert said(t, hearing, other)[0].startswith("I didn't catch a word")  # long after: not her sentence
    ben = support.Heard(9, "I am Ben", "Ann", 0.2, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
    said(t, hearing, ben)
    cat = support.Heard(10.2, "i am worthy", "Ann", 0.2, speaker_method="voiceprint", audio=np.ones(16000, np.float32))
    assert said(t, hearing, cat)[0].startswith("I didn't catch a word")  # not Ben's voice: not Ben's sentence
    assert hearing.voiceprints.clips == {"Ann": 2, "Ben": 1}


def voice(start, text, speaker="Ann", level=0.1, method="voiceprint", ask=False):
    """An utterance of a voice at ``level`` (peak amplitude of a 0.5 s tone)."""
    tone = level * np.sin(np.linspace(0, 400 * np.pi, 8000)).astype(np.float32)
    return support.Heard(start, text, speaker, speaker_method=method, ask=ask,
                         audio=np.concatenate([np.zeros(4000, np.float32), tone]))


def test_talk_far_quieter_than_the_players_is_the_rooms_never_a_play(ear):
    t, hearing = ear(board="W B J S L C D G")
    said(t, hearing, voice(1, "i am ann and i am ready to play", "Ann"), voice(4, "i am ben and i am ready to play", "Ben"))
    said(t, hearing, voice(8, "jewelers", "Ann"))
    t("@draw M N")
    assert t.game.state.used == [("jewelers", "Ann")]
    # a television 15 dB under the players: its words go on no sheet, and nothing is said of them
    assert said(t, hearing, voice(12, "cowbell", "Ben", level=0.1 * 10 ** (-15 / 20))) == []
    assert said(t, hearing, voice(14, "i am cat and i am ready to play", "Cat", level=0.1 * 10 ** (-15 / 20))) == []
    assert t.game.state.used == [("jewelers", "Ann")] and "Cat" not in hearing.voiceprints.players
    # a player a little quieter than at the introduction (5 dB) is still a player
    said(t, hearing, voice(16, "cowbell", "Ben", level=0.1 * 10 ** (-5 / 20)))
    assert ("cowbell", "Ben") in t.game.state.used


def test_a_word_said_over_the_host_is_no_room_talk_however_quiet_the_canceller_left_it(ear):
    """Live, with the host's voice heard back: the canceller takes a word said over the
    host out with the host's echo, so it came out far quieter than its player, was taken
    for the room's talk, and was dropped without a word (Eli's "remembering", heard
    "restaurant" at 12%). Said over the host, its level says nothing of the room."""
    t, hearing = ear(board="W B J S L C D G")
    said(t, hearing, voice(1, "i am ann and i am ready to play", "Ann"), voice(4, "i am ben and i am ready to play", "Ben"))
    quiet = voice(8, "jewelers", "Ann", level=0.1 * 10 ** (-15 / 20))
    quiet.barged = True
    said(t, hearing, quiet)
    assert t.game.state.used == [("jewelers", "Ann")]


OFFER = ("It's too loud for me to hear you all from here. Your phones can be your microphones: stop the game, and "
         "resume it with phones.")


@pytest.mark.parametrize("talk", [1, 3])
def test_a_word_missed_while_the_room_talks_is_told_the_table(ear, talk):
    """A television or another conversation (its words 15 dB under the players, several
    in half a minute) is why a word was missed: one microphone cannot hear this table,
    and the host offers the players their phones. One stray sound is not talk."""
    t, hearing = ear(board="W B J S L C D G")
    said(t, hearing, voice(1, "i am ann and i am ready to play", "Ann"), voice(4, "i am ben and i am ready to play", "Ben"))
    for i in range(talk):
        assert said(t, hearing, voice(8 + 3 * i, "cowbell", "Ben", level=0.1 * 10 ** (-15 / 20))) == []
    missed = support.Heard(20, "jawbones", "Ann", speaker_method="voiceprint", confidence=1.0, constrained=True,
                           alternatives=[("jawbones", -2.15), ("jawbone", -8.6)], audio=voice(0, "").audio)
    said(t, hearing, missed)
    hearing.tick(20 + hearing.settings.answer_within + 1)
    again = "Ann, I missed your word. Say it again, or spell it."
    assert t.heard[-1] == again
    assert (t.heard[-2] == OFFER) == (talk == 3) and t.heard.count(OFFER) == (talk == 3)


def test_the_room_is_never_heard_before_any_player_has_a_level_nor_on_a_players_own_channel(ear):
    t, hearing = ear(board="W B J S L C D G")
    said(t, hearing, voice(1, "jewelers", "Ann", level=0.001))
    hearing.tick(5)
    assert t.game.state.used == [("jewelers", "Ann")]
    t, hearing = ear(board="W B J S L C D G")
    said(t, hearing, voice(1, "i am ann and i am ready to play", "Ann"))
    said(t, hearing, voice(4, "jewelers", "Ann", level=0.001, method="channel"))
    hearing.tick(8)
    assert t.game.state.used == [("jewelers", "Ann")]


def test_a_quieter_voice_like_no_player_is_the_rooms_once_everyone_has_a_print(ear):
    t, hearing = ear(board="W B J S L C D G")
    intro = "i am {} and i am ready to play"
    said(t, hearing, voice(1, intro.format("ann"), "Ann"), voice(4, intro.format("ben"), "Ben"))
    eight_db = 0.1 * 10 ** (-8 / 20)
    said(t, hearing, voice(7, intro.format("cat"), "Ann", level=eight_db, ask=True))  # Cat is quieter: still Cat
    assert "Cat" in hearing.voiceprints.players
    assert said(t, hearing, voice(10, "jewelers", "Ben", level=eight_db, ask=True)) == []  # like nobody, 8 dB down
    said(t, hearing, voice(12, "jewelers", "Ben", level=eight_db))  # a voice the host is sure of is a player's
    hearing.tick(16)
    assert t.game.state.used == [("jewelers", "Ben")]


def test_the_listener_is_told_the_tables_level_once_every_player_has_one(ear):
    """The level under which sound is the room's (the quietest player's, less
    ``background_below``) is told the listener once every player's level is known, so
    that a player not yet heard is never cut away."""
    t, hearing = ear(board="W B J S L C D G")
    floors = []
    hearing.voices.on_floor = floors.append
    intro = "i am {} and i am ready to play"
    said(t, hearing, voice(1, intro.format("ann"), "Ann"), voice(4, intro.format("ben"), "Ben"))
    assert floors == []  # Cat not heard yet
    cat = 0.1 * 10 ** (-6 / 20)
    said(t, hearing, voice(7, intro.format("cat"), "Cat", level=cat))
    assert floors == [pytest.approx(speech_level(voice(0, "", level=cat).audio) - 12)]
