"""The hard Schwarzmarkt computer player (`engine.schwarzmarkt.search`): its look-ahead changes the choice where it
should, it deals only cards it cannot see, it is deterministic for a seeded generator, it reads only its own view and
chooses only legal moves (tables of hard players end: `tests/engine/conformance`)."""

import random
from datetime import timedelta
from typing import Any

from engine.policy import policy_for
from engine.schwarzmarkt import search
from engine.schwarzmarkt.actions import Trade
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState

from .helpers import GAME, T0, arrange, hand, new_game
from .test_policy import other_secrets_changed

HARD = policy_for(GAME, "hard")
NORMAL = policy_for(GAME, "normal")
EASY = policy_for(GAME, "easy")


def coffee_round(mine: list[int], *, marker: int, game_round: int = 1, luxury: list[int] | None = None) -> Any:
    """Three players; seat 0 to trade on an offer of 3 coffee with the marker on `marker`."""
    state = new_game(3, dealer=2, seed=5)
    offer = next(c.id for c in state.cards if c.wants == (0, 0, 3, 0, 0))
    state = arrange(
        state,
        {0: mine},
        phase="trade",
        offer=offer,
        wanted=[0, 0, 3, 0, 0],
        marker=marker,
        game_round=game_round,
        luxury=luxury or [0, 0, 0],
    )
    state.turn = 0
    return state


def decisions(state: SchwarzmarktState, seeds: range = range(6)) -> set[Any]:
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    return {HARD.decide(view, legal, 0, random.Random(seed)) for seed in seeds}


def test_hard_empties_its_hand_at_a_good_price_where_easy_waits() -> None:
    """Its last two cards wanted at 10 in the first game round: selling them ends the game round and it starts afresh
    with nine cards while the others keep what they have; the easy player's rule waits for a higher price (the
    look-ahead sees the others fill the offer first and what a fresh hand is worth; normal's numbers sell too)."""
    state = coffee_round(hand("2 coffee"), marker=8)
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    assert EASY.decide(view, legal, 0, random.Random(0)) == Trade(cards=(), move=2)
    assert decisions(state) == {Trade(cards=("coffee", "coffee"), move=1)}


def test_hard_never_ends_the_game_behind() -> None:
    """The same cards in the second game round, behind by more than they fetch: selling both would end the game
    lost, so it keeps at least one card."""
    state = coffee_round(hand("2 coffee"), marker=8, game_round=2, luxury=[60, 100, 70])
    assert all(len(d.cards) < 2 for d in decisions(state))


def test_a_deal_holds_only_cards_the_seat_cannot_see() -> None:
    state = coffee_round(hand("2 coffee", "3 sugar"), marker=3)
    view = GAME.view(state, 0)
    table = search.Table(view, 0, 6.0)
    rng = random.Random(1)
    for _ in range(50):
        hands = search.deal(table, rng)
        assert hands[0] == [view.goods[k] for k in GOODS], "its own hand as it is"
        coffee = GOODS.index("coffee")
        assert sum(h[coffee] for h in hands) <= search.GOODS_TOTAL
        for s in (1, 2):
            assert sum(hands[s]) <= view.hand_sizes[s]
            assert all(n == 0 for k, n in enumerate(hands[s]) if k != coffee), "only the wanted kinds are dealt"
        assert search.Round(table, view, hands).sizes == list(view.hand_sizes), "the rollout keeps the real sizes"


def play(seed: int, seats: int, hard: set[int]) -> tuple[SchwarzmarktState, list[tuple[SchwarzmarktState, int]]]:
    """A whole game: `hard` seats hard, the rest normal; every decision checked legal; the trading turns of the hard
    seats are returned."""
    rnd = random.Random(seed)
    state = new_game(seats, dealer=None, seed=seed)
    now = T0
    asked: list[tuple[SchwarzmarktState, int]] = []
    for _ in range(3000):
        if state.phase == "over":
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        policy = HARD if seat in hard else NORMAL
        action = policy.decide(GAME.view(state, seat), legal, seat, random.Random(seed * 31 + len(asked)))
        assert action in legal, f"{action} is not among the legal moves"
        if seat in hard and state.phase == "trade":
            asked.append((state, seat))
        now += timedelta(minutes=rnd.randint(1, 90))
        state = GAME.apply(state, seat, action, now).state
    return state, asked


def test_hard_reads_only_its_own_view_and_is_deterministic() -> None:
    rnd = random.Random(7)
    _, asked = play(3, 3, {1})
    assert len(asked) > 10
    changed = 0
    for state, seat in asked[::3]:
        other = other_secrets_changed(state, seat, rnd)
        changed += other.goods != state.goods
        legal = GAME.legal_actions(state, seat)
        one = HARD.decide(GAME.view(state, seat), legal, seat, random.Random(4))
        again = HARD.decide(GAME.view(state, seat), legal, seat, random.Random(4))
        two = HARD.decide(GAME.view(other, seat), legal, seat, random.Random(4))
        assert one == again == two
    assert changed > 3, "the other players' secrets were really changed"
