"""Everything a player (or the game's clock) can do, as one pydantic union discriminated on `type`.

Numbers (tubers, totals) and squares are checked by the rules, not by the models, so a wrong one gets a
player-friendly `RuleError` rather than a validation error.

- `Place(square)`: put your pawn on a free field at set-up ("b2", any case).
- `Challenge(opponent)`: as the player to move, start a duel with another seat.
- `Choose(tubers)`: close your fist on 0, 1 or 2 tubers (secret until the reveal).
- `Guess(total)`: guess the total in both fists, 0–4; the challenged player must say a different number.
- `Plant`, `Move(direction)`, `Evict`, `Reclaim`: the actions of the duel's right guesser.
- `Done`: end your actions. Only allowed when none of them is legal — the rules make you take them all.
  (The game already ends a turn by itself when no action is left, so this only answers a stale button.)
- `Timeout(key)`: the system applies the default of the wait with this key (see `waits.py`); refused when
  the wait is no longer current.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from engine.kesse_ruegen.geometry import Direction


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Place(_Action):
    type: Literal["place"] = "place"
    square: str


class Challenge(_Action):
    type: Literal["challenge"] = "challenge"
    opponent: int


class Choose(_Action):
    type: Literal["choose"] = "choose"
    tubers: int


class Guess(_Action):
    type: Literal["guess"] = "guess"
    total: int


class Plant(_Action):
    type: Literal["plant"] = "plant"


class Move(_Action):
    type: Literal["move"] = "move"
    direction: Direction

    @field_validator("direction", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class Evict(_Action):
    type: Literal["evict"] = "evict"


class Reclaim(_Action):
    type: Literal["reclaim"] = "reclaim"


class Done(_Action):
    type: Literal["done"] = "done"


class Timeout(_Action):
    type: Literal["timeout"] = "timeout"
    key: str


Action = Annotated[
    Place | Challenge | Choose | Guess | Plant | Move | Evict | Reclaim | Done | Timeout,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)

FieldAction = Plant | Move | Evict | Reclaim
"""The actions a right guesser takes."""
