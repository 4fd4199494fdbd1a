"""The one error type a game raises when an action breaks a rule.

Its message is written for the player who tried: short, friendly, naming the fix, and never revealing anything
secret. Seats are referred to with `engine.text.seat(n)` so the bot can put display names in.
"""


class RuleError(Exception):
    """An action that the rules refuse. The state it was applied to is untouched."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DataFileError(Exception):
    """A game's data file is missing or invalid; the message names the file and the field."""
