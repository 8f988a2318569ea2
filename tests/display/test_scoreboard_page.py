"""The scoreboard page (--display) as a table sees it from across the room: what the
state it is sent says (no browser), and in headless Chromium that the whole page fits
the window at a TV's, a laptop's and a portrait tablet's size for every game at its
largest table, mid-game and at the end, and that its timer counts down from the
deadline the host sends, however late the page is opened."""

from __future__ import annotations

from voice_host.display.view import view
from voice_host.host.script import parse_script

LAST = {"prolix": {"rounds_3_players": 1, "last_challenge_window": 30}}


def played(t, script: str) -> None:
    """Lines as typed: nothing settles at their end."""
    for record in parse_script(script, t.session.t):
        t.session.play(record)


def test_after_the_game_ends_nothing_is_shown_as_open_to_a_challenge(table):
    t = table(sections=LAST)
    played(t, "Ann: jewelers\n@draw M N\nBen: cowbell\n@draw P R\nCat: jackals")
    t.session.tick(t.session.t + 1)
    shown = view(t.game)
    assert {"label": "Open to a challenge", "value": "jackals (Cat)"} in shown["facts"]
    assert shown["timer"] == {"label": "Last challenges", "left": 29.5, "holder": None}
    t.session.settle()
    assert t.game.finished
    shown = view(t.game)
    assert [f["label"] for f in shown["facts"]] == ["Tiles in the bag"]
    assert shown["timer"] is None and shown["status"] == "Final scores"


def test_a_card_shows_the_latest_words_first_whatever_part_of_the_sheet_they_are_on(table):
    """Prolix Classic's sheet keeps words, interrupts and lost ties apart: Cat's interrupt
    came before her two words, and Ben's lost tie before his, so neither is the latest."""
    t = table()
    t("Ann: jewelers\n@draw M N\nBen: cowbell\n[+0] Cat: jawbone\n@draw T P\nBen: jumbo\n@draw R H\n"
      "Cat: month\n@draw S L\nAnn: slither\n@draw B D\nBen: bread\n@draw C G\nCat: cobbled")
    cards = {p["name"]: [(w["word"], w["note"]) for w in p["words"]] for p in view(t.game)["players"]}
    assert cards == {"Ann": [("slither", ""), ("jewelers", "")],
                     "Ben": [("bread", ""), ("jumbo", ""), ("cowbell", "lost the tie, does not count")],
                     "Cat": [("cobbled", ""), ("month", "does not count"), ("jawbone", "interrupt, penalty 2")]}


def test_a_phlounder_card_adds_up_to_its_total_the_bells_points_shown(table):
    """Ben's legal bell: "table · 7 (rang the bell, +2)", not 5; Cat's illegal bell costs her
    5 and gives the others 7 each, said beside the words that do not count."""
    t = table("Ann,Ben,Cat", game="phlounder", start=None, board=None)
    t("@dice 5N\nBen: bell\nBen: table\nCat: no word\nAnn: chair, unused 1\n"
      "@dice 5N\nCat: bell\nCat: tabled\nAnn: no word\nBen: house")
    shown = view(t.game)
    cards = {p["name"]: (p["total"], [(w["word"], w["score"], w["note"]) for w in p["words"]])
             for p in shown["players"]}
    assert cards == {
        "Ann": (11, [("no word", 0, "no word, does not count, +7 for an illegal bell"), ("chair", 4, "")]),
        "Ben": (14, [("no word", 0, "no word, does not count, +7 for an illegal bell"),
                     ("table", 7, "rang the bell, +2")]),
        "Cat": (-5, [("tabled", -6, "rang the bell, it is the wrong length, does not count, illegal bell, -5"),
                     ("no word", 0, "no word, does not count")])}


def test_a_players_total_of_one_is_one_mark_on_the_page_and_the_phone(table):
    import json

    from voice_host.phones.web import own_view

    t = table("Ann,Ben", game="prolix-duel", start="Ann")
    t("Ann: jewelers\nBen: cowbell")
    shown = view(t.game)
    assert [(p["name"], p["total"], p["unit"]) for p in shown["players"]] == [("Ann", 1, "mark"), ("Ben", 0, "marks")]
    assert own_view(json.dumps({"view": shown, "said": []}), "Ann")["unit"] == "mark"


