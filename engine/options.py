"""Options every game shares: how long a turn and a reaction window may take; and the mark of an option that names a
player.

Each game's own options model subclasses `GameOptions`. Durations are timedeltas (JSON: ISO 8601 durations).

`PlayerOption` marks an option whose value is a seat (0-based, in the game's final seat order), e.g. who begins:
`first_seat: Annotated[int | None, PlayerOption("first player")] = None`. The engine only ever sees the seat. People
opening a game don't know the seats yet (the order may be shuffled at the start), so a platform lets them name a
player instead and puts that player's seat into the options when the game starts (see `bot.game_options`).
"""

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class PlayerOption:
    """Metadata of an option field whose value is a seat, chosen by naming a player (see the module docstring)."""

    label: str
    """What the chosen player is, for people ("first player")."""


class GameOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    """Each field's docstring is its description, shown to players (`/game rules` lists a game's own options)."""

    turn_deadline: timedelta = Field(default=timedelta(hours=24), gt=timedelta(0))
    """How long the game waits for a player's move before applying the default."""
    reaction_time: timedelta = Field(default=timedelta(minutes=10), gt=timedelta(0))
    """How long a reaction window (a STOP, a last call) stays open."""
    away: Literal["pause", "autopilot"] = "pause"
    """What the table does while a player is away for days: `pause` stops the clocks of their turns (for at most the
    bot's AWAY_MAX_DAYS in this game), `autopilot` plays safe moves for them until they return. Either way reaction
    windows pass for them. The engine never reads it: the platform's clock does."""
