"""The hard computer player's trading turn in Schwarzmarkt: determinised look-ahead over the hands it cannot see.

For each trade it may make now (sell some wanted cards and move the marker 1, or sell none and move it 1 up to the
die), it plays the rest of the trading round many times on sampled deals of the unseen cards — each deal consistent
with its own view: every goods card not in its hand is dealt at random into the others' hands (their public sizes)
and the pile — with every seat, itself included, following the simple rule of `_continue`: sell the wanted cards
once the price is worth a kept card, otherwise drive the price while holding wanted cards, else move it 1. The same
deals are used for every option (common random numbers), so options are compared on equal luck.

A trade is scored by its own luxury gain, plus what its unsold cards are worth kept (`card_value` each), less the
others' mean gain (the richest wins: their sales count against it). Only the seat's view and the seeded generator
are read; the game's state never.
"""

import random
from dataclasses import dataclass

from engine.schwarzmarkt.actions import Trade
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.views import SeatView

SAMPLES = 16
"""Sampled deals per decision: enough to rank a handful of options, within the time a decision may take."""
GOODS_TOTAL = 12


@dataclass
class _Round:
    """The little of a trading round the look-ahead plays on."""

    marker: int
    still: dict[str, int]
    hands: list[dict[str, int]]
    gains: list[float]


def choose(view: SeatView, seat: int, trades: list[Trade], rng: random.Random, card_value: float) -> Trade:
    """The trade with the best mean score over sampled deals (see the module docstring)."""
    others = [s for s in range(view.seats) if s != seat and s not in view.left]
    deals = [_deal(view, seat, others, rng) for _ in range(SAMPLES)]
    best, best_score = trades[0], float("-inf")
    for trade in trades:
        score = sum(_play(view, seat, others, trade, hands, card_value) for hands in deals) / len(deals)
        score += rng.random() * 1e-6  # ties broken by the seeded generator, never by the list's order alone
        if score > best_score:
            best, best_score = trade, score
    return best


def _deal(view: SeatView, seat: int, others: list[int], rng: random.Random) -> list[dict[str, int]]:
    """One deal of the unseen goods into the others' hands, consistent with the seat's view."""
    unseen = [k for k in GOODS for _ in range(max(0, GOODS_TOTAL - view.goods.get(k, 0)))]
    rng.shuffle(unseen)
    hands: list[dict[str, int]] = [dict.fromkeys(GOODS, 0) for _ in range(view.seats)]
    hands[seat] = {k: view.goods.get(k, 0) for k in GOODS}
    at = 0
    for s in others:
        for k in unseen[at : at + view.hand_sizes[s]]:
            hands[s][k] += 1
        at += view.hand_sizes[s]
    return hands


def _play(
    view: SeatView, seat: int, others: list[int], trade: Trade, dealt: list[dict[str, int]], card_value: float
) -> float:
    """The rest of the trading round after `trade`, on one deal: the seat's score."""
    still = dict(view.offer.still) if view.offer is not None else {}
    r = _Round(marker=view.marker, still=still, hands=[dict(h) for h in dealt], gains=[0.0] * view.seats)
    _sell(view, r, seat, list(trade.cards), view.price)
    r.marker = min(view.end_space, r.marker + trade.move)
    order = [s for s in [*range(seat + 1, view.seats), *range(seat + 1)] if s == seat or s in others]
    turn = 0
    while sum(r.still.values()) > 0:
        s = order[turn % len(order)]
        turn += 1
        last = r.marker >= view.end_space
        _continue(view, r, s, card_value, last, len(order) - 1)
        if last:
            break
    kept = sum(min(n, 3) for n in r.hands[seat].values())  # a kept card is worth something only if sold later
    theirs = sum(r.gains[s] for s in others) / max(1, len(others))
    return r.gains[seat] + card_value * kept / 3 - theirs


def _sell(view: SeatView, r: _Round, s: int, cards: list[str], price: int) -> None:
    for k in cards:
        if r.still.get(k, 0) > 0 and r.hands[s].get(k, 0) > 0:
            r.still[k] -= 1
            r.hands[s][k] -= 1
            r.gains[s] += price


def _continue(view: SeatView, r: _Round, s: int, card_value: float, last: bool, others: int) -> None:
    """One turn of the simple rule every seat follows in the look-ahead."""
    price = view.prices[r.marker - 1]
    wanted = [k for k in GOODS for _ in range(min(r.hands[s].get(k, 0), r.still.get(k, 0)))]
    if "shortage" in view.in_force:
        wanted = wanted[:1]
    if wanted and (last or price >= card_value):
        _sell(view, r, s, wanted, price)
        r.marker = min(view.end_space, r.marker + (0 if last else 1))
        return
    if last:
        return
    die = view.dice[r.marker - 1]
    if wanted:
        safe = [m for m in range(1, die + 1) if r.marker + m + others < view.end_space]
        r.marker = min(view.end_space, r.marker + (max(safe) if safe else 1))
    else:
        r.marker = min(view.end_space, r.marker + 1)
