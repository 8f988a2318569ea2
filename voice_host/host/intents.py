"""What an utterance means: a word, a command, a question, or table chatter.

An utterance counts as a word when it is a lone word ("jewelers") or a word behind a
play phrase ("play jewelers", "my word is jewelers", "interrupt jewelers", "Bob
interrupts jewelers"). Commands and questions are short fixed phrases (see PHRASES);
to play a word that is also a command, say "play board". Anything else is chatter and
changes nothing (the host says it did not catch a word).
"""

from __future__ import annotations

import re

from voice_host.games.base import find_player  # noqa: F401  (the host's name for it too)
from voice_host.messages import Intent
from voice_host.words.lexicon import fold

PHRASES: dict[str, tuple[str, ...]] = {
    "challenge": ("challenge", "i challenge", "i challenge that", "challenge that", "challenge it"),
    "flip": ("flip", "timer", "flip the timer", "flip timer", "start the timer", "timer please"),
    "board": ("board", "read the board", "the board", "what's on the board", "whats on the board", "board please",
              "what is on the board", "what is the board", "show the board", "show me the board", "read out the board",
              "read the board out", "read me the board", "what tiles are on the board", "which tiles are on the board",
              "what letters are on the board", "what are the tiles",
              "what letters do we have", "what are the letters", "which letters are on the board", "read out the tiles",
              "what tiles do we have"),
    "scores": ("scores", "score", "the scores", "standings", "what's the score", "whats the score", "what is the score", "scores please",
               "total", "totals", "my total", "the totals", "what's my total", "whats my total",
               "what are the scores", "the score", "my score", "what is my score", "what's my score", "what is my total",
               "what are the standings", "read the scores", "show the scores", "read out the scores",
               "how am i doing", "how many points do i have", "how many points have i got",
               "where are we", "what are the totals"),
    "leader": ("who is winning", "who's winning", "who is ahead", "who's ahead", "who is leading", "who is in the lead",
               "who leads", "who is in front", "who's in front", "who won", "who has won", "who is the winner"),
    "turn": ("whose turn", "whose turn is it", "turn", "who's turn", "whos turn", "who is up",
             "round", "what round", "which round", "what round is it", "which round is it",
             "who's turn is it", "who's up", "whose go", "whose go is it",
             "what round are we on", "what round are we in",
             "which round are we on", "which round are we in", "who is playing", "who goes now"),
    "next_player": ("who is next", "who's next", "who is up next", "who goes next", "who plays next", "who's after",
                    "who goes after", "who is after", "who comes next"),
    "my_turn": ("is it my turn", "am i up", "is it my go", "is it me", "my turn", "my turn now", "is it my turn now",
                "am i next", "do i go now"),
    "best": ("what is the best word", "what's the best word", "best word", "what was the best word", "the best word",
             "what could i have played", "what was the best play", "what's the best play", "what is the best play",
             "best play", "what should i have played", "what was the best word on that board"),
    "rounds": ("how many rounds are left", "how many rounds left", "rounds left", "how many rounds",
               "how many rounds to go", "how many more rounds", "how many rounds remain", "rounds remaining",
               "how many rounds are there", "how many rounds do we have left", "how many rounds are there left"),
    "words": ("words", "used words", "words used", "what words have been used", "the words",
              "what words have been played", "which words have been played", "which words have been used",
              "what words are used", "which words are used", "what has been played", "words played",
              "the words used", "the used words", "read the words", "read out the words",
              "what words have we played", "which words have we used", "what has been played", "list the words",
              "which words are taken", "what has been said", "what's been played"),
    "sheet": ("sheet", "my sheet", "scoresheet", "my scoresheet", "read my sheet", "what is on my sheet",
              "what's on my sheet", "show my sheet", "read me my sheet", "my score sheet",
              "what have i played", "what words have i played", "read my words", "my words"),
    "sheets": ("sheets", "all sheets", "every sheet", "read the sheets", "all the sheets", "scoresheets",
               "read all the sheets", "read every sheet", "show all the sheets", "show the sheets", "everyone's sheet",
               "all the score sheets", "read everyone's sheet", "read out all the sheets", "everybody's sheet"),
    "time": ("time", "time left", "how much time", "how much time is left", "how much time left", "timer status",
             "how long", "how long is left", "how many seconds", "seconds left", "what's the time", "whats the time",
             "how much time do we have", "how much time do i have", "how much time do we have left",
             "how much time do i have left", "how long do we have", "how long do i have", "how long do we have left",
             "how long do i have left", "how long left", "how many seconds are left", "how many seconds left",
             "time remaining", "how much time remains", "what is the time left", "what's the time left",
             "how long is left on the timer", "how much time is on the timer", "is the timer running",
             "how much sand is left", "how much time have i got", "time check"),
    "bag": ("bag", "the bag", "tiles left", "how many tiles", "how many tiles are left", "tiles in the bag",
            "bag count", "what's in the bag", "whats in the bag", "what is in the bag", "how many tiles are in the bag",
            "how many tiles in the bag", "how many tiles left", "tiles remaining",
            "how many tiles are there left", "how many are left in the bag", "tiles left in the bag"),
    "interrupts": ("interrupts", "interrupts left", "how many interrupts", "how many interrupts left",
                   "how many interrupts are left", "my interrupts", "how many interrupts do i have",
                   "how many interrupts do i have left", "interrupts remaining",
                   "how many interrupts have i got", "how many interrupts are there left"),
    "voided": ("voided", "voided words", "void words", "which words were voided", "what was voided",
               "challenged words", "what words were voided", "which words have been voided", "what has been voided",
               "which words were challenged off", "what got voided"),
    "how": ("how did that score", "how did it score", "how was that scored", "which tiles", "what tiles",
            "how did the last word score", "what was the last word", "last word", "the last word",
            "what was the word", "what was that word", "which word was that", "what word was that",
            "what was the last word played"),
    "dice": ("dice", "the dice", "what are the dice", "what did we roll", "what's the roll", "whats the roll",
             "what is the roll", "what was the roll", "what is on the dice", "what's on the dice", "what did i roll",
             "read the dice", "what do the dice say", "what did the dice say", "what are we looking for"),
    "reports": ("who owes", "who still owes", "who owes a report", "who still owes a report", "missing reports",
                "who's missing", "whos missing", "who are we waiting for", "waiting for",
                "who hasn't reported", "who still has to report"),
    "banked": ("banked", "banked words", "my banked words", "what have i banked", "what words have i banked",
               "which words have i banked", "what did i bank", "what is in my bank", "what have i got banked"),
    "marks": ("marks", "bonus marks", "my marks", "how many marks", "how many marks do i have",
              "how many bonus marks do i have", "how many marks have i got"),
    "penalties": ("penalty count", "how many penalties", "my penalty count", "how many penalty cards",
                  "how many penalties do i have", "how many penalty cards do i have",
                  "how many penalty cards have i got"),
    "spell": ("spell it", "spell that", "spell", "spell the word", "spell the last word", "how is it spelled",
              "how is that spelled", "how do you spell that", "how do you spell it", "how is that spelt",
              "spell that word", "spell it out"),
    "brief": ("be brief", "brief mode", "less detail", "say less"),
    "full": ("full mode", "more detail", "tell me everything", "say more"),
    "slower": ("speak slower", "slow down", "talk slower", "more slowly", "slower please"),
    "faster": ("speak faster", "speed up", "talk faster", "more quickly", "faster please"),
    "louder": ("speak up", "speak louder", "volume up", "louder please", "talk louder"),
    "softer": ("speak softer", "volume down", "not so loud", "softer please", "speak quieter", "talk quieter"),
    "repeat": ("repeat", "say that again", "say again", "again", "pardon", "what did you say", "repeat that",
               "say it again", "what was that", "come again", "what did you just say", "one more time",
               "i didn't catch that", "i missed that", "sorry", "what", "huh", "excuse me", "pardon me",
               "sorry what", "i beg your pardon"),
    "undo": ("undo", "undo that", "take that back", "scratch that", "take it back", "undo the last one", "undo my word",
             "cancel that", "undo the last word"),
    "help": ("help", "what can i say", "commands", "what are the rules", "what can we say", "what do i say",
             "how do i play", "how do we play", "how does this work", "what are the commands", "explain the rules",
             "what can i ask"),
    "yes": ("yes", "yeah", "yep", "i know it", "i know that word", "correct", "right"),
    "no": ("no", "nope", "never heard of it", "i don't know it", "wrong"),
    "wait": ("wait", "hold on", "pause", "hang on", "wait a second", "wait a minute", "wait a moment", "one moment",
             "one second", "just a second", "just a moment", "hold on a second", "hang on a second",
             "give me a second", "give me a moment", "let me think", "wait wait", "hold on hold on"),
    "quiet": ("stop", "be quiet", "quiet", "shh", "shush", "hush", "stop talking", "quiet please", "enough"),
    "thanks": ("okay", "ok", "thanks", "thank you", "thanks a lot", "thank you very much", "never mind", "nevermind",
               "ready", "i am ready", "go", "let us go", "alright", "all right", "okay then", "ok then",
               "um", "umm", "uh", "uhm", "uhh", "er", "erm", "hmm", "hm", "mm", "mmm", "ah", "ahh", "eh", "uh oh",
               "oops"),
    "next": ("next", "skip", "done", "i am done", "pass", "i pass", "next player", "skip me", "skip it", "next one",
             "your turn", "next please"),
    "play_what": ("play", "i play", "my word is", "my word", "interrupt", "interrupts with", "interrupt with"),
}
"""Spoken phrases per command. Extend them; do not change them (scripts depend on them).
The host's settings are phrases of two words or more: a word a player could play ("brief",
"louder") is never a setting (ruling 66). They are also what the recognizer listens for
(host.hearing.understand), so a new one can change what a recording is heard as: "played
words", the first phrase to start with "pl", made "bank quagmire for eleven" (Dexikon,
tests/test_hear.py) chatter; run the speech tests after adding phrases. A question
said in other words (contractions spelled out, "please" or "can you" around it) is
understood too (``plain``)."""

