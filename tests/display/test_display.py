"""The live page (--display) in a real browser: Debian's headless Chromium, driven by
selenium through Debian's chromedriver, opens the page during a scripted game of each
kind and, after each input, checks what it shows (scores, whose turn, the board, the
table's facts, the last sentence) against the session's own state. The page is opened
once a game and never reloaded: every later state comes by server-sent events.

Without chromium the browser tests skip on a developer's machine and fail in CI.
No test times anything: each waits (generously) for a condition.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
import support
from support import ROOT, Table, need

from voice_host.display import Display
from voice_host.display.view import view

pytestmark = pytest.mark.slow  # the live page's server and the command line

PATIENCE = 90.0
"""Seconds a condition may take on a loaded machine before a test gives up on it."""

READ_PAGE = """
const q = (s) => document.querySelector(s);
const text = (s) => (q(s) ? q(s).textContent : null);
const players = {};
for (const p of document.querySelectorAll('.player')) {
  players[p.dataset.name] = {
    total: p.querySelector('.total .number').textContent,
    shown_name: p.querySelector('.name span').textContent.replace(/\u00ad/g, ''),  // soft hyphens: where it may break
    turn: p.classList.contains('has-turn'),
    winner: !!p.querySelector('.winner-badge'),
    words: [...p.querySelectorAll('.word .text')].map((w) => w.textContent.replace(/\u00ad/g, '')),
    facts: Object.fromEntries([...p.querySelectorAll('.fact')].map(
      (f) => [f.querySelector('dt').textContent, f.querySelector('dd').textContent])),
  };
}
return {
  version: document.documentElement.dataset.version,
  turn: q('#turn').dataset.turn,
  turn_text: text('#turn'),
  said: text('#said'),
  announced: text('#announce'),
  status: text('#status'),
  timer: q('#timer').hidden ? null : text('#timer'),
  board: q('#board-section').hidden ? null : [...document.querySelectorAll('.column')].map(
    (c) => [...c.querySelectorAll('.tile:not(.empty) .letter')].map((t) => t.textContent)),
  rare: [...document.querySelectorAll('.tile.rare .bonus')].map((t) => t.textContent),
  facts: Object.fromEntries([...document.querySelectorAll('#facts .fact')].map(
    (f) => [f.querySelector('dt').textContent, f.querySelector('dd').textContent])),
  players: players,
};
"""


def wait_for(condition, what: str, patience: float = PATIENCE):
    return support.wait_for(condition, what, patience)


@pytest.fixture(scope="module")
def browser():
    driver = support.chromium("--window-size=1280,1000")
    driver.set_page_load_timeout(PATIENCE)
    yield driver
    driver.quit()


class Watched:
    """A scripted game (support.Table) with its page open in the browser: ``w("Ann:
    jewelers")`` plays the lines, then waits until the page has drawn the state they left
    and returns what it shows."""

    def __init__(self, browser, display: Display, table: Table) -> None:
        self.browser, self.display, self.table = browser, display, table
        self.display.follow(table.session)
        browser.get(self.display.url)
        self.page = self.shown()

    @property
    def game(self):
        return self.table.session.game

    def __call__(self, script: str) -> dict:
        self.table(script)
        return self.shown()

    def shown(self) -> dict:
        """What the page shows once it has drawn the latest state (the sentences said so far)."""
        version = str(self.display.count)
        self.page = wait_for(lambda: (page := self.browser.execute_script(READ_PAGE))["version"] == version and page,
                             f"the page to show state {version}")
        return self.page

    def close(self) -> None:
        self.display.close()


@pytest.fixture
def watch(browser, words):
    opened = []

    def open_(*args, **kw) -> Watched:
        display = Display.open("127.0.0.1", 0)
        opened.append(Watched(browser, display, Table(words, *args, watch=(display,), **kw)))
        return opened[-1]

    yield open_
    for w in opened:
        w.close()


def totals(game) -> dict[str, str]:
    """Each player's total as the game itself reckons it (its result), as the page writes it."""
    return {p["name"]: str(p["total"]) for p in game.result()["players"]}


def shown_totals(page: dict) -> dict[str, str]:
    return {name: p["total"] for name, p in page["players"].items()}


def board_letters(game) -> list[list[str]]:
    return [[t.letter for t in tiles] for _, tiles in game.board_view().columns]


# ---------------------------------------------------------------------- each game kind
def test_the_page_shows_each_players_score_the_board_and_whose_turn_after_each_prolix_input(watch):
    w = watch()  # Prolix Classic, table mode on the jewelers board, Ann to start
    page = w.page
    assert page["turn"] == "Ann" and page["players"]["Ann"]["turn"]
    assert page["board"] == board_letters(w.game) == [["W", "B"], ["J", "S"], ["L", "C"], ["D", "G"]]
    assert page["rare"] == ["◆ +1", "◆ +2"]  # W and J: a symbol and the bonus, not colour alone
    assert page["players"]["Ann"]["facts"]["Interrupts left"] == "6"

    page = w("Ann: jewelers")
    assert shown_totals(page) == totals(w.game) == {"Ann": "15", "Ben": "0", "Cat": "0"}
    assert page["players"]["Ann"]["words"] == ["jewelers"]
    assert page["said"] == w.table.heard[-1]  # the last thing the host said
    assert page["facts"]["Drawing tiles"] == "Ann"

    page = w("@draw M N")
    assert page["board"] == board_letters(w.game)
    assert page["turn"] == w.game.state.active == "Ben" and page["turn_text"] == "▶ Ben's turn"
    assert page["facts"]["Tiles in the bag"] == str(len(w.game.state.bag.tiles))

    page = w("Cat: flip")  # the sand timer runs in front of Cat: the page counts it down
    assert page["timer"] is not None and page["timer"].startswith("Sand timer: ") and "Cat" in page["timer"]

    page = w("Ben: jigsaw")  # Ben's word: the sand runs on in the middle of the table, nobody's
    assert shown_totals(page) == totals(w.game) == {"Ann": "15", "Ben": "10", "Cat": "0"}
    assert w.game.state.timer.holder is None and "·" not in page["timer"]

    page = w("@draw R T\nAnn: cowbell")  # Cat's turn: Ann interrupts, and has one interrupt fewer
    assert shown_totals(page) == totals(w.game)
    assert page["players"]["Ann"]["words"] == ["cowbell", "jewelers"]  # the latest first
    left = w.game.settings.interrupt_slots - len(w.game.state.sheets["Ann"].interrupts)
    assert page["players"]["Ann"]["facts"]["Interrupts left"] == str(left) == "5"


def test_the_page_shows_phlounder_dice_reports_and_scores(watch):
    w = watch("Ann,Ben,Cat", game="phlounder", start=None, board=None)
    page = w("@dice 5N")
    assert page["facts"]["Dice"] == "a 5-letter noun (5 and N)"
    page = w("Ben: bell\nBen: table")
    assert page["facts"]["Rang the bell"] == "Ben"
    assert page["facts"]["Reports awaited from"] == "Cat and Ann"
    assert page["players"]["Ben"]["facts"]["Report"] == "table"
    assert "Reports after the bell" in page["status"]
    page = w("Cat: no word\nAnn: table, unused 1")
    assert shown_totals(page) == totals(w.game) == {"Ann": "4", "Ben": "7", "Cat": "0"}
    assert page["players"]["Ben"]["words"] == ["table"]
    assert page["status"].startswith("Round 2 of")


def test_the_page_shows_dexikon_banks_open_challenges_and_turns(watch):
    w = watch("Ann,Ben", game="dexikon", start="Ann", board=None)
    assert w.page["turn"] == w.game.state.active
    page = w("Ann: bank catch for 5")
    assert page["players"]["Ann"]["words"] == ["catch"]
    assert page["players"]["Ann"]["facts"]["Banked"] == "1"
    assert shown_totals(page) == totals(w.game)
    assert page["turn"] == w.game.state.active
    page = w("Ben: bank fire for 4\nBen: penalty 2")
    assert page["players"]["Ben"]["facts"]["Penalty cards"] == "2"
    assert shown_totals(page) == totals(w.game)
    assert "Variant" in page["facts"]


def test_the_page_shows_the_road_games_bag_racks_and_scores(watch):
    w = watch("Ann,Ben", game="road", start="Ann", board=None, sections={"road": {"set_size": 100}})
    assert w.page["facts"]["Tiles in the bag"] == str(w.game.state.bag) == "80"
    assert w.page["facts"]["Tiles in each rack"] == "10"
    page = w("Ann: play jump for 15 with 4 tiles")
    assert page["facts"]["Tiles in the bag"] == str(w.game.state.bag) == "76"
    assert shown_totals(page) == totals(w.game) == {"Ann": "15", "Ben": "0"}
    assert page["turn"] == w.game.state.active == "Ben"


def test_the_page_shows_the_final_scores_and_the_winner(watch):
    w = watch("Ann,Ben", game="road", start="Ann", board=None)
    page = w("Ann: play jump for 15\nBen: pass\nAnn: pass")
    assert w.game.finished
    assert page["status"] == "Final scores" and page["turn"] == ""
    assert page["turn_text"] == "Game over: Ann won"
    assert page["players"]["Ann"]["winner"] and not page["players"]["Ben"]["winner"]
    assert shown_totals(page) == totals(w.game) == {"Ann": "15", "Ben": "0"}


def test_other_prolix_modes_show_their_board_and_scores(watch):
    for mode, players in (("prolix-redux", "Ann,Ben,Cat"), ("prolix-duel", "Ann,Ben"), ("prolix-solo", "Ann")):
        w = watch(players, game=mode, start=None)
        page = w("Ann: jewelers")
        assert page["board"] == board_letters(w.game), mode
        assert shown_totals(page) == totals(w.game), mode


# ---------------------------------------------------------------------- low vision
def test_each_announcement_goes_to_a_live_region_and_both_themes_can_be_chosen(watch, browser):
    w = watch()
    w("Ann: jewelers")
    live = browser.find_element("id", "announce")
    assert live.get_attribute("aria-live") == "polite"
    assert browser.find_element("id", "said").text == w.table.heard[-1]
    page = w("@draw M N")  # what is said after the page opened is read out
    assert page["announced"].endswith(w.table.heard[-1])
    root = browser.find_element("tag name", "html")
    assert root.get_attribute("data-theme") == "dark"
    button = browser.find_element("id", "theme")
    assert button.text == "Light theme"
    button.click()
    wait_for(lambda: root.get_attribute("data-theme") == "light", "the light theme")
    assert button.text == "Dark theme" and button.get_attribute("aria-pressed") == "true"
    button.click()  # back, for the next test's screenshots
    wait_for(lambda: root.get_attribute("data-theme") == "dark", "the dark theme")


# ---------------------------------------------------------------------- safe and read-only
def test_a_player_called_script_is_shown_as_written_and_runs_nothing(watch, browser):
    name = "<script>window.pwned=1</script>"
    w = watch(f"Ann,Ben,{name}")
    page = w(f"Ann: jewelers\n@draw M N\nBen: jigsaw\n@draw R T\n{name}: cowbell")
    assert page["players"][name]["shown_name"] == name
    assert shown_totals(page) == totals(w.game)
    assert browser.execute_script("return window.pwned === undefined && document.scripts.length") == 2


def get(url: str, method: str = "GET") -> tuple[int, str, dict]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), dict(refused.headers)


