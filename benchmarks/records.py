"""`/game history` and `/me profile` with 10,000 finished games (issue 32: each must answer within Discord's 3 s).

Builds a throwaway SQLite store (a temporary folder) holding 10,000 finished Kesse Rügen games in 2 servers, each
with its result and placements as the recorder writes them, one player (the one profiled) in every game; counts
them all for the ratings (what the recorder does after a rebuild); then times the answers of `/game history` (first
page and a deep page) and `/me profile` (one's own across servers, someone else's in one server) as the commands
build them (`bot.records.answers`: the store's reads and the words, without Discord's round trip). Also prints how
long deriving one game's record from its log takes (the recorder's work when a game ends; a rebuild is that times
the number of games).

Run from the repository root: `python benchmarks/records.py [--games N]`.
"""

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.records import Recorder, answers
from bot.records.derive import derive
from engine import registry
from engine.policy import policy_for
from storage import (
    GameRecord,
    GameResult,
    LogEntry,
    NewSeat,
    Placement,
    SeatRecord,
    SeatResult,
    open_store,
)

KIND = "kesse_ruegen"
GUILDS = (1001, 1002)
PEOPLE = list(range(1, 13))
ME = 1
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def one_game(seed: int) -> tuple[GameRecord, list[SeatRecord], list[LogEntry]]:
    """A game of two computer policies played to its end on the engine alone, as the store would hold it."""
    game = registry.get(KIND)
    policy = policy_for(game)
    assert policy is not None
    rng = random.Random(seed)
    now = T0
    state = game.setup(2, game.parse_options({}), seed, now)
    entries: list[LogEntry] = []
    while game.result(state) is None:
        now += timedelta(minutes=5)
        for seat in (0, 1):
            legal = game.legal_actions(state, seat)
            action = policy.decide(game.view(state, seat), legal, seat, rng) if legal else None
            if action is not None:
                outcome = game.apply(state, seat, action, now)
                entries.append(
                    LogEntry(
                        game_id=1,
                        seq=len(entries) + 1,
                        kind="action",
                        actor_seat=seat,
                        user_id=seat + 1,
                        action=game.dump_action(action),
                        events=outcome.events,
                        at=now,
                    )
                )
                state = outcome.state
                break
        else:
            wait = min(game.waiting_on(state), key=lambda w: w.until)
            now = max(now, wait.until)
            outcome = game.apply(state, None, wait.timeout, now)
            entries.append(
                LogEntry(
                    game_id=1,
                    seq=len(entries) + 1,
                    kind="action",
                    action=game.dump_action(wait.timeout),
                    events=outcome.events,
                    at=now,
                )
            )
            state = outcome.state
    record = GameRecord(
        id=1,
        kind=KIND,
        guild_id=GUILDS[0],
        status="finished",
        seed=seed,
        seat_count=2,
        setup_at=T0,
        version=len(entries),
        created_at=T0,
        updated_at=now,
        finished_at=now,
    )
    seats = [SeatRecord(game_id=1, seat=s, player_id=s + 1, display_name=f"p{s + 1}", joined_at=T0) for s in (0, 1)]
    return record, seats, entries


async def build(path: Path, games: int) -> None:
    store = await open_store(path, synchronous="OFF")
    game = registry.get(KIND)
    snapshot = game.dump_state(game.setup(2, game.parse_options({}), 7, T0))
    rng = random.Random(1)
    try:
        for n in range(games):
            guild = GUILDS[n % len(GUILDS)]
            other = rng.choice(PEOPLE[1:])
            names = {ME: "me", other: f"player {other}"}
            record = await store.games.create(KIND, guild_id=guild, channel_id=10, thread_id=100_000 + n, now=T0)
            seats = [
                NewSeat(seat=0, player_id=ME, display_name="me"),
                NewSeat(seat=1, player_id=other, display_name=names[other]),
            ]
            await store.games.start(record.id, seed=7, setup_at=T0, seats=seats, snapshot=snapshot)
            ended = T0 + timedelta(hours=n)
            await store.games.update(record.id, status="finished", now=ended)
            first = rng.random() < 0.5
            ranks = (1, 2) if first else (2, 1)
            result = GameResult(
                game_id=record.id,
                guild_id=guild,
                kind=KIND,
                thread_id=100_000 + n,
                started_at=T0,
                ended_at=ended,
                outcome="finished",
                rated=True,
                moves=80,
                seats=[
                    SeatResult(seat=0, id=ME, name="me", rank=ranks[0], score=9),
                    SeatResult(seat=1, id=other, name=names[other], rank=ranks[1], score=7),
                ],
            )
            placements = [
                Placement(
                    game_id=record.id,
                    seat=s,
                    player_id=p,
                    name=names[p],
                    held=True,
                    rank=ranks[s],
                    score=9 - 2 * s,
                    moves=40,
                    answers=38,
                    answer_s=38 * 600.0,
                    turns=30,
                    missed=1,
                )
                for s, p in ((0, ME), (1, other))
            ]
            await store.records.put_result(result, placements, now=ended)
    finally:
        await store.close()


def timed(samples: list[float]) -> str:
    samples = sorted(samples)
    return f"median {statistics.median(samples) * 1000:7.1f} ms   max {samples[-1] * 1000:7.1f} ms"


async def measure(path: Path, games: int, runs: int) -> None:
    store = await open_store(path)
    try:
        started = time.perf_counter()
        counts = await Recorder(store, {KIND: registry.get(KIND)}).catch_up()
        print(f"ratings for {counts.rated} games counted in {time.perf_counter() - started:.1f} s")
        bot: Any = SimpleNamespace(
            store=store,
            service=SimpleNamespace(read=SimpleNamespace(games={KIND: registry.get(KIND)})),
            recorder=SimpleNamespace(settled=_nothing),
        )
        me = SimpleNamespace(id=ME, display_name="me")
        other = SimpleNamespace(id=2, display_name="player 2")
        last_page = -(-games // len(GUILDS) // 6)
        cases = {
            "/game history (page 1)": lambda: answers.history(bot, GUILDS[0], 1),
            f"/game history (page {last_page})": lambda: answers.history(bot, GUILDS[0], last_page),
            "/me profile (own, all servers)": lambda: answers.profile(bot, ME, me, GUILDS[0], is_self=True),
            "/me profile player: (this server)": lambda: answers.profile(bot, ME, other, GUILDS[0], is_self=False),
        }
        for name, call in cases.items():
            samples = []
            for _ in range(runs):
                t = time.perf_counter()
                shown = await call()
                samples.append(time.perf_counter() - t)
            assert shown.embed is not None
            print(f"{name:<36} {timed(samples)}")
    finally:
        await store.close()


async def _nothing() -> None:
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    record, seats, entries = one_game(3)
    game = registry.get(KIND)
    samples = []
    for _ in range(5):
        t = time.perf_counter()
        derived = derive(game, record, seats, entries)
        samples.append(time.perf_counter() - t)
    assert derived.result.outcome == "finished"
    print(f"deriving one game's record from its log ({len(entries)} entries): {timed(samples)}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.sqlite3"
        t = time.perf_counter()
        asyncio.run(build(path, args.games))
        print(f"{args.games} finished games with their records written in {time.perf_counter() - t:.1f} s")
        asyncio.run(measure(path, args.games, args.runs))


if __name__ == "__main__":
    main()
