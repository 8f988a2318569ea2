"""A table's settings file is checked at start-up against config/default.toml's keys
(voice_host/config_schema.py): a value of the wrong type or out of range, an unknown key
or section, is one sentence and exit 2, before anything starts."""

from __future__ import annotations

import dataclasses

import pytest

from voice_host import cli, config
from voice_host.config_schema import Config, _model_at


def refused(tmp_path, capsys, text: str) -> str:
    """What ``voice-host play --config FILE`` says of a file holding ``text`` (exit 2)."""
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    code = cli.main(["play", "--players", "Ann,Ben,Cat", "--no-voice", "--config", str(path),
                     "--script", str(tmp_path / "never-read.txt")])
    out = capsys.readouterr()
    assert code == 2 and "host:" not in out.out and "Traceback" not in out.err
    prefix = f"voice-host: {path}: "
    assert out.err.startswith(prefix) and out.err.count("\n") == 1, out.err
    return out.err[len(prefix):].strip()


@pytest.mark.parametrize("text, sentence", [
    ('[prolix]\ntimer = "fast"\n', '[prolix] timer needs a number of seconds above 0 (at most 3600), not "fast".'),
    ("[prolix]\ntimer = -5\n", "[prolix] timer needs a number of seconds above 0 (at most 3600), not -5."),
    ("[prolix]\nrounds_3_players = 0\n", "[prolix] rounds_3_players needs a whole number of 1 or more, not 0."),
    ('[speach]\nengine = "auto"\n', "Unknown section [speach]: did you mean [speech]?"),
    ('[speech]\nsecondear = "whisper"\n', "Unknown key 'secondear' in [speech]: did you mean 'second_ear'?"),
    ("[table]\ntimer = 30\n", "Unknown key 'timer' in [table]: did you mean [prolix] timer?"),
    ('[speech]\nsecond_ear = "yes"\n', '[speech] second_ear needs one of "off", "auto", "whisper", not "yes".'),
    ("[table]\nauto_reject = 1\n", "[table] auto_reject needs true or false, not 1."),
    ("[table]\ntie_window = 11\n", "[table] tie_window needs a number of seconds from 0 to 10, not 11."),
    ("[voice.piper]\nrte = 1.2\n", "Unknown key 'rte' in [voice.piper]: did you mean 'rate'?"),
    ('[dexikon]\nvariant = "short"\n',
     '[dexikon] variant needs one of "standard", "quick", "long", "long-best5", not "short".'),
    ("[phlounder]\nmax_length = 3\n", "[phlounder] max_length needs to be at least min_length (4), not 3."),
    ('[phlounder]\nletter_die = ["N", "A"]\n',
     '[phlounder] letter_die needs a list of faces, each one of "N", "V", "*", not ["N", "A"].'),
    ("[road]\nset_size = -1\n", "[road] set_size needs a whole number of 0 or more, not -1."),
])
def test_a_bad_settings_file_is_one_sentence(tmp_path, capsys, text, sentence):
    assert refused(tmp_path, capsys, text) == sentence


def test_the_file_and_the_command_line_share_their_limits(tmp_path, capsys):
    """-5 s is refused on the command line and in a file alike; 3600 taken by both."""
    assert cli.main(["play", "--players", "Ann,Ben,Cat", "--no-voice", "--timer", "-5"]) == 2
    assert capsys.readouterr().err == "voice-host: --timer needs a number of seconds above 0, not -5.\n"
    (tmp_path / "ok.toml").write_text("[prolix]\ntimer = 3600\nredux_timer = 0.5\n", encoding="utf-8")
    assert config.load(tmp_path / "ok.toml")["prolix"]["timer"] == 3600


def test_the_defaults_and_every_settings_field_are_in_the_schema():
    """config/default.toml passes, and every field a settings class reads from a section
    is a key the schema knows, so a key the host reads is never refused as unknown."""
    from voice_host.games.dexikon.state import DexikonSettings
    from voice_host.games.phlounder.state import PhlounderSettings
    from voice_host.games.prolix.common import ProlixSettings
    from voice_host.games.road.rules import RoadSettings
    from voice_host.host.hearing.heard import HearingSettings
    from voice_host.speech.listening.config import TurnConfig
    from voice_host.speech.speaking.tts import VoiceSettings
    from voice_host.words.lexicon import LexiconSettings

    Config.model_validate(config.read_toml(config.CONFIG_DIR / "default.toml"))
    for cls in (ProlixSettings, DexikonSettings, PhlounderSettings, RoadSettings, HearingSettings, TurnConfig,
                VoiceSettings, LexiconSettings):
        known = {key for section in cls.sections for key in _model_at((section,)).model_fields}
        missing = {f.name for f in dataclasses.fields(cls)} - known - {"tiles"}  # the tile set: read from its file
        assert not missing, f"{cls.__name__} reads {sorted(missing)}: add them to voice_host/config_schema.py"


def test_an_old_log_resumes_unchecked(tmp_path):
    """A log's header holds the full merged configuration it was played with: resuming
    reads it as it is, an older key (a flat [voice] rate) included."""
    from voice_host.host.log import EventLog
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    cfg = config.load()
    cfg["voice"]["rate"] = 175  # an older spelling, folded in by VoiceSettings.prepare
    cfg["speech"]["retired_key"] = 1
    log = EventLog(tmp_path / "game.log", new_header("prolix-duel", ["Ann", "Ben"], 1, cfg))
    log.close()
    header, records, damaged = EventLog.salvage(tmp_path / "game.log")
    Session(header, Words.load(), lambda _: None)  # builds, as before
    assert header.config["speech"]["retired_key"] == 1 and not damaged
