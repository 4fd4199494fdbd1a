"""Travel, recruitment, Boss and STOP cards: pending effects, their reaction windows, and what they do."""

from collections import Counter
from datetime import timedelta

from engine.kkk import actions as A
from engine.kkk.cards import BOSS, JOKER, RECRUIT, STOP, clan, travel
from engine.kkk.waits import WINDOWS

from .helpers import GAME, Table, prepared
from .tables import HANDS, k_on_travel, last_call_b, pending_boss, pending_travel, ready_b, round_a, round_b


def test_a_travel_on_an_investor_waits_for_every_other_player_then_takes_effect() -> None:
    t = pending_travel()  # seat 3 plays a Liebgeld travel card on seat 2's investor
    [wait] = GAME.waiting_on(t.state)
    assert wait.kind == "reaction" and wait.seats == (0, 1, 2)
    assert wait.until == t.now + WINDOWS["stop"] == t.now + timedelta(hours=6)
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


def test_a_clan_card_of_a_family_the_space_does_not_use_may_be_played_and_goes_back_to_the_hand() -> None:
    """kkk.md l.90 puts no limit on the family of a played clan card."""
    t = round_b()  # space 10 (Heiermann, Piepenbrok); seat 0, the Boss, holds a Knetowitz clan card
    events = t(0, A.PlayClan(family="K"))
    assert events[0].kind == "clan_played" and events[0].public
    assert t.state.round is not None and t.state.round.clans[0] == ["K"] and clan("K") not in t.state.hands[0]
    assert A.PlayClan(family="K") not in GAME.legal_actions(t.state, 0)  # that was the only one
    view = GAME.view(t.state, None)
    assert view.round is not None and {q.family for q in view.round.requirements} == {"H", "P"}  # serves nothing
    t(0, A.Fail())
    assert t.state.hands[0].count(clan("K")) == 1  # back to the owner's hand, like any unused clan card


def test_an_unused_family_clan_card_goes_back_at_conclusion_and_the_used_one_is_discarded() -> None:
    t = ready_b()  # seat 0 has played Piepenbrok and owns Heiermann: space 10 is covered
    t(1, A.PlayClan(family="L"))  # seat 1's Liebgeld clan card: the deal has no use for it
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.deals == 1 and t.state.round is None
    assert clan("L") in t.state.hands[1] and clan("P") not in t.state.hands[0] and clan("P") in t.state.discard
    returned = next(e for e in t.events if e.kind == "clans_returned")
    assert returned.data["returned"] == {"1": [clan("L")]}


def test_any_clan_card_cancels_a_last_call_even_one_the_deal_does_not_use() -> None:
    t = last_call_b()  # space 10 (Heiermann, Piepenbrok)
    events = t(1, A.PlayClan(family="L"))
    assert t.state.round is not None and t.state.round.last_call is None
    assert [e.kind for e in events] == ["clan_played", "last_call_cancelled"]


def test_travel_targets_the_clan_card_without_asking_when_the_investor_is_already_on_travel() -> None:
    t = k_on_travel()  # seat 1's Knetowitz investor is on travel
    t(1, A.PlayClan(family="K"))
    t(0, A.Travel(target=1, family="K", joker=True))  # no `on`: only the clan card can be meant
    [effect] = t.state.pending
    assert effect.on == "clan" and effect.target == 1 and effect.cards == [JOKER]
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.round is not None and t.state.round.clans[1] == []
    assert t.state.discard.count(JOKER) == 1 and clan("K") in t.state.discard
