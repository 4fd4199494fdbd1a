"""Helpers for the Kohle, Kies & Knete bot tests: a started table, prepared positions, and the secrecy check.

`prepare(table, state)` writes a prepared engine state into the store the way the engine tests' `tables.py` prepares
one for the engine: one store commit (a log note, the snapshot, the timers that follow from it, and the status / hand
/ narration rows), then delivery. The log then no longer replays from the seed (a test-only shortcut: `/mod verify`
would say so), but everything after it is ordinary play through Discord.
"""

import re
from dataclasses import dataclass
from typing import Any

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from bot import outbox
from bot import timers as timing
from bot.client import BoardroomBot
from bot.games.kkk.posts import offer_key
from bot.games.kkk.words import hand_block
from engine import registry
from engine.kkk.options import KkkOptions
from engine.kkk.state import KkkState
from engine.kkk.waits import refresh
from storage import NewLogEntry
from tests.bot.helpers import Server, dms, embed_text, make_server, seat_players, thread_of

KKK = registry.get("kkk")
CODE = re.compile(r"\b(?:clan|travel):[HKLPRT*]")
PRIVATE_PHRASES = ("You drew", "You discarded", "You hold", "Your hand", "only you see")


@dataclass
class KkkTable:
    server: Server
    players: list[MemberActor]
    """The members in seat order."""
    game_id: int = 1

    @property
    def env(self) -> simcord.Env:
        return self.server.env

    @property
    def bot(self) -> BoardroomBot:
        return self.server.bot

    @property
    def thread(self) -> ChannelHandle:
        return thread_of(self.server)

    def by_name(self, name: str) -> MemberActor:
        return next(p for p in self.players if p.name == name)

    async def state(self) -> KkkState:
        snap = await self.bot.store.get_snapshot(self.game_id)
        state = KKK.load_state(snap.state)
        assert isinstance(state, KkkState)
        return state

    async def version(self) -> int:
        return (await self.bot.store.get_game(self.game_id)).version

    # --- acting through Discord -------------------------------------------------------------------------

    # Every step below ends with the secrecy check: no step may show a hand outside its owner's DM or replies.

    async def ok(self, member: MemberActor, command: str, **options: Any) -> simcord.InteractionResult:
        """A `/kkk …` command that the game accepts: it moves the game on and its reply is public narration."""
        before = await self.version()
        result = await member.slash(self.thread, command, **options)
        reply = result.response
        assert reply is not None, f"/{command} got no reply"
        assert await self.version() > before, f"/{command} was refused: {reply.content}"
        await self.assert_hands_secret()
        return result

    async def refused(self, member: MemberActor, command: str, **options: Any) -> str:
        """A command the game refuses: the reply is ephemeral and nothing changes."""
        before = await self.version()
        snap = (await self.bot.store.get_snapshot(self.game_id)).state
        result = await member.slash(self.thread, command, **options)
        assert result.response is not None and result.response.ephemeral, result.response
        assert await self.version() == before
        assert (await self.bot.store.get_snapshot(self.game_id)).state == snap
        await self.assert_hands_secret()
        return result.response.content

    async def click(self, member: MemberActor, message: Any, label: str) -> simcord.InteractionResult:
        result = await member.click(message, label=label)
        await self.assert_hands_secret()
        return result

    async def react(self, member: MemberActor, message: Any, emoji: str = "🤝") -> None:
        await member.react(message, emoji)
        await self.assert_hands_secret()

    async def unreact(self, member: MemberActor, message: Any, emoji: str = "🤝") -> None:
        await member.unreact(message, emoji)
        await self.assert_hands_secret()

    # --- the bot's messages -------------------------------------------------------------------------------

    def status(self) -> discord.Message:
        found = [m for m in self.thread.history() if m.embeds and (m.embeds[0].title or "").startswith("Kohle")]
        assert len(found) == 1, "one status message, edited in place"
        return found[0]

    async def tracked(self, kind: str, key: str) -> discord.Message:
        ref = await self.bot.store.find_message_ref(self.game_id, kind, key=key)
        assert ref is not None, f"no {kind} message {key}"
        return next(m for m in self.thread.history() if m.id == ref.message_id)

    async def offer_message(self, offer_id: int, reopened: int | None = None) -> discord.Message:
        """The offer's message: its newest one (a reopened agreement gets a fresh message), or that of the
        `reopened`-th reopening."""
        if reopened is None:
            refs = await self.bot.store.message_refs(self.game_id, kind="kkk.offer")
            keys = [r.key for r in refs if r.key.split(".")[0] == str(offer_id)]
            reopened = max((int(k.split(".")[1]) if "." in k else 0) for k in keys)
        return await self.tracked("kkk.offer", offer_key(offer_id, reopened))

    async def window_message(self) -> discord.Message:
        """The message of the reaction window or last call that is open now."""
        state = await self.state()
        return await self.tracked("kkk.window", str(state.window))

    def texts(self) -> list[str]:
        """Every message anyone can read in the channel and the thread (content and embeds; no ephemeral ones)."""
        out = []
        for channel in (self.server.channel, self.thread):
            out += [embed_text(m) for m in channel.history() if not m.flags.ephemeral]
        return out

    def narration(self) -> str:
        return "\n".join(m.content for m in self.thread.history() if m.content and not m.flags.ephemeral)

    # --- secrets ------------------------------------------------------------------------------------------

    async def assert_hands_secret(self) -> None:
        """No message outside a player's own DM or ephemeral replies shows a card of their hand.

        For every seat, the rendered hand (the block its DM shows — the check first finds it there, so it looks for
        something real): it appears in no public message (channel and thread, content and embeds), and no other
        player's DM or ephemeral reply shows it, neither as their hand field nor inside any other text. No card code
        and no private wording ("You drew …") appears in public at all."""
        state = await self.state()
        public = self.texts()
        blocks = [hand_block(h) for h in state.hands]
        for seat, member in enumerate(self.players):
            block = blocks[seat]
            assert any(block in hand_fields(m) for m in dms(member)), f"{member.name}'s DM lacks their current hand"
            for text in public:
                assert block not in text, f"{member.name}'s hand is in a public message:\n{text}"
            for other_seat, other in enumerate(self.players):
                if other is member or blocks[other_seat] == block:
                    continue
                private = dms(other) + [m for m in self.thread.history(viewer=other) if m.flags.ephemeral]
                for m in private:
                    assert block not in hand_fields(m), f"{member.name}'s hand is shown to {other.name}"
                    assert block not in other_text(m), f"{member.name}'s hand is in a message to {other.name}"
        for text in public:
            assert not CODE.search(text), f"a card code in public: {text}"
            for phrase in PRIVATE_PHRASES:
                assert phrase not in text, f"private wording in public: {text}"


