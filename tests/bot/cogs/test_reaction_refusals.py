"""A reaction whose move the engine refuses: the table is told why (the game's `reaction_refused`, by default a line
mentioning the reactor with the reason), the refused reaction is taken off when the bot may, and that is all —
the refusal comes from the one `apply`, and the bot's own removal is not read as the member taking it back.

Here the toy's 🛑 means STOP; the player whose card it is may not STOP it ("You have nothing to react to right now.").
"""

import discord
import simcord

from bot.presentation import Post, Table
from engine.game import Outcome
from storage.models import MessageRef
from tests.bot.cogs.test_reactions import open_window, stops
from tests.bot.helpers import Server, make_server, thread_of
from tests.bot.toy_presentation import ToyControls, ToyPresentation
from tests.bot.toygame import Toy

REFUSED = "You have nothing to react to right now."


class CountingToy(Toy):
    """The toy, counting how often the engine is asked to apply a move."""

    applied = 0

    def apply(self, state, actor, action, now) -> Outcome:  # type: ignore[no-untyped-def, override]
        CountingToy.applied += 1
        return super().apply(state, actor, action, now)


class TakeBackControls(ToyControls):
    """Taking a 🛑 off means "pass": the bot's own removal of a refused 🛑 would be a (refused) pass if it were read."""

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool):  # type: ignore[no-untyped-def]
        if ref.kind == "window" and emoji == "🛑" and not added:
            return {"type": "pass"}
        return super().reaction_action(table, ref, seat, emoji, added)


class TakeBackPresentation(ToyPresentation):
    controls_type = TakeBackControls


class QuietControls(ToyControls):
    def reaction_refused(  # type: ignore[override]
        self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool, message: str
    ) -> Post | None:
        return None


class QuietPresentation(ToyPresentation):
    controls_type = QuietControls


def refusals(server: Server) -> list[str]:
    return [m.content for m in thread_of(server).history() if "doesn't count" in m.content]


async def test_a_refused_reaction_is_answered_once_and_taken_off(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    CountingToy.applied = 0
    await env.restart_bot(make_bot(games={"toy": CountingToy()}, presentations={"toy": TakeBackPresentation()}))
    server = make_server(env)
    players, window = await open_window(server)
    version = (await server.bot.store.games.get(1)).version
    applied = CountingToy.applied
    await players[0].react(window, "🛑")  # anna's own card: she may not STOP it
    assert CountingToy.applied == applied + 1  # one apply decided it; no second check on a copy
    assert refusals(server) == [f"<@{players[0].id}>: your 🛑 doesn't count — {REFUSED}"]
    assert stops(server) == 1  # hers was taken off (the bot's stays)…
    assert (await server.bot.store.games.get(1)).version == version  # …and its removal was not read as a pass
    assert len(refusals(server)) == 1


async def test_the_game_may_choose_to_say_nothing(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(presentations={"toy": QuietPresentation()}))
    server = make_server(env)
    players, window = await open_window(server)
    await players[0].react(window, "🛑")
    assert refusals(server) == [] and stops(server) == 1


async def test_without_manage_messages_the_refused_reaction_stays_and_counts_for_nothing(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel(
        "games", overwrites={env.bot.user: discord.PermissionOverwrite(manage_messages=False)}
    )
    members = [guild.add_member(env.create_user(name)) for name in ("anna", "bert")]
    server = Server(env, guild, channel, members)
    players, window = await open_window(server)
    before = len(env.http_requests)
    await players[0].react(window, "🛑")
    assert not [e for e in env.http_requests[before:] if e.method == "DELETE"]
    assert refusals(server) == [f"<@{players[0].id}>: your 🛑 doesn't count — {REFUSED}"]
    assert stops(server) == 2
