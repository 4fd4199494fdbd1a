"""Travel, recruitment, Boss and STOP cards: pending effects, their reaction windows, and what they do."""

from collections import Counter

from engine.kkk import actions as A
from engine.kkk.cards import BOSS, JOKER, RECRUIT, STOP, clan, travel
from engine.kkk.options import KkkOptions

from .helpers import GAME, Table, prepared
from .tables import HANDS, pending_boss, pending_travel, round_a


def test_a_travel_on_an_investor_waits_for_every_other_player_then_takes_effect() -> None:
    t = pending_travel()  # seat 3 plays a Liebgeld travel card on seat 2's investor
    [wait] = GAME.waiting_on(t.state)
    assert wait.kind == "reaction" and wait.seats == (0, 1, 2)
    assert wait.until == t.now + KkkOptions().reaction_time
    t(0, A.Pass())
    t(1, A.Pass())
    assert t.state.pending and GAME.waiting_on(t.state)[0].seats == (2,)
    t(2, A.Pass())
    assert not t.state.pending and t.state.round.travel == {"L": travel("L")}  # type: ignore[union-attr]
    assert GAME.waiting_on(t.state)[0].seats == (0,)  # back to the Boss


def test_the_window_never_closes_early_for_a_player_without_a_stop() -> None:
    t = pending_travel()
    t.state.hands[1] = [c for c in t.state.hands[1] if c != STOP]  # seat 1 holds no STOP
    t(0, A.Pass())
    t(2, A.Pass())
    assert t.state.pending and GAME.waiting_on(t.state)[0].seats == (1,)


def test_the_window_closes_at_the_reaction_time() -> None:
    t = pending_travel()
    t(0, A.Pass())
    events = t.timeout()
    assert not t.state.pending and "L" in t.state.round.travel  # type: ignore[union-attr]
    assert events[0].kind == "timeout" and events[0].public


def test_a_travel_on_a_clan_card_discards_both_at_once() -> None:
    t = round_a()
    t(1, A.PlayClan(family="K"))
    t(0, A.Travel(target=1, family="K", on="clan"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.round.clans[1] == [] and t.state.investors["K"] == 1  # type: ignore[union-attr]
    assert Counter(t.state.discard) == Counter({travel("K"): 1, clan("K"): 1})


def test_a_joker_travels_any_family_and_an_investor_beside_the_board_can_travel() -> None:
    t = round_a()
    t(0, A.Travel(family="R", joker=True))  # Raffzahn lies beside the board
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.round.travel == {"R": JOKER}  # type: ignore[union-attr]


def test_a_stop_cancels_the_pending_card_and_both_are_discarded() -> None:
    t = pending_travel()
    t(2, A.Stop())  # the target protects itself
    assert not t.state.pending and t.state.round.travel == {}  # type: ignore[union-attr]
    assert Counter(t.state.discard) == Counter({travel("L"): 1, STOP: 1})
    assert STOP not in t.state.hands[2]


def test_a_player_who_passed_may_still_stop_while_the_window_is_open() -> None:
    t = pending_travel()
    t(1, A.Pass())
    t(1, A.Stop())  # in favour of someone else
    assert not t.state.pending


def test_boss_cards_stack_and_the_newest_standing_decides() -> None:
    t = pending_boss()  # seat 1 plays a Boss card against Boss 0
    t(0, A.Boss())  # answers
    t(2, A.Boss())
    assert [e.by for e in t.state.pending] == [1, 0, 2]
    t(0, A.Stop())  # cancels only the newest (seat 2's) and restarts the window
    assert [e.by for e in t.state.pending] == [1, 0]
    assert t.state.passes == [] and GAME.waiting_on(t.state)[0].seats == (1, 2, 3)
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 0  # type: ignore[union-attr]
    assert Counter(t.state.discard) == Counter({BOSS: 3, STOP: 1})


def test_each_new_boss_card_restarts_the_window() -> None:
    t = pending_boss()
    t(2, A.Pass())
    key = t.state.deadline.key  # type: ignore[union-attr]
    t(0, A.Boss())
    assert t.state.passes == [] and t.state.deadline.key != key  # type: ignore[union-attr]


def test_a_new_boss_takes_the_turn_and_the_turn_passes_left_of_the_final_boss() -> None:
    t = pending_boss()
    for s in (0, 2, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 1 and t.state.turn == 1  # type: ignore[union-attr]
    t(1, A.Fail())
    assert t.state.turn == 2


def test_a_recruitment_takes_an_investor_beside_the_board_first() -> None:
    t = round_a()
    t(0, A.Recruit(family="T"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.investors["T"] == 0
    assert Counter(t.state.discard) == Counter({RECRUIT: 3})


def test_a_recruited_investor_keeps_its_travel_card() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": 3, "T": 3}  # nothing beside the board
    t = Table(prepared(4, investors, HANDS, marker=8, turn=0))
    t(0, A.Open())
    t(0, A.Travel(target=1, family="K"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    t(0, A.Recruit(family="K"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.investors["K"] == 0 and t.state.round.travel == {"K": travel("K")}  # type: ignore[union-attr]
    k = next(r for r in GAME.view(t.state, None).round.requirements if r.family == "K")  # type: ignore[union-attr]
    assert k.sources == []  # on travel: it can't serve this round


def test_a_card_played_during_a_last_call_cancels_it() -> None:
    from .tables import last_call_b

    t = last_call_b()
    t(1, A.Pass())
    t(2, A.Boss())
    assert t.state.round.last_call is None and t.state.pending  # type: ignore[union-attr]
    assert any(e.kind == "last_call_cancelled" for e in t.events)


def test_always_pass_is_not_awaited_and_a_window_with_nobody_left_closes_at_once() -> None:
    t = round_a()
    t(1, A.AlwaysPass())
    t(2, A.AlwaysPass())
    t(3, A.Travel(target=2, family="L"))
    assert GAME.waiting_on(t.state)[0].seats == (0,)
    t(0, A.Pass())
    assert not t.state.pending
    t(3, A.AlwaysPass())
    t(0, A.Travel(target=1, family="K"))  # everyone else passes automatically
    assert not t.state.pending and "K" in t.state.round.travel  # type: ignore[union-attr]
    t(1, A.AlwaysPass(on=False))
    assert t.state.round.always_pass == [2, 3]  # type: ignore[union-attr]
