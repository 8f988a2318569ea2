"""No Cheapies families: which words are inflections or -ly/-ing derivations of which.

Prolix forbids a word that changes the pluralization, the tense, or adds/removes -ly or
-ing of an earlier word, and chains of those. The relations come from lemminflect
(POS-keyed lemmas and inflections, irregular forms included); an adjective's -ly comes
from its spelling (elegant/elegantly, clumsy/clumsily, cheerful/cheerfully); other -ly
and -ing pairs are also checked against CMUdict pronunciations, so that spelling
accidents (early/ear, evening/even) stay allowed.

The graph: every word is a node and its own *unit*; each noun or verb lemma of a word is
a unit the word belongs to (an edge word - lemma labelled plural, tense or ing). Two
words conflict when they belong to units of the same *family*. Families are unions of
units joined by derivations (-ing forms and -ly words), so "buildings" (a unit member
of "building", which is build + -ing) conflicts with "built", while homographs stay
apart: "leaves" belongs to both "leaf" and "leave", but "leaf" and "left" do not meet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

PLURAL, TENSE, LY, ING = 1, 2, 3, 4
RULE_NAMES = {PLURAL: "plural", TENSE: "tense", LY: "ly", ING: "ing"}

Pron = tuple[str, ...]
Prons = Mapping[str, Collection[Pron]]

_VOWELS = set("aeiou")
_PARTS = ("NOUN", "VERB", "AUX")


def lemminflect() -> ModuleType:
    """lemminflect, imported lazily: only the build, unknown words and the host's
    questions about a word's forms need it."""
    import lemminflect

    return lemminflect


def warm() -> None:
    """Load lemminflect's tables now (about half a second), not at the first word the
    host asks about ("Did you say amendment or amendments?")."""
    lemminflect().getAllLemmas("words")


def _forms(lemma: str, upos: str, oov: bool) -> dict[str, tuple[str, ...]]:
    """Inflections of `lemma` as lemminflect gives them, {penn tag: forms}."""
    lm = lemminflect()
    pos = "VERB" if upos == "AUX" else upos
    forms = lm.getAllInflections(lemma, pos)
    if not forms and oov:
        forms = lm.getAllInflectionsOOV(lemma, pos)
    return forms


def _rule_for(word: str, lemma: str, upos: str, oov: bool) -> int:
    """The No Cheapies rule linking the inflected `word` to its `lemma`."""
    if upos == "NOUN":
        return PLURAL
    tags = {tag for tag, forms in _forms(lemma, upos, oov).items() if word in forms}
    if tags == {"VBG"} or (not tags and word.endswith("ing")):
        return ING
    return TENSE


