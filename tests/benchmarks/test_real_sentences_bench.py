"""benchmarks/real_sentences.py counts the recognizer's word errors on real people
reading (Debian's pocketsphinx-testdata), the check an adapted recognizer must pass."""

from __future__ import annotations

import json

import pytest
from support import need


@pytest.fixture(scope="module")
def bench():
    import real_sentences

    return real_sentences


def test_a_transcript_and_a_reading_are_compared_as_spoken_words(bench):
    assert bench.words("Mr. Dashwood said 10 well-chosen words.") == \
        ["mister", "dashwood", "said", "10", "well", "chosen", "words"]
    assert bench.words("one fifty") == bench.words("1 50") == bench.words("150") == ["150"]  # a number, however written
    assert bench.words("eight of spades four of clubs") == ["8", "of", "spades", "4", "of", "clubs"]


@pytest.mark.model
def test_the_base_model_reads_real_sentences_and_cards_with_few_word_errors(bench, capsys, tmp_path):
    need(bench.DATA.joinpath("librivox").exists(), f"{bench.DATA} (Debian's pocketsphinx-testdata) is not installed")
    assert bench.main(["--json", "--data", str(tmp_path)]) == 0  # no AN4 recordings there: pocketsphinx alone
    out = json.loads(capsys.readouterr().out)
    figures = out["figures"]["pocketsphinx"]
    assert list(out["figures"]) == ["pocketsphinx"] and out["model"] == "base"
    assert list(figures) == list(bench.CONDITIONS) and all(figures[c]["words"] == 91 for c in bench.CONDITIONS)
    assert out["errors"]["pocketsphinx"] == sum(figures[c]["errors"] for c in bench.CONDITIONS)
    assert figures["clean"]["errors"] <= 8, figures["clean"]["misses"]  # 5 measured: "ill disposed", "clubs"
    assert len(figures["clean"]["misses"]) <= figures["clean"]["errors"]


def test_the_an4_recordings_are_read_from_their_manifests(bench, tmp_path):
    (tmp_path / "an4_train.json").write_text(json.dumps(
        {"audio_filepath": "tests/data/asr/train/an4/wav/an46-mmap-b.wav", "duration": 2.0, "text": "stop"}) + "\n")
    (tmp_path / "an4_val.json").write_text(json.dumps(
        {"audio_filepath": "tests/data/asr/test/an4/wav/cen3-fjdn-b.wav", "duration": 2.0, "text": "thirty three"}) + "\n")
    assert bench.an4(tmp_path) == [(tmp_path / "train" / "an4" / "wav" / "an46-mmap-b.wav", ["stop"]),
                                   (tmp_path / "test" / "an4" / "wav" / "cen3-fjdn-b.wav", ["33"])]
    assert bench.an4(tmp_path / "missing") == []
