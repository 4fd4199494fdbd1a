"""Shared helpers for the Schwarzmarkt tests: a game, a clock, hands laid out by hand (cards conserved), and short
ways to play moves."""

from datetime import UTC, datetime, timedelta
from typing import Any

from engine.events import Event
from engine.schwarzmarkt.actions import Play, Trade
from engine.schwarzmarkt.market import GOODS, counts_of
from engine.schwarzmarkt.rules import Schwarzmarkt
from engine.schwarzmarkt.state import SchwarzmarktState

GAME = Schwarzmarkt()
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def new_game(seats: int = 4, dealer: int | None = 3, seed: int = 1, **options: Any) -> SchwarzmarktState:
    """A game whose dealer is the last seat by default, so seat 0 starts."""
    return GAME.setup(seats, GAME.parse_options({"dealer": dealer, **options}), seed, T0)


def hand(*cards: str) -> list[int]:
    """("coffee", "coffee", "sugar") or ("2 coffee", "sugar") as counts per kind."""
    out: list[str] = []
    for c in cards:
        n, _, kind = c.partition(" ")
        out += [kind] * int(n) if kind else [c]
    return counts_of(out)


def arrange(state: SchwarzmarktState, hands: dict[int, list[int]] | None = None, **kw: Any) -> SchwarzmarktState:
    """A copy whose goods hands are laid out by hand: cards move between the hands and the pile, so all 60 are kept.

    Other fields (`luxury=[…]`, `marker=…`) are set as given."""
    state = state.model_copy(deep=True)
    for seat in hands or {}:
        for k in range(len(GOODS)):
            state.goods_pile[k] += state.goods[seat][k]
            state.goods[seat][k] = 0
    for seat, counts in (hands or {}).items():
        for k, n in enumerate(counts):
            assert state.goods_pile[k] >= n, "not enough cards of that kind in the game"
            state.goods_pile[k] -= n
            state.goods[seat][k] = n
    for key, value in kw.items():
        setattr(state, key, value)
    return state


def card_id(state: SchwarzmarktState, event: str | None = None, wants: list[int] | None = None) -> int:
    """The id of the (first) card that is this event, or this offer."""
    for c in state.cards:
        if (event is not None and c.event == event) or (
            wants is not None and c.event is None and list(c.wants) == wants
        ):
            return c.id
    raise LookupError(event or wants)


def give_card(state: SchwarzmarktState, seat: int, card: int) -> SchwarzmarktState:
    """A copy where `seat` holds black-market `card` (swapped with one of theirs, wherever that card was)."""
    state = state.model_copy(deep=True)
    if card in state.black_market[seat]:
        return state
    mine = state.black_market[seat][0]
    for h in state.black_market:
        if card in h:
            h[h.index(card)] = mine
            break
    else:
        state.black_pile[state.black_pile.index(card)] = mine
    state.black_market[seat][0] = card
    return state


def play(state: SchwarzmarktState, *moves: tuple[int | None, Any], now: datetime = T0) -> SchwarzmarktState:
    """Apply (actor, action) pairs in order; any refusal fails the test."""
    for actor, action in moves:
        state = GAME.apply(state, actor, action, now).state
    return state


def events_of(state: SchwarzmarktState, actor: int | None, action: Any, now: datetime = T0) -> list[Event]:
    return GAME.apply(state, actor, action, now).events


def open_offer(state: SchwarzmarktState, wants: list[int]) -> SchwarzmarktState:
    """The starter plays the offer wanting `wants` (given to them first)."""
    card = card_id(state, wants=wants)
    state = give_card(state, state.starter, card)
    return play(state, (state.starter, Play(card=card)))


def play_event(state: SchwarzmarktState, event: str) -> SchwarzmarktState:
    card = card_id(state, event=event)
    state = give_card(state, state.starter, card)
    return play(state, (state.starter, Play(card=card)))


def pass_turn(state: SchwarzmarktState, move: int = 1) -> SchwarzmarktState:
    return play(state, (state.turn, Trade(cards=(), move=move)))


def later(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def total_cards(state: SchwarzmarktState) -> tuple[int, int]:
    goods = sum(map(sum, state.goods)) + sum(state.goods_pile)
    black = sum(map(len, state.black_market)) + len(state.black_pile) + len(state.in_force)
    black += (state.offer is not None) + (state.pending is not None)
    return goods, black
