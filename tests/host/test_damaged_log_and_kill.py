"""A damaged log loses nothing it can still read, and a game
killed at any moment resumes exactly as if it had not been."""

from __future__ import annotations

import json
import sys

import pytest
from support import voice_host

from voice_host.host.log import EventLog

pytestmark = pytest.mark.slow  # voice-host run as a command

PLAYERS = ("--players", "Ann,Ben,Cat", "--seed", "11")

# A digital-bag game: a question early on, then seven scored words after it.
SCRIPT = """\
@start Ann
Ann: jewelers
Ben: flummoxed
Cat: scores
Cat: picnicking
Ann: scrapbooking
Ben: hurdled
Cat: plucky
Ann: giving
Ben: begrudging
Cat: jubilantly
"""


def played(tmp_path, script: str = SCRIPT) -> tuple[dict, list[bytes]]:
    """The game's result and its log's lines (with their newlines)."""
    (tmp_path / "s.txt").write_text(script)
    out, log = tmp_path / "ref.json", tmp_path / "ref.log"
    proc = voice_host("play", *PLAYERS, "--script", str(tmp_path / "s.txt"), "--no-voice", "--result-json", str(out),
                      "--log", str(log))
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()), log.read_bytes().splitlines(keepends=True)


def resumed(tmp_path, log, *extra: str, stdin: str = "") -> tuple[dict, list[str]]:
    out = tmp_path / "resumed.json"
    proc = voice_host("resume", str(log), "--no-voice", "--result-json", str(out), *extra, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()), [x[len("host: "):] for x in proc.stdout.splitlines()]


def test_a_damaged_question_in_the_middle_is_skipped_and_the_rest_replayed(tmp_path):
    reference, lines = played(tmp_path)
    # header, @start, begin, jewelers, flummoxed, scores (line 6), picnicking, ...
    assert json.loads(lines[5])["text"] == "scores"
    damaged = b"".join(lines[:5]) + lines[5][:25] + b"\n" + b"".join(lines[6:])
    log = tmp_path / "game.log"
    log.write_bytes(damaged)
    result, said = resumed(tmp_path, log)
    assert said[:2] == [
        f"Line 6 of {log} is damaged, so I skipped it and replayed the other 10 inputs; "
        f"the original log is kept as {log}.damaged.",
        "Resuming Prolix Classic after 10 logged inputs.",
    ]
    assert result == reference  # a question changes nothing: every word after it is scored as before
    assert (tmp_path / "game.log.damaged").read_bytes() == damaged
    assert log.read_bytes() == b"".join(lines[:5] + lines[6:])  # the log goes on whole, without the damage


def test_lines_that_are_not_text_are_skipped_and_said_with_what_they_look_like(tmp_path):
    _, lines = played(tmp_path)
    nul = lines[5].replace(b'"t":', b'"t"\x00:')  # Cat: scores, its time unreadable
    bad = lines[7].replace(b'"text"', b'"te\xff\xfext"')  # Ann: scrapbooking, the key of its text unreadable
    assert nul != lines[5] and bad != lines[7]
    damaged = b"".join(lines[:5]) + nul + lines[6] + bad + b"".join(lines[8:])
    log = tmp_path / "game.log"
    log.write_bytes(damaged)
    result, said = resumed(tmp_path, log)
    assert said[0] == (f"Lines 6 (Cat: scores) and 8 of {log} are damaged, so I skipped them and replayed the "
                       f"other 9 inputs; the original log is kept as {log}.damaged.")
    assert (tmp_path / "game.log.damaged").read_bytes() == damaged
    # every other input replayed: the game without those two lines
    (tmp_path / "without").mkdir()
    without, _ = played(tmp_path / "without", SCRIPT.replace("Cat: scores\n", "").replace("Ann: scrapbooking\n", ""))
    assert result == without


def test_a_damaged_word_says_what_it_looks_like(tmp_path):
    reference, lines = played(tmp_path)
    bad = lines[6].replace(b'"t":', b'"t":x')  # picnicking, its time unreadable
    log = tmp_path / "game.log"
    log.write_bytes(b"".join(lines[:6]) + bad + b"".join(lines[7:]))
    result, said = resumed(tmp_path, log)
    assert said[0] == (f"Line 7 (Cat: picnicking) of {log} is damaged, so I skipped it and replayed the other 10 "
                       f"inputs; the original log is kept as {log}.damaged.")


