"""The `/mod` commands: keep games moving. Members with Manage Server or the moderator role only.

Each is a `GameService` call; every one that changes a game is logged in the game's thread (the service queues
that line with its commit). `/mod role` sets the moderator role and needs Manage Server itself.

`/mod kick player:@` puts the seat on autopilot and the game goes on; `remove:true` applies the game's rule for a
leaving player instead. `/mod autopilot mode:on|off` switches a seat's autopilot, by `player:@` or `seat:N` (a computer
player has no @: off leaves its seat empty for `/mod substitute seat:N`). See `bot.service.autopilot`.

`/mod defaults [turn_deadline] [reaction_time]` sets the server's defaults for new games (durations such as `36h`,
`2d`, `15m`; `reset` goes back to each game's own default); `/game new` uses them unless its own options say
otherwise, and games already opened keep what they have. Without options it shows the current values (privately);
a change is announced in the channel where it was made, since it concerns everyone who opens games there. The limits
are those of `/game new`: a turn deadline of 1 hour to 90 days, a reaction time of 1 minute to 7 days. A server's
reaction time, like a table's, replaces each game's own length for every kind of reaction window (`reset`: the
games' own lengths again). `timezone:` is the time zone of new tables (an IANA name such as Europe/Amsterdam; UTC
unless set), which a daily deadline (`deadline=daily 19:00`) and `weekdays_only` are read in; a table's `timezone=`
option wins. `language:` is the language of new tables and of private answers to readers whose Discord language is
none of ours (`reset`: the server's own Discord language where it is English, Dutch or German, else English); the
announcement of a change is said in it.
"""

import io
import logging
import re
import time
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.backups import make_backup
from bot.clicks import Click, GameButton
from bot.components import view_for
from bot.durations import DurationTooLong, parse_duration
from bot.durations import describe as describe_duration
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, speaking
from bot.i18n.platform import N_, _, n_
from bot.names import shown
from bot.notifier import Carrier
from bot.people import person
from bot.presentation import Button
from bot.reader import server_default
from bot.replies import Answer, answer
from bot.resolve import game_choices, require_moderator, resolve_game
from bot.service import Done, Refusal
from engine.daily import is_zone
from engine.options import GameOptions
from storage import BackupUnsupported, StorageError
from storage.models import OPEN_STATUSES

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.mod")

ANY_STATUS = (*OPEN_STATUSES, "finished", "abandoned")
RESET_WORDS = frozenset({"reset", "default", "none", "off", "clear"})
LIMITS = {
    "turn_deadline": (timedelta(hours=1), timedelta(days=90)),
    "reaction_time": (timedelta(minutes=1), timedelta(days=7)),
}
TOO_LONG = {
    "turn_deadline": N_("The turn deadline must be between %(low)s and %(high)s (you gave more than %(given)s)."),
    "reaction_time": N_("The reaction time must be between %(low)s and %(high)s (you gave more than %(given)s)."),
}
OUTSIDE = {
    "turn_deadline": N_("The turn deadline must be between %(low)s and %(high)s (you gave %(given)s)."),
    "reaction_time": N_("The reaction time must be between %(low)s and %(high)s (you gave %(given)s)."),
}
UNREADABLE = {"turn_deadline": N_("The turn deadline: %(why)s"), "reaction_time": N_("The reaction time: %(why)s")}
LANGUAGE_RESET = "reset"
"""The `/mod defaults language:` choice that clears the server's language."""


def read_default(name: str, text: str) -> timedelta | None:
    """A typed default: a duration within the limits, or None for `reset`; a `Refusal` says what's wrong."""
    low, high = LIMITS[name]
    if text.strip().lower() in RESET_WORDS:
        return None
    try:
        value = parse_duration(text)
    except DurationTooLong as exc:
        raise Refusal(
            _(
                TOO_LONG[name],
                low=describe_duration(low),
                high=describe_duration(high),
                given=describe_duration(exc.longest),
            )
        ) from None
    except ValueError as exc:
        raise Refusal(_(UNREADABLE[name], why=str(exc))) from None
    if not low <= value <= high:
        raise Refusal(
            _(OUTSIDE[name], low=describe_duration(low), high=describe_duration(high), given=describe_duration(value))
        )
    return value


