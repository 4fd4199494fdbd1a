"""Benchmark of the game engines (Kohle, Kies & Knete, Casablanca, Schwarzmarkt): complete random-legal games, seeded.

    .venv/bin/python benchmarks/engine.py [--games N] [--seats S] [--seed K]      (all three, KKK first)
    .venv/bin/python benchmarks/engine.py --game kkk [--games N] [--seats S] [--seed K]
    .venv/bin/python benchmarks/engine.py --game casablanca [--games N] [--seed K]
    .venv/bin/python benchmarks/engine.py --game schwarzmarkt [--games N] [--seats S] [--seed K]

(Casablanca and Schwarzmarkt: see their sections below.)

Prints games per second, actions per game, the median and 99th-percentile time of one `apply`, and the snapshot
size in bytes, against the targets (2-core machine): median apply <= 200 us, a complete 5-player game <= 100 ms,
snapshot <= 16 KB. A game's time includes the random player choosing its moves (listing legal actions); `apply` is
timed on its own.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Outcome
from engine.kkk.randomplay import play
from engine.kkk.rules import KKK
from engine.kkk.state import KkkState


class TimedKKK(KKK):
    """KKK whose `apply` records its own duration."""

    def __init__(self) -> None:
        super().__init__()
        self.timings: list[float] = []

    def apply(self, state: KkkState, actor: int | None, action: Any, now: Any) -> Outcome[KkkState]:
        start = time.perf_counter()
        out = super().apply(state, actor, action, now)
        self.timings.append(time.perf_counter() - start)
        return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("all", "kkk", "casablanca", "schwarzmarkt"), default="all")
    args = parser.parse_args()
    if args.game == "casablanca":
        casablanca(args.games, args.seed)
        return
    if args.game == "schwarzmarkt":
        schwarzmarkt()
        return

    game = TimedKKK()
    sizes: list[int] = []
    game_times: list[float] = []
    actions: list[int] = []

    def measure(state: KkkState, actor: int | None, action: Any, outcome: Outcome[KkkState], now: Any) -> None:
        if outcome.state.seq % 10 == 0:
            sizes.append(len(game.dump_state(outcome.state).encode()))

    # Snapshots are measured in a separate pass so that their cost does not count as game time.
    start = time.perf_counter()
    for i in range(args.games):
        t0 = time.perf_counter()
        played = play(game, args.seats, args.seed + i)
        game_times.append(time.perf_counter() - t0)
        actions.append(len(played.log))
        if not played.finished:
            raise SystemExit(f"game {args.seed + i} did not finish")
    total = time.perf_counter() - start
    apply_times = game.timings
    for i in range(min(args.games, 20)):
        played = play(game, args.seats, args.seed + i, on_step=measure)
        sizes.append(len(game.dump_state(played.state).encode()))

    median_apply = statistics.median(apply_times) * 1e6
    p99_apply = percentile(apply_times, 99) * 1e6
    median_game = statistics.median(game_times) * 1e3
    p99_game = percentile(game_times, 99) * 1e3
    print(f"Kohle, Kies & Knete engine: {args.games} random-legal games, {args.seats} players, seeds {args.seed}…")
    print(f"  games per second        {args.games / total:8.1f}")
    print(f"  actions per game        {statistics.mean(actions):8.1f}  (min {min(actions)}, max {max(actions)})")
    print(
        f"  time per game           {median_game:8.1f} ms median, {p99_game:.1f} ms p99, "
        f"{max(game_times) * 1e3:.1f} ms max   (target <= 100 ms)"
    )
    print(
        f"  apply                   {median_apply:8.1f} us median, {p99_apply:.1f} us p99   (target median <= 200 us)"
    )
    print(
        f"  snapshot                {statistics.median(sizes):8.0f} B median, {max(sizes)} B max   (target <= 16384 B)"
    )
    ok = median_apply <= 200 and median_game <= 100 and max(sizes) <= 16384
    print("  targets                 " + ("met" if ok else "NOT met"))
    if args.game == "all":
        casablanca(args.games, args.seed)
        schwarzmarkt()


# --- Casablanca ---------------------------------------------------------------------------------------------------
#
# Random-legal games (engine.casablanca.randomplay) of 6 players (main game) and 4 (HQ variant), each played to its
# end or to 2,000 actions. Prints the median and p99 of one `apply`, the snapshot size, and how many games ended by
# the rules, against the targets: median apply <= 200 us, p99 <= 1 ms, snapshot <= 16 KB.


def casablanca(games: int, seed: int) -> None:
    from engine.casablanca.options import CasablancaOptions
    from engine.casablanca.randomplay import play as play_casablanca
    from engine.casablanca.rules import Casablanca
    from engine.casablanca.state import CasablancaState

    class TimedCasablanca(Casablanca):
        """Casablanca whose `apply` records its own duration."""

        def __init__(self) -> None:
            super().__init__()
            self.timings: list[float] = []

        def apply(self, state: CasablancaState, actor: int | None, action: Any, now: Any) -> Outcome[CasablancaState]:
            start = time.perf_counter()
            out = super().apply(state, actor, action, now)
            self.timings.append(time.perf_counter() - start)
            return out

    ok = True
    for label, seats, variant in (("main game", 6, "main"), ("HQ variant", 4, "hq")):
        game = TimedCasablanca()
        options = CasablancaOptions(variant=variant)  # type: ignore[arg-type]
        sizes: list[int] = []
        actions: list[int] = []
        ended = 0

        def measure(
            state: Any, actor: Any, action: Any, outcome: Outcome[Any], now: Any, sizes: list[int] = sizes
        ) -> None:
            if outcome.state.announcements % 5 == 0:
                sizes.append(len(outcome.state.model_dump_json().encode()))

        start = time.perf_counter()
        for i in range(games):
            played = play_casablanca(game, seats, seed + i, options=options, max_actions=2000)
            actions.append(len(played.log))
            ended += played.finished
        total = time.perf_counter() - start
        apply_times = game.timings
        for i in range(min(games, 20)):  # snapshots in a separate pass, so their cost is not game time
            played = play_casablanca(game, seats, seed + i, options=options, max_actions=2000, on_step=measure)
            sizes.append(len(game.dump_state(played.state).encode()))
        median_apply = statistics.median(apply_times) * 1e6
        p99_apply = percentile(apply_times, 99) * 1e6
        print(f"Casablanca engine, {label}: {games} random-legal games, {seats} players, seeds {seed}…")
        print(f"  games per second        {games / total:8.1f}")
        print(f"  actions per game        {statistics.mean(actions):8.1f}  (min {min(actions)}, max {max(actions)})")
        print(f"  ended by the rules      {ended:8d}  of {games} (the rest stopped at 2,000 actions)")
        print(
            f"  apply                   {median_apply:8.1f} us median, {p99_apply:.1f} us p99   "
            "(target median <= 200 us, p99 <= 1000 us)"
        )
        print(
            f"  snapshot                {statistics.median(sizes):8.0f} B median, {max(sizes)} B max   "
            "(target <= 16384 B)"
        )
        met = median_apply <= 200 and p99_apply <= 1000 and max(sizes) <= 16384
        print("  targets                 " + ("met" if met else "NOT met"))
        ok = ok and met
    print("Casablanca targets " + ("met" if ok else "NOT met"))


def schwarzmarkt() -> None:
    """The Schwarzmarkt section: random legal games to their end, timed like KKK's above (same arguments)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args, _ = parser.parse_known_args()
    games, seats, seed = args.games, args.seats, args.seed
    from engine.schwarzmarkt.randomplay import START
    from engine.schwarzmarkt.randomplay import play as play_sm
    from engine.schwarzmarkt.rules import Schwarzmarkt
    from engine.schwarzmarkt.state import SchwarzmarktState

    class TimedSchwarzmarkt(Schwarzmarkt):
        def __init__(self) -> None:
            super().__init__()
            self.timings: list[float] = []

        def apply(
            self, state: SchwarzmarktState, actor: int | None, action: Any, now: Any
        ) -> Outcome[SchwarzmarktState]:
            start = time.perf_counter()
            out = super().apply(state, actor, action, now)
            self.timings.append(time.perf_counter() - start)
            return out

    game = TimedSchwarzmarkt()
    game_times: list[float] = []
    actions: list[int] = []
    start = time.perf_counter()
    for i in range(games):
        t0 = time.perf_counter()
        played = play_sm(game, seats, seed + i)
        game_times.append(time.perf_counter() - t0)
        actions.append(len(played.log))
        if not played.finished:
            raise SystemExit(f"Schwarzmarkt game {seed + i} did not finish")
    total = time.perf_counter() - start
    apply_times = game.timings
    # Snapshots along a few games, in a separate pass so their cost does not count as game time.
    sizes: list[int] = []
    plain = Schwarzmarkt()
    for i in range(min(games, 20)):
        played = play_sm(plain, seats, seed + i)
        sizes.append(len(plain.dump_state(played.state).encode()))
        replay = plain.setup(seats, plain.parse_options({}), seed + i, START)
        for n, (actor, action) in enumerate(played.log):
            replay = plain.apply(replay, actor, action, replay.since).state
            if n % 10 == 0:
                sizes.append(len(plain.dump_state(replay).encode()))

    median_apply = statistics.median(apply_times) * 1e6
    p99_apply = percentile(apply_times, 99) * 1e6
    median_game = statistics.median(game_times) * 1e3
    p99_game = percentile(game_times, 99) * 1e3
    print(f"Schwarzmarkt engine: {games} random-legal games, {seats} players, seeds {seed}…")
    print(f"  games per second        {games / total:8.1f}")
    print(f"  actions per game        {statistics.mean(actions):8.1f}  (min {min(actions)}, max {max(actions)})")
    print(
        f"  time per game           {median_game:8.1f} ms median, {p99_game:.1f} ms p99, "
        f"{max(game_times) * 1e3:.1f} ms max   (target <= 100 ms)"
    )
    print(
        f"  apply                   {median_apply:8.1f} us median, {p99_apply:.1f} us p99   "
        "(target median <= 200 us, p99 <= 1 ms)"
    )
    print(
        f"  snapshot                {statistics.median(sizes):8.0f} B median, {max(sizes)} B max   (target <= 16384 B)"
    )
    ok = median_apply <= 200 and p99_apply <= 1000 and median_game <= 100 and max(sizes) <= 16384
    print("  targets                 " + ("met" if ok else "NOT met"))


if __name__ == "__main__":
    main()
