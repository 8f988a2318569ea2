"""benchmarks/real_sentences.py counts the recognizer's word errors on real people
reading (Debian's pocketsphinx-testdata), the check an adapted recognizer must pass."""

from __future__ import annotations

import json

import pytest
import support
from support import need


@pytest.fixture(scope="module")
def bench():
    return support.benchmark("real_sentences")


def test_a_transcript_and_a_reading_are_compared_as_spoken_words(bench):
    assert bench.words("Mr. Dashwood said 10 well-chosen words.") == \
        ["mister", "dashwood", "said", "ten", "well", "chosen", "words"]


def test_the_base_model_reads_real_sentences_and_cards_with_few_word_errors(bench, capsys):
    need(bench.DATA.joinpath("librivox").exists(), f"{bench.DATA} (Debian's pocketsphinx-testdata) is not installed")
    assert bench.main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    figures = out["figures"]
    assert list(figures) == list(bench.CONDITIONS) and out["model"] == "base"
    assert all(figures[c]["words"] == 92 for c in bench.CONDITIONS)
    assert out["errors"] == sum(figures[c]["errors"] for c in bench.CONDITIONS)
    assert figures["clean"]["errors"] <= 8, figures["clean"]["misses"]  # 5 measured: "ill disposed", "clubs"
    assert len(figures["clean"]["misses"]) <= figures["clean"]["errors"]