# ---------------------------------------------------------------------- the timer's deadline
class Clock:
    """The server's clock, moved by the test."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def served_state(display) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(display.url + "state.json", timeout=60) as answer:
        return json.loads(answer.read())


def flipped(table, clock):
    """Ben's turn with the sand timer flipped by Cat (45 s), followed by a page on ``clock``."""
    from voice_host.display import Display

    display = Display.open("127.0.0.1", 0, clock=clock)
    t = table(watch=(display,))
    display.follow(t.session)
    t("Ann: jewelers\n@draw M N\nCat: timer")
    return t, display


def test_a_page_served_after_the_flip_counts_down_from_the_deadline_not_the_seconds_at_the_flip(table):
    clock = Clock()
    t, display = flipped(table, clock)
    try:
        state = served_state(display)
        assert state["view"]["timer"] == {"label": "Sand timer", "left": 45.0, "holder": "Cat", "deadline": 145.0}
        assert state["now"] == 100.0
        clock.now = 105.0  # the page is opened 5 s later: it is told so
        state = served_state(display)
        assert state["now"] == 105.0 and state["view"]["timer"]["deadline"] - state["now"] == 40.0
    finally:
        display.close()


def test_a_scoreboard_for_this_machine_alone_gives_an_address_this_machine_can_open(table):
    import urllib.request

    from voice_host.display import Display, announcement

    t = table()
    display = Display.open("0.0.0.0", 0, private=True)  # as with --phones: the phones on the network, the board here
    try:
        display.follow(t.session)
        assert display.scoreboard_url == f"http://127.0.0.1:{display.port}/"
        assert announcement(display) == f"The scoreboard is on screen at http://127.0.0.1:{display.port}/."
        with urllib.request.urlopen(display.scoreboard_url, timeout=60) as answer:
            assert answer.status == 200
    finally:
        display.close()


# ---------------------------------------------------------------------- in headless Chromium
import pytest  # noqa: E402
import support  # noqa: E402

SIZES = {"TV": (1920, 1080), "laptop": (1280, 720), "tablet": (800, 1280)}
"""The windows the page must fill without scrolling: a TV, a laptop, a tablet upright."""

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
WORDS = ("extraordinary", "jewelers", "cowbell", "jackals", "wildcards", "bewildering", "jawbones", "jigsaw", "quagmire",
         "counterfeiting", "lumberjacks", "zephyrs", "paragraphs", "backgammon", "flummoxed", "showjumping", "hijackers",
         "overwhelming", "sportsmanship", "kaleidoscope", "labyrinths", "marshmallows", "nightingale", "onslaughts",
         "pawnbrokers", "quarterbacks", "rhapsodies", "switchblade", "thunderclaps", "vouchsafing", "hovercraft",
         "dumbfounded", "earthquakes", "gingerbread", "fingerprints", "grasshoppers", "handkerchief", "ironmongery",
         "jellyfish", "knighthood", "lighthouses", "mockingbird", "nutcrackers", "oxygenated", "pickpockets",
         "quicksilver", "rattlesnakes", "scarecrows", "toothbrushes", "umbrellas", "volcanoes", "woodpeckers",
         "xylophones", "yachtsmen", "zigzagging", "blacksmith", "candlestick", "daydreaming", "eavesdropping",
         "firecrackers", "goldfinches", "honeycombed", "inkwells", "juxtaposed", "kingfishers", "lollipops")


def words():
    yield from WORDS


def plays(game: str) -> tuple[str, dict, list[str]]:
    """Each game at its largest table: its players, its settings (a short game), and the
    lines of a whole game, long words on every sheet."""
    w = words()
    if game == "prolix-classic":
        return ",".join(NAMES[:5]), {"prolix": {"rounds_4_5_players": 3}}, [
            f"{p}: {next(w)}" for _ in range(3) for p in NAMES[:5]]
    if game == "prolix-solo":
        return "Ann", {"prolix": {"solo_targets": [15, 32]}}, [
            f"Ann: {next(w)}", f"Ann: {next(w)}", f"Ann: {next(w)}", "@wait 50", f"Ann: {next(w)}", f"Ann: {next(w)}",
            "@wait 50"]
    if game == "prolix-duel":
        return "Ann,Ben", {"prolix": {"duel_marks": 3}}, [f"{p}: {next(w)}" for _ in range(12) for p in ("Ann", "Ben")]
    if game == "prolix-redux":
        return ",".join(NAMES), {"prolix": {"redux_rounds": 6}}, [f"{p}: {next(w)}" for _ in range(10) for p in NAMES]
    if game == "phlounder":
        return ",".join(NAMES), {"phlounder": {"rounds": 3}}, [
            line for _ in range(3) for line in ("@dice 5N", "Ben: bell", "Ben: table", "Ann: chair, unused 1",
                                                "Cat: no word", "Dan: house, unused 2", "Eve: no word", "Fay: no word")]
    if game == "dexikon":
        return ",".join(NAMES[:5]), {"dexikon": {"variant": "quick"}}, [
            *(f"{p}: bank {next(w)} for {5 + i}" for i in range(5) for p in NAMES[:5]), "@wait 15",
            *(f"{p}: last word {next(w)} for 9" for p in NAMES[:5]), "@wait 20"]
    assert game == "road"
    return ",".join(NAMES[:4]), {}, [*(f"{p}: play {next(w)} for 12, {next(w)} for 8 with 5 tiles"
                                       for _ in range(3) for p in NAMES[:4]),
                                     "Ann: bag empty", *(f"{p}: pass" for p in NAMES[:4])]