PLAIN_ANSWERS = ("yes", "yeah", "yep", "no", "nope")
"""Answers that are only answers: the other yes/no phrases that are words ("right",
"correct", "wrong") are plays when nobody asked a yes or no question."""

QUESTIONS = ("board", "scores", "turn", "words", "sheet", "sheets", "time", "bag", "interrupts", "voided", "how", "dice",
             "reports", "banked", "marks", "penalties", "leader", "next_player", "my_turn", "rounds", "check", "best")
"""Questions: answered from the game's state, never a word (say "play time" for the word)."""
WORDED = ("leader", "next_player", "my_turn", "rounds", "check")
"""The questions the host words itself from the game's answer to another (who leads, from
the scores; is it my turn, from whose turn it is) or from the dictionary."""
HOST = ("repeat", "spell", "brief", "full", "slower", "faster", "louder", "softer", "help", "undo")
"""What the host itself answers: the voice, what it said, the help."""
TALK = ("wait", "quiet", "thanks", "next")
"""Table talk, never a play on its own (ruling 94): "wait" is answered "Take your time.",
"stop" hushes the host, "thanks" and the like need no answer, and "next", "skip", "done"
or "pass" (where the game has no pass: its own phrases come first) are answered with
whose turn it is. Said as a play ("play wait", "my word is go") they are words."""
FILLERS = frozenset(("um", "umm", "uh", "uhm", "uhh", "er", "erm", "hmm", "hm", "mm", "mmm", "ah", "ahh", "eh"))
"""Sounds that are no word, said before one: "um, jewelers" is jewelers (alone, they are talk)."""
HOW = re.compile(r"^(?:how (?:did|does|do|much did|many points did|was|were) (\S+?)(?:'s)? (?:score|scored|get)"
                 r"|which tiles (?:made|scored|gave) (\S+)|how was (\S+) scored"
                 r"|how many points (?:was|is|for) (\S+)|what did (\S+) (?:score|get)"
                 r"|(?:what|how much) (?:was|is) (\S+) worth)$")
