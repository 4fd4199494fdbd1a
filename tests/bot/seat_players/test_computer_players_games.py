"""Computer players of Kesse Rügen, Casablanca and Schwarzmarkt run from the bot (SimCord, simulated time).

Each table is opened with `/game new … bots:N`; the people move by `/game move` (`tests.bot.seated.play_on`: the
game's policy on their own view, seeded), the computer players by their own timers. Checked:

- a Kesse Rügen game of one person and one computer player is played to its end, with its final standings;
- Casablanca and Schwarzmarkt tables of people and computer players move on for a good stretch with every computer
  player moving by itself, its moves logged as a computer player's (no user behind them);
- the computer player's secret choices stay secret: the same game is played twice with only the computer player's
  secret choice changed (its fist in Kesse Rügen, its bribe in Casablanca: `forced`), and everything the person and
  an onlooker can read right after that choice (the channel, the thread with the person's private replies, the
  person's DMs of that game) is the same word for word. In Kesse Rügen the two games are played on to the reveal,
  where they differ: the comparison can see a difference. Schwarzmarkt's secret is the goods in hand, not a choice
  to force; it has no such comparison here (a gap: its hands are checked by its own tests).

The two games of a comparison run one after the other on one bot (the platform seeds every game alike in tests:
`seed_source` 12345), so everything but the forced choice is the same; texts are compared with game numbers and
ids taken out (`normalised`), times counted from each game's creation, and the computer players' delays drawn alike
(`same_delays`), so that when things happen is compared too.
"""

import re
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from simcord import MemberActor

from bot import seat_players
from bot.client import BoardroomBot
from bot.presentation import Table
from bot.seat_players import BOT_NOTE
from engine import registry
from engine.casablanca.actions import Bribe
from engine.kesse_ruegen.actions import Choose
from tests.bot.games.kesse_ruegen.helpers import normalised, readable
from tests.bot.helpers import Server, dms, embed_text, make_server
from tests.bot.seated import play_on

KINDS = ("kesse_ruegen", "casablanca", "schwarzmarkt")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={kind: registry.get(kind) for kind in KINDS}, presentations={})


async def open_table(server: Server, kind: str, people: int, bots: int) -> int:
    """`/game new game:<kind> bots:N` by the first member, Join by the next ones, Start: the new game's id."""
    opener, *others = server.members[:people]
    opened = await opener.slash(server.channel, "game new", game=kind, bots=bots, random_order=False)
    assert not opened.response.ephemeral, opened.response.content
    for member in others:
        await member.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    record = max(await server.bot.store.games.find(), key=lambda g: g.id)
    assert record.status == "active"
    return record.id


async def bot_seats(server: Server, game_id: int) -> set[int]:
    return {s.seat for s in await server.bot.store.seats.of_game(game_id) if s.bot}


async def moves_of(server: Server, game_id: int, seats: set[int]) -> list[Any]:
    return [e for e in await server.bot.store.log.entries(game_id) if e.kind == "action" and e.actor_seat in seats]


async def seen(server: Server, game_id: int) -> list[str]:
    """What the first person and an onlooker (the last member) can read of game `game_id`: its lobby message, its
    thread (with the person's private replies), and the person's DMs that name it. Times (`<t:…>`) are counted from
    the game's creation, so that two games played alike read alike."""
    person, onlooker = server.members[0], server.members[-1]
    created = int((await server.bot.store.games.get(game_id)).created_at.timestamp())
    record_tag = f"#{game_id}"
    thread = next(t for t in server.channel.threads if t.name.endswith(record_tag))
    lobby = [embed_text(m) for m in server.channel.history() if m.embeds and record_tag in (m.embeds[0].title or "")]
    mine = [embed_text(m) for m in dms(person) if record_tag in embed_text(m)]
    texts = normalised(lobby + readable(thread, person) + readable(thread, onlooker) + mine)
    return [re.sub(r"<t:(\d+)", lambda m: f"<t:+{int(m.group(1)) - created}", t) for t in texts]


def same_delays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player's delay is drawn from public facts that differ between two games (the game's number, when
    the wait began): here every draw is the middle of its bounds, so the two games keep one timeline and the
    comparison covers when things happen, too."""
    monkeypatch.setattr(seat_players, "_unit", lambda *parts: 0.5)


def moderator(server: Server) -> MemberActor:
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return server.guild.add_member(server.env.create_user("mia"), roles=[admins])


async def end(mia: MemberActor, server: Server, game_id: int) -> None:
    """A moderator ends the game, so that its timers don't run on while the next game of a comparison is played."""
    await mia.slash(server.channel, "mod end", game=game_id)
    assert (await server.bot.store.games.get(game_id)).status == "abandoned"


def force(bot: BoardroomBot, kind: str, secret: type, pick: Callable[[list[Any]], Any]) -> None:
    """The computer players' policy, except that a `secret` move is replaced by `pick(legal secret moves)`."""
    policy = bot.service.read.policy(kind)
    assert policy is not None

    class Forced:
        def decide(self, view: Any, legal: Any, seat: int, rng: Any, *, autopilot: bool = False) -> Any:
            action = policy.decide(view, legal, seat, rng, autopilot=autopilot)
            options = [a for a in legal if isinstance(a, secret)]
            return pick(options) if isinstance(action, secret) and options else action

    bot.service.read.policies[(kind, "normal")] = Forced()  # type: ignore[assignment]


