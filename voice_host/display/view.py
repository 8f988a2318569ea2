"""A game's state as the page shows it: one small function per game family, one shape.

``view(game)`` reads the game (its state and its own ``result()``) and changes nothing.
It runs on the thread that plays the game, right after a sentence is said, so the page
never reads a state half-way through a step. Every family answers the same shape, and
the page (static/display.js) draws any of them without knowing which game it is::

    {"game": "prolix-classic", "title": "Prolix Classic", "finished": False,
     "status": "Round 2 of 6",            # where the game stands, one line
     "turn": "Ben" | None,                # whose turn it is (None: nobody's, or no turns)
     "timer": {"label": "Sand timer", "left": 31.5, "holder": "Ann"} | None,
     "board": {"label": "Board", "columns": [{"label": "4 points",
               "tiles": [{"letter": "J", "points": 6, "bonus": 2}]}]} | None,
     "facts": [{"label": "Tiles in the bag", "value": "52"}],   # the table's own
     "players": [{"name": "Ann", "total": 12, "unit": "points", "turn": True,
                  "winner": False, "facts": [{"label": ..., "value": ...}],
                  "words": [{"word": "jewelers", "score": 12, "note": "crossed out"}]}],
     "winners": ["Ann"]}

A player's words are the latest played first (a sheet's own order is by kind: Prolix
Classic's words, then its interrupts, then its lost ties; its entries' ``at`` put them
back in the order they were said: the game's ``said_at``), so a card that has room for
three shows the last three.

The English (labels, notes) is the host's, here: the games only hold data.
"""

from __future__ import annotations

from voice_host.games.base import Game
from voice_host.host.announce.phlounder import FAULTS, labelled, target_phrase
from voice_host.host.announce.text import names, plural, title

NOTES = {  # a word's kind on its sheet (games' result JSON), as the page writes it beside the word
    "zero": "lost turn", "interrupt": "interrupt", "tiebreak": "lost the tie", "interjection": "interjection",
    "bell": "rang the bell", "spent": "spent", "last": "last word",
}


def fact(label: str, value, key: bool = False) -> dict:
    """A fact the page shows; ``key``: the one the table plays on (Phlounder's dice), in larger print."""
    return {"label": label, "value": str(value), **({"key": True} if key else {})}


def left(until: float | None, clock: float) -> float | None:
    """Seconds from ``clock`` to ``until``, None when that is past or unknown."""
    return round(until - clock, 1) if until is not None and until > clock else None


def view(game: Game) -> dict:
    """What the page shows for ``game`` now (see the module's docstring)."""
    result = labelled(game.result())
    if (said_at := getattr(game, "said_at", None)) is not None:  # a sheet kept in parts: when each was said
        for p in result.get("players", ()):
            p["words"] = [dict(w, at=at) for w, at in zip(p.get("words", ()), said_at(p["name"]))]
    out = {"game": game.name, "title": title(game.name), "finished": game.finished,
           "status": "", "turn": None, "timer": None, "board": None, "facts": [],
           "players": [player(p, game.score_unit) for p in result.get("players", ())],
           "winners": list(result.get("winners", ()))}
    for p in out["players"]:
        p["winner"] = p["name"] in out["winners"]
    family(game, out, result)
    if game.finished:
        out["status"], out["turn"], out["timer"] = "Final scores", None, None
    for p in out["players"]:
        p["turn"] = p["name"] == out["turn"]
    return out


def latest_first(words: list[dict]) -> list[dict]:
    """A sheet's entries, the latest said first: by their ``at`` (game-clock seconds) where
    the sheet keeps it, a later entry first at the same moment; else the sheet's order reversed."""
    order = list(range(len(words)))
    if words and all("at" in w for w in words):
        order.sort(key=lambda i: (words[i]["at"], i))
    return [words[i] for i in reversed(order)]


def player(p: dict, unit: str) -> dict:
    words = []
    for w in latest_first(list(p.get("words", ()))):
        notes = [NOTES[w["kind"]]] if w.get("kind") in NOTES else []
        if w.get("penalty"):
            notes.append(f"penalty {w['penalty']}")
        if w.get("mark"):
            notes.append("mark" if w["mark"] is True else f"{w['mark']:+d}")
        if w.get("fault"):
            notes.append(FAULTS.get(w["fault"], w["fault"]))
        if w.get("valid") is False:
            notes.append("voided")
        if not w.get("counts", True):
            notes.append("does not count")
        words.append({"word": "no word" if w.get("word") is None else w["word"], "score": w.get("score"),
                      "note": ", ".join(notes), "counts": bool(w.get("counts", True)), "round": w.get("round")})
    total = p.get("total", 0)
    return {"name": p["name"], "total": total, "unit": unit if total == 1 else unit + "s", "facts": [], "words": words}


