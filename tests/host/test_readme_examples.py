"""The README's scripts and phrases run as written and do what their comments say."""

from __future__ import annotations

import re

from support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def block(starting: str) -> str:
    """The README's code block whose first line starts with ``starting``."""
    for found in re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.S):
        if found.startswith(starting):
            return found
    raise AssertionError(f"the README has no block starting {starting!r}")


def test_the_readmes_example_script_does_what_its_comments_say(play):
    script = block("@start Ann")
    result, lines = play(script, "Ann,Ben,Cat", seed=3)
    expected = [
        "Ann scores 15 points for jewelers.",
        "Ann draws M and N.",
        "Round 1: Ben's turn.",
        "It's in the dictionary: jewelers stands. Cat's challenge fails and costs 2 points at the end.",
        "Cat flips the timer: 45 seconds.",
        "Time! The timer interrupts Ben.",
        "Ann draws P and R.",
        "Ben, go again.",
        "Tiebreaker: Ben cowbell 5; Cat jawbone 11. Cat wins it.",
        "Cat interrupts Ben with jawbone: 11, minus 2, scores 9.",
        "Ben draws T and K.",
        "jewelers, Ann's word in round 1: W 5, J 5, S 3, L 2: 15.",
    ]
    positions = [lines.index(line) for line in expected]  # each said, in this order
    assert positions == sorted(positions), lines
    board = lines.index("jewelers, Ann's word in round 1: W 5, J 5, S 3, L 2: 15.") - 1
    assert lines[board] == "Board. 4 points: T, K+1; 3 points: P, R; 2 points: M, N; 1 point: W+1, B."
    assert not any("Wait until" in line or "I didn't catch" in line for line in lines), lines
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 15, "Ben": 0, "Cat": 7}


GAMES = {"solo": ("prolix-solo", "Ann"), "phlounder": ("phlounder", "Ann,Ben"), "dexikon": ("dexikon", "Ann,Ben"),
         "road": ("road", "Ann,Ben")}


def test_each_phrase_the_readme_shows_is_understood_by_its_game(play):
    game = None
    for line in block("Ann: jewelers   ").splitlines():
        said, _, comment = line.partition("#")
        named = comment.strip().split(":")[0]
        game = named if named in GAMES else game  # "... then" goes on with the game above
        name, players = GAMES[game]
        setup = {"solo": "", "phlounder": "@dice 5N\n" if "bell" in said else "",
                 "dexikon": "@start Ann\n", "road": "@start Ann\n"}[game]
        _, lines = play(setup + said.strip() + "\n", players, game=name)
        refused = [x for x in lines if "I didn't catch" in x or "I can't" in x or "isn't" in x]
        assert not refused, (said, lines)


def test_the_readme_is_at_most_170_lines():
    assert len(README.splitlines()) <= 170



def test_the_readmes_test_commands_install_pytest_first():
    """`.venv/bin/python -m pytest` after the README's `bash .ci/setup` alone failed: "No
    module named pytest". Every test command the README shows goes through `bash .ci/test`
    (which runs `bash .ci/setup test` first), or follows `bash .ci/setup test`."""
    for found in re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.S):
        for line in found.splitlines():
            if "pytest" in line:
                assert line.startswith("bash .ci/test") or "bash .ci/setup test" in found.split(line)[0], line
