"""The phones' limits and the table's requests, with no network: six-digit codes,
guessing held to the server's own rate from any number of addresses, a locked-out phone
told when to try again, a phone joining and leaving in a loop said once; the
certificate's folder private; "new code" and "free Ann's phone" said at the table or
typed at the host's terminal; the listener ended when Ctrl-C stops a game on phones.

No test times anything on the machine's clock: the limits run on a clock the test
drives.
"""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
import support

from voice_host.host.announcer import Announcer
from voice_host import phones as hub
from voice_host.phones import Phones, Refused

pytestmark = pytest.mark.slow  # with the phones' server's tests

PLAYERS = ("Ann", "Ben", "Cat")
PATIENCE = 60.0


# ---------------------------------------------------------------------- guessing cannot win
def test_codes_are_six_digits():
    codes = {Phones(PLAYERS).code for _ in range(50)}
    assert all(len(code) == 6 and code.isdigit() for code in codes) and len(codes) > 40


def test_guessing_from_hundreds_of_addresses_is_held_to_the_servers_own_rate_and_said_once():
    now = [0.0]
    phones = Phones(PLAYERS, code="314159", clock=lambda: now[0])
    addresses = [f"10.0.{i // 250}.{i % 250 + 1}" for i in range(250)]
    guesses = (f"{n:06d}" for n in range(10 ** 6) if n != 314159)
    checked, per_minute = 0, []
    for second in range(15 * 60):  # fifteen minutes, every address trying once a second
        now[0] = float(second)
        for address in addresses:
            try:
                phones.join(next(guesses), "Ann", 48000, address)
            except Refused as why:
                checked += "not the join code" in str(why)
        if second % 60 == 59:
            per_minute.append(checked - sum(per_minute))
        if second == 600:  # in the middle of it, a player with the code, from a phone of their own
            assert phones.join("314159", "Ben", 48000, "10.9.9.9")
    assert per_minute[0] <= hub.FREE_TRIES * len(addresses) + hub.WRONG_BURST + hub.WRONG_PER_MINUTE  # first tries
    assert max(per_minute[1:]) <= hub.WRONG_PER_MINUTE + 1
    days = 10 ** 6 / 2 / (sum(per_minute[1:]) / len(per_minute[1:])) / 60 / 24
    assert days >= 30, f"{days:.1f} days"
    lines = phones.notices(Announcer())
    assert lines.count(Announcer().phone_guessing()) == 1 and "Ben, I'm listening on your phone." in lines
    assert Announcer().phone_guessing() not in phones.notices(Announcer())
    with pytest.raises(Refused) as held:  # an address already wrong waits, and is told how long
        phones.join("314159", "Cat", 48000, addresses[0])
    assert held.value.retry and "try again in" in str(held.value)
    phones.renew()  # "new code": everyone is forgiven the old one
    assert phones.code != "314159" and phones.join(phones.code, "Cat", 48000, addresses[0])


def test_a_player_from_a_new_address_is_checked_however_many_addresses_guessed_before():
    now = [0.0]
    phones = Phones(PLAYERS, code="314159", clock=lambda: now[0])
    for n in range(6000):  # more addresses than are remembered one by one, one wrong code each
        now[0] = n * 0.01
        with pytest.raises(Refused):
            phones.join("000000", "Ann", 48000, f"10.{n // 62500}.{n // 250 % 250}.{n % 250 + 1}")
    for n in range(5):  # players with the code, each from an address of their own
        now[0] += 1
        assert phones.join("314159", PLAYERS[n % 3], 48000, f"10.99.0.{n + 1}")
        phones.leave(phones.by_player[PLAYERS[n % 3]])