"""How a word scored ("how many points was jewelers"); "what did Ann score" names a player: their sheet."""
SCORE_OF = re.compile(r"^(?:what is (.+?)'s (?:score|total)|how many points does (.+?) have|(.+?)'s (?:score|total)"
                      r"|how is (.+?) doing)$")
"""A player's score asked by name ("what's Ann's score"): their sheet."""
PLAYED_BY = re.compile(r"^(?:what (?:words )?(?:has|did|have) (.+?) (?:played|play|say|said)"
                       r"|(?:which|what) words (?:has|did) (.+?) (?:play|played|say|said)|(.+?)'s words"
                       r"|what did (.+?) (?:play|say))$")
"""A player's words asked by name ("what has Ben played", "Ben's words"): their sheet."""
CHECK = re.compile(r"^(?:is (\S+) a (?:real |valid |proper )?word|is (\S+) (?:valid|allowed|legal|playable|ok|okay)"
                   r"|(?:check|look up) (?:the word )?(\S+)|can (?:i|we) play (\S+)|is (\S+) in the dictionary)$")
"""A word checked in the dictionary ("is zax a word", "check zebra")."""
SPELL = re.compile(r"^(?:(?:how do (?:you|i|we) )?spell (\S+)|how (?:is|was) (\S+) (?:spelled|spelt))$")
"""Spelling a word named ("how do you spell jewelers"); "spell it" spells the last word said."""

