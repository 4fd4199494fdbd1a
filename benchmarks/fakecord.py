"""An in-process fake of Discord's REST API for benchmarks: no network, calls counted, optional delay and limits.

`FakeDiscord.install(bot)` replaces the bot's `HTTPClient.request` (through which every REST call of discord.py
goes, except interaction responses); `FakeInteraction` stands for an interaction, its response and follow-ups
going to the same fake; `FakeWebhooks` stands for the interaction webhook the bot makes from a token it stored (after
a restart it has the token, not the Interaction: `bot.notifier.tokens`), which Discord still honours for 15 minutes
from the interaction. Each call is counted by kind (`post`, `edit`, `dm_open`, `react`, `history`, `callback`,
`followup`, `token_edit`, …), takes `rtt` seconds, and with `limits` waits as Discord's rate limits make a bot
wait: 50 requests a second in all — the calls made with an interaction's token (its callback, its follow-ups, edits
of its messages) exempt, as they are in Discord — and per channel 5 new messages and 5 edits in any 5 seconds
(counting follow-ups and token edits too, which is stricter than Discord, whose limits for those are per token).
Waiting is first come, first served per bucket, like discord.py's own rate limiter.

With `keep_messages`, the fake keeps every message of every channel (the bot's posts, its interactions' answers and
follow-ups, and `chat` lines of other members) as Discord would: edits change them, deletes remove them, and the
bot reads them back (its history, a message fetched) as they are — what a restarted bot finds in its threads.
"""

import asyncio
import itertools
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import unquote

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

