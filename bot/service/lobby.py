"""Lobbies: open one, join, leave, start the game (seats, seed, set-up, first messages), or close it.

Decisions where the issue is silent:
- The creator of a lobby joins it at once; seats are numbered in join order, shuffled at start when "random seat
  order" is on (the shuffle uses the set-up seed, so it is recorded). An option that names a player (a
  `PlayerOption`, e.g. who begins) is kept with the lobby's settings as a person (`PlayerPick`) and becomes that
  person's seat at the start, after the shuffle; the game's stored options then hold the seat, so it replays.
- The game's set-up events (`Game.setup_events`) are posted with the start: public ones in the opening narration
  (and as tracked posts if the game has any for them), private ones in their seat's first hand message.
"""

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot import invalid, outbox, routing, seat_players
from bot import quiet as quietness
from bot import timers as timing
from bot.game_options import OptionsError, resolve_picks
from bot.i18n.platform import _, n_
from bot.logs import game_logger
from bot.names import shown
from bot.presentation import Table
from bot.service.lobby_settings import LobbySettings
from bot.service.moves import MovePath, text_post
from bot.service.reader import LOBBY_REF
from bot.service.results import Done, Person, Refusal
from bot.table import speaking_at
from engine.events import Wait
from engine.game import Game
from engine.policy import Level
from engine.text import seat as seat_ref
from storage import GameRecord, MessageRef, NewOutbox, NewSeat, NotifyMode, SeatRecord


