"""Set-up: seat limits of both games with clear refusals, who begins, and the variant's HQs."""

import pytest

from engine.casablanca.actions import ChooseHq
from engine.errors import RuleError

from .helpers import GAME, T0, Table, new_game


@pytest.mark.parametrize("seats", [2, 8])
def test_the_main_game_is_for_2_to_8(seats: int) -> None:
    state = new_game(seats, first=None)
    assert state.seats == seats and state.phase == "turn" and state.suitcase == "Bazaar"
    assert [a.home for a in state.agents] == state.at


@pytest.mark.parametrize(("variant", "seats"), [("main", 9), ("main", 1)])
def test_seat_counts_out_of_range_are_refused(variant: str, seats: int) -> None:
    with pytest.raises(RuleError) as info:
        GAME.setup(seats, GAME.parse_options({"variant": variant}), 1, T0)
    assert info.value.code == "player_count"
    assert info.value.values == {"variant": False, "least": 2, "most": 8, "count": seats}


def test_the_variant_is_for_2_to_4_and_says_what_to_do_with_more() -> None:
    with pytest.raises(RuleError) as info:
        GAME.setup(5, GAME.parse_options({"variant": "hq"}), 1, T0)
    assert info.value.code == "player_count"
    assert info.value.values == {"variant": True, "least": 2, "most": 4, "count": 5}


def test_the_main_games_first_player_is_the_chosen_one_or_drawn() -> None:
    assert new_game(4, first=2).turn == 2
    assert {new_game(4, first=None, seed=s).turn for s in range(12)} > {0}


def test_first_seat_is_refused_in_the_variant() -> None:
    with pytest.raises(RuleError) as info:
        GAME.setup(3, GAME.parse_options({"variant": "hq", "first_seat": 1}), 1, T0)
    assert info.value.code == "variant_first_seat"


def test_variant_hqs_are_chosen_in_seat_order_and_the_police_station_begins() -> None:
    table = Table(new_game(3, variant="hq", first=None))
    assert table.state.phase == "hq" and table.state.turn == 0
    table.do(0, ChooseHq(hq="ricks cafe"))
    table.do(1, ChooseHq(hq="Police Station"))
    events = table.do(2, ChooseHq(hq="hotel"))
    assert table.state.hq_owner == {"Rick's Café": 0, "Police Station": 1, "Hotel": 2}
    assert table.state.turn == 1 and (events[-1].kind, events[-1].data["seat"]) == ("turn", 1)


def test_without_the_police_station_the_airport_begins() -> None:
    table = Table(new_game(2, variant="hq", first=None))
    table.do(0, ChooseHq(hq="Hotel"))
    table.do(1, ChooseHq(hq="Airport"))
    assert table.state.turn == 1


def test_the_last_free_hq_goes_to_the_last_player_by_itself() -> None:
    table = Table(new_game(4, variant="hq", first=None))
    for seat, hq in enumerate(["Hotel", "Airport", "Rick's Café"]):
        table.do(seat, ChooseHq(hq=hq))
    assert table.state.hq_owner["Police Station"] == 3 and table.state.turn == 3


def test_hqs_can_be_dealt_at_random() -> None:
    dealt = {
        tuple(sorted(new_game(4, variant="hq", first=None, seed=s, deal_hqs=True).hq_owner.items())) for s in range(8)
    }
    assert len(dealt) > 1
    state = new_game(4, variant="hq", first=None, seed=3, deal_hqs=True)
    assert state.phase == "turn" and state.turn == state.hq_owner["Police Station"]
