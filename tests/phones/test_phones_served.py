"""Each player's phone as their microphone (--phones), served: the players' page over HTTPS
with the host's own certificate, the join address as a QR code, the scoreboard for this
machine only, the phones' socket; and a real browser (headless Chromium, its fake
microphone fed from a WAV of a synthesized word) joining as a player whose word the host
hears and puts on that player's sheet.

Without chromium the browser tests skip on a developer's machine and fail in CI.
No test times anything: each waits (generously) for a condition.
"""

from __future__ import annotations

import json
import ssl
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest
import support
from support import need, pcm

from voice_host.phones import Phones
from voice_host.phones.source import PhoneSource
from voice_host.speech.audio import SAMPLE_RATE, write_wav

pytestmark = pytest.mark.slow  # the phones' server over HTTPS

PATIENCE = 60.0
"""Seconds a condition may take on a loaded machine before a test gives up on it."""
PLAYERS = ("Ann", "Ben", "Cat")


def wait_for(condition, what: str, patience: float = PATIENCE):
    return support.wait_for(condition, what, patience)


# ---------------------------------------------------------------------- the server
@pytest.fixture
def served(tmp_path, monkeypatch):
    """The live page's server with the phones' routes, over HTTPS with a fresh certificate."""
    from voice_host.assembly import serve_phones

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    phones = Phones(PLAYERS, code="246813")
    display = serve_phones(phones, "127.0.0.1", 0)
    yield phones, display
    display.close()
    support.print_server_log(display)  # beside a failure: what the server saw


def insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def test_the_players_page_is_served_over_https_with_a_certificate_kept_for_next_time(served, tmp_path):
    from voice_host.phones import cert, how_to_join

    phones, display = served
    assert display.url.startswith("https://127.0.0.1:")
    with urllib.request.urlopen(display.url + "join", context=insecure(), timeout=30) as answer:
        page = answer.read().decode()
        assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
    assert '"players": ["Ann", "Ben", "Cat"]' in page and "246813" not in page  # the code is said, never shown to phones
    kept = tmp_path / "config" / "voice-host" / "phones" / cert.CERT
    assert kept.is_file() and cert.certificate("127.0.0.1", kept.parent)[0] == kept
    before = kept.read_bytes()
    cert.certificate("127.0.0.1", kept.parent)
    assert kept.read_bytes() == before  # made once
    text = how_to_join(phones, display)
    assert "246813" in text and display.url + "join" in text and "Proceed" in text


def decoded_qr(image) -> list[str]:
    """What the QR codes in ``image`` (a picture, or a grid of 0/1 modules) say."""
    import zxingcpp

    return [code.text for code in zxingcpp.read_barcodes(image)]


def test_the_terminal_shows_the_join_address_as_a_qr_code_a_phone_can_read():
    import re

    from voice_host.phones import terminal_qr

    url = "https://10.1.2.3:8765/join"
    halves = {"█": (0, 0), "▀": (0, 1), "▄": (1, 0), " ": (1, 1)}  # each character: two modules (1: dark)
    plain = [[halves[ch] for ch in line] for line in terminal_qr(url).splitlines()]
    # in colour: the upper module's colour in front (30 black, 97 white), the lower's behind (40, 107)
    coloured = [[(int(fg == "30"), int(bg == "40")) for fg, bg in re.findall(r"\x1b\[(\d+);(\d+)m▀", line)]
                for line in terminal_qr(url, colour=True).splitlines()]
    for rows in (plain, coloured):
        grid = np.array([half for row in rows for half in ([t for t, _ in row], [b for _, b in row])], np.uint8)
        assert grid[0].sum() == 0 and grid[4, 4:11].all()  # a light quiet zone, then a finder square's dark edge
        assert decoded_qr(np.kron((1 - grid) * 255, np.ones((6, 6), np.uint8))) == [url]


