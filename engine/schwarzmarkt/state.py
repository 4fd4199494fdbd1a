"""The whole state of a Schwarzmarkt game: one pydantic model, JSON round-trippable, random generator included.

Goods cards of one kind are alike, so a hand and the goods pile are counts per kind (in `market.GOODS` order); the
pile is shuffled before every draw anyway (the refill; New Goods Found is a free pick), so its order never matters.
Black-market cards are ids into `cards` (copied from the data file at set-up); the black-market pile is a list, top
first, and a card "under the pile" is appended.

Phases: `play` (the starter must play a black-market card) → `trade` (a trading round: `turn` trades and moves the
marker) or `event` (an event's chooser makes its choices, `step` says which) → `play` for the next starter … →
`over` after the second game round.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from engine.rng import Rng
from engine.schwarzmarkt.market import Card, EventKind, Space
from engine.schwarzmarkt.options import SchwarzmarktOptions

Phase = Literal["play", "trade", "event", "over"]
Step = Literal["target", "pick", "give"]


class Pending(BaseModel):
    """An event being carried out: its card, who chooses, and what is still to choose."""

    card: int
    kind: EventKind
    chooser: int
    step: Step
    target: int | None = None


class SchwarzmarktState(BaseModel):
    options: SchwarzmarktOptions
    seats: int
    track: list[Space]
    limit_space: int
    hand_size: int
    black_market_hand: int
    goods_counts: list[int]
    """The goods deck by kind as set up (copied from the data file, so a replay deals the same)."""
    quick_deal: int
    new_goods_cost: int
    cards: list[Card]

    phase: Phase = "play"
    game_round: int = 1
    starter: int
    """The seat that plays (or played) this trading round's black-market card."""
    turn: int
    """The seat to act: the starter in `play`, the trader in `trade`, the chooser in `event`."""

    goods: list[list[int]]
    """Each seat's goods hand, as counts per kind."""
    goods_pile: list[int]
    black_market: list[list[int]]
    """Each seat's black-market cards (ids)."""
    black_pile: list[int]
    """The black-market pile, top first."""
    luxury: list[int]

    offer: int | None = None
    """The offer card of the trading round under way."""
    wanted: list[int] = Field(default_factory=lambda: [0, 0, 0, 0, 0])
    """What the offer still wants, per kind."""
    marker: int = 1
    """The price marker's space, 1-based."""
    end_space: int = 14
    last_call: bool = False
    """The marker stands on the round's last space: the player to act trades without moving, then the round ends."""
    in_force: list[int] = Field(default_factory=list)
    """Face-up events for the next (or current) trading round: Shortage, Limit, Spoiled Goods."""
    spoiled_paid: bool = False
    """Spoiled Goods has halved the first card of this trading round already."""
    pending: Pending | None = None

    left: list[int] = Field(default_factory=list)
    """Seats whose player left mid-game: skipped from then on, with no cards."""
    wait_no: int = 0
    """Bumped whenever the game starts waiting afresh; part of every deadline's key, so old timers go stale."""
    since: datetime
    trading_rounds: int = 0
    """Trading rounds opened so far (the cards played, events included): numbers the prompts."""
    rng: Rng

    def playing(self, seat: int) -> bool:
        return seat not in self.left

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise (to the left) that is still playing."""
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if nxt not in self.left:
                return nxt
        return seat

    def price(self) -> int:
        return self.track[self.marker - 1].price

    def die(self) -> int:
        return self.track[self.marker - 1].die

    def hand_count(self, seat: int) -> int:
        return sum(self.goods[seat])

    def force(self, kind: EventKind) -> bool:
        return any(self.cards[c].event == kind for c in self.in_force)


def clone(state: SchwarzmarktState) -> SchwarzmarktState:
    """An exact deep copy, much faster than pydantic's: the shared parts (options, track, cards) are immutable."""
    data = state.__dict__.copy()
    data["goods"] = [list(h) for h in state.goods]
    data["goods_pile"] = list(state.goods_pile)
    data["black_market"] = [list(h) for h in state.black_market]
    data["black_pile"] = list(state.black_pile)
    data["luxury"] = list(state.luxury)
    data["wanted"] = list(state.wanted)
    data["in_force"] = list(state.in_force)
    data["left"] = list(state.left)
    data["pending"] = None if state.pending is None else state.pending.model_copy()
    data["rng"] = Rng(state=state.rng.state)
    # `track`, `cards` and `goods_counts` are never changed in place (frozen models, set-up data): shared safely.
    return SchwarzmarktState.model_construct(_fields_set=state.model_fields_set, **data)
