"""Prepared tables shared by the tests: small known positions to act on."""

from collections.abc import Callable
from typing import Any

from engine.kkk import actions as A
from engine.kkk.cards import BOSS, JOKER, RECRUIT, STOP, clan, travel

from .helpers import Table, prepared

# --- tables ------------------------------------------------------------------------------------------

HANDS = [
    [clan("H"), clan("R"), clan("K"), clan("P"), travel("K"), JOKER, STOP, BOSS, RECRUIT, RECRUIT, RECRUIT],
    [clan("K"), clan("L"), travel("H"), STOP, BOSS, RECRUIT, RECRUIT],
    [clan("T"), STOP, BOSS, travel("L")],
    [clan("P"), travel("L"), travel("P")],
]


def turn_a() -> Table:
    """Space 8 (R, L, K + 2 of T/P/H; 6 dividends × $2M = $12M); seat 0 to move; R and T beside the board."""
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    return Table(prepared(4, investors, HANDS, marker=8, turn=0))


def then(base: Callable[[], Table], *steps: tuple[int | None, Any]) -> Callable[[], Table]:
    def build() -> Table:
        t = base()
        for actor, action in steps:
            t(actor, action)
        return t

    return build


rolled_a = then(turn_a, (0, A.Roll()))
round_a = then(turn_a, (0, A.Open()))
pending_travel = then(round_a, (3, A.Travel(target=2, family="L")))
pending_boss = then(round_a, (1, A.Boss()))
after_stop = then(pending_travel, (0, A.Stop()))
offered = then(round_a, (1, A.Offer(price=4, family="K")))
"""Seat 1 offers the Knetowitz investor to the Boss, seat 0, for $4M: making it was seat 1's 🤝."""
binding = then(offered, (0, A.Shake(offer=1)))
reopened_shaken = then(binding, (2, A.Boss()), (0, A.Pass()), (1, A.Pass()), (3, A.Pass()), (1, A.Shake(offer=1)))
"""Seat 2 became Boss: agreement #1 reopened to them, and seat 1 has shaken on it again."""
withdrawn = then(offered, (1, A.Withdraw(offer=1)))
k_on_travel = then(round_a, (0, A.Travel(target=1, family="K")), (1, A.Pass()), (2, A.Pass()), (3, A.Pass()))
over_cap = then(
    round_a,
    (1, A.Offer(price=8, family="K")),
    (0, A.Shake(offer=1)),
    (2, A.Offer(price=8, family="L")),
)


def recruiting() -> Table:
    """Space 8 again; seat 1 holds three recruitment cards and has played them on Raffzahn, beside the board, while
    seat 0 is Boss: the triple's window is open."""
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, [[], [RECRUIT] * 3, [STOP], []], marker=8, turn=0))
    t(0, A.Open())
    t(1, A.Recruit(family="R"))
    return t


own_recruit = then(round_a, (0, A.Recruit(family="R")))
"""The Boss, seat 0, has played a recruitment triple on Raffzahn; its window is open."""
answered_boss = then(pending_boss, (0, A.Boss()))
"""Seat 1 played a Boss card against the Boss, seat 0, who answered with one of their own."""


def turn_b() -> Table:
    """Space 10 (H, P; 3 dividends × $2M = $6M): seat 0 owns Heiermann and holds a Piepenbrok clan card."""
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    return Table(prepared(4, investors, HANDS, marker=10, turn=0))


round_b = then(turn_b, (0, A.Open()))
ready_b = then(round_b, (0, A.PlayClan(family="P")))
last_call_b = then(ready_b, (0, A.Close()))
h_on_travel_b = then(ready_b, (1, A.Travel(target=0, family="H")), (2, A.Pass()), (3, A.Pass()), (0, A.Pass()))


def round_d() -> Table:
    """Space 2 (K + 1 of T/P): the Boss, seat 0, owns Knetowitz, Talerfeld and Piepenbrok."""
    investors = {"K": 0, "T": 0, "P": 0, "H": 1, "L": 2, "R": 3}
    t = Table(prepared(4, investors, HANDS, marker=2, turn=0))
    t(0, A.Open())
    return t


def over_c() -> Table:
    """Seat 0 drew to 15 cards (holding 3 recruitment cards); it is seat 1's turn."""
    hand = [clan("H")] * 2 + [clan("K")] * 2 + [BOSS] * 2 + [STOP] * 2 + [RECRUIT] * 3 + [travel("K")]
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, [hand, [], [], []], marker=8, turn=0))
    t(0, A.Roll())
    t(0, A.Draw())
    assert len(t.state.hands[0]) == 15 and t.state.turn == 1
    return t
