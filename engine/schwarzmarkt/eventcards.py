"""The nine events: what each does, whom it may target, which choices it asks of the player who played it, and who
learns what (the players' page, `docs/rules/schwarzmarkt.md`, tells it in words).

Shortage, Limit and Spoiled Goods need no choice: they go face up (`state.in_force`) until the next trading round
ends. The others ask their player, step by step (`Pending.step`): `target` (a player: Espionage, Forced Swap, Raid,
Old Debt), then `give` (Forced Swap's 1 or 2 cards) or `pick` (Raid's kind); Quick Deal and New Goods Found start
with `pick` (a card from your hand / from the goods pile).

Decisions where the specification is silent:
- "A player" is another player still in the game. Espionage, Forced Swap and Old Debt may only target a player who
  holds at least one goods card (hand sizes are public, so the list of targets gives nothing away); Raid may target
  anyone (a Raid on a kind they lack takes nothing). An event with nobody to target, nothing to give or take, or too
  little to pay is void: said so publicly and discarded.
- Espionage on a player with a single goods card shows that one card.
- Forced Swap: you give at most as many cards as your target holds, so you always take back as many as you gave.
- New Goods Found: while its player chooses, their own view (and only theirs) shows the goods pile by kind.
- Every event card goes under the black-market pile when done with.
"""

from datetime import datetime

from engine.errors import RuleError
from engine.events import Event, private, public
from engine.schwarzmarkt import rounds
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import Pending, SchwarzmarktState
from engine.schwarzmarkt.turns import discard, new_wait
from engine.schwarzmarkt.words import EVENT_NAMES, amount, cards_text, counts_of, goods_text
from engine.text import seat as ref

TIMED = ("shortage", "limit", "spoiled_goods")
"""Events about the next trading round: face up until it ends."""


def targets(state: SchwarzmarktState) -> list[int]:
    """The players the pending event may name."""
    p = state.pending
    assert p is not None
    others = [s for s in range(state.seats) if s != p.chooser and state.playing(s)]
    if p.kind == "raid":
        return others
    return [s for s in others if state.hand_count(s) > 0]


def picks(state: SchwarzmarktState) -> list[str]:
    """The kinds the pending event's `pick` step may name."""
    p = state.pending
    assert p is not None
    if p.kind == "quick_deal":
        return [g for i, g in enumerate(GOODS) if state.goods[p.chooser][i] > 0]
    if p.kind == "new_goods":
        return [g for i, g in enumerate(GOODS) if state.goods_pile[i] > 0]
    return list(GOODS)  # Raid: any kind


def gives(state: SchwarzmarktState) -> list[tuple[str, ...]]:
    """Forced Swap: the sets of 1 or 2 own cards the chooser may give (never more than the target holds)."""
    p = state.pending
    assert p is not None and p.target is not None
    hand = state.goods[p.chooser]
    most = min(2, state.hand_count(p.target), sum(hand))
    out: list[tuple[str, ...]] = [(g,) for i, g in enumerate(GOODS) if hand[i] > 0]
    if most >= 2:
        for i, a in enumerate(GOODS):
            for j in range(i, len(GOODS)):
                if hand[i] > 0 and hand[j] > (1 if i == j else 0):
                    out.append((a, GOODS[j]))
    return out


def asking(state: SchwarzmarktState) -> str:
    """What the chooser is asked now (public: the table sees what is awaited)."""
    p = state.pending
    assert p is not None
    name = EVENT_NAMES[p.kind]
    match p.kind, p.step:
        case "espionage", _:
            return f"choose a player for {name}: two of their goods cards will be shown to everyone"
        case "forced_swap", "target":
            return f"choose a player for {name}"
        case "forced_swap", _:
            return f"choose 1 or 2 of your goods cards to give {ref(p.target or 0)} ({name})"
        case "raid", "target":
            return f"choose a player for the {name}"
        case "raid", _:
            return f"name a kind of goods for the {name} on {ref(p.target or 0)}"
        case "old_debt", _:
            return f"choose a player to take a goods card from ({name})"
        case "quick_deal", _:
            return f"choose one of your goods cards to trade for {state.quick_deal} ({name})"
        case "new_goods", _:
            return f"pay {state.new_goods_cost} and choose a card from the goods pile ({name})"
    raise AssertionError(p)


