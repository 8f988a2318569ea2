"""The words layer: dictionary, No Cheapies, spoken-word matcher and best-word solver.

    from voice_host.words import Words
    words = Words.load()          # default reference; Words.load(LexiconSettings(...))
    words.check("jewelers")       # Verdict(ok=True, ...)
    words.cheapie("wrenches", [("wrench", "Ann")])
    words.match("scrap booking")  # Match(best="scrapbooking", ...)
    words.best([("w", 5), ("j", 5), ("s", 3), ("l", 2)])
"""

from voice_host.words.api import REASONS, Verdict, Words
from voice_host.words.history import Conflict
from voice_host.words.lexicon import LexiconSettings
from voice_host.words.matcher import Match
from voice_host.words.solver import score_word

__all__ = ["REASONS", "Conflict", "LexiconSettings", "Match", "Verdict", "Words", "score_word"]
