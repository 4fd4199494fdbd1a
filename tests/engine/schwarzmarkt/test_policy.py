"""The Schwarzmarkt computer player and autopilot: they read only their own view, only ever choose a legal move the
rules accept, always act on their turn, trade when it pays, and the autopilot's secret choices aren't fixed."""

import random
from datetime import timedelta
from typing import Any

import pytest

from engine.levels import Level
from engine.policy import policy_for
from engine.schwarzmarkt.actions import Play, Trade
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.policy import SchwarzmarktPolicy
from engine.schwarzmarkt.state import SchwarzmarktState

from .helpers import GAME, T0, arrange, hand, new_game

POLICY = policy_for(GAME)


def test_registered() -> None:
    assert isinstance(POLICY, SchwarzmarktPolicy)


def play(seed: int, bots: set[int], autopilot: bool, seats: int = 4) -> tuple[SchwarzmarktState, list[tuple]]:
    """A whole game where `bots` are played by the policy (checked at every decision) and the others by the random
    player; returns the final state and (state, seat) for every decision the policy took."""
    rnd = random.Random(seed)
    state = new_game(seats, dealer=None, seed=seed)
    now = T0
    asked: list[tuple[SchwarzmarktState, int]] = []
    for _ in range(5000):
        if state.phase == "over":
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        actor: int | None = seat
        action: Any
        if seat in bots:
            action = POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(seed), autopilot=autopilot)
            asked.append((state, seat))
            assert action is not None, "on its own turn the policy acts"
            assert action in legal, f"{action} is not among the legal moves"
        elif rnd.random() < 0.05:
            actor, action = None, GAME.legal_actions(state, None)[0]
        else:
            action = rnd.choice(legal)
        now += timedelta(minutes=rnd.randint(1, 90))
        state = GAME.apply(state, actor, action, now).state  # a RuleError here fails the test
    return state, asked


@pytest.mark.parametrize("autopilot", [False, True])
def test_one_policy_seat_never_breaks_a_rule(autopilot: bool) -> None:
    for seed in range(8):
        final, asked = play(seed, {seed % 4}, autopilot)
        assert final.phase == "over" and asked


@pytest.mark.parametrize("autopilot", [False, True])
def test_all_policy_seats_never_break_a_rule(autopilot: bool) -> None:
    for seed in range(4):
        final, _ = play(50 + seed, set(range(3 + seed % 3)), autopilot, seats=3 + seed % 3)
        assert final.phase == "over"


def other_secrets_changed(state: SchwarzmarktState, seat: int, rnd: random.Random) -> SchwarzmarktState:
    """The same game but for the other players' secrets: their goods and black-market cards pooled and dealt back
    at random, every hand keeping its size (sizes are public)."""
    other = state.model_copy(deep=True)
    others = [s for s in range(other.seats) if s != seat]
    goods = [k for s in others for k in range(len(GOODS)) for _ in range(other.goods[s][k])]
    cards = [c for s in others for c in other.black_market[s]]
    rnd.shuffle(goods)
    rnd.shuffle(cards)
    for s in others:
        size, bm = sum(other.goods[s]), len(other.black_market[s])
        other.goods[s] = [0] * len(GOODS)
        for k in goods[:size]:
            other.goods[s][k] += 1
        goods = goods[size:]
        other.black_market[s], cards = cards[:bm], cards[bm:]
    return other


@pytest.mark.parametrize("autopilot", [False, True])
def test_reads_only_its_own_view(autopilot: bool) -> None:
    rnd = random.Random(3)
    changed = 0
    decisions = [d for seed in range(3) for d in play(seed, {1, 2}, autopilot)[1]]
    assert len(decisions) > 50
    for state, seat in decisions[::2]:
        other = other_secrets_changed(state, seat, rnd)
        changed += other.goods != state.goods or other.black_market != state.black_market
        assert GAME.view(other, seat) == GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(other, seat) == legal
        one = POLICY.decide(GAME.view(state, seat), legal, seat, random.Random(4), autopilot=autopilot)
        two = POLICY.decide(GAME.view(other, seat), legal, seat, random.Random(4), autopilot=autopilot)
        assert one == two
    assert changed > 20, "the other players' secrets were really changed"


