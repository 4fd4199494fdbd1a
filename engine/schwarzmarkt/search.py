"""The hard computer player's trading turn in Schwarzmarkt: determinised look-ahead over the hands it cannot see.

For each trading turn it may take now (sell some still-wanted cards and move the marker 1, sell none and move it 1
up to the die, or at the last call sell or not), it plays the rest of the trading round on `SAMPLES` sampled deals
of the unseen goods and keeps the turn with the best mean score.

- A deal is consistent with the seat's view: every goods card not in its own hand (`GOODS_TOTAL` of a kind less its
  own) is dealt at random, with the seeded generator, into the others' hands (their public sizes) and the pile.
  Every candidate is played on the same deals (common random numbers), so they are compared on equal luck.
- The rollout policy is the normal player's own trading rule (`rollout_turn`, the rule of `policy._Player._trade`
  on plain lists): every seat, this one included, follows it on its dealt hand after the candidate turn. Against
  normal players that is a model of what the table will really do.
- The score is what decides the game: the seat's luxury plus what its kept cards are worth (`card_value` each), less
  the same of the best other seat. A trade that empties a hand ends the game round: in the first, every hand is
  refilled (kept cards no longer count); in the second the game is over, kept cards are worth nothing and the seat
  gets `WIN_BONUS` times its share of the win.

The rollout works on a few lists of ints (no pydantic state, no rules engine): a decision costs about a millisecond
per candidate. Only the seat's view and the seeded generator are read, never the state.
"""

import random
from collections.abc import Sequence

from engine.schwarzmarkt.actions import Trade
from engine.schwarzmarkt.market import GOODS, INDEX
from engine.schwarzmarkt.views import SeatView

SAMPLES = 24
"""Sampled deals per decision: enough to rank a handful of candidates, within the time a decision may take."""
GOODS_TOTAL = 12
"""Cards of each kind in the basic game (the data file may differ; only a guess at the unseen cards)."""
SELL_CHANCE = 0.5
"""The normal player's guess of how likely a holder sells before its next turn (as `policy.SELL_CHANCE`)."""
WIN_BONUS = 40.0
"""What winning is worth on top of the final margin, when a rollout ends the game."""
KINDS = len(GOODS)


class Table:
    """The public facts a rollout needs, read once from the view."""

    def __init__(self, view: SeatView, seat: int, card_value: float) -> None:
        self.seat = seat
        self.seats = view.seats
        self.prices = view.prices
        self.dice = view.dice
        self.end = view.end_space
        self.shortage = "shortage" in view.in_force
        self.spoiled = "spoiled_goods" in view.in_force and not view.spoiled_paid
        self.last_round = view.game_round >= 2
        self.card_value = card_value
        self.luxury = list(view.luxury)
        self.playing = [s for s in range(view.seats) if s not in view.left]
        self.pile = view.goods_pile
        self.mine = [view.goods.get(k, 0) for k in GOODS]
        self.sizes = list(view.hand_sizes)
        # The seats in turn order after this one, this one last.
        order = [(seat + i) % view.seats for i in range(1, view.seats + 1)]
        self.order = [s for s in order if s in self.playing]


def deal(table: Table, rng: random.Random) -> list[list[int]]:
    """One deal of the unseen goods into the others' hands (their public sizes), the rest in the pile."""
    unseen = [k for k in range(KINDS) for _ in range(max(0, GOODS_TOTAL - table.mine[k]))]
    rng.shuffle(unseen)
    hands = [[0] * KINDS for _ in range(table.seats)]
    hands[table.seat] = list(table.mine)
    at = 0
    for s in table.order:
        if s == table.seat:
            continue
        for k in unseen[at : at + table.sizes[s]]:
            hands[s][k] += 1
        at += table.sizes[s]
    return hands


class Round:
    """The rest of one trading round on one deal: the marker, what the offer still wants, hands and luxury."""

    __slots__ = ("emptied", "hands", "last", "luxury", "marker", "over", "spoiled", "still")

    def __init__(self, table: Table, view: SeatView, hands: list[list[int]]) -> None:
        self.marker = view.marker
        still = view.offer.still if view.offer is not None else {}
        self.still = [still.get(k, 0) for k in GOODS]
        self.hands = [list(h) for h in hands]
        self.luxury = list(table.luxury)
        self.spoiled = table.spoiled
        self.last = view.last_call
        self.over = False
        self.emptied = -1
        """The seat whose trade emptied its hand (the game round ended), or -1."""

    def turn(self, table: Table, s: int, sell: Sequence[int], move: int) -> None:
        """Seat `s` sells `sell` (counts per kind) and moves the marker `move` (as `trading.trade`)."""
        n = sum(sell)
        if n:
            price = table.prices[self.marker - 1]
            paid = price * n
            if self.spoiled:
                paid -= price - price // 2
                self.spoiled = False
            hand = self.hands[s]
            for k in range(KINDS):
                if sell[k]:
                    hand[k] -= sell[k]
                    self.still[k] -= sell[k]
            self.luxury[s] += paid
            if sum(hand) == 0:
                self.over, self.emptied = True, s
                return
            if sum(self.still) == 0:
                self.over = True
                return
        if self.last:
            self.over = True
            return
        self.marker += move
        if self.marker >= table.end:
            self.last = True