def test_one_typo_does_not_lock_a_player_out_while_others_guess():
    now = [0.0]
    phones = Phones(PLAYERS, code="314159", clock=lambda: now[0])
    guessers = [f"10.0.0.{i + 1}" for i in range(50)]
    for second in range(60):
        now[0] = float(second)
        for address in guessers:  # the server's allowance spent, all the time
            try:
                phones.join(f"{second:06d}", "Ann", 48000, address)
            except Refused:
                pass
        if second in (30, 50):  # a player mistypes once, then types the code
            with pytest.raises(Refused, match="not the join code"):
                phones.join("314158", "Ben", 48000, f"10.1.0.{second}")
            assert phones.join("314159", "Ben", 48000, f"10.1.0.{second}")
            phones.leave(phones.by_player["Ben"])
    ann = phones.join("314159", "Ann", 48000, "10.2.0.1")  # a player who joined, dropped and mistyped again
    phones.leave(ann)
    for _ in range(hub.FREE_TRIES + 1):
        with pytest.raises(Refused, match="not the join code"):
            phones.join("000000", "Ann", 48000, "10.2.0.1")
    assert phones.join("314159", "Ann", 48000, "10.2.0.1")


def test_a_locked_out_phone_is_told_when_to_try_again():
    now = [100.0]
    phones = Phones(PLAYERS, code="271828", clock=lambda: now[0])
    for _ in range(hub.MAX_FAILURES):
        with pytest.raises(Refused, match="not the join code"):
            phones.join("000000", "Ann", 48000, "10.0.0.66")
    with pytest.raises(Refused) as held:
        phones.join("271828", "Ann", 48000, "10.0.0.66")
    assert str(held.value) == "Too many wrong codes from this phone; try again in a minute." and held.value.retry == 60
    now[0] += 61
    assert phones.join("271828", "Ann", 48000, "10.0.0.66")


def test_join_and_leave_in_a_loop_is_said_once_then_its_last_state():
    now = [0.0]
    phones = Phones(PLAYERS, code="123456", clock=lambda: now[0])
    said = []
    for step in range(250):  # a phone joining and leaving every 40 ms for 10 s
        now[0] = step * 0.04
        conn = phones.join("123456", "Ann", 48000, "10.0.0.5")
        said += phones.notices(Announcer())
        phones.leave(conn)
        said += phones.notices(Announcer())
    assert said == ["Ann, I'm listening on your phone."]
    now[0] += hub.CHURN
    assert phones.notices(Announcer()) == ["Ann, I lost your phone; open the page again to rejoin."]
    assert phones.notices(Announcer()) == []


# ---------------------------------------------------------------------- trust
def test_the_certificates_folder_is_private_whatever_the_umask(tmp_path):
    from voice_host.phones import cert

    old = os.umask(0)
    try:
        where = cert.certificate("127.0.0.1", tmp_path / "config" / "voice-host" / "phones")[0].parent
    finally:
        os.umask(old)
    assert where.stat().st_mode & 0o777 == 0o700
    assert where.parent.stat().st_mode & 0o777 == 0o700, "the settings folder it made above it too"
    assert (where / cert.KEY).stat().st_mode & 0o777 == 0o600


# ---------------------------------------------------------------------- the table's requests
def test_the_table_says_new_code_or_free_anns_phone_and_the_game_never_hears_it():
    from types import SimpleNamespace

    from voice_host.assembly import table_requests

    phones = Phones(PLAYERS, code="123456")
    ann = phones.join("123456", "Ann", 48000, "10.0.0.1")
    phones.notices(Announcer())
    said, game = [], []
    session = SimpleNamespace(players=list(PLAYERS), announcer=Announcer(), say=said.append)
    hear = table_requests(game.append, session, phones)
    for text in ("Free Ann's phone.", "free cat phone", "new code", "jewelers", "free zed's phone"):
        hear(SimpleNamespace(body=text, text=text))
    assert [u.body for u in game] == ["jewelers", "free zed's phone"]
    assert said[0].startswith("Ann's phone is disconnected; Ann can join again from any phone with the code. "
                              "The new join code is")  # a freed seat gets a fresh code
    assert said[1] == "Cat has no phone connected; Cat can join from any phone with the code."
    assert phones.code != "123456" and said[2] == Announcer().phones_new_code(phones.code)
    assert not phones.is_connected(ann) and phones.notices(Announcer()) == []  # the freeing said once, not as a loss
    with pytest.raises(Refused, match="not the join code"):
        phones.join("123456", "Ann", 48000, "10.0.0.2")
    assert phones.join(phones.code, "Ann", 48000, "10.0.0.2")


