"""Kohle, Kies & Knete's computer player and autopilot (`engine.policy.Policy`), from a seat's own view only.

Prices are counted in shares of the deal: a space with n investors pays n + 1 dividends, so one dividend is a fair
share for each card and one for the Boss who brings the deal together (`_share`). The computer player:

- opens the deal on the marker's space when it can hope to cover it (its own investors and clan cards are free,
  an investor another player owns costs about a share, a family nobody at the table can bring makes it hopeless)
  and keeps at least two shares; otherwise it rolls (then draws);
- as the Boss: closes as soon as it can, plays its own clan cards for what is missing, offers a share to a player
  who can bring a missing card, shakes on offers within its budget (it keeps at least a share), counters dearer ones
  once and otherwise turns them down, and fails the round when a missing family has no possible source (a game
  never waits a whole deadline on it);
- as anyone else: offers its investors and played clan cards that the Boss lacks at a share (two when it is the only
  one who can bring that family), plays a clan card the Boss needs and nobody else can bring, shakes on offers of a
  fair share or more (any share without a card is free money), counters a lower one once, then turns it down;
- plays STOP when the card stopped would cost it: a travel on a card it sells or uses, a recruitment of its investor,
  a Boss card that takes away its round or reopens its agreements;
- plays a Boss card when taking the round over would pay it at least half the deal, a recruitment triple whenever
  it can (an investor is worth a share in every deal of its family), and a travel card on a rival's deal about to
  close when it earns nothing from that deal and the card sent away has no stand-in;
- when over 12 cards, recruits if it can, otherwise discards its least useful cards.

A decision counts earlier offers between the same two players about the same card (the round's offers stay in the
view with their status), so two computer players never haggle for ever.

Autopilot (`autopilot=True`): an absent player's seat kept safe, yet moving the game towards its end (the game ends
only after concluded deals: an autopilot that only rolled and drew would keep a table of absent players going for
ever). It passes in every reaction window and last call (no STOP, Boss or travel card: nothing from its hand is
spent on others), places the marker at random and discards its least useful cards when over 12, like the deadline
defaults. On its turn it opens a deal it can hope to cover keeping two shares (as the computer player), else rolls
then draws. As the Boss it bargains like the computer player, who never makes or takes an agreement leaving it less
than a share; it closes when it can and fails a hopeless deal. As anyone else it answers offers made to it (a fair
share or more: shake; less: one counter at its asking price, then no) and offers only its own investors that the
Boss lacks at its asking price: an investor stays its owner's, so any payment is a gain. It never plays a clan card
for someone else's deal.

Levels (`level`, the computer player only; the autopilot is the same at every level): easy is the computer player
as it was before levels; normal also asks, as a seller, what the Boss can bear (`bearable`: a share to two, from
what is left of the payout once the Boss keeps a share, over the cards still missing); hard also opens a deal only
when it expects to keep `HARD_MARGIN` shares, and rolls or draws otherwise.
"""

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from engine.game import Game
from engine.kkk import actions as A
from engine.kkk.cards import BOSS, HAND_LIMIT, JOKER, RECRUIT, RECRUIT_TRIPLE, STOP
from engine.kkk.views import OfferView, PlayerView, RoundView
from engine.levels import Level

MAX_TRIES = 3
"""Offers between the same two players about the same card in one round before the computer player stops trying."""


HARD_MARGIN = 3.0
"""Hard: the shares of the deal it must expect to keep before it opens one (normal: 2, 1.5 after a roll). Opening
only the richer deals and rolling or drawing otherwise beat normal head-to-head (1 vs 3, 120 games: 1.0 shares 16 %,
2.5 shares 37 %, 3 shares 47 %): a thin deal spends the turn, and the seller's cards pay the others."""

CARD_VALUE = {STOP: 6.0, BOSS: 7.0, RECRUIT: 3.0, JOKER: 3.5}
"""How much a card in hand is worth keeping (clan cards 4, family travel cards 2; see `_card_value`)."""


class KkkPolicy:
    """See the module docstring."""

    def __init__(self, game: Game | None = None, *, level: Level = "normal") -> None:  # type: ignore[type-arg]
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
        if not legal:
            return None
        assert isinstance(view, PlayerView)
        me = _Seat(view, seat, list(legal), rng, "easy" if autopilot else self.level)
        return me.autopilot() if autopilot else me.play()


