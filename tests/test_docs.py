"""The README and `.env.example` say what the code does: every game hosted, every game-data file a server owner may
replace, every gateway intent the bot asks for, every setting once."""

import re
from pathlib import Path

import pytest

from bot.client import default_intents
from bot.settings import Settings
from engine import registry

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ENV_EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")

INTENT_NAMES = {
    "guilds": "Guilds",
    "guild_reactions": "Guild Message Reactions",
    "guild_messages": "Guild Messages",
}
"""discord.py's flag → the name the README uses (Discord's documentation's)."""


def test_the_readme_opens_with_every_game_the_bot_hosts() -> None:
    opening = README.split("\n## ", 1)[0]
    for game in registry.games().values():
        assert game.title in opening, game.title
    assert "are next" not in opening


def readme_data_tree() -> set[str]:
    """The `<game>/<file>` paths drawn in the README's GAME_DATA_DIR tree."""
    block = README.split("```\nGAME_DATA_DIR/\n", 1)[1].split("```", 1)[0]
    paths, folder = set(), ""
    for line in block.splitlines():
        entry = line.lstrip("│├└─ ").split()[0]
        if entry.endswith("/"):
            folder = entry
        else:
            paths.add(folder + entry)
    return paths


def wanted_files() -> set[str]:
    return {f"{name}/{file}" for name, game in registry.games().items() for file in game.data_files}


def test_the_readme_draws_every_replaceable_data_file() -> None:
    assert readme_data_tree() == wanted_files()


@pytest.mark.parametrize("text", [ENV_EXAMPLE, registry.__doc__ or ""], ids=["env", "registry"])
def test_every_replaceable_data_file_is_named(text: str) -> None:
    for path in wanted_files():
        assert path in text, path


def test_the_readme_names_every_intent_the_bot_asks_for_and_counts_them() -> None:
    asked = [flag for flag, on in default_intents() if on]
    assert set(asked) <= INTENT_NAMES.keys(), "name the new intent here and in the README"
    for flag in asked:
        assert f"**{INTENT_NAMES[flag]}**" in README, flag
    count = {2: "two", 3: "three", 4: "four"}[len(asked)]
    assert f"needs only {count} ordinary intents" in README


def test_env_example_sets_every_setting_once() -> None:
    assigned = re.findall(r"^([A-Z_]+)=", ENV_EXAMPLE, flags=re.MULTILINE)
    assert sorted(assigned) == sorted({name.upper() for name in Settings.model_fields})
