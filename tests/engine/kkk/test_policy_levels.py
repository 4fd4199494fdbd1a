"""The Kohle, Kies & Knete computer player's levels (easy, normal, hard): each only ever chooses legal moves the
rules accept over seeded games, is deterministic from its seed, never agrees as the Boss to pay more than the deal
pays, and makes a few sensible choices (hard leaves a thin deal; a seller asks what the Boss can bear)."""

import random
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.kkk import actions as A
from engine.kkk.cards import clan
from engine.kkk.negotiation import value
from engine.kkk.policy import KkkPolicy, Level
from engine.kkk.state import KkkState
from engine.kkk.table import dividend_value, payout

from ..test_policy import BOTS, GAMES
from .helpers import GAME, Table, prepared

LEVELS: tuple[Level, ...] = get_args(Level)
POLICY_SEATS = {0, 1, 2}
ALL_OWNED = {"H": 0, "K": 1, "L": 2, "P": 3, "R": 0, "T": 1}


class _Seated:
    """One policy per seat (the driver asks one policy object)."""

    def __init__(self, levels: list[Level]) -> None:
        self.by_seat = [KkkPolicy(GAME, level=level) for level in levels]

    def decide(self, view: Any, legal: Any, seat: int, rng: random.Random, *, autopilot: bool = False) -> Any:
        choice = self.by_seat[seat].decide(view, legal, seat, rng, autopilot=autopilot)
        # Prices and which cards to discard are free choices the legal list only samples (`engine/kkk/legal.py`):
        # an offer or a discard is checked by the driver's `apply` (which raises on a refused one); every other
        # choice must be listed.
        assert choice is None or isinstance(choice, A.Offer | A.Discard) or choice in legal
        return choice


def _boss_never_overpays(state: KkkState, actor: int | None, action: Any, after: KkkState) -> None:
    r = state.round
    if actor not in POLICY_SEATS or r is None or r.boss != actor:
        return  # random seats (seat 3) may agree to anything
    promised = sum(value(o, dividend_value(state)) for o in state.offers if o.status == "binding")
    if isinstance(action, A.Offer) and action.counter is None:  # a counter replaces an agreement counted here
        assert payout(state) - promised - value(action, dividend_value(state)) >= 0
    if isinstance(action, A.Shake):
        offer = next(o for o in state.offers if o.id == action.offer)
        assert payout(state) - promised - value(offer, dividend_value(state)) >= 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4))
def test_every_level_plays_whole_games_legally(seed: int, levels: list[Level]) -> None:
    original = BOTS.policy_for
    BOTS.policy_for = lambda game: _Seated(levels)
    try:
        played = BOTS.play_one(
            GAMES["kkk"],
            4,
            seed,
            POLICY_SEATS,
            weigher=BOTS.WEIGHERS["kkk"](),
            max_actions=3000,
            on_step=_boss_never_overpays,
        )
    finally:
        BOTS.policy_for = original
    assert not played.capped


def _decide(state: KkkState, seat: int, level: Level, seed: int = 0) -> Any:
    policy = KkkPolicy(GAME, level=level)
    return policy.decide(GAME.view(state, seat), GAME.legal_actions(state, seat), seat, random.Random(seed))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_deterministic_from_its_seed(level: Level) -> None:
    t = Table(prepared(4, ALL_OWNED, [[clan("L")], [], [], []], marker=1, turn=2))
    t(2, A.Open())
    for seat in range(4):
        assert _decide(t.state, seat, level, 3) == _decide(t.state, seat, level, 3)


def test_hard_leaves_a_thin_deal_that_normal_opens() -> None:
    # Space 4 (R + 2 of K, L, H; 4 dividends): seat 0 owns R and H and must buy K or L — about 2.9 shares left to
    # keep: enough for normal (2), not for hard (3).
    thin = prepared(4, ALL_OWNED, [[], [], [], []], marker=4, turn=0)
    assert _decide(thin, 0, "normal") == A.Open()
    assert _decide(thin, 0, "hard") == A.Roll()
    # With its own clan card for K the deal is nearly all its own, and hard opens it too.
    rich = prepared(4, ALL_OWNED, [[clan("K")], [], [], []], marker=4, turn=0)
    assert _decide(rich, 0, "hard") == A.Open()


def test_a_seller_asks_what_the_boss_can_bear() -> None:
    # Space 1 (R, L; 3 dividends of $2M): seat 2 is Boss and owns L; only seat 0 can bring R. The Boss keeps a
    # share ($2M) and can pay $4M for R: easy asks two shares flat, normal and hard ask what the Boss can bear.
    t = Table(prepared(4, ALL_OWNED, [[], [], [], []], marker=1, turn=2))
    t(2, A.Open())
    t(2, A.Offer(price=1, family="R", to=0))
    for level in ("normal", "hard"):
        counter = _decide(t.state, 0, level)
        assert isinstance(counter, A.Offer) and counter.family == "R" and counter.price == 4
