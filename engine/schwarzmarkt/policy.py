"""Schwarzmarkt's computer player and autopilot: one decision from the seat's own view and its legal moves.

The computer player (`autopilot=False`):
- trades a wanted card when the price now beats what it expects to get by waiting: the price when its turn comes
  round again (the others move the marker at least a space each), discounted by the chance that the others fill
  the offer first (their expected holdings of that kind, from the cards it can't see), and always at the last call;
  it doesn't trade its last card in the second game round while that would end the game with it behind;
- without a trade, drives the price up when it holds wanted cards (short of handing the last call to someone
  else; at `normal` only about half as far as that), and moves it 1 otherwise (the others then sell cheap);
- as starter, plays the card worth most to it: an offer for the goods it holds, or an event against the leader
  (Raid, Old Debt, Forced Swap and Espionage name the richest other player);
- picks: Quick Deal sells the card it is least likely to sell otherwise, New Goods Found takes what its own offer
  cards want, Raid names the kind the target most likely holds, Forced Swap gives its least useful cards.

The autopilot (`autopilot=True`) plays an absent seat safely: the deadline defaults (no trade, the marker 1; a card
played and event choices drawn at random with `rng`, offers preferred as the starter's card; Forced Swap gives one
card), except that at the last call it sells what the offer still wants — the round ends anyway, so that can only
gain.

Levels (the autopilot is the same at every level): easy and normal play the computer player above, each with its
own numbers (`engine.schwarzmarkt.tuning`: easy's are the player's first ones, normal's win more against them).
Hard plays normal too, except its trading turns (when to sell, how far to move the marker, what to do at the last
call): those it chooses by determinised look-ahead (`engine.schwarzmarkt.search`) — sampled deals of the cards it
cannot see, the rest of the trading round played out on each with the normal player's trading rule for every seat,
the best mean standing against the best other seat.

Reads only the `SeatView` and the legal list (never the state); deterministic for a given `rng`.
"""

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from engine.game import Game
from engine.levels import Level
from engine.schwarzmarkt import search
from engine.schwarzmarkt.actions import Give, Pick, Play, Target, Trade
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.tuning import EASY, NORMAL, Tuning
from engine.schwarzmarkt.views import SeatView

GOODS_TOTAL = 12
"""Cards of each kind in the basic game (the data file may differ; only a guess at the others' hands)."""


class SchwarzmarktPolicy:
    """See the module docstring."""

    def __init__(self, game: Game, *, level: Level = "normal") -> None:  # type: ignore[type-arg]
        self.game = game
        self.level: Level = level

    def decide(
        self,
        view: BaseModel,
        legal: Sequence[Any],
        seat: int,
        rng: random.Random,
        *,
        autopilot: bool = False,
    ) -> Any | None:
        if not legal or not isinstance(view, SeatView) or view.turn != seat:
            return None
        if autopilot:
            return _autopilot(view, legal, rng)
        tuning = EASY if self.level == "easy" else NORMAL
        return _Player(view, seat, rng, tuning, hard=self.level == "hard").decide(legal)


def _autopilot(view: SeatView, legal: Sequence[Any], rng: random.Random) -> Any:
    trades = [a for a in legal if isinstance(a, Trade)]
    if trades:
        if view.last_call:
            return max(trades, key=lambda t: (len(t.cards), rng.random()))
        return next(t for t in trades if not t.cards and t.move == 1)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        offers = {c.id for c in view.black_market if c.is_offer}
        return rng.choice([p for p in plays if p.card in offers] or plays)
    gives = [a for a in legal if isinstance(a, Give)]
    if gives:
        return rng.choice([g for g in gives if len(g.cards) == 1] or gives)
    return rng.choice(list(legal))


