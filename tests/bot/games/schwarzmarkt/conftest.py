"""The platform's bot fixtures, hosting Schwarzmarkt with its own presentation (found in `bot/games/schwarzmarkt`)."""

from collections.abc import Callable

import pytest

from bot.client import BoardroomBot
from engine import registry


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={"schwarzmarkt": registry.get("schwarzmarkt")}, presentations={})
