"""The rulebook's examples and rules as scenarios: the bribe example, the auction example, a hit with its
announcements, the two-carrier rule, the end of both games, and the variant's lost turn."""

from engine.casablanca.actions import ChooseHq, EndTurn, Object
from engine.casablanca.state import Auction
from engine.casablanca.views import PublicView, SeatView

from .helpers import GAME, GREEN, GREY, PURPLE, Table, new_game, opened


def test_the_bribe_example_lila_sheela_1300_don_greenwood_500_michael_gray_400() -> None:
    table = Table(new_game(3))
    events = table.bribe(0, purple=1300, green=500, grey=400)
    state = table.state
    assert state.bribes[0][PURPLE] == 1300 and state.bribes[0][GREEN] == 500 and state.bribes[0][GREY] == 400
    assert state.capital[0] == 10_000 - 2_200
    # The table hears only that Anna bribed; the amounts go to her alone.
    assert [(e.kind, e.data) for e in events if e.visible_to(1)] == [
        ("bribed", {"seat": 0, "by_default": False}),
        ("turn", {"seat": 1, "first": True, "variant": False}),
    ]
    mine = [e.data for e in events if e.to == (0,)]
    assert mine == [
        {
            "seat": 0,
            "amounts": {str(PURPLE): 1300, str(GREEN): 500, str(GREY): 400},
            "capital": 7_800,
            "by_default": False,
        }
    ]
    assert all(not e.text for e in events)  # the engine speaks no language
    public = GAME.view(state, None)
    assert isinstance(public, PublicView) and "1300" not in public.model_dump_json()
    own = GAME.view(state, 0)
    assert isinstance(own, SeatView) and own.capital == 7_800 and own.bribes[PURPLE] == 1_300


