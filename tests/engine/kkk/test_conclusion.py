"""Closing (the last call), conclusion, the end die, the 15th deal, failure and the final standings."""

from collections import Counter
from datetime import timedelta

import pytest

from engine.kkk import actions as A
from engine.kkk.cards import RECRUIT, STOP, clan, travel
from engine.kkk.options import KkkOptions
from engine.kkk.state import Use
from engine.kkk.waits import WINDOWS

from .helpers import GAME, Table, prepared, rng_for_face
from .tables import last_call_b, own_recruit, pending_boss, pending_travel, ready_b, recruiting, round_a, round_b

OWN_R_AND_L = {"R": 0, "L": 0, "H": 1, "K": 2, "P": 3, "T": None}


def close_space_1(t: Table, boss: int = 0) -> None:
    """Open space 1 (Raffzahn, Liebgeld; 3 dividends) as `boss`, who owns both, close, and let everyone pass."""
    t(boss, A.Open())
    t(boss, A.Close())
    for s in range(t.state.seats):
        if s != boss:
            t(s, A.Pass())


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_after_the_12th_deal_the_game_ends_on_1_2_or_3(face: int) -> None:
    state = prepared(4, OWN_R_AND_L, [[], [], [], []], deals=11, marker=1)
    state.rng = rng_for_face(face)
    t = Table(state)
    close_space_1(t)
    assert t.state.deals == 12 and t.state.end_roll == face
    if face <= 3:
        assert t.state.phase == "over" and GAME.result(t.state) is not None
        assert GAME.waiting_on(t.state) == [] and GAME.legal_actions(t.state, 1) == []
    else:
        assert t.state.phase == "turn" and t.state.turn == 1 and GAME.result(t.state) is None


def test_no_die_before_the_10th_deal() -> None:
    t = Table(prepared(4, OWN_R_AND_L, [[], [], [], []], deals=8, marker=1))
    rng = t.state.rng.state
    close_space_1(t)
    assert t.state.deals == 9 and t.state.end_roll is None and t.state.rng.state == rng


def test_the_15th_deal_ends_the_game_without_a_roll() -> None:
    t = Table(prepared(4, OWN_R_AND_L, [[], [], [], []], deals=14, marker=1, money=[0, 20, 0, 0]))
    t(0, A.Open())
    t(0, A.Close())
    t(1, A.Pass())
    t(2, A.Pass())
    out = GAME.apply(t.state, 3, A.Pass(), t.now)
    assert out.state.phase == "over" and not out.used_randomness and out.state.end_roll is None
    assert out.state.money == [15, 20, 0, 0]  # 3 dividends × $5M
    over = next(e for e in out.events if e.kind == "game_over")
    assert over.public and over.reveals and over.data["reason"] == "last_deal" and over.data["deal"] == 15
    result = GAME.result(out.state)
    assert result is not None and result.winners == (1,)
    assert [(s.seat, s.score) for s in result.standings] == [(1, 20), (0, 15), (2, 0), (3, 0)]
    view = GAME.view(out.state, None)
    assert view.money == [15, 20, 0, 0]  # type: ignore[attr-defined]


def test_equal_money_shares_the_win() -> None:
    t = Table(
        prepared(4, {**OWN_R_AND_L, "R": 2, "L": 2}, [[], [], [], []], deals=14, marker=1, turn=2, money=[19, 0, 4, 0])
    )
    close_space_1(t, boss=2)
    result = GAME.result(t.state)
    assert result is not None and result.winners == (0, 2)
    assert [s.rank for s in result.standings] == [1, 1, 3, 3]


def test_conclusion_moves_the_marker_to_the_next_free_space_and_passes_the_turn_left() -> None:
    t = Table(prepared(4, OWN_R_AND_L, [[], [], [], []], deals=3, marker=1, done_spaces=[2, 3, 5]))
    close_space_1(t)
    assert t.state.tiles[0] == 4 and t.state.marker == 4 and t.state.turn == 1
    assert t.state.money == [9, 0, 0, 0] and t.state.paid_out == 9  # 3 dividends × $3M (tile 4)


def test_investors_are_used_before_clan_cards_even_when_they_cost_money() -> None:
    t = ready_b()  # Boss 0: Heiermann investor and a played Piepenbrok clan card; seat 3 owns Piepenbrok
    t(3, A.Offer(price=1, family="P"))
    t(0, A.Shake(offer=1))
    t(0, A.Close())
    uses = {(u.family, u.seat, u.card) for u in t.state.round.last_call.uses}  # type: ignore[union-attr]
    assert uses == {("H", 0, "investor"), ("P", 3, "investor")}
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert clan("P") in t.state.hands[0]  # the unused clan card goes back to its owner
    assert t.state.money == [5, 0, 0, 1]


