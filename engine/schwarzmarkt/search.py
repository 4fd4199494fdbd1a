"""The hard computer player's trading turn in Schwarzmarkt: determinised look-ahead over the hands it cannot see.

For each trading turn it may take now (sell some still-wanted cards and move the marker 1, sell none and move it 1
up to the die, or at the last call sell or not), it plays the rest of the trading round on sampled deals of the
unseen goods and keeps the turn with the best mean score: every candidate on `FIRST` deals, the best `KEEP` of them
on all `SAMPLES` (successive halving: a five-kind offer can give 30 candidates).

- A deal is consistent with the seat's view: every goods card not in its own hand (`GOODS_TOTAL` of a kind less its
  own) is dealt at random, with the seeded generator, into the others' hands (their public sizes) and the pile;
  only the kinds the offer still wants are dealt, the only ones a rollout looks at. (The view has no history, so
  cards seen traded earlier are not placed in the pile: a simplification.)
  Every candidate is played on the same deals (common random numbers), so they are compared on equal luck.
- The rollout policy is the normal player's own trading rule (`rollout_turn`, the rule of `policy._Player._trade`
  with the `tuning.NORMAL` numbers, on plain lists): every seat, this one included, follows it on its dealt hand
  after the candidate turn. Against normal players that is a model of what the table will really do.
- The score is what decides the game: the seat's luxury plus what its kept cards are worth (`card_value` each), less
  the same of the best other seat. A trade that empties a hand ends the game round: in the first, every hand is
  refilled (kept cards no longer count); in the second the game is over, kept cards are worth nothing and the seat
  gets `WIN_BONUS` for a win (a shared one: nothing) and loses as much for a loss.

The rollout works on a few lists of ints (no pydantic state, no rules engine): a decision of the hard player costs
about 1.6 ms of CPU at the median and 10 ms at the 99th percentile (3 seats), with a fixed number of deals (no
clock). Only the seat's view and the seeded generator are read, never the state.
"""

import random
from collections.abc import Sequence

from engine.schwarzmarkt.actions import Trade
from engine.schwarzmarkt.market import GOODS, INDEX
from engine.schwarzmarkt.tuning import NORMAL
from engine.schwarzmarkt.views import SeatView

SAMPLES = 40
"""Sampled deals per decision: enough to rank a handful of candidates, within the time a decision may take."""
GOODS_TOTAL = 12
"""Cards of each kind in the basic game (the data file may differ; only a guess at the unseen cards)."""
SELL_CHANCE = NORMAL.sell_chance
"""The normal player's guess of how likely a holder sells before its next turn."""
FIRST = 12
"""Deals every candidate is played on before the weaker ones are dropped."""
KEEP = 5
"""Candidates played on every deal."""
WIN_BONUS = 100.0
"""What winning is worth on top of the final margin when a rollout ends the game, and losing costs: more than any
margin a game still under way may be scored at, so it ends the game when that wins and never when it loses."""
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
        self.others = len(self.playing) - 1
        still = view.offer.still if view.offer is not None else {}
        self.kinds = [k for k in range(KINDS) if still.get(GOODS[k], 0)]


def deal(table: Table, rng: random.Random) -> list[list[int]]:
    """One deal of the unseen goods into the others' hands (their public sizes), the rest in the pile. Only the
    kinds the offer still wants are dealt (the rollout looks at no other; a hand's size is tracked apart): each such
    unseen card falls into a place left in a hand or the pile, drawn without replacement."""
    hands = [[0] * KINDS for _ in range(table.seats)]
    hands[table.seat] = list(table.mine)
    room = [table.sizes[s] if s != table.seat else 0 for s in range(table.seats)] + [table.pile]
    left = sum(room)
    for k in table.kinds:
        for _ in range(max(0, GOODS_TOTAL - table.mine[k])):
            if left <= 0:
                break
            at = int(rng.random() * left)
            where = 0
            while at >= room[where]:
                at -= room[where]
                where += 1
            room[where] -= 1
            left -= 1
            if where < table.seats:
                hands[where][k] += 1
    return hands


class Round:
    """The rest of one trading round on one deal: the marker, what the offer still wants, hands and luxury."""

    __slots__ = (
        "emptied",
        "hands",
        "in_hands",
        "kinds",
        "last",
        "luxury",
        "marker",
        "over",
        "pile",
        "sizes",
        "spoiled",
        "still",
    )

    def __init__(self, table: Table, view: SeatView, hands: list[list[int]]) -> None:
        self.marker = view.marker
        still = view.offer.still if view.offer is not None else {}
        self.still = [still.get(k, 0) for k in GOODS]
        self.kinds = [k for k in range(KINDS) if self.still[k]]
        """The kinds the offer still wants (the only ones a rollout looks at)."""
        self.hands = [list(h) for h in hands]
        self.sizes = list(table.sizes)
        """Hand sizes (public; a dealt hand holds only the wanted kinds)."""
        self.in_hands = sum(self.sizes)
        self.pile = table.pile
        self.luxury = list(table.luxury)
        self.spoiled = table.spoiled
        self.last = view.last_call
        self.over = False
        self.emptied = -1
        """The seat whose trade emptied its hand (the game round ended), or -1."""

    def turn(self, table: Table, s: int, sell: Sequence[int] | None, move: int) -> None:
        """Seat `s` sells `sell` (counts per kind, None: nothing) and moves the marker `move` (as `trading.trade`)."""
        if sell is not None:
            n = sum(sell)
            price = table.prices[self.marker - 1]
            paid = price * n
            if self.spoiled:
                paid -= price - price // 2
                self.spoiled = False
            hand = self.hands[s]
            for k in self.kinds:
                if sell[k]:
                    hand[k] -= sell[k]
                    self.still[k] -= sell[k]
            self.sizes[s] -= n
            self.in_hands -= n
            self.pile += n
            self.luxury[s] += paid
            if self.sizes[s] == 0:
                self.over, self.emptied = True, s
                return
            if not any(self.still):
                self.over = True
                return
        if self.last:
            self.over = True
            return
        self.marker += move
        if self.marker >= table.end:
            self.last = True


