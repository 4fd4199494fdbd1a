"""`python -m bot`'s start-up against Discord refusing it, through the real client and the local fake Discord: a
DEV_GUILD_ID of a server the bot isn't in (Discord answers the command sync with 403 / 50001) ends with one line
and exit code 2; any other Discord error while starting (e.g. a 5xx at login) with one line and exit code 1; and a
new bot application on the same data folder gets its commands synced."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from aiohttp import web

from bot.__main__ import run
from bot.client import BoardroomBot, create_bot
from bot.settings import Settings
from tests.bot.fake_discord import APP_ID, FakeDiscord, _json
from tests.bot.toygame import Toy

OTHER_GUILD = 123_456_789_012_345_678


class RefusingDiscord(FakeDiscord):
    """The fake Discord, answering a guild's command sync as Discord does for a server the bot isn't in, and taking
    a global sync for any application (the bot may say it is another one)."""

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        if request.method == "PUT" and path == f"/applications/{APP_ID}/guilds/{OTHER_GUILD}/commands":
            self.calls.append((request.method, path, None))
            return _json({"message": "Missing Access", "code": 50001}, 403)
        if request.method == "PUT" and path.startswith("/applications/") and path.endswith("/commands"):
            self.calls.append((request.method, path, None))
            self.commands = await request.json()
            app = path.split("/")[2]
            return _json(
                [{**c, "id": str(900 + i), "application_id": app, "version": "1"} for i, c in enumerate(self.commands)]
            )
        return await super()._rest(request)


@pytest.fixture
async def refusing(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[RefusingDiscord]:
    server = RefusingDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", server.gateway)
    yield server
    await server.stop()


def settings_for(tmp_path: Path, **values: object) -> Settings:
    return Settings(_env_file=None, discord_token="good-token", database_path=tmp_path / "db.sqlite3", **values)  # type: ignore[arg-type]


async def test_a_dev_guild_the_bot_is_not_in_is_one_line_and_exit_code_2(
    refusing: RefusingDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = await asyncio.wait_for(
        run(settings_for(tmp_path, dev_guild_id=OTHER_GUILD), games={"toy": Toy()}, guild_ready_timeout=0.05), 20
    )
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"Boardroom: Discord refused to register commands on DEV_GUILD_ID={OTHER_GUILD}: invite the bot to that "
        "server or clear DEV_GUILD_ID."
    ]
    assert ("PUT", f"/applications/{APP_ID}/guilds/{OTHER_GUILD}/commands", None) in refusing.calls
    assert not (tmp_path / "db.sqlite3.commands.sha256").exists()  # nothing recorded as synced


async def test_any_other_discord_error_while_starting_is_one_line_and_exit_code_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def down(self: BoardroomBot, token: str, *, reconnect: bool = True) -> None:
        response = SimpleNamespace(status=503, reason="Service Unavailable")
        raise discord.DiscordServerError(response, "upstream connect error")  # type: ignore[arg-type]

    monkeypatch.setattr(BoardroomBot, "start", down)
    code = await run(settings_for(tmp_path), games={"toy": Toy()})
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "Boardroom: Discord answered 503 (Service Unavailable: upstream connect error) while the bot was starting. "
        "Try again in a while."
    ]


async def test_a_new_application_on_the_same_data_folder_syncs_its_commands(
    refusing: RefusingDiscord, tmp_path: Path
) -> None:
    async def start_once(application_id: int | None) -> bool | None:
        options: dict[str, object] = {"guild_ready_timeout": 0.05}
        if application_id is not None:
            options["application_id"] = application_id
        bot = create_bot(settings_for(tmp_path), games={"toy": Toy()}, **options)
        task = asyncio.create_task(bot.start("good-token"))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            return bot.synced_commands
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)

    assert await start_once(None) is True  # the fake's application: first start, synced
    assert await start_once(None) is False  # same application, same commands: not again
    # Another application (as with a new bot's token) on the same database folder: synced for it.
    assert await start_once(APP_ID + 1) is True
    assert ("PUT", f"/applications/{APP_ID + 1}/commands", None) in refusing.calls
