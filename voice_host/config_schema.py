"""What a settings file may say: every key of config/default.toml, its type, its range or
its choices, as pydantic models (one a section, unknown keys forbidden).

``check(cfg, source)`` validates the merged configuration once, at start-up
(voice_host.config.load), and raises ``SettingsProblem`` with one sentence for the first
problem, after the file's name: a value of the wrong type or out of range ("[prolix] timer needs a number of
seconds above 0 (at most 3600), not -5."), or an unknown key or section named with the
nearest known one ("Unknown key 'secondear' in [speech]: did you mean 'second_ear'?").
The limits the command line's options share (``TIMER``, ``TIE_WINDOW``, ``SET_SIZE``)
are the command line's (voice_host.host.checks). The settings classes
(voice_host.settings) still read the values; this only says whether they can be read.

Strict: TOML's types are exact, so "45" is no number and 1 no true/false.
"""

from __future__ import annotations

import difflib
import json
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

TIMER = (0.0, 3600.0)
"""A sand timer's seconds: above the first, at most the second (--timer too)."""
TIE_WINDOW = (0.0, 10.0)
"""Seconds within which words are simultaneous, both ends allowed (--tie-window too)."""
SET_SIZE = 0
"""The fewest tiles a road set may be said to have (0: unknown; --set-size too)."""

ENGINES = ("auto", "moonshine", "whisper", "vosk")  # voice_host.speech.recognizing.engines.ENGINES
VOICES = ("auto", "piper", "pyttsx3")  # voice_host.speech.speaking.tts.ENGINES


class SettingsProblem(ValueError):
    """A settings file the host cannot use, said in one sentence."""


def seconds(*, above: float | None = 0.0, least: float | None = None, most: float | None = None):
    """A field of seconds: above ``above`` (or at least ``least``), at most ``most``."""
    low = f"above {above:g}" if least is None else f"of {least:g} or more"
    high = f" (at most {most:g})" if most is not None else ""
    return Field(gt=above if least is None else None, ge=least, le=most,
                 description=f"a number of seconds {low}{high}")


def number(what: str = "a number", *, least: float | None = None, above: float | None = None,
           most: float | None = None, default=...):
    """A field of a number (or a whole number), with its range said."""
    said = [f"of {least:g} or more" if least is not None else "", f"above {above:g}" if above is not None else "",
            f"at most {most:g}" if most is not None else ""]
    said = [s for s in said if s]
    if least is not None and most is not None:
        said = [f"from {least:g} to {most:g}"]
    return Field(default, ge=least, gt=above, le=most, description=" ".join([what, *said]))


def share(default=...):
    """A field of a fraction from 0 to 1."""
    return number("a number", least=0, most=1, default=default)


def chosen(default=...):
    """A field of one of a few words (a Literal: its choices say themselves)."""
    return Field(default)


def flag():
    return Field(description="true or false")


WHOLE = "a whole number"


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Dictionary(Section):
    wordlist: str | None = Field(None, description="the path of a word list, in quotes")
    allow: str | None = Field(None, description="the path of a word list, in quotes")
    deny: str | None = Field(None, description="the path of a word list, in quotes")


class Table(Section):
    tie_window: float = Field(ge=TIE_WINDOW[0], le=TIE_WINDOW[1],
                              description=f"a number of seconds from {TIE_WINDOW[0]:g} to {TIE_WINDOW[1]:g}")
    auto_reject: bool = flag()
    challenge_vote: bool = flag()
    verbosity: Literal["full", "brief"] = chosen()


