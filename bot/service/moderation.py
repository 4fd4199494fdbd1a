"""Moderators' tools: pause, resume, extend, substitute, kick, end, undo, export, verify, server settings.

Decisions where the issue is silent:
- While a game is paused, players' moves are refused; moderators may still substitute, kick, end, undo, export and
  verify. Timers of a paused game are frozen (see `bot.timers`).
- `/mod export` holds every secret (the seed, private events, the snapshot): while a game is active or paused it
  is refused to a moderator who holds a seat in it; after the game (or in a lobby) anyone with the rights gets it.
- An undo restarts the clocks of the waits it restores (a full turn / reaction time from the undo), so an old wait
  brought back is not overdue at once.
- A kick puts the seat on autopilot (`bot.service.autopilot`): the member is out, the seat keeps its name and the
  game goes on. With `remove` (or in a game without a policy) it applies the engine's `Leave` action (the game's rule
  for a leaving player) so it is logged and replays; when the game cannot go on it ends, abandoned, with the
  standings so far.
- Server defaults (`set_defaults`) are stored per server and read by `/game new`.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot import outbox
from bot import timers as timing
from bot.i18n import speaking
from bot.i18n.platform import N_, _, n_
from bot.logs import game_logger
from bot.names import shown
from bot.presentation import said
from bot.service.autopilot import SeatPlayers, find_seat
from bot.service.commit import Commit
from bot.service.lobby import Lobby
from bot.service.moves import ClocksFn, MovePath, require_running, text_post
from bot.service.results import Done, Person, Refusal
from bot.table import language_of, speaking_at
from engine.errors import RuleError
from engine.game import Game, Leave, Outcome
from engine.text import seat as seat_ref
from replay import ReplayError, ReplayReport, check_replay, replay_game
from storage import (
    GameRecord,
    GuildSettings,
    LogEntry,
    NewLogEntry,
)


@dataclass(frozen=True)
class UndoPreview:
    """The move `/mod undo` offers to undo, bound to the game's version when the moderator saw it."""

    game_id: int
    version: int
    what: str
    forced: bool


