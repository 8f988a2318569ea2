"""The voices that may say the training set, and the ones that never may.

The benchmarks hold out piper's joe, festival's HTS slt and flite's slt (the same
speaker as festival's): /work/shared/models/README.md, "Voices for training and for
held-out tests". :func:`check_training_voice` raises :class:`HeldOutVoice` for any of
them (with or without sox effects), and refuses any voice not known to be free for
training, so a typo cannot let one in.

A voice is "ENGINE:NAME": ``espeak:en-us+m3`` (espeak-ng language + variant),
``flite:rms``, ``mbrola:us1`` (espeak-ng -v mb-us1, when installed).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

HELD_OUT = ("piper:joe", "festival:slt", "flite:slt")
"""Never in a training set: the benchmarks' held-out voices."""
_HELD_OUT_RE = re.compile(r"(^|[^a-z])(joe|slt|fest|festival|piper|hts|arctic)([^a-z]|$)")

FLITE = ("rms", "awb", "kal", "kal16")
ESPEAK_LANGS = ("en-us", "en-gb", "en-gb-x-rp", "en-us-nyc", "en-gb-scotland", "en-029", "en-gb-x-gbclan")
ESPEAK_VARIANTS = ("", "m1", "m2", "m3", "m4", "m7", "f1", "f2", "f3", "f4", "klatt", "klatt3", "Andy", "Annie",
                   "benjamin", "caleb", "david", "ed", "edward", "linda", "max", "michel", "paul", "robert",
                   "steph", "travis", "Tweaky", "zac")
MBROLA = ("us1", "us2", "us3")


class HeldOutVoice(ValueError):
    """A held-out (benchmark) voice, or an unknown one, was asked to say training audio."""


def training_voices(mbrola: bool = False) -> list[str]:
    """Every training voice, espeak-ng's language x variant grid, flite's four, and
    (when asked and installed) mbrola's."""
    out = [f"flite:{v}" for v in FLITE]
    out += [f"espeak:{lang}" + (f"+{v}" if v else "") for lang in ESPEAK_LANGS for v in ESPEAK_VARIANTS]
    if mbrola:
        out += [f"mbrola:{v}" for v in MBROLA]
    return out


def check_training_voice(voice: str) -> str:
    """`voice` itself when it may say training audio; raises HeldOutVoice otherwise."""
    v = voice.strip().lower()
    if not v or _HELD_OUT_RE.search(v) or v in HELD_OUT:
        raise HeldOutVoice(f"{voice!r} is a held-out voice of the benchmarks (piper joe, festival HTS slt, "
                           "flite slt): it must never say training audio")
    engine, _, name = v.partition(":")
    ok = (engine == "flite" and name in FLITE) or (engine == "mbrola" and name in MBROLA) or \
        (engine == "espeak" and name.split("+")[0] in ESPEAK_LANGS and
         (name.split("+")[1:] == [] or name.split("+")[1] in {x.lower() for x in ESPEAK_VARIANTS if x}))
    if not ok:
        raise HeldOutVoice(f"{voice!r} is not a known training voice (flite:rms/awb/kal/kal16, "
                           "espeak:LANG[+VARIANT], mbrola:us1-3)")
    return voice


def tool_missing(voice: str) -> str | None:
    engine = voice.split(":", 1)[0]
    if engine in ("espeak", "mbrola"):
        return None if shutil.which("espeak-ng") else "espeak-ng is not installed"
    return None if shutil.which("flite") else "flite is not installed"


def say(text: str, voice: str, out: Path) -> Path:
    """Write `text` said by training voice `voice` to the WAV file `out` (the engine's
    own rate; read with voice_host.speech.audio.read_wav for 16 kHz)."""
    check_training_voice(voice)
    engine, _, name = voice.partition(":")
    if engine == "espeak":
        cmd = ["espeak-ng", "-v", name, "-w", str(out), text]
    elif engine == "mbrola":
        cmd = ["espeak-ng", "-v", f"mb-{name}", "-w", str(out), text]
    else:
        cmd = ["flite", "-voice", name, "-t", text, "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)
    return out
