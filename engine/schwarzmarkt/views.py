"""What a seat (or the public table) may know: the only way a Schwarzmarkt state leaves the engine.

Public: the price track and marker, the offer and what it still wants, the face-up events, whose turn it is and the
event choice awaited, every luxury total (every trade is public anyway), every hand's size, the pile sizes. Secret:
the goods hands and black-market hands (each only in its owner's view), and the goods pile's contents (shown only to
the player choosing from it for New Goods Found).
"""

from pydantic import BaseModel, ConfigDict

from engine.schwarzmarkt.market import GOODS, Card, EventKind
from engine.schwarzmarkt.state import Phase, SchwarzmarktState, Step


class OfferView(BaseModel):
    model_config = ConfigDict(frozen=True)

    card: int
    wants: dict[str, int]
    still: dict[str, int]
    """What the offer still wants (kinds with none left are left out)."""


class EventView(BaseModel):
    """An event being carried out: who chooses what (never the choice's hidden consequences)."""

    model_config = ConfigDict(frozen=True)

    kind: EventKind
    chooser: int
    step: Step
    target: int | None


class PublicView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seats: int
    game_round: int
    phase: Phase
    starter: int
    turn: int
    prices: tuple[int, ...]
    dice: tuple[int, ...]
    marker: int
    price: int
    end_space: int
    limit_space: int
    last_call: bool
    offer: OfferView | None
    in_force: tuple[EventKind, ...]
    spoiled_paid: bool
    event: EventView | None
    luxury: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    black_market_sizes: tuple[int, ...]
    goods_pile: int
    black_pile: int
    left: tuple[int, ...]
    trading_rounds: int
    quick_deal: int
    new_goods_cost: int


class SeatView(PublicView):
    seat: int
    goods: dict[str, int]
    """This seat's goods hand by kind (every kind listed, 0 included)."""
    black_market: tuple[Card, ...]
    pile_goods: dict[str, int] | None
    """The goods pile by kind, only while this seat chooses a card from it (New Goods Found)."""


def _counts(counts: list[int] | tuple[int, ...], keep_zero: bool) -> dict[str, int]:
    return {g: n for g, n in zip(GOODS, counts, strict=True) if n or keep_zero}


def _public_fields(state: SchwarzmarktState) -> dict[str, object]:
    offer = None
    if state.offer is not None:
        card = state.cards[state.offer]
        offer = OfferView(card=card.id, wants=_counts(card.wants, False), still=_counts(state.wanted, False))
    p = state.pending
    return {
        "seats": state.seats,
        "game_round": state.game_round,
        "phase": state.phase,
        "starter": state.starter,
        "turn": state.turn,
        "prices": tuple(s.price for s in state.track),
        "dice": tuple(s.die for s in state.track),
        "marker": state.marker,
        "price": state.price(),
        "end_space": state.end_space if state.phase == "trade" else _next_end(state),
        "limit_space": state.limit_space,
        "last_call": state.last_call,
        "offer": offer,
        "in_force": tuple(state.cards[c].event for c in state.in_force),
        "spoiled_paid": state.spoiled_paid,
        "event": None if p is None else EventView(kind=p.kind, chooser=p.chooser, step=p.step, target=p.target),
        "luxury": tuple(state.luxury),
        "hand_sizes": tuple(sum(h) for h in state.goods),
        "black_market_sizes": tuple(len(h) for h in state.black_market),
        "goods_pile": sum(state.goods_pile),
        "black_pile": len(state.black_pile),
        "left": tuple(state.left),
        "trading_rounds": state.trading_rounds,
        "quick_deal": state.quick_deal,
        "new_goods_cost": state.new_goods_cost,
    }


def _next_end(state: SchwarzmarktState) -> int:
    """Where the next trading round will end: Limit's space while it is face up, else the last."""
    return state.limit_space if state.force("limit") else len(state.track)


def public_view(state: SchwarzmarktState) -> PublicView:
    return PublicView(**_public_fields(state))  # type: ignore[arg-type]


def seat_view(state: SchwarzmarktState, seat: int) -> SeatView:
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in this {state.seats}-player game")
    p = state.pending
    choosing_pile = p is not None and p.kind == "new_goods" and p.chooser == seat and state.phase == "event"
    return SeatView(
        **_public_fields(state),  # type: ignore[arg-type]
        seat=seat,
        goods=_counts(state.goods[seat], True),
        black_market=tuple(sorted((state.cards[c] for c in state.black_market[seat]), key=lambda c: c.id)),
        pile_goods=_counts(state.goods_pile, True) if choosing_pile else None,
    )