class Moderation:
    """Moderators' tools, each through the move path: a note in the log and a line in the thread for every change."""

    def __init__(self, moves: MovePath, seats: SeatPlayers, lobby: Lobby) -> None:
        self.moves = moves
        self.read = moves.read
        self.store = moves.store
        self.seats = seats
        self.lobby = lobby

    async def _mod_note(
        self,
        game_id: int,
        mod: Person,
        note: str,
        *,
        said: str | None = None,
        clocks_fn: ClocksFn | None = None,
        result_post: bool = False,
        **how: Any,
    ) -> list[int]:
        """Commit a moderator's note (the log keeps `note`, in English; the thread reads `said`, in the table's
        language, which may hold seat references to mention, in `ping`, or `note`); `how`: the rest of the commit
        (status, extra rows, result post, pings)."""
        entry = NewLogEntry.for_note(note, self.read.now(), user_id=mod.user_id)
        return await self.moves.commit_note(
            game_id, entry, [f"🛡️ {said or note}"], clocks_fn=clocks_fn, result_post=result_post, **how
        )

    async def _running(self, game_id: int) -> tuple[GameRecord, Game]:  # type: ignore[type-arg]
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        require_running(record, game)
        return record, game

    async def pause(self, game_id: int, mod: Person) -> Done:
        async with self.moves.lock(game_id):
            record, _game = await self._running(game_id)
            if record.status == "paused":
                raise Refusal(_("The game is already paused."))
            note = f"Moderator **{shown(mod.name)}** paused the game: deadlines are on hold until `/mod resume`."
            with speaking_at(record):
                said = _(
                    "Moderator **%(by)s** paused the game: deadlines are on hold until `/mod resume`.",
                    by=shown(mod.name),
                )
            ids = await self._mod_note(game_id, mod, note, said=said, status="paused")
            game_logger(game_id, "boardroom.service").info("paused", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, _("Paused."))

    async def resume(self, game_id: int, mod: Person) -> Done:
        async with self.moves.lock(game_id):
            record, _game = await self._running(game_id)
            if record.status != "paused":
                raise Refusal(_("The game isn't paused."))
            now = self.read.now()
            note = f"Moderator **{shown(mod.name)}** resumed the game; deadlines run again with the time they had left."
            with speaking_at(record):
                said = _(
                    "Moderator **%(by)s** resumed the game; deadlines run again with the time they had left.",
                    by=shown(mod.name),
                )
            ids = await self._mod_note(
                game_id,
                mod,
                note,
                said=said,
                status="active",
                clocks_fn=lambda g, waits, clocks, _r: timing.resumed(g, waits, clocks, now),
            )
            ids += await self.moves.auto_pass(game_id)
            game_logger(game_id, "boardroom.service").info("resumed", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, _("Resumed."))

    async def extend(self, game_id: int, mod: Person, hours: float) -> Done:
        async with self.moves.lock(game_id):
            record, game = await self._running(game_id)
            snap = await self.store.games.snapshot(game_id)
            if not game.waiting_on(game.load_state(snap.state)):
                raise Refusal(_("Nothing is waiting on a deadline right now."))
            now = self.read.now()
            by = timedelta(hours=hours)
            note = f"Moderator **{shown(mod.name)}** extended the current deadline by {hours:g} hours."
            with speaking_at(record):
                said = _(
                    "Moderator **%(by)s** extended the current deadline by %(hours)s.",
                    by=shown(mod.name),
                    hours=_hours(hours),
                )
            ids = await self._mod_note(
                game_id,
                mod,
                note,
                said=said,
                clocks_fn=lambda g, waits, clocks, r: timing.extended(
                    g, waits, clocks, by, paused=r.status == "paused", now=now
                ),
            )
            game_logger(game_id, "boardroom.service").info(
                "extended", extra={"fields": {"by": mod.user_id, "hours": hours}}
            )
            return Done(game_id, ids, _("Extended by %(hours)s.", hours=_hours(hours)))

    async def substitute(
        self, game_id: int, mod: Person, old: Person | None, new: Person, *, seat_number: int | None = None
    ) -> Done:
        """`new` takes the seat of `old`, or seat `seat_number` (from 1: a computer player's, or a seat left to the
        autopilot or empty), with its hand; the seat is a person's again (no autopilot, no computer player)."""
        async with self.moves.lock(game_id):
            record, game = await self._running(game_id)
            seats = await self.store.seats.of_game(game_id)
            seat = find_seat(seats, old, seat_number, game.title, game_id)
            if any(s.player_id == new.user_id for s in seats):
                raise Refusal(
                    _("%(name)s already plays in %(title)s.", name=shown(new.name), title=f"{game.title} #{game_id}")
                )
            old = Person(seat.player_id, old.name if old else seat.display_name) if seat.player_id else None
            old_name = old.name if old else seat.display_name or f"seat {seat.seat + 1}"
            await self.store.seats.update(
                game_id,
                seat.seat,
                player_id=new.user_id,
                display_name=new.name,
                dm_ok=None,
                away_until=None,
                autopilot=False,
                bot=False,
                missed=0,
                handover=None,
            )
            old_hand = await self.store.refs.find(game_id, outbox.HAND, seat=seat.seat)
            if old_hand is not None:
                await self.store.refs.delete(old_hand.message_id)
            title = f"{game.title} #{game_id}"
            note = (
                f"Moderator **{shown(mod.name)}** seated {shown(new.name)} in place of {shown(old_name)} "
                f"(seat {seat.seat + 1})."
            )
            with speaking_at(record):
                said = _(
                    "Moderator **%(by)s** seated %(who)s in place of %(old)s (seat %(number)d). Welcome! Your hand is "
                    "in your DMs (or `/game hand`); `/game help` says what you can do.",
                    by=shown(mod.name),
                    who=seat_ref(seat.seat),
                    old=shown(old_name),
                    number=seat.seat + 1,
                )
            extra = [outbox.hand(seat.seat)]
            if old is not None:
                chosen = (await self.read.deliveries.get(old.user_id)).language
                with speaking(chosen or language_of(record)):  # a DM: their own language
                    farewell = _(
                        "👋 You no longer play in **%(title)s**: a moderator gave your seat to %(name)s. "
                        "Thanks for playing!",
                        title=title,
                        name=shown(new.name),
                    )
                extra.append(
                    outbox.retire(
                        old.user_id,
                        farewell,
                        (old_hand.channel_id, old_hand.message_id) if old_hand is not None else None,
                    )
                )
            ids = await self._mod_note(game_id, mod, note, extra=extra, ping=[seat.seat], said=said)
            game_logger(game_id, "boardroom.service").info(
                "substituted",
                extra={"fields": {"by": mod.user_id, "old": old.user_id if old else None, "new": new.user_id}},
            )
            return Done(
                game_id, ids, _("%(name)s now plays seat %(number)d.", name=shown(new.name), number=seat.seat + 1)
            )

    async def kick(self, game_id: int, mod: Person, player: Person, *, remove: bool = False) -> Done:
        """The player is out. Their seat goes on autopilot and the game goes on (`bot.service.autopilot`); with
        `remove` (or in a game without an autopilot) the game's rule for a leaving player applies, or it ends."""
        async with self.moves.lock(game_id):
            record, game = await self._running(game_id)
            seats = await self.store.seats.of_game(game_id)
            seat = next((s for s in seats if s.player_id == player.user_id), None)
            if seat is None:
                raise Refusal(
                    _(
                        "%(name)s doesn't hold a seat in %(title)s.",
                        name=shown(player.name),
                        title=f"{game.title} #{game_id}",
                    )
                )
            if not remove and self.read.policy(record.kind) is not None:
                return await self.seats.kick_to_autopilot(record, mod, player, seat)
            values = {"by": shown(mod.name), "name": shown(player.name)}
            with speaking_at(record):
                text = _("🛡️ Moderator **%(by)s** removed %(name)s from the game.", **values)
            try:
                ids = await self.moves.apply(record, None, Leave(seat=seat.seat), user_id=mod.user_id, texts=[text])
            except RuleError as exc:
                note = (
                    f"Moderator **{shown(mod.name)}** removed {shown(player.name)}; {exc.message} The game ends here."
                )
                with speaking_at(record):
                    table = await self.read.table(game_id)
                    why = table.presentation.refusal_words(table, exc)
                    said = _("Moderator **%(by)s** removed %(name)s; %(why)s The game ends here.", why=why, **values)
                ids = await self._mod_note(game_id, mod, note, said=said, status="abandoned", result_post=True)
                await self.store.seats.update(game_id, seat.seat, player_id=None)
                game_logger(game_id, "boardroom.service").info(
                    "kicked; game ended", extra={"fields": {"by": mod.user_id}}
                )
                return Done(game_id, ids, _("Removed; the game could not go on, so it ended."))
            await self.store.seats.update(game_id, seat.seat, player_id=None)
            ids += await self.moves.auto_pass(game_id)
            game_logger(game_id, "boardroom.service").info(
                "kicked", extra={"fields": {"by": mod.user_id, "seat": seat.seat}}
            )
            return Done(game_id, ids, _("%(name)s is out of the game.", name=shown(player.name)))

    async def end(self, game_id: int, mod: Person) -> Done:
        if (await self.store.games.get(game_id)).status == "lobby":
            return await self.lobby.cancel_lobby(game_id, mod, is_moderator=True)
        async with self.moves.lock(game_id):
            record, _game = await self._running(game_id)
            note = f"Moderator **{shown(mod.name)}** ended the game. Standings so far:"
            with speaking_at(record):
                said = _("Moderator **%(by)s** ended the game. Standings so far:", by=shown(mod.name))
            ids = await self._mod_note(game_id, mod, note, said=said, status="abandoned", result_post=True)
            game_logger(game_id, "boardroom.service").info("ended", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, _("The game is over."))

    async def _as_set_up(self, game: Game, game_id: int) -> Game:  # type: ignore[type-arg]
        """The game with the data files this game was set up with (a server owner may have replaced them since),
        so a replay from set-up rebuilds the same game."""
        snap = await self.store.games.snapshot(game_id)
        return game.for_state(game.load_state(snap.state))

    async def undo_preview(self, game_id: int, *, force: bool) -> UndoPreview:
        """What `/mod undo` would undo now, for the moderator to confirm (bound to this version of the game), or a
        `Refusal` saying why nothing can be undone."""
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        _undoable(record, game)
        _target, _before, what, reasons = await self._undo_target(record)
        if reasons and not force:
            joined = _(" and ").join(_(r) for r in reasons)
            raise Refusal(
                _(
                    "I won't undo “%(what)s”: it %(why)s, so undoing it would let someone profit from what they saw. "
                    "If everyone agrees, use `force:true`.",
                    what=what,
                    why=joined,
                )
            )
        return UndoPreview(game_id=game_id, version=record.version, what=what, forced=bool(reasons))

    async def _undo_target(self, record: GameRecord) -> tuple[LogEntry, Any, str, list[str]]:
        """The move that made the game what it is now, the state before it, its public words, and why undoing it
        would be unfair (it revealed something, or used chance)."""
        entries = {e.seq: e for e in await self.store.log.entries(record.id)}
        target = _last_effective_action(entries, record.version)
        if target is None:
            raise Refusal(_("There is no move to undo."))
        game = await self._as_set_up(self.read.game(record.kind), record.id)
        before = await replay_game(self.store, game, record.id, upto=target.seq - 1)
        redo = game.apply(before, target.actor_seat, target.action, target.at)
        table = await self.read.table(record.id, record=record)
        presentation = self.read.presentation(record.kind)
        told = (said(presentation, table, e) for e in redo.events if e.public)
        what = "; ".join(line for line in told if line) or _("the last move")
        return target, before, what, _undo_blockers(redo)

    async def undo(self, game_id: int, mod: Person, *, force: bool, version: int) -> Done:
        """Undo the last move, as the moderator confirmed it when the game was at `version`: if anything happened
        since (a move, or another moderator's undo), nothing is undone and they are asked to look again."""
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            _undoable(record, game)
            if record.version != version:
                raise Refusal(
                    _(
                        "The game has moved on since you asked (a move, or another moderator's undo), so I undid "
                        "nothing. Use `/mod undo` again to see what the last move is now."
                    )
                )
            target, before, what, reasons = await self._undo_target(record)
            if reasons and not force:
                raise Refusal(_("I won't undo “%(what)s” without `force:true`.", what=what))
            snap = await self.store.games.snapshot(game_id)
            current = game.load_state(snap.state)
            now = self.read.now()
            entry = NewLogEntry.for_undo(target.seq - 1, now, user_id=mod.user_id, note=f"undo of entry {target.seq}")
            with speaking_at(record):
                if reasons:
                    said = _("🛡️ Moderator **%(by)s** undid (forced): %(what)s", by=shown(mod.name), what=what)
                else:
                    said = _("🛡️ Moderator **%(by)s** undid: %(what)s", by=shown(mod.name), what=what)
            commit = Commit(record, snap.version, current, before, [], entry, texts=[said], fresh_clocks=True)
            ids = await self.moves.commit(commit)
            game_logger(game_id, "boardroom.service").info(
                "undo", extra={"fields": {"by": mod.user_id, "entry": target.seq}}
            )
            return Done(game_id, ids, _("Undone: %(what)s", what=what))

    async def export(self, game_id: int, mod: Person) -> Done:
        """The game's full log (with its seed, every private event and the snapshot). A moderator who holds a seat
        would read the others' secrets in it, so while the game goes on only a moderator who doesn't play gets it;
        once it is over (or still a lobby, with nothing secret yet) any moderator does."""
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        if record.status in ("active", "paused") and any(
            s.player_id == mod.user_id for s in await self.store.seats.of_game(game_id)
        ):
            raise Refusal(
                _(
                    "You play in this game: the export shows everyone's secrets. Ask a moderator who doesn't play, "
                    "or export once the game is over."
                )
            )
        exported = await self.store.export_game(game_id)
        with speaking_at(record):
            text = _("🛡️ Moderator **%(by)s** exported the game's log.", by=shown(mod.name))
        ids = await self.store.outbox.add(game_id, [text_post(text)], now=self.read.now()) if record.thread_id else []
        game_logger(game_id, "boardroom.service").info("exported", extra={"fields": {"by": mod.user_id}})
        return Done(
            game_id, ids, _("%(title)s: the full log.", title=f"{game.title} #{game_id}"), data=exported.to_json()
        )

    async def verify(self, game_id: int, mod: Person) -> Done:
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        if not record.started:
            raise Refusal(_("The game hasn't started: there is nothing to check yet."))
        try:
            game = await self._as_set_up(game, game_id)
            report: ReplayReport | None = await check_replay(self.store, game, game_id)
            problem = None
        except ReplayError as exc:
            report, problem = None, str(exc)
        verdict = _verdict(report, problem)
        with speaking_at(record):
            text = _(
                "🛡️ Moderator **%(by)s** checked the game: %(verdict)s",
                by=shown(mod.name),
                verdict=_verdict(report, problem),
            )
        ids = await self.store.outbox.add(game_id, [text_post(text)], now=self.read.now())
        game_logger(game_id, "boardroom.service").info(
            "verified", extra={"fields": {"by": mod.user_id, "ok": bool(report and report.ok)}}
        )
        return Done(game_id, ids, verdict, data=report)

    async def set_moderator_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        current = await self.store.settings.guild(guild_id)
        return await self.store.settings.put_guild(current.model_copy(update={"moderator_role_id": role_id}))

    async def set_defaults(self, guild_id: int, changes: Mapping[str, timedelta | str | None]) -> GuildSettings:
        """Set (a `timedelta`; for `timezone` an IANA name) or clear (None) the server's `turn_deadline` /
        `reaction_time` / `timezone` for new games."""
        unknown = set(changes) - {"turn_deadline", "reaction_time", "timezone", "language"}
        if unknown:
            raise ValueError(f"not a server default: {', '.join(sorted(unknown))}")
        current = await self.store.settings.guild(guild_id)
        if not changes:
            return current
        return await self.store.settings.put_guild(current.model_copy(update=dict(changes)), now=self.read.now())


