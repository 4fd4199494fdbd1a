"""Fixtures for the platform tests: a bot hosting the test-only toy game on a temporary database, in SimCord."""

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import BoardroomBot, create_bot
from bot.settings import Settings
from tests.bot.toy_presentation import ToyPresentation
from tests.bot.toygame import Toy


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "boardroom.sqlite3"


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(_env_file=None, discord_token="test-token", database_path=db_path)  # type: ignore[call-arg]


@pytest.fixture
def make_bot(settings: Settings) -> Callable[..., BoardroomBot]:
    made: list[BoardroomBot] = []

    def make(**kwargs: Any) -> BoardroomBot:
        kwargs.setdefault("games", {"toy": Toy()})
        kwargs.setdefault("presentations", {"toy": ToyPresentation()})
        kwargs.setdefault("seed_source", lambda: 12345)
        bot = create_bot(kwargs.pop("settings", settings), **kwargs)
        made.append(bot)
        return bot

    make.made = made  # type: ignore[attr-defined]
    return make


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot()


@pytest.fixture
async def env(simcord_env: simcord.Env, make_bot: Callable[..., BoardroomBot]) -> AsyncIterator[simcord.Env]:
    yield simcord_env
    await simcord_env.settle()
    for bot in make_bot.made:  # type: ignore[attr-defined]
        bot.scheduler.close()
        bot.housekeeper.close()
        bot.digests.close()
        bot.notifier.close()
        if bot.http_port is not None:  # HTTP_PORT set (tests/bot/test_http_port.py)
            await bot.http_port.close()
        if bot._store is not None:
            await bot._store.close()
