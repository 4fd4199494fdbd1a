"""The nine events: their choices, their targets and who learns what."""

import pytest

from engine.errors import RuleError
from engine.schwarzmarkt.actions import Give, Pick, Play, Target
from engine.schwarzmarkt.views import SeatView

from .helpers import GAME, arrange, card_id, events_of, give_card, hand, new_game, play, play_event, total_cards


def refusal(state, actor, action) -> tuple[str, dict]:  # type: ignore[no-untyped-def,type-arg]
    """The refusal's code and values (the engine speaks no language)."""
    with pytest.raises(RuleError) as info:
        GAME.apply(state, actor, action, state.since)
    return info.value.code, info.value.values


def test_espionage_shows_two_random_cards_of_the_chosen_player_to_everyone() -> None:
    state = arrange(new_game(), {1: hand("3 coffee", "2 sugar")})
    state = play_event(state, "espionage")
    assert state.phase == "event" and state.pending is not None and state.pending.step == "target"
    assert refusal(state, 0, Target(seat=0)) == ("target_self", {})
    events = events_of(state, 0, Target(seat=1))
    (spied,) = [e for e in events if e.kind == "espionage"]
    assert spied.public and spied.reveals
    shown = spied.data["shown"]
    assert sum(shown) == 2 and all(s <= h for s, h in zip(shown, hand("3 coffee", "2 sugar"), strict=True))  # type: ignore[arg-type]
    after = GAME.apply(state, 0, Target(seat=1), state.since).state
    assert after.goods[1] == hand("3 coffee", "2 sugar"), "the cards are given back"
    assert after.phase == "play" and after.starter == 1


def test_forced_swap_takes_from_the_cards_held_before_the_given_ones_arrive() -> None:
    state = arrange(new_game(), {0: hand("2 coffee", "flour"), 2: hand("3 sugar")})
    state = play_event(state, "forced_swap")
    state = play(state, (0, Target(seat=2)))
    assert state.pending is not None and state.pending.step == "give"
    assert refusal(state, 0, Give(cards=("flour", "flour"))) == ("not_enough_goods", {"good": "flour", "n": 1})
    assert refusal(state, 0, Give(cards=("coffee", "coffee", "flour"))) == ("give_one_or_two", {})
    outcome = GAME.apply(state, 0, Give(cards=("coffee", "coffee")), state.since)
    after = outcome.state
    assert after.goods[0] == hand("flour", "2 sugar"), "seat 2 held only sugar before: both cards taken are sugar"
    assert after.goods[2] == hand("2 coffee", "sugar")
    table = [e for e in outcome.events if e.public]
    (swap,) = [e for e in table if e.kind == "forced_swap"]
    assert swap.data == {"seat": 0, "target": 2, "count": 2, "by_default": False}
    assert not any("given" in e.data or "taken" in e.data for e in table), "the table learns how many, not which"
    (secret,) = [e for e in outcome.events if e.kind == "swapped"]
    assert secret.to == (0, 2) and secret.data["given"] == hand("2 coffee") and secret.data["taken"] == hand("2 sugar")
    assert total_cards(after) == (60, 30)


def test_forced_swap_gives_no_more_cards_than_the_target_holds() -> None:
    state = arrange(new_game(), {0: hand("2 coffee"), 1: hand("sugar")})
    state = play(play_event(state, "forced_swap"), (0, Target(seat=1)))
    assert refusal(state, 0, Give(cards=("coffee", "coffee"))) == ("target_holds_fewer", {"target": 1, "n": 1})
    assert GAME.legal_actions(state, 0) == [Give(cards=("coffee",))]


def test_new_goods_found_shows_the_pile_only_to_its_player_and_costs_5() -> None:
    state = arrange(new_game(), luxury=[7, 0, 0, 0])
    state = play_event(state, "new_goods")
    mine = GAME.view(state, 0)
    assert isinstance(mine, SeatView) and mine.pile_goods is not None
    assert sum(mine.pile_goods.values()) == sum(state.goods_pile)
    for other in (1, 2, 3):
        assert GAME.view(state, other).pile_goods is None  # type: ignore[attr-defined]
    assert "pile_goods" not in GAME.view(state, None).model_dump()
    kind = next(g for g, n in mine.pile_goods.items() if n)
    outcome = GAME.apply(state, 0, Pick(good=kind), state.since)
    assert outcome.state.luxury[0] == 2 and outcome.state.goods[0] == [
        a + (g == kind) for a, g in zip(state.goods[0], ("potatoes", "flour", "coffee", "butter", "sugar"), strict=True)
    ]
    table = [e for e in outcome.events if e.public]
    assert not any(kind in e.data.values() for e in table), "the table sees that a card was taken, not which"
    (took,) = [e for e in outcome.events if e.kind == "took"]
    assert took.to == (0,) and took.data["good"] == kind