def test_with_phones_the_scoreboard_answers_this_machine_only_and_the_join_page_everyone(tmp_path, monkeypatch):
    from voice_host.web import reachable_address
    from voice_host.assembly import serve_phones

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    display = serve_phones(Phones(PLAYERS, code="246813"), None, 0)
    try:
        lan = reachable_address("0.0.0.0")
        assert display.url == f"https://{lan}:{display.port}/"
        local = f"https://127.0.0.1:{display.port}/"
        for path in ("", "state.json", "join", "join-qr.svg"):
            with urllib.request.urlopen(local + path, context=insecure(), timeout=30) as answer:
                assert answer.status == 200
        need(not lan.startswith("127."), "this machine has no network address to be another device from")
        for path in ("", "state.json", "events", "display.js"):  # from the network, as a phone would ask
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(display.url + path, context=insecure(), timeout=30)
            assert refused.value.code == 403
        with urllib.request.urlopen(display.url + "join", context=insecure(), timeout=30) as answer:
            assert answer.status == 200
    finally:
        display.close()


@pytest.mark.browser
def test_the_scoreboard_shows_where_to_join_until_every_player_has(served):
    from selenium.webdriver.common.by import By

    from voice_host import config
    from voice_host.host.session import Session, new_header
    from voice_host.words import Words

    phones, display = served
    session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(), lambda _: None,
                      watch=(display,))
    display.follow(session)
    browser = support.chromium("--window-size=1280,1400", insecure=True)
    try:
        browser.get(display.url)
        section = browser.find_element(By.ID, "join-section")
        wait_for(lambda: section.is_displayed() and browser.execute_script(
            "const q = document.getElementById('join-qr'); return q.complete && q.naturalWidth > 0"), "the QR code")
        assert browser.find_element(By.ID, "join-url").text == phones.url == display.url + "join"
        assert browser.find_element(By.ID, "join-waiting").text == "Waiting for Ann, Ben and Cat."
        pixels = browser.execute_script(  # the picture as the page drew it, grey levels row by row
            "const q = document.getElementById('join-qr'), c = document.createElement('canvas');"
            "c.width = q.width; c.height = q.height; const g = c.getContext('2d');"
            "g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height); g.drawImage(q, 0, 0, c.width, c.height);"
            "return [c.width, Array.from(g.getImageData(0, 0, c.width, c.height).data.filter((_, i) => i % 4 == 1))];")
        shot = np.array(pixels[1], np.uint8).reshape(-1, pixels[0])
        assert decoded_qr(shot) == [phones.url]
        phones.join("246813", "Ann", 48000)
        phones.join("246813", "Cat", 48000)
        session.say(session.announcer.phone("joined", "Cat", False))
        wait_for(lambda: browser.find_element(By.ID, "join-waiting").text == "Waiting for Ben.", "Ben alone waited for")
        phones.join("246813", "Ben", 48000)
        session.say(session.announcer.phone("joined", "Ben", False))
        wait_for(lambda: not section.is_displayed(), "the join box gone once all have joined")
    finally:
        browser.quit()


def test_the_phone_socket_needs_the_code_and_drops_what_is_not_audio(served):
    from websockets.sync.client import connect

    phones, display = served
    uri = display.url.replace("https", "wss") + "phone"
    with connect(uri, ssl=insecure(), open_timeout=30) as ws:
        ws.send(json.dumps({"code": "1111", "name": "Ann", "rate": 48000}))
        assert "not the join code" in json.loads(ws.recv(timeout=30))["refused"]
    with pytest.raises(Exception):  # another site's page: turned away
        with connect(uri, ssl=insecure(), open_timeout=30, origin="https://elsewhere.example") as ws:
            ws.send(json.dumps({"code": "246813", "name": "Ann", "rate": 48000}))
            ws.recv(timeout=30)
    assert phones.connected() == []
    with connect(uri, ssl=insecure(), open_timeout=30) as ws:
        ws.send(b"\x00\x01" * 100)  # audio before joining: refused, and closed
        assert "could not join" in json.loads(ws.recv(timeout=30))["refused"]
        with pytest.raises(Exception):
            ws.recv(timeout=30)
    with connect(uri, ssl=insecure(), open_timeout=30) as ws:
        ws.send(json.dumps({"code": "246813", "name": "Ann", "rate": 48000}))
        assert json.loads(ws.recv(timeout=30)) == {"joined": "Ann", "listening": False}
        with connect(uri, ssl=insecure(), open_timeout=30) as second:
            second.send(json.dumps({"code": "246813", "name": "Ann", "rate": 48000}))
            assert json.loads(second.recv(timeout=30))["refused"] == "Ann is already connected from another device."
        ws.send("not audio")
        ws.send(b"\x01\x02\x03")
        ws.send(pcm(0.5, 48000))
        wait_for(lambda: phones.take(16000)[0][:, 0].any(), "Ann's audio to arrive")
        assert phones.dropped == 2
        ws.send(json.dumps({"talk": "up"}))  # not a talk message: malformed
        ws.send(json.dumps({"talk": False}))  # push-to-talk let go, after all she sent was heard
        wait_for(lambda: phones.take(160)[1] == (0,), "Ann's talk button let go")
        assert phones.dropped == 3
    wait_for(lambda: phones.connected() == [], "Ann's phone to be gone")
    assert phones.events() == [("joined", "Ann"), ("lost", "Ann")]


