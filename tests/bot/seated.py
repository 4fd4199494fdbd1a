"""Helpers for the tests of seats that play themselves: open a table with computer players, and play it on (any game:
`play_on` reads the game's kind from its record and plays in that game's thread).

People play by commands (`/game move` with the engine's JSON for the move, as any player may type it); what they
play is chosen by the game's own policy from their own view (`engine.policy`), so that a test game moves like a real
one and ends. Computer players and autopiloted seats are never driven by the test: when no person has anything to
do, simulated time runs to the next timer (`env.advance_time`), and the bot's own timers make their moves.
"""

import random
from collections.abc import Callable

import simcord
from simcord import MemberActor

from bot import seat_players
from bot.client import BoardroomBot
from bot.presentation import Table
from engine import registry
from engine.policy import policy_for
from tests.bot.games.kkk.helpers import KkkTable, prepare
from tests.bot.helpers import Server, move

KKK = registry.get("kkk")


def kkk_bot(make_bot: Callable[..., BoardroomBot], **kwargs: object) -> BoardroomBot:
    """A bot hosting Kohle, Kies & Knete with its own presentation (seed 12345)."""
    return make_bot(games={"kkk": KKK}, presentations={}, **kwargs)


async def open_kkk(
    server: Server, people: list[MemberActor], bots: int, **options: object
) -> simcord.InteractionResult:
    """`/game new game:kkk bots:N` by the first person, the others join with the button; not started yet."""
    opened = await people[0].slash(
        server.channel, "game new", game="kkk", bots=bots, random_order=False, reaction_minutes=5, **options
    )
    for member in people[1:]:
        await member.click(opened.response, label="Join")
    return opened


async def people_by_seat(server: Server, game_id: int = 1) -> dict[int, MemberActor]:
    return {
        s.seat: server.member(s.player_id)
        for s in await server.bot.store.seats.of_game(game_id)
        if s.player_id is not None
    }


async def next_timer_in(bot: BoardroomBot) -> float:
    """Seconds until the soonest timer (the test fails if nothing is due: the table would be stuck)."""
    nxt = await bot.store.timers.soonest()
    assert nxt is not None, "nothing is scheduled: the table is stuck"
    return max((nxt.due_at - bot.clock()).total_seconds(), 0.0) + 1.0


async def play_on(
    server: Server,
    *,
    game_id: int = 1,
    seed: int = 7,
    until: Callable[[Table], bool] | None = None,
    steps: int = 2000,
    chunk: float = 0.0,
    idle: frozenset[int] = frozenset(),
) -> int:
    """Play until the game is over (or `until(table)`): each step, the first person (by seat, not in `idle`: they
    never move) whose policy wants to move makes that move by command; when nobody does, time runs to the next timer
    (at least `chunk` seconds). Returns the people's moves (with `until`, also after `steps` steps)."""
    bot = server.bot
    record = await bot.store.games.get(game_id)
    thread = next(t for t in server.channel.threads if t.id == record.thread_id)
    game = bot.service.read.game(record.kind)
    policy = policy_for(game)
    assert policy is not None
    rng = random.Random(seed)
    moves = 0
    for _ in range(steps):
        table = await bot.service.read.table(game_id)
        if table.record.status != "active" or (until is not None and until(table)):
            return moves
        assert table.state is not None
        people = {s.seat: s for s in table.seats if s.player_id is not None and not s.autopilot and s.seat not in idle}
        acted = False
        for seat, held in sorted(people.items()):
            legal = game.legal_actions(table.state, seat)
            action = policy.decide(game.view(table.state, seat), legal, seat, rng) if legal else None
            if action is None:
                continue
            before = table.record.version
            member = server.member(held.player_id)  # type: ignore[arg-type]
            done = await member.slash(thread, "game move", action=move(game.dump_action(action)))
            after = (await bot.store.games.get(game_id)).version
            assert after > before, f"{member.name}'s move was refused: {done.response.content}"
            moves += 1
            acted = True
            break
        if not acted:
            # At least `chunk`: several of the computer players' moves in one step of simulated time, as people
            # who look at the table now and then (a wait for a person is hours: no deadline passes meanwhile).
            await server.env.advance_time(max(await next_timer_in(bot), chunk))
    if until is None:
        raise AssertionError(f"the game did not end in {steps} steps")
    return moves


async def fast_forward(server: Server, deals: int) -> None:
    """Play on the engine alone (the policy for every seat; a reaction window nobody answers closes by time) until
    `deals` deals are done and a turn begins, then store that state (`prepare`) with the computer players' timers."""
    bot = server.bot
    game = bot.service.read.game("kkk")
    policy = policy_for(game)
    assert policy is not None
    state = game.load_state((await bot.store.games.snapshot(1)).state)
    people = {s.seat for s in await bot.store.seats.of_game(1) if s.player_id is not None and not s.autopilot}
    rng = random.Random(3)
    now = bot.clock()
    for _ in range(2000):
        assert state.phase != "over", "the game ended during the fast-forward: pick fewer deals"
        # Stop at a person's turn (when there is one): the timers stored below are armed from test code, outside
        # the bot's SimCord scope (a real-time wake-up); a person's first command re-arms them in simulated time.
        ready = state.deals >= deals and state.phase == "turn" and state.round is None and not state.pending
        if ready and (state.turn in people or not people):
            break
        for seat in rng.sample(range(state.seats), state.seats):
            legal = game.legal_actions(state, seat)
            action = policy.decide(game.view(state, seat), legal, seat, rng) if legal else None
            if action is not None:
                state = game.apply(state, seat, action, now).state
                break
        else:  # nobody wants to move: the soonest wait times out (a reaction window closes)
            wait = min(game.waiting_on(state), key=lambda w: w.until)
            now = max(now, wait.until)
            state = game.apply(state, None, wait.timeout, now).state
    # The table's clock catches up with the engine's, with no timer of the old state left to fire meanwhile.
    await bot.store.timers.clear(1)
    await server.env.advance_time(max((now - bot.clock()).total_seconds(), 0.0) + 1.0)
    await prepare(KkkTable(server, []), state, f"Fast-forward to deal {state.deals + 1}.")
    table = await bot.service.read.table(1)
    await bot.store.timers.add(1, seat_players.plan(game, 1, table.waits, table.seats, now))
    bot.scheduler.poke()
