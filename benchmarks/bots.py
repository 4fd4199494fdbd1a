"""Benchmark of the computer players (`engine.policy`): seeded self-play on a simulated clock.

    .venv/bin/python benchmarks/bots.py [--games N] [--seed K]                 (every game with a policy)
    .venv/bin/python benchmarks/bots.py --game kkk [--seats S] [--games N] [--seed K] [--random uniform|weighted]
                                        [--answers both|yes|no]
    .venv/bin/python benchmarks/bots.py --ends [--game G] [--games N] [--seed K] [--level L]   (do such tables end?)
    .venv/bin/python benchmarks/bots.py --levels [--game G] [--games N] [--seed K] [--level L] [--option K=V]

`--seed K` plays the seeds K, K+1, …: seeds a policy was never tuned on are a fresh sample of games.

For each game with a registered policy it plays:

- policy vs random: one policy seat among random players (the seat rotates from game to game), and prints the
  policy's win rate with its 95 % Wilson interval. A shared first place counts as 1/k of a win for each of the k
  seats sharing it (half for a tie of two).
- policy vs policy: every seat a policy, each seat's share of the wins (a sanity check: about 1/n each).
- autopilot vs random: the autopilot in the policy seat, for reference (it only takes safe moves: no goal).
- the median and 99th-percentile time of one `decide` call, and of a whole decision (with the seat's view and
  legal list, which the platform computes for it);
- how many games stopped at the action cap instead of ending by the rules (scored by the standings then).

Goals (issue 16): Kohle, Kies & Knete, 4 players, one policy among three random players: >= 60 % of 200 games;
Kesse Rügen, 2 players: >= 70 % against random; median decision <= 50 ms.

The driver is generic (any game in `engine.policy.policies`). Each step, every seat is asked in a seeded random
order and the first that acts moves: a policy seat through `decide` on its own view and legal list (None: it lets
the others or the deadline move); a random seat picks from `legal_actions`, always when the game waits on it (or,
in Kohle, Kies & Knete, when an offer waits for its 🤝: the game's random player answers those), otherwise only
now and then (`CHATTER`), like a person who talks in a negotiation without being asked. When nobody acts, the
earliest wait's `timeout` is applied as actor None at its `until`. Every action moves the simulated clock by 1–120 s.
A policy seat is asked at every step, so it can answer as soon as anything changes (the platform adds its delays).

Random seats choose uniformly among the legal actions, or, with `--random weighted` (the default where a game has
them: Kohle, Kies & Knete), with the weights of the game's own random player (`engine.kkk.randomplay`), which
favour progress (opening coverable deals, offering what the Boss lacks, shaking, passing, closing). The output
says which. In Kohle, Kies & Knete the policy's strength depended on whether random seats answer offers made to
them (an offer waits for its 🤝 though no wait names the seat): by default both lines are printed, random seats that
answer such offers as if waited on (`ANSWERING`), and random seats that ignore them (they act only when asked anyway,
`CHATTER`); `--answers` picks one.

`--ends` measures something else: whether tables of seats that play themselves end by the rules (issue 16: no table
stalls). For each table of `ENDS_TABLES` it plays all computer players, all autopilots, and both mixed, the way the
platform runs them (`play_table`: only seats a wait names or that are free to act are asked), and prints how many of
the seeded games ended within `ENDS_CAP` actions (goal >= 99 %) and how long they took.
"""

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game, Result
from engine.policy import Level, Policy, policies, policy_for
from engine.registry import build

START = datetime(2025, 1, 1, tzinfo=UTC)
CHATTER = 0.3
"""How often a random seat the game is not waiting on acts when asked."""

DEFAULT_SEATS = {"kkk": 4, "kesse_ruegen": 2}
MAX_ACTIONS = {"kkk": 3000}
"""The action cap per game (default 2,000)."""

Weigher = Callable[[Any, Any, Any, int], float]
"""(game, state, action, seat) -> weight of a random seat's action."""


