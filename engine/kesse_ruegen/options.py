"""Kesse Rügen's options: the shared deadlines, and who begins.

`first_seat` is a seat (0-based, in the final seat order). It is a `PlayerOption`: at `/game new` the creator names
a player (a @mention, `me`, or a join number), and the bot turns that person into their seat when the game starts,
after any shuffle of the seat order — so the person chosen is the person who begins.
"""

from typing import Annotated

from pydantic import Field

from engine.options import GameOptions, PlayerOption


class KesseRuegenOptions(GameOptions):
    first_seat: Annotated[int | None, PlayerOption("first player")] = Field(
        default=None,
        ge=0,
        description=(
            "Who places the first pawn and makes the first challenge (the rulebook: the oldest player); "
            "not set: drawn at random"
        ),
    )
