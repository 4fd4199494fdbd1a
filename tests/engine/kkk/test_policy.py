"""The Kohle, Kies & Knete computer player and autopilot (`engine.kkk.policy`).

- It reads only its seat's view: two states that differ only in other players' secrets (hands, money, the draw
  pile's order) give the same decision for the same seed.
- It never makes a move the rules refuse, in either mode, over seeded self-play games (the driver applies every
  decision through `apply`, which raises `RuleError`), and those games end by the rules.
- The autopilot spends no card on another's deal (no STOP, Boss or travel card; clan cards only as the Boss), makes
  and shakes only agreements that pay it (a seller: money; the Boss: it keeps a share), and a table of autopilots
  ends by the rules.
- A few positions: it opens what it can cover, shakes a fair offer, counters a low one, STOPs a recruitment of its
  investor, closes a covered deal.
"""

import random
from collections import Counter
from typing import Any

from engine.kkk import actions as A
from engine.kkk.cards import BOSS, RECRUIT, STOP, clan, travel
from engine.kkk.negotiation import value
from engine.kkk.policy import KkkPolicy
from engine.kkk.randomplay import play
from engine.kkk.state import KkkState
from engine.kkk.table import dividend_value, payout
from engine.kkk.waits import refresh

from ..test_policy import BOTS, GAMES
from .helpers import GAME, NOW, Table, prepared

POLICY = KkkPolicy(GAME)


def decide(state: KkkState, seat: int, seed: int = 0, *, autopilot: bool = False) -> Any:
    return POLICY.decide(
        GAME.view(state, seat), GAME.legal_actions(state, seat), seat, random.Random(seed), autopilot=autopilot
    )


# --- own view only ------------------------------------------------------------------------------------------------


def other_secrets_changed(state: KkkState, seat: int, rnd: random.Random) -> KkkState:
    """The same table for `seat`: the other players' cards dealt anew from their hands and the draw pile (sizes
    kept), their money changed."""
    twin = state.model_copy(deep=True)
    others = [s for s in range(state.seats) if s != seat]
    pool = [c for s in others for c in twin.hands[s]] + list(twin.draw)
    rnd.shuffle(pool)
    for s in others:
        n = len(twin.hands[s])
        twin.hands[s] = sorted(pool[:n])
        pool = pool[n:]
        twin.money[s] += 7
    twin.draw = pool
    return twin


def test_a_decision_depends_only_on_the_seats_own_view() -> None:
    rnd = random.Random(4)
    states: list[KkkState] = []
    for seed in range(3):
        play(GAME, 4, seed, on_step=lambda st, *_: states.append(st), max_actions=400)
    compared = differed = 0
    for state in states[::5]:
        for seat in range(4):
            if not GAME.legal_actions(state, seat):
                continue
            twin = other_secrets_changed(state, seat, rnd)
            differed += twin.hands != state.hands
            assert GAME.view(twin, seat) == GAME.view(state, seat)
            for autopilot in (False, True):
                assert decide(state, seat, 11, autopilot=autopilot) == decide(twin, seat, 11, autopilot=autopilot)
            compared += 1
    assert compared > 200 and differed > 100


# --- seeded games: no refused move, no stall ----------------------------------------------------------------------


def test_policies_play_whole_games_without_a_refused_move() -> None:
    weigh = BOTS.WEIGHERS["kkk"]()
    runs: list[tuple[set[int], set[int], Any]] = [
        ({0}, set(), weigh),
        ({2}, set(), None),  # against uniformly random seats: odd positions
        ({0, 1, 2, 3}, set(), None),
        ({1}, {1}, weigh),
        ({0, 3}, {3}, None),
    ]
    for i, (seats, autopilot, weigher) in enumerate(runs):
        for seed in range(2):
            played = BOTS.play_one(
                GAMES["kkk"], 4, 100 * i + seed, seats, autopilot_seats=autopilot, weigher=weigher, max_actions=3000
            )
            assert not played.capped, (i, seed)


