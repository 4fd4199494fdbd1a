"""An in-process fake of Discord's REST API for benchmarks: no network, calls counted, optional delay and limits.

`FakeDiscord.install(bot)` replaces the bot's `HTTPClient.request` (through which every REST call of discord.py
goes, except interaction responses); `FakeInteraction` stands for an interaction, its response and follow-ups
going to the same fake. Each call is counted by kind (`post`, `edit`, `dm_open`, `react`, `history`, `callback`,
`followup`, `token_edit`, …), takes `rtt` seconds, and with `limits` waits as Discord's rate limits make a bot
wait: 50 requests a second in all — the calls made with an interaction's token (its callback, its follow-ups, edits
of its messages) exempt, as they are in Discord — and per channel 5 new messages and 5 edits in any 5 seconds
(counting follow-ups and token edits too, which is stricter than Discord, whose limits for those are per token).
Waiting is first come, first served per bucket, like discord.py's own rate limiter.
"""

import asyncio
import itertools
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

BOT_ID = 880_000_000_000_000_001
TIMESTAMP = "2026-01-01T00:00:00+00:00"
EXEMPT = ("callback", "followup", "token_edit")
"""Calls made with the interaction's token: outside the bot's global limit."""
WINDOWS = {"post": "post", "followup": "post", "edit": "edit", "token_edit": "edit"}
"""The per-channel window (new messages, edits) each kind of call counts in."""


def user_payload(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "global_name": name, "discriminator": "0", "avatar": None, "bot": bot}


