"""Every refusal a player (or a stale timer) can hit: a code with its values, and the state untouched.

Each case builds a table, tries one action and checks the refusal's code and values (its fallback message
`code(values…)`; the bot words it); `Table.refused` also checks that neither the state given to `apply` nor a
working copy handed straight to the rule was changed. The last test runs every case
again and checks that together they reach every `raise rule(...)` in the engine's KKK package, so a new refusal
without a test fails the suite.
"""

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.errors import RuleError
from engine.kkk import actions as A
from engine.kkk.cards import RECRUIT, STOP, clan
from engine.kkk.options import KkkOptions
from engine.kkk.state import KkkState, Use

from .helpers import GAME, NOW, Table
from .tables import (
    after_stop,
    answered_boss,
    binding,
    h_on_travel_b,
    k_on_travel,
    last_call_b,
    offered,
    over_c,
    over_cap,
    own_recruit,
    pending_boss,
    pending_travel,
    ready_b,
    recruiting,
    reopened_shaken,
    rolled_a,
    round_a,
    round_b,
    round_d,
    then,
    turn_a,
    withdrawn,
)


def fresh() -> Table:
    return Table(GAME.setup(4, KkkOptions(), 3, NOW))


def over() -> Table:
    t = turn_a()
    t.state.phase = "over"
    return t


def deadline_key(state: KkkState) -> str:
    assert state.deadline is not None
    return state.deadline.key


@dataclass
class Case:
    name: str
    build: Callable[[], Table]
    actor: int | Callable[[KkkState], int] | None
    action: Any
    match: str
    """A regular expression the refusal's fallback message `code(values…)` starts with."""


