"""Invariants over random legal play (hypothesis): 60 goods and 30 black-market cards always, no negative total,
luxury only from trades and events, and the legal list is what the rules accept. (Replay from the log and snapshots
are checked for every game alike by the conformance suite, `tests/engine/conformance`.)"""

from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.game import Leave
from engine.schwarzmarkt.actions import Give, Pick, Play, Target, Trade
from engine.schwarzmarkt.state import SchwarzmarktState

from .helpers import GAME, T0, new_game, total_cards

PROBES: list[Any] = [
    Play(card=0),
    Play(card=29),
    Trade(cards=(), move=1),
    Trade(cards=(), move=4),
    Trade(cards=(), move=0),
    Trade(cards=("coffee",), move=1),
    Trade(cards=("sugar", "sugar"), move=1),
    Target(seat=0),
    Target(seat=2),
    Pick(good="flour"),
    Give(cards=("potatoes",)),
    Give(cards=("butter", "butter")),
]

PAYING = {"trade": "paid", "quick_deal": "paid"}


def check_invariants(state: SchwarzmarktState) -> None:
    assert total_cards(state) == (60, 30)
    assert all(n >= 0 for h in state.goods for n in h) and all(n >= 0 for n in state.goods_pile)
    assert all(x >= 0 for x in state.luxury)
    assert len({c for h in state.black_market for c in h} | set(state.black_pile)) == sum(
        map(len, state.black_market)
    ) + len(state.black_pile), "a black-market card in two places"
    assert (state.phase == "over") == (GAME.waiting_on(state) == [])


def pick_move(state: SchwarzmarktState, pick: int) -> tuple[int | None, Any]:
    players = [(s, a) for s in range(state.seats) for a in GAME.legal_actions(state, s)]
    if pick % 11 == 0 or not players:
        timeouts = GAME.legal_actions(state, None)
        return None, timeouts[pick % len(timeouts)]
    # A kind of move first, then one of that kind: trades are as likely as the many ways of not trading.
    kinds = sorted({(type(a).__name__, bool(getattr(a, "cards", ()))) for _, a in players})
    kind = kinds[pick // 11 % len(kinds)]
    of_kind = [m for m in players if (type(m[1]).__name__, bool(getattr(m[1], "cards", ()))) == kind]
    return of_kind[pick // 97 % len(of_kind)]


@settings(max_examples=25, deadline=None)
@given(
    seats=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10**6), min_size=150, max_size=400),
)
def test_random_play_keeps_every_invariant(seats: int, seed: int, picks: list[int]) -> None:
    state = new_game(seats, dealer=None, seed=seed)
    log: list[tuple[int | None, Any]] = []
    now = T0
    for pick in picks:
        check_invariants(state)
        if state.phase == "over":
            assert all(GAME.legal_actions(state, s) == [] for s in range(seats))
            break
        for gone in state.left:
            assert sum(state.goods[gone]) == 0 and not state.black_market[gone] and state.turn != gone
        actor = pick % seats
        probe = PROBES[pick % len(PROBES)]
        if probe not in GAME.legal_actions(state, actor):
            before = GAME.dump_state(state)
            try:
                GAME.apply(state, actor, probe, now)
            except RuleError as refusal:
                assert refusal.message
            else:
                raise AssertionError(f"{probe} by seat {actor} was accepted but not listed as legal")
            assert GAME.dump_state(state) == before
        now += timedelta(minutes=5 + pick % 50)
        actor_, action = pick_move(state, pick)
        if pick % 89 == 0 and seats - len(state.left) > 3 and state.playing(pick % seats):
            actor_, action = None, Leave(seat=pick % seats)  # now and then a moderator takes a player out
        outcome = GAME.apply(state, actor_, action, now)
        # Luxury comes only from trades and events: every change is in a public event's `paid`.
        gained = [a - b for a, b in zip(outcome.state.luxury, state.luxury, strict=True)]
        told = [0] * seats
        for e in outcome.events:
            if e.public and e.kind in ("trade", "quick_deal", "new_goods"):
                sign = -1 if e.kind == "new_goods" else 1
                told[int(e.data["seat"])] += sign * int(e.data["paid"])  # type: ignore[arg-type]
        assert gained == told
        state = outcome.state
        log.append((actor_, GAME.dump_action(action)))
    check_invariants(state)


def test_random_games_reach_their_end() -> None:
    from engine.rng import Rng

    for seed in range(4):
        state = new_game(5, dealer=None, seed=seed)
        chance = Rng.from_seed(seed)
        for _ in range(5000):
            if state.phase == "over":
                break
            players = [(s, a) for s in range(5) for a in GAME.legal_actions(state, s)]
            actor, action = chance.choice(players)
            state = GAME.apply(state, actor, action, T0).state
        check_invariants(state)
        assert GAME.result(state) is not None, f"seed {seed}: no end after 5000 moves"
        assert state.game_round == 2