def test_other_paths_are_not_found_and_nothing_can_be_sent(words):
    t = Table(words)
    display = Display.open("127.0.0.1", 0)
    try:
        display.follow(t.session)
        base = display.url.rstrip("/")
        for path in ("/nope", "/static/display.js", "/../pyproject.toml", "/%2e%2e/pyproject.toml", "/state.json/x",
                     "/display.js/..%2f..%2fapp.py"):
            assert get(base + path)[0] == 404, path
        for method in ("POST", "PUT", "DELETE"):
            assert get(base + "/", method)[0] == 405
        status, body, headers = get(base + "/")
        assert status == 200 and "script-src 'self'" in headers["content-security-policy"]
        assert json.loads(get(base + "/state.json")[1])["view"] == view(t.game)
    finally:
        display.close()


def test_the_page_fetches_nothing_from_anywhere_else(words):
    from voice_host.display import board

    page = board.asset("index.html") + board.asset("display.css") + board.asset("display.js")
    assert "http:" not in page and "https:" not in page and "//" not in page.replace("// ", "").replace('"//', "")
    assert "@import" not in page and "url(" not in page


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        c = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_both_themes_have_text_contrast_above_wcag_aaa():
    import re

    from voice_host.display import board

    css = board.asset("display.css")
    themes = re.findall(r'\[data-theme="(\w+)"\] \{(.*?)\}', css, re.S)
    assert [name for name, _ in themes] == ["dark", "light"]
    for name, body in themes:
        colour = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-f]{6})", body))
        for text, ground in (("text", "bg"), ("text", "panel"), ("muted", "bg"), ("muted", "panel"),
                             ("accent", "bg"), ("accent-text", "accent"), ("rare", "bg"), ("rare", "panel")):
            assert contrast(colour[text], colour[ground]) >= 7, (name, text, ground)
        assert contrast(colour["line"], colour["bg"]) >= 3, name  # borders: WCAG's 3:1 for what is not text


