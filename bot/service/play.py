"""Playing: moves by command or button, reactions (live and reconciled after a gap), away players, DMs retried.

Decisions where the issue is silent:
- While a game is paused, players' moves are refused (moderators may still act: `bot.service.moderation`).
- `/game away` applies to all the player's seats in open games of that server; while away, each reaction window
  that waits on them gets the game's `away_action` (the generic one: a legal `pass`) at once
  (`bot.service.moves.MovePath.auto_pass`, after every move).
- `/game dms` (`retry_dms`) queues the player's hand (or lobby welcome) in each of their open games of that server
  with `retry_dm`, so the notifier tries a DM even where it was found closed.
- A reaction (`react`) is decided under the game's lock in one go: stray or not (`reaction_allowed`), what it means
  (`reaction_action`), and when the engine refuses that move, the game's answer (`reaction_refused`) is queued right
  there, from that one refused `apply`. A move by command or button that the engine refuses is answered to the
  player alone, unless the game says the table should hear it too (`action_refused`, e.g. KKK's shake over the
  deal's payout, posted the same way whether it came as a 🤝 or as `/kkk shake`): that post is queued the same way
  and its rows ride on the `Refusal` (`outbox_ids`) for `bot.replies.answer` to deliver.
- A command builds its move with `Play.act_for_seat` (from the table read under the lock), never from reads of its
  own before the lock; `act` is for a move that needs nothing of the table.
"""

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot import away, outbox
from bot.i18n.platform import _
from bot.logs import game_logger
from bot.names import shown
from bot.presentation import Table
from bot.service.moves import MovePath, parsed, require_running, text_post
from bot.service.results import Done, Reacted, Reconciled, Refusal, RuleRefusal
from bot.table import speaking_at
from storage import GameRecord, MessageRef, NewLogEntry, SeatRecord
from storage.models import OPEN_STATUSES

FetchReactions = Callable[[MessageRef, str], Awaitable[set[int] | None]]
"""Who reacts to a tracked message with an emoji now (user ids, not the bot's own); None if it can't be read."""
REACTION_NOTE = "reaction:"


def reaction_note(message_id: int, emoji: str, added: bool) -> str:
    """The log note of an action applied for a reaction: which message, which emoji, added or taken off."""
    return f"{REACTION_NOTE}{'+' if added else '-'}:{message_id}:{emoji}"


def parse_reaction_note(note: str) -> tuple[int, str, bool] | None:
    if not note.startswith(REACTION_NOTE):
        return None
    parts = note[len(REACTION_NOTE) :].split(":", 2)
    if len(parts) != 3:
        return None
    sign, message_id, emoji = parts
    if sign not in ("+", "-") or not message_id.isdecimal() or not emoji:
        return None
    return int(message_id), emoji, sign == "+"


def _seat_in(seats: Sequence[SeatRecord], user_id: int) -> int | None:
    """The seat the user holds (the first, should they hold several), if any."""
    return next((s.seat for s in seats if s.player_id == user_id), None)


