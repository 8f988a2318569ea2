"""Every sentence the host says lives here: events and refusals in, plain English out.

The rules emit structured events (voice_host.games.events); the announcer turns each
into one sentence a player can hear and a low-vision player can rely on: who scored
what for which word, the board, the timer, challenges, refusals and their reasons.
"""

from __future__ import annotations

from typing import Callable

from voice_host.games import events as E


def names(items) -> str:
    items = [str(x) for x in items]
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if abs(n) == 1 else (many or one + 's')}"


def clip(text: str, most: int = 60) -> str:
    """What was heard, said back no longer than a breath: a 5,000-letter line is not read out."""
    text = str(text)
    return text if len(text) <= most else text[: most - 3].rstrip() + "..."


def points(n: int) -> str:
    return plural(n, "point")


RULE_STEPS = {
    "plural": "changes the plural",
    "tense": "changes the tense",
    "ly": "adds or removes -ly",
    "ing": "adds or removes -ing",
}


def cheapie_reason(rule: str, path) -> str:
    """Why a word is a cheapie: one restriction, or the chain of them step by step."""
    if rule == "chain" and path:
        return "it only " + ", then ".join(f"{RULE_STEPS.get(r, r)} ({w})" for w, r in path)
    return "it only " + RULE_STEPS.get(rule, rule)


WORD_REASONS = {
    "not_found": "it is not in the dictionary",
    "proper_noun": "it is a proper noun",
    "acronym": "it is an acronym",
    "punctuation": "words with apostrophes or hyphens are not allowed",
    "capitalized": "capitalized words are not allowed",
    "not_letters": "a word is letters only",
}

