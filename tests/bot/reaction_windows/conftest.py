"""The platform's bot fixtures, hosting the two games with reaction windows (Casablanca, Kohle, Kies & Knete) and one
without (Kesse Rügen), each with its own presentation."""

from collections.abc import Callable

import pytest

from bot.client import BoardroomBot
from engine import registry


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={k: registry.get(k) for k in ("casablanca", "kkk", "kesse_ruegen")}, presentations={})