def test_the_autopilot_agrees_only_to_what_pays_it_and_spends_no_card_on_others() -> None:
    seen: Counter[str] = Counter()

    def check(state: KkkState, actor: int | None, action: Any, after: KkkState) -> None:
        if actor != 2:
            return
        seen[type(action).__name__] += 1
        r = state.round
        boss = r is not None and r.boss == 2
        assert not isinstance(action, A.Stop | A.Boss | A.Travel | A.AlwaysPass)
        if isinstance(action, A.PlayClan | A.Recruit):
            assert boss  # only for its own deal
        if isinstance(action, A.Offer) and not boss:
            assert action.family is not None and state.investors.get(action.family) == 2 and action.price >= 1
        if isinstance(action, A.Offer) and boss:
            assert action.price >= 1
            promised = sum(value(o, dividend_value(state)) for o in state.offers if o.status == "binding")
            assert payout(state) - promised - action.price >= 0
        if isinstance(action, A.Shake):
            offer = next(o for o in state.offers if o.id == action.offer)
            paid = value(offer, dividend_value(state))
            if offer.seller == 2:
                assert paid > 0
            else:
                assert boss and after.round is not None
                promised = sum(value(o, dividend_value(after)) for o in after.offers if o.status == "binding")
                assert payout(after) - promised >= dividend_value(after)  # it keeps at least a share

    for seed in range(6):
        BOTS.play_one(GAMES["kkk"], 4, seed, {2}, autopilot_seats={2}, weigher=BOTS.WEIGHERS["kkk"](), on_step=check)
    # The checks above did meet every kind of move that matters (the seeds make sure of it).
    assert seen["Shake"] > 0 and seen["Open"] > 0 and seen["Offer"] > 0 and seen["Pass"] > 0, seen


def test_a_table_of_autopilots_ends_by_the_rules() -> None:
    # Only concluded deals bring the end nearer: seats that only rolled and drew would play for ever.
    for seed in range(3):
        played = BOTS.play_one(GAMES["kkk"], 4, seed, set(range(4)), autopilot_seats=set(range(4)), max_actions=1500)
        assert not played.capped, seed


# --- positions ----------------------------------------------------------------------------------------------------

ALL_OWNED = {"H": 0, "K": 1, "L": 2, "P": 3, "R": 0, "T": 1}


def test_it_opens_a_deal_it_can_cover_and_rolls_on_a_hopeless_one() -> None:
    # Space 1 needs R and L: seat 0 owns R, and holds an L clan card.
    coverable = prepared(4, ALL_OWNED, [[clan("L")], [], [], []], marker=1, turn=0)
    assert decide(coverable, 0) == A.Open()
    # Space 1 with R and L beside the board, and no clan card: nobody can bring them.
    beside = {**ALL_OWNED, "R": None, "L": None}
    hopeless = prepared(4, beside, [[], [], [], []], marker=1, turn=0)
    assert decide(hopeless, 0) == A.Roll()
    assert decide(_rolled(hopeless), 0) == A.Draw()


def _rolled(state: KkkState) -> KkkState:
    t = Table(state)
    t(0, A.Roll())
    return t.state


def test_the_autopilot_opens_what_it_can_cover_rolls_otherwise_and_passes() -> None:
    coverable = prepared(4, ALL_OWNED, [[clan("L")], [], [], []], marker=1, turn=0)
    assert decide(coverable, 0, autopilot=True) == A.Open()
    beside = {**ALL_OWNED, "R": None, "L": None}
    hopeless = prepared(4, beside, [[STOP], [STOP], [], []], marker=1, turn=0)
    assert decide(hopeless, 0, autopilot=True) == A.Roll()
    rolled = _rolled(hopeless)
    if rolled.round is None and rolled.phase == "rolled":
        assert decide(rolled, 0, autopilot=True) in (A.Draw(), A.Open())
    t = Table(prepared(4, ALL_OWNED, [[BOSS], [STOP], [], []], marker=1, turn=2))
    t(2, A.Open())
    t(0, A.Boss())
    assert decide(t.state, 1, autopilot=True) == A.Pass()  # it holds a STOP, and passes all the same


