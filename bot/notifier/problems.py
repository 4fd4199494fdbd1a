"""Problems people are told of: a failed delivery recorded on its row (kept in doubt when it may have reached
Discord) and reported once per game and problem to the game's creator (by DM, else in the lobby channel); a timer
that keeps failing to fire, told to the table and its creator."""

import discord

from bot.i18n import speaking
from bot.i18n.platform import _, n_
from bot.logs import game_logger
from bot.names import PINGS
from bot.notifier.sending import IN_FLIGHT, THREAD_KINDS, Sender
from storage import GameRecord, OutboxRecord


class Problems:
    """Delivery failures recorded and told, once per game and problem (see the module's docstring)."""

    def __init__(self, sender: Sender) -> None:
        self.sender = sender
        self.bot = sender.bot
        self._reported: set[tuple[int, str]] = set()

    async def failed(self, row: OutboxRecord, record: GameRecord, exc: discord.HTTPException) -> None:
        """Discord refused the row: the error is recorded on it (in doubt if it may have reached Discord) and the
        game's creator told once."""
        problem = _problem(exc, row.kind)
        error = f"{exc.status} {exc.code}: {exc.text}"
        since = self.sender.flight.get(row.id)
        if since is not None and (exc.status >= 500 or row.id in self.sender.partial):
            # Part of it is posted, or Discord may have applied it and still answered with a server error: the
            # retry must look for it before sending again. (A 4xx refusal means nothing was created.)
            error = f"{IN_FLIGHT} (after {since}) — {error}"
        attempts = await self.bot.store.outbox.mark_failed(row.id, error[:500])
        game_logger(record.id, "boardroom.notifier").warning(
            "delivery failed: %s", problem, extra={"fields": {"row": row.id, "kind": row.kind, "attempts": attempts}}
        )
        await self.report(record, problem)

    async def report_stuck_timer(self, game_id: int, attempts: int) -> None:
        """A deadline or reminder of the game keeps failing to fire: tell its table (where moderators read) and its
        creator, once. Sent directly, not through the outbox: the database may be what is failing."""
        record = await self.bot.store.games.get(game_id)
        with speaking(str(record.options.get("language") or "en")):
            await self._stuck_timer(record, attempts)

    async def _stuck_timer(self, record: GameRecord, attempts: int) -> None:
        game_id = record.id
        problem = n_(
            "A deadline of this game failed to fire %(n)d time in a row (the database was busy or failing). "
            "Nothing is lost: I keep retrying every few minutes.",
            "A deadline of this game failed to fire %(n)d times in a row (the database was busy or failing). "
            "Nothing is lost: I keep retrying every few minutes.",
            attempts,
        )
        if record.thread_id is not None:
            text = _(
                "⚠️ For moderators: %(problem)s If it doesn't clear up, check the bot's log; "
                "`/mod extend` gives the players more time meanwhile.",
                problem=problem,
            )
            try:
                await self.sender.thread(record.thread_id).send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                game_logger(game_id, "boardroom.notifier").warning("could not tell the thread: %s", exc)
        await self.report(record, problem)

    async def report(self, record: GameRecord, problem: str) -> None:
        """Tell the game's creator (by DM, else in the lobby channel) once per problem."""
        key = (record.id, problem)
        if key in self._reported:
            return
        self._reported.add(key)
        title = f"{self.bot.service.read.game(record.kind).title} #{record.id}"
        text = _(
            "⚠️ Boardroom, %(title)s in %(channel)s: %(problem)s The game itself is safe; I'll keep retrying.",
            title=title,
            channel=f"<#{record.channel_id}>",
            problem=problem,
        )
        if record.created_by is not None:
            try:
                dm = await self.bot.create_dm(discord.Object(id=record.created_by))
                await dm.send(text)
                return
            except discord.HTTPException:
                pass
        if record.channel_id is not None:
            try:
                mention = f"<@{record.created_by}> " if record.created_by else ""
                await self.bot.get_partial_messageable(record.channel_id).send(mention + text, allowed_mentions=PINGS)
            except discord.HTTPException:
                game_logger(record.id, "boardroom.notifier").warning(
                    "could not report the problem to anyone: %s", problem
                )


def _problem(exc: discord.HTTPException, kind: str) -> str:
    thread, dm = kind in THREAD_KINDS, kind in ("hand", "dm")
    if isinstance(exc, discord.Forbidden):
        why = exc.text or "Missing Permissions"
        if thread:
            where = _("I'm not allowed to post in the table thread (%(why)s).", why=why)
        elif dm:
            where = _("I'm not allowed to post in a player's DM (%(why)s).", why=why)
        else:
            where = _("I'm not allowed to post on Discord (%(why)s).", why=why)
        return (
            where
            + " "
            + _("Give the bot “Send Messages in Threads”, “Embed Links” and “Read Message History” in that channel.")
        )
    if isinstance(exc, discord.NotFound):
        why = exc.text or "Unknown Channel"
        if thread:
            gone = _("The table thread no longer exists (%(why)s).", why=why)
        elif dm:
            gone = _("A player's DM no longer exists (%(why)s).", why=why)
        else:
            gone = _("The message's place on Discord no longer exists (%(why)s).", why=why)
        return gone + " " + _("If it was deleted on purpose, a moderator can end the game with `/mod end`.")
    if exc.status == 429:
        return _("Discord is rate-limiting me; messages will follow shortly.")
    return _("Discord refused a message (%(status)s %(why)s).", status=exc.status, why=exc.text or "")