def test_own_cards_before_paid_ones_and_then_the_cheapest() -> None:
    investors = {"H": 0, "K": 0, "L": 2, "P": None, "R": None, "T": None}
    hands = [[clan("H")], [clan("P")], [clan("P")], [clan("P")]]
    t = Table(prepared(4, investors, hands, marker=10))  # space 10: Heiermann, Piepenbrok
    t(0, A.Open())
    t(0, A.PlayClan(family="H"))
    for s, price in ((1, 3), (2, 1), (3, 2)):
        t(s, A.PlayClan(family="P"))
        t(s, A.Offer(price=price, family="P"))
        t(0, A.Shake(offer=s))
    t(0, A.Close())
    uses = {(u.family, u.seat, u.card) for u in t.state.round.last_call.uses}  # type: ignore[union-attr]
    assert uses == {("H", 0, "investor"), ("P", 2, "clan")}  # own investor; the cheapest paid clan card
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.hands == [[clan("H")], [clan("P")], [], [clan("P")]]
    assert t.state.money == [0, 3, 1, 2]  # every binding agreement is paid, used or not


def test_the_boss_may_choose_another_valid_assignment() -> None:
    t = ready_b()
    t(3, A.Offer(price=1, family="P"))
    t(0, A.Shake(offer=1))
    own = (Use(family="H", seat=0, card="investor"), Use(family="P", seat=0, card="clan"))
    t(0, A.Close(assignment=own))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert clan("P") not in t.state.hands[0] and clan("P") in t.state.discard


def test_the_last_call_waits_for_everyone_and_goes_through_at_the_reaction_time() -> None:
    t = last_call_b()
    [wait] = GAME.waiting_on(t.state)
    assert wait.kind == "reaction" and wait.seats == (1, 2, 3)
    t(1, A.Pass())
    t.timeout()
    assert t.state.round is None and t.state.money[0] == 6


def test_the_boss_may_call_off_the_last_call() -> None:
    t = last_call_b()
    t(1, A.Pass())
    t(0, A.CancelClose())
    assert t.state.round.last_call is None and t.state.passes == []  # type: ignore[union-attr]
    t(0, A.Close())
    assert t.state.round.last_call is not None  # type: ignore[union-attr]


def test_failure_returns_clan_cards_and_discards_every_other_played_card() -> None:
    t = round_a()
    t(0, A.PlayClan(family="R"))
    t(1, A.PlayClan(family="K"))
    t(3, A.Travel(target=2, family="L"))
    t(2, A.Stop())
    t(1, A.Travel(target=0, family="H"))
    for s in (0, 2, 3):
        t(s, A.Pass())
    t(0, A.Travel(target=1, family="K", on="investor"))  # still pending when the Boss fails
    t(0, A.Fail())
    assert t.state.round is None and t.state.turn == 1 and t.state.offers == []
    assert t.state.hands[0].count(clan("R")) == 1 and clan("K") in t.state.hands[1]
    assert Counter(t.state.discard) == Counter({travel("L"): 1, STOP: 1, travel("H"): 1, travel("K"): 1})
    assert t.state.money == [0, 0, 0, 0]


def test_a_silent_boss_fails_at_the_turn_deadline_which_every_play_restarts() -> None:
    t = round_a()
    first = GAME.waiting_on(t.state)[0]
    assert first.seats == (0,) and first.kind == "turn"
    t.now += timedelta(hours=20)
    t(1, A.Offer(price=1, family="K"))
    second = GAME.waiting_on(t.state)[0]
    assert second.until == t.now + KkkOptions().turn_deadline and second.until > first.until
    t.refused(None, first.timeout, "stale_timer")
    events = t.timeout()
    assert events[0].kind == "deal_failed" and t.state.round is None and t.state.turn == 1


def test_a_silent_player_to_move_rolls_and_draws_and_a_rolled_player_draws() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, [[], [], [], []], marker=8))
    t.timeout()
    assert t.state.last_roll is not None and len(t.state.hands[0]) == 3 and t.state.turn == 1
    t(1, A.Roll())
    t.timeout()
    assert len(t.state.hands[1]) == 3 and t.state.turn == 2


def test_a_close_right_after_opening_still_gives_everyone_a_last_call() -> None:
    t = round_b()
    t(0, A.PlayClan(family="P"))
    t(0, A.Close())
    assert t.state.round is not None and GAME.waiting_on(t.state)[0].seats == (1, 2, 3)


def test_standings_of_a_game_ended_early_rank_the_money_so_far() -> None:
    t = Table(prepared(4, OWN_R_AND_L, [[], [], [], []], marker=1, money=[3, 9, 9, 0]))
    assert GAME.result(t.state) is None
    standings = GAME.standings(t.state)
    assert standings.winners == (1, 2) and standings.reason == ""  # the presentation says why it ended


