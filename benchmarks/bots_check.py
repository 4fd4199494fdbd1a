"""Strength and speed of the Casablanca and Schwarzmarkt computer players: seeded games on a simulated clock.

    .venv/bin/python benchmarks/bots_check.py [--game casablanca|casablanca-hq|schwarzmarkt] [--games N] [--seed K]
                                              [--seats S] [--autopilot]

For each game: one policy seat among random legal players (the games' own `randomplay` choices; the policy's seat
rotates from game to game), then every seat a policy. The clock is simulated: each step every seat the game waits on
is asked (in a seeded order) and the first that acts moves, a few seconds to minutes later; when nobody acts (a
policy returned None, a random player let the deadline pass), the earliest wait's `timeout` is applied as actor None
at its `until`. Prints the policy seat's win rate (a shared win counts) with a 95 % Wilson interval, the chance rate
(1/seats) to compare it with, and the median and 99th-percentile time of one `decide` (view and legal list included,
as the platform would compute them).
"""

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import wilson  # benchmarks/bots.py, beside this script

from engine.casablanca import randomplay as cb_random
from engine.casablanca.rules import Casablanca
from engine.game import Game
from engine.policy import Policy, policy_for
from engine.schwarzmarkt import randomplay as sm_random
from engine.schwarzmarkt.rules import Schwarzmarkt

START = datetime(2026, 1, 1, tzinfo=UTC)
MAX_STEPS = 4000

RandomPlayer = Callable[[Any, int, random.Random], Any | None]


def casablanca_random(game: Casablanca) -> RandomPlayer:
    def act(state: Any, seat: int, rnd: random.Random) -> Any | None:
        acts = game.legal_actions(state, seat)
        if not acts or rnd.random() < 0.02:
            return None
        return rnd.choices(acts, [cb_random.weight(state, seat, a) for a in acts])[0]

    return act


def schwarzmarkt_random(game: Schwarzmarkt) -> RandomPlayer:
    def act(state: Any, seat: int, rnd: random.Random) -> Any | None:
        acts = game.legal_actions(state, seat)
        if not acts or rnd.random() < sm_random.TIMEOUT_CHANCE:
            return None
        kinds: dict[str, list[Any]] = {}
        for m in acts:
            kinds.setdefault(f"{m.type}{bool(getattr(m, 'cards', ()))}", []).append(m)
        return rnd.choice(rnd.choice(list(kinds.values())))

    return act


def play_one(
    game: Game,  # type: ignore[type-arg]
    options: Any,
    seats: int,
    seed: int,
    bots: set[int],
    policy: Policy,
    randomer: RandomPlayer,
    timings: list[float],
    autopilot: bool,
) -> tuple[int, ...] | None:
    """One game; the winners (None: it didn't end within MAX_STEPS)."""
    rnd = random.Random(seed)
    now = START
    state = game.setup(seats, options, seed, now)
    for _ in range(MAX_STEPS):
        result = game.result(state)
        if result is not None:
            return result.winners
        waits = game.waiting_on(state)
        asked = list(dict.fromkeys(s for w in waits for s in w.seats))
        rnd.shuffle(asked)
        actor, action = None, None
        for seat in asked:
            if seat in bots:
                begin = time.perf_counter()
                view = game.view(state, seat)
                legal = game.legal_actions(state, seat)
                choice = policy.decide(view, legal, seat, random.Random(rnd.getrandbits(32)), autopilot=autopilot)
                timings.append(time.perf_counter() - begin)
            else:
                choice = randomer(state, seat, rnd)
            if choice is not None:
                actor, action = seat, choice
                break
        if actor is None:
            wait = min(waits, key=lambda w: w.until)
            now = max(now, wait.until)
            action = wait.timeout
        else:
            now += timedelta(seconds=rnd.randint(5, 300))
        state = game.apply(state, actor, action, now).state
    return None


def run(name: str, games: int, seed: int, seats: int, autopilot: bool) -> None:
    if name.startswith("casablanca"):
        game: Any = Casablanca()
        options = game.parse_options({"variant": "hq" if name.endswith("hq") else "main"})
        randomer = casablanca_random(game)
    else:
        game = Schwarzmarkt()
        options = game.parse_options({})
        randomer = schwarzmarkt_random(game)
    policy = policy_for(game)
    assert policy is not None, f"{name} has no policy"
    mode = "autopilot" if autopilot else "computer player"
    print(f"{name}, {seats} seats, {mode}, {games} games per line, seeds from {seed}")

    timings: list[float] = []
    wins = 0.0
    unfinished = 0
    for i in range(games):
        bot = i % seats
        winners = play_one(game, options, seats, seed + i, {bot}, policy, randomer, timings, autopilot)
        if winners is None:
            unfinished += 1
        elif bot in winners:
            wins += 1
    low, high = wilson(wins, games)
    print(
        f"  1 policy seat vs {seats - 1} random: wins {wins:.0f}/{games} = {wins / games:.0%} "
        f"(95% CI {low:.0%}–{high:.0%}; chance {1 / seats:.0%}); unfinished {unfinished}"
    )

    shared = 0
    unfinished = 0
    for i in range(games):
        winners = play_one(
            game, options, seats, seed + 10_000 + i, set(range(seats)), policy, randomer, timings, autopilot
        )
        if winners is None:
            unfinished += 1
        elif len(winners) > 1:
            shared += 1
    print(f"  policy vs policy: {games - unfinished}/{games} finished, {shared} shared wins")
    ms = sorted(t * 1000 for t in timings)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"  decide: {len(ms)} calls, median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms (goal: median <= 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["casablanca", "casablanca-hq", "schwarzmarkt", "all"], default="all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=0, help="default: 4 (Casablanca), 4 (Schwarzmarkt)")
    parser.add_argument("--autopilot", action="store_true", help="measure the autopilot mode instead")
    args = parser.parse_args()
    names = ["casablanca", "casablanca-hq", "schwarzmarkt"] if args.game == "all" else [args.game]
    for name in names:
        run(name, args.games, args.seed, args.seats or 4, args.autopilot)


if __name__ == "__main__":
    main()
