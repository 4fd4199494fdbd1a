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

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, private, public
from engine.schwarzmarkt import rounds
from engine.schwarzmarkt.market import GOODS, counts_of
from engine.schwarzmarkt.state import Pending, SchwarzmarktState
from engine.schwarzmarkt.turns import discard, new_wait

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


def asking(state: SchwarzmarktState) -> dict[str, JsonValue]:
    """What the chooser is asked now, as values (public: the table sees what is awaited): the event's `event` kind,
    its `step`, its `seat` (the chooser), `target` (once chosen) and the amounts the words need (`quick_deal`,
    `cost`)."""
    p = state.pending
    assert p is not None
    about: dict[str, JsonValue] = {"event": p.kind, "step": p.step, "seat": p.chooser, "target": p.target}
    if p.kind == "quick_deal":
        about["quick_deal"] = state.quick_deal
    if p.kind == "new_goods":
        about["cost"] = state.new_goods_cost
    return about


def begin(state: SchwarzmarktState, card: int, now: datetime) -> list[Event]:
    """The starter has played the event `card`: carry it out, or ask its player for the first choice."""
    seat = state.starter
    kind = state.cards[card].event
    assert kind is not None
    if kind in TIMED:
        state.in_force.append(card)
        limit = state.track[state.limit_space - 1].price
        return [public("in_force", event=kind, card=card, limit=limit), *rounds.next_starter(state, now)]
    step = "pick" if kind in ("quick_deal", "new_goods") else "target"
    state.pending = Pending(card=card, kind=kind, chooser=seat, step=step)
    void = void_reason(state)
    if void is not None:
        state.pending = None
        discard(state, card)
        return [public("void", event=kind, card=card, seat=seat, **void), *rounds.next_starter(state, now)]
    state.phase = "event"
    state.turn = seat
    new_wait(state, now)
    return [public("choose", **asking(state))]


def void_reason(state: SchwarzmarktState) -> dict[str, JsonValue] | None:
    """Why the pending event is void, as values: `why` ("no_goods", "cant_pay" with `cost`, "pile_empty",
    "no_target"), or None."""
    p = state.pending
    assert p is not None
    mine = state.hand_count(p.chooser)
    if p.kind in ("quick_deal", "forced_swap") and mine == 0:
        return {"why": "no_goods"}
    if p.kind == "new_goods":
        if state.luxury[p.chooser] < state.new_goods_cost:
            return {"why": "cant_pay", "cost": state.new_goods_cost}
        if sum(state.goods_pile) == 0:
            return {"why": "pile_empty"}
    if p.step == "target" and not targets(state):
        return {"why": "no_target"}
    return None


def choose_target(
    state: SchwarzmarktState, seat: int, target: int, now: datetime, by_default: bool = False
) -> list[Event]:
    p = _awaiting(state, seat, "target")
    if target == seat:
        raise rule("target_self")
    if not 0 <= target < state.seats or not state.playing(target):
        raise rule("target_not_playing")
    if target not in targets(state):
        raise rule("target_no_goods", target=target)
    p.target = target
    match p.kind:
        case "espionage":
            return _espionage(state, by_default, now)
        case "old_debt":
            return _old_debt(state, by_default, now)
        case "forced_swap":
            p.step = "give"
        case "raid":
            p.step = "pick"
    new_wait(state, now)
    return [public("target", **asking(state), by_default=by_default)]