def test_only_the_table_frees_a_seat_or_changes_the_code_a_phone_frees_only_its_own():
    """A stranger who joined a free seat says "free Ben's phone" and "new code" into it:
    nothing happens (and the game never hears it); said at the laptop's microphone it is
    done, and the freed seat gets a fresh code at once, so the old one cannot retake it.
    A player's own phone may free its own seat ("free my phone")."""
    from types import SimpleNamespace

    from voice_host.assembly import table_requests

    phones = Phones(PLAYERS, code="123456")
    ben = phones.join("123456", "Ben", 48000, "10.0.0.2")
    cat = phones.join("123456", "Cat", 48000, "10.0.0.66")  # a stranger, in Cat's free seat
    said, game = [], []
    session = SimpleNamespace(players=list(PLAYERS), announcer=Announcer(), say=said.append)
    channels = [*PLAYERS, None]  # a phone a player, then the laptop's microphone
    hear = table_requests(game.append, session, phones, channels)
    for text in ("Free Ben's phone.", "new code"):
        hear(SimpleNamespace(body=text, text=text, channel=2))  # into Cat's phone
    assert game == [] and phones.is_connected(ben) and phones.code == "123456"
    hear(SimpleNamespace(body="free my phone", text="free my phone", channel=2))
    assert not phones.is_connected(cat)  # "free my phone": its own seat only
    assert phones.code != "123456", "a freed seat gets a fresh code"
    code = phones.code
    assert all("Only the table" in line for line in said[:2]) and said[2].startswith("Cat's phone is disconnected")
    assert Announcer().phones_new_code(code) in said[2]
    hear(SimpleNamespace(body="free Ben's phone", text="free Ben's phone", channel=3))  # the laptop's microphone
    assert not phones.is_connected(ben) and phones.code != code
    for old in ("123456", code):
        with pytest.raises(Refused, match="not the join code"):
            phones.join(old, "Ben", 48000, "10.0.0.66")
    assert phones.join(phones.code, "Ben", 48000, "10.0.0.2")


# ---------------------------------------------------------------------- stopping
def test_stopped_by_ctrl_c_the_listener_has_ended_when_the_game_returns(moonshine_ready):
    """A process that exits while the recognizer's native threads still run can abort
    ("terminate called without an active exception"): the listener ends first."""
    from voice_host import config
    from voice_host.assembly import build
    from voice_host.host.session import Session, new_header
    from voice_host.phones.source import PhoneSource
    from voice_host.speech.recognizing.engines import make_recognizer
    from voice_host.words import Words

    phones = Phones(PLAYERS, code="123456")
    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), lambda line: None)
    session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
    source = PhoneSource(phones)
    ann = phones.join("123456", "Ann", 16000, "10.0.0.1")
    for _ in range(30):  # a phone streaming: three seconds of a tone
        phones.audio(ann, (np.sin(np.arange(1600) / 3) * 8000).astype("<i2").tobytes())
    calls = [0]

    def notices():
        calls[0] += 1
        if calls[0] == 15:  # Ctrl-C, mid-stream
            raise KeyboardInterrupt
        return []

    before = set(threading.enumerate())
    with pytest.raises(KeyboardInterrupt):
        build(session, make_recognizer("auto"), source, channel_players=source.channel_players,
              notices=notices).play_live()
    assert [t.name for t in set(threading.enumerate()) - before if t.is_alive()] == []


def test_typed_at_the_hosts_terminal_new_code_and_free_bens_phone_are_answered():
    import io
    from types import SimpleNamespace

    from voice_host.assembly import typed_requests

    phones = Phones(PLAYERS, code="123456")
    phones.join("123456", "Ben", 48000, "10.0.0.1")
    session = SimpleNamespace(players=list(PLAYERS), announcer=Announcer())
    answers = typed_requests(session, phones, io.StringIO("Ann: free Ben's phone\n\nnew code\njewelers\n"))
    said: list[str] = []
    support.wait_for(lambda: said.extend(answers()) or len(said) >= 3, "the typed lines answered", PATIENCE)
    assert said[0].startswith("Ben's phone is disconnected") and phones.connected() == []
    assert said[1] == Announcer().phones_new_code(phones.code) and phones.code != "123456"
    assert said[2] == Announcer().phones_typed()
