"""The real client over a real websocket: login, command sync and one slash command against a local fake Discord.

Plus `python -m bot`'s start-up failures: a missing or rejected token and a database file the store refuses (exit
code 2: configuration errors, not restarted by systemd), each with one line on stderr and no traceback.
"""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot import metrics
from bot.__main__ import run
from bot.client import create_bot
from bot.settings import Settings
from tests.bot.fake_discord import FakeDiscord
from tests.bot.toygame import Toy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", server.gateway)
    yield server
    await server.stop()


def settings_for(tmp_path: Path, token: str = "good-token") -> Settings:
    return Settings(_env_file=None, discord_token=token, database_path=tmp_path / "db.sqlite3")  # type: ignore[call-arg]


def rest_calls(method: str, status: str) -> float:
    """`boardroom_rest_calls_total` as /metrics shows it (bot.metrics counts every REST request through discord.py's
    `http_trace`)."""
    text = metrics.rendered()[0].decode()  # type: ignore[index]
    name = f'boardroom_rest_calls_total{{method="{method}",status="{status}"}} '
    return next((float(x.split()[-1]) for x in text.splitlines() if x.startswith(name)), 0.0)


async def test_login_sync_and_one_slash_command_over_a_websocket(fake: FakeDiscord, tmp_path: Path) -> None:
    gets = rest_calls("GET", "200")
    bot = create_bot(settings_for(tmp_path), games={"toy": Toy()}, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start("good-token"))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert {c["name"] for c in fake.commands} == {"game", "me", "mine", "mod"}
        assert bot.synced_commands is True
        await fake.slash(
            "game", [{"name": "rules", "type": 1, "options": [{"name": "game", "type": 3, "value": "toy"}]}]
        )
        callback = await asyncio.wait_for(fake.callbacks.get(), 5)
        assert callback["type"] == 4
        (embed,) = callback["data"]["embeds"]  # the rules as an embed page
        assert embed["title"] == "Toy — Rules" and "2–5 players" in embed["footer"]["text"]
        assert callback["data"]["flags"] & 64  # ephemeral
        assert ("GET", "/users/@me", None) in fake.calls
        assert rest_calls("GET", "200") >= gets + 1  # the real HTTP client's requests are counted
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)

    # A second start with unchanged commands does not sync again.
    fake.commands = []
    again = create_bot(settings_for(tmp_path), games={"toy": Toy()}, guild_ready_timeout=0.05)
    task = asyncio.create_task(again.start("good-token"))
    try:
        await asyncio.wait_for(again.wait_until_ready(), 10)
        assert again.synced_commands is False and fake.commands == []
    finally:
        await again.close()
        await asyncio.wait_for(task, 5)


async def test_a_rejected_token_is_one_line_and_exit_code_2(
    fake: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = await run(settings_for(tmp_path, token="wrong"), games={"toy": Toy()})
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [err[0]] and "Discord rejected the token in DISCORD_TOKEN" in err[0]


async def test_a_corrupt_database_is_one_line_and_nonzero(
    fake: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "db.sqlite3").write_bytes(b"this is not a database, just some text" * 100)
    code = await run(settings_for(tmp_path), games={"toy": Toy()}, guild_ready_timeout=0.05)
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the database cannot be used" in err[0] and "db.sqlite3" in err[0]


async def test_a_database_from_a_newer_boardroom_is_refused_before_login(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    from storage import open_store

    store = await open_store(tmp_path / "db.sqlite3")
    await store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        conn.execute("PRAGMA user_version = 999")
    # No fake Discord at all: the database is checked before the bot logs in.
    code = await run(settings_for(tmp_path), games={"toy": Toy()})
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "schema version 999" in err[0] and "newer Boardroom" in err[0]


def test_python_m_bot_without_a_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "Boardroom: DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it."
    )
    assert "Traceback" not in done.stdout + done.stderr


def test_the_bot_process_tunes_the_interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m bot` sets the collector and the switch interval (bot.runtime) before it runs; `run`, which the
    tests call, does not."""
    import bot.__main__ as entry

    calls: list[str] = []
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setattr(entry.runtime, "tune", lambda: calls.append("tune"))

    async def fake_run(settings: Settings) -> int:
        calls.append("run")
        return 0

    monkeypatch.setattr(entry, "run", fake_run)
    assert entry.main() == 0
    assert calls == ["tune", "run"]
