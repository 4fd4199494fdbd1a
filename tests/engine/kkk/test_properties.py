"""Invariants over random legal play (hypothesis picks the seeds) for 3, 4, 5 and 6 players.

- the 98 influence cards and the 6 investors are always conserved;
- money equals the sum of the bank's payouts, and only payouts bring money in;
- nobody holds more than 12 cards while the game waits on anyone else;
- the public view and other players' views never depend on a player's hand or money (changing them changes
  nothing but the owner's view), and public events do not either;
- random play ends, and no action at all can crash the engine or change the state when refused.

Replay from the log, snapshots and the legal list's acceptance are checked for every game alike by the conformance
suite (`tests/engine/conformance`).
"""

import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.game import Outcome
from engine.kkk import actions as A
from engine.kkk.cards import ALL_CODES, DECK_COUNTS, FAMILIES, HAND_LIMIT, clan
from engine.kkk.randomplay import HOARDING, WEIGHTS, play
from engine.kkk.state import KkkState, Use

from .helpers import GAME

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_cards(state: KkkState) -> Counter[str]:
    cards: Counter[str] = Counter(state.draw) + Counter(state.discard)
    for hand in state.hands:
        cards.update(hand)
    for effect in state.pending:
        cards.update(effect.cards)
    if state.round is not None:
        for families in state.round.clans:
            cards.update(clan(f) for f in families)
        cards.update(state.round.travel.values())
    return cards


def check_invariants(state: KkkState, payouts: int) -> None:
    assert all_cards(state) == DECK_COUNTS
    assert sorted(state.investors) == sorted(FAMILIES)
    assert all(o is None or 0 <= o < state.seats for o in state.investors.values())
    assert sum(state.money) == state.paid_out == payouts
    assert all(h == sorted(h) for h in state.hands)
    over = [s for s, h in enumerate(state.hands) if len(h) > HAND_LIMIT]
    assert len(over) <= 1
    if over:
        [wait] = GAME.waiting_on(state)
        assert wait.seats == (over[0],) and not state.pending
        assert all(GAME.legal_actions(state, s) == [] for s in range(state.seats) if s != over[0])


def hide_and_swap(state: KkkState, rnd: random.Random) -> tuple[KkkState, int] | None:
    """A copy in which one player's hand holds other cards (swapped with the draw pile), their money differs and the
    draw pile is in another order."""
    s = rnd.randrange(state.seats)
    other = GAME.copy_state(state)
    other.money[s] += 7
    hand, pile = other.hands[s], other.draw
    swaps = [(i, j) for i in range(len(hand)) for j in range(len(pile)) if hand[i] != pile[j]]
    if not swaps:
        return None
    rnd.shuffle(swaps)
    used_i: set[int] = set()
    used_j: set[int] = set()
    for i, j in swaps:
        if i not in used_i and j not in used_j:
            hand[i], pile[j] = pile[j], hand[i]
            used_i.add(i)
            used_j.add(j)
    hand.sort()
    if Counter(hand) == Counter(state.hands[s]):
        return None
    rnd.shuffle(pile)  # the draw pile's order is hidden too
    return other, s


def check_secrecy(
    state: KkkState, actor: int | None, action: Any, outcome: Outcome[KkkState], rnd: random.Random, now: Any
) -> None:
    swapped = hide_and_swap(state, rnd)
    if swapped is None:
        return
    other, s = swapped
    for seat in [None, *range(state.seats)]:
        if seat != s:
            assert GAME.view(other, seat).model_dump_json() == GAME.view(state, seat).model_dump_json()
    assert GAME.waiting_on(other) == GAME.waiting_on(state)
    public_json = GAME.view(state, None).model_dump_json()
    assert '"hand"' not in public_json and '"my_money"' not in public_json
    if actor != s:
        # The same action by someone else, or the same timer, tells the table exactly the same things.
        out = GAME.apply(other, actor, action, now)
        # (The end of the game reveals everyone's money on purpose: `reveals` marks it.)
        mine = [e for e in out.events if e.public and not e.reveals]
        theirs = [e for e in outcome.events if e.public and not e.reveals]
        assert mine == theirs, (actor, action, s, state.hands[s], other.hands[s])