def _verdict(report: "ReplayReport | None", problem: str | None) -> str:
    """`/mod verify`'s verdict, in the language spoken."""
    if report is not None and report.ok:
        return _("✅ the log replays to the stored game exactly (after %(n)d entries).", n=report.version)
    if report is not None:
        parts = []
        if report.differing_fields:
            parts.append(_("the state differs in %(fields)s", fields=", ".join(report.differing_fields)))
        if report.event_mismatches:
            parts.append(
                _("events differ at entries %(entries)s", entries=", ".join(map(str, report.event_mismatches)))
            )
        return "❌ " + "; ".join(parts) + "."
    # The rules' own message may already end its sentence.
    return _("❌ the log does not replay: %(problem)s.", problem=str(problem).rstrip("."))


def _undoable(record: GameRecord, game: Game) -> None:  # type: ignore[type-arg]
    if not record.started:
        raise Refusal(_("The game hasn't started: there is nothing to undo."))
    if record.status in ("finished", "abandoned"):
        raise Refusal(
            _(
                "%(title)s is over and its standings were posted: an undo would change a finished game, so I won't.",
                title=f"{game.title} #{record.id}",
            )
        )


def _hours(hours: float) -> str:
    return n_("%(hours)s hour", "%(hours)s hours", 1 if hours == 1 else 2, hours=f"{hours:g}")


def _last_effective_action(entries: dict[int, LogEntry], version: int) -> LogEntry | None:
    """The action that made the current state what it is, following undos back."""
    cur = version
    while cur > 0:
        entry = entries[cur]
        if entry.kind == "action":
            return entry
        cur = entry.undo_to if entry.kind == "undo" and entry.undo_to is not None else cur - 1
    return None


def _undo_blockers(outcome: Outcome) -> list[str]:  # type: ignore[type-arg]
    reasons = []
    if outcome.reveals_hidden:
        reasons.append(N_("revealed hidden information"))
    if outcome.used_randomness:
        reasons.append(N_("involved a shuffle or a die roll"))
    return reasons