# --- Kesse Rügen --------------------------------------------------------------------------------------------


async def test_kesse_ruegen_one_person_and_one_computer_player_play_to_the_end(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "olga"))
    anna = server.members[0]
    game_id = await open_table(server, "kesse_ruegen", people=1, bots=1)
    assert [(s.display_name, s.bot) for s in await server.bot.store.seats.of_game(game_id)] == [
        ("anna", False),
        ("Robo Anna 🤖", True),
    ]
    people_moves = await play_on(server, game_id=game_id, chunk=60, steps=3000)
    record = await server.bot.store.games.get(game_id)
    assert record.status == "finished"
    by_bot = await moves_of(server, game_id, {1})
    kinds = {e.action["type"] for e in by_bot}  # type: ignore[index]
    assert {"place", "choose", "guess"} <= kinds  # its secret fist too, submitted by itself through the service
    assert all(e.user_id is None and e.note == BOT_NOTE for e in by_bot)
    assert len(await moves_of(server, game_id, {0})) == people_moves
    texts = await seen(server, game_id)
    over = next(t for t in texts if "🏁 **Kesse Rügen #N is over" in t)
    assert "**anna**" in over and "**Robo Anna 🤖**" in over
    assert not any("<@None>" in t for t in texts)
    assert anna.id not in {e.user_id for e in by_bot}


async def test_a_computer_players_fist_stays_secret_until_the_reveal(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    same_delays(monkeypatch)
    server = make_server(env, ("anna", "olga"))
    bot, mia = server.bot, moderator(server)
    before, after = [], []
    for game_id, tubers in ((1, 0), (2, 2)):
        force(bot, "kesse_ruegen", Choose, lambda options, n=tubers: next(a for a in options if a.tubers == n))
        assert await open_table(server, "kesse_ruegen", people=1, bots=1) == game_id

        def fist_closed(table: Table) -> bool:
            duel = table.state.duel  # type: ignore[union-attr]
            return duel is not None and duel.choice(1) is not None

        def revealed(table: Table) -> bool:
            return table.state.last_duel is not None  # type: ignore[union-attr]

        await play_on(server, game_id=game_id, until=fist_closed, steps=200)
        state = (await bot.service.read.table(game_id)).state
        assert state.duel.choice(1) == tubers and state.last_duel is None  # type: ignore[union-attr]
        before.append(await seen(server, game_id))
        await play_on(server, game_id=game_id, until=revealed, steps=200)
        after.append(await seen(server, game_id))
        await end(mia, server, game_id)
    assert before[0] == before[1]  # nothing anyone else reads depends on the computer player's closed fist …
    assert after[0] != after[1]  # … until the reveal shows it


# --- Casablanca and Schwarzmarkt -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "people", "bots", "secret"), [("casablanca", 2, 2, "bribe"), ("schwarzmarkt", 2, 2, "trade")]
)
async def test_a_table_of_people_and_computer_players_moves_on(
    env: simcord.Env, kind: str, people: int, bots: int, secret: str
) -> None:
    """`secret`: a move of the computer players that comes from their secrets (Casablanca's bribes from its money;
    Schwarzmarkt's trades from its goods), which they must make by themselves."""
    server = make_server(env, ("anna", "bert", "olga"))
    game_id = await open_table(server, kind, people=people, bots=bots)
    robots = await bot_seats(server, game_id)
    assert len(robots) == bots
    await play_on(server, game_id=game_id, chunk=60, steps=400, until=lambda table: table.record.version >= 60)
    record = await server.bot.store.games.get(game_id)
    assert record.version >= 60 or record.status == "finished"
    by_bots = await moves_of(server, game_id, robots)
    assert {e.actor_seat for e in by_bots} == robots  # every computer player moved, by itself
    assert all(e.user_id is None and e.note == BOT_NOTE for e in by_bots)
    assert secret in {e.action["type"] for e in by_bots}  # type: ignore[index]
    texts = await seen(server, game_id)
    assert not any("<@None>" in t for t in texts)
    assert any("Robo Anna 🤖" in t for t in texts)


async def test_a_computer_players_bribe_stays_secret(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    same_delays(monkeypatch)
    server = make_server(env, ("anna", "olga"))
    bot, mia = server.bot, moderator(server)
    seen_after, bribes = [], []
    for game_id, pick in ((1, 0), (2, -1)):
        force(bot, "casablanca", Bribe, lambda options, i=pick: options[i])
        assert await open_table(server, "casablanca", people=1, bots=1) == game_id

        def bribed(table: Table) -> bool:
            return any(table.state.bribes[1])  # type: ignore[union-attr]

        await play_on(server, game_id=game_id, until=bribed, steps=200)
        bribes.append(list((await bot.service.read.table(game_id)).state.bribes[1]))  # type: ignore[union-attr]
        seen_after.append(await seen(server, game_id))
        await end(mia, server, game_id)
    assert bribes[0] != bribes[1]  # the two computer players bribed differently …
    assert seen_after[0] == seen_after[1]  # … and nobody else can tell
