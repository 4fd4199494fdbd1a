"""A waiting objector may drop out until their own auction starts (issue 23, part 2; the specification's ruling
"A waiting objector may drop out"): the table sees that they did, the active player is not asked about them, and in
the variant their sheet stays face up."""

import pytest

from engine.casablanca.actions import Contest, DropObjection, NoObjection, Object
from engine.errors import RuleError

from .helpers import GAME, RED, opened
from .test_rulebook import variant_game


def test_a_queued_objector_drops_out_and_the_active_player_is_not_asked_about_them() -> None:
    red = {"red": 300, "green": 100, "blue": 100}
    table = opened(3, s0=red, s1=red, s2=red)
    table.move(0, "red", "2")
    table.objections({1: 300, 2: 300})
    assert [o.seat for o in table.state.objections] == [1, 2]
    assert DropObjection() in GAME.legal_actions(table.state, 2)
    dropped = table.do(2, DropObjection())
    assert [(e.kind, e.data) for e in dropped if e.public] == [("objection_dropped", {"seat": 2, "no": 1})]
    assert [(e.kind, e.data["dropped"]) for e in dropped if e.to == (2,)] == [("your_objection", True)]
    assert GAME.view(table.state, None).objectors == (1,)  # type: ignore[attr-defined]
    table.contest(300)  # the active player wins the tie against seat 1…
    assert table.state.at[RED] == "2" and table.state.phase == "turn" and table.state.turn == 1
    assert len(table.state.auctions) == 1, "…and is never asked about seat 2"


def test_the_objector_being_taken_may_drop_out_before_the_active_player_contests() -> None:
    table = opened(3, s1={"red": 300, "green": 100, "blue": 100}, s2={"red": 300, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    table.objections({1: 300, 2: 300})
    before = GAME.waiting_on(table.state)[0].timeout
    events = table.do(1, DropObjection())
    assert [e.kind for e in events if e.public] == ["objection_dropped", "contest_now"]
    assert table.state.objections[0].seat == 2
    assert GAME.waiting_on(table.state)[0].timeout != before, "a new question, with its own deadline"


def test_the_last_objector_dropping_out_lets_the_announcement_take_effect() -> None:
    table = opened(3, s1={"red": 300, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    table.objections({1: 300, 2: None})
    table.do(1, DropObjection())
    assert table.state.at[RED] == "2" and table.state.phase == "turn" and table.state.turn == 1


def test_in_the_variant_dropping_out_spares_the_objector_a_face_down_sheet() -> None:
    table = variant_game(3, ["Hotel", "Airport", "Police Station"])
    table.bribe(2, yellow=600)
    table.move(0, "yellow", "7")
    table.objections({1: 0, 2: None})  # seat 1 bluffs, then thinks better of it
    table.do(1, DropObjection())
    assert not table.state.face_down[1] and table.state.at[6] == "7"


def test_dropping_out_is_refused_once_the_auction_ran_or_without_an_objection() -> None:
    table = opened(3, s0={"red": 300, "green": 100, "blue": 100}, s1={"red": 300, "green": 100, "blue": 100})
    table.move(0, "red", "2")
    with pytest.raises(RuleError) as info:  # the window is open: answer No objection instead
        table.do(1, DropObjection())
    assert info.value.code == "window_still_open"
    table.do(1, Object(limit=300))
    table.do(2, NoObjection())
    with pytest.raises(RuleError) as info:
        table.do(2, DropObjection())
    assert info.value.code == "no_objection_waiting"
    assert DropObjection() not in GAME.legal_actions(table.state, 2)
    table.do(0, Contest(limit=300))
    with pytest.raises(RuleError):
        table.do(1, DropObjection())