def random_action(state: KkkState, rnd: random.Random) -> Any:
    """Any action at all, legal or not, with plausible and implausible fields (as a confused or buggy client)."""
    seat = rnd.randrange(-1, state.seats + 1)
    fam = rnd.choice(FAMILIES)
    offer = rnd.randrange(0, state.next_offer + 2)
    choices: list[Any] = [
        A.PlaceMarker(space=rnd.randrange(0, 18)),
        A.Open(),
        A.Roll(),
        A.Draw(),
        A.PlayClan(family=fam),
        A.Offer(
            price=rnd.randrange(0, 40),
            unit=rnd.choice(["money", "dividends"]),
            family=rnd.choice([None, fam]),
            to=rnd.choice([None, seat]),
        ),
        A.Withdraw(offer=offer),
        A.Shake(offer=offer),
        A.Unshake(offer=offer),
        A.Travel(
            target=rnd.choice([None, seat]),
            family=fam,
            joker=rnd.random() < 0.3,
            on=rnd.choice([None, "investor", "clan"]),
        ),
        A.Recruit(family=fam, on=rnd.choice(["investor", "clan"])),
        A.Boss(),
        A.Stop(),
        A.Pass(),
        A.AlwaysPass(on=rnd.random() < 0.7),
        A.Close(assignment=rnd.choice([None, (Use(family=fam, seat=max(seat, 0), card="clan"),)])),
        A.CancelClose(),
        A.Fail(),
        A.Discard(cards=tuple(rnd.choice(sorted(ALL_CODES)) for _ in range(rnd.randrange(0, 4)))),
        A.Timeout(key=rnd.choice(["turn:0", "window:3", state.deadline.key if state.deadline else "x"])),
    ]
    return rnd.choice(choices)


def check_fuzz(state: KkkState, rnd: random.Random, now: datetime) -> None:
    before = GAME.dump_state(state)
    action = random_action(state, rnd)
    actor = rnd.choice([None, *range(-1, state.seats + 1)])
    work = GAME.copy_state(state)
    try:
        GAME.step(work, actor, action, now + timedelta(seconds=1))
    except RuleError as exc:
        assert exc.message and GAME.dump_state(work) == before
    assert GAME.dump_state(state) == before


def run(seats: int, seed: int, *, secrecy: bool = False, fuzz: bool = False) -> None:
    rnd = random.Random(seed ^ 0x5EC12E7)
    payouts = 0

    def on_step(state: KkkState, actor: int | None, action: Any, outcome: Outcome[KkkState], now: datetime) -> None:
        nonlocal payouts
        check_invariants(state, payouts)
        payouts += sum(int(e.data["amount"]) for e in outcome.events if e.kind == "payout")  # type: ignore[arg-type]
        if secrecy and rnd.random() < 0.08:
            check_secrecy(state, actor, action, outcome, rnd, now)
        if fuzz and rnd.random() < 0.3:
            check_fuzz(state, rnd, now)

    style = HOARDING if seed % 2 else WEIGHTS  # half the tables hoard cards and meet the hand limit
    played = play(GAME, seats, seed, weights=style, on_step=on_step)
    assert played.finished, "random legal play must end"
    check_invariants(played.state, payouts)
    result = GAME.result(played.state)
    assert result is not None and sorted(s.score for s in result.standings) == sorted(played.state.money)
    assert GAME.view(played.state, None).money == played.state.money  # type: ignore[attr-defined]


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@PROPERTY
@given(seed=SEEDS)
def test_random_legal_play_keeps_cards_money_and_the_hand_limit(seats: int, seed: int) -> None:
    run(seats, seed)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_views_and_public_events_never_depend_on_a_hidden_hand(seats: int, seed: int) -> None:
    run(seats, seed, secrecy=True)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_no_action_crashes_the_engine_or_changes_a_state_it_refuses(seats: int, seed: int) -> None:
    run(seats, seed, fuzz=True)