def test_a_phone_that_joins_before_the_host_listens_is_told_to_wait_then_told_when_it_listens(served):
    from websockets.sync.client import connect

    phones, display = served
    with connect(display.url.replace("https", "wss") + "phone", ssl=insecure(), open_timeout=30) as ws:
        ws.send(json.dumps({"code": "246813", "name": "Ben", "rate": 16000}))
        assert json.loads(ws.recv(timeout=30)) == {"joined": "Ben", "listening": False}
        source = PhoneSource(phones)
        next(iter(source))  # the host's listener begins to read the phones
        assert json.loads(ws.recv(timeout=30)) == {"listening": True}
        source.close()
        assert json.loads(ws.recv(timeout=30)) == {"listening": False}


# ---------------------------------------------------------------------- a real browser
def phone_wav(folder, say, word: str, voice: str, before: float):
    """A WAV a browser's fake microphone plays: ``before`` seconds of quiet, ``word`` in
    ``voice``, quiet; at 48 kHz, as a phone's microphone runs."""
    from voice_host.speech.audio import resample

    audio = np.concatenate([np.zeros(int(before * SAMPLE_RATE)), say(word, voice), np.zeros(2 * SAMPLE_RATE)])
    path = folder / f"{word}.wav"
    write_wav(path, resample(audio.astype(np.float32), SAMPLE_RATE, 48000), rate=48000)
    return path