REFUSALS: dict[str, Callable[..., str]] = {
    "unknown_player": lambda player, players=(): f"I don't know a player called {player}; the players are {names(players)}.",
    "unknown_speaker": lambda player, players=(): f"I don't know who {player} is; the players are {names(players)}.",
    "no_speaker": lambda **_: "Start the line with the player's name, like 'Ann: jewelers'.",
    "bad_line": lambda text, **_: f"I can't read '{clip(text)}'. Write a line as 'Name: word' or '@directive'.",
    "unknown_directive": lambda text, **_: f"I don't know the directive '{clip(text)}'.",
    "bad_wait": lambda text, **_: f"'{clip(text)}' needs a number of seconds, like '@wait 46'.",
    "bad_directive": lambda text, **_: f"I can't use '{clip(text)}' in this game.",
    "unclear": lambda text, **_: f"I didn't catch a word in '{clip(text)}'. Say just the word, or 'play' and the word.",
    "not_scored": lambda word=None, **_: (f"{word} hasn't been scored in this game." if word
                                          else "No word has been scored yet."),
    "play_what": lambda text, **_: f"'{clip(text)}' and what? Say the word too, like 'play jewelers'.",
    "moment_passed": lambda word, **_: f"The game has moved on, so {word} can't be played as that interrupt now.",
    "too_long": lambda letters, longest, **_: (
        f"That word has {letters} letters; the longest word in the dictionary has {longest}. Say it again."),
    "punctuation": lambda word, **_: f"{word} can't be played: words with apostrophes or hyphens are not allowed.",
    "nothing_to_undo": lambda **_: "There is nothing to undo.",
    "not_started": lambda **_: "The game hasn't started yet.",
    "already_started": lambda **_: "The game has already started.",
    "too_late": lambda what, **_: f"It's too late to set the {what} player; the game has started.",
    "game_over": lambda **kw: game_over_sentence(**kw),
    "busy": lambda **_: "Let the current word or challenge finish first.",
    "board_incomplete": lambda **_: "The board needs a tile on every space.",
    "no_draw_due": lambda **_: "No tiles are due to be drawn right now.",
    "draw_count": lambda count, need: f"I need {plural(need, 'tile')} for the empty spaces, not {count}.",
    "no_such_tile": lambda letter: f"There is no {letter} tile in this set.",
    "too_many_rare": lambda letters, limit: f"That would put {len(letters)} rare tiles on the board ({names(letters)}); the limit is {limit}. Set one aside and draw again.",
    "too_many_same": lambda letter, count, limit: f"That would put {count} {letter} tiles on the board; the limit is {limit}. Set one aside and draw again.",
    "board_size": lambda count, size: f"A board has {size} spaces; I heard {count}.",
    "no_room": lambda count: f"There is no room on the board for {plural(count, 'more tile')}.",
    "barred": lambda word: f"{word} lost a challenge this game and can't be played.",
    "cheapie": lambda word, earlier, by, rule, path=(): (
        f"No cheapies: {word} can't be played, {by} already played {earlier} and {cheapie_reason(rule, path)}."
        if rule != "same" else f"No cheapies: {by} already played {earlier}."
    ),
    "not_a_word": lambda word, reason: f"{word} is refused: {WORD_REASONS.get(reason, reason)}.",
    "already_said": lambda word: f"You already said {word}.",
    "word_is_final": lambda word: f"Your word this round is {word}; it can't be changed.",
    "timer_holder": lambda player: f"{player}, you flipped the timer, so you can't interrupt.",
    "no_interrupts_left": lambda player: f"{player}, you have no interrupts left.",
    "challenge_in_progress": lambda word: f"Play is stopped while {word} is challenged.",
    "wait_for_draw": lambda drawer: f"Wait until {drawer} has drawn the new tiles.",
    "out_of_game": lambda player: f"{player} is out of the game, having used every interrupt.",
    "active_cannot_flip": lambda **_: "The active player can't flip the timer.",
    "word_already_said": lambda **_: "A word has already been said; the timer can't be flipped now.",
    "timer_running": lambda holder, left: (
        f"The timer is already running in front of {holder}, {plural(left, 'second')} left."
        if holder else f"The timer is still running out in the middle; {plural(left, 'second')} left."
    ),
    "own_word": lambda **_: "You can't challenge your own word.",
    "nothing_to_challenge": lambda target=None: (
        f"{target} has no word that can be challenged now." if target else "There is no word to challenge right now."
    ),
    "already_challenged": lambda word, player: f"{player}'s {word} has already stood a challenge.",
    "no_vote": lambda **_: "Nobody asked a yes or no question.",
    "not_a_voter": lambda player, word: f"{player}, the vote on {word} is for the players not involved.",
    "already_voted": lambda player: f"{player}, you already voted.",
    "unknown_question": lambda kind: f"I can't answer '{kind}' in this game.",
    "not_in_this_game": lambda action: "That isn't part of this game.",
    "internal_error": lambda **_: "Sorry, something went wrong on my side with that; nothing has changed.",
    # Phlounder
    "bad_number": lambda text, **_: f"I didn't catch a number in '{clip(text)}'.",
    "bad_dice": lambda faces, count: (
        f"'{faces}' isn't a roll of these dice: give {count} faces, like '@dice {'5N*' if count == 3 else '5N'}'."),
    "dice_rolled": lambda target: f"The dice are rolled: {target_phrase(target)}. Say bell when your word is done.",
    "reports_missing": lambda players: f"First I need the words of {names(players)}.",
    "not_rolled": lambda **_: "Roll the dice first: say roll.",
    "already_rang": lambda player: f"{player} already rang the bell.",
    "round_scored": lambda round: f"Round {round} is already scored: the bell was illegal, so no other words count. Say roll for the next round.",
    "no_bell": lambda **_: "Nobody has rung the bell yet: words come after the bell.",
    "already_reported": lambda word, unused: (
        f"You already reported {word or 'no word'}" + (f", {unused} unused" if unused else "")
        + ". Say undo to change it."),
    "does_not_count": lambda player, word, fault: f"{player}'s {word} already doesn't count: {FAULTS.get(fault, fault)}.",
    # Dexikon
    "need_points": lambda phrase, word: f"Say the points too, like '{phrase} {word} for 5'.",
    "not_your_turn": lambda player: f"It's {player}'s turn.",
    "already_banked": lambda word, by: f"{by} banked {word}: nobody can spell it again this game.",
    "say_bank_or_spend": lambda word: f"Say 'bank {word} for' its points, or 'spend {word}'.",
    "last_words": lambda **_: "The game is over: say 'last word', the word and its points.",
    "not_last_words": lambda **_: "Last words come at the end of the game.",
    "already_last": lambda word: f"Your last word is {word}.",
    "no_more_tries": lambda **_: "You have had two tries at a last word.",
    "no_challenge_pending": lambda **_: "Nobody is challenging your word.",
    "already_challenging": lambda word: f"You are already challenging {word}.",
    "too_few_penalties": lambda held: f"You have only {plural(held, 'penalty card')}.",
    "solo_only": lambda **_: "That is only for the solo game.",
    # road game
    "bad_play": lambda text, **_: f"I can't read '{clip(text)}'. Say 'play', then each word and its points, like 'play fire for 7, fir for 6'.",
    "need_tiles": lambda **_: "I'm counting the bag: say how many tiles you played too, like 'play fire for 7 with 4 tiles'.",
    "no_mulligan": lambda **_: "The bag is empty, so there are no more mulligans.",
    "bag_already_empty": lambda **_: "The bag is already empty.",
    "words_checked": lambda **_: "I check every word as it is played, so there is nothing to challenge.",
    "say_play_points": lambda word: f"Say 'play {word} for' its points, with the other words your tiles made.",
}


def game_over_sentence(winners=(), total=None, unit="point", alone=None, **_) -> str:
    """The answer to any input after the end: who won, with what ("Ann won with 91.")."""
    score = (str(total) if unit == "point" else plural(total, unit)) if total is not None else ""
    if len(winners) == 1:
        return f"The game is over: {winners[0]} won with {score}."
    if winners:
        return f"The game is over: {names(winners)} share the victory with {score}."
    if alone:
        return f"The game is over: {alone[0]} finished with {alone[1] if unit == 'point' else plural(alone[1], unit)}."
    return "The game is over. Ask for the scores to hear them again."