class _Player:
    """One decision of the computer player."""

    def __init__(self, view: SeatView, seat: int, rng: random.Random, tuning: Tuning, *, hard: bool = False) -> None:
        self.hard = hard
        self.tuning = tuning
        self.view = view
        self.seat = seat
        self.rng = rng
        self.others = [s for s in range(view.seats) if s != seat and s not in view.left]
        self.card_value = tuning.card_value if view.game_round == 1 else tuning.late_card_value

    def decide(self, legal: Sequence[Any]) -> Any:
        first = legal[0]
        if isinstance(first, Trade):
            return self._trade([a for a in legal if isinstance(a, Trade)])
        if isinstance(first, Play):
            return self._play([a for a in legal if isinstance(a, Play)])
        if isinstance(first, Target):
            return self._target([a for a in legal if isinstance(a, Target)])
        if isinstance(first, Pick):
            return self._pick([a for a in legal if isinstance(a, Pick)])
        if isinstance(first, Give):
            return self._give([a for a in legal if isinstance(a, Give)])
        return self.rng.choice(list(legal))

    # what it can guess about the others

    def leader(self, among: list[int]) -> int:
        """The richest of `among` (ties: the biggest hand, then at random)."""
        v = self.view
        return max(among, key=lambda s: (v.luxury[s], v.hand_sizes[s], self.rng.random()))

    def others_hold(self, kind: str) -> float:
        """The others' expected cards of `kind`: the cards it can't see, in the share the others' hands are of the
        unseen cards (the rest lie in the goods pile)."""
        v = self.view
        in_hands = sum(v.hand_sizes[s] for s in self.others)
        unseen = max(0, GOODS_TOTAL - v.goods[kind])
        total_unseen = in_hands + v.goods_pile
        return unseen * in_hands / total_unseen if total_unseen else 0.0

    def offers_want(self) -> dict[str, int]:
        """How many of each kind this seat's own offer cards want (what it can hope to sell later)."""
        wants = dict.fromkeys(GOODS, 0)
        for card in self.view.black_market:
            for kind, n in zip(GOODS, card.wants, strict=False):
                wants[kind] += n
        return wants

    # trading

    def _trade(self, trades: list[Trade]) -> Trade:
        v = self.view
        selling = [t for t in trades if t.cards]
        waiting = [t for t in trades if not t.cards]
        if self.hard:  # when to sell and how far to move: by look-ahead over sampled deals of the unseen cards
            return search.choose_trade(v, self.seat, trades, self.rng, self.card_value)
        if v.last_call:
            best = max(selling, key=lambda t: len(t.cards), default=None)
            return best if best is not None and self._may_empty(best) else waiting[0]
        keep = [t for t in selling if all(self._sell_now(k) for k in t.cards) and self._may_empty(t)]
        if keep:
            return max(keep, key=lambda t: (len(t.cards), self.rng.random()))
        return self._marker(waiting)

    def _sell_now(self, kind: str) -> bool:
        """The price now is at least what waiting a round of turns is expected to bring."""
        v = self.view
        still = v.offer.still.get(kind, 0) if v.offer is not None else 0
        if still == 0:
            return False
        later = v.marker + v.dice[v.marker - 1] + len(self.others)
        if later >= v.end_space:
            # The round reaches its end before this seat's next turn: the last call goes to someone else (most
            # likely), so waiting means keeping the card for another offer.
            expected_later = self.card_value
        else:
            filled = min(1.0, self.tuning.sell_chance * self.others_hold(kind) / still)
            expected_later = (1 - filled) * v.prices[later - 1] + filled * self.card_value
        return v.price >= expected_later

    def _may_empty(self, trade: Trade) -> bool:
        """Trading one's last card ends the game round; in the second that ends the game: only when ahead."""
        v = self.view
        if len(trade.cards) < sum(v.goods.values()) or v.game_round < 2:
            return True
        after = v.luxury[self.seat] + v.price * len(trade.cards)
        return after > max((v.luxury[s] for s in self.others), default=0)

    def _marker(self, waiting: list[Trade]) -> Trade:
        """No trade: up when holding wanted cards, at most as far as is safe (not to where the last call falls to
        another player before this seat's next turn; `Tuning.push` says how far), else 1."""
        v = self.view
        holding = v.offer is not None and any(v.goods.get(k, 0) for k in v.offer.still)
        if not holding:
            return min(waiting, key=lambda t: t.move)
        safe = [t for t in waiting if v.marker + t.move + len(self.others) < v.end_space]
        if not safe:
            return min(waiting, key=lambda t: t.move)
        move = self.tuning.push_move(max(t.move for t in safe))
        return next(t for t in safe if t.move == move)

    # the starter's card and the events

    def _play(self, plays: list[Play]) -> Play:
        cards = {c.id: c for c in self.view.black_market}

        def worth(play: Play) -> float:
            card = cards.get(play.card)
            if card is None:
                return 0.0
            if card.event is not None:
                return self.tuning.event_values.get(card.event, 0.0) if self._event_possible(card.event) else -1.0
            mine = 0.0
            theirs = 0.0
            for kind, n in zip(GOODS, card.wants, strict=False):
                mine += min(n, self.view.goods[kind])
                theirs += min(n, self.others_hold(kind))
            # Each card sold pays about a card's worth more than keeping it; the others' sales count against it.
            return self.card_value * (mine - theirs / max(1, len(self.others)))

        return max(plays, key=lambda p: (worth(p), self.rng.random()))

    def _event_possible(self, kind: str) -> bool:
        v = self.view
        mine = sum(v.goods.values())
        if kind in ("quick_deal", "forced_swap"):
            return mine > 0
        if kind == "new_goods":
            return v.luxury[self.seat] >= v.new_goods_cost and v.goods_pile > 0
        return True

    def _target(self, targets: list[Target]) -> Target:
        pending = self.view.event
        seats = [t.seat for t in targets]
        if pending is not None and pending.kind in ("old_debt", "forced_swap"):
            # Cards to take: the leader unless their hand is nearly empty.
            rich = [s for s in seats if self.view.hand_sizes[s] >= 2] or seats
            return Target(seat=self.leader(rich))
        return Target(seat=self.leader(seats))

    def _pick(self, picks: list[Pick]) -> Pick:
        v = self.view
        pending = v.event
        kinds = [p.good for p in picks]
        wants = self.offers_want()
        if pending is not None and pending.kind == "quick_deal":
            # Sell the card least likely to be sold otherwise: least wanted by its own offers, most plentiful.
            choice = min(kinds, key=lambda k: (wants[k], -v.goods[k], self.rng.random()))
        elif pending is not None and pending.kind == "new_goods":
            pile = v.pile_goods or {}
            choice = max(kinds, key=lambda k: (wants[k] - v.goods[k], pile.get(k, 0), self.rng.random()))
        else:  # Raid: the kind the target most likely holds many of
            choice = max(kinds, key=lambda k: (GOODS_TOTAL - v.goods[k], self.rng.random()))
        return Pick(good=choice)

    def _give(self, gives: list[Give]) -> Give:
        wants = self.offers_want()
        still = self.view.offer.still if self.view.offer is not None else {}

        def useful(give: Give) -> float:
            return sum(wants[k] + 2 * still.get(k, 0) for k in give.cards) / len(give.cards)

        return min(gives, key=lambda g: (useful(g), -len(g.cards), self.rng.random()))