def begin(state: SchwarzmarktState, card: int, now: datetime) -> list[Event]:
    """The starter has played the event `card`: carry it out, or ask its player for the first choice."""
    seat = state.starter
    kind = state.cards[card].event
    assert kind is not None
    name = EVENT_NAMES[kind]
    if kind in TIMED:
        state.in_force.append(card)
        what = {
            "shortage": "in the next trading round everyone may trade at most one card per turn",
            "limit": f"the next trading round ends at price {state.track[state.limit_space - 1].price}",
            "spoiled_goods": "the first goods card traded in the next trading round pays half",
        }[kind]
        return [public("in_force", f"{name}: {what}.", event=kind, card=card), *rounds.next_starter(state, now)]
    step = "pick" if kind in ("quick_deal", "new_goods") else "target"
    state.pending = Pending(card=card, kind=kind, chooser=seat, step=step)
    void = void_reason(state)
    if void is not None:
        state.pending = None
        discard(state, card)
        return [public("void", f"{name} is void: {void}", event=kind, card=card), *rounds.next_starter(state, now)]
    state.phase = "event"
    state.turn = seat
    new_wait(state, now)
    return [public("choose", f"{ref(seat)}, {asking(state)}.", seat=seat, event=kind, step=step)]


def void_reason(state: SchwarzmarktState) -> str | None:
    p = state.pending
    assert p is not None
    mine = state.hand_count(p.chooser)
    if p.kind in ("quick_deal", "forced_swap") and mine == 0:
        return f"{ref(p.chooser)} has no goods cards."
    if p.kind == "new_goods":
        if state.luxury[p.chooser] < state.new_goods_cost:
            return f"{ref(p.chooser)} can't pay {state.new_goods_cost}."
        if sum(state.goods_pile) == 0:
            return "the goods pile is empty."
    if p.step == "target" and not targets(state):
        return "there is nobody it could target."
    return None


def choose_target(state: SchwarzmarktState, seat: int, target: int, now: datetime, lead: str = "") -> list[Event]:
    p = _awaiting(state, seat, "target")
    if target == seat:
        raise RuleError("Choose another player — an event never targets yourself.")
    if not 0 <= target < state.seats or not state.playing(target):
        raise RuleError("Choose a player who is in this game.")
    if target not in targets(state):
        raise RuleError(f"{ref(target)} has no goods cards — choose a player who has some.")
    p.target = target
    match p.kind:
        case "espionage":
            return _espionage(state, lead, now)
        case "old_debt":
            return _old_debt(state, lead, now)
        case "forced_swap":
            p.step = "give"
        case "raid":
            p.step = "pick"
    new_wait(state, now)
    text = f"{lead}{ref(seat)} chooses {ref(target)}. {ref(seat)}, {asking(state)}."
    return [public("target", text, seat=seat, target=target, event=p.kind)]


def pick(state: SchwarzmarktState, seat: int, good: str, now: datetime, lead: str = "") -> list[Event]:
    p = _awaiting(state, seat, "pick")
    if good not in GOODS:
        raise RuleError(f"'{good}' isn't a kind of goods — name potatoes, flour, coffee, butter or sugar.")
    if good not in picks(state):
        if p.kind == "quick_deal":
            raise RuleError(f"You have no {good} — choose a card from your own hand.")
        raise RuleError(f"The goods pile has no {good} — choose a kind that is there.")
    kind = GOODS.index(good)  # type: ignore[arg-type]
    chooser = p.chooser
    events: list[Event] = []
    match p.kind:
        case "quick_deal":
            state.goods[chooser][kind] -= 1
            state.goods_pile[kind] += 1
            state.luxury[chooser] += state.quick_deal
            text = f"{lead}{ref(chooser)} trades {amount(1, good)} for {state.quick_deal} (Quick Deal)."
            events.append(
                Event(
                    kind="quick_deal",
                    text=text,
                    data={"seat": chooser, "good": good, "paid": state.quick_deal},
                    reveals=True,
                )
            )
            if state.hand_count(chooser) == 0:
                return events + rounds.end_game_round(state, chooser, now)
        case "new_goods":
            state.luxury[chooser] -= state.new_goods_cost
            state.goods_pile[kind] -= 1
            state.goods[chooser][kind] += 1
            text = f"{lead}{ref(chooser)} pays {state.new_goods_cost} and takes a card from the goods pile."
            events.append(public("new_goods", text, seat=chooser, paid=state.new_goods_cost))
            events.append(private(chooser, "took", f"You take {amount(1, good)} from the goods pile.", good=good))
        case "raid":
            target = p.target
            assert target is not None
            lost = state.goods[target][kind]
            state.goods[target][kind] = 0
            state.goods_pile[kind] += lost
            text = f"{lead}{ref(chooser)} raids {ref(target)} for {good}: " + (
                f"{amount(lost, good)} go under the goods pile." if lost else f"they have no {good}."
            )
            events.append(
                Event(
                    kind="raid",
                    text=text,
                    data={"seat": chooser, "target": target, "good": good, "lost": lost},
                    reveals=True,
                )
            )
    return events + _done(state, now)