def round_of(result: dict) -> str:
    n, of = result.get("round"), result.get("rounds")
    return f"Round {n} of {of}" if n and of else f"Round {n}" if n else ""


def family(game: Game, out: dict, result: dict) -> None:
    """What the page shows of the game's own family (Game.family); a game it knows no
    more of shows the players and their words."""
    FAMILIES.get(game.family, _any)(game, out, result)


def _any(game: Game, out: dict, result: dict) -> None:
    out["status"] = round_of(result)


def by_name(out: dict) -> dict:
    return {p["name"]: p for p in out["players"]}


# ---------------------------------------------------------------------- Prolix
def _prolix(game: Game, out: dict, result: dict) -> None:
    s = game.state
    out["status"] = round_of(result)
    out["board"] = {"label": "Board", "columns": [
        {"label": plural(value, "point"),
         "tiles": [{"letter": t.letter, "points": t.points, "bonus": t.bonus} for t in tiles]}
        for value, tiles in game.board_view().columns]}
    out["facts"].append(fact("Tiles in the bag", len(s.bag.tiles)))
    if s.phase == "draw" and s.drawer:
        out["facts"].append(fact("Drawing tiles", s.drawer))
    timer = getattr(s, "timer", None)
    if timer is not None and timer.running(s.clock):
        out["timer"] = {"label": "Sand timer", "left": left(timer.until, s.clock), "holder": timer.holder}
    players = by_name(out)
    name = game.name
    if name == "prolix-classic":
        if s.phase in ("turn", "draw"):
            out["turn"] = s.active
        if s.phase == "draw" and s.then == "next" and (following := game._following()):
            out["turn"] = s.order[following[0]]  # whose turn it is once the tiles are drawn
        if s.phase == "ending" and s.ends_at is not None:
            out["timer"] = {"label": "Last challenges", "left": left(s.ends_at, s.clock), "holder": None}
        slots = game.settings.interrupt_slots
        for p, sheet in s.sheets.items():
            players[p]["facts"].append(fact("Interrupts left", max(0, slots - len(sheet.interrupts))))
            if sheet.failed_challenges:
                players[p]["facts"].append(fact("Failed challenges", sheet.failed_challenges))
            if sheet.out:
                players[p]["facts"].append(fact("Out", "used every interrupt"))
        if s.pending and not game.finished:
            out["facts"].append(fact("Being scored", names(f"{x.player}: {x.word}" for x in s.pending)))
        if s.last is not None and s.last.open() and not game.finished:  # the end closes every window
            out["facts"].append(fact("Open to a challenge", names(f"{w} ({p})" for p, w in s.last.open())))
    elif name == "prolix-solo":
        out["turn"] = s.players[0] if s.phase in ("turn", "draw") else None
        targets = game.settings.solo_targets
        if s.round <= len(targets):
            out["facts"].append(fact("Target this round", targets[s.round - 1]))
        if s.scratch:
            out["facts"].append(fact("Scratch words", names(f"{w} {v}" for w, v in s.scratch)))
    elif name == "prolix-duel":
        out["facts"].append(fact("First to", plural(game.settings.duel_marks, "mark")))
        if s.rounds and s.rounds[-1].handicap:
            who, n = s.rounds[-1].handicap
            out["facts"].append(fact("Handicap", f"{who} minus {n}"))
    elif name == "prolix-redux":
        if s.phase in ("turn", "draw") and s.turns:
            out["turn"] = s.turns[-1].active
        for p in result.get("players", ()):
            players[p["name"]]["facts"] += [fact("Bonuses", p.get("bonuses", 0)),
                                            fact("Penalties", p.get("penalties", 0))]
    if name in ("prolix-duel", "prolix-redux") and s.phase == "ending" and s.ends_at is not None:  # ruling 97
        out["timer"] = {"label": "Last challenges", "left": left(s.ends_at, s.clock), "holder": None}
        out["facts"].append(fact("Open to a challenge", names(f"{w} ({p})" for p, w in game.open_words())))


# ---------------------------------------------------------------------- Phlounder
PHLOUNDER_PHASES = {"setup": "Not started", "roll": "Waiting for the roll", "race": "Race to the bell",
                    "reports": "Reports after the bell", "over": "Final scores"}


