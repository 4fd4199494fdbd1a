"""Values nobody's Discord client sends, from an API client (issue 24, items 2 and 3), through SimCord as a player
would send them: each is answered privately and clearly (never "Sorry — something went wrong"), and nothing changes.

- Every string option that names a player (`/kr duel opponent:`, `/kkk travel target:`, `/kkk offer to:`, the
  `first_seat=` of `/game new options:`) given empty or only spaces, or naming a seat or member beyond 64 bits.
- Ids beyond 64 bits (SQLite's INTEGER) and negative ones in every custom id kind the bot registers (a game's
  button `br:<game>:<key>`, including the moderator's undo key, and the rules pages' `rules:<game>:<page>`).
- `game:` options and autocomplete values: Discord (and SimCord) refuse an INTEGER option beyond ±2⁵³ before the
  bot sees it, so the largest and negative ones it lets through are sent to every command with a `game:` option,
  and ids beyond 64 bits as the typed text of autocomplete values.
"""

import logging
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from simcord import ChannelHandle, MemberActor

from bot.client import BoardroomBot
from bot.replies import SORRY
from engine import registry
from tests.bot.helpers import Server, make_server

GAMES = {name: registry.get(name) for name in ("kkk", "kesse_ruegen", "casablanca", "schwarzmarkt")}
BEYOND = ["99999999999999999999", "9999999999999999999", str(2**63), "-1"]
"""Past 64 bits; past SQLite's INTEGER (the issue's button: 9999999999999999999 > 2⁶³−1); 2⁶³; negative."""
BLANK = ["", "   "]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games=GAMES, presentations={})


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    caplog.set_level(logging.WARNING)
    return caplog.records


async def open_game(server: Server, kind: str, people: list[MemberActor]) -> tuple[simcord.InteractionResult, int]:
    opened = await people[0].slash(server.channel, "game new", game=kind, random_order=False)
    for m in people[1:]:
        await m.click(opened.response, label="Join")
    await people[0].click(opened.response, label="Start")
    return opened, (await server.bot.store.games.find())[-1].id


def thread(server: Server, game_id: int) -> ChannelHandle:
    return next(t for t in server.channel.threads if t.name.endswith(f"#{game_id}"))


async def versions(server: Server) -> list[tuple[int, int, str]]:
    return [(g.id, g.version, g.status) for g in await server.bot.store.games.find()]


def refused_clearly(result: simcord.InteractionResult, *says: str) -> str:
    assert result.response is not None, "no answer at all (Discord shows “This interaction failed”)"
    text = result.response.content or ""
    assert result.response.ephemeral, text
    assert SORRY not in text and "something went wrong" not in text, text
    for words in says:
        assert words in text, text
    return text