def test_only_an_unreadable_header_is_refused(tmp_path):
    _, lines = played(tmp_path)
    log = tmp_path / "game.log"
    for header, sentence in (
            (lines[0][:40] + b"\n", f"{log} is not a voice-host game log."),
            (lines[0].replace(b"prolix", b"pro\x00lix"), f"{log} is not a voice-host game log (it isn't even text)."),
            (lines[0].replace(b'"prolix-classic"', b'"prolix-classics"'),
             f"{log} is a log of prolix-classics, a game I don't know."),
            (lines[0].rstrip(b"\n"), f"{log} is not a voice-host game log.")):  # a header cut short, no line after
        log.write_bytes(header + (b"".join(lines[1:]) if header.endswith(b"\n") else b""))
        proc = voice_host("resume", str(log), "--no-voice")
        assert proc.returncode == 2
        assert proc.stderr.strip() == f"voice-host: {sentence}"
        assert not (tmp_path / "game.log.damaged").exists()


def test_a_lost_opening_is_put_back_before_the_first_word(tmp_path):
    reference, lines = played(tmp_path)
    assert json.loads(lines[2]) == {"t": 2.0, "begin": True}
    log = tmp_path / "game.log"
    log.write_bytes(b"".join(lines[:2]) + b'{"t":2.0,"beg\n' + b"".join(lines[3:]))
    result, said = resumed(tmp_path, log)
    assert said[0] == (f"Line 3 of {log} is damaged, so I skipped it and replayed the other 11 inputs; "
                       f"the original log is kept as {log}.damaged.")
    assert result == reference
    assert log.read_bytes() == b"".join(lines)


def test_a_torn_last_line_is_dropped_even_when_it_reads_as_a_record(tmp_path):
    """A last line without its newline was never acknowledged: neither replayed nor kept,
    so the log and the resumed game agree (the script line is played again)."""
    reference, lines = played(tmp_path)
    log = tmp_path / "game.log"
    log.write_bytes(b"".join(lines[:-1]) + lines[-1].rstrip(b"\n"))
    result, said = resumed(tmp_path, log, "--script", str(tmp_path / "s.txt"))
    assert said[0] == "Resuming Prolix Classic after 10 logged inputs."
    assert result == reference
    assert log.read_bytes() == b"".join(lines)
    assert EventLog.salvage(log)[2] == []


# ---------------------------------------------------------------------- item 4: kill -9 at any moment
def kill_harness():
    """benchmarks/kill.py, imported as a module."""
    import kill

    return kill


def test_every_resume_after_a_kill_is_exact(tmp_path, words):
    """The kill harness at small size: each game killed where a kill hurts most (the log's
    creation, the opening, between simultaneous words, in the last word's challenge window,
    while an undo question waits for its answer, a line half-written, a resume killed
    again), resumed, and compared with the game never killed: result, sheets and log."""
    k = kill_harness()
    K = k.Kill
    kills = {
        "classic-script": [[K(write=0)], [K(at="begin", how="before")], [K(at="Cat: picnicking")],
                           [K(at="Cat: timer", how="torn")], [K(at="@wait 31")], [K(at="Ann: wrench")],
                           [K(at="Ben: outset")], [K(at="Cat: outsets")]],
        "classic-typed": [[K(write=1, how="before")], [K(at="Cat: picnicking")], [K(at="Cat: undo")],
                          [K(at="Ann: undo"), K(at="Cat: no", how="before")], [K(at="Cat: outset")],
                          [K(at="Ben: catfish", how="torn")], [K(at="Ann: timer")]],
        "road-script": [[K(write=1, how="before")], [K(at="Ben: play zebra for 16 with 5 tiles")],
                        [K(at="Ann: pass", how="torn")]],
        "dexikon-typed": [[K(write=1, how="before")], [K(at="Colin: challenge Barbara")],
                          [K(at="Colin: bank tiger for 6")],
                          [K(at="Colin: bank dog for 3"), K(at="Barbara: no", how="before")]],
    }
    k.preload()
    refs = k.references(tmp_path)
    trials = [(s, chain) for s in k.SCENARIOS for chain in kills[s.name]]
    outcomes = k.run_trials(trials, refs, tmp_path)
    assert len(outcomes) == 22
    mismatches = [f"{o.scenario}: {' -> '.join(o.kills)}: {o.detail}" for o in outcomes if not o.exact]
    assert not mismatches, "\n".join(mismatches)


def test_an_input_is_replayed_at_its_own_time(tmp_path):
    """Typed play lets the clock reach each line's time before the line: after the last
    word's challenge window has closed, a challenge is refused (the game is over), and
    the replayed log must refuse it too."""
    (tmp_path / "rounds.toml").write_text("[prolix]\nrounds_3_players = 1\n")
    log, out = tmp_path / "game.log", tmp_path / "played.json"
    lines = "Ann: jewelers\nBen: flummoxed\nCat: picnicking\n[+11] Ben: challenge\n"
    proc = voice_host("play", *PLAYERS, "--start", "Ann", "--config", str(tmp_path / "rounds.toml"), "--no-voice",
                      "--log", str(log), "--result-json", str(out), stdin=lines)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "host: The game is over: Ann won with 13."  # the challenge, refused
    result, said = resumed(tmp_path, log)
    assert result == json.loads(out.read_text())


