"""Render time and size of each game's picture over seeded random games (issue 15: median ≤ 50 ms, p99 ≤ 150 ms).

Run from the repository root: `python -m benchmarks.pictures` (or `python benchmarks/pictures.py`).
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import load_presentation
from tests.bot.pictures.walk import SEATS, game_kind, game_of, states

KINDS = ("kkk", "kesse_ruegen", "schwarzmarkt", "casablanca", "casablanca_hq")
SEEDS = (1, 2, 3)
STEPS = 300
NAMES = ("Anna", "Bert", "Robo Carla 🤖", "Maximiliane Dorothea", "Ede")


def measure(kind: str) -> tuple[list[float], list[int]]:
    game = game_of(kind)
    presentation = load_presentation(game_kind(kind))
    times: list[float] = []
    sizes: list[int] = []
    for seed in SEEDS:
        for state in states(kind, seed, STEPS):
            view = game.view(state, None)
            start = time.perf_counter()
            png = presentation.picture(game, view, NAMES[: SEATS[kind]])
            times.append((time.perf_counter() - start) * 1000)
            assert png is not None
            sizes.append(len(png))
    return times, sizes


def main() -> None:
    print(f"{'game':<14} {'pictures':>8} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'median KB':>10} {'max KB':>8}")
    for kind in KINDS:
        times, sizes = measure(kind)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"{kind:<14} {len(times):>8} {statistics.median(times):>10.1f} {p99:>8.1f} {times[-1]:>8.1f} "
            f"{statistics.median(sizes) / 1000:>10.1f} {max(sizes) / 1000:>8.1f}"
        )


if __name__ == "__main__":
    main()
