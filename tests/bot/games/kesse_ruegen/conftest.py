"""The platform's bot fixtures, hosting Kesse Rügen with its own presentation (found in `bot/games/kesse_ruegen`)."""

from collections.abc import Callable

import pytest

from bot.client import BoardroomBot
from engine import registry


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={})