def test_a_timer_that_ran_out_at_a_terminal_stays_run_out_after_a_kill(tmp_path):
    """Typing at a terminal the clock is real time: when it changes the game (the timer
    runs out while nobody types), the log marks the time, so a game killed afterwards
    resumes with the timer run out, not running again."""
    import os
    import pty
    import signal
    import subprocess
    import time

    from support import ROOT

    log = tmp_path / "live.log"
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "play", *PLAYERS, "--start", "Ann", "--timer", "1",
                             "--typed", "--no-voice", "--log", str(log)], cwd=ROOT, stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    os.close(follower)
    try:
        deadline = time.monotonic() + 60
        while b'"begin"' not in (log.read_bytes() if log.exists() else b"") and time.monotonic() < deadline:
            time.sleep(0.05)
        os.write(leader, b"Cat: timer\n")
        while b'"pause"' not in log.read_bytes() and time.monotonic() < deadline:  # the clock's mark
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        os.close(leader)
    said = proc.stdout.read().decode()
    assert "host: Time! The timer interrupts Ann." in said
    records = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    mark = records[-1]
    assert [r.get("text") for r in records[:-1]] == [None, None, "timer"] and mark["pause"] is True
    assert mark["t"] >= records[-2]["t"] + 1  # the timer's second had passed
    result, said = resumed(tmp_path, log, stdin="Ann: whose turn\n")
    assert said[0] == "Resuming Prolix Classic after 2 logged inputs."
    assert said[2] == "Round 1: Ann's turn."  # no timer running (without the mark: "... 1 second left")


def test_many_damaged_lines_are_counted_past_the_fifth():
    from voice_host.host.announce.questions import HostSentences

    lines = [(3, None), (4, "Ann: jewelers"), (5, None), (6, "@draw M N"), (7, None), (9, None), (12, None)]
    assert HostSentences().log_damaged(lines, "g.log", 30, "g.log.damaged") == (
        "Lines 3, 4 (Ann: jewelers), 5, 6 (@draw M N), 7 and 2 more of g.log are damaged, so I skipped them and "
        "replayed the other 30 inputs; the original log is kept as g.log.damaged.")


def resumed_without_jewelers(tmp_path, then: str) -> list[str]:
    """What the host says resuming a game (Ann's jewelers on the jewelers board, a draw, then
    the lines ``then``) whose log lost the line of Ann's jewelers."""
    script = "@start Ann\n@board W B J S L C D G\nAnn: jewelers\n@draw M N\n" + then
    _, lines = played(tmp_path, script)
    # header, @start, @board, begin, jewelers (line 5), @draw, then
    assert json.loads(lines[4])["text"] == "jewelers"
    log = tmp_path / "game.log"
    log.write_bytes(b"".join(lines[:4]) + lines[4][:20] + b"\n" + b"".join(lines[5:]))
    return resumed(tmp_path, log)[1]


def test_a_damaged_word_that_changes_the_meaning_of_a_later_one_is_said(tmp_path):
    """Ann's jewelers is lost: Ben's word, said on his turn, now interrupts Ann's."""
    said = resumed_without_jewelers(tmp_path, "Ben: cowbells\n")
    assert said[1] == "After the skipped line, '@draw M N' was refused; Ben's 'cowbells' counts as an interrupt."


def test_a_damaged_question_changes_the_meaning_of_nothing_and_says_nothing_more(tmp_path):
    reference, lines = played(tmp_path)
    log = tmp_path / "game.log"
    log.write_bytes(b"".join(lines[:5]) + lines[5][:25] + b"\n" + b"".join(lines[6:]))
    _, said = resumed(tmp_path, log)
    assert said[1] == "Resuming Prolix Classic after 10 logged inputs."


def test_a_damaged_line_is_not_blamed_for_what_was_refused_anyway(tmp_path):
    """Cat's question this game cannot answer, Cat's mumble and Cat's word with an
    apostrophe were refused in the original game too: only what the lost line can have
    changed is said (was: "After the skipped line, Cat's 'how many rounds are left' was
    refused")."""
    said = resumed_without_jewelers(tmp_path, "Cat: dice\nCat: blah blah\nCat: don't\nBen: cowbells\n")
    assert said[1] == "After the skipped line, '@draw M N' was refused; Ben's 'cowbells' counts as an interrupt."
