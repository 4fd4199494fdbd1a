"""The `/game` commands every game shares: lobby, start, status, hand, dms, list, away/back, rules, and a generic move.

Each command only translates Discord input into a `GameService` call and hands the resulting outbox rows to the
notifier (with the interaction as `Carrier`, so the narration can be the command's reply). `/game move` takes an
engine action (autocompleted from `legal_actions`) so any registered game can be played before it has commands of
its own.

`/game new options:` takes the game's own options (those its options model adds to the shared ones) as text such as
`hide_hand_sizes` or `name=value, …`, read and checked by `bot.game_options`: a bad one is refused before anything is
opened, naming it and listing the valid ones (`/game rules` lists them too, and the lobby shows the chosen ones).
`/game new reaction_time:` (`90m`, `4h`, `1d`; `bot.reaction_windows`) sets one length for every reaction window of
the table; not given, the server's `/mod defaults` reaction time, else each game's own length per kind of window. The
old integer `reaction_minutes` still works; giving both is refused. `/game new language:` (English, Nederlands,
Deutsch, each in its own words) is the table's language: everything the table shows publicly is said in it (the
lobby message, posted as the command's reply, already); not given, the server's (`/mod defaults language:`, else
its Discord language where it is one of ours, else English). A rematch keeps it.

Every answer here is private and in the reader's language, chosen once by `bot.replies.answer` (`bot.reader`); what
a command shows as the table sees it — the lobby, `/game status`, `/game rules` in a table's thread — is said in the
table's language instead.

`/game dms` is the way back for a player whose DMs were found closed (the bot then stops trying, so a closed DM never
costs a failing call per move): after they allow DMs from the server's members, it tries again in each of their open
games of this server — their hand message is sent (or edited) with its buttons, a lobby's welcome DM is sent — and
says whether it worked. It always tries, even where DMs were thought to work, so it also brings back a hand message
someone deleted. `/game hand` shows the hand (with its buttons) ephemerally either way and points to `/game dms`.

`/game away` (`until:`, `days:` or `duration:`, read by `bot.typed.away_until`), `/game back`, `/game leave` in a
running game and `/game vote replace` are the player's side of `bot.away` and `bot.handover` (issue 27). What players
type is read and checked in `bot.typed`.
"""

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import away, game_options, moves, reaction_windows
from bot.components import view_for
from bot.durations import describe as describe_duration
from bot.hand_answer import hand_answer
from bot.help_answer import help_answer
from bot.helping import with_help
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, speaking
from bot.i18n.platform import _, n_
from bot.lobby import lobby_post
from bot.lobby_repair import open_thread_or_close, repair_lobby
from bot.names import shown
from bot.notifier import MENTIONS, Carrier
from bot.people import dm_note, person
from bot.presentation import Table
from bot.reader import language_for, own_language, server_default
from bot.records import answers as records
from bot.replies import Answer, answer
from bot.resolve import describe, game_choices, is_moderator, require_moderator, resolve_game
from bot.rules import load as load_rules
from bot.rules_answer import rules_answer
from bot.service import Done, LobbySettings, Refusal
from bot.typed import away_until, read_move
from engine.policy import Level
from storage.models import OPEN_STATUSES, AwayMode

