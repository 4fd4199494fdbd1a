"""What a picked suggestion carries, and filling in the options a player left out of `/kkk travel` and `/kkk offer`.

Autocomplete fills only the option being typed (`family:`), yet a suggestion such as "Liebgeld — cleo's investor
(with your travel joker)" also decides `target:`, `card:` and `joker:` — and, for the Boss's offers, `to:`. So its
value carries them: `L@2/i+j` is the family letter, then `@seat` (whose card), `/i` or `/c` (investor or clan
card) and `+j` (the travel joker). Picking a suggestion therefore just works.

Decisions:
- An option the player sets themselves wins over what the value carries: a `target:` other than the picked one drops
  the picked seat and card; an explicit `joker:` wins over `+j`.
- Typed by hand ("Liebgeld", "L"), the value is only a family. A left-out option is then filled in only when the
  player's own view and the public table leave one possibility: the travel joker when the player holds no travel
  card of that family but a joker; the target when the investor isn't beside the board and exactly one card of the
  family lies on the table; the Boss's `to:` when exactly one other player has a card of the family on the table.
- The `@seat` of a Boss's suggestion is used only while the player is still the Boss (a suggestion made before the
  Boss changed would otherwise become an offer to a wrong player).
- When a move is still refused and an option is missing, the answer names the option to add (`travel_hint`,
  `offer_hint`), with the players' names.

Pure functions of the views: nothing here sees another player's hand.
"""

import re
from dataclasses import dataclass
from typing import Literal

from bot.games.kkk.i18n import _
from bot.games.kkk.words import family as family_name
from bot.games.kkk.words import or_list, parse_family
from engine.kkk.cards import JOKER
from engine.kkk.views import PlayerView, PublicView

CardKind = Literal["investor", "clan"]
_VALUE = re.compile(r"^([HKLPRT])(?:@(\d{1,2}))?(?:/([ic]))?(\+j)?$")


@dataclass(frozen=True)
class Pick:
    """A family, and what a suggestion decided besides: whose card (`seat`), which card, the joker."""

    family: str
    seat: int | None = None
    card: CardKind | None = None
    joker: bool | None = None


def encode(pick: Pick) -> str:
    seat = f"@{pick.seat}" if pick.seat is not None else ""
    card = {"investor": "/i", "clan": "/c", None: ""}[pick.card]
    return f"{pick.family}{seat}{card}{'+j' if pick.joker else ''}"


def read(text: str) -> Pick:
    """A suggestion's value, or a family typed by hand; `Unreadable` if it names no family."""
    match = _VALUE.match(text.strip())
    if match is None:
        return Pick(parse_family(text))
    fam, seat, card, joker = match.groups()
    kind: CardKind | None = "investor" if card == "i" else "clan" if card == "c" else None
    return Pick(fam, int(seat) if seat is not None else None, kind, True if joker else None)


# --- travel ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """Where a travel card of a family can go: `seat` None is the investor beside the board."""

    seat: int | None
    card: CardKind


def travel_spots(view: PublicView, fam: str, target: int | None = None) -> list[Spot]:
    """The cards of `fam` a travel card could be played on now (only `target`'s, if given)."""
    r = view.round
    if r is None:
        return []
    owner = next((i.owner for i in view.investors if i.family == fam), None)
    on_travel = fam in r.travel
    spots: list[Spot] = []
    if not on_travel and (target is None or owner == target):
        spots.append(Spot(owner, "investor"))
    for s in range(view.seats):
        if (target is None or s == target) and s < len(r.clans) and fam in r.clans[s]:
            spots.append(Spot(s, "clan"))
    return [s for s in spots if target is None or s.seat == target]


def wants_joker(view: PlayerView, fam: str) -> bool:
    """The player holds no travel card of `fam` but a travel joker: the joker is what they can play."""
    return f"travel:{fam}" not in view.hand and JOKER in view.hand


def travel_options(
    view: PlayerView, pick: Pick, target: int | None, card: str | None, joker: bool | None
) -> tuple[int | None, str | None, bool]:
    """(target, card, joker) for `/kkk travel`: the player's own options, else the pick's, else the one possibility
    the table leaves (see the module docstring)."""
    if target is None and pick.seat is not None:
        target, card = pick.seat, card or pick.card
    elif target is not None and target == pick.seat:
        card = card or pick.card
    elif target is None:
        spots = travel_spots(view, pick.family)
        if len(spots) == 1 and spots[0].seat is not None:  # not beside the board, and only one card to aim at
            target, card = spots[0].seat, card or spots[0].card
    if joker is None:
        joker = pick.joker if pick.joker is not None else wants_joker(view, pick.family)
    return target, card, joker


def travel_hint(view: PlayerView, fam: str, target: int | None, card: str | None, joker: bool, names: list[str]) -> str:
    """What to add to a refused `/kkk travel` when an option is missing ("" when none is)."""
    name = family_name(fam)
    owner = next((i.owner for i in view.investors if i.family == fam), None)
    if target is None and owner is not None:
        seats = list(dict.fromkeys(s.seat for s in travel_spots(view, fam) if s.seat is not None))
        if seats:
            ways = or_list([_target(view, fam, s, names) for s in seats])
            return _("Add %(ways)s.", ways=ways)
    if target is not None and card is None and len(travel_spots(view, fam, target)) > 1:
        return _(
            "Add `card:` — the %(family)s investor or the %(family)s clan card of %(who)s.",
            family=name,
            who=names[target],
        )
    if not joker and wants_joker(view, fam):
        return _("Add `joker:True` to play your travel joker.")
    return ""


def _target(view: PublicView, fam: str, seat: int, names: list[str]) -> str:
    kinds = [s.card for s in travel_spots(view, fam, seat)]
    if len(kinds) > 1:
        return _("%(target)s with `card:`", target=f"`target:@{names[seat]}`")
    if kinds[0] == "investor":
        return f"`target:@{names[seat]}` (" + _("%(who)s's investor", who=names[seat]) + ")"
    return f"`target:@{names[seat]}` (" + _("%(who)s's clan card", who=names[seat]) + ")"


# --- offers ------------------------------------------------------------------------------------------


def sellers(view: PublicView, fam: str) -> list[int]:
    """The players other than the Boss with a card of `fam` on the table this round (an offer's possible sellers)."""
    r = view.round
    if r is None:
        return []
    out = []
    for s in range(view.seats):
        if s == r.boss:
            continue
        investor = any(i.family == fam and i.owner == s and not i.on_travel for i in view.investors)
        if investor or (s < len(r.clans) and fam in r.clans[s]):
            out.append(s)
    return out


def offer_to(view: PlayerView, pick: Pick | None, to: int | None) -> int | None:
    """The `to:` of an offer: the player's own, else (for the Boss) the pick's seat or the one possible seller."""
    r = view.round
    if to is not None or r is None or view.you != r.boss:
        return to
    if pick is None:
        return None
    if pick.seat is not None:
        return pick.seat
    found = sellers(view, pick.family)
    return found[0] if len(found) == 1 else None


def offer_hint(view: PlayerView, fam: str | None, to: int | None, names: list[str]) -> str:
    """What to add to a refused `/kkk offer` when the Boss left out `to:` ("" otherwise)."""
    r = view.round
    if r is None or view.you != r.boss or to is not None:
        return ""
    if fam is None:
        return _("Add `to:@player` — the player you would pay a share to.")
    found = sellers(view, fam)
    if not found:
        return ""
    ways = or_list([f"`to:@{names[s]}`" for s in found])
    return _("Add %(ways)s — who has the %(family)s card you want.", ways=ways, family=family_name(fam))
