"""The whole state of one game: one pydantic model, JSON round-trippable, holding the random generator too.

Cards are short codes (`engine.kkk.cards`); hands are sorted lists, piles are lists (the draw pile's top is its
end). Seats are 0-based; spaces and tiles are numbered from 1 as on the board. The current negotiation round lives
in `round`; its offers in `offers` (cleared when the round ends; ids are unique for the whole game, so the bot can
map one message to one offer). Pending effects and their reaction window live at the top level because a
recruitment triple played to get down to 12 cards can happen outside a round.

The board and the deal tiles the game was set up with are part of the state (`data`), and every rule reads them from
there: a server owner who replaces the data files changes new games only, never a game in progress. The copy is
frozen, so `KKK.copy_state` shares it between states instead of copying it.
"""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidatorFunctionWrapHandler, field_validator

from engine.kkk.cards import Family
from engine.kkk.data import KkkData, default_data, remember, seen
from engine.kkk.options import KkkOptions
from engine.rng import Rng

Phase = Literal["place_marker", "turn", "rolled", "round", "over"]
"""place_marker: waiting for the marker at set-up; turn: the player to move may open or roll; rolled: they rolled
and may open or draw; round: a negotiation round is open; over: the game has ended."""

OfferStatus = Literal["open", "shaken", "binding", "void", "withdrawn", "replaced"]
"""open: nobody has shaken yet (an agreement reopened to a new Boss); shaken: one side has (a new offer: its
proposer, by making it); binding: both have (an agreement); void: the card can no longer serve, or the Boss changed;
withdrawn: a party took it back; replaced: a counter-offer took its place."""

Unit = Literal["money", "dividends"]
CardKind = Literal["investor", "clan"]
EffectKind = Literal["travel", "recruit", "boss"]


class Offer(BaseModel):
    """Terms between the Boss and another player: the Boss pays `seller` out of this deal, for a card or not."""

    id: int
    seller: int
    """The player the Boss would pay (never the Boss)."""
    boss: int
    """The Boss the offer is made with (updated when a Boss change reopens an agreement)."""
    family: Family | None = None
    """The family of the card on offer (the seller's investor or played clan card); None: no card."""
    price: int
    unit: Unit
    proposer: int
    shaken: list[int] = Field(default_factory=list)
    status: OfferStatus = "open"
    replaces: int | None = None
    """The open offer this counter-offer took the place of when it was made."""
    counters: int | None = None
    """The binding agreement this counter-offer replaces when it binds (None: it stands on its own)."""
    by_offer: bool = False
    """The proposer's shake is the offer itself (so it is taken back by withdrawing, not by unshaking). False in
    snapshots from before that rule, whose proposers shook by hand, and for an agreement reopened to a new Boss."""
    reopened: int = 0
    """How many times a change of Boss turned this agreement back into an open offer."""
    reason: str = ""
    """Why it is void: a code (`negotiation.VOID_*`), worded by the bot."""

    @property
    def live(self) -> bool:
        return self.status in ("open", "shaken", "binding")

    @property
    def unbound(self) -> bool:
        return self.status in ("open", "shaken")


class Effect(BaseModel):
    """A travel, recruitment triple or Boss card that has been played and waits for its reaction window."""

    kind: EffectKind
    by: int
    cards: list[str]
    """The cards played, lying on the table until the effect resolves or is STOPped."""
    family: Family | None = None
    target: int | None = None
    """Travel: the seat whose card is targeted (None: an investor beside the board). Recruit: the investor's owner."""
    on: CardKind | None = None


class Use(BaseModel):
    """One card assigned to one family of the space at conclusion."""

    model_config = ConfigDict(frozen=True)

    family: Family
    seat: int
    card: CardKind


class LastCall(BaseModel):
    uses: list[Use]


class RoundState(BaseModel):
    """An open negotiation round."""

    space: int
    boss: int
    opener: int
    clans: list[list[str]]
    """Per seat, the families of the clan cards they have played and that are still on the table (sorted)."""
    travel: dict[str, str] = Field(default_factory=dict)
    """Investor family -> the travel card lying on it."""
    last_call: LastCall | None = None
    always_pass: list[int] = Field(default_factory=list)


class Deadline(BaseModel):
    """The current wait's identity and time frame; `key` is what a Timeout must name."""

    key: str
    since: datetime
    until: datetime


class KkkState(BaseModel):
    seats: int
    options: KkkOptions
    data: KkkData = Field(default_factory=default_data)
    """The board and deal tiles this game plays with, fixed at set-up. A snapshot written before the state carried
    them loads with the packaged data (what such a game read then too, unless someone edited the packaged files)."""
    rng: Rng
    phase: Phase
    turn: int
    """The player to move, or during a round the Boss (the turn moves with the Boss)."""
    placer: int
    """Who places the dollar marker at set-up (the starting player's right-hand neighbour)."""
    marker: int | None = None
    tiles: list[int | None]
    """Per space (index = number - 1): the number of the deal tile lying on it, if any."""
    deals: int = 0
    investors: dict[str, int | None]
    """Investor family -> owner seat, None while it lies beside the board."""
    hands: list[list[str]]
    draw: list[str]
    discard: list[str] = Field(default_factory=list)
    money: list[int]
    paid_out: int = 0
    best_gain: list[int] = Field(default_factory=list)
    """Per seat, the most it gained from one concluded deal (what a Boss kept, or what agreements paid a seller):
    for the summary at the end. Empty in games set up before it existed (read as zeros)."""
    """The sum of all the bank's payouts (money only enters the game through them)."""
    round: RoundState | None = None
    offers: list[Offer] = Field(default_factory=list)
    next_offer: int = 1
    pending: list[Effect] = Field(default_factory=list)
    """Pending effects, oldest first; only Boss cards stack, so there is at most one travel or recruitment."""
    passes: list[int] = Field(default_factory=list)
    """Who has passed in the current reaction window or last call."""
    window: int = 0
    """The `seq` at which the current reaction window (or last call) opened or restarted."""
    stopped_last: bool = False
    """The last accepted action was a STOP (so a STOP now would be a STOP on a STOP)."""
    seq: int = 0
    """Accepted actions so far."""
    turn_seq: int = 0
    """The `seq` at which the current turn began."""
    deadline: Deadline | None = None
    last_roll: int | None = None
    end_roll: int | None = None
    end_reason: str = ""

    @field_validator("data", mode="wrap")
    @classmethod
    def _validate_data_once(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> KkkData:
        """Stored data equal to data validated before is that same frozen object (validated once per process)."""
        if not isinstance(value, dict):
            return handler(value)  # type: ignore[no-any-return]
        known = seen(value)
        if known is None:
            known = handler(value)
            remember(value, known)
        return known


_ATOMS = (str, int, bool, float, type(None), datetime)


def clone(value: Any) -> Any:
    """A deep copy of a state built from pydantic models, lists, dicts and atoms; frozen models are shared.

    `model_copy(deep=True)` goes through `copy.deepcopy` and is several times slower; this copy is exact for the
    shapes our state uses (tested by the round-trip property tests).
    """
    t = type(value)
    if t in _ATOMS:
        return value
    if t is list:
        if not value or type(value[0]) in _ATOMS:
            return value[:]
        return [clone(v) for v in value]
    if t is dict:
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, BaseModel):
        if value.model_config.get("frozen"):
            return value
        new = value.__copy__()
        d = new.__dict__
        for k, v in d.items():
            if type(v) not in _ATOMS:
                d[k] = clone(v)
        return new
    raise TypeError(f"cannot clone {t.__name__}")