GAMES = ("prolix-classic", "prolix-solo", "prolix-duel", "prolix-redux", "phlounder", "dexikon", "road")

MEASURE = """
const [width, height, version] = arguments;
if (window.innerWidth !== width || window.innerHeight !== height
    || document.documentElement.dataset.version !== String(version)
    || document.documentElement.dataset.fitted !== width + 'x' + height + ':' + version) {
  return null;
}
const page = document.documentElement;
const outside = [];
const seen = (node) => node.offsetParent !== null || getComputedStyle(node).position === 'fixed';
const check = (what, node) => {
  if (!node || !seen(node)) return;
  const r = node.getBoundingClientRect();
  if (r.top < -1 || r.left < -1 || r.bottom > height + 1 || r.right > width + 1) outside.push(what);
};
check('title', document.getElementById('title'));
check('said', document.getElementById('said'));
check('turn', document.getElementById('turn'));
check('timer', document.getElementById('timer'));
document.querySelectorAll('.tile').forEach((t, i) => check('tile ' + i, t));
const players = {};
for (const card of document.querySelectorAll('.player')) {
  const name = card.dataset.name;
  check(name + "'s card", card);
  check(name + "'s total", card.querySelector('.total'));
  const shown = [...card.querySelectorAll('.word')].filter(seen);
  shown.forEach((w) => check(name + "'s " + w.dataset.word, w));
  if (card.scrollWidth > card.clientWidth + 1) outside.push(name + "'s card is too narrow for it");
  players[name] = {words: shown.map((w) => w.dataset.word),
                   all: card.querySelectorAll('.word').length,
                   winner: !!card.querySelector('.winner-badge')};
}
const content = Math.max(...[...document.body.children].filter(seen).map((n) => n.getBoundingClientRect().bottom));
return {height: page.scrollHeight, width: page.scrollWidth, content: Math.ceil(content), outside: outside, players: players,
        font: getComputedStyle(page).fontSize};
"""

MEASURED: dict[str, dict[str, str]] = {}
"""How far down the page's content reaches at each size, by game and moment (printed by
the last test)."""


@pytest.fixture(scope="module")
def browser():
    driver = support.chromium("--window-size=1280,720", "--hide-scrollbars")
    driver.set_page_load_timeout(90)
    yield driver
    driver.quit()