def test_the_page_listens_on_this_machine_alone_unless_told(words):
    display = Display.open(port=0)
    try:
        assert display.host == "127.0.0.1" and display.url.startswith("http://127.0.0.1:")
    finally:
        display.close()


def open_stream(url: str) -> socket.socket:
    host, port = url.split("//")[1].rstrip("/").split(":")
    s = socket.create_connection((host, int(port)), timeout=PATIENCE)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    return s


def test_browsers_that_flood_drop_and_come_back_leave_the_game_as_it_was(words, watch):
    script = "Ann: jewelers\n@draw M N\nBen: jigsaw\n@draw R T\nCat: cowbell"
    alone = Table(words)
    alone(script)
    w = watch()
    streams = [open_stream(w.display.url) for _ in range(80)]  # more than the page allows at once
    for s in streams[::2]:
        s.close()  # half of them go without a word
    for _ in range(30):
        assert get(w.display.url + "state.json")[0] == 200
    page = w(script)  # the browser's own page still follows the game
    assert w.game.result() == alone.game.result()
    assert w.table.heard == alone.heard
    assert shown_totals(page) == totals(w.game)
    for s in streams[1::2]:
        s.close()
    w.browser.get(w.display.url)  # a page that comes back shows the game now
    assert shown_totals(w.shown()) == totals(w.game)


