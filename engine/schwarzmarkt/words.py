"""How the game names its things in text: goods, amounts of goods, black-market cards and what each does.

Shared by the rules' narration and refusals and by the presentation, so the table and the hand read the same words.
"""

from collections.abc import Sequence

from engine.schwarzmarkt.market import GOODS, Card, EventKind

ONE = {"potatoes": "potato", "flour": "flour", "coffee": "coffee", "butter": "butter", "sugar": "sugar"}

EVENT_NAMES: dict[EventKind, str] = {
    "shortage": "Shortage",
    "espionage": "Espionage",
    "quick_deal": "Quick Deal",
    "forced_swap": "Forced Swap",
    "raid": "Raid",
    "new_goods": "New Goods Found",
    "limit": "Limit",
    "old_debt": "Old Debt",
    "spoiled_goods": "Spoiled Goods",
}

GERMAN: dict[EventKind, str] = {
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


def event_effect(kind: EventKind, quick_deal: int = 20, cost: int = 5, limit_price: int = 25) -> str:
    """What an event does, in one sentence."""
    return {
        "shortage": "In the next trading round each player may trade at most one card per turn.",
        "espionage": "Choose a player: 2 of their goods cards, drawn at random, are shown to everyone.",
        "quick_deal": f"Trade one of your goods cards of your choice for {quick_deal} luxury goods.",
        "forced_swap": "Give a player 1 or 2 of your goods cards, then take as many from their hand at random.",
        "raid": "Name a player and a kind of goods: they put every card of that kind under the goods pile.",
        "new_goods": f"Pay {cost} luxury goods and take any one card you choose from the goods pile.",
        "limit": f"The next trading round ends at price {limit_price} instead of 50.",
        "old_debt": "Take one goods card at random from a player of your choice.",
        "spoiled_goods": "The first goods card traded in the next trading round pays half its price.",
    }[kind]


def amount(n: int, good: str) -> str:
    """ "1 potato", "3 potatoes", "2 coffee"."""
    return f"{n} {ONE.get(good, good) if n == 1 else good}"


def goods_text(counts: Sequence[int], empty: str = "nothing") -> str:
    """Counts per kind (in `GOODS` order) as "2 coffee, 1 sugar"."""
    parts = [amount(n, g) for g, n in zip(GOODS, counts, strict=True) if n]
    return ", ".join(parts) if parts else empty


def counts_of(cards: Sequence[str]) -> list[int]:
    """A list of kinds ("coffee", "coffee") as counts per kind; unknown kinds are left out (the rules check them)."""
    out = [0] * len(GOODS)
    for c in cards:
        if c in GOODS:
            out[GOODS.index(c)] += 1  # type: ignore[arg-type]
    return out


def cards_text(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def card_name(card: Card) -> str:
    """An offer as what it wants ("Offer: 2 coffee, 2 butter"), an event by its name."""
    if card.event is None:
        return f"Offer: {goods_text(card.wants)}"
    return EVENT_NAMES[card.event]