def phone_browser(wav, loop: bool = True):
    """A phone's browser whose microphone plays ``wav`` (looping, or once), the host's certificate taken."""
    driver = support.chromium("--ignore-certificate-errors", "--autoplay-policy=no-user-gesture-required",
                              "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                              f"--use-file-for-fake-audio-capture={wav}{'' if loop else '%noloop'}", insecure=True)
    driver.set_page_load_timeout(PATIENCE)
    return driver


def join_as(browser, url: str, code: str, name: str) -> None:
    """On a phone's browser: open the players' page, type the code, pick ``name``, join."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(url)
    browser.find_element(By.ID, "code").send_keys(code)
    Select(browser.find_element(By.ID, "name")).select_by_visible_text(name)
    browser.find_element(By.ID, "join").click()
    wait_for(lambda: browser.execute_script("return document.documentElement.dataset.joined") == name,
             f"the page to join as {name}")


class TableMicrophone:
    """The laptop's microphone, live: 50 ms chunks in real time, silent but for what the
    test has it hear (``hear``)."""

    realtime = True
    channels = 1

    def __init__(self) -> None:
        from collections import deque

        self.queue: deque = deque()
        self.closed = threading.Event()
        self.t0 = None

    def hear(self, audio: np.ndarray) -> None:
        self.queue.append(np.asarray(audio, np.float32))

    def start(self) -> None:
        import time

        self.t0 = self.t0 or time.monotonic()

    def clock(self) -> float:
        import time

        return 0.0 if self.t0 is None else time.monotonic() - self.t0

    def __iter__(self):
        import time

        from voice_host.messages import AudioChunk

        self.start()
        step, k, playing = SAMPLE_RATE // 20, 0, np.zeros(0, np.float32)
        while not self.closed.is_set():
            time.sleep(max(0.0, self.t0 + (k + 1) * 0.05 - time.monotonic()))
            if not playing.size and self.queue:
                playing = self.queue.popleft()
            block = np.zeros(step, np.float32)
            block[:min(step, playing.size)] = playing[:step]
            playing = playing[step:]
            yield AudioChunk(k * 0.05, block[:, None])
            k += 1

    def close(self) -> None:
        self.closed.set()


class LiveGame:
    """A Prolix game Ann starts, played live (the live host in a thread, the default
    recognizer) on the served phones (and ``table``, the laptop's microphone, if given),
    its sentences in ``said`` and on the page."""

    def __init__(self, served, table=None) -> None:
        from voice_host import config
        from voice_host.assembly import build
        from voice_host.host.session import Session, new_header
        from voice_host.speech.recognizing.engines import make_recognizer
        from voice_host.words import Words

        self.phones, display = served
        self.phones.table_has_microphone(table is not None)
        self.said: list[str] = []
        self.session = Session(new_header("prolix-classic", list(PLAYERS), 5, config.load()), Words.load(),
                               self.said.append, watch=(display,))
        self.session.feed({"t": 0.0, "directive": "start", "args": ["Ann"]})
        display.follow(self.session)
        self.source = PhoneSource(self.phones, table)
        host = build(self.session, make_recognizer("auto"), self.source, channel_players=self.source.channel_players,
                     notices=lambda: self.phones.notices(self.session.announcer))
        self.thread = threading.Thread(target=host.play_live, daemon=True)
        self.thread.start()

    def scored(self, player: str) -> None:
        wait_for(lambda: any(line.startswith(f"{player} scores") for line in self.said), f"{player}'s word scored")

    def sheets(self) -> dict[str, list[str]]:
        """Each player's words, once the game has stopped listening."""
        self.source.close()
        self.thread.join(PATIENCE)
        assert not self.thread.is_alive()
        return {p["name"]: [w["word"] for w in p["words"]] for p in self.session.result()["players"]}


@pytest.mark.browser
def test_a_phone_in_a_real_browser_joins_and_its_word_goes_on_its_players_sheet(served, say, tmp_path,
                                                                                 moonshine_ready):
    from selenium.webdriver.common.by import By

    phones, display = served
    game = LiveGame(served)
    browser = phone_browser(phone_wav(tmp_path, say, "pocket", "fest_slt", before=1.0))  # looping
    try:
        join_as(browser, display.url + "join", "246813", "Ann")
        assert phones.connected() == ["Ann"]
        game.scored("Ann")
        wait_for(lambda: browser.find_element(By.ID, "score").text.endswith("points"), "Ann's score on her phone")
        wait_for(lambda: "Ben's turn" in browser.find_element(By.ID, "turn").text, "whose turn on her phone")
    finally:
        browser.quit()
    wait_for(lambda: "Ann, I lost your phone; open the page again to rejoin." in game.said, "the lost phone said")
    sheets = game.sheets()
    # "Did you say pocket or packet?": how sure the recognizer is of the vowel differs from
    # one CPU to another (int8 kernels); either way the phone's word is Ann's, nobody else's
    assert sheets["Ann"][:1] in (["pocket"], ["packet"]) and sheets["Ben"] == sheets["Cat"] == [], game.said


@pytest.mark.browser
def test_two_phones_and_the_laptops_microphone_play_a_game_each_word_on_its_players_sheet(served, say, tmp_path,
                                                                                          moonshine_ready):
    """Ann and Ben on their phones (two browsers, each with its own fake microphone), Cat at
    the laptop's microphone, her name first; in turn, as a table plays."""
    _, display = served
    table = TableMicrophone()
    game = LiveGame(served, table)
    browsers = []
    try:
        for name, word, voice in (("Ann", "vehicle", "fest_slt"), ("Ben", "platform", "rms")):
            browsers.append(phone_browser(phone_wav(tmp_path, say, word, voice, before=3.0), loop=False))
            join_as(browsers[-1], display.url + "join", "246813", name)
            game.scored(name)
        table.hear(say("Cat, hospital", "awb"))
        game.scored("Cat")
    finally:
        for browser in browsers:
            browser.quit()
    wait_for(lambda: "Ben, I lost your phone; I'll listen on the table's microphone." in game.said, "Ben's phone lost")
    assert game.sheets() == {"Ann": ["vehicle"], "Ben": ["platform"], "Cat": ["hospital"]}, game.said
    assert "Ann, I'm listening on your phone." in game.said
    assert not any(line.startswith("Was that") for line in game.said)


def table_wavs(folder, say, turns, talk_from: float, seconds: float) -> dict[str, object]:
    """Each phone's microphone at a real table, as WAVs at 48 kHz: its own player's words at
    their times, every other player's 12 dB lower and 20 ms later (a metre away), and from
    ``talk_from`` other people talking in the room (real recordings: LibriVox), 20 dB under
    the phone's own player."""
    from support import room_talk

    from voice_host.speech.audio import resample, speech_level

    n = int(seconds * SAMPLE_RATE)
    track = {p: np.zeros(n, np.float32) for p in PLAYERS}
    own = {}
    for at, player, word, voice in turns:
        audio = say(word, voice)
        own.setdefault(player, 10 ** (speech_level(audio) / 20))
        for phone in PLAYERS:
            gain, late = (1.0, 0.0) if phone == player else (10 ** (-12 / 20), 0.02)
            i = int((at + late) * SAMPLE_RATE)
            track[phone][i:i + audio.size] += gain * audio
    talk = room_talk(seconds - talk_from, seed=1)
    paths = {}
    for phone in PLAYERS:
        track[phone][int(talk_from * SAMPLE_RATE):] += talk[:n - int(talk_from * SAMPLE_RATE)] * own[phone] * 0.1
        paths[phone] = folder / f"{phone}.wav"
        write_wav(paths[phone], resample(track[phone], SAMPLE_RATE, 48000), rate=48000)
    return paths


@pytest.mark.browser
def test_three_phones_that_hear_each_other_and_the_room_put_each_word_once_on_its_players_sheet(served, say, tmp_path,
                                                                                             moonshine_ready):
    """Three players each on their phone (three browsers, fake microphones fed from WAVs):
    every phone hears the other players' words too, 12 dB lower, and once each player has
    said a word, other people talk in the room, 20 dB under each phone's player. Each word
    is scored once, to its player: no tie, no word on another sheet, nothing of the talk."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _, display = served
    turns = [(4.0, "Ann", "vehicle", "fest_slt"), (8.0, "Ben", "platform", "rms"), (12.0, "Cat", "hospital", "awb"),
             (17.0, "Ann", "garden", "fest_slt"), (21.0, "Ben", "yellow", "rms"), (25.0, "Cat", "silver", "awb")]
    wavs = table_wavs(tmp_path, say, turns, talk_from=14.0, seconds=30.0)
    game = LiveGame(served)
    browsers = {}
    try:
        for name in PLAYERS:  # every page ready, then all join at once: their microphones start together
            browsers[name] = phone_browser(wavs[name], loop=False)
            browsers[name].get(display.url + "join")
            browsers[name].find_element(By.ID, "code").send_keys("246813")
            Select(browsers[name].find_element(By.ID, "name")).select_by_visible_text(name)
        clicks = [threading.Thread(target=browsers[name].execute_script,
                                   args=("document.getElementById('join').click()",)) for name in PLAYERS]
        for click in clicks:
            click.start()
        for click in clicks:
            click.join()
        for name in PLAYERS:
            wait_for(lambda: browsers[name].execute_script("return document.documentElement.dataset.joined") == name,
                     f"the page to join as {name}")
        wait_for(lambda: sum(line.startswith("Cat scores") for line in game.said) == 2, "Cat's second word scored",
                 patience=2 * PATIENCE)
    finally:
        for browser in browsers.values():
            browser.quit()
    want = {"Ann": ["vehicle", "garden"], "Ben": ["platform", "yellow"], "Cat": ["hospital", "silver"]}
    if any(line in game.said for line in ("Did you say yellow or yellows?", "Did you say yellows or yellow?")):
        # a doubt between the word's forms, asked and left unanswered (nobody here answers: the hearing's
        # own tests do), is settled by the host's best guess, which the phones' timing may tip either way
        taken = next(line for line in game.said if line.startswith("I'll take yellow"))
        want["Ben"][1] = taken.removeprefix("I'll take ").rstrip(".")
    assert game.sheets() == want, "\n".join(game.said)
    assert not any(line.startswith(("Tiebreaker", "Was that", "Who said", "I didn't catch")) for line in game.said)
