"""What a seat may know: the public table, and a player's view (the public table plus their own secrets).

The public view carries everything the Discord status message needs: the 16 spaces with the marker and placed
tiles, the next tile's dividend value, whose turn it is, the Boss, the space's requirements and what covers them,
cards on the table, investors on travel, the pending effect and its deadline, hand sizes (unless hidden by an
option), pile sizes, and the offers with their states. A player's view adds their hand, their money, their
investors and the offers they are party to. Nobody's money is public until the game is over.

The board and the tiles shown are the game's own (`state.data`, fixed at set-up), so a presentation needs no other
source. Hidden hand sizes are only the running count: the public events still let a careful player reckon them.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from engine.built import built
from engine.kkk.assignment import best_uses, sources
from engine.kkk.negotiation import promised, value
from engine.kkk.state import CardKind, KkkState, OfferStatus, Phase, Unit, Use
from engine.kkk.table import current_tile, dividend_value, payout, round_space
from engine.kkk.waits import current


class SpaceView(BaseModel):
    number: int
    required: list[str]
    group: list[str]
    group_k: int
    investors: int
    dividends: int
    tile: int | None
    """The deal tile lying on the space (the space is done), if any."""


class TileView(BaseModel):
    number: int
    value: int
    end_faces: list[int]


class InvestorView(BaseModel):
    family: str
    owner: int | None
    """None: beside the board."""
    on_travel: bool


class SourceView(BaseModel):
    seat: int
    card: CardKind
    offer: int | None
    """The binding agreement that brings it (None: the Boss's own card)."""


class RequirementView(BaseModel):
    family: str
    block: Literal["required", "group"]
    sources: list[SourceView]
    """Every card of this family at the Boss's disposal, best first."""
    assigned: SourceView | None
    """The card the bot would use for this family if the Boss closed now (also while the space isn't covered)."""


class OfferView(BaseModel):
    id: int
    seller: int
    boss: int
    family: str | None
    price: int
    unit: Unit
    value: int
    proposer: int
    status: OfferStatus
    shaken: list[int]
    replaces: int | None
    """The open offer this counter-offer took the place of when it was made."""
    counters: int | None = None
    """The binding agreement this counter-offer replaces if it binds."""
    by_offer: bool = False
    """The proposer's 🤝 is the offer itself (they withdraw it rather than unshake)."""
    reopened: int
    reason: str

    @property
    def awaited(self) -> list[int]:
        """Whose 🤝 it still waits for (none once it is no longer open)."""
        if self.status not in ("open", "shaken"):
            return []
        return [s for s in (self.boss, self.seller) if s not in self.shaken]


class EffectView(BaseModel):
    kind: str
    by: int
    family: str | None
    target: int | None
    on: str | None


class RoundView(BaseModel):
    space: int
    boss: int
    opener: int
    dividends: int
    dividend_value: int
    payout: int
    promised: int
    boss_keeps: int
    group_k: int
    requirements: list[RequirementView]
    can_close: bool
    clans: list[list[str]]
    """Per seat, the families of the clan cards they have on the table."""
    travel: dict[str, str]
    """Investor family -> travel card lying on it."""
    always_pass: list[int]
    last_call: list[Use] | None
    offers: list[OfferView]


class WaitView(BaseModel):
    key: str
    what: str
    kind: str
    seats: list[int]
    since: datetime
    until: datetime


class PublicView(BaseModel):
    game: Literal["kkk"] = "kkk"
    seats: int
    phase: Phase
    turn: int
    placer: int
    marker: int | None
    spaces: list[SpaceView]
    deals: int
    tile: TileView | None
    """The tile of the next deal (its dividend value), None once all are used."""
    investors: list[InvestorView]
    hand_sizes: list[int] | None
    draw_pile: int
    discard_pile: int
    round: RoundView | None
    pending: list[EffectView]
    """Pending effects, oldest first (also outside a round: a recruitment triple to get down to 12 cards)."""
    passed: list[int]
    """Who has passed in the open reaction window or last call."""
    wait: WaitView | None
    last_roll: int | None
    end_roll: int | None
    end_reason: str
    money: list[int] | None
    """Everybody's money, once the game is over."""
    best_gain: list[int] | None = None
    """Once the game is over: per seat, the most it gained from one deal."""


class PlayerView(PublicView):
    you: int
    hand: list[str]
    my_money: int
    my_investors: list[str]
    my_offers: list[int]
    """Live offers and agreements this player is party to."""


def _offer_view(state: KkkState) -> list[OfferView]:
    tv = dividend_value(state)
    return [
        OfferView(
            id=o.id,
            seller=o.seller,
            boss=o.boss,
            family=o.family,
            price=o.price,
            unit=o.unit,
            value=value(o, tv),
            proposer=o.proposer,
            status=o.status,
            shaken=list(o.shaken),
            replaces=o.replaces,
            counters=o.counters,
            by_offer=o.by_offer,
            reopened=o.reopened,
            reason=o.reason,
        )
        for o in state.offers
    ]


def _effects(state: KkkState) -> list[EffectView]:
    return [EffectView(kind=e.kind, by=e.by, family=e.family, target=e.target, on=e.on) for e in state.pending]


def _round_view(state: KkkState) -> RoundView | None:
    r = state.round
    if r is None:
        return None
    space = round_space(state)
    chosen, complete = best_uses(state)
    picks = {u.family: u for u in chosen}
    reqs = []
    for block, fams in (("required", space.required), ("group", space.group.of if space.group else ())):
        for f in fams:
            found = [
                SourceView(seat=s.seat, card="clan" if s.clan else "investor", offer=s.offer or None)
                for s in sources(state, f)
            ]
            assigned = None
            if f in picks:
                u = picks[f]
                assigned = next((x for x in found if x.seat == u.seat and x.card == u.card), None)
            reqs.append(RequirementView(family=f, block=block, sources=found, assigned=assigned))  # type: ignore[arg-type]
    tv = dividend_value(state)
    total = payout(state)
    owed = promised(state, tv)
    return RoundView(
        space=space.number,
        boss=r.boss,
        opener=r.opener,
        dividends=space.dividends,
        dividend_value=tv,
        payout=total,
        promised=owed,
        boss_keeps=total - owed,
        group_k=space.k,
        requirements=reqs,
        can_close=complete and not state.pending and r.last_call is None,
        clans=[list(c) for c in r.clans],
        travel=dict(r.travel),
        always_pass=list(r.always_pass),
        last_call=list(r.last_call.uses) if r.last_call else None,
        offers=_offer_view(state),
    )


def public_view(state: KkkState) -> PublicView:
    return PublicView(**_public_fields(state))


def _public_fields(state: KkkState) -> dict[str, object]:
    tile = current_tile(state)
    cur = current(state)
    wait = None
    if cur is not None and state.deadline is not None:
        wait = WaitView(
            key=state.deadline.key,
            what=cur.what,
            kind=cur.kind,
            seats=list(cur.seats),
            since=state.deadline.since,
            until=state.deadline.until,
        )
    over = state.phase == "over"
    return {
        "seats": state.seats,
        "phase": state.phase,
        "turn": state.turn,
        "placer": state.placer,
        "marker": state.marker,
        "spaces": [
            SpaceView(
                number=s.number,
                required=list(s.required),
                group=list(s.group.of) if s.group else [],
                group_k=s.k,
                investors=s.investors,
                dividends=s.dividends,
                tile=state.tiles[s.number - 1],
            )
            for s in state.data.board.spaces
        ],
        "deals": state.deals,
        "tile": TileView(number=tile.number, value=tile.value, end_faces=list(tile.end_faces)) if tile else None,
        "investors": [
            InvestorView(
                family=f,
                owner=o,
                on_travel=state.round is not None and f in state.round.travel,
            )
            for f, o in state.investors.items()
        ],
        "hand_sizes": None if state.options.hide_hand_sizes else [len(h) for h in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "round": _round_view(state),
        "pending": _effects(state),
        "passed": list(state.passes),
        "wait": wait,
        "last_roll": state.last_roll,
        "end_roll": state.end_roll,
        "end_reason": state.end_reason,
        "money": list(state.money) if over else None,
        "best_gain": (list(state.best_gain) + [0] * (len(state.money) - len(state.best_gain))) if over else None,
    }


def player_view(state: KkkState, s: int, public: PublicView | None = None) -> PlayerView:
    """Seat `s`'s view; `public`: the public view of the same state, if already computed (its fields are shared).
    Built without validating the public fields again (`engine.built`): every seat's view is made on every move."""
    if public is None:
        public = public_view(state)
    fields = dict(public.__dict__)
    fields.update(
        you=s,
        hand=list(state.hands[s]),
        my_money=state.money[s],
        my_investors=[f for f, o in state.investors.items() if o == s],
        my_offers=[o.id for o in state.offers if o.live and s in (o.seller, o.boss)],
    )
    return built(PlayerView, fields)
