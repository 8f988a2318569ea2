"""Errors the shell says to the user."""


class UserError(Exception):
    """A problem the user can fix, said in one sentence."""


__all__ = ["UserError"]
