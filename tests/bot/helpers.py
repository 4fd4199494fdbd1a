"""Helpers for the platform tests: a server with four members, reading the bot's messages and the store."""

import json
from dataclasses import dataclass

import discord
import simcord
from simcord import ChannelHandle, GuildHandle, MemberActor

from bot.client import BoardroomBot


@dataclass
class Server:
    env: simcord.Env
    guild: GuildHandle
    channel: ChannelHandle
    members: list[MemberActor]

    @property
    def bot(self) -> BoardroomBot:
        return self.env.bot  # type: ignore[return-value]

    def member(self, user_id: int) -> MemberActor:
        return next(m for m in self.members if m.id == user_id)


def make_server(env: simcord.Env, names: tuple[str, ...] = ("anna", "bert", "cleo", "dave")) -> Server:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in names]
    return Server(env, guild, channel, members)


def thread_of(server: Server) -> ChannelHandle:
    (thread,) = server.channel.threads
    return thread


def texts(channel: ChannelHandle, viewer: MemberActor | None = None) -> list[str]:
    return [m.content for m in channel.history(viewer=viewer) if m.content]


def embed_text(message: discord.Message) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(p for p in parts if p)


def dms(member: MemberActor) -> list[discord.Message]:
    return member.user.dm_channel.history()


def move(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


async def seat_players(server: Server, game_id: int) -> list[MemberActor]:
    """The members in seat order (seat 0 first)."""
    seats = await server.bot.store.seats.of_game(game_id)
    return [server.member(s.player_id) for s in seats]  # type: ignore[arg-type]


async def start_toy(server: Server, players: int = 3, **options: object) -> list[MemberActor]:
    """A toy game opened by the first member, joined by the next `players - 1`, started: its seat players (game 1
    on a fresh bot)."""
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy", **options)
    for m in server.members[1:players]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    return await seat_players(server, 1)


async def state(server: Server, game_id: int):  # type: ignore[no-untyped-def]
    snap = await server.bot.store.games.snapshot(game_id)
    return server.bot.service.read.game("toy").load_state(snap.state)


def rest_calls_since(env: simcord.Env, start: int) -> list[str]:
    return [f"{e.method} {e.path}" for e in env.http_requests[start:]]


async def mod_undo(member: MemberActor, channel: ChannelHandle, **options: object) -> simcord.InteractionResult:
    """`/mod undo` as a moderator uses it: the command names the move and the "Undo it" button undoes it. A refused
    command (nothing to undo, or force needed) is returned as it is."""
    asked = await member.slash(channel, "mod undo", **options)
    message = asked.response.message if asked.response is not None else None
    labels = [c.label for row in (message.components if message else []) for c in getattr(row, "children", [])]
    if "Undo it" not in labels:
        return asked
    return await member.click(asked.response, label="Undo it")


@dataclass
class ThreadMeter:
    """How loud a table thread is, step by step, read from SimCord's backend: the new public messages each step
    posted, who they pinged (Discord notifies on a message's creation only, so an edit pings nobody), and how often a
    player was pinged by the step they made themselves."""

    env: simcord.Env
    thread_id: int
    seen: set[int]
    actions: int = 0
    new_messages: int = 0
    self_pings: int = 0
    pings: int = 0

    @classmethod
    def start(cls, env: simcord.Env, thread_id: int) -> "ThreadMeter":
        return cls(env, thread_id, set(env.backend.messages.get(thread_id, {})))

    def step(self, actor_id: int | None) -> list[set[int]]:
        """Count one step (`actor_id`: the player who acted, None for a deadline); the pinged users of each new
        public message."""
        messages = self.env.backend.messages.get(self.thread_id, {})
        new = [m for mid, m in messages.items() if mid not in self.seen and not m.is_ephemeral]
        self.seen |= set(messages)
        pinged = [set(m.ping_user_ids) for m in new]
        import os

        if os.environ.get("METER_DUMP"):
            for m in new:
                print(f"[{actor_id}] pings={sorted(m.ping_user_ids)} :: " + m.content.replace(chr(10), " / ")[:300])
        if actor_id is not None:
            self.actions += 1
            self.new_messages += len(new)
            self.self_pings += sum(actor_id in p for p in pinged)
        self.pings += sum(len(p) for p in pinged)
        return pinged

    @property
    def per_action(self) -> float:
        return self.new_messages / max(self.actions, 1)

    def below(self, message_id: int) -> int:
        """How many public messages sit below `message_id` in the thread (how far up a reader must scroll)."""
        messages = self.env.backend.messages.get(self.thread_id, {})
        return sum(1 for mid, m in messages.items() if mid > message_id and not m.is_ephemeral)
