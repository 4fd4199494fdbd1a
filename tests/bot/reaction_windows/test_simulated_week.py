"""A simulated week (issue 27): a Casablanca and a Kohle, Kies & Knete table played through Discord (SimCord, simulated
time) by people who look in at random every 1–4 hours (seeded) and then do what their policy wants (`engine.policy`
on their own view, as `tests/bot/games/test_seeded_games.py` plays), answering every window that waits on them.

What is watched (`Watch`): every reaction window — a Casablanca objection window or contest, a KKK STOP window or
last call — from the waits the table shows and the game's log: when it opened, its deadline, who was still awaited
when it closed, and whether it closed early (its last answer) or by time (the deadline's Timeout in the log). A window
that closed by time while a player it awaited had not looked in since it opened is a **missed** window: a player who
would have answered never could.

- Looking in every 1–4 hours with the games' own window lengths (6–12 hours), no window is missed.
- The same tables with the old 10-minute reaction time miss windows all the time: the figure the change is about.
- The same tables online together (everyone answers at once) close every window early, without any time passing.

Bounded (a number of windows per table, at most a simulated week) to keep the run short; the figures are printed for
the lead's note (`-s`).
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import simcord

from bot.client import BoardroomBot
from engine.casablanca import waits as cb_waits
from engine.deadlines import Current
from engine.kkk import waits as kkk_waits
from engine.policy import policy_for
from tests.bot.helpers import Server, make_server, move

CURRENT: dict[str, Callable[[Any], Current | None]] = {"casablanca": cb_waits.current, "kkk": kkk_waits.current}
HOUR = timedelta(hours=1)
WEEK = timedelta(days=7)


@dataclass
class Window:
    key: str
    kind: str
    opened: datetime
    until: datetime
    asked: tuple[int, ...]
    left: tuple[int, ...] = ()
    """Who it still awaited when last seen (at its close: who never answered)."""
    looked: set[int] = field(default_factory=set)
    """Who looked in while it was open."""
    closed: datetime | None = None
    by_time: bool = False

    @property
    def missed(self) -> bool:
        """Closed by time before someone it awaited had looked in at all."""
        return self.by_time and any(s not in self.looked for s in self.left)


class Watch:
    """The reaction windows of one table, followed from its state's waits and its log (see the module docstring)."""

    def __init__(self, bot: BoardroomBot, game_id: int) -> None:
        self.bot = bot
        self.game_id = game_id
        self.open: dict[str, Window] = {}
        self.closed: list[Window] = []
        self.seq = 0

    async def update(self) -> Any:
        table = await self.bot.service.read.table(self.game_id)
        game = table.game
        entries = await self.bot.store.log.entries(self.game_id, after=self.seq)
        if entries:
            self.seq = entries[-1].seq
        timed_out = {
            e.action["key"]: e.at
            for e in entries
            if e.actor_seat is None and e.action is not None and e.action.get("type") == "timeout"
        }
        now = entries[-1].at if entries else self.bot.clock()
        live: dict[str, Any] = {}
        if table.state is not None and table.record.status == "active":
            cur = CURRENT[table.record.kind](table.state)
            for wait in game.waiting_on(table.state):
                if wait.kind == "reaction" and cur is not None:
                    live[wait.timeout.key] = (wait, cur.window)
        for key in list(self.open):
            if key not in live:
                window = self.open.pop(key)
                window.by_time = key in timed_out
                window.closed = timed_out.get(key, now)
                self.closed.append(window)
        for key, (wait, kind) in live.items():
            if key not in self.open:
                self.open[key] = Window(key, kind, wait.since, wait.until, tuple(wait.seats))
            self.open[key].left = tuple(wait.seats)
        return table

    def look(self, seat: int) -> None:
        for window in self.open.values():
            window.looked.add(seat)

    def figures(self) -> dict[str, Any]:
        done = self.closed
        waited = sorted((w.closed - w.opened) for w in done if w.closed is not None)
        return {
            "windows": len(done),
            "early": sum(not w.by_time for w in done),
            "by_time": sum(w.by_time for w in done),
            "missed": sum(w.missed for w in done),
            "median_open": waited[len(waited) // 2] if waited else timedelta(0),
            "kinds": sorted({w.kind for w in done}),
        }


async def open_table(server: Server, kind: str, reaction_time: str | None) -> int:
    opener = server.members[0]
    extra = {"reaction_time": reaction_time} if reaction_time else {}
    opened = await opener.slash(server.channel, "game new", game=kind, random_order=False, **extra)
    assert not opened.response.ephemeral, opened.response.content
    for member in server.members[1:]:
        await member.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    return (await server.bot.store.games.find())[-1].id


async def _move(server: Server, game_id: int, seat: int, action: Any, table: Any) -> bool:
    """`seat` makes `action` by `/game move`; whether the game took it."""
    bot = server.bot
    member = next(server.member(s.player_id) for s in table.seats if s.seat == seat)
    thread = next(t for t in server.channel.threads if t.id == table.record.thread_id)
    before = table.record.version
    await member.slash(thread, "game move", action=move(table.game.dump_action(action)))
    return (await bot.store.games.get(game_id)).version > before


async def looking_in(
    env: simcord.Env, kind: str, *, seed: int, windows: int, reaction_time: str | None = None
) -> dict[str, Any]:
    """Four people who each look in every 1–4 hours (seeded) and then make what moves their policy wants (at most
    eight a visit); time runs from one visit to the next, the bot's timers firing in between. Until `windows`
    windows have closed, a week has passed or the game is over."""
    env.settle_timeout = 30.0
    server = make_server(env)
    game_id = await open_table(server, kind, reaction_time)
    bot = server.bot
    watch = Watch(bot, game_id)
    table = await watch.update()
    policy = policy_for(table.game)
    assert policy is not None
    rng = random.Random(seed)
    start = bot.clock()
    seats = range(len(table.seats))
    visit = {s: start + rng.uniform(1, 4) * HOUR for s in seats}
    visits = moves = 0
    while len(watch.closed) < windows and bot.clock() < start + WEEK and table.record.status == "active":
        seat = min(visit, key=lambda s: visit[s])
        await env.advance_time(max((visit[seat] - bot.clock()).total_seconds(), 0.0))
        table = await watch.update()
        visits += 1
        watch.look(seat)
        for _ in range(8):
            if table.record.status != "active" or table.state is None:
                break
            legal = table.game.legal_actions(table.state, seat)
            action = policy.decide(table.game.view(table.state, seat), legal, seat, rng) if legal else None
            if action is None or not await _move(server, game_id, seat, action, table):
                break
            moves += 1
            table = await watch.update()
        visit[seat] = max(visit[seat], bot.clock()) + rng.uniform(1, 4) * HOUR
    return {**watch.figures(), "visits": visits, "moves": moves, "days": (bot.clock() - start) / timedelta(days=1)}


async def online_together(env: simcord.Env, kind: str, *, seed: int, windows: int) -> dict[str, Any]:
    """The same table with everyone online: after every move, the first person (seeded order) whose policy wants
    to move makes it at once; time runs only when nobody wants to (to the next timer, e.g. a turn deadline)."""
    env.settle_timeout = 30.0
    server = make_server(env)
    game_id = await open_table(server, kind, None)
    bot = server.bot
    watch = Watch(bot, game_id)
    table = await watch.update()
    policy = policy_for(table.game)
    assert policy is not None
    rng = random.Random(seed)
    start = bot.clock()
    for _ in range(600):
        if len(watch.closed) >= windows or table.record.status != "active" or table.state is None:
            break
        for seat in rng.sample(range(len(table.seats)), len(table.seats)):
            legal = table.game.legal_actions(table.state, seat)
            action = policy.decide(table.game.view(table.state, seat), legal, seat, rng) if legal else None
            if action is not None and await _move(server, game_id, seat, action, table):
                break
        else:
            nxt = await bot.store.timers.soonest()
            assert nxt is not None
            await env.advance_time(max((nxt.due_at - bot.clock()).total_seconds(), 0.0) + 1.0)
        table = await watch.update()
    return {**watch.figures(), "days": (bot.clock() - start) / timedelta(days=1)}


def _row(name: str, f: dict[str, Any]) -> str:
    return (
        f"{name}: {f['windows']} windows ({', '.join(f['kinds'])}) — closed early {f['early']}, by time "
        f"{f['by_time']}, missed {f['missed']}; median open {f['median_open']}; "
        + (f"{f['visits']} visits, {f['moves']} moves, " if "visits" in f else "")
        + f"{f['days']:.2f} simulated days"
    )


async def test_casablanca_players_who_look_in_every_few_hours_never_miss_an_objection(env: simcord.Env) -> None:
    figures = await looking_in(env, "casablanca", seed=5, windows=10)
    print("\n" + _row("casablanca, looking in every 1–4 h, the game's own windows", figures))
    assert figures["windows"] >= 10 and "objection" in figures["kinds"]
    assert figures["missed"] == 0


async def test_kkk_players_who_look_in_every_few_hours_never_miss_a_stop_window(env: simcord.Env) -> None:
    figures = await looking_in(env, "kkk", seed=5, windows=10)
    print("\n" + _row("kkk, looking in every 1–4 h, the game's own windows", figures))
    assert figures["windows"] >= 10 and "stop" in figures["kinds"]
    assert figures["missed"] == 0


async def test_with_the_old_ten_minutes_the_same_players_miss_windows(env: simcord.Env) -> None:
    """The figure before the change: the same people, the same seeds, the 10-minute reaction time of old."""
    casablanca = await looking_in(env, "casablanca", seed=5, windows=10, reaction_time="10m")
    print("\n" + _row("casablanca, looking in every 1–4 h, reaction_time 10m", casablanca))
    assert casablanca["missed"] >= casablanca["windows"] // 2
    kkk = await looking_in(env, "kkk", seed=5, windows=6, reaction_time="10m")
    print(_row("kkk, looking in every 1–4 h, reaction_time 10m", kkk))
    assert kkk["missed"] >= kkk["windows"] // 2


async def test_a_table_online_together_closes_every_window_without_waiting(env: simcord.Env) -> None:
    for kind in ("casablanca", "kkk"):
        figures = await online_together(env, kind, seed=5, windows=10)
        print("\n" + _row(f"{kind}, online together", figures))
        assert figures["windows"] >= 10
        assert figures["by_time"] == 0 and figures["early"] == figures["windows"]
        assert figures["median_open"] < timedelta(minutes=1)