PLAY = re.compile(r"^(play|my word is|my word|i play|(?:\w+ )?interrupts?(?: with)?)\s+(\S+)$")
WORDLIKE = re.compile(r"^[a-z]+$")
PUNCTUATED = re.compile(r"^[a-z][a-z'\-]*[a-z]$")

_LOOKUP = {phrase: kind for kind, phrases in PHRASES.items() for phrase in phrases}

CONTRACTIONS = {"i'm": "i am", "what's": "what is", "whats": "what is", "what're": "what are", "who's": "who is", "whos": "who is",
                "how's": "how is", "there's": "there is", "it's": "it is", "that's": "that is", "let's": "let us"}
"""Contractions said either way: "what's on the board" is "what is on the board"."""
OPENINGS = ("can you please", "could you please", "can you tell me", "could you tell me", "can you", "could you",
            "would you", "will you", "tell me", "tell us", "please", "hey host", "ok host", "okay host", "host", "sorry")
"""What a player may say before a question ("can you read the board")."""
ENDINGS = ("please", "thanks", "thank you", "now", "again", "for me", "for us")
"""... and after it ("board please", "whose turn is it now")."""


def plain(said: str) -> str:
    """A normalized utterance with contractions spelled out and the polite words around
    a question dropped: "can you read me the board please" -> "read me the board"."""
    words = " ".join(CONTRACTIONS.get(w, w) for w in said.split())
    changed = True
    while changed:
        changed = False
        for opening in OPENINGS:
            if words.startswith(opening + " "):
                words, changed = words[len(opening) + 1:], True
        for ending in ENDINGS:
            if words.endswith(" " + ending):
                words, changed = words[:-len(ending) - 1], True
    return words


_PLAIN: dict[str, str] = {}
for _phrase, _kind in _LOOKUP.items():
    if _PLAIN.setdefault(plain(_phrase), _kind) != _kind:
        raise ValueError(f"'{_phrase}' means both {_PLAIN[plain(_phrase)]} and {_kind}")
del _phrase, _kind
"""The phrases said plainly: a question asked in other words ("what are the tiles,
please") is understood as the phrase it says plainly."""

GAME_COMMANDS = ("roll", "bell", "mulligan", "pass", "concede", "check", "spend", "bank", "last")
"""The games' own command words (Phlounder, Dexikon, road), for near-misses."""
VOCABULARY = frozenset(w for phrase in _LOOKUP for w in phrase.split()) | frozenset(GAME_COMMANDS)
"""Every word of a command phrase."""
_NEAR = sorted(w for w in VOCABULARY if len(w) >= 4 and w.isalpha())


def nearest_command_word(token: str) -> str | None:
    """The command word a typed token misses by a slip (a letter left out, added,
    changed or two swapped; two slips from 7 letters on, or where it sounds the same:
    "repete"), if one is nearer than the rest. Between equally near ones, the one it
    sounds like wins ("bord" is board, not word; "timr" is timer, not time)."""
    import jellyfish

    if len(token) < 4 or not token.isalpha():
        return None
    most = 1 if len(token) < 7 else 2
    sound = jellyfish.metaphone(token)
    near = []
    for w in _NEAR:
        d = jellyfish.damerau_levenshtein_distance(token, w)
        alike = jellyfish.metaphone(w) == sound
        if d <= most or (alike and d <= 2):
            near.append((d, not alike, w))
    near.sort()
    if not near or (len(near) > 1 and near[1][:2] == near[0][:2]):
        return None
    return near[0][2]


def normalize(text: str) -> str:
    """Accents folded (café -> cafe: tiles and cards carry none, and the dictionary is
    folded the same way), lower case, punctuation around words dropped, inner
    apostrophes/hyphens kept, and the fillers before what is said ("um, jewelers") left
    out."""
    words = normalize_words(text)
    while len(words) > 1 and words[0] in FILLERS:
        del words[0]
    return " ".join(words)


def normalize_words(text: str) -> list[str]:
    """The words of ``text`` as :func:`normalize` reads them, fillers kept."""
    text = fold(text).lower().replace("’", "'")
    text = re.sub(r"[^a-z0-9'\- ]+", " ", text)
    return [w.strip("'-") if not PUNCTUATED.match(w) else w for w in text.split() if w.strip("'-")]