# ---------------------------------------------------------------------- the command line
@pytest.mark.browser
def test_voice_host_play_with_display_prints_the_address_and_serves_the_game_as_it_goes(tmp_path):
    need(support.CHROMIUM, "chromium (apt-get install chromium) opens the page")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voice_host.cli", "play", "--players", "Ann,Ben,Cat", "--start", "Ann",
         "--board", "W B J S L C D G", "--no-voice", "--typed", "--display", "--display-port", "0"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("display: http://127.0.0.1:"), first + proc.stderr.read()
        url = first.split()[1]
        proc.stdin.write("Ann: jewelers\nBen: scores\n")  # piped lines: the next one's time scores the word
        proc.stdin.flush()

        def scored():
            state = json.loads(get(url + "state.json")[1])
            return state.get("view") and state["view"]["players"][0]["total"] == 15 and state

        wait_for(scored, "Ann's 15 points on the page")
        dom = subprocess.run([support.CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url],
                             capture_output=True, text=True, timeout=PATIENCE).stdout
        assert 'data-name="Ann" data-total="15"' in dom and "jewelers" in dom
        proc.stdin.close()
        assert proc.wait(timeout=PATIENCE) == 0
        said = proc.stdout.read()
        assert "host: Ann scores 15 points for jewelers." in said
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_resumed_game_is_shown_from_where_it_was(tmp_path):
    from support import voice_host

    log = tmp_path / "game.log"
    first = voice_host("play", "--players", "Ann,Ben,Cat", "--start", "Ann", "--board", "W B J S L C D G", "--no-voice",
                       "--typed", "--log", str(log), stdin="Ann: jewelers\n@draw M N\n")
    assert first.returncode == 0, first.stderr
    proc = subprocess.Popen([sys.executable, "-m", "voice_host.cli", "resume", str(log), "--no-voice", "--display-port",
                             "0"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first_line = proc.stdout.readline()
        assert first_line.startswith("display: http://127.0.0.1:"), first_line + proc.stderr.read()
        url = first_line.split()[1]

        def resumed():
            shown = json.loads(get(url + "state.json")[1])
            return shown.get("view") and any(x["line"].startswith("Resuming") for x in shown["said"]) and shown

        shown = wait_for(resumed, "the resumed game on the page")["view"]
        assert {p["name"]: p["total"] for p in shown["players"]} == {"Ann": 15, "Ben": 0, "Cat": 0}
        assert shown["turn"] == "Ben"
        proc.stdin.close()
        assert proc.wait(timeout=PATIENCE) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_display_port_in_use_is_said_in_one_sentence():
    from support import voice_host

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        proc = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--typed", "--display-port", str(port),
                          stdin="")
        assert proc.returncode == 2
        assert proc.stderr.strip() == (f"voice-host: Port {port} is already in use on this machine, so the display "
                                       "can't use it; choose another with --display-port.")
        bad = voice_host("play", "--players", "Ann,Ben,Cat", "--no-voice", "--typed", "--display-port", "99999",
                         stdin="")
        assert bad.returncode == 2 and bad.stderr.count(".") == 1 and "--display-port" in bad.stderr
    finally:
        taken.close()


# ---------------------------------------------------------------------- the view
def test_every_game_is_shown_in_the_same_shape(words):
    from voice_host.games import REGISTRY

    players = {"prolix-solo": "Ann", "prolix-duel": "Ann,Ben", "dexikon": "Ann,Ben", "road": "Ann,Ben",
               "phlounder": "Ann,Ben,Cat", "prolix-redux": "Ann,Ben,Cat", "prolix-classic": "Ann,Ben,Cat"}
    keys = None
    for name in REGISTRY:
        t = Table(words, players[name], game=name, start=None, board=None)
        t("Ann: scores")
        shown = view(t.game)
        json.dumps(shown)  # plain data
        assert keys is None or set(shown) == keys, name
        keys = set(shown)
        assert all(set(p) >= {"name", "total", "unit", "turn", "winner", "facts", "words"} for p in shown["players"])


def test_a_brief_host_says_nothing_of_a_new_board_but_the_page_shows_it(words):
    """The page watches the game, not the host's voice: a board set while a brief host
    reads out no boards is on the page at once."""
    display = Display.open("127.0.0.1", 0)
    try:
        t = Table(words, board=None, verbosity="brief", watch=(display,))
        display.follow(t.session)
        assert t("@board W B J S L C D G") == []
        page = json.loads(get(display.url.rstrip("/") + "/state.json")[1])
        assert page["view"] == view(t.game)
        assert page["said"][-1]["line"] == "Round 1: Ann's turn."
    finally:
        display.close()
