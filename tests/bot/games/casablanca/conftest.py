"""The platform's bot fixtures, hosting Casablanca with its own presentation (found in `bot/games/casablanca`)."""

from collections.abc import Callable

import pytest

from bot.client import BoardroomBot
from engine import registry


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={"casablanca": registry.get("casablanca")}, presentations={})
