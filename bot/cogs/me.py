"""The `/me` commands: a player's own record (`/me profile`, or someone else's with `player:`) and its privacy, and
their settings, the same in every server: where prompts and reminders reach them (`/me notify`), their daily digest
(`/me digest`), and all of them at a glance (`/me settings`; `bot.me_settings`). They work in a DM with the bot too.

`/me profile` is one's own record across every server; `/me profile player:@someone` is theirs within this server,
unless they made it private with `/me private` — then nobody else sees it, moderators included (there is no
override: the figures say how someone plays, and that is theirs to share). The answers are private to whoever asks.
Words in `bot.records.words`; the answers are built in `bot.records.answers`.
"""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import me_settings
from bot.local_time import zone_suggestions
from bot.notifier import Carrier
from bot.records import answers, words
from bot.replies import Answer, answer

if TYPE_CHECKING:
    from bot.host import Host


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class MeCog(commands.GroupCog, group_name="me", group_description="Your record, and where your prompts reach you"):
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

    @app_commands.command(name="notify", description="Where your prompts and reminders reach you, in every server")
    @app_commands.describe(mode="thread: pinged in the thread (default); dm: by DM; digest: only in your daily digest")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="thread: pinged in the table's thread (default)", value="thread"),
            app_commands.Choice(name="dm: a DM with a link to the table", value="dm"),
            app_commands.Choice(name="digest: only in my daily digest", value="digest"),
        ]
    )
    async def notify(self, interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
        async def work(carrier: Carrier) -> Answer:
            value = mode.value if mode.value in ("thread", "dm", "digest") else "thread"
            return Answer(text=await me_settings.set_notify(self.bot, interaction.user.id, value))  # type: ignore[arg-type]

        await answer(self.bot, interaction, work)

    @app_commands.command(name="digest", description="A daily DM at your hour listing what waits on you (or off)")
    @app_commands.describe(
        at="Your local time of day, e.g. 08:00 — or off",
        timezone="Your time zone, e.g. Europe/Berlin (remembered after the first time)",
    )
    async def digest(self, interaction: discord.Interaction, at: str, timezone: str | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            return Answer(text=await me_settings.set_digest(self.bot, interaction.user.id, at, timezone))

        await answer(self.bot, interaction, work)

    @digest.autocomplete("timezone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_suggestions(current)]

    @app_commands.command(name="settings", description="Your settings: prompts, digest, profile (only you see it)")
    async def settings(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            private = await self.bot.store.settings.profile_private(interaction.user.id)
            return Answer(text=await me_settings.settings_text(self.bot, interaction.user.id, profile_private=private))

        await answer(self.bot, interaction, work)
