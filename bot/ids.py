"""Ids that arrive in people's input: a button's custom id, a command option, an autocomplete value, a mention.

Every id the bot keeps — a game's number, a Discord snowflake — is a positive signed 64-bit integer (what SQLite's
INTEGER holds, `storage.models.ID_MAX`). Input can carry any number: Discord's own client sends back what the bot
gave it, but an API client can forge a custom id or an option (`br:99999999999999999999:join`, `br:-1:join`,
`<@123456789012345678901234>`). `game_id` is the one gate for a game's number from input: an id that cannot exist
is refused as not found (`GameNotFound`, so each caller's "that game isn't there" answer applies), never handed to
the store. `fits` says whether any id can exist.
"""

from storage import GameNotFound
from storage.models import ID_MAX

NUMBER = r"-?\d{1,40}"
"""What a custom id's template accepts where an id stands: any sign and length within reason, so that a forged id
still reaches its handler and is answered (a template that doesn't match leaves the click unanswered)."""


def fits(value: int) -> bool:
    """Whether `value` can be an id at all (1 … 2⁶³−1)."""
    return 0 < value <= ID_MAX


def game_id(value: int) -> int:
    """`value` as a game's number, or `GameNotFound` when no game can have it."""
    if not fits(value):
        raise GameNotFound(f"there is no game {value}")
    return value