class Prolix(Section):
    tiles: str = Field(description="the path of a tiles file, in quotes")
    timer: float = seconds(above=TIMER[0], most=TIMER[1])
    interrupt_slots: int = number(WHOLE, least=1)
    failed_challenge_penalty: int = number(WHOLE, least=0)
    last_challenge_window: float = seconds(above=None, least=0, most=600)
    rounds_3_players: int = number(WHOLE, least=1)
    rounds_4_5_players: int = number(WHOLE, least=1)
    interrupt_penalty_3_players: int = number(WHOLE, least=0)
    interrupt_penalty_4_5_players: int = number(WHOLE, least=0)
    solo_targets: list[int] = Field(min_length=1, description="a list of whole numbers, one a round, like [15, 32, 50]")
    solo_countdown: list[int] = Field(description="a list of whole numbers of seconds, like [30, 10, 5]")
    duel_marks: int = number(WHOLE, least=1)
    redux_timer: float = seconds(above=TIMER[0], most=TIMER[1])
    redux_rounds: int = number(WHOLE, least=1)
    redux_best_words: int = number(WHOLE, least=1)
    redux_two_blue_f: bool = flag()

    @model_validator(mode="after")
    def _lists(self):
        if any(t < 0 for t in self.solo_targets) or list(self.solo_targets) != sorted(self.solo_targets):
            raise ValueError(f"[prolix] solo_targets needs scores of 0 or more that never go down, not "
                             f"{toml(self.solo_targets)}.")
        if any(s <= 0 for s in self.solo_countdown):
            raise ValueError(f"[prolix] solo_countdown needs seconds above 0, not {toml(self.solo_countdown)}.")
        return self


class Speech(Section):
    engine: Literal[ENGINES] = chosen()  # type: ignore[valid-type]
    model: Literal["base", "adapted"] = chosen()
    second_ear: Literal["off", "auto", "whisper"] = chosen()
    confirm_below: float = share()
    confirm_heard_below: float = share()
    confirm_fit_below: float = number()
    ask_within: float = number(least=0)
    take_above: float = share()
    take_over_noise: float = number("a number of dB", least=0)
    form_within: float = number(least=0)
    join_above: float = share()
    answer_within: float = seconds(above=0, most=600)
    prior_points: float = number(least=0)
    prior_known: float = number(least=0)
    background_below: float = number("a number of dB", least=0)
    background_unsure_below: float = number("a number of dB", least=0)
    ignore: list[str] = Field(description='a list of words in quotes, like ["um", "uh"]')
    # tuning the host's settings class reads too (voice_host/host/hearing/heard.py), not in default.toml
    homophone_zipf: float | None = number(least=0, default=None)
    enroll_within: float | None = number("a number of seconds", above=0, default=None)
    loud_below: float | None = number("a number of dB", least=0, default=None)
    talk_below: float | None = number("a number of dB", least=0, default=None)
    loud_every: float | None = number("a number of seconds", above=0, default=None)
    sentence_gap: float | None = number("a number of seconds", least=0, default=None)


class Listening(Section):
    trailing_silence: float = seconds(above=0, most=10)
    guess_after: float = seconds(above=None, least=0, most=10)
    end_early_after: float = seconds(above=None, least=0, most=10)
    acknowledge_after: float = seconds(above=None, least=0, most=10)
    vad: Literal["webrtc", "silero", "both"] = chosen()
    vad_aggressiveness: int = number(WHOLE, least=0, most=3)
    min_speech: float = seconds(above=None, least=0, most=10)
    takeover_db: float = number("a number of dB", least=0)
    ask_below: float = share()
    # tuning the listener's settings class reads too (voice_host/speech/listening/config.py)
    frame_ms: Literal[10, 20, 30] | None = None
    silero_veto_below: float | None = share(default=None)
    silero_veto_after: int | None = number(WHOLE, least=0, default=None)
    silero_above: float | None = share(default=None)
    end_early_above: float | None = number(least=0, default=None)
    start_frames: int | None = number(WHOLE, least=1, default=None)
    start_window: int | None = number(WHOLE, least=1, default=None)
    pre_roll: float | None = number("a number of seconds", least=0, default=None)
    max_utterance: float | None = number("a number of seconds", above=0, default=None)
    min_level_db: float | None = number("a number of dB", default=None)
    noise_margin_db: float | None = number("a number of dB", least=0, default=None)
    takeover_after: float | None = number("a number of seconds", least=0, default=None)
    crosstalk_db: float | None = number("a number of dB", least=0, default=None)
    own_microphone_lead: float | None = number("a number of seconds", least=0, default=None)
    owner_below: float | None = number("a number of dB", least=0, default=None)
    copy_db: float | None = number("a number of dB", least=0, default=None)
    copy_likeness: float | None = share(default=None)
    copy_spread: float | None = number("a number of dB", least=0, default=None)
    channel_confidence: float | None = share(default=None)
    name_confidence: float | None = share(default=None)
    echo_cancel: bool | None = Field(None, description="true or false")
    echo_gate: Literal["on", "off", "converging"] | None = None
    recognize_from: Literal["microphone", "cancelled"] | None = None


