"""`/mine`: what waits on me, in every server where I play — the game, what for, the deadline and a link to the
table, most urgent first (`bot.mine`). A top-level command that works in a server and in a DM with the bot; the
answer is private (ephemeral)."""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.mine import mine_text, waiting_on
from bot.notifier import Carrier
from bot.replies import Answer, answer

if TYPE_CHECKING:
    from bot.host import Host


class MineCog(commands.Cog):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot

    @app_commands.command(name="mine", description="What waits on you in all your games, most urgent first")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def mine(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            waits, games = await waiting_on(self.bot, interaction.user.id)
            return Answer(text=mine_text(waits, games))

        await answer(self.bot, interaction, work)