def rollout_turn(table: Table, r: Round, s: int) -> tuple[list[int] | None, int]:
    """The normal player's trading turn for seat `s` on its dealt hand (see `policy._Player._trade`): at the last
    call sell everything wanted; else sell the kinds whose price now beats waiting a round of turns; else drive the
    price up (as `tuning.NORMAL.push` says, within what is safe) while holding wanted cards, or move it 1. None: no
    trade."""
    hand = r.hands[s]
    still = r.still
    wanted: list[int] | None = None
    for k in r.kinds:
        if hand[k] and still[k]:
            if wanted is None:
                wanted = [0] * KINDS
            wanted[k] = min(hand[k], still[k])
    if wanted is None:
        return None, 0 if r.last else 1
    others = table.others
    if r.last:
        sell = _shorten(table, wanted)
        return (sell, 0) if _may_empty(table, r, s, sell) else (None, 0)
    marker = r.marker
    price = table.prices[marker - 1]
    later = marker + table.dice[marker - 1] + others
    sell = None
    if later >= table.end:
        if price >= table.card_value:
            sell = wanted
    else:
        in_hands = r.in_hands - r.sizes[s]
        unseen_total = in_hands + r.pile
        share = in_hands / unseen_total if unseen_total else 0.0
        later_price = table.prices[later - 1]
        cv = table.card_value
        for k in r.kinds:
            if not wanted[k]:
                continue
            held = max(0, GOODS_TOTAL - hand[k]) * share
            filled = min(1.0, SELL_CHANCE * held / still[k])
            if price >= (1 - filled) * later_price + filled * cv:
                if sell is None:
                    sell = [0] * KINDS
                sell[k] = wanted[k]
    if sell is not None:
        sell = _shorten(table, sell)
        if _may_empty(table, r, s, sell):
            return sell, 1
    die = min(table.dice[marker - 1], table.end - marker)
    best = 1
    for m in range(1, die + 1):
        if marker + m + others < table.end:
            best = m
    return None, NORMAL.push_move(best)


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
    if not table.last_round or sum(sell) < r.sizes[s]:
        return True
    after = r.luxury[s] + table.prices[r.marker - 1] * sum(sell)
    return after > max((r.luxury[o] for o in table.playing if o != s), default=0)


def score(table: Table, r: Round) -> float:
    """The seat's standing after the rollout: its worth less the best other seat's (see the module docstring)."""
    me = table.seat
    if r.emptied >= 0 and table.last_round:
        best = max(r.luxury[o] for o in table.playing if o != me)
        mine = r.luxury[me]
        win = 1.0 if mine > best else -1.0 if mine < best else 0.0
        return mine - best + WIN_BONUS * win
    value = 0.0 if r.emptied >= 0 else table.card_value
    return r.luxury[me] + value * r.sizes[me] - max(r.luxury[o] + value * r.sizes[o] for o in table.playing if o != me)


def play_out(table: Table, view: SeatView, hands: list[list[int]], first: list[int] | None, move: int) -> float:
    """The trading round after this seat's turn (`first` sold, the marker moved `move`), every seat then following
    `rollout_turn`: the score."""
    r = Round(table, view, hands)
    r.turn(table, table.seat, first, move)
    order = table.order
    while not r.over:
        for s in order:
            sell, step = rollout_turn(table, r, s)
            r.turn(table, s, sell, step)
            if r.over:
                break
    return score(table, r)


def _counts(cards: Sequence[str]) -> list[int]:
    out = [0] * KINDS
    for c in cards:
        out[INDEX[c]] += 1
    return out


def choose_trade(view: SeatView, seat: int, trades: Sequence[Trade], rng: random.Random, card_value: float) -> Trade:
    """The trading turn with the best mean score over `SAMPLES` sampled deals (ties: the seeded generator). Successive
    halving: every candidate is played on the first `FIRST` deals, the best `KEEP` on the rest too."""
    if len(trades) == 1:
        return trades[0]
    table = Table(view, seat, card_value)
    deals = [deal(table, rng) for _ in range(SAMPLES)]
    turns = [(t, _counts(t.cards) if t.cards else None) for t in trades]
    totals = [0.0] * len(turns)
    for i, (trade, sell) in enumerate(turns):
        totals[i] = sum(play_out(table, view, hands, sell, trade.move) for hands in deals[:FIRST]) + rng.random() * 1e-6
    ranked = sorted(range(len(turns)), key=lambda i: -totals[i])[:KEEP]
    for i in ranked:
        trade, sell = turns[i]
        totals[i] += sum(play_out(table, view, hands, sell, trade.move) for hands in deals[FIRST:])
    return turns[max(ranked, key=lambda i: totals[i])][0]
