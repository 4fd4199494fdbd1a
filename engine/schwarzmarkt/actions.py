"""Everything a player (or the game's clock) can do, as one pydantic union discriminated on `type`.

Goods are named by kind ("coffee"); amounts and targets are checked by the rules, not by the models, so a wrong one
gets a player-friendly `RuleError` rather than a validation error.

- `Play(card)`: as the starter, play one of your black-market cards (its id).
- `Trade(cards, move)`: your trading turn — the goods you trade (a list of kinds, e.g. ["coffee", "coffee"]; empty
  for none) and how far you move the price marker (1 after a trade; 1 up to the die symbol without; 0 at the last
  call).
- `Target(seat)`: an event's "a player" (Espionage, Forced Swap, Raid, Old Debt).
- `Pick(good)`: an event's kind of goods (Quick Deal's card, Raid's kind, New Goods Found's card from the pile).
- `Give(cards)`: Forced Swap's 1 or 2 goods cards to give.
- `Timeout(key)`: the system applies the default of the wait with this key (see `waits`); refused once stale.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_Action):
    type: Literal["play"] = "play"
    card: int


class Trade(_Action):
    type: Literal["trade"] = "trade"
    cards: tuple[str, ...] = ()
    move: int


class Target(_Action):
    type: Literal["target"] = "target"
    seat: int


class Pick(_Action):
    type: Literal["pick"] = "pick"
    good: str


class Give(_Action):
    type: Literal["give"] = "give"
    cards: tuple[str, ...]


class Timeout(_Action):
    type: Literal["timeout"] = "timeout"
    key: str


Action = Annotated[Play | Trade | Target | Pick | Give | Timeout, Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