class Piper(Section):
    voice: str = Field(description="a voice's name or the path of a Piper .onnx file, in quotes")
    rate: float = number(above=0, most=3)
    volume: float = number(above=0, most=1)


class Pyttsx3(Section):
    voice: str | None = Field(None, description="a voice's id or part of its name, in quotes")
    rate: float | None = number("a number of words a minute", above=0, default=None)
    volume: float = number(above=0, most=1)


VoiceEngine = Annotated[Literal[VOICES],  # type: ignore[valid-type]
                        BeforeValidator(lambda v: v.lower() if isinstance(v, str) else v)]
"""[voice] engine, in any case ("PYTTSX3"), as VoiceSettings reads it."""


class Voice(Section):
    engine: VoiceEngine = chosen()
    earcons: bool = flag()
    piper: Piper
    pyttsx3: Pyttsx3
    # older flat keys, pyttsx3's (voice_host.speech.speaking.tts.VoiceSettings.prepare)
    voice: str | None = Field(None, description="a voice's id or part of its name, in quotes")
    rate: float | None = number("a number of words a minute", above=0, default=None)
    volume: float | None = number(above=0, most=1, default=None)


NUMBER_FACES = ("4", "5", "6", "7", "8", "9", "*")
LETTER_FACES = ("N", "V", "*")


class Phlounder(Section):
    rounds: int = number(WHOLE, least=1)
    min_length: int = number(WHOLE, least=1)
    max_length: int = number(WHOLE, least=1)
    number_die: list[Literal[NUMBER_FACES]] = Field(min_length=1)  # type: ignore[valid-type]
    letter_die: list[Literal[LETTER_FACES]] = Field(min_length=1)  # type: ignore[valid-type]
    children_letter_die: list[Literal[LETTER_FACES]] = Field(min_length=1)  # type: ignore[valid-type]
    win_bonus: int = number(WHOLE, least=0)
    child_win_bonus: int = number(WHOLE, least=0)
    illegal_bell_penalty: int = number(WHOLE, least=0)
    illegal_bell_bonus: int = number(WHOLE, least=0)
    report_reminder: float = seconds(above=0, most=600)
    teams: list[str] = Field(description='a list of partners in quotes, like ["Ann+Ben", "Cat+Dan"]')
    children: list[str] = Field(description='a list of names in quotes, like ["Cat"]')

    @model_validator(mode="after")
    def _lengths(self):
        if self.max_length < self.min_length:
            raise ValueError(f"[phlounder] max_length needs to be at least min_length ({self.min_length}), "
                             f"not {self.max_length}.")
        return self


class Dexikon(Section):
    variant: str = Field(description="a variant's name in quotes")
    challenge_window: float = seconds(above=0, most=600)
    penalty_points: int = number(WHOLE, least=0)
    variants: dict[str, list[int]] = Field(description="variants, each = [banked words that end the game, best "
                                                       "banked words that count]")

    @model_validator(mode="after")
    def _variants(self):
        for name, pair in self.variants.items():
            if len(pair) != 2 or not 1 <= pair[1] <= pair[0]:
                raise ValueError(f"[dexikon.variants] {name} needs two whole numbers, the banked words that end the "
                                 f"game and the best of them that count (at least 1, and no more than the first), "
                                 f"like [7, 5], not {toml(pair)}.")
        if self.variant not in self.variants:
            raise ValueError(f"[dexikon] variant needs one of {', '.join(map(toml, self.variants))}, "
                             f"not {toml(self.variant)}.")
        return self


class Road(Section):
    rack: int = number(WHOLE, least=1)
    set_size: int = number(WHOLE, least=SET_SIZE)
    letters: str = Field(description="the set's letters in quotes (? a blank)")


class Config(Section):
    """The whole file: its sections."""

    dictionary: Dictionary
    table: Table
    prolix: Prolix
    speech: Speech
    listening: Listening
    voice: Voice
    phlounder: Phlounder
    dexikon: Dexikon
    road: Road