def board_sentence(e: E.BoardShown) -> str:
    parts = []
    for value, tiles in e.columns:
        if tiles:
            letters = ", ".join(f"{t.letter}+{t.bonus}" if t.bonus else t.letter for t in tiles)
        else:
            letters = "empty"
        parts.append(f"{points(value)}: {letters}")
    return "Board. " + "; ".join(parts) + "."


def standings_sentence(rows) -> str:
    return "; ".join(f"{r.player} {r.total}" for r in rows)


# ---------------------------------------------------------------------- Phlounder
KINDS = {"N": "noun", "V": "verb", "*": "word"}

FAULTS = {
    "no_word": "no word",
    "too_short": "it is too short",
    "too_long": "it is longer than the number die allows",
    "length": "it is the wrong length",
    "not_noun": "it is not a noun",
    "not_verb": "it is not a verb",
    "unused": "letters were left unused",
    **WORD_REASONS,
}
"""Why a Phlounder word does not count."""


def target_phrase(t: E.Target) -> str:
    """What the dice ask for: "a 5-letter noun", "any word of 4 to 7 letters"."""
    kind = KINDS[t.letter]
    if t.number == "*":
        return f"{'any word' if t.letter == '*' else 'a ' + kind} of {t.lengths[0]} to {t.lengths[1]} letters"
    return f"{'any' if t.letter == '*' else 'a'} {t.number}-letter {kind}"


def signed(n: int) -> str:
    return f"plus {n}" if n > 0 else f"minus {-n}" if n < 0 else "0"


def phlounder_line(ln: E.PhlounderLine, bonus: int | None) -> str:
    """One player's part of a scored round; ``bonus``: the ringer's win bonus, said with the word."""
    if ln.word is None:
        return f"{ln.player} no word" + (f", {ln.unused} unused: minus {ln.unused}" if ln.unused else ": 0")
    if ln.fault is not None:
        return f"{ln.player} {ln.word} doesn't count, {FAULTS.get(ln.fault, ln.fault)}: {signed(ln.score)}"
    if bonus is not None:
        return f"{ln.player} rang with {ln.word}: {bonus} plus {ln.score} is {bonus + ln.score}"
    said = f"{ln.player} {ln.word} {len(ln.word)}"
    return said + (f", minus {ln.unused} unused is {ln.score}" if ln.unused else "")


