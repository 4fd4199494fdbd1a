"""The Discord client: `create_bot(settings, ...)` builds it (without starting it), `setup_hook` wires it up.

At start-up the bot opens the store (migrations run; a broken or newer file stops it with the store's message),
registers the persistent buttons, adds the `/game` and `/mod` commands, the reaction listener and each game's own
cog, syncs the slash commands if they changed, and once connected starts the scheduler (overdue timers fire at once)
and serves commands, while behind them it delivers what a crash left in the outbox and reads back the reactions that
changed while it was offline (`ReactionCog.reconcile`; again after any new gateway session). Games with overdue
timers are caught up with first, and their timers wait for that.

Gateway intents: only `guilds` (channels, threads, roles — for moderator checks), `guild_reactions` (the raw
reaction events behind "Shake!") and `guild_messages` (that a message was posted in a table thread — never its
text — so the notifier knows whether its last narration message is still the newest one and how deep the status
message is buried). No privileged intent: the bot reads no message content and needs no member list (names come
with each interaction).
"""

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import game_options, ids, outbox
from bot.cogs.game import GameCog, dm_note, person
from bot.cogs.me import MeCog
from bot.cogs.mod import UNDO_KEY, ModCog, confirm_undo
from bot.cogs.reactions import ReactionCog
from bot.components import GameButton, RulesButton, rules_view, view_for
from bot.forms import DONE, GameForm
from bot.helping import HELP_KEY, help_post
from bot.housekeeping import Housekeeper
from bot.lobby import ADD_BOT, REMOVE_BOT, added_level, level_choice
from bot.lobby_repair import repair_all, repair_lobby
from bot.names import NO_MENTIONS
from bot.notifier import Carrier, Notifier, hand_post
from bot.presentation import Presentation
from bot.records import Recorder
from bot.records.answers import HistoryButton, LogButton
from bot.rematch import rematch
from bot.replies import Answer, answer
from bot.resolve import is_moderator
from bot.rules import Page, Rules, rules_post
from bot.rules import load as load_rules
from bot.scheduler import Scheduler
from bot.seat_players import SeatRules
from bot.service import GameService, Refusal
from bot.settings import Settings
from bot.sync import sync_commands
from engine.game import Game
from storage import GameNotFound, GameRecord, GameStore, StoreFileError, open_store

log = logging.getLogger("boardroom")


async def open_database(path: Path) -> GameStore:
    """Open (or create, with its folder) the store; every problem is a `StorageError` naming the file."""
    if str(path) != ":memory:":
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreFileError(str(path), f"its folder cannot be created ({exc.strerror or exc})") from None
    return await open_store(path)


def default_intents() -> discord.Intents:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_reactions = True
    intents.guild_messages = True
    return intents


class BoardroomBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        games: Mapping[str, Game],  # type: ignore[type-arg]
        presentations: Mapping[str, Presentation],
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] | None = None,
        store: GameStore | None = None,
        **client_options: Any,
    ) -> None:
        # discord.py warns at every start that PyNaCl (for voice) is missing: the bot never joins a voice channel,
        # so the warning would only alarm whoever reads the log.
        discord.VoiceClient.warn_nacl = False
        client_options.setdefault("intents", default_intents())
        client_options.setdefault("allowed_mentions", NO_MENTIONS)  # a message that pings says so
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **client_options)
        self.settings = settings
        self.clock = clock
        self._games = dict(games)
        self._presentations = dict(presentations)
        self._seed_source = seed_source
        self._store = store
        self.notifier = Notifier(self)
        self.scheduler = Scheduler(self, clock)
        self.housekeeper = Housekeeper(self, clock)
        self._ready_once = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self.synced_commands: bool | None = None
        self.damaged_reported: set[int] = set()
        """Games whose damaged data was logged (`bot.damage`)."""
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    @property
    def store(self) -> GameStore:
        if self._store is None:
            raise RuntimeError("the store is opened in setup_hook")
        return self._store

    @property
    def service(self) -> GameService:
        return self._service

    async def setup_hook(self) -> None:
        if self._store is None:
            self._store = await open_database(self.settings.database_path)
        self._service = GameService(
            self.store,
            self._games,
            self._presentations,
            clock=self.clock,
            seed_source=self._seed_source,
            reminders=self.settings.reminders,
        )
        self._service.moves.on_timers_changed = self.scheduler.poke
        self._service.moves.on_committed = self.notifier.enqueue
        self._service.moves.on_settled = self.notifier.settled
        self.recorder = Recorder(self.store, self._games)
        self._service.moves.on_game_over = self.recorder.game_over
        self._service.seats.rules = SeatRules(
            autopilot_after=self.settings.autopilot_after, per_hour=self.settings.computer_moves_per_hour
        )
        self.add_dynamic_items(GameButton, RulesButton, HistoryButton, LogButton)
        await self.add_cog(GameCog(self))
        await self.add_cog(ModCog(self))
        await self.add_cog(MeCog(self))
        await self.add_cog(ReactionCog(self))
        for name, presentation in self._presentations.items():
            cog = presentation.cog(self)
            if cog is not None:
                await self.add_cog(cog)
                log.info("added the commands of %s", name)
        self.synced_commands = await sync_commands(
            self.tree,
            dev_guild_id=self.settings.dev_guild_id,
            database_path=self.settings.database_path,
            mode=self.settings.command_sync,
        )

    async def on_message(self, message: discord.Message) -> None:
        if isinstance(message.channel, discord.Thread):
            self.notifier.saw_message(message.channel.id, message.id)

    async def on_ready(self) -> None:
        reactions = self.get_cog("ReactionCog")
        if self._ready_once:
            # A new gateway session (not a resume): reaction events in between were lost, read them back.
            if isinstance(reactions, ReactionCog):
                self._background(reactions.reconcile())
            return
        self._ready_once = True
        log.info("connected as %s; serving %d game kinds", self.user, len(self._games))
        await repair_all(self)  # lobbies a crash left without their thread
        # Timers fire and commands are served at once; what a crash or a downtime left behind is caught up with
        # behind them. A game with an overdue timer is caught up with first, and its timers wait for that (the
        # scheduler holds them): a 🤝 given while the bot was offline counts before the deadline it beat.
        overdue = {t.game_id for t in await self.store.timers.due(self.clock(), limit=1000)}
        self.scheduler.hold(overdue)
        self.scheduler.start()
        self.housekeeper.start()
        self.recorder.wake()  # games that ended while the bot was down (or before records existed)
        self._background(self._catch_up(reactions if isinstance(reactions, ReactionCog) else None, overdue))

    async def _catch_up(self, reactions: "ReactionCog | None", first: set[int]) -> None:
        """At start-up, behind play: deliver what the outbox still holds and read back the reactions missed while
        offline. The games with overdue timers first, each released to the scheduler once caught up with; then
        all the others."""
        try:
            for game_id in sorted(first):
                try:
                    await self.notifier.flush(game_id)
                except Exception:
                    log.exception("delivery failed", extra={"game": game_id})
            if reactions is not None:
                await reactions.reconcile(only=first, caught_up=self.scheduler.release)
            self.scheduler.release_all()
            await self.notifier.flush_all()
            if reactions is not None:
                await reactions.reconcile(skip=first)
        except Exception:
            log.exception("catching up at start-up failed")
        finally:
            self.scheduler.release_all()

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self.scheduler.close()
        if hasattr(self, "recorder"):
            self.recorder.close()
        self.housekeeper.close()
        self.notifier.close()
        try:
            await super().close()
        finally:
            if self._store is not None:
                await self._store.close()

    # --- buttons ----------------------------------------------------------------------------------------

    async def on_game_button(self, interaction: discord.Interaction, game_id: int, key: str) -> None:
        """A `GameButton` was clicked: the platform's own keys, else the game's `button_reply` or `button_action`.

        A click on a private message (a hand DM, an ephemeral answer) acts for the clicker's seat and answers by
        bringing that message up to date as the seat's hand; a refusal there is shown on top of it."""
        user = interaction.user

        async def work(carrier: Carrier) -> Answer | None:
            service = self.service
            record = await self._button_game(interaction, game_id)
            if key == "hand":
                return await self.hand_answer(game_id, user.id)
            if key == "rematch":
                return await rematch(self, game_id, person(user))
            if key == HELP_KEY:  # anyone may ask, player or onlooker: before the seat check below
                return await self.help_answer(record, user.id)
            if key.startswith(UNDO_KEY):
                return await confirm_undo(self, interaction, game_id, key, carrier)
            if key == ADD_BOT:  # which level: asked privately, after the same checks as the adding itself
                await service.lobby.check_add_bot(
                    game_id, person(user), is_moderator=await is_moderator(self, interaction)
                )
                choice = level_choice()
                return Answer(text=choice.content, view=view_for(game_id, choice.buttons))
            level = added_level(key)
            if level is not None or key in ("join", "leave", "start", REMOVE_BOT):
                if level is not None:
                    mod = await is_moderator(self, interaction)
                    done = await service.lobby.add_bot(game_id, person(user), is_moderator=mod, level=level)
                elif key == "join":
                    done = await service.lobby.join(game_id, person(user))
                elif key == "leave":
                    done = await service.lobby.leave(game_id, person(user))
                elif key == "start":
                    mod = await is_moderator(self, interaction)
                    done = await service.lobby.start(game_id, person(user), is_moderator=mod)
                else:
                    mod = await is_moderator(self, interaction)
                    done = await service.lobby.remove_bot(game_id, person(user), is_moderator=mod)
                report = await self.notifier.flush(game_id, carrier.for_rows(done.outbox_ids))
                note = dm_note(report.dm_closed, user.id)
                return Answer(text=(done.message or "") + note, always=bool(note))
            presentation = service.read.presentation(record.kind)
            if key == "details":  # the whole table, privately: for onlookers too
                details = presentation.status_details(await service.read.table(game_id, record=record))
                if details is None:
                    raise Refusal("The status message shows all there is.")
                return Answer(text=details.text or None, embed=details.embed())
            seat = await service.read.seat_of(game_id, user.id)  # refuses anyone who doesn't play
            private = await self._private_click(interaction, game_id, user.id, seat)
            if record.started:
                table = await service.read.table(game_id, record=record)
                form = presentation.button_form(table, seat, key)
                if form is not None:  # a modal must be the click's first and only response
                    if not carrier.claim():
                        raise Refusal("That took too long: click the button again to open the form.")
                    await interaction.response.send_modal(GameForm(self, game_id, form))
                    carrier.used = True
                    return None
                reply = presentation.button_reply(table, seat, key)
                if reply is not None:
                    return Answer(text=reply.text or None, embed=reply.embed(), view=view_for(game_id, reply.buttons))
            try:
                done = await service.play.act_for_seat(
                    game_id, user.id, lambda table, seat: presentation.button_action(table, seat, key)
                )
            except Refusal as refusal:
                if private and _ephemeral(interaction.message):
                    return await self._refresh_private(interaction, carrier, game_id, user.id, refusal.message)
                raise
            carrier.for_rows(done.outbox_ids).private = private
            await self.notifier.flush(game_id, carrier)
            if private and not carrier.used:
                if _answer_to_a_click(interaction.message) and await self._hand_in_dm(game_id, seat):
                    return await self._settled(interaction, carrier)
                return await self._refresh_private(interaction, carrier, game_id, user.id)
            return None

        await answer(self, interaction, work, game_id=game_id)

    async def _button_game(self, interaction: discord.Interaction, game_id: int) -> GameRecord:
        """Refuse clearly a button whose game isn't here: forged, or on a message older than a restored backup."""
        try:
            record = await self.store.games.get(ids.game_id(game_id))
        except GameNotFound:
            raise Refusal(
                f"This button belongs to game #{game_id}, which I don't have (any more). `/game list` shows the "
                "games here."
            ) from None
        if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
            raise Refusal(f"This button belongs to game #{game_id}, which isn't played in this server.")
        return await repair_lobby(self, record)  # a lobby a crash left without its thread: completed or closed

    async def _private_click(self, interaction: discord.Interaction, game_id: int, user_id: int, seat: int) -> bool:
        """Whether the clicked message is private (a hand DM or an ephemeral answer). A hand DM must be the
        clicker's own current one: a stale or someone else's is refused."""
        message = interaction.message
        if message is None:
            return False
        if _ephemeral(message):
            return True
        ref = await self.store.refs.get(message.id)
        if ref is not None and ref.game_id == game_id and ref.kind == outbox.HAND:
            if ref.seat != seat:
                raise Refusal("These buttons belong to another seat's hand. `/game hand` shows yours.")
            return True
        if interaction.guild_id is None:  # a DM that is no longer anyone's hand message
            raise Refusal("This message is out of date: your hand is in my latest DM for this game, or `/game hand`.")
        return False

    async def _hand_in_dm(self, game_id: int, seat: int) -> bool:
        """Whether the seat's hand is a DM the bot can edit (it then shows the move's outcome)."""
        seats = await self.store.seats.of_game(game_id)
        if any(s.seat == seat and s.dm_ok is False for s in seats):
            return False
        return await self.store.refs.find(game_id, outbox.HAND, seat=seat) is not None

    async def _settled(self, interaction: discord.Interaction, carrier: Carrier) -> Answer | None:
        """A private answer to a button (e.g. the limits behind Object…) whose choice was made: it says so, without
        buttons — a second copy of the hand would only go stale beside the DM, which shows the move already."""
        text = DONE
        if carrier.claim():
            await interaction.response.edit_message(content=text, embed=None, view=discord.ui.View())
            carrier.used = True
            return None
        return Answer(text=text, always=True)  # deferred: a follow-up instead

    async def _refresh_private(
        self, interaction: discord.Interaction, carrier: Carrier, game_id: int, user_id: int, note: str | None = None
    ) -> Answer | None:
        """Edit the clicked private message into the seat's current hand (with `note` on top), as the response."""
        answer_ = await self.hand_answer(game_id, user_id)
        text = note or None
        view = answer_.view or discord.ui.View()
        if carrier.claim():
            await interaction.response.edit_message(content=text, embed=answer_.embed, view=view)
            carrier.used = True
            return None
        return Answer(text=text, embed=answer_.embed, view=view, always=True)  # deferred: a follow-up instead

    async def hand_answer(self, game_id: int, user_id: int) -> Answer:
        """The seat's hand as an ephemeral answer, with its buttons (an empty view when it has none)."""
        table, seat = await self.service.read.private_view(game_id, user_id)
        post = hand_post(self.service.read.presentation(table.record.kind), table, seat)
        text = post.text or None
        if any(s.seat == seat and s.dm_ok is False for s in table.seats):
            hint = "📪 Your DMs are closed to me. After allowing DMs from this server's members, `/game dms` sends it."
            text = f"{text}\n{hint}" if text else hint
        return Answer(text=text, embed=post.embed(), view=view_for(game_id, post.buttons))

    async def help_answer(self, record: GameRecord, user_id: int) -> Answer:
        """“What can I do?” for this user in this game (`bot.helping`), shown to them alone."""
        table = await self.service.read.table(record.id, record=record)
        seat = next((s.seat for s in table.seats if s.player_id == user_id), None)
        post = help_post(self.service.read.presentation(record.kind), table, seat)
        return Answer(text=post.text or None, embed=post.embed())

    def rules_answer(self, kind: str, page: int = 0) -> Answer:
        """Page `page` of a game's rules (`bot.rules`), with ◀ ▶ to turn the pages."""
        engine = self.service.read.games.get(kind)
        if engine is None:
            raise Refusal(f"I don't know the game “{kind}”.")
        rules = load_rules(engine.name)
        players = f"{engine.min_seats}–{engine.max_seats} players"
        options = game_options.describe(engine)
        if rules is None:  # a game without a players' page: its presentation's summary, on one page
            summary = self.service.read.presentation(engine.name).rules(engine)
            only = Rules(engine.title, "", (Page("Rules", summary),))
            post = rules_post(only, 0, name=engine.name, players=players, options=options)
            return Answer(embed=post.embed())
        link = self.settings.rules_link(engine.name)
        post = rules_post(rules, page, name=engine.name, players=players, link=link, options=options)
        shown = min(max(page, 0), len(rules.pages) - 1)
        return Answer(embed=post.embed(), view=rules_view(engine.name, shown, len(rules.pages)))

    async def on_rules_button(self, interaction: discord.Interaction, kind: str, page: int) -> None:
        """◀ / ▶ under a rules answer: that answer turns to `page`."""
        try:
            shown = self.rules_answer(kind, page)
        except Refusal as refusal:
            await interaction.response.send_message(refusal.message, ephemeral=True)
            return
        await interaction.response.edit_message(embed=shown.embed, view=shown.view)

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, Refusal):
            text = original.message
        elif isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            text = "I couldn't read that command's options; please pick them from the suggestions and try again."
        else:
            log.error("app command failed", exc_info=error)
            text = "Sorry — something went wrong on my side and nothing was changed."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