def read_timezone(text: str) -> str | None:
    """A typed default time zone: an IANA name, or None for `reset`; a `Refusal` names the fix."""
    name = text.strip()
    if name.lower() in RESET_WORDS:
        return None
    if not is_zone(name):
        raise Refusal(
            _(
                "“%(text)s” is not a time zone I know: give an IANA name such as Europe/Amsterdam or "
                "America/New_York (the list: <https://en.wikipedia.org/wiki/List_of_tz_database_time_zones>), or "
                "`reset` for UTC.",
                text=text,
            )
        )
    return name


def defaults_lines(
    turn_deadline: timedelta | None,
    reaction_time: timedelta | None,
    timezone: str | None = None,
    language: str | None = None,
    server_language: str = "en",
) -> str:
    """The server's defaults for new games, one line each (`language`: the one set; `server_language`: what new
    tables get when none is set)."""
    base = GameOptions()
    parts = []
    for label, value, own in (
        (_("Turn deadline"), turn_deadline, base.turn_deadline),
        (_("Reaction time"), reaction_time, base.reaction_time),
    ):
        shown = (
            f"**{describe_duration(value)}**"
            if value is not None
            else _("not set — each game's own default (usually %(length)s)", length=describe_duration(own))
            if own is not None
            else _("not set — each game's own length for each kind of window (`/game rules` shows them)")
        )
        parts.append(f"• {label}: {shown}")
    parts.append(_("• Time zone: %(zone)s", zone=f"**{timezone}**") if timezone else _("• Time zone: not set — UTC"))
    if language:
        parts.append(_("• Language: %(language)s", language=f"**{LANGUAGE_NAMES.get(language, language)}**"))
    else:
        parts.append(
            _(
                "• Language: not set — the server's (%(language)s)",
                language=LANGUAGE_NAMES.get(server_language, server_language),
            )
        )
    return "\n".join(parts)