def hand_fields(message: discord.Message) -> list[str]:
    """The values of a message's hand fields (the DM's and `/game hand`'s "🃏 Your hand (n cards)")."""
    return [f.value or "" for e in message.embeds for f in e.fields if (f.name or "").startswith("🃏")]


def other_text(message: discord.Message) -> str:
    """Everything in a message except its hand fields."""
    parts = [message.content]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}: {f.value}" for f in e.fields if not (f.name or "").startswith("🃏")]
    return "\n".join(p for p in parts if p)


async def start(
    env: simcord.Env, names: tuple[str, ...] = ("anna", "bert", "cleo", "dave"), reaction_minutes: int = 5
) -> KkkTable:
    """A Kohle, Kies & Knete table started through the lobby, seats in join order (seed 12345)."""
    server = make_server(env, names)
    opener = server.members[0]
    opened = await opener.slash(
        server.channel, "game new", game="kkk", reaction_minutes=reaction_minutes, random_order=False
    )
    for m in server.members[1:]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    return KkkTable(server, await seat_players(server, 1))


async def prepare(table: KkkTable, state: KkkState, note: str) -> None:
    """Replace the game's state by a prepared one (see the module docstring), with its deadlines from now."""
    bot = table.bot
    store = bot.store
    record = await store.get_game(table.game_id)
    state.options = KkkOptions.model_validate(record.options)
    now = bot.clock()
    state.deadline = None
    refresh(state, now)
    snap = await store.get_snapshot(table.game_id)
    waits = KKK.waiting_on(state)
    timers = timing.plan(KKK, waits, {}, now, paused=False, reminders=bot.settings.reminders)
    items = [
        outbox.post(texts=[f"🧪 {note}"], awaits=[(w, w.until) for w in waits]),
        outbox.status(),
        *[outbox.hand(s) for s in range(state.seats)],
    ]
    await store.commit(
        table.game_id,
        snap.version,
        NewLogEntry.for_note(f"test: {note}", now),
        KKK.dump_state(state),
        timers=timers,
        outbox=[i for i in items if i is not None],
    )
    bot.scheduler.poke()
    await bot.notifier.flush(table.game_id)
    await table.env.settle()