def trading(marker: int, mine: list[int], **kw: Any) -> SchwarzmarktState:
    """Seat 0 to trade on an offer of 3 coffee, the marker on `marker`."""
    state = new_game(4, seed=2)
    offer = next(c.id for c in state.cards if c.wants == (0, 0, 3, 0, 0))
    state = arrange(state, {0: mine}, phase="trade", offer=offer, wanted=[0, 0, 3, 0, 0], marker=marker, **kw)
    state.turn = 0
    return state


@pytest.mark.parametrize(("level", "half"), [("easy", False), ("normal", True)])
def test_computer_player_waits_at_a_low_price_and_sells_at_a_high_one(level: Level, half: bool) -> None:
    policy = policy_for(GAME, level)
    assert policy is not None
    mine = hand("2 coffee", "3 sugar")
    low = trading(1, mine)
    choice = policy.decide(GAME.view(low, 0), GAME.legal_actions(low, 0), 0, random.Random(0))
    die = low.track[0].die
    push = (die + 1) // 2 if half else die
    assert isinstance(choice, Trade) and choice.cards == () and choice.move == push, "waits, price up (normal: half)"
    high = trading(11, mine)
    choice = policy.decide(GAME.view(high, 0), GAME.legal_actions(high, 0), 0, random.Random(0))
    assert choice == Trade(cards=("coffee", "coffee"), move=1)
    last = trading(14, mine, last_call=True)
    choice = policy.decide(GAME.view(last, 0), GAME.legal_actions(last, 0), 0, random.Random(0))
    assert choice == Trade(cards=("coffee", "coffee"), move=0)


def test_autopilot_trades_only_at_the_last_call() -> None:
    mine = hand("2 coffee", "3 sugar")
    for marker in (1, 11):
        state = trading(marker, mine)
        choice = POLICY.decide(GAME.view(state, 0), GAME.legal_actions(state, 0), 0, random.Random(0), autopilot=True)
        assert choice == Trade(cards=(), move=1), "the deadline default"
    last = trading(14, mine, last_call=True)
    choice = POLICY.decide(GAME.view(last, 0), GAME.legal_actions(last, 0), 0, random.Random(0), autopilot=True)
    assert choice == Trade(cards=("coffee", "coffee"), move=0)


def test_autopilot_card_to_play_is_not_a_fixed_choice() -> None:
    state = new_game(4, seed=6)
    offers = [c.id for c in state.cards if c.is_offer][:3]
    state.black_pile = [c for c in state.black_pile if c not in offers] + [
        c for c in state.black_market[0] if c not in offers
    ]
    for s in range(1, 4):
        state.black_market[s] = [c for c in state.black_market[s] if c not in offers]
    state.black_market[0] = offers
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    chosen = {POLICY.decide(view, legal, 0, random.Random(k), autopilot=True) for k in range(30)}
    assert chosen == {Play(card=c) for c in offers}


def test_events_go_against_the_leader() -> None:
    state = new_game(4, seed=4)
    raid = next(c.id for c in state.cards if c.event == "raid")
    for s in range(4):
        if raid in state.black_market[s]:
            state.black_market[s].remove(raid)
    if raid in state.black_pile:
        state.black_pile.remove(raid)
    state.black_market[0].append(raid)
    state.luxury = [10, 30, 80, 20]
    state = GAME.apply(state, 0, Play(card=raid), T0 + timedelta(minutes=1)).state
    legal = GAME.legal_actions(state, 0)
    choice = POLICY.decide(GAME.view(state, 0), legal, 0, random.Random(0))
    assert choice is not None and choice.seat == 2
