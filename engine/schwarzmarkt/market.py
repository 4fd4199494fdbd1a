"""The data file (`data/market.toml`): the price track, the goods deck and the 30 black-market cards, validated on
load, and the loader.

A server owner may replace it with their own copy's data as `schwarzmarkt/market.toml` in the game data folder (the
bot's `GAME_DATA_DIR`; see `engine.registry`). A wrong file stops start-up with a one-line `DataFileError` naming the
file and the field (see `engine.data`). What a game uses is copied into its state at set-up.
"""

from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from engine.data import load_toml

MARKET_FILE = Path(__file__).parent / "data" / "market.toml"

MIN_PLAYERS = 3
MAX_PLAYERS = 5
TRACK_SPACES = 14
BLACK_MARKET_CARDS = 30
GOODS_CARDS = 60

Good = Literal["potatoes", "flour", "coffee", "butter", "sugar"]
GOODS: tuple[Good, ...] = ("potatoes", "flour", "coffee", "butter", "sugar")
"""The five kinds, in the order hands and offers are shown."""
INDEX: dict[str, int] = {g: i for i, g in enumerate(GOODS)}


def counts_of(cards: Sequence[str]) -> list[int]:
    """A list of kinds ("coffee", "coffee") as counts per kind; unknown kinds are left out (the rules check them)."""
    out = [0] * len(GOODS)
    for c in cards:
        if c in INDEX:
            out[INDEX[c]] += 1
    return out


EventKind = Literal[
    "shortage", "espionage", "quick_deal", "forced_swap", "raid", "new_goods", "limit", "old_debt", "spoiled_goods"
]
EVENT_KINDS: tuple[EventKind, ...] = (
    "shortage",
    "espionage",
    "quick_deal",
    "forced_swap",
    "raid",
    "new_goods",
    "limit",
    "old_debt",
    "spoiled_goods",
)


class Space(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    price: int = Field(ge=1)
    die: int = Field(ge=1)
    """The die symbol: the furthest the marker may move from this space when the player did not trade."""


class Market(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    hand_size: int = Field(ge=1, le=(GOODS_CARDS - 1) // MAX_PLAYERS)
    """Goods cards dealt to each player (and the refill's target); five hands must leave a goods pile."""
    black_market_hand: int = Field(ge=1, le=(BLACK_MARKET_CARDS - 1) // MAX_PLAYERS)
    limit_space: int = Field(ge=2, le=TRACK_SPACES)
    """Where a trading round ends under Limit."""
    quick_deal: int = Field(ge=0)
    new_goods_cost: int = Field(ge=0)
    goods: dict[Good, int]
    track: list[Space]
    offers: list[dict[Good, int]]
    events: dict[EventKind, int]

    @field_validator("goods")
    @classmethod
    def _all_goods(cls, value: dict[Good, int]) -> dict[Good, int]:
        missing = [g for g in GOODS if g not in value]
        if missing:
            raise ValueError(f"needs a count for every kind of goods; missing {', '.join(missing)}")
        if any(n < 1 for n in value.values()):
            raise ValueError("every kind of goods needs at least 1 card")
        if sum(value.values()) != GOODS_CARDS:
            raise ValueError(f"the goods cards add up to {sum(value.values())}, not {GOODS_CARDS}")
        return value

    @field_validator("track")
    @classmethod
    def _rising(cls, value: list[Space]) -> list[Space]:
        if len(value) != TRACK_SPACES:
            raise ValueError(f"needs {TRACK_SPACES} spaces, found {len(value)}")
        for n, (a, b) in enumerate(pairwise(value), start=2):
            if b.price <= a.price:
                raise ValueError(f"prices must rise: space {n} ({b.price}) is not above space {n - 1} ({a.price})")
        return value

    @field_validator("offers")
    @classmethod
    def _offers_want(cls, value: list[dict[Good, int]]) -> list[dict[Good, int]]:
        for n, wants in enumerate(value, start=1):
            if not wants or any(c < 1 for c in wants.values()):
                raise ValueError(f"offer {n} must want at least 1 card of each kind it names")
        return value

    @field_validator("events")
    @classmethod
    def _events_counted(cls, value: dict[EventKind, int], info: ValidationInfo) -> dict[EventKind, int]:
        if any(c < 0 for c in value.values()):
            raise ValueError("an event cannot be there fewer than 0 times")
        offers = info.data.get("offers")
        if offers is not None:
            cards = len(offers) + sum(value.values())
            if cards != BLACK_MARKET_CARDS:
                raise ValueError(
                    f"{len(offers)} offers and {sum(value.values())} events make {cards} black-market cards, "
                    f"not {BLACK_MARKET_CARDS}"
                )
        return value


class Card(BaseModel):
    """One black-market card: an offer (what it wants) or an event."""

    model_config = ConfigDict(frozen=True)

    id: int
    event: EventKind | None = None
    wants: tuple[int, ...] = ()
    """An offer's wanted cards per kind, in `GOODS` order; empty for an event."""

    @property
    def is_offer(self) -> bool:
        return self.event is None


def cards_of(market: Market) -> list[Card]:
    """The 30 cards with their ids: the offers first, then the events in `EVENT_KINDS` order."""
    cards = [Card(id=i, wants=tuple(w.get(g, 0) for g in GOODS)) for i, w in enumerate(market.offers)]
    for kind in EVENT_KINDS:
        for _ in range(market.events.get(kind, 0)):
            cards.append(Card(id=len(cards), event=kind))
    return cards


def load_market(path: Path = MARKET_FILE) -> Market:
    """Read and validate a market file; `DataFileError` names the file and the field."""
    return load_toml(path, Market)


@cache
def default_market() -> Market:
    """The shipped data, read once."""
    return load_market()
