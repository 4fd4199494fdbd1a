"""The Discord client: `create_bot(settings, ...)` builds it (without starting it), `setup_hook` wires it up.

This module only builds and starts the bot; what it does is in the features it wires together (their buttons are
declared beside them, see `bot.components`; they see the bot as `bot.host.Host`, and nothing but the entry point
imports this module).

At start-up the bot opens the store (migrations run; a broken or newer file stops it with the store's message),
registers the persistent buttons (`bot.game_buttons.GAME_BUTTONS`, and the pagers of the rules, history and logs),
adds the `/game` and `/mod` commands, the reaction listener and each game's own cog, syncs the slash commands if
they changed, and once connected starts the scheduler (overdue timers fire at once) and serves commands, while
behind them it delivers what a crash left in the outbox and reads back the reactions that changed while it was
offline (`ReactionCog.reconcile`; again after any new gateway session). Games with overdue timers are caught up
with first, and their timers wait for that. With `SHARD_COUNT` the bot is an `AutoShardedBot` holding `SHARD_IDS`,
and that catch-up runs per shard as each connects (`on_shard_ready`), for the games of that shard (`bot.shards`).

Gateway intents: only `guilds` (channels, threads, roles — for moderator checks), `guild_reactions` (the raw
reaction events behind "Shake!") and `guild_messages` (that a message was posted in a table thread — never its
text — so the notifier knows whether its last narration message is still the newest one and how deep the status
message is buried). No privileged intent: the bot reads no message content and needs no member list (names come
with each interaction).
"""

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.claims import Claims, Takeover, default_owner
from bot.cogs.game import GameCog
from bot.cogs.me import MeCog
from bot.cogs.mine import MineCog
from bot.cogs.mod import ModCog
from bot.cogs.reactions import ReactionCog
from bot.digest import Digests
from bot.game_buttons import GAME_BUTTONS
from bot.host import Host
from bot.housekeeping import Housekeeper
from bot.http_port import HttpPort
from bot.i18n import known, speaking
from bot.i18n.commands import BoardroomTranslator
from bot.i18n.platform import _
from bot.lobby_repair import repair_all
from bot.names import NO_MENTIONS
from bot.notifier import Notifier
from bot.presentation import Presentation
from bot.records import Recorder
from bot.records.answers import HistoryButton, LogButton
from bot.rules_answer import RulesButton
from bot.scheduler import Scheduler
from bot.seat_players import SeatRules
from bot.service import GameService, Refusal
from bot.settings import Settings
from bot.shards import games_of_shard
from bot.sync import sync_commands
from engine.game import Game
from storage import GameStore, StoreFileError, open_store
from storage.backends import is_postgres

log = logging.getLogger("boardroom")


async def open_database(path: str | Path) -> GameStore:
    """Open (or create, with its folder) the store: an SQLite file, or a PostgreSQL database by its URL
    (`Settings.database`); every problem is a `StorageError` naming the file (or the URL without its password)."""
    if is_postgres(path):
        return await open_store(path)
    path = Path(path)
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