def at_size(browser, width: int, height: int, version: int) -> dict:
    """The page measured once it shows the display's ``version`` fitted to the window."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return support.wait_for(lambda: browser.execute_script(MEASURE, width, height, version),
                            f"the page's version {version} fitted to {width}x{height}", 90)


def fits(browser, game: str, moment: str, sheets: dict, version: int) -> None:
    """The whole view inside each window: nothing below the fold or beside it, every
    player's card and total, each player's latest word (``sheets``: their words)."""
    for size, (width, height) in SIZES.items():
        page = at_size(browser, width, height, version)
        MEASURED.setdefault(f"{game} ({moment})", {})[size] = f"{page['content']} px (print {page['font']})"
        assert page["outside"] == [], (game, moment, size, page)
        assert page["height"] <= height and page["width"] <= width, (game, moment, size, page)
        for name, said in sheets.items():
            shown = page["players"][name]["words"]
            assert page["players"][name]["all"] == len(said), (game, size, name)
            if said:
                assert shown and shown == said[:len(shown)], (game, moment, size, name, shown)  # the latest ones


@pytest.mark.parametrize("game", GAMES)
def test_the_whole_page_fits_one_screen_at_a_tv_a_laptop_and_a_tablet_mid_game_and_at_the_end(browser, words, game):
    from voice_host.display import Display

    players, sections, lines = plays(game)
    display = Display.open("127.0.0.1", 0)
    t = support.Table(words, players, game=game, start=None if game == "prolix-solo" else "Ann", board=None,
                      sections=sections, watch=(display,))
    display.follow(t.session)
    try:
        browser.get(display.url)
        half = len(lines) // 2
        t("\n".join(lines[:half]))
        sheets = {p["name"]: [w["word"] for w in p["words"]] for p in view(t.game)["players"]}
        fits(browser, game, "mid-game", sheets, display.count)
        t("\n".join(lines[half:]))
        assert t.game.finished, t.heard[-3:]
        shown = view(t.game)
        sheets = {p["name"]: [w["word"] for w in p["words"]] for p in shown["players"]}
        fits(browser, game, "end", sheets, display.count)
        page = browser.execute_script(MEASURE, *SIZES["tablet"], display.count)
        assert all(page["players"][w]["winner"] for w in shown["winners"])  # on screen, as every card
        assert shown["winners"] or game == "prolix-solo"  # a solo game below its target is lost
    finally:
        display.close()


def test_the_page_heights_measured(capsys):
    with capsys.disabled():
        for game, sizes in MEASURED.items():
            print(f"\n{game}: " + ", ".join(f"{size} {h}" for size, h in sizes.items()), end="")


TIMER = """return {left: document.getElementById('timer').dataset.left,
                   shown: document.getElementById('timer').hidden ? null : document.getElementById('timer').textContent};"""


def test_a_page_opened_mid_turn_counts_down_from_the_deadline_and_shows_nothing_once_it_is_out(browser, table):
    clock = Clock()
    t, display = flipped(table, clock)
    try:
        clock.now = 105.0  # opened 5 s after the flip
        browser.get(display.url)
        timer = support.wait_for(lambda: browser.execute_script(TIMER), "the page's timer", 90)
        assert timer["left"] == "40.0"
        assert timer["shown"].startswith("Sand timer: ") and timer["shown"].endswith(" seconds · Cat")
        clock.now = 146.0  # opened after the sand ran out, before the host said anything more
        browser.get(display.url)
        timer = support.wait_for(lambda: browser.execute_script(TIMER), "the page's timer", 90)
        assert timer == {"left": "", "shown": None}
    finally:
        display.close()


def test_a_rare_tile_shows_its_columns_points_and_its_bonus_once(browser, table):
    from voice_host.display import Display

    t = table()
    display = Display.open("127.0.0.1", 0)
    display.follow(t.session)
    try:
        browser.get(display.url)
        rare = support.wait_for(lambda: browser.execute_script(
            "return [...document.querySelectorAll('.tile.rare')].map((t) => t.textContent)"), "the rare tiles", 90)
        assert rare == ["W4 pts◆ +1", "J3 pts◆ +2"]
    finally:
        display.close()


def test_a_long_name_with_markup_stays_inside_its_card(browser, table):
    from voice_host.display import Display

    name = "<b>Bartholomew-Fitzwilliam-Montgomery</b>"
    t = table(f"Ann,{name},Cat,Dan,Eve")
    display = Display.open("127.0.0.1", 0)
    display.follow(t.session)
    try:
        browser.get(display.url)
        for width, height in SIZES.values():
            page = at_size(browser, width, height, display.count)
            assert page["outside"] == [], (width, height, page["outside"])
    finally:
        display.close()


# ---------------------------------------------------------------------- long names, --phones
LONG_NAMES = {"Ben": "Bartholomew", "Cat": "Evangelina", "Dan": "Maximilianus-Fitzgerald"}
"""Names longer than a narrow card's line: each must shrink or break at a hyphen, never
be split between two letters with nothing to show it."""

READ_PRINT = r"""
const [width, height, version] = arguments;
const root = document.documentElement;
if (window.innerWidth !== width || root.dataset.version !== String(version)
    || root.dataset.fitted !== width + 'x' + height + ':' + version) return null;