CASES = [
    # the game and the system
    Case("game over", over, 0, A.Open(), r"game_over"),
    Case("system sends a player action", turn_a, None, A.Open(), r"system_timeouts_only"),
    Case("not seated", turn_a, 7, A.Open(), r"not_seated"),
    Case("player sends a timeout", turn_a, 0, A.Timeout(key="turn:0"), r"timer_only"),
    Case("stale timeout", turn_a, None, A.Timeout(key="turn:999"), r"stale_timer"),
    Case("early timeout", turn_a, None, lambda s: A.Timeout(key=deadline_key(s)), r"deadline_not_passed"),
    # set-up and turns
    Case("marker placed twice", turn_a, 0, A.PlaceMarker(space=3), r"marker_placed_already"),
    Case("marker by the wrong player", fresh, lambda s: s.turn, A.PlaceMarker(space=3), r"not_placer"),
    Case(
        "marker off the board", fresh, lambda s: s.placer, A.PlaceMarker(space=17), r"no_such_space\(low=1, high=16\)"
    ),
    Case("open before the marker", fresh, lambda s: s.turn, A.Open(), r"marker_first"),
    Case("roll during a round", round_a, 0, A.Roll(), r"round_open"),
    Case("not your turn", turn_a, 1, A.Roll(), r"not_your_turn\(turn=0, move='roll'\)"),
    Case("roll twice", rolled_a, 0, A.Roll(), r"rolled_already"),
    Case("draw before rolling", turn_a, 0, A.Draw(), r"roll_first"),
    # hands and the hand limit
    Case("card not in hand", round_a, 3, A.PlayClan(family="T"), r"not_held\(card='clan:T'\)"),
    Case(
        "recruit with two cards",
        round_a,
        1,
        A.Recruit(family="R"),
        r"not_enough_cards\(card='recruit', count=3, held=2\)",
    ),
    Case("over the limit tries to roll", over_c, 0, A.Roll(), r"over_hand_limit\(limit=12, extra=3\)"),
    Case("next player waits for the discard", over_c, 1, A.Roll(), r"waiting_for_discard\(seat=0"),
    Case(
        "roll while a recruitment to get down to 12 is pending",
        then(over_c, (0, A.Recruit(family="R"))),
        1,
        A.Roll(),
        r"recruit_pending",
    ),
    Case("recruit while another is over the limit", over_c, 1, A.Recruit(family="R"), r"waiting_for_discard\(seat=0"),
    Case("discard when not over", turn_a, 0, A.Discard(cards=(STOP,)), r"no_discard_needed"),
    Case("discard an unknown card", over_c, 0, A.Discard(cards=("joker", "x", "y")), r"unknown_cards"),
    Case("discard too few", over_c, 0, A.Discard(cards=(STOP,)), r"discard_exactly\(held=15, extra=3\)"),
    Case(
        "discard a card not held",
        over_c,
        0,
        A.Discard(cards=(clan("T"), RECRUIT, RECRUIT)),
        r"not_held\(card='clan:T'\)",
    ),
    Case(
        "discard cards not held",
        over_c,
        0,
        A.Discard(cards=(clan("T"),) * 3),
        r"not_enough_cards\(card='clan:T', count=3",
    ),
    # offers and agreements
    Case(
        "offer outside a round",
        turn_a,
        1,
        A.Offer(price=1, family="K"),
        r"no_round\(turn=0\)",
    ),
    Case("Boss offers to nobody", round_a, 0, A.Offer(price=1, family="K"), r"offer_to_whom"),
    Case("Boss offers to themselves", round_a, 0, A.Offer(price=1, to=0), r"offer_to_self"),
    Case("offer to a missing seat", round_a, 0, A.Offer(price=1, to=9), r"no_such_player"),
    Case("offer past the Boss", round_a, 1, A.Offer(price=1, to=2), r"offer_to_boss\(boss=0\)"),
    Case("offer a family not needed", round_b, 1, A.Offer(price=1, family="K"), r"family_not_needed\(family='K'"),
    Case("offer a card you don't have", round_a, 3, A.Offer(price=1, family="K"), r"you_lack_family\(family='K'\)"),
    Case(
        "Boss asks for a missing card",
        round_a,
        0,
        A.Offer(price=1, family="K", to=2),
        r"seller_lacks_family\(seller=2, family='K'\)",
    ),
    Case("offer over the payout", round_a, 1, A.Offer(price=13, family="K"), r"over_payout\(payout=12\)"),
    Case(
        "offer over the payout in dividends",
        round_a,
        1,
        A.Offer(price=7, unit="dividends", family="K"),
        r"over_payout\(payout=12\)",
    ),
    Case("shake a missing offer", round_a, 1, A.Shake(offer=42), r"no_such_offer\(offer=42\)"),
    Case("shake by a third player", offered, 2, A.Shake(offer=1), r"shake_not_party\(offer=1, seller=1, boss=0\)"),
    Case("shake a binding agreement", binding, 1, A.Shake(offer=1), r"shake_binding"),
    Case("shake a withdrawn offer", withdrawn, 0, A.Shake(offer=1), r"shake_dead\(offer=1, status='withdrawn'\)"),
    Case(
        "shake your own offer",
        offered,
        1,
        A.Shake(offer=1),
        r"shake_own_offer\(offer=1, other=0\)",
    ),
    Case("shake twice", reopened_shaken, 1, A.Shake(offer=1), r"shaken_already\(offer=1, other=2\)"),
    Case(
        "agreement over the payout", over_cap, 0, A.Shake(offer=2), r"shake_over_payout\(offer=2, would=16, payout=12"
    ),
    Case("unshake a binding agreement", binding, 0, A.Unshake(offer=1), r"unshake_binding"),
    Case("unshake a withdrawn offer", withdrawn, 1, A.Unshake(offer=1), r"unshake_dead\(offer=1, status='withdrawn'\)"),
    Case("unshake without a shake", offered, 0, A.Unshake(offer=1), r"not_shaken"),
    Case(
        "unshake your own offer",
        offered,
        1,
        A.Unshake(offer=1),
        r"unshake_own_offer",
    ),
    Case(
        "counter a withdrawn offer",
        withdrawn,
        1,
        A.Offer(price=3, counter=1),
        r"counter_dead\(offer=1, status='withdrawn'\)",
    ),
    Case(
        "counter someone else's agreement",
        binding,
        2,
        A.Offer(price=3, counter=1),
        r"counter_not_party\(offer=1, seller=1, boss=0\)",
    ),
    Case(
        "counter an agreement with another card",
        binding,
        1,
        A.Offer(price=3, family="L", counter=1),
        r"counter_same_thing\(offer=1, binding=True, family='K'",
    ),
    Case(
        "counter an agreement with another player",
        binding,
        0,
        A.Offer(price=3, to=2, counter=1),
        r"counter_same_pair\(offer=1, binding=True, family='K', seller=1\)",
    ),
    Case("withdraw by a third player", offered, 2, A.Withdraw(offer=1), r"withdraw_not_party"),
    Case("withdraw a binding agreement", binding, 1, A.Withdraw(offer=1), r"withdraw_binding"),
    Case("withdraw twice", withdrawn, 1, A.Withdraw(offer=1), r"withdraw_dead\(offer=1, status='withdrawn'\)"),
    # cards in a round
    Case("clan card outside a round", turn_a, 0, A.PlayClan(family="H"), r"no_round_for_cards"),
    Case(
        "clan card while a travel is pending",
        pending_travel,
        0,
        A.PlayClan(family="H"),
        r"only_stop_now\(effect=\{'kind': 'travel'",
    ),
    Case(
        "travel an owned investor as beside the board",
        round_a,
        0,
        A.Travel(family="K"),
        r"investor_not_beside\(family='K'\)",
    ),
    Case(
        "travel a clan card beside the board",
        round_a,
        0,
        A.Travel(family="R", joker=True, on="clan"),
        r"clan_not_beside",
    ),
    Case("travel a missing seat", round_a, 0, A.Travel(target=9, family="K"), r"no_such_player"),
    Case(
        "travel an ambiguous target",
        then(round_a, (1, A.PlayClan(family="K"))),
        0,
        A.Travel(target=1, family="K"),
        r"travel_which\(seat=1, family='K'\)",
    ),
    Case(
        "travel a card nobody has",
        round_a,
        0,
        A.Travel(target=3, family="K"),
        r"nothing_to_travel\(seat=3, family='K'\)",
    ),
    Case(
        "travel an investor not owned",
        round_a,
        0,
        A.Travel(target=3, family="K", on="investor"),
        r"not_investor_owner\(seat=3, family='K'\)",
    ),
    Case(
        "travel a clan card not played",
        round_a,
        0,
        A.Travel(target=1, family="K", on="clan"),
        r"no_clan_on_table\(seat=1, family='K'\)",
    ),
    Case(
        "travel twice", k_on_travel, 0, A.Travel(target=1, family="K", joker=True), r"already_on_travel\(family='K'\)"
    ),
    Case("travel without the family card", round_a, 0, A.Travel(target=2, family="L"), r"use_joker\(family='L'\)"),
    Case("travel without any travel card", round_a, 1, A.Travel(target=2, family="L"), r"not_held\(card='travel:L'\)"),
    Case("recruit outside a round", turn_a, 0, A.Recruit(family="R"), r"no_round_for_cards"),
    Case("recruit a clan card", round_a, 0, A.Recruit(family="K", on="clan"), r"recruit_clan"),
    Case("recruit your own investor", round_a, 0, A.Recruit(family="H"), r"own_investor\(family='H'\)"),
    Case("recruit past the board", round_a, 0, A.Recruit(family="K"), r"recruit_beside_first\(families=\['R', 'T'\]\)"),
    Case("Boss card while a travel is pending", pending_travel, 1, A.Boss(), r"only_stop_now"),
    Case("Boss card on your own Boss card", pending_boss, 1, A.Boss(), r"boss_card_newest"),
    Case("Boss card by the Boss", round_a, 0, A.Boss(), r"already_boss"),
    Case("STOP on STOP", after_stop, 1, A.Stop(), r"stop_on_stop"),
    Case("STOP with nothing pending", round_a, 1, A.Stop(), r"nothing_to_stop"),
    Case("STOP your own card", pending_travel, 3, A.Stop(), r"stop_own_card"),
    # passing
    Case("pass with no window", round_a, 1, A.Pass(), r"nothing_to_pass"),
    Case("pass on your own card", pending_travel, 3, A.Pass(), r"own_card_pass"),
    Case("pass on your own last call", last_call_b, 0, A.Pass(), r"own_last_call_pass"),
    Case("pass twice", then(pending_travel, (1, A.Pass())), 1, A.Pass(), r"already_passed\(waiting=\[0, 2\]\)"),
    Case("always-pass outside a round", turn_a, 1, A.AlwaysPass(), r"no_round_for_always_pass"),
    Case("always-pass twice", then(round_a, (1, A.AlwaysPass())), 1, A.AlwaysPass(), r"always_pass_already"),
    Case("always-pass off when not on", round_a, 1, A.AlwaysPass(on=False), r"always_pass_not_set"),
    # closing and failing
    Case("close by another player", ready_b, 1, A.Close(), r"only_boss_close\(boss=0\)"),
    Case("close while a card is pending", pending_travel, 0, A.Close(), r"close_pending"),
    Case("close twice", last_call_b, 0, A.Close(), r"last_call_running"),
    Case(
        "close without the investors",
        round_a,
        0,
        A.Close(),
        r"cannot_close_yet\(lacking=\['R', 'L', 'K'\], more=1, group=\['T', 'P', 'H'\]\)",
    ),
    Case("cancel another's last call", last_call_b, 1, A.CancelClose(), r"only_boss_cancel\(boss=0\)"),
    Case("cancel without a last call", ready_b, 0, A.CancelClose(), r"no_last_call"),
    Case("fail by another player", round_a, 1, A.Fail(), r"only_boss_fail\(boss=0\)"),
    Case(
        "fail under a pending Boss card",
        pending_boss,
        0,
        A.Fail(),
        r"fail_pending\(effect=\{'kind': 'boss', 'by': 1.*own=False\)",
    ),
    Case(
        "fail under your own answering Boss card",
        answered_boss,
        0,
        A.Fail(),
        r"fail_pending\(effect=\{'kind': 'boss', 'by': 0.*own=True\)",
    ),
    Case(
        "fail under a pending recruitment triple",
        recruiting,
        0,
        A.Fail(),
        r"fail_pending\(effect=\{'kind': 'recruit', 'by': 1, 'family': 'R', 'target': None.*own=False\)",
    ),
    Case(
        "fail under your own recruitment triple",
        own_recruit,
        0,
        A.Fail(),
        r"fail_pending\(effect=\{'kind': 'recruit', 'by': 0.*own=True\)",
    ),
    # the Boss's own assignment
    Case(
        "assign a family the deal can't use",
        ready_b,
        0,
        A.Close(assignment=(Use(family="K", seat=0, card="investor"),)),
        r"family_not_needed\(family='K'",
    ),
    Case(
        "assign a family twice",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="H", seat=0, card="clan"))),
        r"assigned_twice\(family='H'\)",
    ),
    Case(
        "assign a missing seat",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=9, card="investor"),)),
        r"no_such_player",
    ),
    Case(
        "assign a card without an agreement",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=3, card="investor"))),
        r"no_agreement_with\(seat=3, family='P'\)",
    ),
    Case(
        "assign an investor you don't own",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=0, card="investor"))),
        r"not_investor_owner\(seat=0, family='P'\)",
    ),
    Case(
        "assign an investor on travel",
        h_on_travel_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=0, card="clan"))),
        r"investor_on_travel\(family='H'\)",
    ),
    Case(
        "assign a clan card not on the table",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="clan"), Use(family="P", seat=0, card="clan"))),
        r"no_clan_on_table\(seat=0, family='H'\)",
    ),
    Case(
        "assign too little",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"),)),
        r"assignment_leaves_out\(families=\['P'\]\)",
    ),
    Case(
        "assign the wrong number of the group",
        round_d,
        0,
        A.Close(
            assignment=(
                Use(family="K", seat=0, card="investor"),
                Use(family="T", seat=0, card="investor"),
                Use(family="P", seat=0, card="investor"),
            )
        ),
        r"group_count\(k=1, group=\['T', 'P'\], assigned=2\)",
    ),
]


