"""Casablanca's options: which game (main or HQ variant), who begins the main game, and how the variant's HQs are
given out.

`variant=hq` is the rulebook's variant for 2–4 players (each player owns an HQ); its seat limits are checked at
set-up (`rules.Casablanca.setup`). `first_seat` is a `PlayerOption`: the creator names a player and the bot turns that
person into their seat at the start.
"""

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from engine.options import GameOptions, PlayerOption


class Variant(StrEnum):
    """Which of the rulebook's two games (an enum so that `/game rules` names the kind of value, not "Literal")."""

    main = "main"
    hq = "hq"


class CasablancaOptions(GameOptions):
    variant: Variant = Field(
        default=Variant.main,
        description="`main`: the main game for 2–8 players; `hq`: the variant for 2–4 players, each owning an HQ",
    )
    first_seat: Annotated[int | None, PlayerOption("first player")] = Field(
        default=None,
        ge=0,
        description="Main game only: who begins (not set: drawn at random); in the variant the Police Station begins",
    )
    deal_hqs: bool = Field(
        default=False,
        description="Variant only: deal the HQs at random instead of letting each player choose one in seat order",
    )
