"""The one exception the rules raise: a player's input the game cannot take."""

from __future__ import annotations


class Refusal(Exception):
    """An input the rules refuse. The game state is left exactly as it was.

    ``code`` names the reason; ``params`` carry what the announcer needs to say it
    (the announcer, not the rules, owns every sentence).
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


class Unplayable(ValueError):
    """A game that cannot be set up as asked (the number of players, the teams, the
    variant): ``code`` and ``params`` as for a Refusal; the host says it before the game."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params