class BoardroomBot(Host):
    """The bot: its parts built here, wired and started in `setup_hook` and `on_ready`, closed in `close`."""

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
        client_options.setdefault("http_trace", metrics.http_trace())  # REST calls and 429s for `/metrics`
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **client_options)
        self.settings = settings
        self.clock = clock
        self._games = dict(games)
        self._presentations = dict(presentations)
        self._seed_source = seed_source
        self._store = store
        self.claims = Claims(
            settings.process_name or default_owner(settings.shard_ids),
            timedelta(seconds=settings.claim_lease_seconds),
            clock,
            shared=settings.shard_count is not None,
        )
        self.takeover = Takeover(self)
        self.notifier = Notifier(self)
        self.scheduler = Scheduler(self, clock)
        self.housekeeper = Housekeeper(self, clock)
        self.digests = Digests(self, clock)
        self._ready_once = False
        self._shards_caught_up: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.synced_commands: bool | None = None
        self.damaged_reported: set[int] = set()
        self.http_port: HttpPort | None = None
        """`/healthz` and `/metrics` (`HTTP_PORT`), bound at the login."""
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]

    async def login(self, token: str) -> None:
        # The HTTP port first, before Discord is asked anything: a port that can't be bound stops the start
        # (`HttpPortError`, exit code 2), and /healthz answers (503 until the store is open) while the bot logs in.
        if self.settings.http_port is not None and self.http_port is None:
            port = HttpPort(self, self.settings.http_host, self.settings.http_port)
            await port.start()
            self.http_port = port
        await super().login(token)

    async def setup_hook(self) -> None:
        if self._store is None:
            self._store = await open_database(self.settings.database)
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
        self._service.moves.claim = self.claims.hold
        self._service.moves.on_settled = self.notifier.settled
        self.recorder = Recorder(self.store, self._games)
        self._service.moves.on_game_over = self.recorder.game_over
        self._service.play.away_max = timedelta(days=self.settings.away_max_days)
        self._service.seats.rules = SeatRules(
            autopilot_after=self.settings.autopilot_after, per_hour=self.settings.computer_moves_per_hour
        )
        self.add_dynamic_items(*GAME_BUTTONS, RulesButton, HistoryButton, LogButton)
        await self.add_commands()
        self.synced_commands = await sync_commands(
            self.tree,
            dev_guild_id=self.settings.dev_guild_id,
            database_path=self.settings.database_path,
            mode=self.settings.command_sync,
        )

    async def add_commands(self) -> None:
        """The cogs (`/game`, `/mod`, `/me`, `/mine`, the reaction listener, each game's own group) and the slash
        commands' translator (their names and descriptions in Dutch and German, `bot.i18n.commands`), before the
        commands are synced. Needs no connection: `bot.i18n.command_tree.command_catalog` builds the tree this way."""
        await self.tree.set_translator(BoardroomTranslator())
        await self.add_cog(GameCog(self))
        await self.add_cog(ModCog(self))
        await self.add_cog(MeCog(self))
        await self.add_cog(MineCog(self))
        await self.add_cog(ReactionCog(self))
        for name, presentation in self._presentations.items():
            cog = presentation.cog(self)
            if cog is not None:
                await self.add_cog(cog)
                log.info("added the commands of %s", name)

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
        await self.notifier.starting()  # before anything is delivered: which statuses may not be where stored
        await repair_all(self)  # lobbies a crash left without their thread
        # Timers fire and commands are served at once; what a crash or a downtime left behind is caught up with
        # behind them. A game with an overdue timer is caught up with first, and its timers wait for that (the
        # scheduler holds them): a 🤝 given while the bot was offline counts before the deadline it beat.
        sharded = self.settings.shard_count is not None  # then each shard is caught up with as it connects
        overdue = set() if sharded else {t.game_id for t in await self.store.timers.due(self.clock(), limit=1000)}
        self.scheduler.hold(overdue)
        self.scheduler.start()
        if sharded:  # one of several processes (one alone finds its own claims its own again after a restart)
            self.takeover.start()
        self.housekeeper.start()
        self.digests.start()
        self.recorder.wake()  # games that ended while the bot was down (or before records existed)
        if not sharded:
            self._background(self._catch_up(reactions if isinstance(reactions, ReactionCog) else None, overdue))

    async def on_shard_ready(self, shard_id: int) -> None:
        """With `SHARD_COUNT`: the start-up catch-up of this shard's games, the first time it connects."""
        count = self.settings.shard_count
        if count is None:
            return
        games = await games_of_shard(self.store, shard_id, count)
        reactions = self.get_cog("ReactionCog")
        reactions = reactions if isinstance(reactions, ReactionCog) else None
        if shard_id in self._shards_caught_up:
            # A new session of the shard (not a resume): its servers' reaction events in between were lost.
            if reactions is not None:
                self._background(reactions.reconcile(only=games))
            return
        self._shards_caught_up.add(shard_id)
        overdue = {t.game_id for t in await self.store.timers.due(self.clock(), limit=1000)} & games
        self.scheduler.hold(overdue)
        self._background(self._catch_up(reactions, overdue, games))

    async def _catch_up(self, reactions: "ReactionCog | None", first: set[int], games: set[int] | None = None) -> None:
        """At start-up, behind play: deliver what the outbox still holds (`Notifier.catch_up`: a table's status
        edits wait for its next move) and read back the reactions missed while offline. The games with overdue
        timers first, each released to the scheduler once caught up with; then all the others (of `games`, one
        shard's, if given)."""
        try:
            for game_id in sorted(first):
                await self.notifier.catch_up([game_id])
            if reactions is not None:
                await reactions.reconcile(only=first, caught_up=self.scheduler.release)
            for game_id in first:
                self.scheduler.release(game_id)
            await (self.notifier.flush_all() if games is None else self.notifier.flush_all(only=games))
            if reactions is not None:
                await reactions.reconcile(only=None if games is None else games - first, skip=first)
        except Exception:
            log.exception("catching up at start-up failed")
        finally:
            for game_id in first:
                self.scheduler.release(game_id)

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self.scheduler.close()
        self.takeover.close()
        if hasattr(self, "recorder"):
            self.recorder.close()
        self.housekeeper.close()
        self.digests.close()
        self.notifier.close()
        try:
            if self.http_port is not None:
                await self.http_port.close()
            await super().close()
        finally:
            if self._store is not None:
                await self._store.close()

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        with speaking(known(interaction.locale) or known(interaction.guild_locale)):  # the reader's, as answers
            if isinstance(original, Refusal):
                text = original.message
            elif isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
                text = _("I couldn't read that command's options; please pick them from the suggestions and try again.")
            else:
                log.error("app command failed", exc_info=error)
                text = _("Sorry — something went wrong on my side and nothing was changed.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


class ShardedBoardroomBot(BoardroomBot, commands.AutoShardedBot):
    """The bot holding `SHARD_IDS` of `SHARD_COUNT` gateway shards (one connection each): one of several processes
    on one database, or one process with many servers."""


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
    cls = BoardroomBot
    if settings.shard_count is not None:
        cls = ShardedBoardroomBot
        client_options.setdefault("shard_count", settings.shard_count)
        client_options.setdefault("shard_ids", settings.shard_ids)
    return cls(
        settings,
        games=games,
        presentations=presentations,
        clock=clock or discord.utils.utcnow,
        seed_source=seed_source,
        store=store,
        **client_options,
    )