def toml(value) -> str:
    """A value as a TOML file writes it ("fast", true, [1, 2])."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def _model_at(path: tuple) -> type[BaseModel] | None:
    """The section model at ``path`` (("voice", "piper")), or None."""
    model: type[BaseModel] = Config
    for name in path:
        field = model.model_fields.get(name)
        inner = field.annotation if field is not None else None
        if not (isinstance(inner, type) and issubclass(inner, BaseModel)):
            return None
        model = inner
    return model


def _sections(model: type[BaseModel] = Config, path: tuple = ()) -> dict[tuple, type[BaseModel]]:
    """Every section model by its path."""
    out: dict[tuple, type[BaseModel]] = {}
    for name, field in model.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            out[(*path, name)] = field.annotation
            out.update(_sections(field.annotation, (*path, name)))
    return out


def _name(path: tuple) -> str:
    return "[" + ".".join(path) + "]"


def _unknown(path: tuple, key: str) -> str:
    """An unknown key (or section, at the top) said with the nearest known one."""
    if not path:
        near = difflib.get_close_matches(key, list(Config.model_fields), n=1, cutoff=0.6)
        elsewhere = [p for p, m in _sections().items() if key in m.model_fields]
        if near:
            return f"Unknown section [{key}]: did you mean [{near[0]}]?"
        if elsewhere:
            return f"The key '{key}' needs to be in a section: did you mean {_name(elsewhere[0])} {key}?"
        return f"Unknown section [{key}]: the sections are {', '.join(_name((s,)) for s in Config.model_fields)}."
    model = _model_at(path)
    known = list(model.model_fields) if model is not None else []
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if near:
        return f"Unknown key '{key}' in {_name(path)}: did you mean '{near[0]}'?"
    elsewhere = [p for p, m in _sections().items() if key in m.model_fields and p != path]
    if elsewhere:
        return f"Unknown key '{key}' in {_name(path)}: did you mean {_name(elsewhere[0])} {key}?"
    return f"Unknown key '{key}' in {_name(path)}: config/default.toml lists the keys it can have."


def _what(path: tuple, key: str) -> str:
    """What a key takes, as its field describes it."""
    model = _model_at(path)
    field = model.model_fields.get(key) if model is not None else None
    if field is None:
        return "something else"
    if field.description:
        return field.description
    choices = [a for a in getattr(field.annotation, "__args__", ()) if a is not type(None)]
    if choices and all(isinstance(c, (str, int)) for c in choices):
        return "one of " + ", ".join(toml(c) for c in choices)
    inner = choices[0] if choices else None
    faces = [a for a in getattr(inner, "__args__", ()) if isinstance(a, (str, int))]
    if faces:
        return "a list of faces, each one of " + ", ".join(toml(c) for c in faces)
    return "something else"


def sentence(error: dict, cfg: dict) -> str:
    """One pydantic error as the sentence a table's host understands."""
    loc = tuple(str(p) for p in error["loc"] if not isinstance(p, int))
    if error["type"] == "extra_forbidden":
        return _unknown(loc[:-1], loc[-1])
    if error["type"] == "value_error":
        return str(error["ctx"]["error"])
    if error["type"] in ("model_type", "dict_type") and _model_at(loc) is not None:
        return f"{_name(loc)} needs to be a section of keys, not {toml(error['input'])}."
    if error["type"] == "missing":  # a section or key set to nothing in the merged file
        return f"{_name(loc[:-1])} {loc[-1]} is missing: config/default.toml shows it."
    *section, key = loc
    value = cfg
    for p in loc:
        value = value.get(p) if isinstance(value, dict) else None
    return f"{_name(tuple(section))} {key} needs {_what(tuple(section), key)}, not {toml(value)}."


def check(cfg: dict, source: str | None = None) -> None:
    """Raise ``SettingsProblem`` with one sentence when ``cfg`` (the merged configuration,
    before the tile sets are read in) holds a value or a key the host cannot use."""
    try:
        Config.model_validate(cfg)
    except ValidationError as exc:
        said = sentence(exc.errors()[0], cfg)
        if source:
            said = f"{source}: {said}"
        raise SettingsProblem(said) from None


__all__ = ["SET_SIZE", "TIE_WINDOW", "TIMER", "Config", "SettingsProblem", "check"]