class Play:
    """A player's moves (by command, button or reaction), reactions caught up with after a gap, away players, DMs
    retried: all through the move path."""

    def __init__(self, moves: MovePath) -> None:
        self.moves = moves
        self.read = moves.read
        self.store = moves.store
        self.away_max = timedelta(days=7)
        """How long a player's turns' clocks may stand still in all per game while away (AWAY_MAX_DAYS)."""

    async def act_for_seat(self, game_id: int, user_id: int, make: Callable[[Table, int], Any]) -> Done:
        """A player's move, built from the table as it is under the game's lock: `make(table, seat)` gives the
        action, or None when there is nothing to do (then a `Refusal` explains). The one way for commands and
        buttons to build a move from the game: they read nothing of the store themselves, and what they read can't
        change before the move is applied. Read again (and `make` asked again) if another writer moved the game."""
        return await self._move(game_id, user_id, make=make)

    async def act(self, game_id: int, user_id: int, action: Any) -> Done:
        """A player's move decided without the table: `action` is an engine action (model or JSON-like dict)."""
        return await self._move(game_id, user_id, action=action)

    async def _move(
        self, game_id: int, user_id: int, *, action: Any = None, make: Callable[[Table, int], Any] | None = None
    ) -> Done:
        async with self.moves.lock(game_id):
            ids = await self.moves.retry(lambda: self._apply(game_id, user_id, action, make))
            ids += await self.moves.auto_pass(game_id, after_commit=True)
            self.moves.settle(game_id)
            return Done(game_id, ids)

    async def _apply(
        self, game_id: int, user_id: int, action: Any, make: Callable[[Table, int], Any] | None
    ) -> list[int]:
        """`act` / `act_for_seat` under the game's lock: read the game, build the move, apply and commit it."""
        loaded = await self.store.games.load(game_id)  # the one read of the move
        record = loaded.record
        game = self.read.game(record.kind)
        require_running(record, game)
        if record.status == "paused":
            raise Refusal(_("⏸️ This game is paused by a moderator; moves wait until `/mod resume`."))
        seat = _seat_in(loaded.seats, user_id)
        if seat is None:
            raise Refusal(_("You're not playing in %(title)s.", title=f"{game.title} #{game_id}"))
        if make is not None:
            action = make(await self.read.table_of(loaded), seat)
            if action is None:
                raise Refusal(_("There's nothing for you to do with that right now."))
        try:
            return await self.moves.apply(record, seat, action, user_id=user_id, loaded=loaded)
        except RuleRefusal as exc:
            await self._tell_refusal(record, seat, action, exc)
            raise

    async def _tell_refusal(self, record: GameRecord, seat: int, action: Any, exc: RuleRefusal) -> None:
        """Queue what the game tells the table about a move it refused (`action_refused`; usually nothing: the
        refusal is the player's own ephemeral answer), under the lock, from that one refused `apply`."""
        if record.thread_id is None:
            return
        game = self.read.game(record.kind)
        try:
            action = parsed(game, action)
        except ValueError:
            return
        table = await self.read.table(record.id, record=record)
        with speaking_at(record):  # said in the thread
            post = self.read.presentation(record.kind).controls.action_refused(table, seat, action, exc.rule_message)
        if post is not None and post.text:
            exc.game_id = record.id
            exc.outbox_ids = await self.store.outbox.add(record.id, [text_post(post.text)], now=self.read.now())

    async def react(self, game_id: int, user_id: int, ref: MessageRef, emoji: str, *, added: bool) -> Reacted:
        """A reaction added to (or taken off) a tracked message, all under the game's lock: is it stray
        (`reaction_allowed`), what does it mean (`reaction_action`), and if the engine refuses that action, what the
        table is told (`reaction_refused`, queued in the outbox) — the refusal is the one `apply`'s, never a second
        check that could disagree with it. An applied one is recorded in its log entry's note (`reaction_note`), so
        `reconcile_reactions` knows which reactions the game has already heard of."""
        async with self.moves.lock(game_id):
            return await self._react(game_id, user_id, ref, emoji, added=added)

    async def _react(self, game_id: int, user_id: int, ref: MessageRef, emoji: str, *, added: bool) -> Reacted:
        """`react` under the game's lock."""
        loaded = await self.store.games.load(game_id)  # the one read of the reaction
        record = loaded.record
        presentation = self.read.presentation(record.kind)
        table = await self.read.table_of(loaded)
        seat = _seat_in(table.seats, user_id)
        if table.state is None:
            return Reacted("ignored", Done(game_id), "the game hasn't started")
        if not presentation.controls.reaction_allowed(table, ref, seat, emoji):
            return Reacted("stray", Done(game_id))
        if record.status != "active":
            return Reacted("ignored", Done(game_id), f"the game is {record.status}")
        if seat is None:
            return Reacted("ignored", Done(game_id), "not a player")
        action = presentation.controls.reaction_action(table, ref, seat, emoji, added)
        if action is None:
            return Reacted("ignored", Done(game_id), "nothing to do")
        note = reaction_note(ref.message_id, emoji, added)
        try:
            ids = await self.moves.apply(record, seat, action, user_id=user_id, note=note, loaded=loaded)
        except RuleRefusal as exc:
            with speaking_at(record):  # said in the thread
                post = presentation.controls.reaction_refused(table, ref, seat, emoji, added, exc.rule_message)
            ids = []
            if post is not None and post.text and record.thread_id is not None:
                ids = await self.store.outbox.add(game_id, [text_post(post.text)], now=self.read.now())
            return Reacted("refused", Done(game_id, ids), exc.message)
        except Refusal as exc:
            return Reacted("ignored", Done(game_id), exc.message)
        ids += await self.moves.auto_pass(game_id, after_commit=True)
        self.moves.settle(game_id)
        return Reacted("applied", Done(game_id, ids))

    async def reconcile_reactions(self, game_id: int, fetch: FetchReactions) -> list[Reconciled]:
        """Bring the game in line with reactions added or taken off while the bot was not listening (offline, or
        disconnected long enough to miss gateway events). For each message the game watches
        (`Controls.reconcile_refs`), `fetch(ref, emoji)` gives who reacts with that emoji now (user ids, the
        bot's own left out; None when it can't be read); compared with the reactions the game has heard of (the
        applied reactions recorded in the log, `reaction_note`), each difference is handled exactly like the gateway
        event that was missed (`_react`: stray, a move, refused, or nothing). All under the game's lock, fetches
        included, so a live reaction arriving meanwhile is handled after, in order."""
        async with self.moves.lock(game_id):
            table = await self.read.table(game_id)
            record = table.record
            if record.status != "active":
                return []
            if table.state is None:
                return []
            watched = self.read.presentation(record.kind).controls.reconcile_refs(table)
            if not watched:
                return []
            heard = await self._heard_reactions(game_id)
            out: list[Reconciled] = []
            for kind, key, emoji in watched:
                ref = await self.store.refs.find(game_id, kind, key=key)
                if ref is None:
                    continue
                users = await fetch(ref, emoji)
                if users is None:
                    continue
                known = heard.get((ref.message_id, emoji), set())
                changes = [(u, True) for u in sorted(users - known)] + [(u, False) for u in sorted(known - users)]
                for user_id, added in changes:
                    reacted = await self._react(game_id, user_id, ref, emoji, added=added)
                    out.append(Reconciled(ref, user_id, emoji, added, reacted))
            if out:
                applied = sum(r.reacted.outcome == "applied" for r in out)
                game_logger(game_id, "boardroom.service").info(
                    "reactions reconciled", extra={"fields": {"changes": len(out), "applied": applied}}
                )
            return out

    async def _heard_reactions(self, game_id: int) -> dict[tuple[int, str], set[int]]:
        """(message, emoji) → the users whose last applied reaction there, as recorded in the log, was an add."""
        last: dict[tuple[int, str, int], bool] = {}
        for entry in await self.store.log.notes(game_id, REACTION_NOTE):  # only those entries, not the whole log
            parsed = parse_reaction_note(entry.note)
            if parsed is not None and entry.user_id is not None:
                message_id, emoji, added = parsed
                last[(message_id, emoji, entry.user_id)] = added
        heard: dict[tuple[int, str], set[int]] = {}
        for (message_id, emoji, user_id), added in last.items():
            if added:
                heard.setdefault((message_id, emoji), set()).add(user_id)
        return heard

    async def set_away(self, user_id: int, guild_id: int | None, until: datetime | None) -> list[Done]:
        """Mark the player away until `until` (None: back) in all their open games of this server. In a running
        game the table's `away` option decides how (`bot.away`); the change is a log note with one line in the
        thread, the timers are planned anew (their turns' deadlines stand still, or the autopilot's timer), and
        reaction windows waiting on them pass at once."""
        done: list[Done] = []
        for seat in await self.store.seats.of_player(user_id, statuses=OPEN_STATUSES):
            record = await self.store.games.get(seat.game_id)
            if guild_id is not None and record.guild_id != guild_id:
                continue
            async with self.moves.lock(record.id):
                record = await self.store.games.get(record.id)
                held = next(s for s in await self.store.seats.of_game(record.id) if s.seat == seat.seat)
                if not record.started or record.status not in ("active", "paused") or held.player_id != user_id:
                    await self.store.seats.update(record.id, seat.seat, away_until=until)
                    done.append(Done(record.id, []))
                    continue
                ids = await self._away_note(record, held, until)
                if until is not None:
                    ids += await self.moves.auto_pass(record.id, after_commit=True)
                self.moves.settle(record.id)
            done.append(Done(record.id, ids))
        return done

    async def _away_note(self, record: GameRecord, held: SeatRecord, until: datetime | None) -> list[int]:
        """Going away (or coming back) in one running game, under its lock: the seat's away fields, a log note and
        one line for the table."""
        now = self.read.now()
        game = self.read.game(record.kind)
        mode = game.parse_options(record.options).away
        name, number = shown(held.display_name), held.seat + 1
        pauses = away.cut(held.away_pauses, now)  # a pause still running ends now: a new absence, or a return
        seats = self.store.seats
        if until is None:
            from_autopilot = held.away_mode == "autopilot" and held.autopilot
            if from_autopilot:
                await seats.update(
                    record.id, held.seat, away_until=None, away_mode=None, away_pauses=pauses, autopilot=False, missed=0
                )
            else:
                await seats.update(record.id, held.seat, away_until=None, away_mode=None, away_pauses=pauses)
            with speaking_at(record):
                if from_autopilot:
                    said = _("👋 **%(name)s** is back. The autopilot no longer plays their seat.", name=name)
                else:
                    said = _("👋 **%(name)s** is back.", name=name)
            note = f"seat {number} back"
        else:
            when = f"<t:{int(until.timestamp())}:f>"
            if mode == "autopilot" and self.read.policy(record.kind) is not None:
                # On autopilot already (missed deadlines, a moderator): it stays after the absence as before it.
                already = held.autopilot and held.away_mode != "autopilot"
                await seats.update(
                    record.id,
                    held.seat,
                    away_until=until,
                    away_mode=held.away_mode if already else "autopilot",
                    away_pauses=pauses,
                    autopilot=True,
                )
                with speaking_at(record):
                    said = _(
                        "💤 **%(name)s** is away until %(when)s: the autopilot plays safe moves for them until they "
                        "return.",
                        name=name,
                        when=when,
                    )
            else:
                interval = away.new_pause(pauses, now, until, self.away_max)
                if interval is not None:
                    pauses.append(interval)
                await seats.update(record.id, held.seat, away_until=until, away_mode="pause", away_pauses=pauses)
                with speaking_at(record):
                    days = _("%(days)s days", days=f"{self.away_max / timedelta(days=1):g}")
                    if interval is None:
                        said = _(
                            "💤 **%(name)s** is away until %(when)s. They have used up the %(days)s a table waits for "
                            "one player in this game, so their turns' clocks run on.",
                            name=name,
                            when=when,
                            days=days,
                        )
                    elif interval[1] < until:
                        said = _(
                            "💤 **%(name)s** is away until %(when)s: their turns' clocks stop until %(stop)s (a table "
                            "waits at most %(days)s in all for one player), then run again.",
                            name=name,
                            when=when,
                            stop=f"<t:{int(interval[1].timestamp())}:f>",
                            days=days,
                        )
                    else:
                        said = _(
                            "💤 **%(name)s** is away until %(when)s: their turns' clocks stop until they return.",
                            name=name,
                            when=when,
                        )
            with speaking_at(record):
                said += " " + _("Reaction windows pass for them.")
            note = f"seat {number} away until {until.isoformat()}"
        entry = NewLogEntry.for_note(note, now, user_id=held.player_id)
        return await self.moves.commit_note(record.id, entry, [said])

    async def away_over(self, record: GameRecord, seat: int) -> list[int]:
        """An absence on autopilot reached the time the player gave (an `away_end` timer, under the game's lock):
        the autopilot stops and the seat waits for them again."""
        held = next((s for s in await self.store.seats.of_game(record.id) if s.seat == seat), None)
        now = self.read.now()
        if held is None or held.away_mode != "autopilot" or held.away_until is None or held.away_until > now:
            return []
        await self.store.seats.update(record.id, seat, away_until=None, away_mode=None, autopilot=False, missed=0)
        with speaking_at(record):
            said = _(
                "👋 **%(name)s**'s absence is over: the autopilot no longer plays their seat.",
                name=shown(held.display_name),
            )
        entry = NewLogEntry.for_note(f"seat {seat + 1} back (absence over)", now, user_id=None)
        return await self.moves.commit_note(record.id, entry, [said])

    # --- direct messages --------------------------------------------------------------------------------

    async def retry_dms(self, user_id: int, guild_id: int | None) -> list[Done]:
        """Try the player's DMs again in each of their open games of this server (`/game dms`): a started game
        re-sends (or edits) their hand message even if their DMs were found closed, a lobby their welcome. The
        notifier marks the seat `dm_ok` again when the DM goes through."""
        done: list[Done] = []
        for seat in await self.store.seats.of_player(user_id, statuses=OPEN_STATUSES):
            record = await self.store.games.get(seat.game_id)
            if guild_id is not None and record.guild_id != guild_id:
                continue
            item = outbox.hand(seat.seat, retry_dm=True) if record.started else outbox.welcome(user_id)
            async with self.moves.lock(record.id):
                ids = await self.store.outbox.add(record.id, [item], now=self.read.now())
            game_logger(record.id, "boardroom.service").info("DMs retried", extra={"fields": {"user": user_id}})
            done.append(Done(record.id, ids))
        return done
