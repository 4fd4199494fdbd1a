"""What the clock chooses for an event's player who let the deadline pass (the players' page says it too:
`docs/rules/schwarzmarkt.md`, "Fine print").

A default stands in for a player who did not answer, so whatever of it the table sees (a count, a kind, a target)
is drawn from public facts alone (ruling). Picking uniformly from the list of legal choices would not do: that list
depends on the mix of kinds in a hidden hand, so its shape would leak through the choice (a Forced Swap's public
count of cards given, for one). Hence:
- a target: uniformly among the legal targets (they depend on public hand sizes only);
- Forced Swap: always 1 card, drawn at random from the hand (every card equally likely, not every kind);
- Raid: one of the five kinds, uniformly (not one the target is known to hold);
- Quick Deal: a card drawn at random from the hand (the card traded is public by the rules anyway);
- New Goods Found: a card drawn at random from the pile (the table sees only that a card was taken).

Each draws the same number of random numbers from the generator whatever the hidden hands hold (one, from a range
of public size), so no later random draw depends on them either.
"""

from engine.schwarzmarkt import eventcards
from engine.schwarzmarkt.actions import Give, Pick, Target
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState


def event_default(state: SchwarzmarktState) -> Target | Pick | Give:
    """The choice made for the pending event's player at the deadline."""
    p = state.pending
    assert p is not None
    rng = state.rng
    match p.step:
        case "target":
            return Target(seat=rng.choice(eventcards.targets(state)))
        case "give":
            return Give(cards=(_card_at_random(rng.below(state.hand_count(p.chooser)), state.goods[p.chooser]),))
    match p.kind:
        case "raid":
            return Pick(good=rng.choice(GOODS))
        case "quick_deal":
            return Pick(good=_card_at_random(rng.below(state.hand_count(p.chooser)), state.goods[p.chooser]))
        case "new_goods":
            return Pick(good=_card_at_random(rng.below(sum(state.goods_pile)), state.goods_pile))
    raise AssertionError(p)


def _card_at_random(index: int, counts: list[int]) -> str:
    """The kind of the `index`-th card of a hand (or pile) laid out kind by kind."""
    for kind, n in enumerate(counts):
        if index < n:
            return GOODS[kind]
        index -= n
    raise AssertionError("index beyond the cards")
