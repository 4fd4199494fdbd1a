"""Options every game shares: how long a turn and a reaction window may take; and the mark of an option that names a
player.

Reaction windows come in kinds (a Casablanca objection, a KKK STOP window, a last call…), and each game declares the
default length of each kind it opens (`Game.reaction_windows`, from its `waits.WINDOWS`), sized for people who look
in every few hours. `reaction_time` is the table's override: not set (the default), each kind of window is open for
its game's own length; set, every reaction window of the table is open that long, whatever its kind. One number for
all kinds keeps a table's choice simple ("we play live: 15 minutes") and the rule easy to state; a table that wants
the per-kind lengths just leaves it unset. `window_length` applies this rule, and the engine alone decides deadlines.

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
    reaction_time: timedelta | None = Field(default=None, gt=timedelta(0))
    """How long every reaction window (a STOP, a last call, an objection) stays open; not set: each kind of window
    its game's own default length."""

    def window_length(self, default: timedelta) -> timedelta:
        """The length of a reaction window whose kind's default is `default`: the table's `reaction_time` if set."""
        return self.reaction_time if self.reaction_time is not None else default

    away: Literal["pause", "autopilot"] = "pause"
    """What the table does while a player is away for days: `pause` stops the clocks of their turns (for at most the
    bot's AWAY_MAX_DAYS in this game), `autopilot` plays safe moves for them until they return. Either way reaction
    windows pass for them. The engine never reads it: the platform's clock does."""
