"""Everything a player (or the game's clock) can do, as one pydantic union discriminated on `type`.

Agents are named by colour or name and buildings by name (any case); the rules resolve them and answer a wrong one
with a rule code (`engine.errors.rule`), as they do for amounts.

- `ChooseHq(hq)`: variant set-up, choose your HQ (in seat order).
- `Bribe(amounts)`: agent → dollars, in $100 steps, from your capital, in secret. Main game: any number of agents
  (at least three in your first turn); variant: exactly one.
- `Move(agent, to, suitcase)`: announce a move along one street; `suitcase` takes the suitcase along.
- `Hit(agent, victim)`: announce that `agent` hits `victim` in the same building.
- `Object(limit)`: object to the announcement, with the most the bot may claim for you; given again, it changes the
  limit until your auction runs.
- `NoObjection()`: let the announcement pass (you may still object while the window is open).
- `DropObjection()`: an objector whose auction hasn't started yet drops out (the table sees that they did).
- `Contest(limit)` / `Withdraw()`: the active player's answer to the objector being taken.
- `EndTurn()`: main game, after a successful objection: end your turn instead of announcing something else.
- `Timeout(key)`: the system applies the default of the wait with this key (see `waits`); refused once stale.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChooseHq(_Action):
    type: Literal["choose_hq"] = "choose_hq"
    hq: str


class Bribe(_Action):
    type: Literal["bribe"] = "bribe"
    amounts: dict[str, int]


class Move(_Action):
    type: Literal["move"] = "move"
    agent: str
    to: str
    suitcase: bool = False


class Hit(_Action):
    type: Literal["hit"] = "hit"
    agent: str
    victim: str


class Object(_Action):
    type: Literal["object"] = "object"
    limit: int


class NoObjection(_Action):
    type: Literal["no_objection"] = "no_objection"


class DropObjection(_Action):
    type: Literal["drop_objection"] = "drop_objection"


class Contest(_Action):
    type: Literal["contest"] = "contest"
    limit: int


class Withdraw(_Action):
    type: Literal["withdraw"] = "withdraw"


class EndTurn(_Action):
    type: Literal["end_turn"] = "end_turn"


class Timeout(_Action):
    type: Literal["timeout"] = "timeout"
    key: str


Action = Annotated[
    ChooseHq | Bribe | Move | Hit | Object | NoObjection | DropObjection | Contest | Withdraw | EndTurn | Timeout,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)
