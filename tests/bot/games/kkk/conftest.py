"""Fixtures for the Kohle, Kies & Knete bot tests: the platform's fixtures with the real KKK engine and presentation."""

from collections.abc import Callable

import pytest

from bot.client import BoardroomBot
from engine import registry


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    """The bot hosting Kohle, Kies & Knete with its own presentation (`bot.games.kkk`), seeded (seed 12345)."""
    return make_bot(games={"kkk": registry.get("kkk")}, presentations={})