BOT_ID = 880_000_000_000_000_001
APPLICATION_ID = 880_000_000_000_000_002
TOKEN_LIFE = 15 * 60.0
"""Seconds an interaction's token lives (Discord's 15 minutes)."""
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
    keep_messages: bool = False

    def __post_init__(self) -> None:
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}
        """Channel id → message id → the message as Discord holds it (with `keep_messages`)."""
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self._global = Window(50, 1.0)
        self._channels: dict[tuple[int, str], Window] = {}
        self._dms: dict[int, int] = {}
        self._dm_ids: set[int] = set()
        self.targets: Counter[str] = Counter()
        """Posts, edits and reactions by where they go: a DM (hands) or a thread."""
        self.waited = 0.0
        self.why: Counter[str] = Counter()
        """Why each edit was spent (with `keep_messages`): by where (DM, thread) and its look, `unchanged` (the
        message already showed that), `superseded` (the same message edited again within 5 s: coalescible) or
        `needed`; and each reaction by emoji."""
        self._edited_at: dict[int, float] = {}
        self.sampling = False
        self.thread_edits: Counter[int] = Counter()
        """Rate-limited edits of each thread message."""
        self.by_token: set[int] = set()
        """Messages made with an interaction's token (an answer, a follow-up)."""
        self.tokens: dict[str, FakeInteraction] = {}
        """Every interaction's token → the interaction: what Discord knows of a token after the bot that received
        it restarted (a call with it through an interaction webhook: `FakeWebhooks`)."""

    def new_id(self) -> int:
        return next(self._ids)

    def install(self, bot: discord.Client) -> None:
        bot.http.request = self.request  # type: ignore[method-assign]
        # An interaction webhook made from a stored token (`discord.Webhook.partial(application id, token)`) calls
        # through discord.py's webhook adapter, not `HTTPClient.request`: this fake stands in for it (for the tasks
        # started from here on), and the bot knows its application id and has an (unused) session, as once logged in.
        bot._connection.application_id = APPLICATION_ID
        bot.http._HTTPClient__session = None  # type: ignore[attr-defined]
        async_context.set(FakeWebhooks(self))
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
            self.keep(int(channel), made)
            self.created(int(channel), int(made["id"]))
            return made
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            await self.call("edit", channel)
            self.explain(int(channel), int(params["message_id"]), body)
            return self.edited(int(channel), int(params["message_id"]), body)
        if method == "GET" and path == "/channels/{channel_id}/messages/{message_id}":
            await self.call("fetch", channel)
            return self.kept(int(channel), int(params["message_id"]))
        if method == "DELETE" and path == "/channels/{channel_id}/messages/{message_id}":
            await self.call("delete", channel)
            self.kept(int(channel), int(params["message_id"]))
            self.messages.get(int(channel), {}).pop(int(params["message_id"]), None)
            return None
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
            self.why[f"react {'DM' if int(channel) in self._dm_ids else 'thread'} {path.split('/reactions/')[1]}"] += 1
            return None
        if method == "GET" and path == "/channels/{channel_id}/messages":
            await self.call("history", channel)
            return self.history(int(channel), kwargs.get("params") or {})
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

    def explain(self, channel_id: int, message_id: int, body: dict[str, Any]) -> None:
        """Count why a (rate-limited) edit was spent: see `why`."""
        if not self.keep_messages:
            return
        where = "DM" if channel_id in self._dm_ids else "thread"
        if where == "thread":
            where += " (made by a command)" if message_id in self.by_token else " (the bot's post)"
        old = self.messages.get(channel_id, {}).get(message_id)
        now = time.perf_counter()
        last = self._edited_at.get(message_id)
        self._edited_at[message_id] = now
        if old is not None and all(
            (old.get(k) or ("" if k == "content" else [])) == (body[k] or ("" if k == "content" else []))
            for k in ("content", "embeds", "components")
            if k in body
        ):
            self.why[f"edit {where} unchanged"] += 1
        elif last is not None and now - last < 5.0:
            self.why[f"edit {where} within 5 s of the last"] += 1
        elif (
            where == "DM"
            and old is not None
            and _without_latest(old.get("embeds")) == _without_latest(body.get("embeds"))
        ):
            self.why["edit DM needed, only its Latest notes changed"] += 1
        elif "embeds" in body and not body["embeds"] and "content" not in body:
            self.why[f"edit {where} needed, the status taken off"] += 1
        else:
            look = "with an embed" if body.get("embeds") else "text only"
            self.why[f"edit {where} needed, {look}"] += 1
            if (
                os.environ.get("FAKECORD_SAMPLES")
                and self.sampling
                and look == "text only"
                and self.why["sampled"] < 12
            ):
                self.why["sampled"] += 1
                print("SAMPLE", where, repr((old or {}).get("content"))[:300], "->", repr(body.get("content"))[:300],
                      file=sys.stderr)  # fmt: skip
        if where.startswith("thread"):
            self.thread_edits[message_id] += 1

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

    # --- the messages Discord holds (`keep_messages`) ------------------------------------------------------

    def keep(self, channel_id: int, message: dict[str, Any]) -> None:
        if self.keep_messages:
            self.messages.setdefault(channel_id, {})[int(message["id"])] = message

    def answer(self, channel_id: int, message_id: int, body: dict[str, Any]) -> None:
        """A message made with an interaction's token (its answer, a follow-up)."""
        self.by_token.add(message_id)
        self.keep(channel_id, self.message(channel_id, body, message_id=message_id))

    def kept(self, channel_id: int, message_id: int) -> dict[str, Any]:
        """The message, or Discord's 404 (Unknown Message) when it is not there (only with `keep_messages`)."""
        found = self.messages.get(channel_id, {}).get(message_id)
        if found is not None:
            return found
        if self.keep_messages:
            raise discord.NotFound(_Response(404), {"code": 10008, "message": "Unknown Message"})
        return self.message(channel_id, {}, message_id=message_id)

    def edited(self, channel_id: int, message_id: int, body: dict[str, Any]) -> dict[str, Any]:
        if not self.keep_messages:
            return self.message(channel_id, body, message_id=message_id)
        message = self.kept(channel_id, message_id)
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] or ([] if key != "content" else "")
        if not message["content"] and not message["embeds"]:
            raise discord.HTTPException(_Response(400), {"code": 50006, "message": "Cannot send an empty message"})
        message["edited_timestamp"] = TIMESTAMP
        return message

    def history(self, channel_id: int, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The channel's messages newest first, as Discord answers: `limit` of them, before or after an id."""
        ids = sorted(self.messages.get(channel_id, {}), reverse=True)
        limit = int(params.get("limit", 50))
        if "before" in params:
            ids = [i for i in ids if i < int(params["before"])][:limit]
        elif "after" in params:
            ids = [i for i in ids if i > int(params["after"])][-limit:]
        else:
            ids = ids[:limit]
        return [self.messages[channel_id][i] for i in ids]

    def chat(self, channel_id: int, author: int) -> int:
        """Someone else's message in a thread (what the gateway would tell the bot): its id."""
        made = self.message(channel_id, {"content": "(chat)"})
        made["author"] = user_payload(author, f"user{author}")
        self.keep(channel_id, made)
        self.created(channel_id, int(made["id"]))
        return int(made["id"])

    def rate_limited_calls(self) -> int:
        return sum(n for kind, n in self.calls.items() if kind not in EXEMPT)


def _without_latest(embeds: Any) -> Any:
    """A hand's embeds without its "Latest" field (the notes of the move that changed it)."""
    return [{**e, "fields": [f for f in e.get("fields", []) if f.get("name") != "Latest"]} for e in embeds or []]


class _Response:
    """What discord.py's HTTP errors read of a response."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "fake"


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
            self._i.fake.keep(
                self._i.channel_id, self._i.fake.message(self._i.channel_id, _body(content, kwargs), message_id=made)
            )
            self._i.original = made
            self._i.fake.by_token.add(made)
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
    attachments: list[Any] = field(default_factory=list)

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
        self._i.fake.keep(
            self._i.channel_id, self._i.fake.message(self._i.channel_id, _body(content, kwargs), message_id=made)
        )
        self._i.fake.created(self._i.channel_id, made)
        self._i.fake.by_token.add(made)
        return _Followup(made, self._i.channel_id, self._i.fake)

    async def edit_message(self, message_id: int, **kwargs: Any) -> Any:
        await self._i.fake.call("token_edit", self._i.channel_id)
        if self._i.fake.keep_messages:
            self._i.fake.edited(self._i.channel_id, message_id, _body(kwargs.get("content", _KEEP), kwargs))
        return _Sent(message_id, id=message_id)


class FakeWebhooks(AsyncWebhookAdapter):
    """The interaction webhooks of tokens the bot holds without their Interaction (read back after a restart):
    an edit of a message the interaction made (`token_edit`) and a follow-up (`followup`), outside the global
    limit like any call with the token; a token older than 15 minutes, or unknown, is Discord's Unknown Webhook."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(  # type: ignore[override]
        self, route: Any, session: Any, *, payload: Any = None, multipart: Any = None, **kwargs: Any
    ) -> Any:
        interaction = self.fake.tokens.get(route.webhook_token)
        if interaction is None or time.perf_counter() - interaction.created > TOKEN_LIFE:
            raise discord.NotFound(_Response(404), {"code": 10015, "message": "Unknown Webhook"})
        body = payload or {}
        if multipart:
            import json

            body = next((json.loads(f["value"]) for f in multipart if f.get("name") == "payload_json"), {})
        rest = route.url.split(f"/{route.webhook_token}", 1)[1].split("?", 1)[0]
        channel = interaction.channel_id
        if route.method == "PATCH" and rest.startswith("/messages/"):
            target = unquote(rest.removeprefix("/messages/"))
            message_id = interaction.original if target == "@original" else int(target)
            await self.fake.call("token_edit", channel)
            if message_id is None or (self.fake.keep_messages and message_id not in self.fake.by_token):
                raise discord.NotFound(_Response(404), {"code": 10008, "message": "Unknown Message"})
            return self.fake.edited(channel, message_id, body)
        if route.method == "POST" and not rest:
            await self.fake.call("followup", channel)
            made = self.fake.message(channel, body)
            self.fake.keep(channel, made)
            self.fake.by_token.add(int(made["id"]))
            self.fake.created(channel, int(made["id"]))
            return made
        await self.fake.call(f"{route.method} /webhooks/…{rest}", channel)
        return None


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
        self.application_id = APPLICATION_ID
        self.token = f"fake-token-{fake.new_id()}"
        fake.tokens[self.token] = self
        self.answered_at: float | None = None
        self.original: int | None = None
        """The id of its public answer, once sent."""
        self.answered = asyncio.Event()
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)

    async def edit_original_response(self, **kwargs: Any) -> Any:
        """An edit of the command's answer, with its token."""
        await self.fake.call("token_edit", self.channel_id)
        if self.fake.keep_messages and self.original is not None:
            self.fake.edited(self.channel_id, self.original, _body(kwargs.get("content", _KEEP), kwargs))
        return None


_KEEP = object()
"""An edit without `content`: the message keeps its text."""


def _body(content: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A message's JSON as Discord would store it, from discord.py's keyword arguments (an interaction's)."""
    body: dict[str, Any] = {}
    if content is not _KEEP:
        body["content"] = "" if content is None else str(content)
    if "embed" in kwargs:
        body["embeds"] = [kwargs["embed"].to_dict()] if kwargs["embed"] is not None else []
    elif "embeds" in kwargs:
        body["embeds"] = [e.to_dict() for e in kwargs["embeds"] or []]
    if "view" in kwargs:
        body["components"] = kwargs["view"].to_components() if kwargs["view"] is not None else []
    return body