@app_commands.guild_only()
class ModCog(commands.GroupCog, group_name="mod", group_description="Moderator tools for games in this server"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)

    async def _run(self, interaction: discord.Interaction, game: int | None, call, *, statuses=OPEN_STATUSES) -> None:  # type: ignore[no-untyped-def]
        async def work(carrier: Carrier) -> Answer:
            await require_moderator(self.bot, interaction)
            record = await resolve_game(self.bot, interaction, game, statuses=statuses)
            done: Done = await call(record.id, person(interaction.user))
            if done.outbox_ids:
                await self.bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids))
            # In the thread the logged line is the reply; elsewhere the moderator gets a private word.
            return Answer(text=done.message)

        await answer(self.bot, interaction, work, game_id=game)

    @app_commands.command(name="role", description="Set (or clear) the role whose members may use /mod")
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            if interaction.guild_id is None:
                raise Refusal(_("Use this in a server."))
            if not interaction.permissions.manage_guild:
                raise Refusal(_("🛡️ Only members with Manage Server can choose the moderator role."))
            await self.bot.service.mod.set_moderator_role(interaction.guild_id, role.id if role else None)
            if role is None:
                return Answer(text=_("The moderator role is cleared: only members with Manage Server moderate games."))
            return Answer(text=_("Members with %(role)s may now use `/mod`.", role=role.mention))

        await answer(self.bot, interaction, work)

    @app_commands.command(name="defaults", description="This server's turn deadline and reaction time for new games")
    @app_commands.describe(
        turn_deadline="How long a player has for a move in new games, e.g. 24h, 2d (or `reset`)",
        reaction_time="One length for every reaction window in new games, e.g. 4h, 1d (or `reset`)",
        timezone="The time zone of new tables, e.g. Europe/Amsterdam (daily deadlines, weekends off; or `reset`)",
        language="The language of new tables (or `reset`: the server's own Discord language, else English)",
    )
    @app_commands.choices(
        language=[
            *(app_commands.Choice(name=LANGUAGE_NAMES[lang], value=lang) for lang in LANGUAGES),
            app_commands.Choice(name=LANGUAGE_RESET, value=LANGUAGE_RESET),
        ]
    )
    async def defaults(
        self,
        interaction: discord.Interaction,
        turn_deadline: str | None = None,
        reaction_time: str | None = None,
        timezone: str | None = None,
        language: str | None = None,
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            if interaction.guild_id is None:
                raise Refusal(_("Use this in a server."))
            await require_moderator(self.bot, interaction)
            changes: dict[str, timedelta | str | None] = {}
            if turn_deadline is not None:
                changes["turn_deadline"] = read_default("turn_deadline", turn_deadline)
            if reaction_time is not None:
                changes["reaction_time"] = read_default("reaction_time", reaction_time)
            if timezone is not None:
                changes["timezone"] = read_timezone(timezone)
            if language is not None:
                changes["language"] = language if language in LANGUAGES else None
            settings = await self.bot.service.mod.set_defaults(interaction.guild_id, changes)
            server = server_default(settings.language, interaction)

            def lines() -> str:
                return defaults_lines(
                    settings.turn_deadline, settings.reaction_time, settings.timezone, settings.language, server
                )

            if not changes:
                return Answer(text=_("Defaults for new games in this server:\n%(lines)s", lines=lines()))
            log.info(
                "server defaults changed",
                extra={
                    "fields": {
                        "guild": interaction.guild_id,
                        "by": interaction.user.id,
                        **{k: str(v) for k, v in changes.items()},
                    }
                },
            )
            with speaking(server):  # public, for everyone who opens games here: in the server's language
                return Answer(
                    text=_(
                        "🛡️ Moderator %(name)s changed the defaults for new games in this server (games already "
                        "opened keep theirs):\n%(lines)s",
                        name=f"**{shown(interaction.user.display_name)}**",
                        lines=lines(),
                    ),
                    ephemeral=False,
                )

        await answer(self.bot, interaction, work)

    @app_commands.command(name="pause", description="Pause a game: deadlines stop until /mod resume")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def pause(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._run(interaction, game, self.bot.service.mod.pause)

    @app_commands.command(name="resume", description="Resume a paused game; deadlines keep the time they had left")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def resume(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._run(interaction, game, self.bot.service.mod.resume)

    @app_commands.command(name="extend", description="Give the current wait more time")
    @app_commands.describe(hours="How many hours to add to the current deadline")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def extend(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.1, 720.0], game: int | None = None
    ) -> None:
        async def call(game_id: int, mod):  # type: ignore[no-untyped-def]
            return await self.bot.service.mod.extend(game_id, mod, hours)

        await self._run(interaction, game, call)

    @app_commands.command(name="substitute", description="A new player takes over a seat, with its hand")
    @app_commands.describe(
        old="The player who gives up the seat",
        seat="Or the seat's number (a computer player's, or a seat left to the autopilot or empty)",
    )
    @app_commands.autocomplete(game=_game_autocomplete)
    async def substitute(
        self,
        interaction: discord.Interaction,
        new: discord.User,
        old: discord.User | None = None,
        seat: app_commands.Range[int, 1, 25] | None = None,
        game: int | None = None,
    ) -> None:
        if new.bot:
            await answer(self.bot, interaction, _refuse(N_("A bot can't take a seat.")))
            return

        async def call(game_id: int, mod):  # type: ignore[no-untyped-def]
            who = person(old) if old is not None else None
            return await self.bot.service.mod.substitute(game_id, mod, who, person(new), seat_number=seat)

        await self._run(interaction, game, call)

    @app_commands.command(name="kick", description="Remove a player: the autopilot plays their seat, the game goes on")
    @app_commands.describe(remove="Instead apply the game's rule for a leaving player (which may end the game)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def kick(
        self, interaction: discord.Interaction, player: discord.User, remove: bool = False, game: int | None = None
    ) -> None:
        async def call(game_id: int, mod):  # type: ignore[no-untyped-def]
            return await self.bot.service.mod.kick(game_id, mod, person(player), remove=remove)

        await self._run(interaction, game, call)

    @app_commands.command(name="autopilot", description="Safe moves for a player's seat (on), or stop them (off)")
    @app_commands.describe(
        mode="on: the autopilot plays the seat; off: the player plays it again (a computer player's seat waits empty)",
        player="The player whose seat it is",
        seat="Or the seat's number (a computer player has no @)",
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    @app_commands.autocomplete(game=_game_autocomplete)
    async def autopilot(
        self,
        interaction: discord.Interaction,
        mode: str,
        player: discord.User | None = None,
        seat: app_commands.Range[int, 1, 25] | None = None,
        game: int | None = None,
    ) -> None:
        async def call(game_id: int, mod):  # type: ignore[no-untyped-def]
            who = person(player) if player is not None else None
            return await self.bot.service.seats.set_autopilot(game_id, mod, player=who, seat=seat, on=mode == "on")

        await self._run(interaction, game, call)

    @app_commands.command(name="end", description="Abandon a game and post the standings so far")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._run(interaction, game, self.bot.service.mod.end)

    @app_commands.command(
        name="undo", description="Revert the last move (refused if it revealed secrets or used chance)"
    )
    @app_commands.describe(force="Undo even a move that revealed hidden information or involved a shuffle or die")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def undo(self, interaction: discord.Interaction, force: bool = False, game: int | None = None) -> None:
        """Names the move it would undo and asks to confirm with a button bound to the game as the moderator saw
        it: two moderators (or one clicking twice) can never undo two moves meaning one."""

        async def work(carrier: Carrier) -> Answer:
            await require_moderator(self.bot, interaction)
            record = await resolve_game(self.bot, interaction, game, statuses=ANY_STATUS)
            preview = await self.bot.service.mod.undo_preview(record.id, force=force)
            key = f"{UNDO_KEY}{preview.version}{'.force' if preview.forced else ''}"
            if preview.forced:
                text = _(
                    "Undo “%(move)s”? The game goes back to just before it. It revealed something or used chance: "
                    "everyone should agree.",
                    move=preview.what,
                )
            else:
                text = _("Undo “%(move)s”? The game goes back to just before it.", move=preview.what)
            button = Button(label=_("Undo it"), key=key, style="danger")
            return Answer(text=text, view=view_for(record.id, [button]))

        await answer(self.bot, interaction, work, game_id=game)

    @app_commands.command(name="export", description="The game's full log as a JSON file (only you see it)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            await require_moderator(self.bot, interaction)
            record = await resolve_game(self.bot, interaction, game, statuses=ANY_STATUS)
            done = await self.bot.service.mod.export(record.id, person(interaction.user))
            await self.bot.notifier.flush(done.game_id)
            data = str(done.data).encode("utf-8")
            file = discord.File(io.BytesIO(data), filename=f"boardroom-game-{record.id}.json")
            return Answer(text=done.message, file=file, always=True)

        await answer(self.bot, interaction, work, game_id=game)

    @app_commands.command(name="backup", description="Back up every game now (the server owner or the bot's owner)")
    async def backup(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            if not await _owns_server_or_bot(self.bot, interaction):
                raise Refusal(_("💾 Only the server's owner or the bot's owner can make a backup."))
            settings = self.bot.settings
            try:
                path = await make_backup(
                    self.bot.store, settings.backups, "manual", self.bot.clock(), settings.backup_keep
                )
            except BackupUnsupported as exc:
                log.info("/mod backup on PostgreSQL: %s", exc)
                raise Refusal(
                    _(
                        "💾 This bot keeps its games in PostgreSQL: the bot makes no backup files of it. Back it up "
                        "where the database runs, with `pg_dump` (see the README)."
                    )
                ) from None
            except StorageError as exc:
                log.error("a /mod backup failed: %s", exc)
                raise Refusal(
                    _("💾 The backup could not be made; the bot's log says why. Nothing was changed.")
                ) from None
            size = path.stat().st_size / 1_000_000
            return Answer(
                text=_(
                    "💾 Backup saved as `%(file)s` (%(size).1f MB), beside the automatic ones. Restoring one is done "
                    "where the bot runs (see the README).",
                    file=path.name,
                    size=size,
                )
            )

        await answer(self.bot, interaction, work)

    records = app_commands.Group(name="records", description="Players' records and ratings (the bot's owner)")

    @records.command(name="rebuild", description="Derive every record and rating again from the games' logs")
    async def rebuild_records(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            try:
                owner = await self.bot.is_owner(interaction.user)
            except discord.HTTPException:
                owner = False
            if not owner:
                raise Refusal(_("Only the bot's owner can rebuild the records (they hold every server's games)."))
            started = time.perf_counter()
            counts = await self.bot.recorder.rebuild()
            done = n_(
                "🧮 Records rebuilt from the logs in %(seconds).1f s: %(n)d game recorded, %(rated)d rated.",
                "🧮 Records rebuilt from the logs in %(seconds).1f s: %(n)d games recorded, %(rated)d rated.",
                counts.recorded,
                seconds=time.perf_counter() - started,
                rated=counts.rated,
            )
            if counts.skipped:
                done += " " + _(
                    "%(skipped)d skipped (their logs don't replay: see the bot's log, or `/mod verify`).",
                    skipped=counts.skipped,
                )
            return Answer(text=done)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="verify", description="Check that the game's log replays to its stored state")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def verify(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._run(interaction, game, self.bot.service.mod.verify, statuses=ANY_STATUS)


UNDO_KEY = "modundo."
"""The key of `/mod undo`'s "Undo it" button: the version it undoes, and ".force" when forced."""


async def confirm_undo(
    bot: "Host", interaction: discord.Interaction, game_id: int, key: str, carrier: Carrier
) -> Answer:
    """The "Undo it" button of `/mod undo`'s answer: undo the move it named, only if the game is still as it was."""
    await require_moderator(bot, interaction)
    version, _dot, forced = key.removeprefix(UNDO_KEY).partition(".")
    if not version.isdecimal():
        raise Refusal(_("This button is out of date; use `/mod undo` again."))
    done = await bot.service.mod.undo(game_id, person(interaction.user), force=forced == "force", version=int(version))
    await bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids))
    return Answer(text=done.message)


class UndoButton(GameButton, keys=rf"{re.escape(UNDO_KEY)}.*"):
    """ "Undo it" under `/mod undo`'s answer (its key names the version it undoes)."""

    async def clicked(self, click: Click) -> Answer | None:
        return await confirm_undo(click.bot, click.interaction, click.game_id, click.key, click.carrier)


async def _owns_server_or_bot(bot: "Host", interaction: discord.Interaction) -> bool:
    """A backup holds every server's games: only the owner of the server asking, or of the bot, may make one."""
    guild = interaction.guild
    if guild is not None and guild.owner_id == interaction.user.id:
        return True
    try:
        return await bot.is_owner(interaction.user)
    except discord.HTTPException:
        return False


def _refuse(text: str):  # type: ignore[no-untyped-def]
    """A work that refuses with `text` (marked with `N_`: worded in the reader's language)."""

    async def work(carrier: Carrier) -> Answer:
        raise Refusal(_(text))

    return work