def test_a_fair_offer_is_shaken_and_a_low_one_countered() -> None:
    # Space 1 (R, L; 3 dividends of $2M): seat 2 is Boss and owns L; seat 0 owns R.
    t = Table(prepared(4, ALL_OWNED, [[], [], [], []], marker=1, turn=2))
    t(2, A.Open())
    t(2, A.Offer(price=2, family="R", to=0))
    shake = decide(t.state, 0)
    assert isinstance(shake, A.Shake)
    t(2, A.Withdraw(offer=shake.offer))
    t(2, A.Offer(price=1, family="R", to=0))
    counter = decide(t.state, 0)
    assert isinstance(counter, A.Offer) and counter.family == "R" and counter.price >= 2


def test_the_boss_closes_a_covered_deal_and_buys_what_it_lacks() -> None:
    t = Table(prepared(4, ALL_OWNED, [[], [], [clan("R")], []], marker=1, turn=2))
    t(2, A.Open())
    first = decide(t.state, 2)
    assert first == A.PlayClan(family="R")  # its own clan card before paying anyone
    t(2, first)
    assert decide(t.state, 2) == A.Close()
    # Without the clan card it offers a share to seat 0, who owns R.
    u = Table(prepared(4, ALL_OWNED, [[], [], [], []], marker=1, turn=2))
    u(2, A.Open())
    offer = decide(u.state, 2)
    assert isinstance(offer, A.Offer) and offer.to == 0 and offer.family == "R" and offer.price == 2


def test_it_stops_a_recruitment_of_its_own_investor_only() -> None:
    hands = [[RECRUIT, RECRUIT, RECRUIT], [STOP], [STOP], []]
    t = Table(prepared(4, ALL_OWNED, hands, marker=1, turn=0))
    t(0, A.Open())
    t(0, A.Recruit(family="K"))  # seat 1's investor
    assert decide(t.state, 1) == A.Stop()
    assert decide(t.state, 2) == A.Pass()


def test_it_stops_a_travel_on_the_card_it_sells() -> None:
    hands = [[], [travel("R")], [], [STOP]]
    t = Table(prepared(4, {**ALL_OWNED, "R": 3}, hands, marker=1, turn=2))
    t(2, A.Open())
    t(1, A.Travel(target=3, family="R"))
    assert decide(t.state, 3) == A.Stop()


def test_it_discards_its_least_useful_cards() -> None:
    hand = [STOP, STOP, BOSS, BOSS, clan("H"), clan("K"), clan("L"), travel("H"), travel("K"), travel("L")]
    hand += [RECRUIT, travel("P"), travel("T")]
    state = prepared(4, ALL_OWNED, [hand[:12], [], [], []], marker=1, turn=1)
    state.hands[0] = sorted(hand)  # 13 cards: one too many (only a draw does that in a game)
    state.deadline = None
    refresh(state, NOW)
    t = Table(state)
    action = decide(t.state, 0)
    assert isinstance(action, A.Discard)
    assert Counter(action.cards) <= Counter(travel(f) for f in "HKLPT")
    t(0, action)


def test_a_table_of_computer_players_never_waits_for_a_deadline() -> None:
    """Every wait is answered by a decision: no deadline default is ever needed (a None never stalls the table)."""

    def no_timeout(state: KkkState, actor: int | None, action: Any, after: KkkState) -> None:
        assert actor is not None, action

    for seats in (3, 5):
        played = BOTS.play_one(GAMES["kkk"], seats, seats, set(range(seats)), on_step=no_timeout, max_actions=3000)
        assert not played.capped