def _kkk_weigher() -> Weigher:
    from engine.kkk.randomplay import lacking, weight

    def weigh(game: Any, state: Any, action: Any, seat: int) -> float:
        return weight(game, state, action, seat, lacking(game, state))

    return weigh


WEIGHERS: dict[str, Callable[[], Weigher]] = {"kkk": _kkk_weigher}
"""Games whose random player has its own weights (`--random weighted`)."""


def _kkk_answering(state: Any) -> set[int]:
    """Kohle, Kies & Knete: the parties an offer waits on for their 🤝 (the game's random player answers them)."""
    return {o.boss if o.seller in o.shaken else o.seller for o in state.offers if o.status == "shaken"}


ANSWERING: dict[str, Callable[[Any], set[int]]] = {"kkk": _kkk_answering}
"""Seats a random player treats as waited on besides the game's waits (someone expects their answer)."""


@dataclass
class Played:
    result: Result
    capped: bool
    actions: int
    decisions: list[float] = field(default_factory=list)
    """Seconds per `decide` call of the policy seats."""
    by_seat: dict[int, list[float]] = field(default_factory=dict)
    """The same, per policy seat."""
    whole: list[float] = field(default_factory=list)
    """Seconds per decision including the seat's view and legal list (what the platform spends on one)."""
    acting: list[float] = field(default_factory=list)
    """Seconds per `decide` call that returned an action (not None)."""


def play_one(
    game: Game,  # type: ignore[type-arg]
    seats: int,
    seed: int,
    policy_seats: set[int],
    *,
    weigher: Weigher | None = None,
    autopilot_seats: Collection[int] = (),
    max_actions: int = 2000,
    chatter: float = CHATTER,
    on_step: Callable[[Any, int | None, Any, Any], None] | None = None,
    answers: bool = True,
    levels: Mapping[int, Level] | None = None,
    options: Mapping[str, str] | None = None,
) -> Played:
    """One seeded game: `policy_seats` play the game's policy (those also in `autopilot_seats` as the autopilot),
    the others at random (see the module docstring);
    `on_step(state before, actor, action, state after)` sees every step; `answers=False`: random seats don't treat
    offers waiting for them as waits (they answer only when they happen to act); `levels`: each policy seat's level
    (default normal); `options`: the game's options as typed (default: none, the game's defaults)."""
    policy: Policy | None = policy_for(game)
    answering = ANSWERING.get(game.name) if answers else None
    if policy_seats and policy is None:
        raise ValueError(f"{game.name} has no policy")
    by_seat: dict[int, Policy] = {}
    for s in policy_seats:
        level = (levels or {}).get(s, "normal")
        found = policy if level == "normal" else policy_for(game, level)
        assert found is not None
        by_seat[s] = found
    rnd = random.Random(seed)
    seat_rngs = [random.Random(seed * 1000 + s) for s in range(seats)]
    now = START
    state = game.setup(seats, game.parse_options(dict(options or {})), seed, now)
    decisions: list[float] = []
    seat_times: dict[int, list[float]] = {}
    whole: list[float] = []
    acting: list[float] = []
    actions = 0
    while game.result(state) is None and actions < max_actions:
        waits = game.waiting_on(state)
        waited = {s for w in waits for s in w.seats} | (answering(state) if answering is not None else set())
        order = list(range(seats))
        rnd.shuffle(order)
        chosen: tuple[int, Any] | None = None
        for s in order:
            t0 = time.perf_counter()
            legal = game.legal_actions(state, s)
            if not legal:
                continue
            if s in policy_seats:
                view = game.view(state, s)
                t1 = time.perf_counter()
                action = by_seat[s].decide(view, legal, s, seat_rngs[s], autopilot=s in autopilot_seats)
                t2 = time.perf_counter()
                decisions.append(t2 - t1)
                seat_times.setdefault(s, []).append(t2 - t1)
                whole.append(t2 - t0)
                if action is not None:
                    acting.append(t2 - t1)
            elif s not in waited and rnd.random() >= chatter:
                action = None
            elif weigher is not None:
                action = rnd.choices(legal, [weigher(game, state, a, s) for a in legal])[0]
            else:
                action = rnd.choice(legal)
            if action is not None:
                chosen = (s, action)
                break
        if chosen is None:
            if not waits:
                break
            wait = min(waits, key=lambda w: w.until)
            now = max(now, wait.until)
            actor, action = None, wait.timeout
        else:
            now += timedelta(seconds=rnd.randint(1, 120))
            actor, action = chosen
        after = game.apply(state, actor, action, now).state
        if on_step is not None:
            on_step(state, actor, action, after)
        state = after
        actions += 1
    result = game.result(state)
    capped = result is None
    return Played(
        result=result or game.standings(state),
        capped=capped,
        actions=actions,
        decisions=decisions,
        by_seat=seat_times,
        whole=whole,
        acting=acting,
    )


