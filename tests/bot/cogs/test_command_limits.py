"""The bot's real command tree (every registered game's commands included) within Discord's limits.

Discord refuses a whole bulk update of commands when one of them breaks a limit, so one subcommand too many in one
game would take every command of the bot down at the next sync. The limits (Discord's API reference, "Application
Commands"): at most 100 global slash commands, 5 user and 5 message context-menu commands; at most 25 options per
command or subcommand, 25 subcommands or groups per command or group, 25 choices per option; slash command and
option names 1–32 characters matching `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, in lower case;
descriptions 1–100 characters; choice names 1–100 characters, str values at most 100; at most 4,000 characters of
names, descriptions and values in one command; required options before optional ones.
"""

import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.client import create_bot
from bot.settings import Settings

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CHAT_INPUT, USER, MESSAGE = 1, 2, 3


def _name_char(c: str) -> bool:
    """One character of `[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]` (Python's `re` has no `\\p{…}`)."""
    code = ord(c)
    return (
        c in "-_"
        or unicodedata.category(c)[0] in "LN"
        or 0x0900 <= code <= 0x097F  # Devanagari
        or 0xA8E0 <= code <= 0xA8FF  # Devanagari Extended
        or 0x11B00 <= code <= 0x11B5F  # Devanagari Extended-A
        or 0x0E01 <= code <= 0x0E5B  # Thai
    )


def name_problems(name: str, where: str) -> list[str]:
    problems = []
    if not 1 <= len(name) <= 32 or not all(_name_char(c) for c in name):
        problems.append(f"{where}: name {name!r} does not match Discord's pattern (1–32 letters, digits, - or _)")
    if name != name.lower():
        problems.append(f"{where}: name {name!r} is not in lower case")
    return problems


def description_problems(description: str, where: str) -> list[str]:
    if not 1 <= len(description) <= 100:
        return [f"{where}: description of {len(description)} characters (1–100): {description!r}"]
    return []


def option_problems(options: list[dict[str, Any]], where: str) -> list[str]:
    """The problems of one level of options (a command's, a group's or a subcommand's), and of the levels below."""
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options or subcommands (at most 25)")
    required = [bool(o.get("required")) for o in options if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: an optional option comes before a required one")
    for option in options:
        here = f"{where} {option['name']}"
        problems += name_problems(option["name"], here)
        problems += description_problems(option.get("description", ""), here)
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{here}: {len(choices)} choices (at most 25)")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100:
                problems.append(f"{here}: choice name {choice['name']!r} (1–100 characters)")
            if isinstance(choice["value"], str) and len(choice["value"]) > 100:
                problems.append(f"{here}: choice value {choice['value']!r} (at most 100 characters)")
        if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += option_problems(option.get("options") or [], here)
    return problems


def _texts(payload: dict[str, Any]) -> Iterator[str]:
    """The names, descriptions and values Discord counts towards a command's 4,000 characters."""
    for key in ("name", "description", "value"):
        if isinstance(payload.get(key), str):
            yield payload[key]
    for child in (payload.get("options") or []) + (payload.get("choices") or []):
        yield from _texts(child)


def tree_problems(commands: list[dict[str, Any]]) -> list[str]:
    """Every way these global command payloads break Discord's limits ([] when none)."""
    problems = []
    by_type = {kind: [c for c in commands if c.get("type", CHAT_INPUT) == kind] for kind in (CHAT_INPUT, USER, MESSAGE)}
    for kind, limit in ((CHAT_INPUT, 100), (USER, 5), (MESSAGE, 5)):
        if len(by_type[kind]) > limit:
            problems.append(f"{len(by_type[kind])} global commands of type {kind} (at most {limit})")
    for command in by_type[CHAT_INPUT]:
        where = f"/{command['name']}"
        problems += name_problems(command["name"], where)
        problems += description_problems(command.get("description", ""), where)
        problems += option_problems(command.get("options") or [], where)
        size = sum(len(t) for t in _texts(command))
        if size > 4000:
            problems.append(f"{where}: {size} characters of names, descriptions and values (at most 4,000)")
    for command in by_type[USER] + by_type[MESSAGE]:
        if not 1 <= len(command["name"]) <= 32:
            problems.append(f"context menu {command['name']!r}: name of 1–32 characters")
    return problems


@pytest.fixture
async def real_tree(tmp_path: Path) -> AsyncIterator[app_commands.CommandTree]:  # type: ignore[type-arg]
    """The command tree `setup_hook` builds with the engine's registry and every game's presentation, as at start-up
    (no sync: nothing leaves the machine)."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="test-token", database_path=tmp_path / "db.sqlite3", command_sync="never"
    )
    bot = create_bot(settings)
    await bot.setup_hook()
    try:
        yield bot.tree
    finally:
        bot.scheduler.close()
        bot.housekeeper.close()
        bot.notifier.close()
        await bot.store.close()


async def test_the_real_command_tree_is_within_discords_limits(real_tree: app_commands.CommandTree) -> None:  # type: ignore[type-arg]
    commands = [c.to_dict(real_tree) for c in real_tree.get_commands()]
    names = {c["name"] for c in commands}
    assert {"game", "mod", "kkk", "kr", "cb", "sm"} <= names  # every game's own commands are in the tree
    assert tree_problems(commands) == []


def test_the_check_finds_what_discord_refuses() -> None:
    def sub(name: str, description: str = "Does it.", **extra: Any) -> dict[str, Any]:
        return {"type": SUB_COMMAND, "name": name, "description": description, **extra}

    choice_option = {
        "type": 3,
        "name": "pick",
        "description": "A choice.",
        "choices": [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)],
    }
    commands = [
        {"type": CHAT_INPUT, "name": "big", "description": "Many.", "options": [sub(f"s{i}") for i in range(26)]},
        {"type": CHAT_INPUT, "name": "Bad Name", "description": "x" * 101},
        {"type": CHAT_INPUT, "name": "ok", "description": "Fine.",
         "options": [sub("x", ""), sub("y", options=[choice_option])]},
        {"type": CHAT_INPUT, "name": "order", "description": "Order.", "options": [
            {"type": 4, "name": "a", "description": "A.", "required": False},
            {"type": 4, "name": "b", "description": "B.", "required": True},
        ]},
        {"type": CHAT_INPUT, "name": "हिन्दी_ไทย-ü9", "description": "Scripts Discord allows."},
    ]  # fmt: skip
    problems = tree_problems(commands)
    assert any("/big: 26 options or subcommands" in p for p in problems)
    assert any("'Bad Name' does not match" in p for p in problems)
    assert any("'Bad Name' is not in lower case" in p for p in problems)
    assert any("/Bad Name: description of 101" in p for p in problems)
    assert any("/ok x: description of 0" in p for p in problems)
    assert any("/ok y pick: 26 choices" in p for p in problems)
    assert any("/order: an optional option comes before a required one" in p for p in problems)
    assert not any("हिन्दी" in p for p in problems)
    assert len(problems) == 7
    too_many = [{"type": CHAT_INPUT, "name": f"c{i}", "description": "C."} for i in range(101)]
    assert tree_problems(too_many) == ["101 global commands of type 1 (at most 100)"]
