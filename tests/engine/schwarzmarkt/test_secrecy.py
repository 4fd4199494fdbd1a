"""Secrets: hands leave the engine only in their owner's view and in what an event reveals.

The twin test plays two games that differ only in hidden hands (one player's goods)
move for move, and checks that the table sees exactly the same thing — public events, the public view, every
other seat's view of the public part, and what the game waits for with its deadlines — until a rule reveals
something (a trade, an event that shows cards)."""

from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schwarzmarkt.actions import Play, Trade
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.views import PublicView

from .helpers import GAME, T0, arrange, give_card, hand, new_game

SHOWN = ("swapped", "debt_paid", "refilled")
"""Private events that show one player another's cards (Forced Swap, Old Debt), or deal from the pile (which
differs between the twins): a reveal as far as this test goes."""


def twins(seed: int) -> tuple[SchwarzmarktState, SchwarzmarktState]:
    """The same game twice, except that seat 1 holds other goods (as many) in the second."""
    a = new_game(4, dealer=3, seed=seed)
    b = a.model_copy(deep=True)
    for _ in range(3):  # swap up to three of seat 1's cards for cards of another kind from the pile
        give = next(k for k, n in enumerate(b.goods[1]) if n)
        take = next((k for k, n in enumerate(b.goods_pile) if n and k != give), None)
        if take is None:
            break
        b.goods[1][give] -= 1
        b.goods_pile[give] += 1
        b.goods[1][take] += 1
        b.goods_pile[take] -= 1
    assert sum(a.goods[1]) == sum(b.goods[1]) and a.goods[1] != b.goods[1]
    return a, b


def public_part(view: Any) -> dict[str, Any]:
    return {k: v for k, v in view.model_dump().items() if k in PublicView.model_fields}


def same_for_the_table(a: SchwarzmarktState, b: SchwarzmarktState) -> None:
    assert GAME.view(a, None) == GAME.view(b, None)
    for seat in (0, 2, 3):
        assert public_part(GAME.view(a, seat)) == public_part(GAME.view(b, seat))
        assert GAME.view(a, seat).goods == GAME.view(b, seat).goods  # type: ignore[attr-defined]
    assert GAME.waiting_on(a) == GAME.waiting_on(b)
    assert GAME.legal_actions(a, None) == GAME.legal_actions(b, None)


def shared_moves(a: SchwarzmarktState, b: SchwarzmarktState) -> list[tuple[int | None, Any]]:
    """Moves that reveal nothing: playing a black-market card, not trading, and deadlines."""
    out: list[tuple[int | None, Any]] = []
    for seat in range(a.seats):
        for action in GAME.legal_actions(a, seat):
            quiet = isinstance(action, Play) or (isinstance(action, Trade) and not action.cards)
            if quiet and action in GAME.legal_actions(b, seat):
                out.append((seat, action))
    out += [(None, t) for t in GAME.legal_actions(a, None)]
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=10, max_size=60))
def test_two_games_differing_only_in_hidden_hands_look_the_same_until_a_reveal(seed: int, picks: list[int]) -> None:
    a, b = twins(seed)
    now = T0
    for pick in picks:
        same_for_the_table(a, b)
        moves = shared_moves(a, b)
        if not moves:
            break
        actor, action = moves[pick % len(moves)]
        now += timedelta(minutes=pick % 90)
        out_a, out_b = GAME.apply(a, actor, action, now), GAME.apply(b, actor, action, now)
        public_a = [e for e in out_a.events if e.public]
        public_b = [e for e in out_b.events if e.public]
        if any(e.reveals or e.kind in SHOWN for e in out_a.events + out_b.events):
            break  # a rule showed something: from here on the twins may differ
        assert public_a == public_b
        for seat in (0, 2, 3):
            assert [e for e in out_a.events if e.visible_to(seat)] == [e for e in out_b.events if e.visible_to(seat)]
        a, b = out_a.state, out_b.state


def test_a_whole_quiet_trading_round_looks_the_same_with_or_without_wanted_cards() -> None:
    """Seat 1 holds three wanted coffee in one twin and none in the other: nothing the table sees differs."""
    base = new_game(4, dealer=3, seed=5)
    others = {0: hand("3 potatoes"), 2: hand("3 flour"), 3: hand("3 butter")}
    a = arrange(base, {**others, 1: hand("3 coffee", "6 sugar")})
    b = arrange(base, {**others, 1: hand("9 sugar")})
    card = next(c.id for c in a.cards if list(c.wants) == [0, 0, 3, 0, 0])
    a, b = give_card(a, 0, card), give_card(b, 0, card)
    a = GAME.apply(a, 0, Play(card=card), T0).state
    b = GAME.apply(b, 0, Play(card=card), T0).state
    while a.phase == "trade":
        same_for_the_table(a, b)
        move = Trade(cards=(), move=1 if not a.last_call else 0)
        a = GAME.apply(a, a.turn, move, T0).state
        b = GAME.apply(b, b.turn, move, T0).state
    same_for_the_table(a, b)


def test_the_public_view_holds_no_hand() -> None:
    state = new_game()
    public = GAME.view(state, None).model_dump()
    assert "goods" not in public and "black_market" not in public and "pile_goods" not in public
    mine = GAME.view(state, 0)
    assert mine.goods == dict(zip(("potatoes", "flour", "coffee", "butter", "sugar"), state.goods[0], strict=True))  # type: ignore[attr-defined]
    assert [c.id for c in mine.black_market] == sorted(state.black_market[0])  # type: ignore[attr-defined]