class Window:
    """At most `limit` calls in any `per` seconds; callers wait in order."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit = limit
        self.per = per
        self.sent: deque[float] = deque()
        self.lock = asyncio.Lock()

    async def take(self) -> float:
        """Wait for a slot; returns the seconds waited."""
        async with self.lock:
            waited = 0.0
            while True:
                now = time.perf_counter()
                while self.sent and now - self.sent[0] >= self.per:
                    self.sent.popleft()
                if len(self.sent) < self.limit:
                    self.sent.append(now)
                    return waited
                delay = self.sent[0] + self.per - now
                waited += delay
                await asyncio.sleep(delay)


@dataclass
class Call:
    kind: str
    channel: int | None
    at: float
    waited: float


@dataclass
class FakeDiscord:
    rtt: float = 0.0
    limits: bool = False
    calls: Counter[str] = field(default_factory=Counter)
    log: list[Call] = field(default_factory=list)
    keep_log: bool = False
    on_call: Callable[[Call], None] | None = None
    on_message: Callable[[int, int], None] | None = None

    def __post_init__(self) -> None:
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self._global = Window(50, 1.0)
        self._channels: dict[tuple[int, str], Window] = {}
        self._dms: dict[int, int] = {}
        self._dm_ids: set[int] = set()
        self.targets: Counter[str] = Counter()
        """Posts, edits and reactions by where they go: a DM (hands) or a thread."""
        self.waited = 0.0

    def new_id(self) -> int:
        return next(self._ids)

    def install(self, bot: discord.Client) -> None:
        bot.http.request = self.request  # type: ignore[method-assign]
        saw = getattr(getattr(bot, "notifier", None), "saw_message", None)
        if saw is not None:
            self.on_message = saw

    def created(self, channel_id: int, message_id: int) -> None:
        """A new message: the gateway tells the bot a moment later (MESSAGE_CREATE), as Discord does, so the
        notifier knows what is the thread's newest message and how deep the status sits."""
        if self.on_message is not None:
            asyncio.get_running_loop().call_soon(self.on_message, channel_id, message_id)

    # --- the REST chokepoint ------------------------------------------------------------------------------

    async def request(self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        method, path = route.method, route.path
        params = _params(path, route.url)
        channel = params.get("channel_id")
        body = kwargs.get("json") or {}
        if form is not None:  # a multipart upload (a picture): the JSON part holds the message
            import json

            body = next((json.loads(f["value"]) for f in form if f.get("name") == "payload_json"), {})
        if method == "POST" and path == "/channels/{channel_id}/messages":
            await self.call("post", channel)
            made = self.message(int(channel), body)
            self.created(int(channel), int(made["id"]))
            return made
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            await self.call("edit", channel)
            return self.message(int(channel), body, message_id=int(params["message_id"]))
        if method == "POST" and path == "/users/@me/channels":
            await self.call("dm_open", None)
            recipient = int(body["recipient_id"])
            dm = self._dms.setdefault(recipient, self.new_id())
            self._dm_ids.add(dm)
            return {"id": str(dm), "type": 1, "recipients": [user_payload(recipient, f"user{recipient}")]}
        if "/reactions/" in path:
            if method == "GET":  # who reacted: nobody (the benchmarks give no reactions while the bot is away)
                await self.call("reactions_read", channel)
                return []
            await self.call("react", channel)
            return None
        if method == "GET" and path == "/channels/{channel_id}/messages":
            await self.call("history", channel)
            return []
        await self.call(f"{method} {path}", channel)
        return None

    async def call(self, kind: str, channel: Any) -> None:
        waited = 0.0
        if self.limits:
            bucket = WINDOWS.get(kind)
            if bucket is not None and channel is not None:
                window = self._channels.get((int(channel), bucket))
                if window is None:
                    window = self._channels[(int(channel), bucket)] = Window(5, 5.0)
                waited += await window.take()
            if kind not in EXEMPT:
                waited += await self._global.take()
        if self.rtt:
            await asyncio.sleep(self.rtt)
        self.calls[kind] += 1
        if kind in ("post", "edit", "react", "followup", "token_edit"):
            self.targets[f"{kind} {'DM' if channel is not None and int(channel) in self._dm_ids else 'thread'}"] += 1
        self.waited += waited
        call = Call(kind, None if channel is None else int(channel), time.perf_counter(), waited)
        if self.keep_log:
            self.log.append(call)
        if self.on_call is not None:
            self.on_call(call)

    def message(self, channel_id: int, body: dict[str, Any], *, message_id: int | None = None) -> dict[str, Any]:
        return {
            "id": str(message_id or self.new_id()),
            "channel_id": str(channel_id),
            "author": user_payload(BOT_ID, "Boardroom", bot=True),
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "tts": False,
            "type": 0,
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "flags": 0,
            "components": body.get("components") or [],
        }

    def rate_limited_calls(self) -> int:
        return sum(n for kind, n in self.calls.items() if kind not in EXEMPT)


def _params(template: str, url: str) -> dict[str, str]:
    """The route's parameters read back from its URL (`/channels/{channel_id}/messages/{message_id}` …)."""
    parts = template.strip("/").split("/")
    values = url.split("?", 1)[0].rstrip("/").split("/")[-len(parts) :]
    return {p[1:-1]: v for p, v in zip(parts, values, strict=False) if p.startswith("{")}


# --- interactions -----------------------------------------------------------------------------------------


@dataclass
class _Sent:
    message_id: int | None
    resource: Any = None
    id: int | None = None


class FakeResponse:
    def __init__(self, interaction: "FakeInteraction") -> None:
        self._i = interaction
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def _callback(self) -> None:
        if self._done:
            raise discord.InteractionResponded(self._i)  # type: ignore[arg-type]
        self._done = True
        await self._i.fake.call("callback", self._i.channel_id)
        self._i.answered_at = time.perf_counter()
        self._i.answered.set()

    async def send_message(self, content: Any = None, **kwargs: Any) -> _Sent:
        await self._callback()
        made = self._i.fake.new_id()
        if not kwargs.get("ephemeral"):
            self._i.fake.created(self._i.channel_id, made)
        return _Sent(made)

    async def defer(self, **kwargs: Any) -> None:
        await self._callback()

    async def edit_message(self, **kwargs: Any) -> _Sent:
        await self._callback()
        return _Sent(self._i.message.id if self._i.message else None)


@dataclass
class _Followup:
    """A follow-up message (what discord.py's `WebhookMessage` offers the bot: its id, adding a reaction)."""

    id: int
    channel_id: int
    fake: FakeDiscord

    async def add_reaction(self, emoji: Any) -> None:
        await self.fake.call("react", self.channel_id)


class FakeFollowup:
    def __init__(self, interaction: "FakeInteraction") -> None:
        self._i = interaction

    async def send(self, content: Any = None, **kwargs: Any) -> Any:
        await self._i.fake.call("followup", self._i.channel_id)
        if kwargs.get("ephemeral") or not kwargs.get("wait"):
            return None
        made = self._i.fake.new_id()
        self._i.fake.created(self._i.channel_id, made)
        return _Followup(made, self._i.channel_id, self._i.fake)

    async def edit_message(self, message_id: int, **kwargs: Any) -> Any:
        await self._i.fake.call("token_edit", self._i.channel_id)
        return _Sent(message_id, id=message_id)


class FakeChannel:
    """The thread a command is used in (what `bot.resolve` looks at)."""

    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.type = discord.ChannelType.public_thread


class FakeUser:
    def __init__(self, user_id: int, name: str) -> None:
        self.id = user_id
        self.display_name = name
        self.name = name
        self.bot = False


class FakeInteraction:
    """A slash command used in a game's thread: just what the bot's command path reads and answers with."""

    type = discord.InteractionType.application_command
    message = None

    def __init__(
        self, fake: FakeDiscord, user: FakeUser, guild_id: int, thread_id: int, created_at: datetime | None = None
    ) -> None:
        self.fake = fake
        self.user = user
        self.guild_id = guild_id
        self.channel_id = thread_id
        self.channel = FakeChannel(thread_id)
        self.namespace = discord.app_commands.Namespace.__new__(discord.app_commands.Namespace)
        self.created = time.perf_counter()
        self.created_at = created_at
        self.answered_at: float | None = None
        self.answered = asyncio.Event()
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)

    async def edit_original_response(self, **kwargs: Any) -> Any:
        """An edit of the command's answer, with its token."""
        await self.fake.call("token_edit", self.channel_id)
        return None
