"""A model is loaded once per process, by what it was loaded from, whoever asks first."""

from __future__ import annotations

import threading

from voice_host.speech.recognizing.models import LOADED, Loaded
from voice_host.speech.recognizing.vosk.recognizer import VoskRecognizer, load_vosk_model


def test_a_model_asked_for_by_many_threads_at_once_is_loaded_once():
    loaded, calls, start = Loaded(), [], threading.Barrier(8)

    def load():
        calls.append(1)
        return object()

    got = []

    def ask():
        start.wait()
        got.append(loaded.get(("engine", "/models/a"), load))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len({id(m) for m in got}) == 1


def test_models_loaded_from_different_folders_are_different_models():
    loaded = Loaded()
    a = loaded.get("a", object)
    assert loaded.get("b", object) is not a
    assert loaded.get("a", object) is a


def test_two_vosk_recognizers_share_the_process_s_one_model(vosk_model_dir):
    first, second = VoskRecognizer(vosk_model_dir), VoskRecognizer(vosk_model_dir)
    assert first.model is second.model
    assert load_vosk_model(first.model_path) is first.model
    assert LOADED.get(("vosk", str(first.model_path.resolve())), object) is first.model


def test_one_model_loading_never_holds_up_another():
    loaded, first_loading, second_loaded = Loaded(), threading.Event(), threading.Event()
    waited = []

    def slow():
        first_loading.set()
        waited.append(second_loaded.wait(5))  # False: the second model waited for this one
        return "first"

    t = threading.Thread(target=lambda: loaded.get("first", slow))
    t.start()
    assert first_loading.wait(10)
    assert loaded.get("second", lambda: "second") == "second"
    second_loaded.set()
    t.join()
    assert waited == [True]
    assert loaded.get("first", object) == "first"
