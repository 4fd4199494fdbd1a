"""Real log values of every game, for building and checking the action log's compression dictionary.

    .venv/bin/python benchmarks/logsamples.py --build storage/logdict-N.zdict   (a new dictionary: see below)
    .venv/bin/python benchmarks/logsamples.py                                   (how well the current one does)

`samples(name, games, seed)` plays seeded games of one game (every seat the game's computer player where it has
one, otherwise a random legal move; the earliest deadline's timeout when nobody moves) and returns what the store
would log for each step: the action's JSON text and the events' JSON text, exactly as `NewLogEntry` encodes them.
tests/storage/test_logcodec.py round-trips these through the codec; benchmarks/size.py measures the result.

`build_dictionary` makes a preset dictionary for `storage.logcodec` from such samples: for each game (a quarter
of zlib's 32 KB window each), up to three examples of each event kind and action type, the most frequent ones
nearest the end, where deflate reaches them most cheaply (and where a smaller window would still see them).
`storage/logdict-1.zdict` is `--build` with the defaults (seed 0, 3 games a game); the build is deterministic.
A released dictionary is never edited (old rows need it to be read): a better one is written to a new file with
the next number and registered in `storage.logcodec` as a new version.
"""

import argparse
import json
import random
import sys
import zlib
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.policy import policy_for
from engine.registry import build
from storage.jsontext import dump_json

START = datetime(2025, 1, 1, tzinfo=UTC)
SEATS = {"kkk": 4, "kesse_ruegen": 2, "casablanca": 4, "schwarzmarkt": 4}
MAX_STEPS = 1500
WINDOW = 32768 - 262
"""The most of a preset dictionary deflate can use with a 32 KB window (it keeps the dictionary's tail)."""


def samples(name: str, games: int, seed: int) -> list[tuple[str, str]]:
    """(action JSON, events JSON) per step of `games` seeded games of game `name`, set-up events first."""
    game = build()[name]
    policy = policy_for(game)
    out: list[tuple[str, str]] = []
    for g in range(games):
        rnd = random.Random(seed * 1000 + g)
        seats = SEATS.get(name, 4)
        now = START
        state = game.setup(seats, game.parse_options({}), rnd.randrange(1 << 62), now)
        out.append(("", dump_json([e.model_dump(mode="json") for e in game.setup_events(state)])))
        for _ in range(MAX_STEPS):
            if game.result(state) is not None:
                break
            waits = game.waiting_on(state)
            order = list(range(seats))
            rnd.shuffle(order)
            chosen: tuple[int | None, Any] | None = None
            for s in order:
                legal = game.legal_actions(state, s)
                if not legal:
                    continue
                action = policy.decide(game.view(state, s), legal, s, rnd) if policy else rnd.choice(legal)
                if action is not None:
                    chosen = (s, action)
                    break
            if chosen is None:
                if not waits:
                    break
                wait = min(waits, key=lambda w: w.until)
                now, chosen = max(now, wait.until), (None, wait.timeout)
            else:
                now += timedelta(seconds=rnd.randint(1, 120))
            outcome = game.apply(state, chosen[0], chosen[1], now)
            events = [e.model_dump(mode="json") for e in outcome.events]
            out.append((dump_json(game.dump_action(chosen[1])), dump_json(events)))
            state = outcome.state
    return out


def all_samples(games: int, seed: int) -> dict[str, list[tuple[str, str]]]:
    return {name: samples(name, games, seed) for name in sorted(build())}


def build_dictionary(per_game: dict[str, list[tuple[str, str]]], size: int = WINDOW, examples: int = 3) -> bytes:
    """A preset dictionary from samples of each game (see the module docstring)."""
    pieces: list[tuple[int, bytes]] = []  # (how often, text): frequent ones go last
    budget = size // len(per_game)
    for rows in per_game.values():
        kinds: Counter[str] = Counter()
        example: dict[str, list[bytes]] = {}
        for action, events in rows:
            found = [(e["kind"], dump_json(e).encode()) for e in json.loads(events)]
            if action:
                found.append(("action:" + str(json.loads(action).get("type")), action.encode()))
            for kind, text in found:
                kinds[kind] += 1
                seen = example.setdefault(kind, [])
                if len(seen) < examples and text not in seen:
                    seen.append(text)
        used = 0
        for round_ in range(examples):
            for kind, count in kinds.most_common():
                if round_ < len(example[kind]) and used + len(example[kind][round_]) <= budget:
                    pieces.append((count // (round_ + 1), example[kind][round_]))
                    used += len(example[kind][round_])
    pieces.sort(key=lambda p: p[0])
    return b"".join(text for _, text in pieces)[-size:]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", type=Path, default=None, help="write a new dictionary here (from --seed 0)")
    args = parser.parse_args()
    if args.build is not None:
        args.build.write_bytes(build_dictionary(all_samples(args.games, 0)))
        print(f"{args.build}: {args.build.stat().st_size} bytes")
        return
    from storage.logcodec import encode

    for name, rows in all_samples(args.games, args.seed).items():
        events = sum(len(e.encode()) for _, e in rows)
        plain = sum(len(zlib.compress(e.encode(), 6)) for _, e in rows)
        stored = sum(len(v) if isinstance(v, bytes) else len(v.encode()) for v in (encode(e) for _, e in rows))
        print(f"{name:14} {len(rows):6} steps, events: JSON {events / 1e3:7.1f} KB, plain zlib {plain / 1e3:7.1f} KB,"
              f" stored {stored / 1e3:7.1f} KB ({events / stored:.1f}x smaller)")  # fmt: skip


if __name__ == "__main__":
    main()
