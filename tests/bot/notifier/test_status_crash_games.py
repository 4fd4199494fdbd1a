"""Every game's status survives a crash while it moves (issue 24): each game is played by its people (the game's
own policy on their views, seeded) until the status moves down onto a newer message; the process is killed right
after the REST call that makes the newer message carry the status, or right after the call that follows it (the old
message losing it). After the restart, and three moves later, the thread shows the status exactly once.
"""

import json
import random
from typing import Any

import pytest
import simcord

from engine import registry
from engine.policy import policy_for
from storage import StorageError
from tests.bot.helpers import Server, make_server
from tests.bot.notifier.test_status_crash import Killed


class Kill:
    """Kills the bot `after` REST calls past the first edit that moves the status onto another message."""

    def __init__(self, bot: Any, title: str, after: int) -> None:
        self.bot, self.title, self.after = bot, title, after
        self.left: int | None = None  # calls still allowed once the move began
        self.killed = False
        real = bot.http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            if self.killed:
                raise Killed("dead")
            if self.left is None and self._moves(route, kwargs):
                self.left = self.after + 1
            result = await real(route, **kwargs)
            if self.left is not None:
                self.left -= 1
                if self.left == 0:
                    self.killed = True
                    await bot.store.close()
                    raise Killed(f"killed right after {route.method} {route.path}")
            return result

        bot.http.request = request

    def _moves(self, route: Any, kwargs: Any) -> bool:
        if route.method != "PATCH" or "/messages/" not in route.url:
            return False
        payload = kwargs.get("json")
        for part in kwargs.get("form") or []:  # an edit that uploads the table's picture is multipart
            if part.get("name") == "payload_json":
                payload = json.loads(part["value"])
        embeds = (payload or {}).get("embeds") or []
        if not embeds or embeds[0].get("title") != self.title:
            return False
        return int(route.url.rsplit("/", 1)[1]) != self.status_id

    status_id = 0


def statuses(server: Server, thread: Any, title: str) -> list[Any]:
    me = server.bot.user
    return [m for m in thread.history() if m.author.id == me.id and m.embeds and m.embeds[0].title == title]


async def step(server: Server, game_id: int, rng: random.Random) -> bool:
    """One move by the first person whose policy wants to move, through the service as a command does, and its
    delivery; when nobody does, time runs to the next deadline. False: the game is over."""
    bot = server.bot
    table = await bot.service.read.table(game_id)
    if table.record.status != "active":
        return False
    game = table.game
    policy = policy_for(game)
    assert policy is not None and table.state is not None
    for held in table.seats:
        legal = game.legal_actions(table.state, held.seat)
        action = policy.decide(game.view(table.state, held.seat), legal, held.seat, rng) if legal else None
        if action is not None:
            done = await bot.service.play.act(game_id, held.player_id, game.dump_action(action))
            await bot.notifier.flush(done.game_id)
            return True
    nxt = await bot.store.timers.soonest()
    assert nxt is not None
    await server.env.advance_time(max((nxt.due_at - bot.clock()).total_seconds(), 0.0) + 1.0)
    return True


@pytest.mark.parametrize("after", [0, 1], ids=["after-the-moving-edit", "after-the-next-call"])
@pytest.mark.parametrize("kind", ["kkk", "casablanca", "schwarzmarkt", "kesse_ruegen"])
async def test_a_kill_while_the_status_moves_leaves_it_once(env: simcord.Env, make_bot, kind: str, after: int) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(games={kind: registry.get(kind)}, presentations={}))
    server = make_server(env)
    people = server.members[:3]
    opened = await people[0].slash(server.channel, "game new", game=kind, random_order=False)
    for member in people[1:]:
        await member.click(opened.response, label="Join")
    await people[0].click(opened.response, label="Start")
    (thread,) = server.channel.threads
    ref = await server.bot.store.refs.find(1, "status")
    assert ref is not None
    first = next(m for m in thread.history() if m.id == ref.message_id).embeds[0]
    title = first.title
    kill = Kill(server.bot, title, after)
    rng = random.Random(5)
    for _ in range(400):
        kill.status_id = (await server.bot.store.refs.find(1, "status")).message_id  # type: ignore[union-attr]
        try:
            assert await step(server, 1, rng), (await server.bot.store.games.get(1)).status
        except (Killed, StorageError):
            assert kill.killed
        if kill.killed:
            break
    assert kill.killed, "the status never moved"

    await env.restart_bot(make_bot(games={kind: registry.get(kind)}, presentations={}))
    assert len(statuses(server, thread, title)) == 1
    # Only the status's edits may wait, for the table's next move (`bot.notifier.delivery.can_wait`).
    assert {r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)} <= {"status"}
    for _ in range(3):
        assert await step(server, 1, rng)
        assert len(statuses(server, thread, title)) == 1
    ref = await server.bot.store.refs.find(1, "status")
    assert ref is not None and ref.message_id == statuses(server, thread, title)[0].id