def win_share(result: Result, seat: int) -> float:
    """1 for a sole winner, 1/k for each of k seats sharing first place, else 0."""
    winners = result.winners
    return 1 / len(winners) if seat in winners else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (fractional wins from shared first places are allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def bench(
    name: str,
    games: int,
    seats: int | None,
    seed: int,
    random_mode: str,
    answer_models: tuple[bool, ...] = (True, False),
) -> bool:
    """Both match-ups for one game; prints the figures and returns whether the goals are met."""
    game = build()[name]
    seats = seats or DEFAULT_SEATS.get(name, game.min_seats)
    cap = MAX_ACTIONS.get(name, 2000)
    weighted = random_mode == "weighted" and name in WEIGHERS
    weigher = WEIGHERS[name]() if weighted else None
    how = "weighted like the game's own random player" if weighted else "uniformly among the legal actions"
    print(f"{game.title}: {games} games of {seats} players, seeds {seed}…; random seats choose {how}")
    print("  (a first place shared by k seats counts as 1/k of a win for each: half for a tie of two)")

    times: list[float] = []
    whole: list[float] = []
    acting: list[float] = []
    goal = {"kkk": 0.6, "kesse_ruegen": 0.7}.get(name) if seats == DEFAULT_SEATS.get(name) else None
    strong = True
    for model in answer_models if name in ANSWERING else (True,):
        wins = 0.0
        capped = 0
        lengths: list[int] = []
        for i in range(games):
            me = i % seats
            played = play_one(game, seats, seed + i, {me}, weigher=weigher, max_actions=cap, answers=model)
            wins += win_share(played.result, me)
            capped += played.capped
            times += played.decisions
            whole += played.whole
            acting += played.acting
            lengths.append(played.actions)
        low, high = wilson(wins, games)
        strong = strong and (goal is None or wins / games >= goal)
        which = ""
        if name in ANSWERING:
            which = " (random seats answer offers made to them)" if model else " (random seats ignore offers)"
        print(
            f"  policy vs random        {wins / games:6.1%} of {games}  (95 % CI {low:.1%}–{high:.1%}; "
            f"a random seat's share would be {1 / seats:.0%})" + (f"   goal >= {goal:.0%}" if goal else "") + which
        )
        print(f"    actions per game      {statistics.mean(lengths):6.0f}  (max {max(lengths)}); at the cap: {capped}")

    pp_games = max(1, games // 2)
    shares = [0.0] * seats
    pp_capped = 0
    for i in range(pp_games):
        played = play_one(game, seats, seed + 10_000 + i, set(range(seats)), max_actions=cap)
        for s in range(seats):
            shares[s] += win_share(played.result, s)
        pp_capped += played.capped
        times += played.decisions
        whole += played.whole
        acting += played.acting
    print(
        f"  policy vs policy        {pp_games} games, wins by seat: "
        + ", ".join(f"{x / pp_games:.0%}" for x in shares)
        + f"  (about {1 / seats:.0%} each); at the cap: {pp_capped}"
    )

    auto_wins = 0.0
    auto_games = max(1, games // 4)
    for i in range(auto_games):
        me = i % seats
        played = play_one(game, seats, seed + 20_000 + i, {me}, weigher=weigher, autopilot_seats={me}, max_actions=cap)
        auto_wins += win_share(played.result, me)
    print(f"  autopilot vs random     {auto_wins / auto_games:6.1%} of {auto_games}  (safe moves only; for reference)")

    median = statistics.median(times) * 1e3
    print(
        f"  decide                  {median:6.2f} ms median, {percentile(times, 99) * 1e3:.2f} ms p99, "
        f"{max(times) * 1e3:.1f} ms max   (goal median <= 50 ms; {len(times)} decisions)"
    )
    print(
        f"    with view and legal   {statistics.median(whole) * 1e3:6.2f} ms median, "
        f"{percentile(whole, 99) * 1e3:.2f} ms p99, {max(whole) * 1e3:.1f} ms max"
    )
    print(
        f"    calls that acted      {statistics.median(acting) * 1e3:6.2f} ms median, "
        f"{percentile(acting, 99) * 1e3:.2f} ms p99 ({len(acting)} of the {len(times)}; the rest returned None)"
    )
    ok = median <= 50 and strong
    print("  goals                   " + ("met" if ok else "NOT met"))
    return ok


# --- levels --------------------------------------------------------------------------------------------------

LEVEL_SEATS = {"kkk": 4, "kesse_ruegen": 2, "casablanca": 4, "schwarzmarkt": 3}
"""The table each level match-up is played at."""
DECIDE_GOAL_MS = 50.0
"""Goal (issue 31): a decision's p99 at any level."""


def match(
    game: Game,  # type: ignore[type-arg]
    seats: int,
    games: int,
    seed: int,
    levels: Mapping[int, Level],
    *,
    random_others: bool = False,
    cap: int = 2000,
    options: Mapping[str, str] | None = None,
) -> tuple[float, list[float]]:
    """`games` seeded games with one seat (rotating) at `levels[0]` and the rest at `levels[1]` (or random): the
    first seat's wins and its decide times."""
    wins = 0.0
    times: list[float] = []
    for i in range(games):
        me = i % seats
        mine = {me: levels[0]}
        others = {} if random_others else {s: levels[1] for s in range(seats) if s != me}
        played = play_one(
            game, seats, seed + i, set(mine) | set(others), levels={**others, **mine}, max_actions=cap, options=options
        )
        wins += win_share(played.result, me)
        times += played.by_seat.get(me, [])
    return wins, times


def bench_levels(
    name: str,
    games: int,
    seats: int | None,
    seed: int,
    options: Mapping[str, str] | None = None,
    only: Level | None = None,
) -> bool:
    """The levels of one game (issue 31): hard vs normal, normal vs today's policy (`easy` plays it unchanged),
    normal vs random, easy vs random, and each level's decide times. Prints the figures; returns whether the goals
    are met. `options`: the game's options (e.g. Casablanca's variant), default the game's defaults; `only`: just
    the match-ups of that level's seat (`hard`: hard vs normal alone)."""
    game = build()[name]
    seats = seats or LEVEL_SEATS.get(name, game.min_seats)
    cap = MAX_ACTIONS.get(name, 2000)
    share = 1 / seats
    typed = ", ".join(f"{k}={v}" for k, v in (options or {}).items())
    print(
        f"{game.title}{' (' + typed + ')' if typed else ''}, levels: {games} games each of {seats} players, "
        f"seeds {seed}… (one seat rotates)"
    )
    ok = True
    times: dict[str, list[float]] = {}
    rows: tuple[tuple[str, Level, Level | None, float | None], ...] = (
        ("hard vs normal", "hard", "normal", 1.5 * share),
        ("normal vs today (easy)", "normal", "easy", None),
        ("normal vs random", "normal", None, None),
        ("easy vs random", "easy", None, None),
    )
    for label, mine, theirs, goal in rows:
        if only is not None and mine != only:
            continue
        t0 = time.perf_counter()
        wins, spent = match(
            game,
            seats,
            games,
            seed,
            {0: mine, 1: theirs or mine},
            random_others=theirs is None,
            cap=cap,
            options=options,
        )
        times.setdefault(mine, []).extend(spent)
        low, high = wilson(wins, games)
        met = goal is None or wins / games >= goal
        ok = ok and met
        print(
            f"  {label:24} {wins / games:6.1%} of {games}  (95 % CI {low:.1%}–{high:.1%}; the seat share is "
            f"{share:.0%})"
            + (f"   goal >= {goal:.0%}{'' if met else '  NOT met'}" if goal else "")
            + f"  [{time.perf_counter() - t0:.0f} s]"
        )
    for level in ("easy", "normal", "hard"):
        spent = times.get(level, [])
        if not spent:
            continue
        p99 = percentile(spent, 99) * 1e3
        met = p99 <= DECIDE_GOAL_MS
        ok = ok and met
        print(
            f"  decide at {level:6}        {statistics.median(spent) * 1e3:6.2f} ms median, {p99:.2f} ms p99, "
            f"{max(spent) * 1e3:.1f} ms max  ({len(spent)} decisions; goal p99 <= {DECIDE_GOAL_MS:.0f} ms"
            + ("" if met else ": NOT met")
            + ")"
        )
    return ok


# --- do tables end? ----------------------------------------------------------------------------------------------

ENDS_TABLES: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("kkk", 3, {}),
    ("kkk", 4, {}),
    ("kkk", 6, {}),
    ("kesse_ruegen", 2, {}),
    ("casablanca", 4, {}),
    ("casablanca", 4, {"variant": "hq"}),
    ("casablanca", 8, {}),
    ("schwarzmarkt", 4, {}),
)
"""The tables `--ends` plays: each game at its usual size, and Kohle, Kies & Knete and Casablanca at their extremes."""
ENDS_CAP = 5000
"""Actions after which a table counts as not ending (the bound of the goal)."""
ENDS_GOAL = 0.99


def play_table(
    game: Game,  # type: ignore[type-arg]
    options: Any,
    seats: int,
    seed: int,
    autopilot_seats: Collection[int],
    cap: int = ENDS_CAP,
    on_state: Callable[[Any], None] | None = None,
    level: Level = "normal",
) -> tuple[bool, int]:
    """One table whose every seat plays itself, as the platform runs it: each step the seats a wait names, or that
    are free to act (`Game.free_to_act`), are asked in a seeded order (the platform's delays differ per seat) and the
    first that acts moves; when none does, the earliest wait's deadline default applies. `autopilot_seats` play the
    autopilot, the others the computer player of `level`; `on_state` sees every state before it is played on. Returns
    (ended by the rules, actions)."""
    policy = policy_for(game, level)
    assert policy is not None
    rnd = random.Random(seed)
    now = START
    state = game.setup(seats, options, seed, now)
    actions = 0
    while game.result(state) is None and actions < cap:
        if on_state is not None:
            on_state(state)
        waits = game.waiting_on(state)
        asked = list(dict.fromkeys([s for w in waits for s in w.seats] + sorted(game.free_to_act(state))))
        rnd.shuffle(asked)
        chosen: tuple[int, Any] | None = None
        for s in asked:
            legal = game.legal_actions(state, s)
            if not legal:
                continue
            rng = random.Random(rnd.getrandbits(32))
            action = policy.decide(game.view(state, s), legal, s, rng, autopilot=s in autopilot_seats)
            if action is not None:
                chosen = (s, action)
                break
        if chosen is None:
            if not waits:
                break
            wait = min(waits, key=lambda w: w.until)
            now = max(now, wait.until)
            actor, action = None, wait.timeout
        else:
            now += timedelta(seconds=rnd.randint(20, 120))
            actor, action = chosen
        state = game.apply(state, actor, action, now).state
        actions += 1
    return game.result(state) is not None, actions


def ends(games: int, seed: int, only: str, level: Level = "normal") -> bool:
    """Every table of seats that play themselves — all computer players (of `level`), all autopilots, and both
    mixed — must end by the rules within `ENDS_CAP` actions in at least 99 % of seeded games (issue 16: no table
    stalls)."""
    print(
        f"Tables of seats that play themselves: {games} seeded games each (seeds {seed}…), cap {ENDS_CAP} actions; "
        f"computer players at level {level}"
    )
    ok = True
    for name, seats, raw in ENDS_TABLES:
        if only not in ("all", name):
            continue
        game = build()[name]
        options = game.parse_options(raw)
        label = f"{game.title}{' (' + raw['variant'] + ')' if raw else ''}, {seats} seats"
        for mode, autopilot in (
            ("all computer players", ()),
            ("all autopilot", tuple(range(seats))),
            ("mixed", tuple(range(0, seats, 2))),
        ):
            t0 = time.perf_counter()
            played = [play_table(game, options, seats, seed + i, autopilot, level=level) for i in range(games)]
            ended = sum(e for e, _ in played)
            lengths = sorted(n for _, n in played)
            good = ended / games >= ENDS_GOAL
            ok = ok and good
            print(
                f"  {label:34} {mode:21} ended {ended:4}/{games} ({ended / games:6.1%})  actions median "
                f"{statistics.median(lengths):5.0f}, p99 {percentile(lengths, 99):5.0f}, max {lengths[-1]:5}"
                f"  [{time.perf_counter() - t0:4.0f} s]" + ("" if good else "   < 99 %")
            )
    print("  goal (>= 99 % end within the cap) " + ("met" if ok else "NOT met"))
    return ok


def main() -> None:
    names = sorted(policies())
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("all", *names), default="all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=None, help="default: 4 for kkk, 2 for kesse_ruegen, else min")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random", choices=("weighted", "uniform"), default="weighted")
    parser.add_argument(
        "--answers",
        choices=("both", "yes", "no"),
        default="both",
        help="Kohle, Kies & Knete: random seats answer offers made to them (yes), ignore them (no), or both lines",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="--levels: a game option as typed (e.g. --option variant=hq for Casablanca's HQ variant); repeatable",
    )
    parser.add_argument(
        "--ends", action="store_true", help="instead: do tables of computer players and autopilots end by the rules?"
    )
    parser.add_argument(
        "--level",
        choices=("easy", "normal", "hard"),
        default=None,
        help="--ends: the computer players' level (default normal); --levels: only the match-ups of this level's seat",
    )
    parser.add_argument(
        "--levels", action="store_true", help="instead: the levels (hard vs normal, normal vs today, easy vs random)"
    )
    args = parser.parse_args()
    if args.levels:
        ok = True
        for name in names if args.game == "all" else [args.game]:
            options = dict(o.split("=", 1) for o in args.option)
            ok = bench_levels(name, args.games, args.seats, args.seed, options, args.level) and ok
        print("all goals " + ("met" if ok else "NOT met"))
        return
    if args.ends:
        ok = ends(args.games, args.seed, args.game, args.level or "normal")
        print("all goals " + ("met" if ok else "NOT met"))
        return
    ok = True
    for name in names if args.game == "all" else [args.game]:
        models = {"both": (True, False), "yes": (True,), "no": (False,)}[args.answers]
        ok = bench(name, args.games, args.seats, args.seed, args.random, models) and ok
    print("all goals " + ("met" if ok else "NOT met"))


if __name__ == "__main__":
    main()