def run(case: Case) -> str:
    t = case.build()
    actor = case.actor(t.state) if callable(case.actor) else case.actor
    action = case.action(t.state) if callable(case.action) else case.action
    return t.refused(actor, action, "^" + case.match)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_refused_with_a_code_and_nothing_changes(case: Case) -> None:
    """Every refusal is a code with JSON-like values (the bot words it; `bot/games/kkk` names the fix)."""
    message = run(case)
    assert re.fullmatch(r"[a-z_]+(\(.*\))?", message)


def test_setup_refuses_a_wrong_number_of_players() -> None:
    for n in (2, 7):
        with pytest.raises(RuleError) as info:
            GAME.setup(n, KkkOptions(), 1, NOW)
        assert info.value.code == "player_count" and info.value.values == {"low": 3, "high": 6, "seats": n}


def test_every_refusal_in_the_engine_is_exercised() -> None:
    """Together the cases reach every `raise rule(...)` in engine/kkk (so a new refusal needs a test)."""
    package = Path(GAME.__module__.replace(".", "/")).parent
    root = Path(sys.modules["engine"].__file__).parent.parent  # type: ignore[arg-type]
    sites = {
        (str(path.relative_to(root)), n)
        for path in sorted((root / package).glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"raise rule\(", line)
    }
    reached: set[tuple[str, int]] = set()
    for case in CASES:
        t = case.build()
        actor = case.actor(t.state) if callable(case.actor) else case.actor
        action = case.action(t.state) if callable(case.action) else case.action
        try:
            GAME.apply(t.state, actor, action, t.now)
        except RuleError as exc:
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            assert tb is not None
            reached.add((str(Path(tb.tb_frame.f_code.co_filename).relative_to(root)), tb.tb_lineno))
    try:
        GAME.setup(2, KkkOptions(), 1, NOW)
    except RuleError as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        assert tb is not None
        reached.add((str(Path(tb.tb_frame.f_code.co_filename).relative_to(root)), tb.tb_lineno))
    assert len(sites) > 80
    assert sites - reached == set()