def _card_value(code: str, hand: list[str]) -> float:
    if code.startswith("clan:"):
        return 4.0
    if code.startswith("travel:") and code != JOKER:
        return 2.0
    value = CARD_VALUE.get(code, 1.0)
    if code == RECRUIT and hand.count(RECRUIT) < RECRUIT_TRIPLE - 1:
        value -= 1.0  # far from a triple
    return value


class _Seat:
    """One decision: the seat's view, its legal moves, and helpers that read the view."""

    def __init__(
        self, view: PlayerView, seat: int, legal: list[Any], rng: random.Random, level: Level = "easy"
    ) -> None:
        self.view = view
        self.level = level
        self.me = seat
        self.legal = legal
        self.rng = rng
        self.hand = view.hand
        self.owner = {i.family: i.owner for i in view.investors}
        self.r: RoundView | None = view.round

    # --- helpers ------------------------------------------------------------------------------------------------

    def find(self, kind: type, **match: Any) -> Any | None:
        """The first legal action of `kind` whose fields equal `match`."""
        for a in self.legal:
            if isinstance(a, kind) and all(getattr(a, k) == v for k, v in match.items()):
                return a
        return None

    def serves(self, s: int, f: str) -> bool:
        """Seat `s` has a card of `f` on the table for this round (an investor not on travel, or a played clan)."""
        r = self.r
        assert r is not None
        return (self.owner.get(f) == s and f not in r.travel) or f in r.clans[s]

    def share(self) -> int:
        """One fair share of the open deal: one dividend."""
        assert self.r is not None
        return max(1, self.r.dividend_value)

    def needs(self) -> tuple[list[str], list[str], int]:
        """What the Boss lacks: required families, group families without a card, and how many more of the group."""
        r = self.r
        assert r is not None
        required = [q.family for q in r.requirements if q.block == "required" and not q.sources]
        group = [q for q in r.requirements if q.block == "group"]
        have = sum(1 for q in group if q.sources)
        return required, [q.family for q in group if not q.sources], max(0, r.group_k - have)

    def tries(self, seller: int, f: str | None) -> int:
        assert self.r is not None
        return sum(1 for o in self.r.offers if o.seller == seller and o.family == f and o.boss == self.r.boss)

    def live(self, seller: int | None = None, f: str | None = None) -> list[OfferView]:
        assert self.r is not None
        return [
            o
            for o in self.r.offers
            if o.status in ("open", "shaken", "binding")
            and o.boss == self.r.boss
            and (seller is None or o.seller == seller)
            and (f is None or o.family == f)
        ]

    def to_answer(self) -> list[OfferView]:
        """Offers waiting for this seat's 🤝."""
        assert self.r is not None
        return [
            o
            for o in self.r.offers
            if o.status in ("open", "shaken") and self.me in (o.seller, o.boss) and self.me not in o.shaken
        ]

    def remaining(self) -> int:
        assert self.r is not None
        return self.r.payout - self.r.promised

    # --- autopilot ----------------------------------------------------------------------------------------------

    def autopilot(self) -> Any | None:
        v = self.view
        if (a := self.find(A.Discard)) is not None:
            return self.discard(a)
        if self.find(A.PlaceMarker) is not None:
            return self.rng.choice([a for a in self.legal if isinstance(a, A.PlaceMarker)])
        if v.phase in ("turn", "rolled") and self.find(A.Open) is not None:
            return self.open_or_not()  # a deal it can cover keeping two shares; else roll, then draw
        if (a := self.find(A.Pass)) is not None:
            return a  # every reaction window and last call: no STOP, no Boss or travel card
        r = self.r
        if r is None or v.pending:
            return None
        if r.boss == self.me:
            return self.as_boss()  # every agreement it makes or takes leaves it at least a share
        answer = self.answer_offers()
        if answer is not None:
            return answer
        required, group_free, short = self.needs()
        for f in list(required) + (list(group_free) if short else []):
            mine = self.owner.get(f) == self.me and self.serves(self.me, f)
            if mine and not self.live(self.me, f) and self.tries(self.me, f) < MAX_TRIES:
                return A.Offer(price=self.ask(f), unit="money", family=f)  # type: ignore[arg-type]
        return None

    # --- the computer player ------------------------------------------------------------------------------------

    def play(self) -> Any | None:
        v = self.view
        if self.find(A.Discard) is not None:
            recruit = self.best_recruit()
            return recruit if recruit is not None else self.discard(self.find(A.Discard))
        if self.find(A.PlaceMarker) is not None:
            return self.place_marker()
        if v.phase in ("turn", "rolled") and self.find(A.Open) is not None:
            return self.open_or_not()
        if v.pending:
            return self.react()
        if self.r is None:
            return None
        if self.r.boss == self.me:
            return self.as_boss()
        return self.as_other()

    def discard(self, template: A.Discard) -> A.Discard:
        """The least useful cards, as many as the sampled discard (exactly the excess)."""
        n = len(self.hand) - HAND_LIMIT
        ranked = sorted(self.hand, key=lambda c: (_card_value(c, self.hand), self.rng.random()))
        return A.Discard(cards=tuple(sorted(ranked[:n]))) if n > 0 else template

    def place_marker(self) -> Any:
        """A space whose families this seat owns (the starting player then needs its cards), at random among ties."""
        mine = {f for f, o in self.owner.items() if o == self.me}
        spaces = {s.number: s for s in self.view.spaces}

        def score(a: A.PlaceMarker) -> float:
            s = spaces[a.space]
            return len(mine & set(s.required + s.group)) + self.rng.random()

        return max((a for a in self.legal if isinstance(a, A.PlaceMarker)), key=score)

    # --- my turn: open, roll or draw ----------------------------------------------------------------------------

    def cover_cost(self, space_no: int) -> tuple[bool, float, float]:
        """Whether this seat could hope to cover the space as its Boss, what it would cost, and the payout."""
        v = self.view
        space = v.spaces[space_no - 1]
        tv = v.tile.value if v.tile is not None else 0
        recruits = self.hand.count(RECRUIT) >= RECRUIT_TRIPLE

        def cost(f: str) -> float | None:
            owner = self.owner.get(f)
            if owner == self.me:
                return 0.0
            if f"clan:{f}" in self.hand:
                return 0.3 * tv
            if owner is not None:
                return 1.1 * tv
            return 1.5 * tv if recruits else None

        total = 0.0
        for f in space.required:
            c = cost(f)
            if c is None:
                return False, 0.0, 0.0
            total += c
        if space.group_k:
            costs = sorted(c for f in space.group if (c := cost(f)) is not None)
            if len(costs) < space.group_k:
                return False, 0.0, 0.0
            total += sum(costs[: space.group_k])
        return True, total, float(space.dividends * tv)

    def open_or_not(self) -> Any:
        v = self.view
        assert v.marker is not None
        ok, cost, payout = self.cover_cost(v.marker)
        tv = v.tile.value if v.tile is not None else 0
        keep = payout - cost
        margin = HARD_MARGIN if self.level == "hard" else 2 if v.phase == "turn" else 1.5
        if ok and keep >= margin * tv:
            return self.find(A.Open)
        return self.find(A.Roll) or self.find(A.Draw) or self.find(A.Open)

    # --- reaction windows ---------------------------------------------------------------------------------------

    def react(self) -> Any | None:
        v = self.view
        top = v.pending[-1]
        stop = self.find(A.Stop)
        if top.by != self.me and self.costs_me(top):
            if stop is not None:
                return stop
            if top.kind == "boss" and (boss := self.find(A.Boss)) is not None and self.r and self.r.boss == self.me:
                return boss  # the newest Boss card standing decides: answer with one's own
        steal = self.find(A.Boss) if top.kind == "boss" and top.by != self.me else None
        if steal is not None and self.steal_value() >= 0.5 * (self.r.payout if self.r else 0):
            return steal
        if self.r is not None:
            answer = self.answer_offers()
            if answer is not None:
                return answer
        return self.find(A.Pass)

    def costs_me(self, top: Any) -> bool:
        """Whether the pending card, if it takes effect, would cost this seat."""
        r = self.r
        if top.kind == "recruit":
            return top.target == self.me
        if r is None:
            return False
        if top.kind == "travel":
            f = top.family
            space = self.view.spaces[r.space - 1]
            if f not in space.required + space.group:
                return False
            if top.target == self.me:
                return True  # a card it sells or uses in this deal
            if r.boss == self.me:
                # A card under one of its agreements, needed for the deal.
                return any(o.status == "binding" and o.family == f and o.seller == top.target for o in r.offers)
            return False
        # A Boss card: it takes the round from its Boss, and reopens the agreements that pay this seat.
        if r.boss == self.me:
            return True
        paid = sum(o.value for o in r.offers if o.status == "binding" and o.seller == self.me)
        return paid >= self.share()

    # --- as the Boss --------------------------------------------------------------------------------------------

    def as_boss(self) -> Any | None:
        r = self.r
        assert r is not None
        if r.last_call is not None:
            return None  # the others let it go (or play a card)
        if (close := self.find(A.Close)) is not None:
            return close
        required, group_free, short = self.needs()
        needed = set(required) | (set(group_free) if short else set())
        still = len(required) + short
        budget = self.remaining() - self.share()  # the Boss keeps at least a share
        # Offers made to the Boss for cards it lacks: the cheapest acceptable first.
        for o in sorted(self.to_answer(), key=lambda o: o.value):
            if o.family is None or o.family not in needed:
                continue
            if o.value <= min(2 * self.share(), budget / max(1, still)):
                if (shake := self.find(A.Shake, offer=o.id)) is not None:
                    return shake
            else:
                price = int(min(self.share(), max(0, budget) / max(1, still)))
                if price >= 1 and self.tries(o.seller, o.family) < MAX_TRIES:
                    return A.Offer(price=price, unit="money", family=o.family, to=o.seller)  # type: ignore[arg-type]
                if (no := self.find(A.Withdraw, offer=o.id)) is not None:
                    return no
        # Cover what is missing: own clan cards first, then an offer to someone who can bring the card.
        hopeless = False
        for f in required:
            step = self.cover(f, budget, still)
            if step is None:
                hopeless = hopeless or not self.live(f=f)
            elif step is not True:
                return step
        if short:
            pending_group = sum(1 for f in group_free if any(o.status != "binding" for o in self.live(f=f)))
            open_slots = short - pending_group
            for f in sorted(group_free, key=lambda f: (f"clan:{f}" not in self.hand, self.rng.random())):
                if open_slots <= 0:
                    break
                if self.live(f=f):
                    continue
                step = self.cover(f, budget, still)
                if step is not None and step is not True:
                    return step
                if step is True:
                    open_slots -= 1
            if open_slots > 0 and not any(self.live(f=f) for f in group_free):
                hopeless = True
        if hopeless:
            recruit = self.best_recruit(needed)
            if recruit is not None:
                return recruit
            return self.find(A.Fail)
        if not any(o.status != "binding" and self.me in o.shaken for o in self.live()):
            return self.find(A.Fail)  # no offer of its own waits for another player's 🤝: nothing else can happen
        return None

    def cover(self, f: str, budget: int, still: int) -> Any | bool | None:
        """A step towards a card of `f` (True: one is already on its way; None: no way to get one now)."""
        if self.live(f=f):
            return True
        if (play := self.find(A.PlayClan, family=f)) is not None:
            return play
        sellers = [
            t for t in range(self.view.seats) if t != self.me and self.serves(t, f) and self.tries(t, f) < MAX_TRIES
        ]
        if not sellers:
            return None
        seller = self.rng.choice(sellers)
        price = int(min(self.share(), max(0, budget) / max(1, still)))
        if price < 1 and budget < 0:
            return None
        return A.Offer(price=max(price, 1), unit="money", family=f, to=seller)  # type: ignore[arg-type]

    # --- as anyone else -----------------------------------------------------------------------------------------

    def ask(self, f: str) -> int:
        """What this seat asks for its card of `f`: a share, two when nobody else at the table can bring it."""
        r = self.r
        assert r is not None
        rivals = [t for t in range(self.view.seats) if t not in (self.me, r.boss) and self.serves(t, f)]
        price = self.share() * (1 if rivals else 2)
        if self.level != "easy":
            # Normal and hard ask what the Boss can bear (a share at least, two at most): asking two shares of a
            # Boss who can pay only one and a half drew a counter of one share.
            price = max(self.share(), min(2 * self.share(), self.bearable()))
        return max(1, min(price, self.remaining()))

    def bearable(self) -> int:
        """The most the Boss can pay for one missing card while keeping a share of the deal for itself: what is
        left of the payout beyond that share, split over the cards still missing."""
        required, _, short = self.needs()
        still = max(1, len(required) + short)
        return int(max(0, self.remaining() - self.share()) / still)

    def accept(self, o: OfferView) -> bool:
        """An offer made to this seat as the seller is worth a 🤝: any share without a card, a fair one for a card."""
        if o.family is None:
            return o.value > 0
        fair = self.share()
        if self.owner.get(o.family) == self.me:
            fair = min(fair, max(1, self.remaining()))  # an investor stays its owner's: any money is a gain
        return o.value >= fair

    def answer_offers(self) -> Any | None:
        r = self.r
        assert r is not None
        for o in self.to_answer():
            if o.seller != self.me:
                continue
            if self.accept(o):
                if (shake := self.find(A.Shake, offer=o.id)) is not None:
                    return shake
                continue
            if o.family is not None and self.tries(self.me, o.family) < MAX_TRIES and self.serves(self.me, o.family):
                return A.Offer(price=self.ask(o.family), unit="money", family=o.family)  # type: ignore[arg-type]
            if (no := self.find(A.Withdraw, offer=o.id)) is not None:
                return no
        return None

    def as_other(self) -> Any | None:
        r = self.r
        assert r is not None
        if r.last_call is not None:
            steal = self.find(A.Boss)
            if steal is not None and self.steal_value() >= 0.5 * r.payout:
                return steal
            sabotage = self.sabotage()
            if sabotage is not None:
                return sabotage
            return self.find(A.Pass)
        answer = self.answer_offers()
        if answer is not None:
            return answer
        required, group_free, short = self.needs()
        needed = list(required) + (list(group_free) if short else [])
        for f in needed:
            if self.live(self.me, f) or self.tries(self.me, f) >= MAX_TRIES:
                continue
            if self.serves(self.me, f):
                return A.Offer(price=self.ask(f), unit="money", family=f)  # type: ignore[arg-type]
        for f in needed:
            others = [t for t in range(self.view.seats) if t != self.me and self.serves(t, f)]
            if not others and not self.live(f=f) and (play := self.find(A.PlayClan, family=f)) is not None:
                return play
        if (steal := self.find(A.Boss)) is not None and self.steal_value() >= 0.5 * r.payout:
            return steal
        recruit = self.best_recruit()
        if recruit is not None:
            return recruit
        return self.sabotage() if r.can_close else None

    # --- Boss cards, recruitment, travel ------------------------------------------------------------------------

    def steal_value(self) -> float:
        """What taking the round over with a Boss card would leave this seat (its cards, reopened agreements at
        their terms, about a share for each other card), or -1 when it could not cover the space."""
        r = self.r
        if r is None or r.boss == self.me:
            return -1.0
        space = self.view.spaces[r.space - 1]
        share = self.share()

        def cost(f: str) -> float | None:
            if self.serves(self.me, f) or f"clan:{f}" in self.hand:
                return 0.0
            reopened = [o.value for o in r.offers if o.status == "binding" and o.family == f and o.seller != self.me]
            if reopened:
                return float(min(reopened))
            if self.serves(r.boss, f):
                return 1.5 * share
            if any(self.serves(t, f) for t in range(self.view.seats) if t != self.me):
                return 1.2 * share
            return None

        total = 0.0
        for f in space.required:
            c = cost(f)
            if c is None:
                return -1.0
            total += c
        if space.group_k:
            costs = sorted(c for f in space.group if (c := cost(f)) is not None)
            if len(costs) < space.group_k:
                return -1.0
            total += sum(costs[: space.group_k])
        return r.payout - total

    def best_recruit(self, wanted: set[str] | None = None) -> Any | None:
        """A recruitment triple when one is legal: an investor the deal needs, else the Boss's, else any."""
        options = [a for a in self.legal if isinstance(a, A.Recruit)]
        if not options:
            return None
        r = self.r
        families = set(self.view.spaces[r.space - 1].required + self.view.spaces[r.space - 1].group) if r else set()

        def score(a: A.Recruit) -> float:
            s = self.rng.random()
            if wanted and a.family in wanted:
                s += 4
            if a.family in families:
                s += 2
                if r is not None and self.owner.get(a.family) == r.boss:
                    s += 1
            return s

        return max(options, key=score)

    def sabotage(self) -> Any | None:
        """A travel card on a rival's deal about to close that pays this seat nothing: on a card with no stand-in."""
        r = self.r
        if r is None or r.boss == self.me or r.payout < 3 * self.share():
            return None
        if any(o.status == "binding" and o.seller == self.me for o in r.offers):
            return None
        used = {u.family for u in r.last_call} if r.last_call else {q.family for q in r.requirements if q.assigned}
        for q in r.requirements:
            if len(q.sources) != 1 or q.family not in used:
                continue
            src = q.sources[0]
            if src.seat == self.me:
                continue
            for a in self.legal:
                if (
                    isinstance(a, A.Travel)
                    and a.family == q.family
                    and a.target == src.seat
                    and a.on == src.card
                    and not a.joker
                ):
                    return a
        return None