const seen = (n) => n.offsetParent !== null;
const out = {print: parseFloat(getComputedStyle(root).fontSize), outside: [], split: [], keys: []};
for (const n of document.querySelectorAll('.name > span:first-child, .word .text, .fact dd, #join-url')) {
  if (!seen(n)) continue;
  const r = n.getBoundingClientRect();
  const box = (n.closest('.player') || n.closest('section')).getBoundingClientRect();
  if (r.right > box.right + 1 || r.left < box.left - 1) out.outside.push(n.textContent);
  const text = n.firstChild;
  if (!text || text.nodeType !== 3) continue;
  const letters = /[^\s\-\u00ad]+/g;  // a break after a hyphen or a soft hyphen shows a hyphen
  let m;
  while ((m = letters.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size > 1) out.split.push(m[0]);
  }
}
for (const f of document.querySelectorAll('#facts .fact.key dd')) {
  out.keys.push(parseFloat(getComputedStyle(f).fontSize));
}
return out;
"""


def renamed(text: str) -> str:
    for short, long in LONG_NAMES.items():
        text = text.replace(f"{short}:", f"{long}:").replace(short, long) if short in text else text
    return text


@pytest.mark.parametrize("phones", [False, True], ids=["display", "phones"])
@pytest.mark.parametrize("game", GAMES)
def test_long_names_and_words_stay_in_their_boxes_unsplit_and_the_print_at_14_px(browser, words, game, phones):
    """At a TV's and a laptop's size, mid-game, with the phones' join panel (--phones,
    players still to join) or without: the print is 14 px at least (it fell to 12.5 px
    when the join panel pushed the board down), nothing runs out of its card or section,
    and no name or word is split without a hyphen ("Evangelin/a", "telecommunic/ations").
    Phlounder's dice, the fact its table plays on, are in larger print than the rest."""
    from voice_host import web
    from voice_host.display import Display

    players, sections, lines = plays(game)
    players = renamed(players)
    lines = [renamed(line) for line in lines]
    waiting = players.split(",")
    join = {"join": {"url": "https://192.168.100.200:8765/join", "waiting": waiting}} if phones else {}
    display = Display(web.Server(web.listen("127.0.0.1", 0)), also=lambda: join)
    display.server.start()
    t = support.Table(words, players, game=game, start=None if game == "prolix-solo" else "Ann", board=None,
                      sections=sections, watch=(display,))
    display.follow(t.session)
    try:
        browser.get(display.url)
        t("\n".join(lines[:len(lines) // 2]))
        for width, height in ((1920, 1080), (1280, 720)):
            at_size(browser, width, height, display.count)
            page = support.wait_for(lambda: browser.execute_script(READ_PRINT, width, height, display.count),
                                    "the page fitted", 90)
            MEASURED.setdefault(f"{game} (long names{', phones' if phones else ''})", {})[f"{width}x{height}"] = \
                f"print {page['print']:.1f}px"
            assert page["print"] >= 14 - 0.01, (game, width, page)
            assert page["outside"] == [] and page["split"] == [], (game, width, page)
            if game == "phlounder":
                assert page["keys"] and page["keys"][0] >= 1.5 * page["print"], page
    finally:
        display.close()


def test_duel_and_redux_show_their_last_words_open_to_a_challenge(table):
    """Ruling 97: the last words' window on the page, as Classic's; gone with the end."""
    for game, script, open_ in (("prolix-duel", "Ann: jewelers\nBen: cowbell", "jewelers (Ann) and cowbell (Ben)"),
                                ("prolix-redux", "Ann: jewelers\nBen: cowbell", "jewelers (Ann) and cowbell (Ben)")):
        t = table("Ann,Ben", game=game, start="Ann" if game == "prolix-redux" else None,
                  sections={"prolix": {"duel_marks": 1, "redux_rounds": 1, "last_challenge_window": 30}})
        played(t, script)
        t.session.tick(t.session.t + 1)
        shown = view(t.game)
        assert {"label": "Open to a challenge", "value": open_} in shown["facts"], game
        assert shown["timer"] == {"label": "Last challenges", "left": 29.0, "holder": None}, game
        t.session.settle()
        assert t.game.finished and view(t.game)["timer"] is None


def test_phlounder_shows_who_rolls_the_dice(table):
    t = table("Ann,Ben,Cat", game="phlounder", start=None, board=None)
    t("@dice 5N\nBen: bell\nBen: table\nCat: no word\nAnn: no word")
    assert {"label": "Rolls the dice", "value": "Ben"} in view(t.game)["facts"]  # ruling 95
