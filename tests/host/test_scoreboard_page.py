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

    t = table()
    display = Display.open("127.0.0.1", 0, clock=clock)
    t.session.speak = lambda line, heard=t.session.speak: (heard(line), display.said(line))
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
