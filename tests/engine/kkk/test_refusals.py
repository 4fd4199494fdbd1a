"""Every refusal a player (or a stale timer) can hit: a clear reason, and the state untouched.

Each case builds a table, tries one action and checks the message; `Table.refused` also checks that neither the
state given to `apply` nor a working copy handed straight to the rule was changed. The last test runs every case
again and checks that together they reach every `raise RuleError` in the engine's KKK package, so a new refusal
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
from engine.kkk.cards import STOP, clan
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


CASES = [
    # the game and the system
    Case("game over", over, 0, A.Open(), "The game is over"),
    Case("system sends a player action", turn_a, None, A.Open(), "only apply timeouts"),
    Case("not seated", turn_a, 7, A.Open(), "not seated"),
    Case("player sends a timeout", turn_a, 0, A.Timeout(key="turn:0"), "Only the game's timer"),
    Case("stale timeout", turn_a, None, A.Timeout(key="turn:999"), "stale"),
    Case("early timeout", turn_a, None, lambda s: A.Timeout(key=deadline_key(s)), "hasn't passed yet"),
    # set-up and turns
    Case("marker placed twice", turn_a, 0, A.PlaceMarker(space=3), "already been placed"),
    Case("marker by the wrong player", fresh, lambda s: s.turn, A.PlaceMarker(space=3), "places the dollar marker"),
    Case("marker off the board", fresh, lambda s: s.placer, A.PlaceMarker(space=17), "from 1 to 16"),
    Case("open before the marker", fresh, lambda s: s.turn, A.Open(), r"First .* places the dollar marker"),
    Case("roll during a round", round_a, 0, A.Roll(), "round is open"),
    Case("not your turn", turn_a, 1, A.Roll(), r"It's \{seat:0\}'s turn"),
    Case("roll twice", rolled_a, 0, A.Roll(), "rolled already"),
    Case("draw before rolling", turn_a, 0, A.Draw(), "Roll first"),
    # hands and the hand limit
    Case("card not in hand", round_a, 3, A.PlayClan(family="T"), "don't hold a Talerfeld clan card"),
    Case("recruit with two cards", round_a, 1, A.Recruit(family="R"), r"3 × recruitment card; you hold 2"),
    Case("over the limit tries to roll", over_c, 0, A.Roll(), "First get down to 12 cards: discard 3"),
    Case("next player waits for the discard", over_c, 1, A.Roll(), r"Waiting for \{seat:0\}"),
    Case(
        "roll while a recruitment to get down to 12 is pending",
        then(over_c, (0, A.Recruit(family="R"))),
        1,
        A.Roll(),
        "Wait until the recruitment triple",
    ),
    Case("recruit while another is over the limit", over_c, 1, A.Recruit(family="R"), r"Waiting for \{seat:0\}"),
    Case("discard when not over", turn_a, 0, A.Discard(cards=(STOP,)), "don't need to discard"),
    Case("discard an unknown card", over_c, 0, A.Discard(cards=("joker", "x", "y")), "Unknown card code"),
    Case("discard too few", over_c, 0, A.Discard(cards=(STOP,)), "discard exactly 3"),
    Case("discard cards not held", over_c, 0, A.Discard(cards=(clan("T"),) * 3), "don't hold 3 × Talerfeld"),
    # offers and agreements
    Case(
        "offer outside a round",
        turn_a,
        1,
        A.Offer(price=1, family="K"),
        r"No negotiation round is open: offers and shakes wait until the player to move opens a deal \(\{seat:0\} is",
    ),
    Case("Boss offers to nobody", round_a, 0, A.Offer(price=1, family="K"), "say who the offer is for"),
    Case("Boss offers to themselves", round_a, 0, A.Offer(price=1, to=0), "to yourself"),
    Case("offer to a missing seat", round_a, 0, A.Offer(price=1, to=9), "no such player: name one of the players"),
    Case("offer past the Boss", round_a, 1, A.Offer(price=1, to=2), r"make your offer to \{seat:0\}"),
    Case("offer a family not needed", round_b, 1, A.Offer(price=1, family="K"), "no use for Knetowitz"),
    Case("offer a card you don't have", round_a, 3, A.Offer(price=1, family="K"), "You have no Knetowitz"),
    Case("Boss asks for a missing card", round_a, 0, A.Offer(price=1, family="K", to=2), "has no Knetowitz"),
    Case("offer over the payout", round_a, 1, A.Offer(price=13, family="K"), r"whole deal pays \(\$12M\)"),
    Case(
        "offer over the payout in dividends",
        round_a,
        1,
        A.Offer(price=7, unit="dividends", family="K"),
        r"whole deal pays \(\$12M\)",
    ),
    Case("shake a missing offer", round_a, 1, A.Shake(offer=42), "no offer #42"),
    Case("shake by a third player", offered, 2, A.Shake(offer=1), r"Only \{seat:1\} and the Boss \{seat:0\}"),
    Case("shake a binding agreement", binding, 1, A.Shake(offer=1), "already binding"),
    Case("shake a withdrawn offer", withdrawn, 0, A.Shake(offer=1), "is withdrawn"),
    Case(
        "shake your own offer",
        offered,
        1,
        A.Shake(offer=1),
        r"Making offer #1 was your 🤝 already: it binds when \{seat:0\}",
    ),
    Case("shake twice", reopened_shaken, 1, A.Shake(offer=1), r"already shaken on #1: waiting for \{seat:2\}"),
    Case("agreement over the payout", over_cap, 0, A.Shake(offer=2), r"promise \$16M, but the deal pays only \$12M"),
    Case("unshake a binding agreement", binding, 0, A.Unshake(offer=1), "changes nothing"),
    Case("unshake a withdrawn offer", withdrawn, 1, A.Unshake(offer=1), "is withdrawn"),
    Case("unshake without a shake", offered, 0, A.Unshake(offer=1), "haven't shaken"),
    Case(
        "unshake your own offer",
        offered,
        1,
        A.Unshake(offer=1),
        "your own: making it was your 🤝. To take it back, withdraw",
    ),
    Case(
        "counter a withdrawn offer",
        withdrawn,
        1,
        A.Offer(price=3, counter=1),
        "is withdrawn: there is nothing to counter",
    ),
    Case(
        "counter someone else's agreement",
        binding,
        2,
        A.Offer(price=3, counter=1),
        r"Only \{seat:1\} and the Boss \{seat:0\} can counter #1",
    ),
    Case(
        "counter an agreement with another card",
        binding,
        1,
        A.Offer(price=3, family="L", counter=1),
        "Agreement #1 is about Knetowitz: a counter-offer to it is about the same",
    ),
    Case(
        "counter an agreement with another player",
        binding,
        0,
        A.Offer(price=3, to=2, counter=1),
        r"Agreement #1 is between \{seat:1\} and the Boss: only they can counter it",
    ),
    Case("withdraw by a third player", offered, 2, A.Withdraw(offer=1), "can withdraw"),
    Case("withdraw a binding agreement", binding, 1, A.Withdraw(offer=1), "binding: it stands"),
    Case("withdraw twice", withdrawn, 1, A.Withdraw(offer=1), "already withdrawn"),
    # cards in a round
    Case("clan card outside a round", turn_a, 0, A.PlayClan(family="H"), "only while a deal is open"),
    Case("clan card while a travel is pending", pending_travel, 0, A.PlayClan(family="H"), "only a STOP"),
    Case("travel an owned investor as beside the board", round_a, 0, A.Travel(family="K"), "isn't beside the board"),
    Case("travel a clan card beside the board", round_a, 0, A.Travel(family="R", joker=True, on="clan"), "not beside"),
    Case("travel a missing seat", round_a, 0, A.Travel(target=9, family="K"), "no such player: name one of"),
    Case(
        "travel an ambiguous target",
        then(round_a, (1, A.PlayClan(family="K"))),
        0,
        A.Travel(target=1, family="K"),
        "say which one goes on travel",
    ),
    Case("travel a card nobody has", round_a, 0, A.Travel(target=3, family="K"), "no Knetowitz investor or"),
    Case(
        "travel an investor not owned", round_a, 0, A.Travel(target=3, family="K", on="investor"), "doesn't own the Kne"
    ),
    Case("travel a clan card not played", round_a, 0, A.Travel(target=1, family="K", on="clan"), "no Knetowitz clan"),
    Case("travel twice", k_on_travel, 0, A.Travel(target=1, family="K", joker=True), "already on travel"),
    Case("travel without the family card", round_a, 0, A.Travel(target=2, family="L"), "play your travel joker"),
    Case("travel without any travel card", round_a, 1, A.Travel(target=2, family="L"), "don't hold a Liebgeld travel"),
    Case("recruit outside a round", turn_a, 0, A.Recruit(family="R"), "only while a deal is open"),
    Case("recruit a clan card", round_a, 0, A.Recruit(family="K", on="clan"), "Clan cards can't be recruited"),
    Case("recruit your own investor", round_a, 0, A.Recruit(family="H"), "already own"),
    Case("recruit past the board", round_a, 0, A.Recruit(family="K"), "beside the board.*Raffzahn or Talerfeld"),
    Case("Boss card while a travel is pending", pending_travel, 1, A.Boss(), "only a STOP"),
    Case("Boss card on your own Boss card", pending_boss, 1, A.Boss(), "already the newest"),
    Case("Boss card by the Boss", round_a, 0, A.Boss(), "already the Boss"),
    Case("STOP on STOP", after_stop, 1, A.Stop(), "A STOP can't be stopped"),
    Case("STOP with nothing pending", round_a, 1, A.Stop(), "nothing to STOP"),
    Case("STOP your own card", pending_travel, 3, A.Stop(), "your own card"),
    # passing
    Case("pass with no window", round_a, 1, A.Pass(), "nothing to pass on"),
    Case("pass on your own card", pending_travel, 3, A.Pass(), "your own card"),
    Case("pass on your own last call", last_call_b, 0, A.Pass(), "your own last call"),
    Case("pass twice", then(pending_travel, (1, A.Pass())), 1, A.Pass(), r"already passed; waiting for \{seat:0\}"),
    Case("always-pass outside a round", turn_a, 1, A.AlwaysPass(), "none is open"),
    Case("always-pass twice", then(round_a, (1, A.AlwaysPass())), 1, A.AlwaysPass(), "already pass on everything"),
    Case("always-pass off when not on", round_a, 1, A.AlwaysPass(on=False), "haven't set"),
    # closing and failing
    Case("close by another player", ready_b, 1, A.Close(), r"Only the Boss \(\{seat:0\}\)"),
    Case("close while a card is pending", pending_travel, 0, A.Close(), "still pending"),
    Case("close twice", last_call_b, 0, A.Close(), "already running"),
    Case(
        "close without the investors",
        round_a,
        0,
        A.Close(),
        "still need Raffzahn, Liebgeld, Knetowitz and 1 more of Talerfeld/Piepenbrok/Heiermann",
    ),
    Case("cancel another's last call", last_call_b, 1, A.CancelClose(), "Only the Boss"),
    Case("cancel without a last call", ready_b, 0, A.CancelClose(), "no last call"),
    Case("fail by another player", round_a, 1, A.Fail(), "Only the Boss"),
    Case(
        "fail under a pending Boss card",
        pending_boss,
        0,
        A.Fail(),
        r"can't fail the deal yet: \{seat:1\}'s Boss card is pending .* STOP it, or wait .* if you are still the Boss",
    ),
    Case("fail under your own answering Boss card", answered_boss, 0, A.Fail(), "your own Boss card is pending. Wait"),
    Case(
        "fail under a pending recruitment triple",
        recruiting,
        0,
        A.Fail(),
        r"\{seat:1\}'s recruitment of the Raffzahn investor beside the board is pending .* STOP it, or wait until its "
        "window closes; then you can declare the deal failed",
    ),
    Case("fail under your own recruitment triple", own_recruit, 0, A.Fail(), "your own recruitment triple is pending"),
    # the Boss's own assignment
    Case(
        "assign a family the deal can't use",
        ready_b,
        0,
        A.Close(assignment=(Use(family="K", seat=0, card="investor"),)),
        "no use for Knetowitz",
    ),
    Case(
        "assign a family twice",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="H", seat=0, card="clan"))),
        "assigned twice",
    ),
    Case(
        "assign a missing seat",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=9, card="investor"),)),
        "no such player: name one of the players at this table",
    ),
    Case(
        "assign a card without an agreement",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=3, card="investor"))),
        r"no binding agreement with \{seat:3\}",
    ),
    Case(
        "assign an investor you don't own",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=0, card="investor"))),
        "doesn't own the Piepenbrok investor",
    ),
    Case(
        "assign an investor on travel",
        h_on_travel_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"), Use(family="P", seat=0, card="clan"))),
        "Heiermann investor is on travel",
    ),
    Case(
        "assign a clan card not on the table",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="clan"), Use(family="P", seat=0, card="clan"))),
        "no Heiermann clan card on the table",
    ),
    Case(
        "assign too little",
        ready_b,
        0,
        A.Close(assignment=(Use(family="H", seat=0, card="investor"),)),
        "leaves out Piepenbrok",
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
        r"exactly 1 of Talerfeld/Piepenbrok \(you assigned 2\)",
    ),
]


def run(case: Case) -> str:
    t = case.build()
    actor = case.actor(t.state) if callable(case.actor) else case.actor
    action = case.action(t.state) if callable(case.action) else case.action
    return t.refused(actor, action, case.match)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_refused_with_a_reason_and_nothing_changes(case: Case) -> None:
    message = run(case)
    assert message and (message[0].isupper() or message.startswith("{seat:")) and message.endswith((".", "!", ")"))


def test_setup_refuses_a_wrong_number_of_players() -> None:
    for n in (2, 7):
        with pytest.raises(RuleError, match=f"3 to 6 players, not {n}"):
            GAME.setup(n, KkkOptions(), 1, NOW)


def test_every_refusal_in_the_engine_is_exercised() -> None:
    """Together the cases reach every `raise RuleError` in engine/kkk (so a new refusal needs a test)."""
    package = Path(GAME.__module__.replace(".", "/")).parent
    root = Path(sys.modules["engine"].__file__).parent.parent  # type: ignore[arg-type]
    sites = {
        (str(path.relative_to(root)), n)
        for path in sorted((root / package).glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"raise RuleError\(", line)
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
