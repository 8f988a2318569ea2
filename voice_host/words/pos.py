"""Parts of speech: is a word a noun, a verb, ...? From lemminflect's lexicon.

Phlounder's letter die asks for a noun or a verb, and its rules let "properly formed
plurals or verb forms" count as well as the dictionary's headwords. lemminflect maps
every form it knows (ruins, pruned, geese, having) to its lemmas by universal part of
speech, so a plural is a noun and a past tense a verb.
"""

from __future__ import annotations

from functools import lru_cache

import lemminflect


@lru_cache(maxsize=4096)
def parts_of_speech(word: str) -> frozenset[str]:
    """The universal parts of speech of ``word`` as a headword or an inflected form
    (NOUN, VERB, ADJ, ADV, ...; auxiliaries count as VERB). Empty when lemminflect does
    not know the word (oxen): then nothing can be said about its part of speech."""
    lemmas = lemminflect.getAllLemmas(word.strip().lower())
    return frozenset("VERB" if upos == "AUX" else upos for upos in lemmas)
