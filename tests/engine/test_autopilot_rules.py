"""The autopilot's rules (issue 16) in every game with a policy, and tables of seats that play themselves ending.

- A reaction window is always answered: whenever a reaction wait names an autopiloted seat, its policy returns a move
  (never None, which would leave the seat silent until the deadline). The platform then answers after a delay from
  public facts alone (`bot.seat_players.delay`), so when the seat answers never depends on what it holds. Games
  without reaction windows (Kesse Rügen, Schwarzmarkt) have nothing to check here.
- In a reaction window the autopilot's answer doesn't depend on its own secrets either: it is the pass of that
  window (Kohle, Kies & Knete: pass; Casablanca: no objection, or withdraw when objected to), so what it does in a
  window tells nobody what it holds.
- Tables whose every seat plays itself end by the rules (the driver of `benchmarks/bots.py --ends`, a few seeds
  each): all autopilots, all computer players, and both mixed. The benchmark measures the rate over many seeds.

Each game's own policy tests check the rest: never giving the hand away, no agreement paying less than nothing
(Kohle, Kies & Knete), no objection or hit (Casablanca), trading only at the last call (Schwarzmarkt).
"""

import random
from typing import Any

import pytest

from engine.casablanca.actions import NoObjection, Withdraw
from engine.kkk import actions as kkk_actions
from engine.policy import policies, policy_for

from .test_policy import BOTS, GAMES

PASSES: dict[str, tuple[type, ...]] = {
    "kkk": (kkk_actions.Pass,),
    "casablanca": (NoObjection, Withdraw),
}
"""What the autopilot answers in a reaction window, per game that has them."""


@pytest.mark.parametrize(("name", "options"), [("kkk", {}), ("casablanca", {}), ("casablanca", {"variant": "hq"})])
def test_the_autopilot_answers_every_reaction_window_with_its_pass(name: str, options: dict[str, str]) -> None:
    game = GAMES[name]
    policy = policy_for(game)
    assert policy is not None
    parsed = game.parse_options(options)
    windows = 0

    def check(state: Any) -> None:
        nonlocal windows
        for wait in game.waiting_on(state):
            if wait.kind != "reaction":
                continue
            for seat in wait.seats:
                legal = game.legal_actions(state, seat)
                if not legal:
                    continue
                answer = policy.decide(game.view(state, seat), legal, seat, random.Random(seat), autopilot=True)
                assert answer is not None, (wait.what, seat)
                assert isinstance(answer, PASSES[name]), (wait.what, seat, answer)
                windows += 1

    for seed in range(3):
        # Computer players at two seats make the windows (they announce, object and play cards); the autopilots at
        # the others are checked in every window, whatever they hold.
        BOTS.play_table(game, parsed, 4, seed, autopilot_seats=(1, 3), cap=1500, on_state=check)
    assert windows > 50


TABLES = [(name, {}) for name in sorted(policies())] + [("casablanca", {"variant": "hq"})]


@pytest.mark.parametrize(("name", "raw"), TABLES)
@pytest.mark.parametrize("mode", ["autopilot", "computer", "mixed"])
def test_a_table_of_seats_that_play_themselves_ends(name: str, raw: dict[str, str], mode: str) -> None:
    game = GAMES[name]
    seats = 2 if name == "kesse_ruegen" else 4
    autopilot = {"autopilot": range(seats), "computer": (), "mixed": range(0, seats, 2)}[mode]
    options = game.parse_options(raw)
    for seed in range(2):
        ended, actions = BOTS.play_table(game, options, seats, seed, autopilot_seats=tuple(autopilot))
        assert ended, (name, mode, seed, actions)
