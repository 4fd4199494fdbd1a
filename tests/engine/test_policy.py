"""The self-play driver of `benchmarks/bots.py` (a short game of each game with a policy).

That every registered game has a policy, at every level, is the conformance suite's
(`conformance/test_games.py::test_a_table_of_computer_players_ends_by_the_rules`)."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from engine.game import Result, Standing
from engine.registry import build

ROOT = Path(__file__).resolve().parents[2]


def load_bots() -> ModuleType:
    """`benchmarks/bots.py` as a module (the benchmarks folder is not a package)."""
    spec = importlib.util.spec_from_file_location("bots", ROOT / "benchmarks" / "bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bots", module)
    spec.loader.exec_module(module)
    return module


BOTS = load_bots()
GAMES = build()


def test_the_driver_plays_a_kesse_ruegen_game_to_its_end() -> None:
    played = BOTS.play_one(GAMES["kesse_ruegen"], 2, 5, {0})
    assert not played.capped
    assert played.result.winners
    assert played.decisions  # the policy seat was asked


def test_the_driver_stops_at_the_cap_and_scores_the_standings() -> None:
    played = BOTS.play_one(GAMES["kkk"], 4, 3, {1}, weigher=BOTS.WEIGHERS["kkk"](), max_actions=40)
    assert played.capped
    assert played.actions == 40
    assert len(played.result.standings) == 4


def test_a_shared_first_place_counts_as_a_fraction_of_a_win() -> None:
    result = Result(
        standings=(
            Standing(seat=2, score=9, rank=1),
            Standing(seat=0, score=9, rank=1),
            Standing(seat=1, score=3, rank=3),
        )
    )
    assert BOTS.win_share(result, 0) == 0.5
    assert BOTS.win_share(result, 2) == 0.5
    assert BOTS.win_share(result, 1) == 0.0


def test_wilson_interval_holds_the_rate_and_stays_in_bounds() -> None:
    low, high = BOTS.wilson(120, 200)
    assert low < 0.6 < high
    assert BOTS.wilson(0, 20) == (0.0, BOTS.wilson(0, 20)[1]) and BOTS.wilson(0, 20)[1] < 0.2
    assert BOTS.wilson(20, 20)[1] == 1.0 and BOTS.wilson(20, 20)[0] > 0.8
