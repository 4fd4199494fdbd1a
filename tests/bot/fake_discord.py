"""A small local fake of Discord's REST API and gateway, over a real websocket on 127.0.0.1, for one smoke test.

It serves just what a login, a command sync and one slash command round trip need: `GET /users/@me` (401 for a
wrong token), the application, the command sync, the interaction callback, and a gateway that says HELLO, takes
IDENTIFY, sends READY and one GUILD_CREATE, acknowledges heartbeats, and can push an INTERACTION_CREATE. Every REST
call is recorded. Facts that matter (discord.py relies on them): JSON responses carry exactly
`Content-Type: application/json`; the callback is POSTed with `?with_response=1` and answers with
`{"interaction": …, "resource": …}`.
"""

import asyncio
import itertools
import json
from typing import Any

import yarl
from aiohttp import WSMsgType, web

BOT_ID = 900_000_000_000_000_001
APP_ID = 900_000_000_000_000_002
GUILD_ID = 900_000_000_000_000_003
CHANNEL_ID = 900_000_000_000_000_004
USER_ID = 900_000_000_000_000_005
NOW = "2026-01-01T00:00:00+00:00"


def _user(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "global_name": name, "discriminator": "0", "avatar": None, "bot": bot}


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class FakeDiscord:
    def __init__(self, token: str = "good-token") -> None:
        self.token = token
        self.calls: list[tuple[str, str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        self.callbacks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.identified = asyncio.Event()
        self._ids = itertools.count(950_000_000_000_000_000)
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ----------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/ws", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/ws")

    # --- REST ---------------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body = await request.json() if request.can_read_body else None
        self.calls.append((request.method, path, body))
        interaction = path.startswith("/interactions/") or path.startswith("/webhooks/")  # token in the path
        if not interaction and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        if request.method == "GET" and path == "/users/@me":
            return _json(_user(BOT_ID, "Boardroom", bot=True))
        if request.method == "GET" and path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "Boardroom",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": _user(USER_ID, "owner"),
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "summary": "",
                }
            )
        if request.method == "PUT" and path.startswith(f"/applications/{APP_ID}/") and path.endswith("/commands"):
            self.commands = [
                {**c, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1"} for c in body or []
            ]
            return _json(self.commands)
        if request.method == "POST" and path.startswith("/interactions/") and path.endswith("/callback"):
            await self.callbacks.put(body or {})
            data = (body or {}).get("data") or {}
            message = {
                "id": str(next(self._ids)),
                "channel_id": str(CHANNEL_ID),
                "type": 20,
                "content": data.get("content", ""),
                "author": _user(BOT_ID, "Boardroom", bot=True),
                "attachments": [],
                "embeds": data.get("embeds", []),
                "mentions": [],
                "mention_roles": [],
                "pinned": False,
                "mention_everyone": False,
                "tts": False,
                "timestamp": NOW,
                "edited_timestamp": None,
                "flags": data.get("flags", 0),
                "components": [],
            }
            interaction = {"id": path.split("/")[2], "type": 2, "response_message_id": message["id"]}
            return _json({"interaction": interaction, "resource": {"type": body["type"], "message": message}})
        return _json({"message": "Unknown route (fake)", "code": 0}, 404)

    # --- gateway ------------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            if frame["op"] == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif frame["op"] == 2:
                await self._dispatch("READY", self._ready())
                await self._dispatch("GUILD_CREATE", self._guild())
                self.identified.set()
        return ws

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None
        self._seq += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": _user(BOT_ID, "Boardroom", bot=True),
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": "fake-session",
            "resume_gateway_url": str(self.gateway),
            "application": {"id": str(APP_ID), "flags": 0},
        }

    def _guild(self) -> dict[str, Any]:
        return {
            "id": str(GUILD_ID),
            "name": "Smoke",
            "owner_id": str(USER_ID),
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": str(0x4_0000_0000 | 0x800 | 0x400),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [
                {"id": str(CHANNEL_ID), "type": 0, "name": "games", "position": 0, "permission_overwrites": []}
            ],
            "members": [{"user": _user(BOT_ID, "Boardroom", bot=True), "roles": [], "joined_at": NOW, "flags": 0}],
            "threads": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 2,
            "unavailable": False,
            "large": False,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
            "joined_at": NOW,
        }

    async def slash(self, name: str, options: list[dict[str, Any]]) -> None:
        """A member runs `/name` with these (nested) options."""
        command = next(c for c in self.commands if c["name"] == name)
        member = {
            "user": _user(USER_ID, "anna"),
            "roles": [],
            "permissions": "0",
            "joined_at": NOW,
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        await self._dispatch(
            "INTERACTION_CREATE",
            {
                "id": str(next(self._ids)),
                "application_id": str(APP_ID),
                "type": 2,
                "data": {"id": command["id"], "name": name, "type": 1, "options": options},
                "guild_id": str(GUILD_ID),
                "channel_id": str(CHANNEL_ID),
                "channel": {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "games"},
                "member": member,
                "token": "interaction-token",
                "version": 1,
                "app_permissions": "0",
                "locale": "en-US",
                "guild_locale": "en-US",
                "entitlements": [],
                "attachment_size_limit": 10 * 1024 * 1024,
                "authorizing_integration_owners": {},
                "context": 0,
            },
        )
