"""How loud and how clear a table is for its players, measured over whole games through SimCord (issue 26's table).

A `TableMeter` watches everything SimCord holds — the lobby channel, the game's thread, every DM — and after each
step of a game (a player's command, click or reaction, or a deadline passing) counts:

- new public messages (in any channel but a DM; an ephemeral answer is private and doesn't count);
- self-pings: new public messages that ping the player who made the step (Discord notifies on a message's creation
  only, so an edit pings nobody) — except in the step that ends the game, whose final message pings everyone;
- prompts: a seat newly awaited — the platform's own rule (`bot.service.commit.announcements`): awaited for a kind and
  a `what` it was not awaited for just before — other than the player who made the step (they know). A prompt
  reaches its player when, in the same step, a new public message pinged them or a new DM was sent to them; the
  others are `unprompted`, with what they were awaited for;
- the status's size: its embed's text in lines (the description and the fields: the title is its heading, the footer
  small print) and characters (all of it), the largest seen.

`Figures.assert_quiet` holds the goals every seeded whole-game test asserts (issue 26).
"""

import os
from dataclasses import dataclass, field

import simcord

from bot import outbox
from bot.client import BoardroomBot
from engine.events import Wait

PER_STEP = 0.5
"""The goal: at most half a new public message per step."""
DM_CHANNEL = 1
"""Discord's channel type of a DM."""
STATUS_LINES = 15
"""At most this many lines of text beside the status's picture (and at most `STATUS_CHARS` characters, which also
bounds how much the lines wrap): with it, one phone screen."""
STATUS_CHARS = 1000


@dataclass
class Figures:
    steps: int = 0
    new_messages: int = 0
    self_pings: int = 0
    prompts: int = 0
    unprompted: list[str] = field(default_factory=list)
    status_lines: int = 0
    status_chars: int = 0
    self_pinged: list[str] = field(default_factory=list)

    @property
    def per_step(self) -> float:
        return self.new_messages / max(self.steps, 1)

    def row(self) -> str:
        return (
            f"{self.per_step:.2f} new public messages per step ({self.new_messages}/{self.steps}), "
            f"{self.self_pings} self-pings, {len(self.unprompted)} of {self.prompts} prompts unpinged, "
            f"status {self.status_lines} lines / {self.status_chars} characters"
        )

    def assert_quiet(self, per_step: float = PER_STEP) -> None:
        """Issue 26's goals: a quiet thread (at most half a new public message per step), nobody pinged for their
        own step, every prompt reaching its player, and a status that fits one phone screen beside its picture.
        `per_step`: a game that does not yet meet the first goal is held to its measured figure (see its test)."""
        assert self.per_step <= per_step, self.row()
        assert self.self_pings == 0, self.self_pinged[:5]
        assert self.unprompted == [], self.unprompted[:5]
        assert self.status_lines <= STATUS_LINES and self.status_chars <= STATUS_CHARS, self.row()


def newly_awaited(before: list[Wait], after: list[Wait]) -> list[tuple[int, Wait]]:
    """(seat, wait) for each seat awaited now for a kind and `what` it wasn't awaited for just before."""
    out = []
    for wait in after:
        known = {s for old in before if old.kind == wait.kind and old.what == wait.what for s in old.seats}
        out += [(s, wait) for s in wait.seats if s not in known]
    return out


class TableMeter:
    """Counts `Figures` step by step; `start` it before the first step (before `/game new` to count the lobby)."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.figures = Figures()
        self.seen = {(c, m) for c, messages in env.backend.messages.items() for m in messages}
        self.waits: list[Wait] = []
        self.game_id: int | None = None

    @property
    def bot(self) -> BoardroomBot:
        return self.env.bot  # type: ignore[return-value]

    def _dm(self, channel_id: int) -> bool:
        return getattr(self.env.backend.channels.get(channel_id), "type", None) == DM_CHANNEL

    async def step(self, actor: int | None) -> None:
        """One step made by user `actor` (None: a deadline passed)."""
        f = self.figures
        new_public, new_dms = [], []
        for channel_id, messages in self.env.backend.messages.items():
            for mid, m in messages.items():
                if (channel_id, mid) in self.seen:
                    continue
                self.seen.add((channel_id, mid))
                if self._dm(channel_id):
                    new_dms.append((self.env.backend.channels[channel_id].recipient_ids, m))
                elif not m.is_ephemeral:
                    new_public.append(m)
        f.steps += 1
        f.new_messages += len(new_public)
        if os.environ.get("METER_DUMP"):  # a reading aid: what each step posted
            for m in new_public:
                print(f"[{f.steps} by {actor}] pings={sorted(m.ping_user_ids)} :: {m.content[:160]!r}")
        pinged = {u for m in new_public for u in m.ping_user_ids}
        if self.game_id is None:
            games = await self.bot.store.games.find()
            self.game_id = games[-1].id if games else None
        if self.game_id is None:
            return
        table = await self.bot.service.read.table(self.game_id)
        over = table.state is not None and (table.result is not None or table.record.status != "active")
        if actor is not None and not over:
            for m in new_public:
                if actor in m.ping_user_ids:
                    f.self_pings += 1
                    f.self_pinged.append(m.content[:200])
        waits = list(table.waits) if table.state is not None and not over else []
        users = {s.seat: s.player_id for s in table.seats if s.player_id is not None and not s.autopilot}
        dmed = {u for recipients, _ in new_dms for u in recipients}
        for seat, wait in newly_awaited(self.waits, waits):
            user = users.get(seat)
            if user is None or user == actor:
                continue
            f.prompts += 1
            if user not in pinged and user not in dmed:
                f.unprompted.append(f"{table.names[seat]}: {table.render(wait.what)} (step {f.steps})")
        self.waits = waits
        await self._status_size()

    async def _status_size(self) -> None:
        assert self.game_id is not None
        ref = await self.bot.store.refs.find(self.game_id, outbox.STATUS)
        if ref is None:
            return
        stored = self.env.backend.messages.get(ref.channel_id, {}).get(ref.message_id)
        if stored is None or not stored.embeds:
            return
        embed = stored.embeds[0]
        parts = [embed.get("description") or ""]
        parts += [f"{x.get('name', '')}\n{x.get('value', '')}" for x in embed.get("fields") or []]
        body = "\n".join(p for p in parts if p)
        small = [embed.get("title") or "", (embed.get("footer") or {}).get("text") or ""]
        f = self.figures
        f.status_lines = max(f.status_lines, len(body.splitlines()))
        f.status_chars = max(f.status_chars, len(body) + sum(len(x) + 1 for x in small if x))
