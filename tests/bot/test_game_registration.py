"""Start-up finds each game's presentation by its engine name and refuses, in one line, a `bot/games/<game>/` without
a registered game or a registered game without its folder; every folder has the same layout."""

from pathlib import Path

import pytest

from bot import games as bot_games
from engine import registry
from engine.errors import RegistrationError

ROOT = Path(__file__).resolve().parents[2]


def test_start_up_refuses_a_presentation_without_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_games, "presentation_packages", lambda: ["chess", *registry.entries()])
    with pytest.raises(RegistrationError, match=r"^bot/games/chess/ has no game") as caught:
        bot_games.load_presentations(registry.entries())
    assert "\n" not in str(caught.value)


def test_start_up_refuses_a_game_without_a_presentation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_games, "presentation_packages", lambda: ["kkk", "casablanca", "schwarzmarkt"])
    with pytest.raises(RegistrationError, match=r"^engine/kesse_ruegen/ registers a game without a presentation"):
        bot_games.load_presentations(registry.entries())


def test_every_game_folder_has_the_same_layout() -> None:
    for name in registry.entries():
        folder = ROOT / "bot" / "games" / name
        for part in ("__init__.py", "presentation.py", "commands.py", "helps.py", "picture.py"):
            assert (folder / part).is_file(), f"bot/games/{name}/{part}"