def pick(state: SchwarzmarktState, seat: int, good: str, now: datetime, by_default: bool = False) -> list[Event]:
    p = _awaiting(state, seat, "pick")
    if good not in GOODS:
        raise rule("not_a_good", good=good)
    if good not in picks(state):
        if p.kind == "quick_deal":
            raise rule("no_such_good", good=good)
        raise rule("pile_lacks_good", good=good)
    kind = GOODS.index(good)  # type: ignore[arg-type]
    chooser = p.chooser
    events: list[Event] = []
    match p.kind:
        case "quick_deal":
            state.goods[chooser][kind] -= 1
            state.goods_pile[kind] += 1
            state.luxury[chooser] += state.quick_deal
            events.append(
                Event(
                    kind="quick_deal",
                    data={"seat": chooser, "good": good, "paid": state.quick_deal, "by_default": by_default},
                    reveals=True,
                )
            )
            if state.hand_count(chooser) == 0:
                return events + rounds.end_game_round(state, chooser, now)
        case "new_goods":
            state.luxury[chooser] -= state.new_goods_cost
            state.goods_pile[kind] -= 1
            state.goods[chooser][kind] += 1
            events.append(public("new_goods", seat=chooser, paid=state.new_goods_cost, by_default=by_default))
            events.append(private(chooser, "took", seat=chooser, good=good))
        case "raid":
            target = p.target
            assert target is not None
            lost = state.goods[target][kind]
            state.goods[target][kind] = 0
            state.goods_pile[kind] += lost
            events.append(
                Event(
                    kind="raid",
                    data={"seat": chooser, "target": target, "good": good, "lost": lost, "by_default": by_default},
                    reveals=True,
                )
            )
    return events + _done(state, now)


def give(
    state: SchwarzmarktState, seat: int, cards: tuple[str, ...], now: datetime, by_default: bool = False
) -> list[Event]:
    p = _awaiting(state, seat, "give")
    target = p.target
    assert target is not None
    if not 1 <= len(cards) <= 2:
        raise rule("give_one_or_two")
    if any(c not in GOODS for c in cards):
        bad = next(c for c in cards if c not in GOODS)
        raise rule("not_a_good", good=bad)
    counts = counts_of(cards)
    for kind, n in enumerate(counts):
        if n > state.goods[seat][kind]:
            raise rule("not_enough_goods", good=GOODS[kind], n=state.goods[seat][kind])
    if len(cards) > state.hand_count(target):
        raise rule("target_holds_fewer", target=target, n=state.hand_count(target))
    # Take from the cards the target held before the given ones arrive.
    before = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    taken = counts_of(state.rng.sample(before, len(cards)))
    for kind in range(len(GOODS)):
        state.goods[seat][kind] += taken[kind] - counts[kind]
        state.goods[target][kind] += counts[kind] - taken[kind]
    n = len(cards)
    events = [
        public("forced_swap", seat=seat, target=target, count=n, by_default=by_default),
        private(
            (seat, target),
            "swapped",
            seat=seat,
            target=target,
            given=counts,
            taken=taken,
        ),
    ]
    return events + _done(state, now)


def _espionage(state: SchwarzmarktState, by_default: bool, now: datetime) -> list[Event]:
    p = state.pending
    assert p is not None and p.target is not None
    target = p.target
    hand = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    shown = counts_of(state.rng.sample(hand, min(2, len(hand))))
    data: dict[str, JsonValue] = {"seat": p.chooser, "target": target, "shown": shown, "by_default": by_default}
    event = Event(kind="espionage", data=data, reveals=True)
    return [event, *_done(state, now)]


def _old_debt(state: SchwarzmarktState, by_default: bool, now: datetime) -> list[Event]:
    p = state.pending
    assert p is not None and p.target is not None
    target, seat = p.target, p.chooser
    hand = [GOODS[k] for k, n in enumerate(state.goods[target]) for _ in range(n)]
    good = state.rng.choice(hand)
    kind = GOODS.index(good)  # type: ignore[arg-type]
    state.goods[target][kind] -= 1
    state.goods[seat][kind] += 1
    events = [
        public("old_debt", seat=seat, target=target, by_default=by_default),
        private(
            (seat, target),
            "debt_paid",
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
        raise rule("no_event_pending")
    if seat != p.chooser:
        raise rule("not_your_event", seat=p.chooser, event=p.kind)
    if p.step != step:
        raise rule("not_that_step", **asking(state))
    return p
