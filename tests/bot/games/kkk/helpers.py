"""Helpers for the Kohle, Kies & Knete bot tests: a started table, prepared positions, and the checks of every step.

Every step a test takes through `KkkTable` — a command (`ok`, `refused`), a click, a 🤝 added or taken off, simulated
time (`advance`), an autocomplete request — ends with `KkkTable.check_step` (a test calls it itself after anything
else, e.g. a restart), which runs the secrecy checks of `secrecy` and the status check of `status_facts`:

1. the textual check on every message that is new or changed (no hand block, card code or private wording in
   public; no other player's hand in a DM or an ephemeral reply; each DM shows its owner's current hand);
2. the twin check: with every hand swapped for other cards of the same numbers (and the running money totals passed
   round), the status, the narration and the tracked posts of the log entries committed during the step render
   identically; with only the other seats' hands swapped, each seat's view and DM are identical;
3. every refusal of a player's action during the step gives the same reason on a twin: with the other seats' hands
   swapped — with every hand swapped when the table was told (a refused 🤝), and then the table's line too;
4. a refused command or click is sent again through Discord on a twin table (the other seats' hands swapped) and
   must get the same answer, word for word; an autocomplete request likewise (`autocomplete`), and
   `assert_suggestions_secret` does that for every seat and every `/kkk` option;
5. the status shows the state's facts (`status_facts.assert_status_shows`; `status_facts=False` turns it off).

`prepare(table, state)` writes a prepared engine state into the store the way the engine tests' `tables.py` prepares
one for the engine: one store commit (a log note, the snapshot, the timers that follow from it, and the status / hand
/ narration rows), then delivery. The log then no longer replays from the seed (`/mod verify` says so): a prepared
table is a test-only shortcut, and `test_seeded_game` plays a whole game without it.
"""

from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord import ChannelHandle, MemberActor
from simcord.results import to_discord_message

from bot import outbox
from bot import timers as timing
from bot.client import BoardroomBot
from bot.games.kkk.posts import offer_key
from engine import registry
from engine.kkk.options import KkkOptions
from engine.kkk.state import KkkState
from engine.kkk.waits import refresh
from storage import NewLogEntry
from tests.bot.games.kkk.secrecy import (
    CODE,
    PRIVATE_PHRASES,
    SecretProbe,
    TextCheck,
    TwinCount,
    assert_public_refusal_same,
    assert_public_same,
    assert_refusal_same,
    install_probe,
    swap_hands,
)
from tests.bot.games.kkk.status_facts import assert_status_shows
from tests.bot.helpers import Server, embed_text, make_server, seat_players, thread_of
from tests.bot.table_meter import TableMeter

KKK = registry.get("kkk")
__all__ = ["CODE", "OPTIONS", "PRIVATE_PHRASES", "KkkTable", "prepare", "start"]

OPTIONS = [
    ("kkk place", "space"),
    ("kkk clan", "family"),
    ("kkk offer", "family"),
    ("kkk withdraw", "offer"),
    ("kkk shake", "offer"),
    ("kkk unshake", "offer"),
    ("kkk travel", "family"),
    ("kkk recruit", "family"),
    ("kkk discard", "cards"),
    ("kkk close", "use"),
]
"""Every `/kkk` option that autocompletes."""


