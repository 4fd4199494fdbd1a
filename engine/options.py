"""Options every game shares: how long a turn and a reaction window may take.

Each game's own options model subclasses `GameOptions`. Durations are timedeltas (JSON: ISO 8601 durations).
"""

from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field


class GameOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    """Each field's docstring is its description, shown to players (`/game rules` lists a game's own options)."""

    turn_deadline: timedelta = Field(default=timedelta(hours=24), gt=timedelta(0))
    """How long the game waits for a player's move before applying the default."""
    reaction_time: timedelta = Field(default=timedelta(minutes=10), gt=timedelta(0))
    """How long a reaction window (a STOP, a last call) stays open."""
