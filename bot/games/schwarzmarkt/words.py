"""How Schwarzmarkt names its things, in the language being spoken: goods and amounts of goods, the black-market
cards and what each does. Shared by the narration, the status, the hand, the buttons and the refusals, so they all
read the same words (the glossary, `docs/glossary/schwarzmarkt.<lang>.md`, says which).
"""

from collections.abc import Mapping, Sequence

from engine.schwarzmarkt.market import GOODS

from .i18n import N_, _, n_

GOOD_NAMES: dict[str, str] = {
    "potatoes": N_("potatoes"),
    "flour": N_("flour"),
    "coffee": N_("coffee"),
    "butter": N_("butter"),
    "sugar": N_("sugar"),
}
"""Each kind of goods as a word (plural, as a kind is named: "a Raid for coffee")."""

EVENT_NAMES: dict[str, str] = {
    "shortage": N_("Shortage"),
    "espionage": N_("Espionage"),
    "quick_deal": N_("Quick Deal"),
    "forced_swap": N_("Forced Swap"),
    "raid": N_("Raid"),
    "new_goods": N_("New Goods Found"),
    "limit": N_("Limit"),
    "old_debt": N_("Old Debt"),
    "spoiled_goods": N_("Spoiled Goods"),
}

PRINTED: dict[str, str] = {
    "shortage": "Waren knapp",
    "espionage": "Spionage",
    "quick_deal": "Schnelles Geschäft",
    "forced_swap": "Zwangstausch",
    "raid": "Razzia",
    "new_goods": "Neue Ware entdeckt",
    "limit": "Limit",
    "old_debt": "Alte Rechnung",
    "spoiled_goods": "Verdorbene Ware",
}
"""The names printed on the (German) cards: proper names, the same in every language."""


def good_name(good: str) -> str:
    """A kind of goods as a word ("coffee"); an unknown kind as typed."""
    return _(GOOD_NAMES[good]) if good in GOOD_NAMES else good


def amount(n: int, good: str) -> str:
    """ "1 potato", "3 potatoes", "2 coffee"."""
    match good:
        case "potatoes":
            return n_("%(n)d potato", "%(n)d potatoes", n)
        case "flour":
            return n_("%(n)d flour", "%(n)d flour", n)
        case "coffee":
            return n_("%(n)d coffee", "%(n)d coffee", n)
        case "butter":
            return n_("%(n)d butter", "%(n)d butter", n)
        case "sugar":
            return n_("%(n)d sugar", "%(n)d sugar", n)
    return f"{n} {good}"


def goods_text(counts: Sequence[int] | Mapping[str, int], empty: str | None = None) -> str:
    """Counts per kind (in `GOODS` order, or by kind) as "2 coffee, 1 sugar"; `empty` (default "nothing") if none."""
    if isinstance(counts, Mapping):
        counts = [counts.get(g, 0) for g in GOODS]
    parts = [amount(n, g) for g, n in zip(GOODS, counts, strict=True) if n]
    return ", ".join(parts) if parts else (empty if empty is not None else _("nothing"))


def event_name(kind: str) -> str:
    """An event by the name the table uses for it."""
    return _(EVENT_NAMES[kind]) if kind in EVENT_NAMES else kind


def printed_name(kind: str) -> str:
    """The event's name, with the name printed on the card where that differs ("Raid (Razzia)")."""
    name = event_name(kind)
    printed = PRINTED.get(kind, name)
    return name if printed == name else f"{name} ({printed})"


def event_effect(kind: str, quick_deal: int = 20, cost: int = 5, limit_price: int = 25) -> str:
    """What an event does, in one sentence."""
    match kind:
        case "shortage":
            return _("In the next trading round each player may trade at most one card per turn.")
        case "espionage":
            return _("Choose a player: 2 of their goods cards, drawn at random, are shown to everyone.")
        case "quick_deal":
            return _("Trade one of your goods cards of your choice for %(n)d luxury goods.", n=quick_deal)
        case "forced_swap":
            return _("Give a player 1 or 2 of your goods cards, then take as many from their hand at random.")
        case "raid":
            return _("Name a player and a kind of goods: they put every card of that kind under the goods pile.")
        case "new_goods":
            return _("Pay %(n)d luxury goods and take any one card you choose from the goods pile.", n=cost)
        case "limit":
            return _("The next trading round ends at price %(price)d instead of 50.", price=limit_price)
        case "old_debt":
            return _("Take one goods card at random from a player of your choice.")
        case "spoiled_goods":
            return _("The first goods card traded in the next trading round pays half its price.")
    return ""


def offer_name(wants: Sequence[int] | Mapping[str, int]) -> str:
    """An offer as what it wants: "Offer: 2 coffee, 2 butter"."""
    return _("Offer: %(goods)s", goods=goods_text(wants))