def test_the_auction_example_b_claims_more_than_a_will_match_and_the_objection_succeeds() -> None:
    # A (seat 0) has $400 on Lila Sheela, B (seat 1) $500. A announces a move; B objects with a limit of $500.
    table = opened(2, s0={"purple": 400, "green": 100, "blue": 100}, s1={"purple": 500, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    table.do(1, Object(limit=500))
    assert table.state.phase == "contest"
    events = table.contest(400)
    auction = table.state.auctions[0]
    claims = auction.claims(active=0)
    # B $100 — A matches — B $200 — A matches … B $500 — A passes (the bot claims in $100 steps).
    assert claims[:4] == [(1, "claim", 100), (0, "match", 100), (1, "claim", 200), (0, "match", 200)]
    assert claims[-2:] == [(1, "claim", 500), (0, "pass", 0)]
    assert max(amount for _, _, amount in claims) == 500
    assert auction.succeeded
    data = next(e.data for e in events if e.kind == "auction")
    assert data["top"] == 500 and data["ending"] == "active_passed" and data["objector"] == 1 and data["active"] == 0
    # Nothing of the move happens; A may announce something else or end the turn, but not bribe.
    state = table.state
    assert state.at[PURPLE] == "Rick's Café" and state.turn == 0 and state.phase == "turn" and state.objected
    assert any(isinstance(a, EndTurn) for a in GAME.legal_actions(state, 0))
    assert not any(a.type == "bribe" for a in GAME.legal_actions(state, 0))


def test_the_active_player_wins_a_tie() -> None:
    table = opened(2, s0={"purple": 500, "green": 100, "blue": 100}, s1={"purple": 500, "green": 100, "blue": 100})
    table.move(0, "purple", "8")
    table.do(1, Object(limit=500))
    table.contest(500)
    assert table.state.auctions[0] == Auction(objector=1, ending="objector_passed", top=500)
    assert table.state.at[PURPLE] == "8" and table.state.turn == 1


def test_a_hit_costs_1000_removes_the_victim_and_announces_every_bribe_on_it() -> None:
    table = opened(
        3,
        s0={"green": 1500, "purple": 200, "blue": 100},
        s1={"purple": 700, "green": 100, "red": 100},
        s2={"white": 100, "red": 100, "brown": 100},
    )
    table.hit(0, "green", "purple")  # both start in Rick's Café
    assert table.state.at[PURPLE] == "Rick's Café"  # only announced so far
    events = table.nobody_objects()
    state = table.state
    assert state.at[PURPLE] is None and state.bribes[0][GREEN] == 500
    assert [row[PURPLE] for row in state.bribes] == [0, 0, 0]
    assert state.lost == [1_200, 700, 0]
    hit = next(e for e in events if e.kind == "hit")
    assert hit.public and hit.reveals and hit.data["amounts"] == [200, 700, 0]
    assert hit.data["seat"] == 0 and hit.data["cost"] == 1_000 and hit.data["dropped"] is False
    for s in range(3):
        assert state.capital[s] + sum(state.bribes[s]) + state.lost[s] == 10_000
    assert state.turn == 1


def test_the_suitcase_must_be_carried_by_two_agents_before_the_game_can_end() -> None:
    table = opened(2, s0={"purple": 900, "green": 300, "blue": 100}, s1={"green": 800, "purple": 100, "red": 100})
    steps = [
        ("purple", "10", False),
        ("purple", "12", False),
        ("purple", "Bazaar", False),
        ("purple", "12", True),
        ("purple", "10", True),
        ("purple", "Rick's Café", True),
    ]
    for i, (agent, to, case) in enumerate(steps):
        table.move(i % 2, agent, to, case)
        table.nobody_objects()
    # Lila Sheela is home with the suitcase, but she is the only agent who has carried it.
    assert table.state.phase == "turn" and table.state.carrier == PURPLE and table.state.carried_by == [PURPLE]
    table.move(0, "green", "8", True)  # Don Greenwood takes it from her: no hit needed
    table.nobody_objects()
    assert table.state.carried_by == [PURPLE, GREEN]
    events = table.move(1, "green", "Rick's Café", True)
    assert table.state.phase == "objections"  # the end, too, must survive the objections
    events = table.nobody_objects()
    state = table.state
    assert state.phase == "over" and state.winner_agent == GREEN and state.winners == [1]
    result = GAME.result(state)
    assert result is not None and result.winners == (1,) and [s.score for s in result.standings] == [800, 300]
    sheets = next(e for e in events if e.kind == "sheets")
    assert sheets.public and sheets.reveals and sheets.data["bribes"] == state.bribes
    assert GAME.waiting_on(state) == []


def variant_game(seats: int, hqs: list[str]) -> Table:
    table = Table(new_game(seats, variant="hq", first=None))
    for s, hq in enumerate(hqs):
        if table.state.phase == "hq":
            table.do(s, ChooseHq(hq=hq))
    return table


def test_the_variant_ends_when_a_player_brings_the_suitcase_into_their_own_hq() -> None:
    table = variant_game(2, ["Hotel", "Police Station"])
    assert table.state.turn == 1  # the owner of the Police Station begins
    route = [
        ("yellow", "7", False),
        ("yellow", "4", False),
        ("yellow", "Bazaar", False),
        ("yellow", "4", True),
        ("yellow", "7", True),
    ]
    seats = [1, 0, 1, 0, 1]
    for seat, (agent, to, case) in zip(seats, route, strict=True):
        table.move(seat, agent, to, case)
        table.nobody_objects()
    # Seat 0 (Hotel) carries it into seat 1's Police Station: that wins nothing.
    table.move(0, "yellow", "Police Station", True)
    table.nobody_objects()
    assert table.state.phase == "turn" and table.state.turn == 1
    table.move(1, "yellow", "7", True)
    table.nobody_objects()
    table.move(0, "grey", "5")
    table.nobody_objects()
    table.move(1, "yellow", "Police Station", True)
    table.nobody_objects()
    state = table.state
    assert state.phase == "over" and state.winners == [1] and state.winner_agent is None
    result = GAME.result(state)
    assert result is not None and result.winners == (1,)


def test_a_lost_objection_in_the_variant_costs_the_objector_their_next_turn() -> None:
    table = variant_game(3, ["Hotel", "Airport", "Police Station"])
    assert table.state.turn == 2
    table.bribe(2, yellow=600)
    table.bribe(0, red=300)
    table.move(1, "red", "2")
    table.objections({0: 300, 2: None})
    table.contest(0)  # seat 1 has nothing on Rudy Red: seat 0's objection succeeds
    assert table.state.at[4] == "Airport" and table.state.turn == 2  # the variant: the turn is over
    table.move(2, "yellow", "7")
    events = table.objections({0: 0, 1: None})  # a bluff: seat 0 has nothing on Yvonne Yellow
    events += table.contest(600)  # the bot passes at once for seat 0: the objection fails
    assert table.state.at[6] == "7"
    kinds = [(e.kind, e.data.get("seat")) for e in events if e.kind in ("face_down", "sheet_up", "turn")]
    # Seat 0's sheet goes face down; its turn comes next: the bot turns it up and passes on — that was its turn.
    assert kinds == [("face_down", 0), ("sheet_up", 0), ("turn", 1)]
    assert table.state.turn == 1 and not table.state.face_down[0]


def test_a_face_down_sheet_is_not_asked_to_object() -> None:
    table = variant_game(3, ["Hotel", "Airport", "Police Station"])
    table.bribe(2, yellow=600)
    # Seat 0 plays; seat 2 objects with nothing (a bluff: the bot passes at once) and loses.
    table.move(0, "white", "1")
    table.objections({1: None, 2: 0})
    table.contest(0)
    assert table.state.face_down[2] and table.state.turn == 1
    table.move(1, "red", "2")
    assert table.state.awaited == [0]  # seat 2 lies face down: not asked
    table.nobody_objects()
    assert table.state.turn == 0 and not table.state.face_down[2]  # seat 2's turn was turning it up
