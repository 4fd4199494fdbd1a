"""The driver of seats that play themselves: a due `seat` timer becomes the policy's move, and the autopilot's switches.

Computer players and autopiloted seats play through here: their timers are planned by `bot.seat_players` with
every commit (which also says why they never reveal a secret), a move is applied like a person's. This module fires
them and keeps the seat flags:

- `fire` (under the game's lock, from `bot.service.clock.Clock.fire_timer`): the seat still plays itself and is
  still awaited (or free to act: `engine.game.Game.free_to_act`), it is under its hourly cap (`SeatRules.per_hour`,
  counted in the log by the notes `AUTOPILOT_NOTE` / `BOT_NOTE`; over it, the timer moves to when the cap frees),
  and the policy (`engine.policy`) picks one of the seat's legal actions from the seat's own view (`autopilot=True`
  for a person's seat; a computer player's policy is the one of its level, `SeatRecord.level`). The action is
  applied with `MovePath.apply` for that seat, like a person's move: logged (with the note), committed, then
  announced. None from the policy, a refused action or a failing policy: the timer is dropped and the wait's own
  deadline default applies.
- `missed_deadline` (after a deadline fired): every person awaited by a turn's wait (a reaction window closing by
  time is how it usually ends, not a miss) has one more missed deadline in a row; one before the server's limit
  (`SeatRules.autopilot_after`) they get a DM warning, at the limit their seat goes on autopilot with a line in the
  thread. A move of their own resets the count (`bot.service.moves.MovePath.commit`).
- `set_autopilot` (`/mod autopilot`): on for a person's seat; off gives a person their seat back, and turns a
  computer player (or a kicked player's autopiloted seat) into an empty seat that waits for `/mod substitute`.
- `take_back` (`/game back`): the player's seats in this server come off autopilot.
- `kick_to_autopilot` (`/mod kick` without `remove`): the player leaves, their seat stays, played by the autopilot.

Every change of a flag is committed as a log note with one short public line, so the thread says who plays what.

A table whose every seat then plays itself (all its people kicked or on autopilot) is not paused: the autopilot
plays it on to its end, which the policies make sure of (every game's all-autopilot tables end within a bounded number
of actions: `benchmarks/bots.py --ends`), and the line that made it so says it (`_nobody_in_person`), so a moderator
who reads the thread sees why the table moves by itself. The hourly cap per seat still holds.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot import outbox, seat_players
from bot.i18n import speaking
from bot.i18n.platform import N_, _, n_
from bot.logs import game_logger
from bot.names import shown
from bot.service.moves import MovePath, require_running
from bot.service.results import Done, Person, Refusal
from bot.table import language_of, speaking_at
from engine.errors import RuleError
from storage import GameRecord, LoadedGame, NewLogEntry, NewOutbox, NewTimer, SeatRecord, TimerRecord

HOUR = timedelta(hours=1)
_LOG_PAGE = 200
_OWN_NOTES = (seat_players.AUTOPILOT_NOTE, seat_players.BOT_NOTE)


class SeatPlayers:
    """Seats that play themselves: their due moves, missed deadlines that put a seat on autopilot, and the
    autopilot's switches (see the module docstring)."""

    def __init__(self, moves: MovePath) -> None:
        self.moves = moves
        self.read = moves.read
        self.store = moves.store
        self.rules = seat_players.SeatRules()
        """Limits of computer players and the autopilot (the bot sets them from its settings)."""

    # --- firing -----------------------------------------------------------------------------------------

    async def fire(self, record: GameRecord, timer: TimerRecord, loaded: LoadedGame) -> list[int]:
        """A seat that plays itself makes its move (see the module docstring); under the game's lock, with the
        game as `fire_timer` read it."""
        game_id = record.id
        glog = game_logger(game_id, "boardroom.autopilot")
        seat = int(timer.payload.get("seat", -1))
        held = next((s for s in loaded.seats if s.seat == seat), None)
        # A computer player plays at its level; a person's seat on autopilot plays the autopilot, the same at any level.
        policy = self.read.policy(record.kind, held.level if held is not None and held.bot else "normal")
        table = await self.read.table_of(loaded)
        if (
            held is None
            or not seat_players.plays_itself(held)
            or policy is None
            or table.state is None
            or not (any(seat in w.seats for w in table.waits) or seat in table.game.free_to_act(table.state))
        ):
            await self.store.timers.delete(timer.id)
            return []
        now = self.read.now()
        free_at = await self._cap_frees_at(record, seat, now)
        if free_at is not None:
            await self.store.timers.delete(timer.id)
            later = NewTimer(kind=seat_players.SEAT, due_at=free_at, payload=timer.payload)
            await self.store.timers.add(game_id, [later])
            self.moves.on_timers_changed()
            glog.info("seat at its hourly cap", extra={"fields": {"seat": seat, "until": free_at.isoformat()}})
            return []
        game = table.game
        try:
            legal = game.legal_actions(table.state, seat)
            rng = seat_players.policy_rng(record.seed, record.version, seat)
            view = game.view(table.state, seat)
            action = policy.decide(view, legal, seat, rng, autopilot=not held.bot) if legal else None
        except Exception:  # a policy's bug must not stall the table: the deadline's default still comes
            glog.exception("the policy failed; the deadline's default applies")
            action = None
        if action is None:
            await self.store.timers.delete(timer.id)
            return []
        note = seat_players.BOT_NOTE if held.bot else seat_players.AUTOPILOT_NOTE
        try:
            ids = await self.moves.apply(record, seat, action, user_id=None, note=note, loaded=loaded)
        except (RuleError, Refusal) as exc:
            glog.warning("the policy's move was refused: %s", getattr(exc, "message", exc))
            await self.store.timers.delete(timer.id)
            return []
        glog.info("seat played itself", extra={"fields": {"seat": seat, "as": note}})
        return ids + await self.moves.auto_pass(game_id, after_commit=True)

    async def _cap_frees_at(self, record: GameRecord, seat: int, now: datetime) -> datetime | None:
        """None while the seat made fewer than `per_hour` moves of its own in the last hour; else when it may again."""
        per_hour = self.rules.per_hour
        since = now - HOUR
        moves: list[datetime] = []
        upto = record.version
        while upto > 0:  # newest pages first, until one starts before the hour
            page = await self.store.log.entries(record.id, after=max(0, upto - _LOG_PAGE), limit=_LOG_PAGE)
            moves += [
                e.at
                for e in page
                if e.actor_seat == seat and e.user_id is None and e.note in _OWN_NOTES and e.at > since
            ]
            if not page or page[0].at <= since:
                break
            upto = page[0].seq - 1
        if len(moves) < per_hour:
            return None
        moves.sort()
        return moves[-per_hour] + HOUR

    # --- missed deadlines -------------------------------------------------------------------------------

    async def missed_deadline(self, game_id: int, payload: dict[str, object]) -> list[int]:
        """Count a turn's deadline that passed against the people it waited for (see the module docstring)."""
        if payload.get("wait_kind") == "reaction":
            return []
        record = await self.store.games.get(game_id)
        after = self.rules.autopilot_after
        if record.status != "active" or after <= 0 or self.read.policy(record.kind) is None:
            return []
        seats = {s.seat: s for s in await self.store.seats.of_game(game_id)}
        awaited = payload.get("seats")
        ids: list[int] = []
        now = self.read.now()
        for n in awaited if isinstance(awaited, list) else []:
            held = seats.get(int(n))
            if held is None or held.player_id is None or seat_players.plays_itself(held):
                continue
            if held.away_until is not None and held.away_until > now:
                continue  # a deadline that passes while they are away never counts toward the autopilot
            missed = held.missed + 1
            if missed >= after:
                await self.store.seats.update(game_id, held.seat, autopilot=True, missed=0)
                name = shown(held.display_name)
                nobody = await self._nobody_in_person(game_id)
                with speaking_at(record):
                    said = n_(
                        "🤖 **%(name)s** let %(n)d deadline pass in a row: the autopilot plays their seat now "
                        "(safe moves only). `/game back` takes it back.",
                        "🤖 **%(name)s** let %(n)d deadlines pass in a row: the autopilot plays their seat now "
                        "(safe moves only). `/game back` takes it back.",
                        missed,
                        name=name,
                    ) + (_(nobody) if nobody else "")
                ids += await self._seat_note(game_id, f"{held.display_name} on autopilot after {missed} misses", said)
                game_logger(game_id, "boardroom.autopilot").info(
                    "autopilot after missed deadlines", extra={"fields": {"seat": held.seat}}
                )
                continue
            await self.store.seats.update(game_id, held.seat, missed=missed)
            if missed == after - 1:
                title = f"{self.read.game(record.kind).title} #{game_id}"
                chosen = (await self.read.deliveries.get(held.player_id)).language
                with speaking(chosen or language_of(record)):  # a DM: the player's own language
                    text = n_(
                        "⏰ You let %(n)d deadline pass in a row in **%(title)s**. If the next one passes too, the "
                        "autopilot plays your seat (safe moves only) until you use `/game back`.",
                        "⏰ You let %(n)d deadlines pass in a row in **%(title)s**. If the next one passes too, the "
                        "autopilot plays your seat (safe moves only) until you use `/game back`.",
                        missed,
                        title=title,
                    )
                ids += await self.store.outbox.add(game_id, [outbox.dm(held.seat, text)], now=self.read.now())
        return ids

    # --- switching --------------------------------------------------------------------------------------

    async def _nobody_in_person(self, game_id: int) -> str:
        """The line's ending when the switch just made leaves no seat played in person (see the module docstring):
        a message id (`NOBODY`), translated where it is said."""
        if all(seat_players.plays_itself(s) for s in await self.store.seats.of_game(game_id)):
            return NOBODY
        return ""

    async def _seat_note(
        self, game_id: int, note: str, said: str, *, user_id: int | None = None, extra: Sequence[NewOutbox] = ()
    ) -> list[int]:
        """Commit a log note that leaves the game as it is, with `said` in the thread; the timers are planned anew
        from the seats as they are now (a seat that now plays itself gets its timer)."""
        entry = NewLogEntry.for_note(note, self.read.now(), user_id=user_id)
        return await self.moves.commit_note(game_id, entry, [said], extra=extra)

    async def set_autopilot(
        self, game_id: int, mod: Person, *, player: Person | None, seat: int | None, on: bool
    ) -> Done:
        """`/mod autopilot`: a seat (by its player, or its number from 1) on or off autopilot (see the docstring)."""
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            require_running(record, game)
            if self.read.policy(record.kind) is None:
                raise Refusal(_("%(game)s has no autopilot yet.", game=game.title))
            held = find_seat(await self.store.seats.of_game(game_id), player, seat, game.title, game_id)
            name, number = shown(held.display_name), held.seat + 1
            by = shown(mod.name)
            values = {"by": by, "name": name, "number": number}
            if on:
                if held.bot:
                    raise Refusal(_("%(name)s is a computer player: it plays by itself already.", name=name))
                if held.autopilot:
                    raise Refusal(_("%(name)s's seat is on autopilot already.", name=name))
                await self.store.seats.update(game_id, held.seat, autopilot=True, missed=0, handover=None)
                nobody = await self._nobody_in_person(game_id)
                with speaking_at(record):
                    said = _(
                        "🛡️ Moderator **%(by)s** put **%(name)s**'s seat on autopilot: safe moves for them until "
                        "`/game back`.",
                        **values,
                    ) + (_(nobody) if nobody else "")
                message = _("The autopilot plays seat %(number)d (%(name)s).", **values)
            elif held.bot:
                await self.store.seats.update(game_id, held.seat, bot=False, autopilot=False)
                with speaking_at(record):
                    said = _(
                        "🛡️ Moderator **%(by)s** stopped the computer player **%(name)s**: seat %(number)d waits for a "
                        "player (`/mod substitute seat:%(number)d`).",
                        **values,
                    )
                message = _(
                    "Seat %(number)d is empty now; `/mod substitute seat:%(number)d new:@…` fills it.", **values
                )
            elif held.autopilot:
                await self.store.seats.update(game_id, held.seat, autopilot=False, missed=0)
                if held.player_id is not None:
                    with speaking_at(record):
                        said = _(
                            "🛡️ Moderator **%(by)s** took **%(name)s**'s seat off autopilot: it waits for them again.",
                            **values,
                        )
                    message = _("%(name)s plays seat %(number)d again.", **values)
                else:
                    with speaking_at(record):
                        said = _(
                            "🛡️ Moderator **%(by)s** stopped the autopilot of seat %(number)d: it waits for a player "
                            "(`/mod substitute`).",
                            **values,
                        )
                    message = _(
                        "Seat %(number)d is empty now; `/mod substitute seat:%(number)d new:@…` fills it.", **values
                    )
            else:
                raise Refusal(_("%(name)s's seat isn't on autopilot.", name=name))
            note = f"autopilot {'on' if on else 'off'} for seat {number}"
            ids = await self._seat_note(game_id, note, said, user_id=mod.user_id)
            game_logger(game_id, "boardroom.autopilot").info(
                "autopilot switched", extra={"fields": {"by": mod.user_id, "seat": held.seat, "on": on}}
            )
            return Done(game_id, ids, message)

    async def take_back(self, user_id: int, guild_id: int | None, *, by: Person | None = None) -> list[Done]:
        """`/game back`: the player's seats on autopilot in this server's running games are theirs again (`by`: the
        moderator who did it for them)."""
        done: list[Done] = []
        for held in await self.store.seats.of_player(user_id, statuses=("active", "paused")):
            if not held.autopilot:
                continue
            record = await self.store.games.get(held.game_id)
            if guild_id is not None and record.guild_id != guild_id:
                continue
            async with self.moves.lock(record.id):
                await self.store.seats.update(record.id, held.seat, autopilot=False, missed=0)
                name = shown(held.display_name)
                with speaking_at(record):
                    if by is None:
                        said = _("🎮 **%(name)s** is back: the autopilot no longer plays their seat.", name=name)
                    else:
                        said = _(
                            "🛡️ Moderator **%(by)s** gave **%(name)s** their seat back from the autopilot.",
                            by=shown(by.name),
                            name=name,
                        )
                note = f"autopilot off for seat {held.seat + 1} (back)"
                ids = await self._seat_note(record.id, note, said, user_id=by.user_id if by else user_id)
            done.append(Done(record.id, ids))
        return done

    async def kick_to_autopilot(self, record: GameRecord, mod: Person, player: Person, held: SeatRecord) -> Done:
        """`/mod kick` (without `remove`): the player is out, the seat plays on by the autopilot (under the lock)."""
        game = self.read.game(record.kind)
        await self.store.seats.update(
            record.id, held.seat, player_id=None, autopilot=True, missed=0, dm_ok=None, away_until=None, handover=None
        )
        old_hand = await self.store.refs.find(record.id, outbox.HAND, seat=held.seat)
        if old_hand is not None:
            await self.store.refs.delete(old_hand.message_id)
        chosen = (await self.read.deliveries.get(player.user_id)).language
        with speaking(chosen or language_of(record)):  # a DM: the player's own language
            farewell = _(
                "👋 A moderator removed you from **%(title)s**; the autopilot plays your seat.",
                title=f"{game.title} #{record.id}",
            )
        goodbye = outbox.retire(
            player.user_id, farewell, (old_hand.channel_id, old_hand.message_id) if old_hand is not None else None
        )
        number = held.seat + 1
        nobody = await self._nobody_in_person(record.id)
        with speaking_at(record):
            said = _(
                "🛡️ Moderator **%(by)s** removed %(name)s from the game: the autopilot plays their seat from now on "
                "(safe moves only). `/mod substitute seat:%(number)d` can seat someone else.",
                by=shown(mod.name),
                name=shown(player.name),
                number=number,
            ) + (_(nobody) if nobody else "")
        note = f"kicked {player.name}; seat {number} on autopilot"
        ids = await self._seat_note(record.id, note, said, user_id=mod.user_id, extra=[goodbye])
        game_logger(record.id, "boardroom.service").info(
            "kicked to autopilot", extra={"fields": {"by": mod.user_id, "seat": held.seat}}
        )
        said = _(
            "%(name)s is out of the game; the autopilot plays seat %(number)d.", name=shown(player.name), number=number
        )
        return Done(record.id, ids, said)


def find_seat(
    seats: Sequence[SeatRecord], player: Person | None, seat: int | None, title: str, game_id: int
) -> SeatRecord:
    """The seat a moderator means: by its player, or by its number (from 1; a computer player has no @)."""
    if player is not None:
        found = next((s for s in seats if s.player_id == player.user_id), None)
        if found is None:
            raise Refusal(
                _(
                    "%(name)s doesn't hold a seat in %(title)s.",
                    name=shown(player.name),
                    title=f"{title} #{game_id}",
                )
            )
        return found
    if seat is None:
        raise Refusal(_("Say whose seat: `player:@…`, or `seat:` with its number (a computer player has no @)."))
    found = next((s for s in seats if s.seat == seat - 1), None)
    if found is None:
        raise Refusal(
            _(
                "%(title)s has seats 1–%(count)d, not %(seat)d.",
                title=f"{title} #{game_id}",
                count=len(seats),
                seat=seat,
            )
        )
    return found


NOBODY = N_(
    " Nobody plays this table in person any more: the autopilot plays it on to its end. `/game back` brings a player "
    "back; a moderator can still end the game."
)
"""Said after a switch that leaves no seat played in person."""