def _ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


def _answer_to_a_click(message: discord.Message | None) -> bool:
    """An ephemeral message that answered a button (a `button_reply`), not a `/game hand` answer."""
    meta = message.interaction_metadata if message is not None else None
    return _ephemeral(message) and meta is not None and meta.type == discord.InteractionType.component


def create_bot(
    settings: Settings,
    *,
    games: Mapping[str, Game] | None = None,  # type: ignore[type-arg]
    presentations: Mapping[str, Presentation] | None = None,
    clock: Callable[[], datetime] | None = None,
    seed_source: Callable[[], int] | None = None,
    store: GameStore | None = None,
    **client_options: Any,
) -> BoardroomBot:
    """The bot, built but not started. `games` defaults to the engine's registry, with the server owner's data files
    from `settings.game_data_dir` (a wrong file raises `DataFileError` naming the file and the field); tests may
    inject their own games."""
    if games is None:
        from engine import registry

        games = registry.build(settings.game_data_dir)
    if presentations is None:
        from bot.games import load_presentations

        presentations = load_presentations(games)
    else:
        from bot.games import load_presentation

        presentations = {name: presentations.get(name) or load_presentation(name) for name in games}
    return BoardroomBot(
        settings,
        games=games,
        presentations=presentations,
        clock=clock or discord.utils.utcnow,
        seed_source=seed_source,
        store=store,
        **client_options,
    )
