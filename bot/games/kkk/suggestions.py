"""What the `/kkk` commands' options suggest as the player types (Discord's autocomplete), read from the asker's
own view of the table (`choices`): the cards in their hand, the offers they may shake, the seats they may name.

Each suggestion is a free function taking `(interaction, current)`, so the commands (`cog.KkkCog`) name them in
their `@app_commands.autocomplete` and nothing here holds state: the bot is the interaction's client. A suggestion
never decides a rule: anything typed is still the engine's to accept or refuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import seat_choice
from bot.games.kkk import choices, reading
from bot.games.kkk.i18n import _
from bot.presentation import Table
from bot.resolve import game_choices, resolve_game
from bot.service import Refusal
from storage import GameRecord

if TYPE_CHECKING:
    from bot.host import Host

Suggested = list[app_commands.Choice[Any]]


async def kkk_game(bot: Host, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The KKK game a `/kkk` command is about: the thread's, or `game:`'s; refused for any other game."""
    record = await resolve_game(bot, interaction, game_id, mine=True)
    if record.kind != "kkk":
        raise Refusal(_("That game isn't Kohle, Kies & Knete: use `/kkk` in a KKK table's thread (or `game:`)."))
    return record


async def asker_table(interaction: discord.Interaction) -> tuple[Table, int] | None:
    """The table and the asker's seat (None: no started KKK game of theirs here, so nothing to suggest)."""
    bot: Host = interaction.client  # type: ignore[assignment]
    try:
        record = await kkk_game(bot, interaction, getattr(interaction.namespace, "game", None))
        table = await bot.service.read.table(record.id, record=record)
        seat = await bot.service.read.seat_of(record.id, interaction.user.id)
    except Refusal:
        return None
    if table.state is None:
        return None
    return table, seat


def _option_seat(interaction: discord.Interaction, name: str, table: Table) -> int | None:
    """The seat another option names so far (None when it names nobody yet)."""
    named = getattr(interaction.namespace, name, None)
    return seat_choice.find(table.seats, named if isinstance(named, str) else None)


def _choices(pairs: list[choices.Choice]) -> Suggested:
    return [app_commands.Choice(name=name, value=value) for name, value in pairs[:25]]


async def game(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    return await game_choices(interaction.client, interaction, current)  # type: ignore[arg-type]


async def player(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await asker_table(interaction)
    if found is None:
        return []
    table, seat = found
    return seat_choice.choices(table.seats, current, exclude=seat)


async def place(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    return [] if found is None else _choices(choices.places(reading.public(found[0]), current))


async def clan(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    return [] if found is None else _choices(choices.clans(reading.mine(*found), current))


async def offer_family(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    table, seat = found
    to = _option_seat(interaction, "to", table)
    return _choices(choices.offer_families(reading.mine(table, seat), current, to, table.names))


async def counter(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    return [] if found is None else _choices(choices.counters(reading.mine(*found), current, found[0].names))


async def withdraw(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    return _choices(choices.offers(reading.mine(*found), current, found[0].names, to_shake=False))


async def shake(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    return _choices(choices.offers(reading.mine(*found), current, found[0].names, to_shake=True))


async def unshake(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    mine = reading.mine(*found)
    return _choices(choices.offers(mine, current, found[0].names, to_shake=False, to_unshake=True))


async def travel(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    table, seat = found
    target = _option_seat(interaction, "target", table)
    return _choices(choices.travels(reading.mine(table, seat), current, target, table.names))


async def recruit(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    return [] if found is None else _choices(choices.recruits(reading.mine(*found), current, found[0].names))


async def discard(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    return [] if found is None else _choices(choices.discards(reading.mine(*found), current))


async def use(interaction: discord.Interaction, current: str) -> Suggested:
    found = await asker_table(interaction)
    if found is None:
        return []
    return _choices(choices.assignments(reading.public(found[0]), current, found[0].names))