def test_new_goods_found_is_void_when_its_player_cannot_pay() -> None:
    state = arrange(new_game(), luxury=[4, 0, 0, 0])
    card = card_id(state, event="new_goods")
    state = give_card(state, 0, card)
    outcome = GAME.apply(state, 0, Play(card=card), state.since)
    assert any(e.kind == "void" and e.data["why"] == "cant_pay" and e.data["cost"] == 5 for e in outcome.events)
    assert outcome.state.phase == "play" and outcome.state.luxury[0] == 4
    assert card in outcome.state.black_pile


def test_raid_names_a_player_and_a_kind_and_the_table_sees_the_number() -> None:
    state = arrange(new_game(), {3: hand("3 butter", "coffee")})
    state = play(play_event(state, "raid"), (0, Target(seat=3)))
    outcome = GAME.apply(state, 0, Pick(good="butter"), state.since)
    (raid,) = [e for e in outcome.events if e.kind == "raid"]
    assert raid.public and raid.reveals and raid.data["lost"] == 3 and raid.data["good"] == "butter"
    assert outcome.state.goods[3] == hand("coffee")


def test_old_debt_shows_the_card_to_the_two_players_only() -> None:
    state = arrange(new_game(), {2: hand("flour")})
    state = play_event(state, "old_debt")
    empty = [s for s in (1, 2, 3) if sum(state.goods[s]) == 0]
    for s in empty:
        assert refusal(state, 0, Target(seat=s)) == ("target_no_goods", {"target": s})
    outcome = GAME.apply(state, 0, Target(seat=2), state.since)
    assert outcome.state.goods[2] == hand() and outcome.state.goods[0][1] == state.goods[0][1] + 1
    assert not any("flour" in e.data.values() for e in outcome.events if e.public)
    (debt,) = [e for e in outcome.events if e.kind == "debt_paid"]
    assert debt.to == (0, 2) and debt.data["good"] == "flour"


def test_quick_deal_trades_a_card_of_your_choice_for_20_in_public() -> None:
    state = arrange(new_game(), {0: hand("2 sugar")})
    state = play_event(state, "quick_deal")
    assert refusal(state, 0, Pick(good="coffee")) == ("no_such_good", {"good": "coffee"})
    outcome = GAME.apply(state, 0, Pick(good="sugar"), state.since)
    assert outcome.state.luxury[0] == 20 and outcome.state.goods[0] == hand("sugar")
    (deal,) = [e for e in outcome.events if e.kind == "quick_deal"]
    assert deal.public and deal.reveals and deal.data["good"] == "sugar" and deal.data["paid"] == 20


def test_quick_deal_with_the_last_card_ends_the_game_round() -> None:
    state = arrange(new_game(), {0: hand("sugar")})
    state = play(play_event(state, "quick_deal"), (0, Pick(good="sugar")))
    assert state.game_round == 2 and sum(state.goods[0]) == 9 and state.starter == 1


def test_shortage_limit_and_spoiled_goods_stay_face_up_and_stack() -> None:
    state = play_event(new_game(), "shortage")
    state = play_event(state, "limit")
    second = next(c.id for c in state.cards if c.event == "shortage" and c.id not in state.in_force)
    state = give_card(state, state.starter, second)
    state = play(state, (state.starter, Play(card=second)))
    view = GAME.view(state, None)
    assert view.in_force == ("shortage", "limit", "shortage")  # type: ignore[attr-defined]
    assert total_cards(state) == (60, 30)


def test_an_event_with_nobody_to_target_is_void() -> None:
    state = arrange(new_game(3, dealer=2), {1: hand(), 2: hand()})
    card = card_id(state, event="espionage")
    state = give_card(state, 0, card)
    outcome = GAME.apply(state, 0, Play(card=card), state.since)
    assert any(e.kind == "void" for e in outcome.events)
    assert outcome.state.phase == "play" and outcome.state.starter == 1
