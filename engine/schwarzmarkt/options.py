"""Schwarzmarkt's options: the shared deadlines, the deadline of a trading turn, and the dealer.

A trading round is many short turns in a row, so it has its own deadline (`trade_hours`, default 12 hours) beside
the shared `turn_deadline`, which times the starter's card and the events' choices. `dealer` is a `PlayerOption`
(named as a player at `/game new`, turned into a seat at the start); the player to the dealer's left starts.
"""

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from engine.options import GameOptions, PlayerOption


class SchwarzmarktOptions(GameOptions):
    trade_hours: float = Field(
        default=12,
        gt=0,
        le=24 * 14,
        description="Hours a player has for each trading turn (trade and move the price marker)",
    )
    dealer: Annotated[int | None, PlayerOption("dealer")] = Field(
        default=None,
        ge=0,
        description="The dealer: the player to their left starts the first trading round; not set: drawn at random",
    )

    @property
    def trade_deadline(self) -> timedelta:
        return timedelta(hours=self.trade_hours)