@dataclass
class KkkTable:
    server: Server
    players: list[MemberActor]
    """The members in seat order."""
    game_id: int = 1
    twins: TwinCount = field(default_factory=TwinCount)
    """How many twin comparisons had really different hands."""
    status_facts: bool = True
    """Whether each step also checks that the status shows the state's facts (`status_facts`)."""
    _seen_seq: int = 0
    _text: TextCheck | None = None
    _seen_refs: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    """Tracked messages looked up so far, (kind, key) → (channel, message): a window's reference is retired once it
    closes (`Post.settled`), and a test still reads what its message says then."""

    @property
    def env(self) -> simcord.Env:
        return self.server.env

    @property
    def bot(self) -> BoardroomBot:
        return self.server.bot

    @property
    def thread(self) -> ChannelHandle:
        return thread_of(self.server)

    @property
    def probe(self) -> SecretProbe:
        return install_probe(self.bot)

    def by_name(self, name: str) -> MemberActor:
        return next(p for p in self.players if p.name == name)

    async def state(self) -> KkkState:
        snap = await self.bot.store.games.snapshot(self.game_id)
        state = KKK.load_state(snap.state)
        assert isinstance(state, KkkState)
        return state

    async def version(self) -> int:
        return (await self.bot.store.games.get(self.game_id)).version

    # --- acting through Discord -------------------------------------------------------------------------

    async def ok(self, member: MemberActor, command: str, **options: Any) -> simcord.InteractionResult:
        """A `/kkk …` command that the game accepts: it moves the game on and its reply is public narration."""
        before = await self.version()
        result = await member.slash(self.thread, command, **options)
        reply = result.response
        assert reply is not None, f"/{command} got no reply"
        assert await self.version() > before, f"/{command} was refused: {reply.content}"
        await self.check_step()
        return result

    async def refused(self, member: MemberActor, command: str, **options: Any) -> str:
        """A command the game refuses: the reply is ephemeral, nothing changes, and the answer doesn't depend on
        another player's hand (see `_refusal_on_twin`)."""
        posted = self._public_count()
        result = await self._unchanged(lambda: member.slash(self.thread, command, **options))
        text = result.response.content
        told = self._public_count() > posted
        if not told:
            await self._refusal_on_twin(member, text, lambda: member.slash(self.thread, command, **options))
        await self.check_step(public_refusals=told)
        return text

    async def click(self, member: MemberActor, message: Any, label: str) -> simcord.InteractionResult:
        """A button; a refused click is checked like a refused command."""
        before, posted = await self.version(), self._public_count()
        result = await member.click(message, label=label)
        response = result.response
        told = self._public_count() > posted
        if await self.version() == before and response is not None and response.ephemeral and not told:
            await self._refusal_on_twin(member, response.content, lambda: member.click(message, label=label))
        await self.check_step(public_refusals=told)
        return result

    async def _refusal_on_twin(self, member: MemberActor, answer: str, act: Any) -> None:
        """The same command or click, sent again through Discord while the bot sees a twin table (only the other
        players' hands differ), gets the same answer word for word. A refusal the bot also told the table (a
        public line) is not sent twice: `check_step(public_refusals=True)` re-applies it with every hand swapped."""
        again = await self._on_twin(member, act)
        if again is not None:
            assert again.response is not None and again.response.content == answer, (
                f"a refusal depends on another player's secrets: {answer!r} vs "
                f"{again.response.content if again.response else None!r}"
            )

    def _public_count(self) -> int:
        return sum(
            not m.is_ephemeral
            for channel in (self.server.channel.id, self.thread.id)
            for m in self.env.backend.messages.get(channel, {}).values()
        )

    async def react(self, member: MemberActor, message: Any, emoji: str = "🤝") -> None:
        await member.react(message, emoji)
        await self.check_step(public_refusals=True)

    async def unreact(self, member: MemberActor, message: Any, emoji: str = "🤝") -> None:
        await member.unreact(message, emoji)
        await self.check_step(public_refusals=True)

    async def advance(self, seconds: float) -> None:
        """Simulated time passes (timers fire)."""
        await self.env.advance_time(seconds)
        await self.check_step()

    async def autocomplete(
        self, member: MemberActor, command: str, option: str, current: str, **filled: Any
    ) -> list[dict[str, Any]]:
        """A `/kkk` option's suggestions for `member`; they must be the same when only the others' hands differ."""
        got = await member.autocomplete(self.thread, command, option, current, **filled)
        again = await self._on_twin(
            member, lambda: member.autocomplete(self.thread, command, option, current, **filled)
        )
        if again is not None:
            assert again == got, (
                f"{member.name}'s suggestions for /{command} {option} depend on another player's secrets"
            )
            self.twins.suggestions += 1
        return got

    async def assert_suggestions_secret(self, currents: tuple[str, ...] = ("",)) -> None:
        """Every seat's suggestions for every `/kkk` option are the same when only the others' hands differ."""
        for member in self.players:
            for command, option in OPTIONS:
                for current in currents:
                    await self.autocomplete(member, command, option, current)

    async def _unchanged(self, act: Any) -> Any:
        before = await self.version()
        snap = (await self.bot.store.games.snapshot(self.game_id)).state
        result = await act()
        assert result.response is not None and result.response.ephemeral, result.response
        assert await self.version() == before
        assert (await self.bot.store.games.snapshot(self.game_id)).state == snap
        return result

    async def _on_twin(self, member: MemberActor, act: Any) -> Any:
        """`act()` again while the bot sees a twin table in which only the other players' hands differ (nothing
        is committed: see `SecretProbe`); None when there is no such twin (no other hand could change, or `member`
        plays no seat)."""
        if member not in self.players:
            return None
        seat = self.players.index(member)
        state = await self.state()
        others = [s for s in range(state.seats) if s != seat]
        if swap_hands(state, others) is None:
            return None
        before = await self.version()
        probe = self.probe
        probe.twin = lambda st: swap_hands(st, others) or st
        try:
            result = await act()
        finally:
            probe.twin = None
        assert await self.version() == before, "a move on the twin table was committed"
        return result

    # --- the secrecy checks ------------------------------------------------------------------------------

    async def check_step(self, *, public_refusals: bool = False) -> None:
        """The secrecy checks of the module docstring, for everything since the last step."""
        probe = self.probe
        table = await self.bot.service.read.table(self.game_id)
        state = table.state
        if state is None:
            return
        assert isinstance(state, KkkState)
        if self._text is None:
            channels = [self.server.channel.id, self.thread.id]
            self._text = TextCheck(self.env, channels, self.players)
        self._text.check(state.hands)
        if self.status_facts and state.phase != "over" and table.record.status == "active":
            assert_status_shows(embed_text(self.status()), state, table.names)
        entries = await self.bot.store.log.entries(self.game_id, after=self._seen_seq)
        if entries:
            self._seen_seq = entries[-1].seq
        presentation = self.bot.service.read.presentation("kkk")
        assert_public_same(presentation, table, entries, self.twins)
        refusals, probe.refusals[:] = probe.refusals[:], []
        for refused in refusals:
            seats = range(state.seats) if public_refusals else [s for s in range(state.seats) if s != refused.seat]
            assert_refusal_same(probe, refused, seats, self.twins)
            if public_refusals:
                assert_public_refusal_same(presentation, table, refused, self.twins)

    async def assert_hands_secret(self) -> None:
        """The secrecy checks (kept under this name for the tests that call it between steps)."""
        await self.check_step()

    # --- the bot's messages -------------------------------------------------------------------------------

    def message(self, channel_id: int, message_id: int) -> discord.Message:
        """One message, read straight from SimCord's backend (`history()` converts every message of a channel)."""
        return to_discord_message(self.env, self.env.backend.messages[channel_id][message_id])

    def status(self) -> discord.Message:
        found = [
            m
            for m in self.env.backend.messages.get(self.thread.id, {}).values()
            if m.embeds and str(m.embeds[0].get("title") or "").startswith("Kohle") and not m.is_ephemeral
        ]
        assert len(found) == 1, "one status message, edited in place"
        return self.message(self.thread.id, found[0].id)

    async def details(self, member: MemberActor | None = None) -> str:
        """The status's Details button, as a player (or onlooker) clicks it: the whole table, privately."""
        clicked = await (member or self.players[0]).click(self.status(), label="Details")
        reply = clicked.response
        assert reply is not None and reply.ephemeral, "the details are private to whoever asked"
        return embed_text(reply.message)

    async def tracked(self, kind: str, key: str) -> discord.Message:
        ref = await self.bot.store.refs.find(self.game_id, kind, key=key)
        if ref is not None:
            self._seen_refs[(kind, key)] = (ref.channel_id, ref.message_id)
        seen = self._seen_refs.get((kind, key))
        assert seen is not None, f"no {kind} message {key}"
        return self.message(*seen)

    async def offer_message(self, offer_id: int, reopened: int | None = None) -> discord.Message:
        """The offer's message: its newest one (a reopened agreement gets a fresh message), or that of the
        `reopened`-th reopening."""
        if reopened is None:
            refs = await self.bot.store.refs.of_game(self.game_id, kind="kkk.offer")
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


