"""Secrecy: a twin test. Two games that differ only in one player's hidden bribes give the table identical public
events, public views, prompts and deadlines, step for step, until a rule reveals something (an auction's claims, a
hit's announcement, the end) — and then they may differ, which shows the comparison can fail."""

from typing import Any

import pytest

from engine.casablanca.actions import Bribe, Object
from engine.casablanca.options import CasablancaOptions
from engine.casablanca.randomplay import START, play
from engine.errors import RuleError
from engine.events import Event

from .helpers import GAME, opened


def public_side(events: list[Event]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.kind, e.text, dict(e.data)) for e in events if e.public]


def table_side(state: Any) -> tuple[str, list[Any]]:
    return GAME.view(state, None).model_dump_json(), [w.model_dump() for w in GAME.waiting_on(state)]


def twin_run(seats: int, seed: int, variant: str) -> tuple[int, bool]:
    """Play a random game; replay it in a twin whose seat 1 bribed more in its first bribe. Compare until a reveal;
    return how many steps matched and whether a reveal was reached."""
    options = CasablancaOptions(variant=variant)  # type: ignore[arg-type]
    played = play(GAME, seats, seed, options=options, max_actions=300)
    first = next(
        (i for i, e in enumerate(played.log) if e.actor == 1 and isinstance(e.action, Bribe)),
        None,
    )
    if first is None:
        return 0, False
    original = played.log[first].action
    richer = Bribe(amounts={k: v + 200 for k, v in original.amounts.items()})
    a = b = GAME.setup(seats, options, seed, START)
    for i, entry in enumerate(played.log):
        action = richer if i == first else entry.action
        out_a = GAME.apply(a, entry.actor, entry.action, entry.now)
        try:
            out_b = GAME.apply(b, entry.actor, action, entry.now)
        except RuleError:
            return i, False  # the twin can't follow (less capital left): stop comparing
        if any(e.reveals for e in out_a.events + out_b.events):
            return i, True
        assert public_side(out_a.events) == public_side(out_b.events), f"step {i}: public events differ"
        a, b = out_a.state, out_b.state
        assert table_side(a) == table_side(b), f"step {i}: public view or waits differ"
        for seat in range(seats):
            if seat != 1:
                assert GAME.view(a, seat) == GAME.view(b, seat), f"step {i}: seat {seat}'s view differs"
                assert GAME.legal_actions(a, seat) == GAME.legal_actions(b, seat)
    return len(played.log), False


@pytest.mark.parametrize(
    ("seats", "seed", "variant"),
    [(3, 1, "main"), (5, 2, "main"), (8, 5, "main"), (2, 6, "main"), (3, 3, "hq"), (4, 4, "hq"), (2, 7, "hq")],
)
def test_hidden_bribes_leave_no_trace_on_the_table_until_a_rule_reveals_them(
    seats: int, seed: int, variant: str
) -> None:
    steps, _revealed = twin_run(seats, seed, variant)
    assert steps > 5


def test_the_twins_differ_once_an_auction_reveals_claims() -> None:
    # Seat 1 has $300 or $900 on Rudy Red; seat 0 contests with $500 — the claims tell the two games apart.
    results = []
    for red in (300, 900):
        table = opened(3, s1={"red": red, "green": 100, "blue": 100}, s0={"red": 500, "green": 100, "blue": 100})
        before = table_side(table.state)
        events = table.move(0, "red", "2")
        events += table.do(1, Object(limit=red))
        events += table.do(2, Object(limit=0))
        results.append((before, public_side(events), table_side(table.state)))
        events = table.contest(500)
        results.append(public_side(events))
    (before_a, window_a, side_a), auction_a, (before_b, window_b, side_b), auction_b = results
    assert before_a == before_b and window_a == window_b and side_a == side_b
    assert auction_a != auction_b