NOTHING = (0,) * KINDS


def rollout_turn(table: Table, r: Round, s: int, pile: int) -> tuple[Sequence[int], int]:
    """The normal player's trading turn for seat `s` on its dealt hand (see `policy._Player._trade`): at the last
    call sell everything wanted; else sell the kinds whose price now beats waiting a round of turns; else drive the
    price up as far as is safe while holding wanted cards, or move it 1."""
    hand = r.hands[s]
    wanted = [min(hand[k], r.still[k]) for k in range(KINDS)]
    others = len(table.playing) - 1
    if r.last:
        sell = _shorten(table, wanted)
        return (sell, 0) if _may_empty(table, r, s, sell) else (NOTHING, 0)
    price = table.prices[r.marker - 1]
    later = r.marker + table.dice[r.marker - 1] + others
    sell = [0] * KINDS
    if any(wanted):
        in_hands = sum(sum(h) for i, h in enumerate(r.hands) if i != s)
        unseen_total = in_hands + pile
        for k in range(KINDS):
            if not wanted[k]:
                continue
            if later >= table.end:
                expected = table.card_value
            else:
                unseen = max(0, GOODS_TOTAL - hand[k])
                held = unseen * in_hands / unseen_total if unseen_total else 0.0
                filled = min(1.0, SELL_CHANCE * held / r.still[k])
                expected = (1 - filled) * table.prices[later - 1] + filled * table.card_value
            if price >= expected:
                sell[k] = wanted[k]
        sell = _shorten(table, sell)
        if any(sell) and _may_empty(table, r, s, sell):
            return sell, 1
    die = min(table.dice[r.marker - 1], table.end - r.marker)
    if any(wanted):
        safe = [m for m in range(1, die + 1) if r.marker + m + others < table.end]
        return NOTHING, max(safe) if safe else 1
    return NOTHING, 1


def _shorten(table: Table, sell: list[int]) -> list[int]:
    """Shortage: one card a turn (the first kind)."""
    if not table.shortage or sum(sell) <= 1:
        return sell
    k = next(k for k in range(KINDS) if sell[k])
    out = [0] * KINDS
    out[k] = 1
    return out


def _may_empty(table: Table, r: Round, s: int, sell: Sequence[int]) -> bool:
    """The normal player's guard: in the second game round it trades its last card only when that wins."""
    if not table.last_round or sum(sell) < sum(r.hands[s]):
        return True
    after = r.luxury[s] + table.prices[r.marker - 1] * sum(sell)
    return after > max((r.luxury[o] for o in table.playing if o != s), default=0)


def score(table: Table, r: Round) -> float:
    """The seat's standing after the rollout: its worth less the best other seat's (see the module docstring)."""
    me = table.seat
    if r.emptied >= 0 and table.last_round:
        best = max(r.luxury[o] for o in table.playing if o != me)
        mine = r.luxury[me]
        win = 1.0 if mine > best else 0.0 if mine < best else 0.5
        return mine - best + WIN_BONUS * win
    value = 0.0 if r.emptied >= 0 else table.card_value

    def worth(s: int) -> float:
        return r.luxury[s] + value * sum(r.hands[s])

    return worth(me) - max(worth(o) for o in table.playing if o != me)


def play_out(table: Table, view: SeatView, hands: list[list[int]], first: Trade) -> float:
    """The trading round after this seat's turn `first`, every seat then following `rollout_turn`: the score."""
    r = Round(table, view, hands)
    r.turn(table, table.seat, _counts(first.cards), first.move)
    pile = table.pile
    guard = 0
    while not r.over and guard < 64:
        for s in table.order:
            sell, move = rollout_turn(table, r, s, pile)
            r.turn(table, s, sell, move)
            pile += sum(sell)
            if r.over:
                break
        guard += 1
    return score(table, r)


def _counts(cards: Sequence[str]) -> list[int]:
    out = [0] * KINDS
    for c in cards:
        out[INDEX[c]] += 1
    return out


def choose_trade(view: SeatView, seat: int, trades: Sequence[Trade], rng: random.Random, card_value: float) -> Trade:
    """The trading turn with the best mean score over `SAMPLES` sampled deals (ties: the seeded generator)."""
    table = Table(view, seat, card_value)
    deals = [deal(table, rng) for _ in range(SAMPLES)]
    best, best_score = trades[0], float("-inf")
    for trade in trades:
        total = sum(play_out(table, view, hands, trade) for hands in deals) / len(deals)
        total += rng.random() * 1e-6
        if total > best_score:
            best, best_score = trade, total
    return best
