"""Buttons are routed by registration (`bot.components`): every custom id the bot ever put on a message reaches
exactly one registered button class — discord.py runs every item whose template matches, so two would answer one
click twice — and the platform's keys reach their features, every other key the game's presentation."""

import pytest

from bot.client import BoardroomBot, create_bot
from bot.cogs.mod import UndoButton
from bot.components import button_class, custom_id, view_for
from bot.game_buttons import GAME_BUTTONS, DetailsButton, OwnButton
from bot.hand_answer import HandButton
from bot.help_answer import HelpButton
from bot.lobby_buttons import AddBotButton, AddBotLevelButton, JoinButton, LeaveButton, RemoveBotButton, StartButton
from bot.presentation import Button
from bot.rematch import RematchButton
from bot.settings import Settings

PLATFORM = {
    "join": JoinButton,
    "leave": LeaveButton,
    "start": StartButton,
    "addbot": AddBotButton,
    "addbot:easy": AddBotLevelButton,
    "addbot:normal": AddBotLevelButton,
    "addbot:hard": AddBotLevelButton,
    "dropbot": RemoveBotButton,
    "hand": HandButton,
    "help": HelpButton,
    "details": DetailsButton,
    "rematch": RematchButton,
    "modundo.12": UndoButton,
    "modundo.12.force": UndoButton,
}
GAMES_OWN = ["pass", "shake:3", "offer.7", "addbot:expert", "handy", "x", "joinx", "modundo", "a" * 64]
"""Keys of the games' own (as their presentations use them, and near misses of the platform's)."""


def _answering(cid: str) -> list[type]:
    bot: BoardroomBot = create_bot(Settings(token="x"))
    bot.add_dynamic_items(*GAME_BUTTONS)
    patterns = bot._connection._view_store._dynamic_items  # what discord.py matches a click against
    return [item for pattern, item in patterns.items() if pattern.fullmatch(cid)]


@pytest.mark.parametrize(("key", "route"), PLATFORM.items())
def test_each_platform_key_reaches_its_feature_alone(key: str, route: type) -> None:
    assert _answering(custom_id(7, key)) == [route]
    assert button_class(key) is route


@pytest.mark.parametrize("key", GAMES_OWN)
def test_every_other_key_is_the_games_own(key: str) -> None:
    assert _answering(custom_id(7, key)) == [OwnButton]
    assert button_class(key) is OwnButton


def test_a_forged_game_number_still_reaches_its_button() -> None:
    assert _answering("br:-1:join") == [JoinButton]
    assert _answering("br:99999999999999999999:pass") == [OwnButton]
    assert _answering("br:1:" + "a" * 65) == []  # no key that long was ever given


def test_a_view_carries_the_old_custom_ids() -> None:
    view = view_for(5, [Button("Join", "join"), Button("Pass", "pass"), Button("Undo it", "modundo.3", "danger")])
    assert [item.custom_id for item in view.children] == ["br:5:join", "br:5:pass", "br:5:modundo.3"]  # type: ignore[attr-defined]
    assert [type(item) for item in view.children] == [JoinButton, OwnButton, UndoButton]
