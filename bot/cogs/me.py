"""The `/me` commands: a player's own record (`/me profile`, or someone else's with `player:`) and its privacy, and
their settings, the same in every server: where prompts and reminders reach them (`/me notify`), their daily digest
(`/me digest`), their quiet hours (`/me quiet from:23:00 to:08:00 timezone:Europe/Berlin`, `/me quiet off:True`; see
`bot.quiet`), and all of them at a glance (`/me settings`; `bot.me_settings`). They work in a DM with the bot too.

`/me profile` is one's own record across every server; `/me profile player:@someone` is theirs within this server,
unless they made it private with `/me private` — then nobody else sees it, moderators included (there is no
override: the figures say how someone plays, and that is theirs to share). The answers are private to whoever asks.
Words in `bot.records.words`; the answers are built in `bot.records.answers`.
"""

from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import me_language, me_settings
from bot import quiet as quietness
from bot.i18n.platform import N_, _
from bot.local_time import zone_suggestions
from bot.notifier import Carrier
from bot.presentation import moment
from bot.records import answers, words
from bot.replies import Answer, answer
from bot.service import Refusal

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
            return Answer(text=_(words.PRIVATE_ON if on else words.PRIVATE_OFF))

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

    @app_commands.command(name="language", description="The language of your hand DMs and DM reminders")
    @app_commands.describe(language="en, nl or de; reset: each table's own language")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Nederlands", value="nl"),
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="reset: each table's own language", value="reset"),
        ]
    )
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        async def work(carrier: Carrier) -> Answer:
            return Answer(text=await me_language.set_language(self.bot, interaction.user.id, language.value))

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

    @app_commands.command(name="quiet", description="Your quiet hours: no reminders or DMs then (in every server)")
    @app_commands.rename(start="from")
    @app_commands.describe(
        start="When your quiet hours begin, HH:MM on a 24-hour clock, e.g. 23:00",
        to="When they end, e.g. 08:00",
        timezone="Your time zone, an IANA name such as Europe/Berlin or America/New_York",
        off="True: no quiet hours any more",
    )
    async def quiet(
        self,
        interaction: discord.Interaction,
        start: str | None = None,
        to: str | None = None,
        timezone: str | None = None,
        off: bool = False,
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            known = self.bot.service.read.quiet
            now = self.bot.clock()
            current = await known.get(interaction.user.id)
            if off:
                await known.put(interaction.user.id, None, now=now)
                return Answer(text=_("🔔 No quiet hours: reminders and DMs reach you whenever they come."))
            if start is None and to is None and timezone is None:
                if current is None:
                    return Answer(text=_("You have no quiet hours.") + " " + _(QUIET_HOW))
                return Answer(text=f"{_quiet_text(current, now)}\n{_(QUIET_HOW)}")
            if start is None or to is None:
                raise Refusal(_("Give both `from` and `to`.") + " " + _(QUIET_HOW))
            zone = timezone or (current.timezone if current is not None else None)
            if zone is None:
                raise Refusal(_("Give your `timezone` too (an IANA name such as Europe/Berlin).") + " " + _(QUIET_HOW))
            try:
                hours = quietness.parse(start, to, zone)
            except ValueError as exc:
                raise Refusal(_("%(problem)s Nothing was changed.", problem=exc)) from None
            await known.put(interaction.user.id, hours, now=now)
            return Answer(text=_quiet_text(hours, now))

        await answer(self.bot, interaction, work)


QUIET_HOW = N_(
    "Set them with `/me quiet from:23:00 to:08:00 timezone:Europe/Berlin`; turn them off with `/me quiet off:True`."
)


def _quiet_text(hours: quietness.QuietHours, now: datetime) -> str:
    start, end = quietness.next_period(hours, now)
    if start <= now:
        when = _("now, until %(end)s", end=moment(end))
    else:
        when = _("next from %(start)s to %(end)s", start=moment(start), end=moment(end))
    return _(
        "🌙 Your %(hours)s, in every server: %(when)s. Reminders and DMs wait until they end, you are named without a "
        "ping in the thread meanwhile, and a turn deadline of yours that would end inside them moves to their end.",
        hours=quietness.describe(hours),
        when=when,
    )