def hesitant(text: str) -> bool:
    """Whether ``text`` starts with a filler ("um and"): what follows is the word, but said
    with a hesitation no sure answer has."""
    first = normalize_words(text)[:1]
    return bool(first) and first[0] in FILLERS


def parse(text: str, players: list[str] | tuple[str, ...]) -> Intent:
    """Understand one utterance. ``players`` are the names at the table."""
    said = normalize(text)
    if said in _LOOKUP:
        return Intent(_LOOKUP[said], text=text)
    asked = _PLAIN.get(plain(said)) if " " in said else None  # a word said alone is never rephrased
    if asked in QUESTIONS or asked in HOST or asked in TALK:  # not yes or no: "no, thanks" may put a word right
        return Intent(asked, text=text)
    words = said.split()
    if not words:
        return Intent("unclear", text=text)
    # "challenge bob", "challenge bob's word", "challenge mary jane"; "sheet bob", "bob's sheet"
    if words[0] == "challenge" and len(words) >= 2:
        named = " ".join(words[1:])
        who = find_player(named.removesuffix(" word").removesuffix("'s"), players)
        if who:
            return Intent("challenge", target=who, text=text)
    if words[0] == "challenge" and len(words) == 2 and words[1] not in ("that", "it", "this"):
        return Intent("challenge", target=words[1].removesuffix("'s").capitalize(), text=text)  # nobody by that name
    m = HOW.match(said)
    if m:
        word = next(g for g in m.groups() if g)
        if who := find_player(word, players):  # "what did Ann score": Ann's, not a word's
            return Intent("sheet", target=who, text=text)
        return Intent("how", word=None if word in ("that", "it", "this") else word, text=text)
    m = SCORE_OF.match(plain(said))
    if m and (who := find_player(next(g for g in m.groups() if g), players)):
        return Intent("sheet", target=who, text=text)
    m = PLAYED_BY.match(plain(said))
    if m and (who := find_player(next(g for g in m.groups() if g), players)):
        return Intent("sheet", target=who, text=text)
    m = CHECK.match(plain(said))
    if m and (word := next(g for g in m.groups() if g)) not in ("that", "it", "this"):
        return Intent("check", word=word, text=text)
    m = SPELL.match(said)
    if m:
        word = next(g for g in m.groups() if g)
        return Intent("spell", word=None if word in ("that", "it", "this") else word, text=text)
    if words[0] in ("sheet", "scoresheet") and len(words) > 2 and (who := find_player(" ".join(words[1:]), players)):
        return Intent("sheet", target=who, text=text)  # "sheet mary jane"
    if len(words) > 2 and words[-1] in ("sheet", "scoresheet") and words[-2].endswith("'s") \
            and (who := find_player(" ".join(words[:-1])[:-2], players)):
        return Intent("sheet", target=who, text=text)  # "mary jane's sheet"
    if words[0] in ("sheet", "scoresheet") and len(words) == 2:
        who = find_player(words[1], players)
        if who or words[1] not in ("please", "now", "again", "thanks"):  # nobody by that name: said so
            return Intent("sheet", target=who or words[1].capitalize(), text=text)
        return Intent("sheet", text=text)
    if len(words) == 2 and words[1] in ("sheet", "scoresheet") and words[0].endswith("'s"):
        who = find_player(words[0][:-2], players)
        if who or words[0] not in ("it's", "that's", "what's", "who's", "here's", "there's"):
            return Intent("sheet", target=who or words[0][:-2].capitalize(), text=text)
    m = PLAY.match(said)
    if m:
        return Intent("word", word=m.group(2), text=text, final=m.group(1).startswith("my word"))
    if len(words) == 1 and (WORDLIKE.match(words[0]) or PUNCTUATED.match(words[0])):
        return Intent("word", word=words[0], text=text)
    return Intent("unclear", text=text)


NEW_CODE = ("new code", "new join code", "a new code", "change the code", "change the join code",
            "give us a new code")
"""The table asks the phones' join code be changed (``--phones``): never a game's input."""
FREE_PHONE = re.compile(r"^(?:free|disconnect|drop|release) (.+?)(?:'s)? phone$")


def phones_request(text: str, players: list[str] | tuple[str, ...]) -> tuple[str, str | None] | None:
    """A request about the players' phones: ("new code", None), ("free", player) for
    "free Ann's phone" (Ann's seat freed for the phone that joins next), or None."""
    said = plain(normalize(text))
    if said in NEW_CODE:
        return ("new code", None)
    m = FREE_PHONE.match(said)
    if m:
        player = find_player(m.group(1), players)
        if player is not None:
            return ("free", player)
    return None