class Announcer:
    """Turns events into sentences."""

    def refusal(self, code: str, params: dict, player: str | None = None) -> str:
        make = REFUSALS.get(code)
        if make is None:
            return "I can't do that right now."
        try:
            return make(**params)
        except TypeError:
            return "I can't do that right now."

    def say(self, event: E.Event) -> str | None:
        handler = getattr(self, "_" + type(event).__name__, None)
        return handler(event) if handler else None

    # one method per event type
    def _Refused(self, e: E.Refused) -> str:
        return self.refusal(e.code, e.params, e.player)

    def _GameStarted(self, e: E.GameStarted) -> str:
        title = e.game.replace("-", " ").title()
        length = f"first to {plural(e.marks, 'mark')} wins" if e.marks else plural(e.rounds, "round")
        return f"{title} for {names(e.players)}: {length}."

    def _StartDraws(self, e: E.StartDraws) -> str:
        parts = []
        for i, draw in enumerate(e.draws):
            said = ", ".join(f"{p} {letter}" for p, letter in draw)
            parts.append(("Redraw: " if i else "Drawing for first player: ") + said + ".")
        return " ".join(parts) + f" {e.start} starts."

    def _StartSet(self, e: E.StartSet) -> str:
        return f"{e.player} starts."

    def _BoardShown(self, e: E.BoardShown) -> str:
        return board_sentence(e)

    def _TilesDrawn(self, e: E.TilesDrawn) -> str:
        who = f"{e.drawer} draws" if e.drawer else "Drawn"
        text = f"{who} {names(e.letters)}."
        if e.refilled:
            text = "The bag was empty, so the discards went back in. " + text
        if e.set_aside:
            text += f" Set aside and returned: {names(e.set_aside)}."
        return text

    def _AwaitDraw(self, e: E.AwaitDraw) -> str:
        return f"{e.drawer}, draw {plural(e.count, 'tile')} and tell me the letters."

    def _TurnStarted(self, e: E.TurnStarted) -> str:
        if e.again:
            return f"{e.player}, go again."
        return f"Round {e.round}: {e.player}'s turn."

    def _WordScored(self, e: E.WordScored) -> str:
        return f"{e.player} scores {points(e.value)} for {e.word}."

    def _Interrupted(self, e: E.Interrupted) -> str:
        return (f"{e.player} interrupts {e.active} with {e.word}: {e.value}, minus {e.penalty}, "
                f"scores {e.score}.")

    def _TimerFlipped(self, e: E.TimerFlipped) -> str:
        return f"{e.player} flips the timer: {e.seconds} seconds."

    def _TimerExpired(self, e: E.TimerExpired) -> str:
        return f"Time! The timer interrupts {e.active}." if e.interrupts else "Time!"

    def _TurnLost(self, e: E.TurnLost) -> str:
        return f"{e.player} was interrupted twice and scores zero for round {e.round}."

    def _TieBreak(self, e: E.TieBreak) -> str:
        said = "; ".join(f"{p} {w} {v}" for p, w, v in e.entries)
        return f"Tiebreaker: {said}. {names(e.winners)} {'wins' if len(e.winners) == 1 else 'win'} it."

    def _ChallengeRaised(self, e: E.ChallengeRaised) -> str:
        return f"{e.challenger} challenges {e.player}'s {e.word}."

    def _VoteAsked(self, e: E.VoteAsked) -> str:
        return f"{names(e.voters)}: do you know the word {e.word}? Say yes or no."

    def _ChallengeResolved(self, e: E.ChallengeResolved) -> str:
        if e.stands:
            how = "The table knows it" if e.by_vote else "It's in the dictionary"
            cost = f" and costs {points(e.penalty)} at the end" if e.penalty else ""
            return f"{how}: {e.word} stands. {e.challenger}'s challenge fails{cost}."
        why = WORD_REASONS.get(e.reason or "not_found", "it is not in the dictionary")
        return f"The challenge succeeds: {e.word} is void, {why}."

    def _PlayerOut(self, e: E.PlayerOut) -> str:
        return f"{e.player} has used every interrupt and is out of the game."

    def _RoundOver(self, e: E.RoundOver) -> str:
        return f"End of round {e.round}. Scores: {standings_sentence(e.standings)}."

    def _GameOver(self, e: E.GameOver) -> str:
        if len(e.standings) == 1:
            one = e.standings[0]
            return f"Game over. {one.player} finishes with {points(one.total)}" + (
                ": a win!" if e.winners else ".")
        text = f"Game over. Final scores: {standings_sentence(e.standings)}."
        if e.tiebreak == "tie":
            return text + f" {names(e.winners)} tie and share the victory."
        if e.tiebreak == "shared":
            return text + f" {names(e.winners)} tie on points and on every word, and share the victory."
        if e.tiebreak == "best_word":
            return text + f" {e.winners[0]} wins the tie on the best single word."
        if not e.winners:
            return text
        return text + f" {e.winners[0]} wins!"

    def _ScoresReport(self, e: E.ScoresReport) -> str:
        return f"Round {e.round} of {e.rounds}. Scores: {standings_sentence(e.standings)}."

    def _TurnReport(self, e: E.TurnReport) -> str:
        if e.player is None:
            return "Nobody's turn: the game is not running."
        text = f"Round {e.round}: {e.player}'s turn."
        if e.waiting_for:
            text += f" Waiting for {e.waiting_for} to draw."
        if e.timer_holder:
            text += f" The timer is in front of {e.timer_holder}, {plural(round(e.timer_left or 0), 'second')} left."
        elif e.timer_left:
            text += f" {plural(round(e.timer_left), 'second')} left."
        return text

    # ------------------------------------------------------------------ facts on request
    def _TimeReport(self, e: E.TimeReport) -> str:
        if e.word is not None:
            return (f"{plural(e.seconds or 0, 'second')} left to challenge {e.holder}'s {e.word}."
                    if e.holder else f"{plural(e.seconds or 0, 'second')} left to challenge {e.word}.")
        if not e.timer:
            return "Nothing is on the clock in this game."
        if e.seconds is None:
            return "The timer isn't running."
        left = f"{plural(e.seconds, 'second')} left"
        return f"{left}, the timer in front of {e.holder}." if e.holder else f"{left} on the timer."

    def _BagReport(self, e: E.BagReport) -> str:
        if e.tiles is None:
            return "I'm not counting the bag: say 'bag empty' when it runs out."
        if e.tiles == 0:
            return "The bag is empty."
        return f"{plural(e.tiles, 'tile')} left in the bag."

    def _InterruptsReport(self, e: E.InterruptsReport) -> str:
        parts = [f"{p} out, every interrupt used" if out else f"{p} {left} left, {used} used"
                 for p, used, left, out in e.rows]
        return "Interrupts: " + "; ".join(parts) + "."

    def _VoidedReport(self, e: E.VoidedReport) -> str:
        if not e.words:
            return "No word has been voided."
        parts = [w + (f" by {p}" if p else "") + (f" in round {r}" if r else "") for w, p, r in e.words]
        return "Voided by a challenge: " + ", ".join(parts) + "."

    def _HowScored(self, e: E.HowScored) -> str:
        tiles = ", ".join(f"{letter} {n}" for letter, n in e.tiles) or "no tiles"
        head = f"{e.word}, {e.player}'s" + (f" {'scratch word' if e.kind == 'scratch' else 'word'}")
        head += f" in round {e.round}" if e.round else ""
        text = f"{head}: {tiles}: {e.value}"
        if e.penalty and e.kind == "interrupt":
            text += f", minus {e.penalty} for the interrupt is {e.value - e.penalty}"
        elif e.penalty:
            text += f", minus the handicap of {e.penalty} is {e.value - e.penalty}"
        if e.kind == "tiebreak":
            text += ", but it lost the tiebreak and scored nothing"
        return text + "."

    def _RoundsSheet(self, e: E.RoundsSheet) -> str:
        lines = []
        for rnd, word, score, note in e.lines:
            if word is None and note in ("pass", "mulligan"):
                lines.append(f"round {rnd}: {note}")
                continue
            said = f"round {rnd}: {word or 'no word'} for {score}"
            lines.append(said + (f" ({note})" if note else ""))
        total = str(e.total) if e.unit == "point" else plural(e.total, e.unit)
        return f"{e.player}'s sheet. " + ("; ".join(lines) if lines else "nothing yet") + f". Total {total}."

    def _ReportsStatus(self, e: E.ReportsStatus) -> str:
        if e.ringer is None:
            return f"Round {e.round}: nobody has rung the bell, so nobody owes a report."
        if not e.missing:
            return f"Round {e.round}: every report is in."
        return f"Round {e.round}: {e.ringer} rang; still waiting for {names(e.missing)}."

    def _DexikonFacts(self, e: E.DexikonFacts) -> str:
        if e.kind == "banked":
            parts = [f"{p} " + (", ".join(f"{w} {n}" for w, n in banked) if banked else "none")
                     for p, banked, _, _ in e.rows]
            return "Banked words: " + "; ".join(parts) + "."
        if e.kind == "marks":
            return "Bonus marks: " + "; ".join(f"{p} {m}" for p, _, m, _ in e.rows) + "."
        return "Penalty cards: " + "; ".join(f"{p} {n}" for p, _, _, n in e.rows) + "."

    def _LastChance(self, e: E.LastChance) -> str:
        return f"{e.player}, everyone else has passed: if you pass too, the game ends."

    def _WordsReport(self, e: E.WordsReport) -> str:
        if not e.words:
            return "No words have been played yet."
        return "Words played: " + ", ".join(f"{w} by {p}" for w, p in e.words) + "."

    def _SheetReport(self, e: E.SheetReport) -> str:
        regular = ", ".join(
            (f"round {r} {w} {s}" if w else f"round {r} zero") + ("" if counts else " crossed out")
            for w, s, counts, r in e.regular
        ) or "none"
        inter = ", ".join(f"round {r} {w} {v} minus {p} is {s}" for w, v, p, s, r in e.interrupts) or "none"
        text = f"{e.player}'s sheet. Regular: {regular}. Interrupts: {inter}."
        if e.failed_challenges:
            text += f" Failed challenges: {e.failed_challenges}."
        return text + f" Total {e.total}."

    def _TimerStarted(self, e: E.TimerStarted) -> str:
        if e.player is None:
            return f"The timer is running: {e.seconds} seconds."
        return f"{e.player} starts the timer: {e.seconds} seconds."

    def _TimeLeft(self, e: E.TimeLeft) -> str:
        return f"{plural(e.seconds, 'second')} left."

    def _Scratch(self, e: E.Scratch) -> str:
        return f"Scratch: {e.word} would score {e.value}."

    def _TargetCheck(self, e: E.TargetCheck) -> str:
        if e.reached is None:
            return f"Round {e.round}: reach {e.target} to stay alive; you have {e.total}."
        if e.reached:
            return f"{e.total} in all: the target of {e.target} is reached."
        return f"{e.total} in all: short of the target of {e.target}. The game is lost."

    def _BestWord(self, e: E.BestWord) -> str | None:
        if not e.words:
            return None
        word, value = e.words[0]
        if e.played is not None and e.played >= value:
            return "That was the best word the board allowed."
        return f"The best word on that board was {word}, for {value}."

    def _WordTaken(self, e: E.WordTaken) -> str:
        return f"{e.player}: {e.word}, noted."

    def _DuelRound(self, e: E.DuelRound) -> str:
        text = f"Round {e.round}."
        if e.handicap:
            text += f" {e.handicap[0]} leads and carries a handicap of {e.handicap[1]}."
        return text

    def _DuelScored(self, e: E.DuelScored) -> str:
        parts = []
        for player, word, value, net in e.entries:
            said = f"{player} {word} {value}" if word else f"{player} no word"
            if net != value:
                said += f", minus {value - net} is {net}"
            parts.append(said)
        tail = f"{e.winner} takes the mark" + (", having flipped the timer on a tie." if e.by_tie else ".")
        return "; ".join(parts) + ". " + tail

    def _MarkAwarded(self, e: E.MarkAwarded) -> str:
        marks = ", ".join(f"{p} {n}" for p, n in e.marks)
        if e.reason == "challenge":
            return f"The mark goes to {e.player}. Marks: {marks}."
        return f"Marks: {marks}."

    def _ReduxScored(self, e: E.ReduxScored) -> str:
        parts = []
        for player, word, value, mark in e.entries:
            said = f"{player} {word} {value}" if word else f"{player} no word"
            if mark:
                said += f", {'plus' if mark > 0 else 'minus'} {abs(mark)}"
            parts.append(said)
        return f"Turn {e.round} scores: " + "; ".join(parts) + "."

    # ------------------------------------------------------------------ Phlounder
    def _TeamsSet(self, e: E.TeamsSet) -> str:
        text = ("Teams: " + "; ".join(names(t) for t in e.teams) + ".") if e.teams else ""
        if e.children:
            text += f" {names(e.children)} {'plays' if len(e.children) == 1 else 'play'} with the children's letter die."
        return text.strip()

    def _RollAwaited(self, e: E.RollAwaited) -> str:
        return f"Round {e.round} of {e.rounds}: say roll when you're ready."

    def _DiceRolled(self, e: E.DiceRolled) -> str:
        text = (f"{e.player} rolls" if e.player else "The dice say") + f": {target_phrase(e.target)}"
        if e.children:
            text += f"; for the children, {target_phrase(e.children)}"
        return text + ". Go!"

    def _DiceShown(self, e: E.DiceShown) -> str:
        if e.target is None:
            return f"Round {e.round}: the dice haven't been rolled yet."
        text = f"Round {e.round}: {target_phrase(e.target)}"
        return text + (f"; for the children, {target_phrase(e.children)}." if e.children else ".")

    def _BellRung(self, e: E.BellRung) -> str:
        text = f"Bell! {e.player}, your word?"
        if e.partners:
            text += f" {names(e.partners)}, yours too."
        return text + f" {names(e.others)}: your words and unused letters."

    def _ReportTaken(self, e: E.ReportTaken) -> str:
        said = e.word or "no word"
        return f"{e.player}: {said}" + (f", {e.unused} unused." if e.unused else ".")

    def _ReportsAwaited(self, e: E.ReportsAwaited) -> str:
        return f"Still waiting for {names(e.players)}: your word and unused letters, or no word."

    def _PhlounderScored(self, e: E.PhlounderScored) -> str:
        head = f"Round {e.round}" + (" again" if e.revised else "")
        sides = "; ".join(f"{side} {signed(n)}" for side, n in e.sides)
        if not e.legal:
            player, word, fault = e.fault
            why = (f"{player} had no word" if fault == "no_word" else f"{player} left letters unused"
                   if fault == "unused" else f"{player}'s {word}: {FAULTS.get(fault, fault)}")
            return f"{head}: {e.ringer}'s bell was illegal, {why}. {sides}."
        lines = [phlounder_line(ln, None if e.teams or ln.player != e.ringer else e.bonus) for ln in e.lines]
        text = f"{head}: " + ". ".join(lines) + "."
        if e.teams:
            text += f" {e.bonus} for the bell. Teams: {sides}."
        return text

    def _PhlounderStatus(self, e: E.PhlounderStatus) -> str:
        head = f"Round {e.round} of {e.rounds}"
        if e.phase == "race":
            return f"{head}: {target_phrase(e.target)}; waiting for the bell."
        if e.phase == "reports":
            return f"{head}: {e.ringer} rang; waiting for {names(e.missing)}."
        if e.phase == "over":
            return "The game is over."
        return f"{head}: waiting for the roll."

    # ------------------------------------------------------------------ Dexikon
    def _StandingsReport(self, e: E.StandingsReport) -> str:
        return f"Scores: {standings_sentence(e.standings)}."

    def _DexikonStarted(self, e: E.DexikonStarted) -> str:
        if e.solo:
            return (f"Dexikon solo for {e.players[0]}: the game ends when you have banked {e.target} words "
                    f"or the pool runs out; your best {e.best} count.")
        return (f"Dexikon for {names(e.players)}: the game ends when someone has banked {e.target} words; "
                f"the best {e.best} count.")

    def _WordBanked(self, e: E.WordBanked) -> str:
        return f"{e.player} banks {e.word} for {points(e.points)}: {plural(e.count, 'word')} banked."

    def _WordSpent(self, e: E.WordSpent) -> str:
        if e.word is None:
            return f"{e.player} spends."
        return f"{e.player} spends {e.word}" + (f" for {points(e.points)}." if e.points is not None else ".")

    def _ConcedeAsked(self, e: E.ConcedeAsked) -> str:
        return f"{e.player}, do you concede {e.word}? Say concede, or check to look it up."

    def _ChallengeJoined(self, e: E.ChallengeJoined) -> str:
        return f"{e.challenger} joins the challenge of {e.word}."

    def _DexikonChallenged(self, e: E.DexikonChallenged) -> str:
        many = len(e.challengers) > 1
        if e.outcome == "conceded":
            text = f"{e.player} concedes {e.word}: no marks, no penalties."
        elif e.outcome == "stands":
            return (f"It's in the dictionary: {e.word} stands. {e.player} wins a bonus mark; {names(e.challengers)} "
                    + ("take a penalty card each." if many else "takes a penalty card."))
        else:
            why = WORD_REASONS.get(e.reason or "not_found", "it is not in the dictionary")
            text = (f"The challenge succeeds: {e.word} is void, {why}. {names(e.challengers)} "
                    + ("win a bonus mark each" if many else "wins a bonus mark") + f"; {e.player} takes a penalty card.")
        if e.retry:
            return text + f" {e.player}, try another word."
        return text + (f" No third try: {e.player} has no last word." if e.kind == "last"
                       else f" No third try: {e.player}'s turn ends.")

    def _LastWordsCalled(self, e: E.LastWordsCalled) -> str:
        if e.players:
            text = f"{names(e.players)} {'has' if len(e.players) == 1 else 'have'} banked {e.target} words: the game is over."
        else:
            text = "The pool deck ran out: the game is over."
        return text + " Last words: say 'last word', the word and its points."

    def _LastWordTaken(self, e: E.LastWordTaken) -> str:
        return f"{e.player}'s last word: {e.word} for {points(e.points)}."

    def _TallyNoted(self, e: E.TallyNoted) -> str:
        if e.kind == "penalty":
            return f"{e.player} takes {plural(e.count, 'penalty card')}: {e.now} in all."
        if e.kind == "returned":
            return f"{e.player} returns {plural(e.count, 'penalty card')}: {e.now} left."
        if e.kind == "bonus":
            return f"{e.player}: {points(e.count)} from N and P cards."
        return f"{e.player} sets aside {plural(e.count, 'penalty', 'penalties')}: {e.now} in all, a point each."

    def _FinalTurn(self, e: E.FinalTurn) -> str:
        return f"The pool deck is empty: this is {e.player}'s last turn."

    def _DexikonSheet(self, e: E.DexikonSheet) -> str:
        banked = f"best {e.best} of {len(e.banked)} banked words, {e.best_points}" if e.banked else "no banked words"
        last = f"last word {e.last[0]}, {e.last[1]}" if e.last else "no last word"
        if e.rounds:
            banked += " (" + ", ".join(f"round {r}: {w} {n}" for (w, n), r in zip(e.banked, e.rounds)) + ")"
        text = f"{e.player}: {banked}; {last}; bonus {e.bonus}"
        if e.penalties:
            text += f"; {plural(e.penalties, 'penalty card')}, minus {e.penalty_points}"
        return text + f"; total {e.total}."

    # ------------------------------------------------------------------ road game
    def _RoadStarted(self, e: E.RoadStarted) -> str:
        text = f"Road game for {names(e.players)}. Each player draws {plural(e.rack, 'tile')}."
        return text + (f" I'm counting the bag: {plural(e.bag, 'tile')} left." if e.bag is not None else "")

    def _RoadPlayed(self, e: E.RoadPlayed) -> str:
        said = names(f"{w} {n}" for w, n in e.words)
        text = f"{e.player} plays {said}: {points(e.points)}, {e.total} in all."
        return text + (f" {plural(e.bag, 'tile')} left in the bag." if e.bag else "")

    def _Mulliganed(self, e: E.Mulliganed) -> str:
        return f"{e.player} takes a mulligan."

    def _Passed(self, e: E.Passed) -> str:
        return f"{e.player} passes."

    def _BagEmptied(self, e: E.BagEmptied) -> str:
        return "The bag is empty: no more mulligans."

    # host-level sentences
    def did_you_say(self, options) -> str:
        return f"Did you say {' or '.join(options)}?"

    def taking_guess(self, word: str) -> str:
        return f"I'll take {word}."

    def say_again(self) -> str:
        return "Then please say it again, or spell it."

    def who_said(self, text: str) -> str:
        return f"Who said {text}?"

    def was_that(self, player: str) -> str:
        return f"Was that {player}?"

    def who_then(self, text: str) -> str:
        return f"Then who said {text}? Say it again with your name first."

    def nobody_claimed(self, text: str) -> str:
        return f"Nobody said who said {text}, so it doesn't count. Say your name first, like 'Ann, jewelers'."

    # voices and spellings (issue 10)
    def enroll_prompt(self, player: str) -> str:
        return f"{player}, so I know your voice, please say: I am {player}, and I am ready to play."

    def enrolled(self, player: str) -> str:
        return f"Thank you, {player}. I know your voice now."

    def not_enrolled(self, players: list[str]) -> str:
        return (f"I didn't hear {names(players)}, so say your name before your word, like "
                f"'{players[0]}, jewelers', until I know your voice.")

    def which_spelling(self, options: list[str]) -> str:
        """'knight with a K, or night?': the spelling with the extra letter named first."""
        a, b = options[:2]
        return f"{spelling_hint(a, b)}, or {b}?"

    def took_spelling(self, word: str) -> str:
        return f"{word}, spelled {' '.join(word.upper())}."

    def resuming(self, game: str, inputs: int) -> str:
        return f"Resuming {game} after {plural(inputs, 'logged input')}."

    def log_damaged(self, line: int, path: str, inputs: int, kept: str) -> str:
        return (f"Line {line} of {path} is damaged. I replayed the {plural(inputs, 'input')} before it, and play "
                f"continues from there; the original log is kept as {kept}.")

    def saved(self, path: str) -> str:
        return f"Stopped. The game is saved; to carry on, run: voice-host resume {path}"

    def not_saved(self) -> str:
        return "Stopped. This game had no log, so it can't be resumed; start with --log FILE to save one."

    def no_microphone(self, reason: str) -> str:
        return f"I can't hear the table ({reason}). Type instead, one line each, like 'Ann: jewelers'."

    def undone(self, what: str) -> str:
        return f"Undone: {what}."

    def help(self, extra: dict[str, str] | None = None, moves=("word", "challenge", "flip"),
             questions=("board", "scores", "turn", "words", "sheet")) -> str:
        """The phrases of the game being played: its moves, its questions, the host's own."""
        lines = []
        if "word" in moves or "final" in moves:
            lines.append("Say your word alone, or 'play' and the word.")
        if "final" in moves:
            lines.append("Say 'my word is' and the word to commit to it.")
        if "challenge" in moves:
            lines.append("Anyone may say 'challenge', or 'challenge' and a name.")
        if "flip" in moves:
            lines.append("Say 'timer' to flip the timer.")
        lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
        asked = [QUESTION_PHRASES[q] for q in questions if q in QUESTION_PHRASES]
        lines.append(f"Ask for {' or '.join([', '.join(asked[:-1]), asked[-1]]) if len(asked) > 1 else asked[0]} "
                     "at any time.")
        lines.append("Say 'repeat', 'spell it', 'undo', 'brief' or 'full', 'slower', 'faster', 'louder' or 'softer', "
                     "or 'help'.")
        return " ".join(lines)

    # ------------------------------------------------------------------ the host's own answers
    def confirm_interrupt(self, player: str, word: str, net: int) -> str:
        return f"{player}, interrupt with {word} for {points(net)}? Say yes or no."

    def taken_back(self, player: str, word: str) -> str:
        return f"{player} takes back {word}: nothing changes."

    def spelled(self, word: str | None) -> str:
        if not word:
            return "No word has been said yet."
        return f"{word}: " + ", ".join(c.upper() for c in word) + "."

    def verbosity(self, brief: bool) -> str:
        return ("Brief: I'll say the scores and whose turn; ask for the board when you want it." if brief
                else "Full: I'll read the board after every move.")

    def voice_adjusted(self, kind: str, level) -> str:
        if level is None:
            return "I'm only printing here, so there is no voice to change."
        if getattr(level, "at_limit", False):
            return {"slower": "That's as slow as I go.", "faster": "That's as fast as I go.",
                    "louder": "That's as loud as I go.", "softer": "That's as soft as I go."}[kind]
        return {"slower": "Slower.", "faster": "Faster.", "louder": "Louder.", "softer": "Softer."}[kind]


QUESTION_PHRASES = {
    "board": "'board'", "dice": "'dice'", "scores": "'scores'", "turn": "'whose turn'", "time": "'time left'",
    "words": "'words'", "sheet": "'sheet' (or 'sheet' and a name, or 'sheets')", "how": "'how did WORD score'",
    "bag": "'bag'", "interrupts": "'interrupts left'", "voided": "'voided words'", "marks": "'marks'",
    "reports": "'who owes a report'", "banked": "'banked'", "penalties": "'penalty count'",
}
"""How help names each question."""


_AN_LETTERS = set("AEFHILMNORSX")  # letter names that start with a vowel sound: "an L"


def spelling_hint(a: str, b: str) -> str:
    """How ``a`` differs from ``b`` said aloud: "knight with a K", "jewellers with two L's";
    spelled out when they differ by more than one added letter."""
    if len(a) == len(b) + 1:
        for i in range(len(a)):
            if a[:i] + a[i + 1:] == b:
                letter = a[i].upper()
                if a[i] in (a[i - 1: i] + a[i + 1: i + 2]):
                    return f"{a} with two {letter}'s"
                return f"{a} with {'an' if letter in _AN_LETTERS else 'a'} {letter}"
    return f"{a}, spelled {' '.join(a.upper())}"