# --- failure while a card is pending (see engine/kkk/conclusion.py for the ruling) ----------------------------------


def test_the_boss_cannot_fail_while_another_players_recruitment_triple_is_pending() -> None:
    t = recruiting()  # seat 1's triple on Raffzahn, beside the board, waits for STOPs; seat 0 is the Boss
    t.refused(
        0, A.Fail(), r"fail_pending\(effect=\{'kind': 'recruit', 'by': 1, 'family': 'R', 'target': None.*own=False"
    )
    assert A.Fail() not in GAME.legal_actions(t.state, 0)
    while t.state.pending:
        t.timeout()  # nobody STOPs: the triple takes effect, as it would have at once at the table
    assert t.state.investors["R"] == 1 and t.state.discard == [RECRUIT] * 3
    assert A.Fail() in GAME.legal_actions(t.state, 0)
    t(0, A.Fail())
    assert t.state.round is None and t.state.turn == 1 and t.state.investors["R"] == 1  # the recruitment stands


def test_a_stopped_recruitment_lets_the_boss_fail() -> None:
    t = recruiting()
    t(2, A.Stop())
    assert not t.state.pending and t.state.investors["R"] is None
    t(0, A.Fail())
    assert t.state.round is None and Counter(t.state.discard) == Counter({RECRUIT: 3, STOP: 1})


def test_the_boss_waits_for_their_own_recruitment_triple_before_failing() -> None:
    t = own_recruit()
    t.refused(0, A.Fail(), r"fail_pending\(effect=\{'kind': 'recruit', 'by': 0.*own=True")
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.investors["R"] == 0
    t(0, A.Fail())
    assert t.state.round is None and t.state.investors["R"] == 0


def test_no_wait_gets_stuck_while_a_recruitment_blocks_the_failure() -> None:
    """With a card pending the game waits on its window (default: pass); only then on the Boss (default: failure)."""
    t = recruiting()
    [window] = GAME.waiting_on(t.state)
    assert window.kind == "reaction" and window.seats == (0, 2, 3) and window.timeout.key.startswith("window:")
    assert window.until - window.since == WINDOWS["stop"]
    events = t.timeout()
    assert [e.kind for e in events][:2] == ["timeout", "recruited"] and not t.state.pending
    [boss] = GAME.waiting_on(t.state)
    assert boss.kind == "turn" and boss.seats == (0,) and boss.timeout.key.startswith("boss:")
    assert boss.until - boss.since == KkkOptions().turn_deadline
    events = t.timeout()
    assert events[0].kind == "deal_failed" and t.state.round is None and t.state.investors["R"] == 1
    [turn] = GAME.waiting_on(t.state)
    assert turn.seats == (1,) and turn.timeout.key.startswith("turn:")


def test_the_boss_cannot_fail_while_a_boss_card_is_pending() -> None:
    """kkk.md l.159 says "at any time while they are Boss"; a Boss card played against them would already have made
    someone else Boss at the table, so the Boss must STOP it or let its window close first."""
    t = pending_boss()  # seat 1 played a Boss card against the Boss, seat 0
    t.refused(0, A.Fail(), r"fail_pending\(effect=\{'kind': 'boss', 'by': 1")
    assert A.Fail() not in GAME.legal_actions(t.state, 0)
    for s in (0, 2, 3):
        t(s, A.Pass())
    assert t.state.round is not None and t.state.round.boss == 1
    t.refused(0, A.Fail(), r"only_boss_fail\(boss=1\)")
    t(1, A.Fail())
    assert t.state.round is None and t.state.turn == 2


def test_a_stopped_boss_card_leaves_the_boss_free_to_fail() -> None:
    t = pending_boss()
    t(0, A.Stop())
    t(0, A.Fail())
    assert t.state.round is None and t.state.turn == 1


def test_failing_with_a_travel_pending_discards_the_travel_card_and_tells_the_table() -> None:
    t = pending_travel()  # seat 3's Liebgeld travel card on seat 2's investor waits for STOPs
    window = t.state.window
    assert A.Fail() in GAME.legal_actions(t.state, 0)
    events = t(0, A.Fail())
    kinds = [e.kind for e in events]
    assert kinds.index("deal_failed") < kinds.index("pending_discarded")
    dropped = next(e for e in events if e.kind == "pending_discarded")
    assert dropped.public and dropped.data["window"] == window and dropped.data["effect"] == "travel"
    assert (dropped.data["by"], dropped.data["target"], dropped.data["family"], dropped.data["on"]) == (
        3,
        2,
        "L",
        "investor",
    )
    assert t.state.round is None and not t.state.pending and t.state.turn == 1
    assert t.state.discard == [travel("L")] and t.state.investors["L"] == 2
    assert GAME.waiting_on(t.state)[0].timeout.key.startswith("turn:")
