"""Every player intent and every system event, as one pydantic union discriminated on `type`.

Player actions are what the Discord layer sends (its commands, buttons and 🤝 reactions). The one system action,
`Timeout(key)`, is applied with actor None when a wait's deadline passes; it names the wait it was scheduled for and
refuses itself once that wait is gone, so a late timer can never do harm.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.kkk.cards import Family
from engine.kkk.state import CardKind, Unit, Use


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlaceMarker(_Action):
    """Set-up: the starting player's right-hand neighbour puts the dollar marker on a space (1–16)."""

    type: Literal["place_marker"] = "place_marker"
    space: int


class Open(_Action):
    """ "Let's make a deal!" — open the negotiation round on the marker's space, as its Boss."""

    type: Literal["open"] = "open"


class Roll(_Action):
    """Roll the die and move the marker that many free spaces clockwise."""

    type: Literal["roll"] = "roll"


class Draw(_Action):
    """After rolling: draw 3 cards instead of opening; the turn passes left."""

    type: Literal["draw"] = "draw"


class PlayClan(_Action):
    """Lay a clan card face up in front of yourself for this round."""

    type: Literal["play_clan"] = "play_clan"
    family: Family


class Offer(_Action):
    """Propose terms. A holder offers to the Boss (`to` empty or the Boss); the Boss offers to a holder (`to`).

    `family` is the card the offer is about (the seller's investor or played clan card); no family: the Boss pays
    a share to a player who brings no card. The price is in $M (`money`) or in dividends of this deal. Making the
    offer is the proposer's own 🤝: it binds when the other party shakes. An offer on the same card between the same
    two players is a counter-offer (`counter`): it replaces an open offer at once, an agreement when it binds.
    """

    type: Literal["offer"] = "offer"
    price: int = Field(ge=0)
    unit: Unit = "money"
    family: Family | None = None
    to: int | None = None
    counter: int | None = None
    """A counter-offer to this agreement (or open offer): same two players, same card or share. It replaces an
    agreement only when it binds itself. An offer for a card already under an agreement counters it anyway."""


class Withdraw(_Action):
    """Take back (or turn down) an offer that is not yet binding."""

    type: Literal["withdraw"] = "withdraw"
    offer: int


class Shake(_Action):
    """🤝 Confirm an offer made to you (its proposer agreed by making it); it binds when both sides have."""

    type: Literal["shake"] = "shake"
    offer: int


class Unshake(_Action):
    """Remove your 🤝 from an offer that is not yet binding."""

    type: Literal["unshake"] = "unshake"
    offer: int


class Travel(_Action):
    """Send an investor, or a played clan card, on travel: `target` is its seat (None: beside the board).

    Uses the family's travel card, or a joker if `joker`. `on` is needed only when the target has both the
    investor and a played clan card of that family.
    """

    type: Literal["travel"] = "travel"
    target: int | None = None
    family: Family
    joker: bool = False
    on: CardKind | None = None


class Recruit(_Action):
    """Play 3 recruitment cards to take the investor of `family` (beside the board first)."""

    type: Literal["recruit"] = "recruit"
    family: Family
    on: CardKind = "investor"


class Boss(_Action):
    """ "I'm the Boss now!" — play a Boss card."""

    type: Literal["boss"] = "boss"


class Stop(_Action):
    """Play a STOP card on the newest pending travel, recruitment or Boss card."""

    type: Literal["stop"] = "stop"


class Pass(_Action):
    """No STOP in this reaction window / let the last call go."""

    type: Literal["pass"] = "pass"


class AlwaysPass(_Action):
    """Pass on every reaction window and last call for the rest of this round (`on=False` to stop doing so)."""

    type: Literal["always_pass"] = "always_pass"
    on: bool = True


class Close(_Action):
    """The Boss closes the deal: a last call with the bot's assignment of cards, or the Boss's own."""

    type: Literal["close"] = "close"
    assignment: tuple[Use, ...] | None = None


class CancelClose(_Action):
    """The Boss takes back their own last call."""

    type: Literal["cancel_close"] = "cancel_close"


class Fail(_Action):
    """The Boss declares that the negotiations have failed."""

    type: Literal["fail"] = "fail"


class Discard(_Action):
    """Discard cards to get down to 12."""

    type: Literal["discard"] = "discard"
    cards: tuple[str, ...]


class Timeout(_Action):
    """System: the deadline of the wait named `key` has passed; apply its default."""

    type: Literal["timeout"] = "timeout"
    key: str


Action = Annotated[
    PlaceMarker
    | Open
    | Roll
    | Draw
    | PlayClan
    | Offer
    | Withdraw
    | Shake
    | Unshake
    | Travel
    | Recruit
    | Boss
    | Stop
    | Pass
    | AlwaysPass
    | Close
    | CancelClose
    | Fail
    | Discard
    | Timeout,
    Field(discriminator="type"),
]

action_adapter: TypeAdapter[Action] = TypeAdapter(Action)
