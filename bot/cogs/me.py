"""The `/me` commands: a player's own record (`/me profile`, or someone else's with `player:`) and its privacy.

`/me profile` is one's own record across every server; `/me profile player:@someone` is theirs within this server,
unless they made it private with `/me private` — then nobody else sees it, moderators included (there is no
override: the figures say how someone plays, and that is theirs to share). The answers are private to whoever asks.
Words in `bot.records.words`; the answers are built in `bot.records.answers`.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.notifier import Carrier
from bot.records import answers, words
from bot.replies import Answer, answer

if TYPE_CHECKING:
    from bot.host import Host


class MeCog(commands.GroupCog, group_name="me", group_description="Your record of games played"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="profile", description="Your games, wins, ratings and reliability (only you see it)")
    @app_commands.describe(player="Someone else's record in this server (unless they keep it private)")
    async def profile(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            whose = player or interaction.user
            is_self = whose.id == interaction.user.id
            return await answers.profile(self.bot, interaction.user.id, whose, interaction.guild_id, is_self=is_self)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="private", description="Hide your profile from everyone else (on), or show it (off)")
    @app_commands.describe(on="On (default): only you see your profile. Off: anyone in a server you share can")
    async def private(self, interaction: discord.Interaction, on: bool = True) -> None:
        async def work(carrier: Carrier) -> Answer:
            await self.bot.store.settings.set_profile_private(interaction.user.id, on, now=self.bot.clock())
            return Answer(text=words.PRIVATE_ON if on else words.PRIVATE_OFF)

        await answer(self.bot, interaction, work)
