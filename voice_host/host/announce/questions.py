"""What the host says on its own, not about an event: the questions it asks while it
listens (who said that, which spelling), the help, its own answers (spell it, undo,
brief or full, its voice), and the game saved or resumed."""

from __future__ import annotations

from voice_host.host.announce.text import names, plural, points, side, title, word_reason


class HostSentences:
    """The host's own sentences (hearing, the session and the command line ask for them)."""

    # host-level sentences
    def did_you_say(self, options) -> str:
        return f"Did you say {' or '.join(options)}?"

    def taking_guess(self, word: str) -> str:
        return f"I'll take {word}."

    def put_right(self, player: str, word: str, taken: str) -> str:
        return f"Sorry, {player}: {word}, not {taken}."

    def spell_it(self, player: str, heard_again: str) -> str:
        return f"Sorry, {player}, I hear {heard_again} again. Spell it for me, please."

    def claimed(self, player: str, word: str, taken_from: str) -> str:
        return f"Sorry, {player}: {word} was yours, not {taken_from}'s."

    def missed_word(self, player: str) -> str:
        return f"{player}, I missed your word. Say it again, or spell it."

    def too_loud(self, own: bool = False) -> str:
        return f"It's loud here, and I'm missing words: {self._closer(own)}"

    def room_talks(self, own: bool = False) -> str:
        return f"I can hear other people talking, and I'm missing words: {self._closer(own)}"

    @staticmethod
    def _closer(own: bool) -> str:
        """What a player can do about it, at the table's one microphone or their own."""
        return ("hold your phone or microphone close as you speak; on a phone, holding its button to talk is surer."
                if own else "one at a time, please, and closer to the microphone.")

    def offer_phones(self) -> str:
        return ("It's too loud for me to hear you all from here. Your phones can be your microphones: stop the "
                "game, and resume it with phones.")

    def asking_again(self, player: str | None, question: str) -> str:
        """The open question, asked again after answering another."""
        if player is None or question.startswith(player):
            return question
        return f"{player}, {question[0].lower()}{question[1:]}"

    def one_moment(self, player: str, first: str) -> str:
        return f"One moment, {player}: {first}'s word first."

    def left_out_again(self, player: str) -> str:
        return f"I'll leave it out, {player}."

    def talked_over(self, player: str | None) -> str:
        return f"Sorry, {player}, I was talking. Say that again?" if player else "Sorry, I was talking. Say that again?"

    def say_again(self, player: str) -> str:
        return f"Then say it again, {player}, or spell it."

    def who_said(self, text: str) -> str:
        return f"Who said {text}?"

    def was_that(self, player: str) -> str:
        return f"Was that {player}?"

    def who_then(self, text: str) -> str:
        return f"Then who said {text}? Say it again with your name first."

    def nobody_claimed(self, text: str) -> str:
        return f"Nobody said who said {text}, so it doesn't count. Say your name first, like 'Ann, jewelers'."

    # voices and spellings: who spoke, and which spelling
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
        if not inputs:
            return f"Resuming {title(game)}: nothing was played yet."
        return f"Resuming {title(game)} after {plural(inputs, 'logged input')}."

    def log_damaged(self, lines: list[tuple[int, str | None]], path: str, inputs: int, kept: str) -> str:
        """``lines``: each damaged line's number and what it seems to have held (None: unreadable)."""
        which = [f"{n} ({what})" if what else str(n) for n, what, *_ in lines[:5]]
        if len(lines) > 5:
            which.append(f"{len(lines) - 5} more")
        one = len(lines) == 1
        return (f"{'Line' if one else 'Lines'} {names(which)} of {path} {'is' if one else 'are'} damaged, so I "
                f"skipped {'it' if one else 'them'} and replayed the other {plural(inputs, 'input')}; the original "
                f"log is kept as {kept}.")

    def meanings_after_damage(self, changed: list[tuple[str, str]]) -> str:
        """``changed``: (what was said, "interrupt" or "refused") for the inputs after a
        skipped line that now count as an interrupt or were refused."""
        parts = [f"{what} counts as an interrupt" if how == "interrupt" else f"{what} was refused"
                 for what, how in changed[:3]]
        more = f"; and {plural(len(changed) - 3, 'more input')} like these" if len(changed) > 3 else ""
        return "After the skipped line, " + "; ".join(parts) + more + "."

    def saved(self, path: str) -> str:
        return f"Stopped. The game is saved; to carry on, run: voice-host resume {path}"

    def saving(self, path: str) -> str:
        return f"This game is saved as it goes, in {path}."

    def cannot_save(self, path: str, reason: str) -> str:
        return (f"I can't save this game in {path} any more ({reason}); the game goes on, but a resume would "
                "start from before this point.")

    def saved_until(self, path: str) -> str:
        return (f"Stopped. The game was saved only until saving failed; to carry on from there, run: "
                f"voice-host resume {path}")

    def not_saved(self) -> str:
        return "Stopped. This game had no log, so it can't be resumed; start with --log FILE to save one."

    def phones_join(self, url: str, code: str) -> str:
        return f"To use your phone as your microphone, open {url} and enter the code {' '.join(code)}."

    def phone_refused(self, why: str, player: str | None = None, wait: float | None = None) -> str:
        """What a phone's page says when the host turns it away: ``why`` is "code",
        "locked" (this phone tried too many wrong codes), "guessing" (the whole network
        did), "name", "rate", "taken" (``player`` has a phone), "waiting" (too many
        sockets not joined), "unreadable" (no join message) or "freed" (the table freed
        the seat); ``wait``: seconds before trying again is any use."""
        return {
            "code": "That is not the join code: it is the six digits the host said aloud when the game began, "
                    "printed in the host's terminal on the laptop (the scoreboard never shows it); if nobody has "
                    "it, say 'new code' and the host says a fresh one.",
            "locked": f"Too many wrong codes from this phone; try again {within(wait or 0)}.",
            "guessing": "Too many wrong codes are being tried on this network, so I can't check yours now; "
                        f"try again {within(wait or 0)}.",
            "name": "Pick your name from the list.",
            "rate": "This browser's microphone rate is not one I can hear.",
            "taken": f"{player} is already connected from another device.",
            "waiting": "This phone has too many connections waiting to join; close the other tabs and try again.",
            "unreadable": "This page could not join; reload it and try again.",
            "freed": "The table disconnected this phone; join again with the code if you are to play on it.",
        }[why]

    def phone_guessing(self) -> str:
        return ("Someone on the network keeps trying wrong join codes; I'm holding them back. "
                "Say 'new code' if you want a fresh one.")

    def phones_typed(self) -> str:
        return ("With phones, the players' words are heard; type a line with its player's name first, like "
                "'Ann: jewelers', or 'new code' or 'free Ann's phone' to manage the phones.")

    def phones_new_code(self, code: str) -> str:
        return f"The new join code is {' '.join(code)}; the old one no longer works."

    def only_the_table(self, new_code: bool) -> str:
        """A phone asked what only the table may ask (a new code, another player's seat)."""
        what = "ask for a new code" if new_code else "free another player's phone"
        return f"Only the table can {what}: say it at the laptop or type it there. Say 'free my phone' to free your own."

    def phone_freed(self, player: str, was: bool) -> str:
        if was:
            return f"{player}'s phone is disconnected; {player} can join again from any phone with the code."
        return f"{player} has no phone connected; {player} can join from any phone with the code."

    def phone(self, happened: str, player: str, table_microphone: bool) -> str:
        """A player's phone ``happened``: "joined" or "lost"."""
        if happened == "joined":
            return f"{player}, I'm listening on your phone."
        if table_microphone:
            return f"{player}, I lost your phone; I'll listen on the table's microphone."
        return f"{player}, I lost your phone; open the page again to rejoin."

    def no_microphone(self, reason: str) -> str:
        reason = reason.split(";")[0].strip()  # what the listening layer adds ("play by typing instead") is said below
        if reason.startswith("no audio input device"):
            reason = "there is no microphone"
        return f"I can't hear the table: {reason}. Type instead, one line each, like 'Ann: jewelers'."

    def undone(self, what: str) -> str:
        return f"Undone: {what}."

    @staticmethod
    def directive(name: str, args) -> str:
        """A table's directive as the table would say it ("the tiles drawn, M and N")."""
        said = names(list(args))
        return {"draw": f"the tiles drawn, {said}", "board": f"the board {' '.join(args)}",
                "start": f"{said} as the start player", "dice": f"the dice {' '.join(args)}"}.get(
            name, "@" + " ".join([name, *args]))

    def help(self, extra: dict[str, str] | None = None, moves=("word", "challenge", "flip"),
             questions=("board", "scores", "turn", "words", "sheet"), saved: str | None = None,
             heard: bool = False) -> str:
        """The phrases of the game being played: its moves, its questions, the host's own;
        ``saved``: the log the game is kept in; ``heard``: the words are heard, and may
        be heard wrong."""
        lines = []
        if "final" in moves:  # solo: a word said is tried on the board; "my word is" commits
            lines.append("Say a word alone, or 'play' and the word, to try it: I say what it would score. Say 'my "
                         "word is' and the word to commit to it; if time runs out first, your last try counts.")
        elif "word" in moves:
            lines.append("Say your word alone, or 'play' and the word.")
        if heard and "word" in moves:
            lines.append("If I take your word wrong, say 'no' and the word, or spell it; if I give it to someone "
                         "else, say 'that was me'.")
        if "challenge" in moves:
            lines.append("Anyone may say 'challenge', or 'challenge' and a name.")
        if "flip" in moves:
            lines.append("Say 'timer' to flip the timer.")
        lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
        asked = [QUESTION_PHRASES[q] for q in questions if q in QUESTION_PHRASES]
        lines.append(f"Ask for {' or '.join([', '.join(asked[:-1]), asked[-1]]) if len(asked) > 1 else asked[0]} "
                     "at any time.")
        lines.append("Say 'repeat', 'spell it', 'undo', 'be brief' or 'more detail', 'speak slower', 'speak faster', "
                     "'speak louder' or 'speak softer', or 'help'.")
        if saved:
            lines.append(f"This game is saved in {saved}; Ctrl-C stops it, and voice-host resume {saved} carries on.")
        return " ".join(lines)

    # ------------------------------------------------------------------ the host's own answers
    def confirm_interrupt(self, player: str, word: str, net: int) -> str:
        return f"{player}, interrupt with {word} for {points(net)}? Say yes or no."

    def taken_back(self, player: str, word: str) -> str:
        return f"{player} takes back {word}: nothing changes."

    def confirm_undo(self, owner: str, asker: str, what: str) -> str:
        return f"{owner}, {asker} asks to undo your '{what}'. Say yes or no."

    # ------------------------------------------------------------------ questions the host words itself
    def leader(self, standings) -> str:
        """"Who's winning": the leader named, then the rest, best first."""
        if not standings:
            return "Nobody has scored yet."
        best = max(r.total for r in standings)
        leaders = [r.player for r in standings if r.total == best]
        if len(leaders) == len(standings):
            return f"It's level: {'everyone has' if len(leaders) > 1 else names(leaders) + ' has'} {points(best)}."
        rest = sorted((r for r in standings if r.total != best), key=lambda r: -r.total)
        lead = f"{names(leaders)} {'leads' if len(leaders) == 1 else 'lead'} with {points(best)}"
        return f"{lead}; then " + "; ".join(f"{side(r.player)} {r.total}" for r in rest) + "."

    def rounds_left(self, round_: int, rounds: int) -> str:
        left = rounds - round_
        if left <= 0:
            return f"Round {round_} of {rounds}: this is the last round."
        return f"Round {round_} of {rounds}: {plural(left, 'more round')} after this one."

    def my_turn(self, player: str, turn) -> str:
        """"Is it my turn": yes or no, and whose it is."""
        if turn.player is None:
            return f"No, {player}: " + ("the game is over." if turn.over else "the game hasn't begun.")
        if turn.player == player:
            return f"Yes, {player}, it's your turn."
        return f"No, {player}: it's {turn.player}'s turn."

    def next_player(self, turn) -> str:
        """"Who's next": whose turn it is now, and who plays after."""
        if turn.player is None:
            return "Nobody: the game is over." if turn.over else "Nobody yet: the game hasn't begun."
        if turn.then is None or turn.then == turn.player:
            return f"{turn.player} now."
        return f"{turn.player} now, then {turn.then}."

    def word_checked(self, word: str, reason: str | None, value: int | None) -> str:
        """"Is zax a word": the dictionary's answer, and what it is worth on the board."""
        if reason is not None:
            return f"No, {word} can't be played: {word_reason(reason)}."
        worth = f", worth {points(value)} on this board" if value is not None else ""
        return f"Yes, {word} is a word{worth}."

    def take_your_time(self) -> str:
        return "Take your time."

    def kept(self, owner: str, what: str) -> str:
        return f"{owner} says no: '{what}' stays."

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


def within(seconds: float) -> str:
    """"in 7 seconds", "in a minute", "in 3 minutes": when to try again."""
    seconds = max(1, round(seconds))
    if seconds < 50:
        return f"in {seconds} second{'s' if seconds != 1 else ''}"
    minutes = max(1, round(seconds / 60))
    return "in a minute" if minutes == 1 else f"in {minutes} minutes"


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