def inflection_lemmas(word: str, known: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Noun and verb lemmas of `word` with the rule that links them, {lemma: rule}.

    Words lemminflect knows use its dictionary. For other words its suffix rules (OOV)
    propose a lemma, kept only if inflecting that lemma gives `word` back and, when
    `known` is given, the lemma is a known word (scrapbooking -> scrapbook)."""
    lm = lemminflect()
    found = lm.getAllLemmas(word)
    oov = not found
    if oov:
        found = {upos: lm.getAllLemmasOOV(word, upos).get(upos, ()) for upos in ("NOUN", "VERB")}
    out: dict[str, int] = {}
    for upos in _PARTS:
        for lemma in found.get(upos, ()):
            if lemma == word or not lemma.isalpha():
                continue
            if oov:
                forms = _forms(lemma, upos, oov=True)
                if not any(word in fs for fs in forms.values()):
                    continue
                if known is not None and not known(lemma):
                    continue
            rule = _rule_for(word, lemma, upos, oov)
            # one rule per lemma: ing (it joins families) before plural before tense
            if lemma not in out or (rule == ING or (rule == PLURAL and out[lemma] == TENSE)):
                out[lemma] = rule
    return out


def forms_of_one_word(a: str, b: str) -> bool:
    """Are `a` and `b` inflections of one noun or verb ("amendment", "amendments";
    "furnish", "furnished")? Not "breaking" and "braking"."""
    return a == b or bool((set(inflection_lemmas(a)) | {a}) & (set(inflection_lemmas(b)) | {b}))


def ly_bases(word: str) -> list[tuple[str, str]]:
    """Candidate bases of an -ly word by English spelling rules, [(base, kind)].

    kind: "plain" (jubilantly), "e" (truly), "ily" (happily), "le" (gently),
    "ll" (fully), "ic" (basically). Bases shorter than 3 letters are not considered."""
    if not word.endswith("ly") or len(word) < 5:
        return []
    stem = word[:-2]
    out = [(stem, "plain"), (stem + "e", "e")]
    if word.endswith("ily"):
        out.append((word[:-3] + "y", "ily"))
    if stem[-1] not in _VOWELS:
        out.append((word[:-1] + "e", "le"))
    if word.endswith("lly"):
        out.append((word[:-1], "ll"))
    if word.endswith("ically"):
        out.append((word[:-4], "ic"))
    return [(b, k) for b, k in out if len(b) >= 3]


def _ly_expected(base: Pron, kind: str) -> set[Pron]:
    """Pronunciations an -ly derivation of a base pronounced `base` may have."""
    out = {base + ("L", "IY")}
    if kind == "ily" and base[-1:] == ("IY",):
        out |= {base[:-1] + ("AH", "L", "IY"), base[:-1] + ("IH", "L", "IY")}
    elif kind == "le" and base[-2:] == ("AH", "L"):
        out |= {base[:-2] + ("L", "IY"), base[:-1] + ("IY",)}
    elif kind == "ll":
        out.add(base + ("IY",))
    elif kind == "ic":
        out.add(base + ("AH", "L", "IY"))
    return out


def _ing_expected(base: Pron) -> set[Pron]:
    """Pronunciations an -ing form of a base pronounced `base` may have."""
    out = {base + ("IH", "NG")}
    if base[-2:] == ("AH", "L"):  # hurdle -> hurdling
        out.add(base[:-2] + ("L", "IH", "NG"))
    if base[-1:] == ("ER",):  # enter -> entering
        out.add(base[:-1] + ("R", "IH", "NG"))
    return out


def ing_sounds_right(base: str, form: str, prons: Prons) -> bool:
    """False only if CMUdict knows both words and `form` is not heard as base + -ing
    (evening is not even + -ing); True when a pronunciation is missing."""
    bp, fp = prons.get(base), prons.get(form)
    if not bp or not fp:
        return True
    return any(_ing_expected(p) & set(fp) for p in bp)


def headword_parts(word: str) -> set[str]:
    """lemminflect's parts of speech for which `word` is its own lemma."""
    return {upos for upos, lemmas in lemminflect().getAllLemmas(word).items() if word in lemmas}


def _ends_like_ly(word: str, prons: Prons) -> bool:
    """False only if CMUdict knows `word` and no pronunciation ends in the -ly sound
    ("supply" ends in AY: it is not supple + -ly)."""
    wp = prons.get(word)
    return not wp or any(p[-1:] == ("IY",) for p in wp)


def _spelled_ly(base: str, kind: str) -> bool:
    """The spelling rules by which an adjective takes -ly, so that the spelling alone
    decides: plain (elegantly, cheerfully, cruelly), y -> ily (clumsily), le -> ly
    (gently), ic -> ically (basically), and a silent e dropped only after u, i or l
    (truly, eerily, wholly; surly is not sure + -ly). ``ll`` + y (fully) is left to the
    pronunciation: tally is not tall + -ly."""
    if kind == "e":
        return base.endswith(("ue", "ie", "le"))
    return kind in ("plain", "ily", "le", "ic")


def is_ly_derivation(base: str, kind: str, word: str, prons: Prons) -> bool:
    """Whether `word` is `base` + -ly for a table (No Cheapies rule 4 is about spelling).

    An adjective base takes -ly by the spelling rules (see ``_spelled_ly``), the
    dictionary confirming both words, unless CMUdict says `word` does not end in the
    -ly sound. Any other base (a noun: friendly, weekly; not come/comely) must also be
    heard as the base plus the suffix where CMUdict knows both words, so that spelling
    accidents stay allowed (early is not ear + -ly, belly not bel + -ly). Without
    pronunciations only adjective bases count."""
    pos = headword_parts(base)
    if not _ends_like_ly(word, prons):
        return False
    if "ADJ" in pos and _spelled_ly(base, kind):
        return True
    bp, wp = prons.get(base), prons.get(word)
    if not bp or not wp:
        return "ADJ" in pos
    if kind == "ll" and "ADJ" not in pos:  # hilly is hill + -y, fully is full + -ly
        return False
    if pos and not pos & {"ADJ", "NOUN"}:
        return False
    return any(_ly_expected(p, kind) & set(wp) for p in bp)


@dataclass
class Families:
    """The No Cheapies graph over `nodes` (lexicon words first, then lemmas that are not
    words of the lexicon), as CSR arrays so that it pickles and loads fast.

    `root[i]` is the family of node i's own unit. `lemma_ptr/lemma_ids/lemma_rule` list
    each node's lemma units with the rule to reach them; `adj_ptr/adj_ids/adj_rule` the
    undirected edges (inflection and derivation) used to explain a chain."""

    nodes: list[str]
    root: np.ndarray
    lemma_ptr: np.ndarray
    lemma_ids: np.ndarray
    lemma_rule: np.ndarray
    adj_ptr: np.ndarray
    adj_ids: np.ndarray
    adj_rule: np.ndarray


def _csr(n: int, pairs: Sequence[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compressed rows of (row, col, value) triples for rows 0..n-1."""
    arr = np.array(pairs, dtype=np.int64).reshape(-1, 3)
    arr = arr[np.lexsort((arr[:, 1], arr[:, 0]))]
    ptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(arr[:, 0], minlength=n), out=ptr[1:])
    return ptr, arr[:, 1].astype(np.int32), arr[:, 2].astype(np.uint8)


def build_families(words: Sequence[str], prons: Prons) -> Families:
    """Build the No Cheapies graph for `words` (the lexicon, unique, lower case)."""
    index = {w: i for i, w in enumerate(words)}
    nodes = list(words)

    def node(w: str) -> int:
        i = index.get(w)
        if i is None:
            i = index[w] = len(nodes)
            nodes.append(w)
        return i

    links: list[tuple[int, int, int]] = []  # (form, lemma, rule)
    unions: list[tuple[int, int, int]] = []  # (a, b, rule) joining own units
    for w in words:
        i = index[w]
        for lemma, rule in inflection_lemmas(w, known=index.__contains__).items():
            if rule == ING and not ing_sounds_right(lemma, w, prons):
                continue
            j = node(lemma)
            links.append((i, j, rule))
            if rule == ING:
                unions.append((i, j, rule))
        for base, kind in ly_bases(w):
            j = index.get(base)
            if j is not None and j < len(words) and is_ly_derivation(base, kind, w, prons):
                unions.append((i, j, LY))
    n = len(nodes)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, _ in unions:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    root = np.array([find(x) for x in range(n)], dtype=np.int32)
    lemma_ptr, lemma_ids, lemma_rule = _csr(n, links)
    ly_edges = [(a, b, r) for a, b, r in unions if r == LY]
    undirected = links + ly_edges + [(b, a, r) for a, b, r in links + ly_edges]
    adj_ptr, adj_ids, adj_rule = _csr(n, undirected)
    return Families(nodes, root, lemma_ptr, lemma_ids, lemma_rule, adj_ptr, adj_ids, adj_rule)


def word_families(fam: Families, n_words: int) -> tuple[np.ndarray, np.ndarray]:
    """(word id, family id) pairs: every family of every lexicon word (ids < n_words)."""
    owners = np.concatenate([np.arange(n_words), np.repeat(np.arange(n_words), np.diff(fam.lemma_ptr[: n_words + 1]))])
    return owners, np.concatenate([fam.root[:n_words], fam.root[fam.lemma_ids[: fam.lemma_ptr[n_words]]]])


def family_sizes(fam: Families, n_words: int) -> np.ndarray:
    """Number of lexicon words in each family (indexed by family id)."""
    owners, ids = word_families(fam, n_words)
    pairs = np.unique(np.stack([ids, owners], axis=1), axis=0)
    return np.bincount(pairs[:, 0], minlength=len(fam.nodes))


def unknown_units(word: str, known: Callable[[str], bool]) -> dict[str, int]:
    """Units of a word the lexicon lacks, {unit spelling: rule} (rule 0 for itself):
    lemminflect's lemmas (its suffix rules included) and -ly bases. -ly bases that are
    known words count only if they are adjectives; unknown ones always count."""
    units = {word: 0}
    units.update(inflection_lemmas(word))
    for base, _kind in ly_bases(word):
        if not known(base) or "ADJ" in headword_parts(base):
            units.setdefault(base, LY)
    return units