class Lobby:
    """Open a lobby, join, leave, computer players in and out, start the game, or close the lobby."""

    def __init__(self, moves: MovePath, *, seed_source: Callable[[], int] | None = None) -> None:
        self.moves = moves
        self.read = moves.read
        self.store = moves.store
        self.seed_source = seed_source or (lambda: random.SystemRandom().getrandbits(63))

    async def create_lobby(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        creator: Person,
        options: dict[str, Any],
        bots: int | Sequence[Level] = 0,
        level: Level = "normal",
        max_seats: int | None = None,
    ) -> GameRecord:
        """A new lobby with its creator seated, and computer players (up to `max_seats`): `bots` of them at `level`,
        or one per level listed in `bots` (a rematch seats the old table's again)."""
        levels: list[Level] = [level] * bots if isinstance(bots, int) else list(bots)
        bots = len(levels)
        game = self.read.game(kind)
        try:
            game.parse_options(options)
        except ValueError as exc:
            raise Refusal(
                _(
                    "Those options don't work for %(game)s: %(problem)s.",
                    game=game.title,
                    problem=invalid.problem(exc),
                )
            ) from None
        if bots:
            if self.read.policy(kind) is None:
                raise Refusal(_("%(game)s has no computer players yet.", game=game.title))
            room = (max_seats or game.max_seats) - 1
            if bots > room:
                raise Refusal(
                    n_(
                        "%(game)s seats at most %(most)d here: you and %(n)d computer player at most, not %(bots)d.",
                        "%(game)s seats at most %(most)d here: you and %(n)d computer players at most, not %(bots)d.",
                        room,
                        game=game.title,
                        most=room + 1,
                        bots=bots,
                    )
                )
        record = await self.store.games.create(
            kind,
            guild_id=guild_id,
            channel_id=channel_id,
            options=options,
            created_by=creator.user_id,
            now=self.read.now(),
        )
        seats = [NewSeat(seat=0, player_id=creator.user_id, display_name=creator.name)]
        for n, at in enumerate(levels):
            name = seat_players.bot_name([s.display_name for s in seats], at)
            seats.append(NewSeat(seat=n + 1, display_name=name, bot=True, level=at))
        await self.store.seats.set_lobby(record.id, seats)
        game_logger(record.id, "boardroom.service").info(
            "lobby opened", extra={"fields": {"kind": kind, "by": creator.user_id}}
        )
        return record

    async def attach_lobby_message(
        self, game_id: int, *, message_id: int, channel_id: int, settings: LobbySettings
    ) -> None:
        """Remember the lobby message (and its settings) as soon as it is posted: from here on a lobby whose thread
        is missing can be completed from it (`bot.lobby_repair`)."""
        ref = MessageRef(
            message_id=message_id, channel_id=channel_id, game_id=game_id, kind=LOBBY_REF, key=settings.key()
        )
        await self.store.refs.put(ref)

    async def attach_thread(self, game_id: int, thread_id: int) -> list[int]:
        """The table's thread is open: remember it, queue the creator's welcome DM and the thread's first words."""
        async with self.moves.lock(game_id):
            before = await self.store.games.get(game_id)
            if before.thread_id == thread_id:
                return []  # a repair and `/game new` both got there: once is enough
            record = await self.store.games.update(game_id, thread_id=thread_id, now=self.read.now())
            game = self.read.game(record.kind)
            assert record.created_by is not None
            # Its creator is not mentioned: they opened it a moment ago (a ping for what one just did is noise).
            with speaking_at(record):
                intro = _(
                    "🎲 The table for **%(title)s**. Join with the button above or `/game join` here; its creator or a "
                    "moderator starts it with **Start** or `/game start`.",
                    title=f"{game.title} #{record.id}",
                )
            return await self.store.outbox.add(
                game_id, [outbox.welcome(record.created_by), text_post(intro)], now=self.read.now()
            )

    async def cancel_lobby(
        self, game_id: int, by: Person | None, *, is_moderator: bool, why: str = "", idle_days: int | None = None
    ) -> Done:
        """Close a lobby for good: by its creator or a moderator (`by`), or by the bot itself (`by` None, with
        `why` for the log: nobody touched it for `idle_days`, or it was never fully opened). Its message and thread
        say so."""
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            if record.status != "lobby":
                raise Refusal(
                    _(
                        "%(title)s isn't a lobby any more. A moderator ends a game with `/mod end`.",
                        title=f"{game.title} #{game_id}",
                    )
                )
            if by is not None and record.created_by != by.user_id and not is_moderator:
                raise Refusal(_("Only the player who opened this lobby, or a moderator, can cancel it."))
            await self.store.games.update(game_id, status="abandoned", now=self.read.now())
            items = [outbox.lobby()]
            if record.thread_id is not None:
                with speaking_at(record):
                    if by is not None:
                        said = _(
                            "🚪 This lobby was closed by **%(name)s**. `/game new` opens a new one.",
                            name=shown(by.name),
                        )
                    elif idle_days is not None:
                        said = n_(
                            "🚪 This lobby was closed by itself: nobody joined, left or started it for %(n)d day. "
                            "`/game new` opens a new one.",
                            "🚪 This lobby was closed by itself: nobody joined, left or started it for %(n)d days. "
                            "`/game new` opens a new one.",
                            idle_days,
                        )
                    else:
                        said = _("🚪 This lobby was closed by itself. `/game new` opens a new one.")
                items.append(text_post(said))
            ids = await self.store.outbox.add(game_id, items, now=self.read.now())
            game_logger(game_id, "boardroom.service").info(
                "lobby closed", extra={"fields": {"by": by.user_id if by else None, "why": why}}
            )
            return Done(game_id, ids, _("%(title)s is closed.", title=f"{game.title} #{game_id}"))

    async def close_idle_lobbies(self, idle: timedelta) -> list[Done]:
        """Close every lobby nobody touched (opened, joined, left) for `idle`: otherwise it stays listed forever."""
        done = []
        cutoff = self.read.now() - idle
        for record in await self.store.games.find(statuses=["lobby"]):
            if record.updated_at <= cutoff:
                days = round(idle.total_seconds() / 86400)
                why = f"by itself: nobody joined, left or started it for {days} days"
                try:
                    done.append(await self.cancel_lobby(record.id, None, is_moderator=True, why=why, idle_days=days))
                except Refusal:
                    continue  # started meanwhile
        return done

    async def join(self, game_id: int, person: Person) -> Done:
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            _not_closed(record, game)
            if record.started:
                raise Refusal(
                    _(
                        "%(title)s has already started. A moderator can seat you with `/mod substitute`.",
                        title=f"{game.title} #{game_id}",
                    )
                )
            seats = await self.store.seats.of_game(game_id)
            if any(s.player_id == person.user_id for s in seats):
                raise Refusal(_("You're already in %(title)s.", title=f"{game.title} #{game_id}"))
            settings = await self.read.lobby_settings(record)
            if len(seats) >= settings.max_seats:
                raise Refusal(_full(game, game_id, len(seats), settings.max_seats))
            new = [_new_seat(s) for s in seats] + [
                NewSeat(seat=len(seats), player_id=person.user_id, display_name=person.name)
            ]
            await self.store.seats.set_lobby(game_id, new, now=self.read.now())
            ids = await self.store.outbox.add(
                game_id, [outbox.lobby(), outbox.welcome(person.user_id)], now=self.read.now()
            )
            game_logger(game_id, "boardroom.service").info("joined", extra={"fields": {"user": person.user_id}})
            return Done(
                game_id,
                ids,
                _(
                    "You joined %(title)s (%(count)d/%(most)d).",
                    title=f"{game.title} #{game_id}",
                    count=len(new),
                    most=settings.max_seats,
                ),
            )

    async def leave(self, game_id: int, person: Person) -> Done:
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            _not_closed(record, game)
            if record.started:
                raise Refusal(
                    _(
                        "%(title)s is under way: you can't walk out of a started game. Ask a moderator (`/mod kick` "
                        "or `/mod substitute`).",
                        title=f"{game.title} #{game_id}",
                    )
                )
            seats = await self.store.seats.of_game(game_id)
            if not any(s.player_id == person.user_id for s in seats):
                raise Refusal(_("You're not in %(title)s.", title=f"{game.title} #{game_id}"))
            rest = [s for s in seats if s.player_id != person.user_id]
            new = [_new_seat(s, i) for i, s in enumerate(rest)]
            await self.store.seats.set_lobby(game_id, new, now=self.read.now())
            ids = await self.store.outbox.add(game_id, [outbox.lobby()], now=self.read.now())
            game_logger(game_id, "boardroom.service").info("left the lobby", extra={"fields": {"user": person.user_id}})
            return Done(game_id, ids, _("You left %(title)s.", title=f"{game.title} #{game_id}"))

    async def add_bot(self, game_id: int, person: Person, *, is_moderator: bool, level: Level = "normal") -> Done:
        """The lobby's "Add a computer player" button (and the level picked after it): one more computer player at
        `level`, up to the table's size."""
        async with self.moves.lock(game_id):
            record, game, seats = await self._lobby_for_bots(game_id, person, is_moderator, "add")
            settings = await self.read.lobby_settings(record)
            if len(seats) >= settings.max_seats:
                raise Refusal(_full(game, game_id, len(seats), settings.max_seats))
            name = seat_players.bot_name([s.display_name for s in seats], level)
            new = [_new_seat(s) for s in seats] + [NewSeat(seat=len(seats), display_name=name, bot=True, level=level)]
            await self.store.seats.set_lobby(game_id, new, now=self.read.now())
            ids = await self.store.outbox.add(game_id, [outbox.lobby()], now=self.read.now())
            game_logger(game_id, "boardroom.service").info(
                "computer player added", extra={"fields": {"name": name, "level": level}}
            )
            return Done(
                game_id,
                ids,
                _(
                    "%(name)s joined %(title)s (%(count)d/%(most)d).",
                    name=name,
                    title=f"{game.title} #{game_id}",
                    count=len(new),
                    most=settings.max_seats,
                ),
            )

    async def check_add_bot(self, game_id: int, person: Person, *, is_moderator: bool) -> None:
        """Refused as `add_bot` would be now (before the lobby's level choice is shown, so nobody picks in vain)."""
        record, game, seats = await self._lobby_for_bots(game_id, person, is_moderator, "add")
        settings = await self.read.lobby_settings(record)
        if len(seats) >= settings.max_seats:
            raise Refusal(_full(game, game_id, len(seats), settings.max_seats))

    async def remove_bot(self, game_id: int, person: Person, *, is_moderator: bool) -> Done:
        """The lobby's "Remove a computer player" button: the computer player added last leaves."""
        async with self.moves.lock(game_id):
            _record, game, seats = await self._lobby_for_bots(game_id, person, is_moderator, "remove")
            gone = next((s for s in reversed(seats) if s.bot), None)
            if gone is None:
                raise Refusal(_("There is no computer player in %(title)s.", title=f"{game.title} #{game_id}"))
            rest = [s for s in seats if s.seat != gone.seat]
            await self.store.seats.set_lobby(
                game_id, [_new_seat(s, i) for i, s in enumerate(rest)], now=self.read.now()
            )
            ids = await self.store.outbox.add(game_id, [outbox.lobby()], now=self.read.now())
            game_logger(game_id, "boardroom.service").info("computer player removed")
            return Done(
                game_id, ids, _("%(name)s left %(title)s.", name=gone.display_name, title=f"{game.title} #{game_id}")
            )

    async def _lobby_for_bots(
        self, game_id: int, person: Person, is_moderator: bool, verb: str
    ) -> tuple[GameRecord, Game, list[Any]]:
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        _not_closed(record, game)
        if record.started:
            raise Refusal(_("%(title)s has already started.", title=f"{game.title} #{game_id}"))
        if self.read.policy(record.kind) is None:
            raise Refusal(_("%(game)s has no computer players yet.", game=game.title))
        if record.created_by != person.user_id and not is_moderator:
            if verb == "add":
                raise Refusal(_("Only the player who opened this game, or a moderator, can add computer players."))
            raise Refusal(_("Only the player who opened this game, or a moderator, can remove computer players."))
        return record, game, await self.store.seats.of_game(game_id)

    async def start(self, game_id: int, person: Person, *, is_moderator: bool) -> Done:
        async with self.moves.lock(game_id):
            record = await self.store.games.get(game_id)
            game = self.read.game(record.kind)
            seats = await self._startable(record, game, person, is_moderator)
            settings = await self.read.lobby_settings(record)
            try:  # options naming a player: that person, found before the seat order is shuffled …
                picked = resolve_picks(game, settings.picks, seats)
            except OptionsError as exc:
                raise Refusal(str(exc)) from None
            seed = self.seed_source()
            players = list(seats)
            if settings.random_order:
                random.Random(seed).shuffle(players)
            now = self.read.now()
            # … and their seat after it.
            seat_of = {s.player_id: i for i, s in enumerate(players)}
            options = game.parse_options({**record.options, **{k: seat_of[u] for k, u in picked.items()}})
            state = game.setup(len(players), options, seed, now)
            new_seats = [_new_seat(s, i) for i, s in enumerate(players)]
            waits = game.waiting_on(state)
            people = await self.read.quiet.of(s.player_id for s in new_seats if s.player_id is not None)
            quiet = quietness.of_seats(new_seats, people)
            timers = timing.plan(game, waits, {}, now, paused=False, reminders=self.moves.reminders, quiet=quiet)
            due = timing.effective_deadlines(game, waits, timing.clocks_from(timers))
            timers += seat_players.plan(game, game_id, waits, new_seats, now)
            # Whoever pressed Start knows the game began: named, not pinged, when the first move is theirs.
            table = Table(
                game,
                record,
                [_seat_record(game_id, s, now) for s in new_seats],
                state,
                now,
                words=self.read.presentation(record.kind),
            )
            modes = await self.read.deliveries.modes(table.seats)
            hush = [s for s, q in quiet.items() if quietness.inside(q, now)]
            with speaking_at(record):  # the table's first words, in its language
                items = self._opening(
                    table, waits, new_seats, actor=seat_of.get(person.user_id), modes=modes, due=due, hush=hush
                )
            result = await self.store.games.start(
                game_id,
                seed=seed,
                setup_at=now,
                seats=new_seats,
                options=options.model_dump(mode="json"),  # with the picked seats: a replay sets up the same game
                snapshot=game.dump_state(state),
                timers=timers,
                outbox=items,
            )
            self.moves.on_timers_changed()
            glog = game_logger(game_id, "boardroom.service")
            glog.info("started", extra={"fields": {"seats": len(players)}})
            # The seed decides every shuffle (in KKK, every hand): never at INFO, where logs are often shared.
            glog.debug("set-up seed", extra={"fields": {"seed": seed}})
            return Done(game_id, result.outbox_ids, _("%(title)s has started.", title=f"{game.title} #{game_id}"))

    async def _startable(
        self,
        record: GameRecord,
        game: Game,  # type: ignore[type-arg]
        person: Person,
        is_moderator: bool,
    ) -> list[SeatRecord]:
        """The lobby's seats, if `person` may start it now (a `Refusal` says why not)."""
        _not_closed(record, game)
        if record.started:
            raise Refusal(_("%(title)s has already started.", title=f"{game.title} #{record.id}"))
        if record.created_by != person.user_id and not is_moderator:
            raise Refusal(_("Only the player who opened this game, or a moderator, can start it."))
        if record.thread_id is None:
            raise Refusal(
                _(
                    "%(title)s has no table thread yet, so it can't start. I'm setting it up again; try **Start** in "
                    "a moment.",
                    title=f"{game.title} #{record.id}",
                )
            )
        seats = await self.store.seats.of_game(record.id)
        if len(seats) < game.min_seats:
            values = {"game": game.title, "least": game.min_seats, "missing": game.min_seats - len(seats)}
            if self.read.policy(record.kind) is not None:
                said = n_(
                    "%(game)s needs at least %(least)d players and %(n)d has joined: %(missing)d more to go (press "
                    "**Join**, or add a computer player).",
                    "%(game)s needs at least %(least)d players and %(n)d have joined: %(missing)d more to go (press "
                    "**Join**, or add a computer player).",
                    len(seats),
                    **values,
                )
            else:
                said = n_(
                    "%(game)s needs at least %(least)d players and %(n)d has joined: %(missing)d more to go (press "
                    "**Join**).",
                    "%(game)s needs at least %(least)d players and %(n)d have joined: %(missing)d more to go (press "
                    "**Join**).",
                    len(seats),
                    **values,
                )
            raise Refusal(said)
        if all(s.player_id is None for s in seats):
            raise Refusal(_("A table of computer players only would play for nobody: a person must join first."))
        return seats

    def _opening(
        self,
        table: Table,
        waits: list[Wait],
        seats: list[NewSeat],
        *,
        actor: int | None,
        modes: Mapping[int, NotifyMode],
        due: dict[int, datetime] | None = None,
        hush: list[int] | None = None,
    ) -> list[NewOutbox]:
        """The start's rows: the lobby message, the opening narration (seat order, set-up events, who is awaited),
        the tracked posts of its public events, the status, and every seat's first hand with its private events."""
        game, record = table.game, table.record
        assert table.state is not None
        order = ", ".join(f"{i + 1}. {seat_ref(i)}" for i in range(len(seats)))
        events = game.setup_events(table.state)
        items: list[NewOutbox] = [outbox.lobby()]
        awaits = [(w, (due or {}).get(i, w.until)) for i, w in enumerate(waits)]
        elsewhere, dms = routing.prompt_rows(awaits, actor, table.seats, modes, record, table.title, no_dm=hush or ())
        first = outbox.post(
            intro=[
                _("🎲 **%(title)s begins!** Seat order: %(order)s.", title=f"{game.title} #{record.id}", order=order)
            ],
            events=events,
            awaits=awaits,
            actor=actor,
            elsewhere=elsewhere,
            hush=hush or (),
        )
        if first is not None:
            items.append(first)
        public = [e for e in events if e.public]
        if public and self.read.presentation(record.kind).event_posts(table, public):
            items.append(outbox.tracked(public))
        items.append(outbox.status())
        items += [outbox.hand(s.seat, outbox.private_notes(events, s.seat)) for s in seats]
        return items + dms  # after the hands: a player's first DM is their hand, the prompt below it


def _not_closed(record: GameRecord, game: Game) -> None:  # type: ignore[type-arg]
    if not record.started and record.status != "lobby":
        raise Refusal(
            _(
                "%(title)s was closed before it started. `/game new` opens a new one.",
                title=f"{game.title} #{record.id}",
            )
        )


def _full(game: Game, game_id: int, count: int, most: int) -> str:  # type: ignore[type-arg]
    return _("%(title)s is full (%(count)d/%(most)d).", title=f"{game.title} #{game_id}", count=count, most=most)


def _new_seat(s: SeatRecord | NewSeat, number: int | None = None) -> NewSeat:
    return NewSeat(
        seat=s.seat if number is None else number,
        player_id=s.player_id,
        display_name=s.display_name,
        dm_ok=s.dm_ok,
        away_until=s.away_until,
        autopilot=s.autopilot,
        bot=s.bot,
        missed=s.missed,
        level=s.level,
    )


def _seat_record(game_id: int, s: NewSeat, now: datetime) -> SeatRecord:
    return SeatRecord(game_id=game_id, joined_at=now, **s.model_dump())