async def start(
    env: simcord.Env,
    names: tuple[str, ...] = ("anna", "bert", "cleo", "dave"),
    reaction_minutes: int = 5,
    meter: TableMeter | None = None,
) -> KkkTable:
    """A Kohle, Kies & Knete table started through the lobby, seats in join order (seed 12345); `meter` counts each
    step of the lobby too."""
    server = make_server(env, names)
    install_probe(server.bot)
    opener = server.members[0]

    async def counted(member: MemberActor) -> None:
        if meter is not None:
            await meter.step(member.id)

    opened = await opener.slash(
        server.channel, "game new", game="kkk", reaction_minutes=reaction_minutes, random_order=False
    )
    await counted(opener)
    for m in server.members[1:]:
        await m.click(opened.response, label="Join")
        await counted(m)
    await opener.click(opened.response, label="Start")
    await counted(opener)
    return KkkTable(server, await seat_players(server, 1))


async def prepare(table: KkkTable, state: KkkState, note: str) -> None:
    """Replace the game's state by a prepared one (see the module docstring), with its deadlines from now."""
    bot = table.bot
    store = bot.store
    record = await store.games.get(table.game_id)
    state.options = KkkOptions.model_validate(record.options)
    now = bot.clock()
    state.deadline = None
    refresh(state, now)
    snap = await store.games.snapshot(table.game_id)
    waits = KKK.waiting_on(state)
    timers = timing.plan(KKK, waits, {}, now, paused=False, reminders=bot.settings.reminders)
    items = [
        outbox.post(texts=[f"🧪 {note}"], awaits=[(w, w.until) for w in waits]),
        outbox.status(),
        *[outbox.hand(s) for s in range(state.seats)],
    ]
    await store.games.commit(
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
