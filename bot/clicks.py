"""A click on a game button: `GameButton`, the one helper every feature declares its buttons with, and the `Click`
each one is handed.

A feature's button is a few lines beside the feature (see `bot.components` for the routing):

    class HandButton(GameButton, keys="hand"):
        async def clicked(self, click: Click) -> Answer | None:
            return await hand_answer(click.bot, click.game_id, click.user.id)

Every click is answered the same way before its button sees it: in time and exactly once (`bot.replies.answer`), and
only for a game that is here — a button of a game this bot doesn't have (forged, or on a message older than a
restored backup) or of another server's game is refused clearly, and a lobby a crash left without its thread is
repaired first (`button_game`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot import components, ids
from bot.i18n.platform import _
from bot.lobby_repair import repair_lobby
from bot.people import person
from bot.reader import at_table
from bot.replies import Answer, answer
from bot.service import Person, Refusal
from storage import GameNotFound, GameRecord

if TYPE_CHECKING:
    from bot.host import Host
    from bot.notifier import Carrier


@dataclass
class Click:
    """One click on a game's button, after the game was found: who clicked what, where, and its answer's carrier."""

    bot: Host
    interaction: discord.Interaction
    game_id: int
    key: str
    record: GameRecord
    carrier: Carrier

    @property
    def user(self) -> discord.abc.User:
        return self.interaction.user

    @property
    def person(self) -> Person:
        return person(self.interaction.user)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):  # type: ignore[type-arg]
    """A persistent button of one game: subclass it with `keys=` (a regular expression of the keys it answers) and
    `clicked`. This base answers no key (its template matches nothing); each subclass adds itself to the routes
    `bot.components.view_for` builds buttons from, and is registered at start-up by the client."""

    keys: ClassVar[str] = r"(?!)"

    def __init_subclass__(cls, *, keys: str, **kwargs: Any) -> None:
        super().__init_subclass__(template=components.key_template(keys), **kwargs)
        cls.keys = keys
        components.ROUTES.append(cls)

    def __init__(self, game_id: int, key: str, *, label: str = "", style: str = "secondary", emoji: str | None = None):
        super().__init__(
            discord.ui.Button(
                label=label or key,
                style=components.style(style),
                emoji=emoji,
                custom_id=components.custom_id(game_id, key),
            )
        )
        self.game_id = game_id
        self.key = key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
        /,
    ) -> GameButton:
        return cls(int(match["game"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: Host = interaction.client  # type: ignore[assignment]

        async def work(carrier: Carrier) -> Answer | None:
            record = await button_game(bot, interaction, self.game_id)
            return await self.clicked(Click(bot, interaction, self.game_id, self.key, record, carrier))

        await answer(bot, interaction, work, game_id=self.game_id)

    async def clicked(self, click: Click) -> Answer | None:
        """What the click does; the answer is private to the clicker (None: the changed messages say it all)."""
        raise NotImplementedError


async def button_game(bot: Host, interaction: discord.Interaction, game_id: int) -> GameRecord:
    """Refuse clearly a button whose game isn't here: forged, or on a message older than a restored backup."""
    try:
        record = await bot.store.games.get(ids.game_id(game_id))
    except GameNotFound:
        raise Refusal(
            _(
                "This button belongs to game #%(id)d, which I don't have (any more). `/game list` shows the games "
                "here.",
                id=game_id,
            )
        ) from None
    if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
        raise Refusal(_("This button belongs to game #%(id)d, which isn't played in this server.", id=game_id))
    at_table(record)
    return await repair_lobby(bot, record)  # a lobby a crash left without its thread: completed or closed