def no_errors(records: list[logging.LogRecord]) -> None:
    bad = [r for r in records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


async def test_player_naming_options_refuse_blank_and_impossible_names(
    env: simcord.Env, errors: list[logging.LogRecord]
) -> None:
    server = make_server(env)
    anna, bert, cleo, dave = server.members
    _, kkk = await open_game(server, "kkk", [anna, bert, cleo])
    _, kr = await open_game(server, "kesse_ruegen", [dave, anna])
    before = await versions(server)
    tries: list[tuple[MemberActor, ChannelHandle, str, str, dict[str, Any]]] = [
        (dave, thread(server, kr), "kr duel", "opponent", {}),
        (anna, thread(server, kkk), "kkk travel", "target", {"family": "Raffzahn"}),
        (anna, thread(server, kkk), "kkk offer", "to", {"price": 5}),
    ]
    for member, where, command, option, others in tries:
        for value in BLANK:
            answered = await member.slash(where, command, **{option: value}, **others)
            refused_clearly(answered, f"`{option}:` is empty", "The players you can name")
        for number in BEYOND:
            for value in (f"seat:{number}", f"<@{number}>"):
                answered = await member.slash(where, command, **{option: value}, **others)
                refused_clearly(answered, "isn't playing", "The players you can name")
    for value in ("first_seat=", "first_seat=   ", "first_seat=<@99999999999999999999>"):
        answered = await anna.slash(server.channel, "game new", game="kesse_ruegen", options=value)
        refused_clearly(answered, "`first_seat`")
    assert await versions(server) == before
    no_errors(errors)


async def forge(server: Server, message: Any, label: str, custom_id: str) -> None:
    """Give the message's button `label` another custom id: what an API client can send as a click."""
    stored = server.env.backend.get_message(message.channel_id, message.id)
    found = [c for row in stored.components for c in row.get("components", []) if c.get("label") == label]
    assert len(found) == 1, found
    found[0]["custom_id"] = custom_id


async def test_buttons_naming_ids_beyond_64_bits_or_negative_are_refused_clearly(
    env: simcord.Env, errors: list[logging.LogRecord]
) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    lobby = await anna.slash(server.channel, "game new", game="kesse_ruegen", random_order=False)
    before = await versions(server)
    for number in BEYOND:
        for key in ("join", "hand", "details", "fist.1.2"):
            await forge(server, lobby.response, "Join", f"br:{number}:{key}")
            clicked = await bert.click(lobby.response, custom_id=f"br:{number}:{key}")
            refused_clearly(clicked, f"game #{number}", "which I don't have")
    await forge(server, lobby.response, "Join", "br:1:join")
    await bert.click(lobby.response, custom_id="br:1:join")
    await anna.click(lobby.response, label="Start")
    await anna.slash(thread(server, 1), "kr place", square="b2")
    before = await versions(server)
    # The moderator's "Undo it" names the version it undoes: beyond 64 bits or negative, it is out of date.
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    asked = await mia.slash(thread(server, 1), "mod undo", force=True)
    for number in BEYOND:
        await forge(server, asked.response, "Undo it", f"br:1:modundo.{number}")
        clicked = await mia.click(asked.response, custom_id=f"br:1:modundo.{number}")
        refused_clearly(clicked, "/mod undo")
    assert await versions(server) == before
    # The rules' pages: a page number past the rules or negative shows the nearest page.
    for number in BEYOND:
        rules = await anna.slash(server.channel, "game rules", game="kesse_ruegen")
        await forge(server, rules.response, "Next ▶", f"rules:kesse_ruegen:{number}")
        clicked = await anna.click(rules.response, custom_id=f"rules:kesse_ruegen:{number}")
        assert clicked.response is not None and clicked.response.message.embeds
        assert SORRY not in (clicked.response.content or "")
    no_errors(errors)


def game_commands(bot: BoardroomBot) -> list[tuple[str, list[app_commands.Parameter]]]:
    """Every slash command with an integer `game:` option, with its parameters."""
    out = []
    for top in bot.tree.get_commands():
        leaves = top.walk_commands() if isinstance(top, app_commands.Group) else [top]
        for c in leaves:
            if isinstance(c, app_commands.Command):
                params = c.parameters
                if any(p.name == "game" and p.type == discord_integer() for p in params):
                    out.append((c.qualified_name, params))
    return out


def discord_integer() -> Any:
    from discord import AppCommandOptionType

    return AppCommandOptionType.integer


def filler(p: app_commands.Parameter, someone: MemberActor) -> Any:
    """A value for a required option, as a player would type it (its checks are the command's own business)."""
    if p.type.name in ("user", "mentionable"):
        return someone
    if p.choices:
        return p.choices[0].value
    if p.type == discord_integer():
        return int(p.min_value) if p.min_value is not None else 1
    if p.type.name == "number":
        return float(p.min_value) if p.min_value is not None else 1.0
    if p.type.name == "boolean":
        return False
    return "x"


async def test_game_options_and_autocomplete_values_with_impossible_ids(
    env: simcord.Env, errors: list[logging.LogRecord]
) -> None:
    server = make_server(env)
    anna, bert, cleo, _ = server.members
    _, kr = await open_game(server, "kesse_ruegen", [anna, bert])
    before = await versions(server)
    commands = game_commands(server.bot)
    assert len(commands) > 30, "every game's commands and the platform's"
    for name, params in commands:
        required = {p.name: filler(p, cleo) for p in params if p.required}
        for number in (2**53 - 1, -1, 0):
            answered = await anna.slash(server.channel, name, **required, game=number)
            refused_clearly(answered)
        for p in params:
            if not p.autocomplete:
                continue
            for number in BEYOND:
                typed = number if p.name == "game" else "x"
                shown = await anna.autocomplete(thread(server, kr), name, p.name, typed, game=-1)
                assert isinstance(shown, list)
                if p.name != "game":
                    shown = await anna.autocomplete(thread(server, kr), name, p.name, number)
                    assert isinstance(shown, list)
    assert await versions(server) == before
    no_errors(errors)
