"""Secrets stay secret: a closed fist's number shows only in its owner's view and events until the reveal."""

from typing import Any

from engine.events import Event
from engine.kesse_ruegen.actions import Challenge, Choose, Guess
from engine.kesse_ruegen.state import KesseRuegenState

from .helpers import GAME, T0, placed, play


def others_see(state: KesseRuegenState, secret_owner: int) -> list[Any]:
    """Everything that does not belong to `secret_owner`: public view, other seats' views, actions and waits."""
    seen: list[Any] = [GAME.view(state, None).model_dump_json()]
    for seat in range(state.seats):
        if seat != secret_owner:
            seen.append(GAME.view(state, seat).model_dump_json())
            seen.append(GAME.legal_actions(state, seat))
    seen.append(GAME.legal_actions(state, None))
    seen.append([w.model_dump_json() for w in GAME.waiting_on(state)])
    return seen


def events_for_others(events: list[Event], secret_owner: int, seats: int) -> list[str]:
    return [
        e.model_dump_json() for e in events if any(e.visible_to(s) for s in (None, *range(seats)) if s != secret_owner)
    ]


def with_choice(state: KesseRuegenState, seat: int, tubers: int) -> KesseRuegenState:
    changed = state.model_copy(deep=True)
    assert changed.duel is not None
    changed.duel.set_choice(seat, tubers)
    return changed


def test_a_choice_changes_nothing_anyone_else_can_see() -> None:
    state = play(placed(3), (0, Challenge(opponent=2)))
    outcomes = [GAME.apply(state, 0, Choose(tubers=n), T0) for n in (0, 1, 2)]
    assert len({str(others_see(o.state, 0)) for o in outcomes}) == 1
    assert len({str(events_for_others(o.events, 0, 3)) for o in outcomes}) == 1
    assert all(len(o.events) == 2 and not o.events[1].public for o in outcomes)  # the owner's own confirmation
    assert [GAME.view(o.state, 0).my_choice for o in outcomes] == [0, 1, 2]
    assert GAME.view(outcomes[2].state, 2).my_choice is None
    assert GAME.view(outcomes[2].state, None).duel.chosen == (0,)


def test_the_second_choice_and_the_guesses_leak_nothing_either() -> None:
    state = play(placed(2), (0, Choose(tubers=1)))
    variants = [with_choice(state, 0, n) for n in (0, 1, 2)]
    events = [events_for_others(GAME.apply(v, 1, Choose(tubers=2), T0).events, 0, 2) for v in variants]
    assert events[0] == events[1] == events[2]
    after = [play(v, (1, Choose(tubers=2)), (0, Guess(total=3))) for v in variants]
    assert len({str(others_see(a, 0)) for a in after}) == 1
    for a in after:
        assert len({str(others_see(with_choice(a, 1, n), 1)) for n in (0, 1, 2)}) == 1


def test_the_reveal_makes_both_numbers_public() -> None:
    state = play(placed(2), (0, Choose(tubers=1)), (1, Choose(tubers=2)), (0, Guess(total=3)))
    outcome = GAME.apply(state, 1, Guess(total=4), T0)
    [reveal] = [e for e in outcome.events if e.reveals]
    assert reveal.public and reveal.data["challenger_choice"] == 1 and reveal.data["challenged_choice"] == 2
    last = GAME.view(outcome.state, None).last_duel
    assert last is not None and (last.challenger_choice, last.challenged_choice, last.total) == (1, 2, 3)
    assert GAME.view(outcome.state, 0).my_choice is None  # the duel is over


def test_the_stored_state_keeps_the_secret_but_views_do_not_show_it() -> None:
    state = play(placed(2), (0, Choose(tubers=2)))
    assert '"challenger_choice":2' in GAME.dump_state(state)  # storage needs it
    assert "challenger_choice" not in GAME.view(state, None).model_dump_json()
    assert "challenger_choice" not in GAME.view(state, 1).model_dump_json()
