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