def _phlounder(game: Game, out: dict, result: dict) -> None:
    s = game.state
    out["status"] = " · ".join(x for x in (round_of(result), PHLOUNDER_PHASES.get(s.phase, "")) if x)
    if not s.rounds:
        return
    r = s.round
    if r.target is not None:
        out["facts"].append(fact("Dice", f"{target_phrase(r.target)} ({r.target.number} and {r.target.letter})",
                                 key=True))
        if r.children is not None and game.children:
            out["facts"].append(fact("Children's dice", target_phrase(r.children)))
    if s.phase == "roll":
        out["facts"].append(fact("Rolls the dice", game.roller()))  # ruling 95
    if r.ringer:
        out["facts"].append(fact("Rang the bell", r.ringer))
    if s.phase == "reports":
        missing = game._missing()
        if missing:
            out["facts"].append(fact("Reports awaited from", names(missing)))
    for team in result.get("teams", ()):
        out["facts"].append(fact(f"Team {team['name']}", plural(team["total"], "point")))
    players = by_name(out)
    if not game.teams:
        bell_points(players, result, game.settings)
    for p in result.get("players", ()):
        if "team" in p:
            players[p["name"]]["facts"].append(fact("Team", p["team"]))
    for p, said in r.reports.items():
        report = said.word or "no word"
        if said.unused:
            report += f", {said.unused} unused"
        players[p]["facts"].append(fact("Report", report))


def bell_points(players: dict, result: dict, settings) -> None:
    """Each word's line with what the bell added, so a card adds up to its total: the
    ringer's legal bell "+2" in its score; an illegal bell's penalty and the others' bonus
    said beside the word that does not count."""
    rounds = {r["round"]: r for r in result.get("round_scores", ())}
    for name, p in players.items():
        for w in p["words"]:
            r = rounds.get(w.get("round"))
            if r is None:
                continue
            points = r["scores"].get(name, 0)
            if r["legal"] and r["ringer"] == name and w["score"] is not None:
                w["note"] = w["note"].replace(NOTES["bell"], f"{NOTES['bell']}, +{points - w['score']}")
                w["score"] = points
            elif not r["legal"]:
                said = f"illegal bell, {points:+d}" if r["ringer"] == name else f"{points:+d} for an illegal bell"
                w["note"] = ", ".join(x for x in (w["note"], said) if x)


# ---------------------------------------------------------------------- Dexikon
def _dexikon(game: Game, out: dict, result: dict) -> None:
    s = game.state
    out["status"] = round_of(result) if s.phase != "last" else "Last words"
    if s.phase == "turns":
        out["turn"] = s.active
    out["facts"].append(fact("Variant", f"{result.get('variant', 'standard')}: "
                                        f"{game.target} banked words end the game, the best {game.best} count"))
    for o in sorted(s.open, key=game._due):
        what = f"{o.word} ({o.player}, {o.kind})"
        if o.challengers:
            what += f", challenged by {names(o.challengers)}"
        out["facts"].append(fact("Open to a challenge", what))
    if s.open:
        o = min(s.open, key=game._due)
        out["timer"] = {"label": f"Challenge window for {o.word}", "left": left(game._due(o), s.clock),
                        "holder": o.player}
    players = by_name(out)
    for p in result.get("players", ()):
        facts = players[p["name"]]["facts"]
        facts.append(fact("Banked", sum(1 for w in p["words"] if w["kind"] == "banked")))
        facts.append(fact("Marks", p.get("marks", 0)))
        facts.append(fact("Penalty cards", p.get("penalties", 0)))


# ---------------------------------------------------------------------- the road game
def _road(game: Game, out: dict, result: dict) -> None:
    s = game.state
    out["status"] = round_of(result)
    if s.phase == "turns":
        out["turn"] = s.active
    bag = "empty" if s.bag_empty or s.bag == 0 else "not counted" if s.bag is None else s.bag
    out["facts"].append(fact("Tiles in the bag", bag))
    out["facts"].append(fact("Tiles in each rack", game.settings.rack))
    if s.passes:
        out["facts"].append(fact("Passes in a row", s.passes))
    players = by_name(out)
    for p in result.get("players", ()):
        facts = players[p["name"]]["facts"]
        if p.get("mulligans"):
            facts.append(fact("Mulligans", p["mulligans"]))
        if p.get("passes"):
            facts.append(fact("Passes", p["passes"]))


FAMILIES = {"prolix": _prolix, "phlounder": _phlounder, "dexikon": _dexikon, "road": _road}
