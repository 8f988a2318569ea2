"""benchmarks/kill.py's games: Prolix Classic (script and typed), the road game and Dexikon, with play's options."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    """One game: play's options, and its script (or the lines typed on stdin)."""

    name: str
    options: tuple[str, ...]
    lines: str
    typed: bool = False
    config: str = ""
    """A table's settings file (TOML) for --config; empty: none."""


CLASSIC_SCRIPT = """\
@start Ann
Ann: jewelers
Ben: flummoxed
Cat: scores
Cat: picnicking
[+0] Ann: picnic
Ann: scrapbooking
Cat: timer
@wait 31
Cat: hurdled
Ann: plucky
Ben: whose turn
Ben: giving
Cat: begrudging
Ann: wrench
Ann: undo
Ann: jubilantly
Ben: wrenches
Cat: challenge
Ben: be brief
Cat: geese
Ann: catfish
[+0] Ben: franks
Ben: time
@undo
Ann: timer
@wait 10
Ben: counterfeiting
Cat: memo
Ann: more detail
Ann: prune
Ben: ruin
Cat: flummox
Ann: sheets
Ben: outset
[+0.3] Cat: outsets
Ann: bag
Cat: quiz
Ben: xylophone
Cat: yodel
Ann: zebra
[+3] Ben: challenge
Cat: scores
"""

CLASSIC_TYPED = """\
Ann: jewelers
Ben: flummoxed
Ann: timer
@wait 21
Cat: picnicking
[+0] Ben: picnic
Ann: scrapbooking
Cat: undo
Ann: yes
Ben: scores
Ann: hurdled
Cat: plucky
[+0.2] Ben: pluck
Ben: timer
Ann: giving
@wait 25
Cat: whose turn
Cat: begrudging
Ann: challenge
Ben: jubilantly
Cat: wrenches
Ann: undo
Cat: no
Ann: geese
Ben: catfish
[+0.4] Cat: catfish
Ann: sheets
Ben: franks
Cat: memo
Ann: prune
Ben: ruin
Cat: outset
[+5] Ann: challenge
Ben: scores
"""

ROAD_SCRIPT = """\
@start Ann
Ann: play fire for 7, fir for six, ire for 3 and re for 2 with 4 tiles
Ben: challenge
Ben: play road for 5
Ben: mulligan
Cat: scores
Ann: play road for 5, ad for 3 with 3 tiles
Ben: mulligan
Ann: pass
Ben: play zebra for 16 with 5 tiles
Ann: undo
Ben: play zebras for 18 with 6 tiles
Ann: bag
Ann: pass
Ben: play xqzt for 9 with 4 tiles
Ben: play zoo for twelve with 3 tiles
Ann: sheet
Ann: pass
Ben: pass
Ann: scores
"""

DEXIKON_TYPED = """\
Barbara: bank catch for 5
Colin: challenge
Barbara: check
Colin: bank dog for 3
Barbara: bank counts for six
Colin: challenge Barbara
@wait 10
Colin: bank flurb for 4
Barbara: challenge
Colin: check
Colin: bank mouse for 4
Barbara: scores
Barbara: bank catfish for 9
Colin: challenge
Barbara: no
Colin: spend catch for 3
Colin: spend
Barbara: bank finch for 5
Colin: bank zebra for 6
Barbara: challenge
Colin: check
Barbara: bank gifted for 8
Barbara: penalty 3
Colin: bank glorp for 5
Barbara: challenge
Colin: concede
Colin: bank blorp for 5
Barbara: challenge
@wait 10
Barbara: bank franking for 11
Colin: bank horse for 5
Colin: undo
Colin: bank horses for 6
Barbara: bank canning for 7
Colin: bank tiger for 6
@wait 10
Barbara: penalty 2
Barbara: returned penalty one
Barbara: bonus 2
Barbara: last word counterfeiting for 15
Colin: last word zebras for 8
Colin: sheets
"""

SCENARIOS = (
    Scenario("classic-script", ("--players", "Ann,Ben,Cat", "--seed", "5"), CLASSIC_SCRIPT,
             config="[prolix]\nrounds_3_players = 5\ntimer = 30\n"),
    Scenario("classic-typed", ("--players", "Ann,Ben,Cat", "--seed", "8", "--start", "Ann", "--timer", "20"),
             CLASSIC_TYPED, typed=True, config="[prolix]\nrounds_3_players = 4\n"),
    Scenario("road-script", ("--game", "road", "--players", "Ann,Ben", "--seed", "3", "--set-size", "40"),
             ROAD_SCRIPT),
    Scenario("dexikon-typed", ("--game", "dexikon", "--players", "Barbara,Colin", "--seed", "4",
                               "--start", "Barbara"), DEXIKON_TYPED, typed=True),
)