def give(state: SchwarzmarktState, seat: int, cards: tuple[str, ...], now: datetime, lead: str = "") -> list[Event]:
    p = _awaiting(state, seat, "give")
    target = p.target
    assert target is not None
    if not 1 <= len(cards) <= 2:
        raise RuleError("Give 1 or 2 of your goods cards.")
    if any(c not in GOODS for c in cards):
        raise RuleError("Name the cards as kinds of goods: potatoes, flour, coffee, butter or sugar.")
    counts = counts_of(cards)
    for kind, n in enumerate(counts):
        if n > state.goods[seat][kind]:
            raise RuleError(f"You have only {amount(state.goods[seat][kind], GOODS[kind])} — give cards you hold.")
    if len(cards) > state.hand_count(target):
        raise RuleError(f"{ref(target)} holds only {cards_text(state.hand_count(target))}: give no more than that.")
    # Take from the cards the target held before the given ones arrive.
    before = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    taken = counts_of(state.rng.sample(before, len(cards)))
    for kind in range(len(GOODS)):
        state.goods[seat][kind] += taken[kind] - counts[kind]
        state.goods[target][kind] += counts[kind] - taken[kind]
    n = len(cards)
    events = [
        public(
            "forced_swap",
            f"{lead}{ref(seat)} gives {ref(target)} {cards_text(n)} and takes {cards_text(n)} from them at random.",
            seat=seat,
            target=target,
            count=n,
        ),
        private(
            (seat, target),
            "swapped",
            f"Forced Swap: {ref(seat)} gave {ref(target)} {goods_text(counts)} and took {goods_text(taken)}.",
            seat=seat,
            target=target,
            given=counts,
            taken=taken,
        ),
    ]
    return events + _done(state, now)


def _espionage(state: SchwarzmarktState, lead: str, now: datetime) -> list[Event]:
    p = state.pending
    assert p is not None and p.target is not None
    target = p.target
    hand = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    shown = counts_of(state.rng.sample(hand, min(2, len(hand))))
    text = (
        f"{lead}{ref(p.chooser)} spies on {ref(target)}: they hold {goods_text(shown)} (shown to all, then given back)."
    )
    event = Event(kind="espionage", text=text, data={"seat": p.chooser, "target": target, "shown": shown}, reveals=True)
    return [event, *_done(state, now)]


def _old_debt(state: SchwarzmarktState, lead: str, now: datetime) -> list[Event]:
    p = state.pending
    assert p is not None and p.target is not None
    target, seat = p.target, p.chooser
    hand = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    good = state.rng.choice(hand)
    kind = GOODS.index(good)  # type: ignore[arg-type]
    state.goods[target][kind] -= 1
    state.goods[seat][kind] += 1
    events = [
        public(
            "old_debt",
            f"{lead}{ref(seat)} takes a goods card at random from {ref(target)} (Old Debt).",
            seat=seat,
            target=target,
        ),
        private(
            (seat, target),
            "debt_paid",
            f"Old Debt: {ref(seat)} took {amount(1, good)} from {ref(target)}.",
            seat=seat,
            target=target,
            good=good,
        ),
    ]
    return events + _done(state, now)


def _done(state: SchwarzmarktState, now: datetime) -> list[Event]:
    """The event is carried out: its card goes under the pile; the next player starts."""
    p = state.pending
    assert p is not None
    discard(state, p.card)
    state.pending = None
    return rounds.next_starter(state, now)


def _awaiting(state: SchwarzmarktState, seat: int, step: str) -> Pending:
    p = state.pending
    if state.phase != "event" or p is None:
        raise RuleError("There's no event waiting for a choice right now.")
    if seat != p.chooser:
        raise RuleError(f"It's {ref(p.chooser)} who chooses for {EVENT_NAMES[p.kind]}.")
    if p.step != step:
        raise RuleError(f"Not that yet — {asking(state)}.")
    return p
