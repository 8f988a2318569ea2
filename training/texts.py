"""What the training voices say: dictionary words alone, and the sentences the host
hears (see voice_host/host/intents.py and host/phrases/ for the languages it decodes).

Kinds, each with its share of the mix (the trial found too few phrases fused "Ben,
mischievous." into one word: keep phrases well above 9%):

- ``word``: a dictionary word alone ("Whispered."), never one a benchmark uses;
- ``name_word``: "NAME, WORD." / "NAME says WORD." / "NAME interrupts with WORD.";
- ``play``: "My word is WORD.", "Play WORD.", "I play WORD.";
- ``command``: the host's commands and questions ("How much time is left?");
- ``answer``: "Yes.", "No.", "Nope.", "I know it." (intents' yes and no);
- ``intro``: "I am NAME.", "I am NAME, and I am ready to play.", "My name is NAME.";
- ``spell``: a word spelled in letters ("T, O, U, R.") or the spelling alphabet;
- ``numbers``: the other games' plays with numbers ("Bank WORD for five.", "WORD,
  unused three.", "Penalty two.", "Last word WORD for fifteen.").

The WORD slot is always a training word; the fixed words of the phrases themselves
are the host's language and are trained on purpose.
"""

from __future__ import annotations

import random

from voice_host.host import intents

NAMES = ("Tom", "Mia", "Raj", "Lena", "Omar", "Zoe", "Hugo", "Ines", "Sam", "Nora", "Felix", "Ada", "Kofi",
         "Yuki", "Marta", "Luis", "Ivy", "Jonas", "Priya", "Theo", "Greta", "Dev", "Elsa", "Pablo")
"""Player names for the sentences (the benchmarks' own names are left to them)."""
SHARES = {"word": 0.55, "name_word": 0.12, "play": 0.06, "command": 0.08, "answer": 0.04, "intro": 0.05,
          "spell": 0.05, "numbers": 0.05}
NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
           "fifteen", "twenty", "twenty five", "thirty")
NATO = ("Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo",
        "Lima", "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango", "Uniform", "Victor",
        "Whiskey", "X-ray", "Yankee", "Zulu")
QUESTIONS = {"board", "scores", "turn", "words", "sheet", "sheets", "time", "bag", "interrupts", "voided", "how",
             "dice", "reports", "banked", "marks", "penalties", "help"}


def training_words(n: int | None = None, seed: int = 0, exclude: set[str] | None = None,
                   games: bool = False) -> list[str]:
    """Dictionary words (letters only, 2-15 long) no benchmark uses, shuffled (seeded)."""
    from voice_host.words import Words

    from .heldout import benchmark_words

    exclude = benchmark_words(games) if exclude is None else exclude
    pool = sorted({w for w in Words.load().data.words if w.isalpha() and 2 <= len(w) <= 15 and w not in exclude})
    random.Random(seed).shuffle(pool)
    return pool[:n] if n else pool


def _sentence(s: str, question: bool = False) -> str:
    s = s.strip()
    return s[:1].upper() + s[1:] + ("?" if question else ".")


def _spell(word: str, rng: random.Random) -> str:
    letters = [c.upper() for c in word]
    if rng.random() < 0.3:
        return ", ".join(NATO[ord(c) - 65] for c in letters) + "."
    return ", ".join(letters) + "."


def sentence(kind: str, word: str, rng: random.Random) -> str:
    """One sentence of `kind` around training word `word`."""
    name = rng.choice(NAMES)
    if kind == "word":
        return _sentence(word)
    if kind == "name_word":
        return rng.choice((f"{name}, {word}.", f"{name} says {word}.", f"{name} interrupts with {word}.",
                           f"{name}, {word}.", f"No, I said {word}."))
    if kind == "play":
        return _sentence(rng.choice(("my word is", "play", "i play", "interrupt", "my word")) + f" {word}")
    if kind == "command":
        k = rng.choice([k for k in intents.PHRASES if k not in ("play_what", "yes", "no")])
        p = rng.choice(intents.PHRASES[k]).replace("whats", "what's").replace("whos", "who's")
        if rng.random() < 0.2:
            p = rng.choice((f"{name}, {p}", f"challenge {name}", f"{name}'s sheet"))
        return _sentence(p, question=k in QUESTIONS and p.split()[0] in ("how", "what", "what's", "whose",
                                                                         "who", "who's", "which"))
    if kind == "answer":
        p = rng.choice(intents.PHRASES["yes"] + intents.PHRASES["no"])
        return _sentence(p.replace(" i ", " I ").replace("i ", "I ", 1) if p.startswith("i ") else p)
    if kind == "intro":
        return rng.choice((f"I am {name}.", f"I am {name}, and I am ready to play.", f"My name is {name}.",
                           f"This is {name}.", f"I'm {name}."))
    if kind == "spell":  # a whole word: the host's spellings must spell a dictionary word
        return _spell(word, rng)
    if kind == "numbers":
        n = rng.choice(NUMBERS)
        return rng.choice((f"Bank {word} for {n}.", f"Spend {word} for {n}.", f"{word.capitalize()}, unused {n}.",
                           f"No word, unused {n}.", f"Penalty {n}.", f"Bonus {n}.", f"Last word {word} for {n}.",
                           f"Play {word} with {n} tiles.", "Roll.", "Bell.", "Concede.", "Check."))
    raise ValueError(f"unknown kind {kind!r}")


def plan(n: int, words: list[str], seed: int = 0, shares: dict[str, float] | None = None) -> list[tuple[str, str, str]]:
    """`n` (kind, text, word) items, kinds in proportion to `shares`, the words taken
    in order (each word said once as a lone word before any comes back)."""
    shares = shares or SHARES
    rng = random.Random(seed)
    kinds = list(shares)
    counts = {k: int(round(n * shares[k])) for k in kinds}
    counts["word"] += n - sum(counts.values())
    seq = [k for k in kinds for _ in range(max(0, counts[k]))]
    rng.shuffle(seq)
    out, i = [], 0
    for kind in seq[:n]:
        word = words[i % len(words)]
        i += 1
        out.append((kind, sentence(kind, word, rng), word))
    return out