if TYPE_CHECKING:
    from bot.host import Host


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game", group_description="Play board games at this table"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    # --- helpers ----------------------------------------------------------------------------------------

    async def _deliver(self, done: Done, carrier: Carrier | None, user_id: int, *, always: bool = False) -> Answer:
        report = await self.bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids) if carrier else None)
        text = (done.message or "") + dm_note(report.dm_closed, user_id)
        return Answer(text=text.strip() or None, always=always or bool(dm_note(report.dm_closed, user_id)))

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await game_choices(self.bot, interaction, current)

    async def _options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's own options, added one by one to what was typed so far (their names: no words)."""
        kind = str(getattr(interaction.namespace, "game", "") or "").strip().lower()
        engine = self.bot.service.read.games.get(kind)
        if engine is None:
            return []
        done, _comma, partial = current.rpartition(",")
        prefix = f"{done.strip()}, " if done.strip() else ""
        out = []
        for name, info in game_options.own_fields(engine).items():
            if name in done or not name.startswith(partial.strip().lower()):
                continue
            value = prefix + (name if info.annotation is bool else f"{name}=")
            out.append(app_commands.Choice(name=value[:100], value=value[:100]))
        return out[:25]

    async def _kind_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        games = self.bot.service.read.games.values()
        with speaking(await language_for(self.bot, interaction)):
            return [
                app_commands.Choice(
                    name=_("%(title)s (%(low)d–%(high)d players)", title=g.title, low=g.min_seats, high=g.max_seats)[
                        :100
                    ],
                    value=g.name,
                )
                for g in games
                if current.lower() in g.title.lower() or current.lower() in g.name
            ][:25]

    # --- the lobby --------------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a new game here: a lobby to join and a thread for the table")
    @app_commands.describe(
        game="Which game",
        seats="Most players at the table (the game's minimum is needed to start)",
        reaction_minutes="The reaction time in minutes (the older form of reaction_time)",
        turn_hours="How long a player has for a move (default 24 hours)",
        random_order="Shuffle the seat order at the start (default on)",
        options="The game's own options, e.g. “hide_hand_sizes” or “name=value, …” (`/game rules` lists them)",
        bots="Computer players to seat at once (more with the lobby's button)",
        level="How well those computer players play: easy, normal (default) or hard",
        reaction_time="One length for every reaction window, e.g. 90m, 4h, 1d (default: each game's own per kind)",
        away="While a player is away for days: pause their turns' clocks (default) or let the autopilot play",
        language="The table's language: everything it shows publicly (default: the server's)",
    )
    @app_commands.choices(language=[app_commands.Choice(name=LANGUAGE_NAMES[lang], value=lang) for lang in LANGUAGES])
    @app_commands.autocomplete(game=_kind_autocomplete, options=_options_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 25] | None = None,
        reaction_minutes: app_commands.Range[int, 1, 10080] | None = None,
        turn_hours: app_commands.Range[int, 1, 2160] | None = None,
        random_order: bool = True,
        options: str | None = None,
        bots: app_commands.Range[int, 0, 24] = 0,
        level: Level = "normal",
        reaction_time: str | None = None,
        away: AwayMode = "pause",
        language: str | None = None,
    ) -> None:
        typed_options = options

        async def work(carrier: Carrier) -> Answer:
            service = self.bot.service
            kind = game.strip().lower()
            engine = service.read.games.get(kind) or next(
                (g for g in service.read.games.values() if g.title.lower() == kind), None
            )
            if engine is None:
                known = ", ".join(g.title for g in service.read.games.values())
                raise Refusal(_("I don't know the game “%(game)s”. I can host: %(known)s.", game=game, known=known))
            if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
                raise Refusal(_("Use `/game new` in a server's text channel: I open a thread there for the table."))
            max_seats = seats if seats is not None else engine.max_seats
            if not engine.min_seats <= max_seats <= engine.max_seats:
                raise Refusal(
                    _(
                        "%(game)s is for %(low)d–%(high)d players.",
                        game=engine.title,
                        low=engine.min_seats,
                        high=engine.max_seats,
                    )
                )
            try:
                own = game_options.parse(
                    engine,
                    typed_options,
                    creator_id=interaction.user.id,
                    max_seats=max_seats,
                    helps=service.read.presentation(engine.name).option_help,
                )
            except game_options.OptionsError as exc:
                raise Refusal(str(exc)) from None
            picks = tuple((k, v) for k, v in own.items() if isinstance(v, game_options.PlayerPick))
            own = {k: v for k, v in own.items() if not isinstance(v, game_options.PlayerPick)}
            # Some options narrow the seat range (e.g. a variant for fewer players): the lobby gets that range.
            low, high = engine.seat_range(engine.parse_options(own))
            if (low, high) != (engine.min_seats, engine.max_seats):
                max_seats = high if seats is None else max_seats
                if not low <= max_seats <= high:
                    raise Refusal(
                        _(
                            "%(game)s with `%(options)s` is for %(low)d–%(high)d players, not %(seats)d: give "
                            "`seats:` from %(low)d to %(high)d, or leave it out.",
                            game=engine.title,
                            options=typed_options,
                            low=low,
                            high=high,
                            seats=max_seats,
                        )
                    )
            # The reaction time: typed (either form), else the server's default, else each game's own per kind.
            if reaction_time is not None and reaction_minutes is not None:
                raise Refusal(_("Give the reaction time once: `reaction_time` (e.g. `4h`) or `reaction_minutes`."))
            try:
                typed_reaction = (
                    reaction_windows.read_reaction_time(reaction_time)
                    if reaction_time is not None
                    else reaction_windows.read_reaction_minutes(reaction_minutes)
                    if reaction_minutes is not None
                    else None
                )
            except reaction_windows.ReactionTimeError as exc:
                raise Refusal(str(exc)) from None
            guild = await self.bot.store.settings.guild(interaction.guild_id)
            options: dict[str, Any] = dict(own)
            if typed_reaction is not None:
                options["reaction_time"] = typed_reaction
            elif reaction_time is None and guild.reaction_time is not None:  # `default` typed: the games' own
                options["reaction_time"] = guild.reaction_time
            if turn_hours is not None:
                options["turn_deadline"] = timedelta(hours=turn_hours)
            elif guild.turn_deadline is not None:
                options["turn_deadline"] = guild.turn_deadline
            options["away"] = away
            if "timezone" not in options and guild.timezone is not None:
                options["timezone"] = guild.timezone  # the server's, unless the table names its own
            # The table's language: chosen, else the server's (`/mod defaults language:`, else its Discord locale).
            options["language"] = language if language in LANGUAGES else server_default(guild.language, interaction)
            options = engine.parse_options(options).model_dump(mode="json")
            record = await service.lobby.create_lobby(
                engine.name,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                creator=person(interaction.user),
                options=options,
                bots=bots,
                level=level,
                max_seats=max_seats,
            )
            settings = LobbySettings(max_seats=max_seats, random_order=random_order, picks=picks)
            table = Table(
                engine,
                record,
                await self.bot.store.seats.of_game(record.id),
                None,
                service.read.now(),
                lobby_max=max_seats,
            )
            with speaking(table.language):  # the lobby message is the table's, public
                post = lobby_post(table, random_order=random_order, picks=picks)
                embed = post.embed()
                view = view_for(record.id, post.buttons)
            channel = self.bot.get_partial_messageable(interaction.channel_id or 0, guild_id=interaction.guild_id)
            if carrier.claim():  # the lobby message is the command's reply
                response = await interaction.response.send_message(embed=embed, view=view, allowed_mentions=MENTIONS)
                carrier.used = True
                message_id = response.message_id
            else:  # already deferred (a slow moment): post it in the channel instead
                message_id = (await channel.send(embed=embed, view=view, allowed_mentions=MENTIONS)).id
            assert message_id is not None
            await service.lobby.attach_lobby_message(
                record.id, message_id=message_id, channel_id=channel.id, settings=settings
            )
            ids = await open_thread_or_close(self.bot, record, channel.id, message_id)
            return await self._deliver(Done(record.id, ids), None, interaction.user.id)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="join", description="Take a seat in a game's lobby")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await repair_lobby(self.bot, await resolve_game(self.bot, interaction, game, statuses=("lobby",)))
            done = await self.bot.service.lobby.join(record.id, person(interaction.user))
            return await self._deliver(done, carrier, interaction.user.id)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="leave", description="Give up your seat: in a lobby, or hand it on in a running game")
    @app_commands.describe(
        to="In a running game: who takes your seat (they accept with a button)",
        autopilot="A running game: the autopilot plays your seat from now on",
    )
    @app_commands.autocomplete(game=_game_autocomplete)
    async def leave(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        to: discord.User | None = None,
        autopilot: bool = False,
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            # Without a taker it is a lobby's Leave, unless said in a running game's thread (then: say who takes it).
            statuses = ("lobby",) if to is None and not autopilot else ("lobby", "active", "paused")
            record = await resolve_game(self.bot, interaction, game, statuses=statuses, mine=True)
            if record.status == "lobby":
                done = await self.bot.service.lobby.leave(record.id, person(interaction.user))
            else:
                if to is not None and to.bot:
                    raise Refusal(
                        _("%(name)s is a bot: name a person, or use `autopilot:true`.", name=shown(to.display_name))
                    )
                to_person = person(to) if to is not None else None
                done = await self.bot.service.handover.leave(
                    record.id, person(interaction.user), to=to_person, autopilot=autopilot
                )
            return await self._deliver(done, carrier, interaction.user.id, always=record.status != "lobby")

        await answer(self.bot, interaction, work)

    @app_commands.command(name="cancel", description="Close a lobby that won't be played (its creator or a moderator)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await resolve_game(self.bot, interaction, game, statuses=("lobby",))
            mod = await is_moderator(self.bot, interaction)
            done = await self.bot.service.lobby.cancel_lobby(record.id, person(interaction.user), is_moderator=mod)
            return await self._deliver(done, carrier, interaction.user.id)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="start", description="Start the game (its creator or a moderator)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await repair_lobby(self.bot, await resolve_game(self.bot, interaction, game, statuses=("lobby",)))
            mod = await is_moderator(self.bot, interaction)
            done = await self.bot.service.lobby.start(record.id, person(interaction.user), is_moderator=mod)
            return await self._deliver(done, carrier, interaction.user.id)

        await answer(self.bot, interaction, work)

    # --- reading ----------------------------------------------------------------------------------------

    @app_commands.command(name="status", description="The table as everyone sees it")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            statuses = (*OPEN_STATUSES, "finished", "abandoned")
            record = await resolve_game(self.bot, interaction, game, statuses=statuses)
            table = await self.bot.service.read.table(record.id, record=record)
            if table.state is None:
                settings = await self.bot.service.read.lobby_settings(record)
                with speaking(table.language):  # the lobby as the table sees it
                    post = lobby_post(table, random_order=settings.random_order, picks=settings.picks)
                    return Answer(text=post.text or None, embed=post.embed())
            with speaking(table.language):  # the table as everyone sees it: its status message, in its language
                presentation = self.bot.service.read.presentation(record.kind)
                post = presentation.status(table)
                away.add_status_lines(post, table)
                # Only the platform's "❓ What can I do?" rides along: the game's buttons act from the thread's status.
                helper = with_help(table, [])
                view = view_for(record.id, helper) if helper else None
                picture = await self.bot.notifier.pictures.picture(presentation, table)
                if picture is not None:  # the same picture as the status message (from the cache when it's there)
                    shown = self.bot.notifier.pictures.edit_args(None, picture, post.embed())
                    return Answer(text=post.text or None, embed=shown["embed"], file=shown["file"], view=view)
                return Answer(text=post.text or None, embed=post.embed(), view=view)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="help", description="What you can do right now in this game, and how (only you see it)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def help_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            statuses = (*OPEN_STATUSES, "finished", "abandoned")
            try:  # the caller's own game first (outside its thread), else any game here, for an onlooker
                record = await resolve_game(self.bot, interaction, game, statuses=statuses, mine=True)
            except Refusal:
                record = await resolve_game(self.bot, interaction, game, statuses=statuses)
            return await help_answer(self.bot, record, interaction.user.id)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="hand", description="Your private view of the game (only you see it)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await resolve_game(self.bot, interaction, game, mine=True)
            return await hand_answer(self.bot, record.id, interaction.user.id)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="dms", description="Try again to DM you your hands (after you allowed DMs)")
    async def dms(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            user_id = interaction.user.id
            done = await self.bot.service.play.retry_dms(user_id, interaction.guild_id)
            if not done:
                raise Refusal(_("You're not in any open game in this server."))
            closed = failed = 0
            for d in done:
                report = await self.bot.notifier.flush(d.game_id)
                closed += user_id in report.dm_closed
                failed += report.failed
            if closed:
                return Answer(
                    text=_(
                        "📪 I still can't send you direct messages. In this server's menu choose **Privacy "
                        "Settings** and allow **Direct Messages**, then use `/game dms` again. Meanwhile `/game hand` "
                        "shows your hand."
                    )
                )
            if failed:
                return Answer(text=_("⚠️ Discord didn't take every message just now; I'll keep retrying."))
            return Answer(
                text=n_(
                    "📬 DMs work: your hand is in your DMs again (%(n)d game).",
                    "📬 DMs work: your hand is in your DMs again (%(n)d games).",
                    len(done),
                )
            )

        await answer(self.bot, interaction, work)

    @app_commands.command(name="list", description="The games in this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        async def work(carrier: Carrier) -> Answer:
            store = self.bot.store
            games = await store.games.find(guild_id=interaction.guild_id)
            open_games = [g for g in games if g.status in OPEN_STATUSES]
            recent = [g for g in games if g.status not in OPEN_STATUSES and g.started][-5:]  # not closed lobbies
            if not games:
                return Answer(text=_("No games here yet. Open one with `/game new`."))
            listed = open_games + recent
            seated = await store.seats.of_games([g.id for g in listed])
            lines = []
            for g in listed:
                seats = seated.get(g.id, [])
                players = ", ".join(shown(s.display_name) for s in seats if s.display_name) or _("no players yet")
                thread = f" · <#{g.thread_id}>" if g.thread_id else ""
                lines.append(f"• {describe(self.bot, g)}{thread} — {players}")
            return Answer(text="\n".join(lines)[:1900])

        await answer(self.bot, interaction, work)

    async def _page_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The chosen game's pages by title (the game of this thread when `game:` is left out), in the language
        `/game rules` will show them in (`_rules_language`)."""
        kind = str(getattr(interaction.namespace, "game", "") or "").strip().lower()
        record = None
        if isinstance(interaction.channel, discord.Thread):
            record = await self.bot.store.games.by_thread(interaction.channel_id or 0)
        if not kind:
            kind = record.kind if record is not None else ""
        language = _rules_language(record, kind) or await language_for(self.bot, interaction)
        rules = load_rules(kind, language=language) if kind in self.bot.service.read.games else None
        if rules is None:
            return []
        return [
            app_commands.Choice(name=f"{n + 1}. {p.title}"[:100], value=n + 1)  # the page's own title: its words
            for n, p in enumerate(rules.pages)
            if current.strip().lower() in f"{n + 1}. {p.title}".lower()
        ][:25]

    @app_commands.command(name="rules", description="A game's rules for players, page by page")
    @app_commands.describe(game="Which game (in a table's thread: that game)", page="Go straight to this page")
    @app_commands.autocomplete(game=_kind_autocomplete, page=_page_autocomplete)
    async def rules(
        self, interaction: discord.Interaction, game: str | None = None, page: app_commands.Range[int, 1, 99] = 1
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            service = self.bot.service
            kind = game.strip().lower() if game else None
            record = None
            if isinstance(interaction.channel, discord.Thread):
                record = await self.bot.store.games.by_thread(interaction.channel_id or 0)
            if kind is None:
                if record is None:
                    lines = [
                        _(
                            "**%(title)s** (%(low)d–%(high)d players): %(intro)s",
                            title=g.title,
                            low=g.min_seats,
                            high=g.max_seats,
                            intro=_intro(service, g),
                        )
                        for g in service.read.games.values()
                    ]
                    lines.append(_("`/game rules game:` shows a game's rules, page by page."))
                    if not service.read.games:
                        return Answer(text=_("No games are installed."))
                    return Answer(text="\n\n".join(lines)[:1900])
                kind = record.kind
            engine = service.read.games.get(kind) or next(
                (g for g in service.read.games.values() if g.title.lower() == kind), None
            )
            if engine is None:
                raise Refusal(_("I don't know the game “%(game)s”.", game=game or kind))
            # The table's rules in its language (in its thread); another game's in the reader's.
            return rules_answer(self.bot, engine.name, page - 1, language=_rules_language(record, engine.name))

        await answer(self.bot, interaction, work)

    # --- away -------------------------------------------------------------------------------------------

    @app_commands.command(name="away", description="Away for a while or for days: the table's `away` option decides")
    @app_commands.describe(
        until="Back on this day (UTC), e.g. 2026-12-24, or a time: 2026-12-24 18:00",
        days="Away for this many days",
        duration="Away for this long, e.g. 2h, 3d, 1d12h",
    )
    async def away(
        self,
        interaction: discord.Interaction,
        until: str | None = None,
        days: int | None = None,
        duration: str | None = None,
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            now = self.bot.service.read.now()
            back_at = away_until(now, until=until, days=days, duration=duration)
            done = await self.bot.service.play.set_away(interaction.user.id, interaction.guild_id, back_at)
            if not done:
                raise Refusal(_("You're not in any game in this server."))
            for d in done:
                await self.bot.notifier.flush(d.game_id)
            return Answer(
                text=n_(
                    "💤 You're away for %(duration)s (until %(until)s) in %(n)d game: reaction windows pass for you; "
                    "the table's `away` option says whether your turns' clocks stop or the autopilot plays for you "
                    "(the thread says which). `/game back` when you return.",
                    "💤 You're away for %(duration)s (until %(until)s) in %(n)d games: reaction windows pass for you; "
                    "each table's `away` option says whether your turns' clocks stop or the autopilot plays for you "
                    "(the thread says which). `/game back` when you return.",
                    len(done),
                    duration=describe_duration(back_at - now),
                    until=f"<t:{int(back_at.timestamp())}:f>",
                )
            )

        await answer(self.bot, interaction, work)

    @app_commands.command(name="back", description="You're back: your seats come off autopilot, windows wait for you")
    @app_commands.describe(player="A moderator: give this player's seats back from the autopilot")
    async def back(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            service = self.bot.service
            if player is not None and player.id != interaction.user.id:
                await require_moderator(self.bot, interaction)
                taken = await service.seats.take_back(player.id, interaction.guild_id, by=person(interaction.user))
                for d in taken:
                    await self.bot.notifier.flush(d.game_id)
                if not taken:
                    raise Refusal(
                        _("%(name)s has no seat on autopilot in this server.", name=shown(player.display_name))
                    )
                return Answer(
                    text=_("%(name)s plays their seats again (%(n)d).", name=shown(player.display_name), n=len(taken))
                )
            now = service.read.now()
            seats = await self.bot.store.seats.of_player(interaction.user.id, statuses=OPEN_STATUSES)
            # One read of this server's open games, not one per seat.
            games = await self.bot.store.games.find(statuses=OPEN_STATUSES, guild_id=interaction.guild_id)
            ids = {g.id for g in games}
            here = [s for s in seats if s.game_id in ids]
            if not here:
                return Answer(text=_("You're not in any game in this server."))
            was_away = any(s.away_until is not None and s.away_until > now for s in here)
            on_autopilot = [s for s in here if s.autopilot]
            # The absence first (it ends an away autopilot with its own line), then any other autopilot.
            done = await service.play.set_away(interaction.user.id, interaction.guild_id, None) if was_away else []
            taken = await service.seats.take_back(interaction.user.id, interaction.guild_id)
            for d in [*done, *taken]:
                await self.bot.notifier.flush(d.game_id)
            if on_autopilot:
                n = len(on_autopilot)
                if was_away:
                    return Answer(
                        text=n_(
                            "👋 Welcome back: the autopilot no longer plays for you (%(n)d game). Reaction windows "
                            "wait for you again.",
                            "👋 Welcome back: the autopilot no longer plays for you (%(n)d games). Reaction windows "
                            "wait for you again.",
                            n,
                        )
                    )
                return Answer(
                    text=n_(
                        "👋 Welcome back: the autopilot no longer plays for you (%(n)d game).",
                        "👋 Welcome back: the autopilot no longer plays for you (%(n)d games).",
                        n,
                    )
                )
            if not was_away:
                # Nothing to undo: saying "welcome back" to someone who never left would be wrong (and would
                # cost a status edit per game for nothing).
                return Answer(
                    text=_("You weren't away: reaction windows already wait for you. (`/game away` is for an absence.)")
                )
            return Answer(text=_("👋 Welcome back: your turns' clocks run again and reaction windows wait for you."))

        await answer(self.bot, interaction, work)

    vote = app_commands.Group(name="vote", description="Votes of the players at a table")

    @vote.command(
        name="replace", description="Vote to hand the seat of a player who is gone to someone or the autopilot"
    )
    @app_commands.describe(
        player="The player who let two turn deadlines in a row pass",
        with_="Who should take their seat (they accept with a button)",
        autopilot="Or: the autopilot plays their seat",
    )
    @app_commands.rename(with_="with")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def vote_replace(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        with_: discord.User | None = None,
        autopilot: bool = False,
        game: int | None = None,
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await resolve_game(self.bot, interaction, game, statuses=("active", "paused"), mine=True)
            if with_ is not None and with_.bot:
                raise Refusal(
                    _("%(name)s is a bot: name a person, or use `autopilot:true`.", name=shown(with_.display_name))
                )
            done = await self.bot.service.handover.open_vote(
                record.id,
                person(interaction.user),
                person(player),
                to=person(with_) if with_ is not None else None,
                autopilot=autopilot,
            )
            return await self._deliver(done, carrier, interaction.user.id, always=True)

        await answer(self.bot, interaction, work)

    # --- records (issue 32: `bot.records`) ---------------------------------------------------------------

    @app_commands.command(name="history", description="Games that ended in this server, newest first")
    @app_commands.describe(page="Go straight to this page")
    async def history(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 99999] = 1) -> None:
        guild = interaction.guild.name if interaction.guild else None
        await answer(self.bot, interaction, lambda _c: records.history(self.bot, interaction.guild_id, page, guild))

    @app_commands.command(name="log", description="A finished game's account: what the table was told")
    @app_commands.describe(game="The game's number (in its thread: that game)", page="Go straight to this page")
    async def log(
        self, interaction: discord.Interaction, game: int | None = None, page: app_commands.Range[int, 1, 9999] = 1
    ) -> None:
        async def work(carrier: Carrier) -> Answer:
            statuses = (*OPEN_STATUSES, "finished", "abandoned")
            record = await resolve_game(self.bot, interaction, game, statuses=statuses)
            return await records.game_log(self.bot, record, page)

        await answer(self.bot, interaction, work)

    @app_commands.command(name="top", description="The best players of a game in this server (ratings)")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=_kind_autocomplete)
    async def top(self, interaction: discord.Interaction, game: str) -> None:
        await answer(self.bot, interaction, lambda _c: records.top(self.bot, interaction.guild_id, game))

    # --- a move, for any game ---------------------------------------------------------------------------

    async def _action_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves in words (`describe_action`); each one's value is a short token (`bot.moves`)."""
        try:
            game_id = getattr(interaction.namespace, "game", None)
            record = await resolve_game(self.bot, interaction, game_id, mine=True)
            table = await self.bot.service.read.table(record.id, record=record)
            seat = await self.bot.service.read.seat_of(record.id, interaction.user.id)
        except Refusal:
            return []
        presentation = self.bot.service.read.presentation(record.kind)
        with speaking(own_language(interaction) or table.language):  # the reader's words, else the table's
            found = moves.suggestions(presentation, table, seat, current)
        return [app_commands.Choice(name=name, value=value) for name, value in found]

    @app_commands.command(name="move", description="Make a move (any game): pick one of your legal moves")
    @app_commands.describe(action="The move: pick it from the suggestions (they list what you may do now)")
    @app_commands.autocomplete(action=_action_autocomplete, game=_game_autocomplete)
    async def move(self, interaction: discord.Interaction, action: str, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await resolve_game(self.bot, interaction, game, mine=True)
            if action.strip().startswith(("{", "[", '"')):  # typed JSON: read with its bounds, never suggested
                done = await self.bot.service.play.act(record.id, interaction.user.id, read_move(action))
            else:  # a picked suggestion (or its words), found among the legal moves under the game's lock
                presentation = self.bot.service.read.presentation(record.kind)
                done = await self.bot.service.play.act_for_seat(
                    record.id, interaction.user.id, lambda table, seat: moves.find(presentation, table, seat, action)
                )
            return await self._deliver(done, carrier, interaction.user.id)

        await answer(self.bot, interaction, work)


def _rules_language(record: Any, kind: str) -> str | None:
    """The language `/game rules` shows a game in: the table's when asked in the thread of a table of that game,
    else None (the reader's)."""
    if record is not None and record.kind == kind:
        return str(record.options.get("language") or "en")
    return None


def _intro(service: Any, engine: Any) -> str:
    """A game's one-paragraph introduction: its players' page's, else its presentation's summary."""
    rules = load_rules(engine.name)
    return rules.intro if rules is not None and rules.intro else service.read.presentation(engine.name).rules(engine)
