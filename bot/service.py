"""The one way into a game: lock it, load it, let the engine decide, commit, and say what must be delivered.

`GameService` sits between Discord and the engine. Every change to a game goes through it under that game's
`asyncio.Lock`: load the record and snapshot, `game.apply` (a `RuleError` leaves everything untouched), then one
store transaction with the log entry, the new snapshot, the recomputed timers (`bot.timers`) and the outbox rows
(`bot.outbox`). Only after the commit does the caller hand the returned outbox ids to the notifier, so nothing is
ever announced that is not stored. The store's optimistic version check catches a writer outside this process
(`StaleVersion`): the service reloads and tries again.

The service knows nothing of Discord objects: players are user ids and display names, refusals are `Refusal`s
(already worded for the person) or the engine's `RuleError`s (worded with seat references, rendered by the caller).

Decisions where the issue is silent:
- The creator of a lobby joins it at once; seats are numbered in join order, shuffled at start when "random seat
  order" is on (the shuffle uses the set-up seed, so it is recorded). An option that names a player (a
  `PlayerOption`, e.g. who begins) is kept with the lobby's settings as a person (`PlayerPick`) and becomes that
  person's seat at the start, after the shuffle; the game's stored options then hold the seat, so it replays.
- While a game is paused, players' moves are refused; moderators may still substitute, kick, end, undo, export and
  verify. Timers of a paused game are frozen (see `bot.timers`).
- `/mod export` holds every secret (the seed, private events, the snapshot): while a game is active or paused it
  is refused to a moderator who holds a seat in it; after the game (or in a lobby) anyone with the rights gets it.
- An undo restarts the clocks of the waits it restores (a full turn / reaction time from the undo), so an old wait
  brought back is not overdue at once.
- A kick applies the engine's `Leave` action (the game's rule for a leaving player) so it is logged and replays;
  when the game cannot go on it ends, abandoned, with the standings so far. The kicked member's seat keeps its name.
- `/game away` applies to all the player's seats in open games of that server; while away, each reaction window
  that waits on them gets the game's `away_action` (the generic one: a legal `pass`) at once.
- A commit writes a seat's `hand` row when the seat got private events or its `hand_fingerprint` (the game's
  `hand_digest` plus the hand's buttons) changed, so buttons that come and go (a secret choice opening after a
  challenge, or again after an undo) always reach the DM through the outbox. It writes a `tracked` row when the
  events have event posts or the presentation has live posts (refreshed even after an undo, which has no events).
- `/game dms` (`retry_dms`) queues the player's hand (or lobby welcome) in each of their open games of that server
  with `retry_dm`, so the notifier tries a DM even where it was found closed; server defaults (`set_defaults`) are
  stored per server and read by `/game new`.
- A wait is announced in the thread (mentioning who is awaited) only when it is news: someone is awaited for
  something they were not awaited for just before (`announcements`). A deadline that merely moved — the same people
  awaited for the same thing, e.g. a Boss whose time restarts with every move of a round — is shown by the status
  message, not pinged again; one more pass in a reaction window pings nobody. After an undo every wait is announced.
- The game's set-up events (`Game.setup_events`) are posted with the start: public ones in the opening narration
  (and as tracked posts if the game has any for them), private ones in their seat's first hand message.
- A reaction (`react`) is decided under the game's lock in one go: stray or not (`reaction_allowed`), what it means
  (`reaction_action`), and when the engine refuses that move, the game's answer (`reaction_refused`) is queued right
  there, from that one refused `apply`. A move by command or button that the engine refuses is answered to the
  player alone, unless the game says the table should hear it too (`action_refused`, e.g. KKK's shake over the
  deal's payout, posted the same way whether it came as a 🤝 or as `/kkk shake`): that post is queued the same way
  and its rows ride on the `Refusal` (`outbox_ids`) for `bot.replies.answer` to deliver.
"""

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from bot import invalid, outbox
from bot import timers as timing
from bot.game_options import OptionsError, PlayerPick, resolve_picks
from bot.logs import game_logger
from bot.presentation import Presentation, Table, hand_fingerprint
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game, Leave, Outcome
from engine.text import render
from engine.text import seat as seat_ref
from storage import (
    GameRecord,
    GameStore,
    GuildSettings,
    LogEntry,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    ReplayReport,
    SeatRecord,
    StaleVersion,
)
from storage.models import OPEN_STATUSES

T = TypeVar("T")
Clock = Callable[[], datetime]
LOBBY_REF = "lobby"
COMMIT_RETRIES = 3


class Refusal(Exception):
    """A request the platform refuses (not a rule of the game): the message is final and shown to the person.

    `outbox_ids` (with `game_id`): what the refusal queued for the table (the game's `action_refused` post), for the
    caller to deliver besides answering the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.game_id: int | None = None
        self.outbox_ids: list[int] = []


class RuleRefusal(Refusal):
    """The engine refused the move (`RuleError`): `message` is rendered with the players' names, `rule_message` is
    the engine's own text with seat references (for a presentation that words it itself)."""

    def __init__(self, message: str, rule_message: str) -> None:
        super().__init__(message)
        self.rule_message = rule_message


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str


@dataclass
class Done:
    """What a service call did: the game it touched, the outbox rows to deliver and a word for the person."""

    game_id: int
    outbox_ids: list[int] = field(default_factory=list)
    message: str | None = None
    data: Any = None


ReactionOutcome = Literal["applied", "refused", "stray", "ignored"]


@dataclass
class Reacted:
    """What became of one reaction on a tracked message (`GameService.react`)."""

    outcome: ReactionOutcome
    """applied: its action was committed; refused: the engine refused it (the presentation's answer is queued);
    stray: the presentation says it may not stand (remove it if possible); ignored: it means nothing."""
    done: Done
    reason: str = ""


@dataclass
class Reconciled:
    """One reaction found changed at start-up (`GameService.reconcile_reactions`) and what became of it."""

    ref: MessageRef
    user_id: int
    emoji: str
    added: bool
    reacted: Reacted


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


@dataclass(frozen=True)
class LobbySettings:
    max_seats: int
    random_order: bool = True
    picks: tuple[tuple[str, PlayerPick], ...] = ()
    """Options that name a player (`bot.game_options.PlayerPick`), resolved to a seat at the start."""

    def key(self) -> str:
        picks = "".join(f";pick.{name}={pick.key()}" for name, pick in self.picks)
        return f"max={self.max_seats};random={int(self.random_order)}{picks}"

    @classmethod
    def parse(cls, key: str, default_max: int) -> "LobbySettings":
        parts = dict(p.split("=", 1) for p in key.split(";") if "=" in p)
        picks = []
        for name, value in parts.items():
            pick = PlayerPick.from_key(value) if name.startswith("pick.") else None
            if pick is not None:
                picks.append((name[5:], pick))
        try:
            return cls(
                max_seats=int(parts.get("max", default_max)),
                random_order=parts.get("random", "1") == "1",
                picks=tuple(picks),
            )
        except ValueError:
            return cls(max_seats=default_max, picks=tuple(picks))


class GameService:
    def __init__(
        self,
        store: GameStore,
        games: Mapping[str, Game],  # type: ignore[type-arg]
        presentations: Mapping[str, Presentation],
        *,
        clock: Clock,
        seed_source: Callable[[], int] | None = None,
        reminders: bool = True,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.presentations = dict(presentations)
        self.clock = clock
        self.seed_source = seed_source or (lambda: random.SystemRandom().getrandbits(63))
        self.reminders = reminders
        self._locks: dict[int, asyncio.Lock] = {}
        self.on_timers_changed: Callable[[], None] = lambda: None

    # --- basics -----------------------------------------------------------------------------------------

    def game(self, kind: str) -> Game:  # type: ignore[type-arg]
        try:
            return self.games[kind]
        except KeyError:
            raise Refusal(f"This server's Boardroom no longer has the game '{kind}'.") from None

    def presentation(self, kind: str) -> Presentation:
        from bot.presentation import GenericPresentation

        return self.presentations.get(kind) or GenericPresentation()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def now(self) -> datetime:
        return self.clock()

    async def table(self, game_id: int, *, record: GameRecord | None = None) -> Table:
        record = record or await self.store.get_game(game_id)
        game = self.game(record.kind)
        seats = await self.store.seats(game_id)
        state = None
        deadlines: dict[int, datetime] = {}
        if record.started:
            snap = await self.store.get_snapshot(game_id)
            state = game.load_state(snap.state)
            waits = game.waiting_on(state)
            clocks = timing.clocks_from(await self.store.timers(game_id))
            deadlines = timing.effective_deadlines(game, waits, clocks)
        lobby_max = None
        if not record.started:
            lobby_max = (await self.lobby_settings(record)).max_seats
        return Table(game, record, seats, state, self.now(), deadlines, lobby_max)

    async def lobby_settings(self, record: GameRecord) -> LobbySettings:
        refs = await self.store.message_refs(record.id, kind=LOBBY_REF)
        default = self.game(record.kind).max_seats
        return LobbySettings.parse(refs[0].key, default) if refs else LobbySettings(max_seats=default)

    # --- the lobby --------------------------------------------------------------------------------------

    async def create_lobby(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        creator: Person,
        options: dict[str, Any],
    ) -> GameRecord:
        game = self.game(kind)
        try:
            game.parse_options(options)
        except ValueError as exc:
            raise Refusal(f"Those options don't work for {game.title}: {invalid.problem(exc)}.") from None
        record = await self.store.create_game(
            kind, guild_id=guild_id, channel_id=channel_id, options=options, created_by=creator.user_id, now=self.now()
        )
        await self.store.set_seats(record.id, [NewSeat(seat=0, player_id=creator.user_id, display_name=creator.name)])
        game_logger(record.id, "boardroom.service").info(
            "lobby opened", extra={"fields": {"kind": kind, "by": creator.user_id}}
        )
        return record

    async def attach_lobby(
        self, game_id: int, *, message_id: int, channel_id: int, thread_id: int | None, settings: LobbySettings
    ) -> list[int]:
        """Remember the lobby message (and its settings) and the table thread; queue the creator's welcome DM."""
        ref = MessageRef(
            message_id=message_id, channel_id=channel_id, game_id=game_id, kind=LOBBY_REF, key=settings.key()
        )
        await self.store.put_message_ref(ref)
        record = await self.store.update_game(game_id, thread_id=thread_id, now=self.now())
        assert record.created_by is not None
        return await self.store.add_outbox(game_id, [outbox.welcome(record.created_by)], now=self.now())

    async def join(self, game_id: int, person: Person) -> Done:
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            game = self.game(record.kind)
            if record.started:
                raise Refusal(
                    f"{game.title} #{game_id} has already started. A moderator can seat you with `/mod substitute`."
                )
            seats = await self.store.seats(game_id)
            if any(s.player_id == person.user_id for s in seats):
                raise Refusal(f"You're already in {game.title} #{game_id}.")
            settings = await self.lobby_settings(record)
            if len(seats) >= settings.max_seats:
                raise Refusal(f"{game.title} #{game_id} is full ({len(seats)}/{settings.max_seats}).")
            new = [_new_seat(s) for s in seats] + [
                NewSeat(seat=len(seats), player_id=person.user_id, display_name=person.name)
            ]
            await self.store.set_seats(game_id, new, now=self.now())
            ids = await self.store.add_outbox(game_id, [outbox.lobby(), outbox.welcome(person.user_id)], now=self.now())
            game_logger(game_id, "boardroom.service").info("joined", extra={"fields": {"user": person.user_id}})
            return Done(game_id, ids, f"You joined {game.title} #{game_id} ({len(new)}/{settings.max_seats}).")

    async def leave(self, game_id: int, person: Person) -> Done:
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            game = self.game(record.kind)
            if record.started:
                raise Refusal(
                    f"{game.title} #{game_id} is under way: you can't walk out of a started game. "
                    "Ask a moderator (`/mod kick` or `/mod substitute`)."
                )
            seats = await self.store.seats(game_id)
            if not any(s.player_id == person.user_id for s in seats):
                raise Refusal(f"You're not in {game.title} #{game_id}.")
            rest = [s for s in seats if s.player_id != person.user_id]
            new = [_new_seat(s, i) for i, s in enumerate(rest)]
            await self.store.set_seats(game_id, new, now=self.now())
            ids = await self.store.add_outbox(game_id, [outbox.lobby()], now=self.now())
            game_logger(game_id, "boardroom.service").info("left the lobby", extra={"fields": {"user": person.user_id}})
            return Done(game_id, ids, f"You left {game.title} #{game_id}.")

    async def start(self, game_id: int, person: Person, *, is_moderator: bool) -> Done:
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            game = self.game(record.kind)
            if record.started:
                raise Refusal(f"{game.title} #{game_id} has already started.")
            if record.created_by != person.user_id and not is_moderator:
                raise Refusal("Only the player who opened this game, or a moderator, can start it.")
            seats = await self.store.seats(game_id)
            if len(seats) < game.min_seats:
                missing = game.min_seats - len(seats)
                raise Refusal(
                    f"{game.title} needs at least {game.min_seats} players and {len(seats)} "
                    f"{'has' if len(seats) == 1 else 'have'} joined: {missing} more to go (press **Join**)."
                )
            settings = await self.lobby_settings(record)
            try:  # options naming a player: that person, found before the seat order is shuffled …
                picked = resolve_picks(game, settings.picks, seats)
            except OptionsError as exc:
                raise Refusal(str(exc)) from None
            seed = self.seed_source()
            players = list(seats)
            if settings.random_order:
                random.Random(seed).shuffle(players)
            now = self.now()
            # … and their seat after it.
            seat_of = {s.player_id: i for i, s in enumerate(players)}
            options = game.parse_options({**record.options, **{k: seat_of[u] for k, u in picked.items()}})
            state = game.setup(len(players), options, seed, now)
            new_seats = [_new_seat(s, i) for i, s in enumerate(players)]
            waits = game.waiting_on(state)
            timers = timing.plan(game, waits, {}, now, paused=False, reminders=self.reminders)
            order = ", ".join(f"{i + 1}. {seat_ref(i)}" for i in range(len(players)))
            events = game.setup_events(state)
            items: list[NewOutbox] = [outbox.lobby()]
            first = outbox.post(
                intro=[f"🎲 **{game.title} #{game_id} begins!** Seat order: {order}."],
                events=events,
                awaits=[(w, w.until) for w in waits],
            )
            if first is not None:
                items.append(first)
            public = [e for e in events if e.public]
            table = Table(game, record, [_seat_record(game_id, s, now) for s in new_seats], state, now)
            if public and self.presentation(record.kind).event_posts(table, public):
                items.append(outbox.tracked(public))
            items.append(outbox.status())
            items += [outbox.hand(s.seat, outbox.private_notes(events, s.seat)) for s in new_seats]
            result = await self.store.start_game(
                game_id,
                seed=seed,
                setup_at=now,
                seats=new_seats,
                options=options.model_dump(mode="json"),  # with the picked seats: a replay sets up the same game
                snapshot=game.dump_state(state),
                timers=timers,
                outbox=items,
            )
            self.on_timers_changed()
            glog = game_logger(game_id, "boardroom.service")
            glog.info("started", extra={"fields": {"seats": len(players)}})
            # The seed decides every shuffle (in KKK, every hand): never at INFO, where logs are often shared.
            glog.debug("set-up seed", extra={"fields": {"seed": seed}})
            return Done(game_id, result.outbox_ids, f"{game.title} #{game_id} has started.")

    # --- playing ----------------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: Any) -> Done:
        """A player's move: `action` is an engine action (model or JSON-like dict)."""
        async with self.lock(game_id):
            for attempt in range(COMMIT_RETRIES):
                record = await self.store.get_game(game_id)
                game = self.game(record.kind)
                _require_running(record, game)
                if record.status == "paused":
                    raise Refusal("⏸️ This game is paused by a moderator; moves wait until `/mod resume`.")
                seat = await self.seat_of(game_id, user_id)
                try:
                    ids = await self._apply_and_commit(record, seat, action, user_id=user_id)
                except StaleVersion:
                    if attempt == COMMIT_RETRIES - 1:
                        raise
                    continue
                except RuleRefusal as exc:
                    await self._tell_refusal(record, seat, action, exc)
                    raise
                ids += await self._auto_pass(game_id)
                return Done(game_id, ids)
        raise AssertionError("unreachable")

    async def _tell_refusal(self, record: GameRecord, seat: int, action: Any, exc: RuleRefusal) -> None:
        """Queue what the game tells the table about a move it refused (`action_refused`; usually nothing: the
        refusal is the player's own ephemeral answer), under the lock, from that one refused `apply`."""
        if record.thread_id is None:
            return
        game = self.game(record.kind)
        try:
            parsed = _parsed(game, action)
        except ValueError:
            return
        table = await self.table(record.id, record=record)
        post = self.presentation(record.kind).action_refused(table, seat, parsed, exc.rule_message)
        if post is not None and post.text:
            exc.game_id = record.id
            exc.outbox_ids = await self.store.add_outbox(record.id, [_text_post(post.text)], now=self.now())

    async def act_for_seat(self, game_id: int, user_id: int, make: Callable[[Table, int], Any]) -> Done:
        """A move chosen from the table as it is under the lock (buttons, reactions): `make(table, seat)` gives
        the action, or None when there is nothing to do (then a `Refusal` explains)."""
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            game = self.game(record.kind)
            _require_running(record, game)
            if record.status == "paused":
                raise Refusal("⏸️ This game is paused by a moderator; moves wait until `/mod resume`.")
            seat = await self.seat_of(game_id, user_id)
            table = await self.table(game_id, record=record)
            action = make(table, seat)
            if action is None:
                raise Refusal("There's nothing for you to do with that right now.")
            try:
                ids = await self._apply_and_commit(record, seat, action, user_id=user_id)
            except RuleRefusal as exc:
                await self._tell_refusal(record, seat, action, exc)
                raise
            ids += await self._auto_pass(game_id)
            return Done(game_id, ids)

    async def react(self, game_id: int, user_id: int, ref: MessageRef, emoji: str, *, added: bool) -> Reacted:
        """A reaction added to (or taken off) a tracked message, all under the game's lock: is it stray
        (`reaction_allowed`), what does it mean (`reaction_action`), and if the engine refuses that action, what the
        table is told (`reaction_refused`, queued in the outbox) — the refusal is the one `apply`'s, never a second
        check that could disagree with it. An applied one is recorded in its log entry's note (`reaction_note`), so
        `reconcile_reactions` knows which reactions the game has already heard of."""
        async with self.lock(game_id):
            return await self._react(game_id, user_id, ref, emoji, added=added)

    async def _react(self, game_id: int, user_id: int, ref: MessageRef, emoji: str, *, added: bool) -> Reacted:
        """`react` under the game's lock."""
        record = await self.store.get_game(game_id)
        presentation = self.presentation(record.kind)
        table = await self.table(game_id, record=record)
        seat = next((s.seat for s in table.seats if s.player_id == user_id), None)
        if table.state is None:
            return Reacted("ignored", Done(game_id), "the game hasn't started")
        if not presentation.reaction_allowed(table, ref, seat, emoji):
            return Reacted("stray", Done(game_id))
        if record.status != "active":
            return Reacted("ignored", Done(game_id), f"the game is {record.status}")
        if seat is None:
            return Reacted("ignored", Done(game_id), "not a player")
        action = presentation.reaction_action(table, ref, seat, emoji, added)
        if action is None:
            return Reacted("ignored", Done(game_id), "nothing to do")
        note = reaction_note(ref.message_id, emoji, added)
        try:
            ids = await self._apply_and_commit(record, seat, action, user_id=user_id, note=note)
        except RuleRefusal as exc:
            post = presentation.reaction_refused(table, ref, seat, emoji, added, exc.rule_message)
            ids = []
            if post is not None and post.text and record.thread_id is not None:
                ids = await self.store.add_outbox(game_id, [_text_post(post.text)], now=self.now())
            return Reacted("refused", Done(game_id, ids), exc.message)
        except Refusal as exc:
            return Reacted("ignored", Done(game_id), exc.message)
        ids += await self._auto_pass(game_id)
        return Reacted("applied", Done(game_id, ids))

    async def reconcile_reactions(self, game_id: int, fetch: FetchReactions) -> list[Reconciled]:
        """Bring the game in line with reactions added or taken off while the bot was not listening (offline, or
        disconnected long enough to miss gateway events). For each message the game watches
        (`Presentation.reconcile_refs`), `fetch(ref, emoji)` gives who reacts with that emoji now (user ids, the
        bot's own left out; None when it can't be read); compared with the reactions the game has heard of (the
        applied reactions recorded in the log, `reaction_note`), each difference is handled exactly like the gateway
        event that was missed (`_react`: stray, a move, refused, or nothing). All under the game's lock, fetches
        included, so a live reaction arriving meanwhile is handled after, in order."""
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            if record.status != "active":
                return []
            table = await self.table(game_id, record=record)
            if table.state is None:
                return []
            watched = self.presentation(record.kind).reconcile_refs(table)
            if not watched:
                return []
            heard = await self._heard_reactions(game_id)
            out: list[Reconciled] = []
            for kind, key, emoji in watched:
                ref = await self.store.find_message_ref(game_id, kind, key=key)
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
        for entry in await self.store.log(game_id):
            parsed = parse_reaction_note(entry.note)
            if parsed is not None and entry.user_id is not None:
                message_id, emoji, added = parsed
                last[(message_id, emoji, entry.user_id)] = added
        heard: dict[tuple[int, str], set[int]] = {}
        for (message_id, emoji, user_id), added in last.items():
            if added:
                heard.setdefault((message_id, emoji), set()).add(user_id)
        return heard

    async def seat_of(self, game_id: int, user_id: int) -> int:
        for s in await self.store.seats(game_id):
            if s.player_id == user_id:
                return s.seat
        record = await self.store.get_game(game_id)
        raise Refusal(f"You're not playing in {self.game(record.kind).title} #{game_id}.")

    async def _apply_and_commit(
        self,
        record: GameRecord,
        seat: int | None,
        action: Any,
        *,
        user_id: int | None,
        texts: Sequence[str] = (),
        fresh_clocks: bool = False,
        note: str = "",
    ) -> list[int]:
        game = self.game(record.kind)
        snap = await self.store.get_snapshot(record.id)
        state = game.load_state(snap.state)
        now = self.now()
        try:
            outcome = game.apply(state, seat, action, now)
        except RuleError as exc:
            if user_id is None or seat is None:
                raise
            names = [s.display_name for s in await self.store.seats(record.id)]
            raise RuleRefusal(render(exc.message, names), exc.message) from None
        except ValueError as exc:  # a malformed action (pydantic's ValidationError)
            if seat is None:
                raise
            raise Refusal(
                f"That isn't a move {game.title} understands: {invalid.problem(exc)}. Pick one of the suggestions."
            ) from None
        entry = NewLogEntry.for_action(
            seat, game.dump_action(_parsed(game, action)), now, outcome.events, user_id=user_id
        )
        if note:
            entry = entry.model_copy(update={"note": note})
        ids = await self._commit(
            record, snap.version, state, outcome.state, outcome.events, entry, texts=texts, fresh_clocks=fresh_clocks
        )
        game_logger(record.id, "boardroom.service").info(
            "applied",
            extra={"fields": {"seat": seat, "action": entry.action.get("type") if entry.action else None}},
        )
        return ids

    async def _commit(
        self,
        record: GameRecord,
        version: int,
        before: BaseModel,
        after: BaseModel,
        events: Sequence[Event],
        entry: NewLogEntry,
        *,
        texts: Sequence[str] = (),
        status: str | None = None,
        fresh_clocks: bool = False,
        clocks: dict[str, timing.Clock] | None = None,
        extra: Sequence[NewOutbox] = (),
        result_post: bool | None = None,
    ) -> list[int]:
        """Commit one log entry with its snapshot, timers and outbox rows (one transaction)."""
        game = self.game(record.kind)
        now = entry.at
        waits_before = game.waiting_on(before)
        waits_after = game.waiting_on(after)
        old_timers = await self.store.timers(record.id)
        if clocks is None:
            clocks = timing.clocks_from(old_timers)
        if fresh_clocks:
            clocks = {timing.wait_key(game, w): timing.Clock(shift=now - w.since) for w in waits_after}
        finished = game.result(after) is not None
        new_status = status or ("finished" if finished and record.status != "finished" else None)
        if new_status is None and not finished and record.status == "finished":
            new_status = "active"  # an undo of the final move
        effective_status = new_status or record.status
        paused = effective_status == "paused"
        over = effective_status in ("finished", "abandoned")
        timers = [] if over else timing.plan(game, waits_after, clocks, now, paused=paused, reminders=self.reminders)
        deadlines = timing.effective_deadlines(game, waits_after, clocks)
        awaits = [] if over else announcements(waits_before, waits_after, deadlines, fresh=fresh_clocks)
        items: list[NewOutbox] = []
        narration = outbox.post(
            events=events,
            texts=texts,
            awaits=awaits,
            result=result_post if result_post is not None else (finished and record.status != "finished"),
        )
        if narration is not None:
            items.append(narration)
        presentation = self.presentation(record.kind)
        public = [e for e in events if e.public]
        seats = await self.store.seats(record.id)
        table_before = Table(game, record, seats, before, now)
        table_after = Table(game, record.model_copy(update={"status": effective_status}), seats, after, now)
        if (public and presentation.event_posts(table_after, public)) or presentation.live_posts(table_after):
            items.append(outbox.tracked(public))
        items += extra
        items.append(outbox.status())
        for s in range(game.seat_count(after)):
            notes = outbox.private_notes(events, s)
            if notes or hand_fingerprint(presentation, table_before, s) != hand_fingerprint(
                presentation, table_after, s
            ):
                items.append(outbox.hand(s, notes))
        result = await self.store.commit(
            record.id,
            version,
            entry,
            None if entry.kind == "note" else game.dump_state(after),
            status=new_status,  # type: ignore[arg-type]
            timers=timers,
            outbox=items,
        )
        self.on_timers_changed()
        return result.outbox_ids

    async def _auto_pass(self, game_id: int) -> list[int]:
        """Apply the away action for every away seat a reaction window waits on (under the game's lock)."""
        ids: list[int] = []
        for _ in range(32):
            record = await self.store.get_game(game_id)
            if record.status != "active":
                return ids
            table = await self.table(game_id, record=record)
            assert table.state is not None
            now = self.now()
            away = {s.seat for s in table.seats if s.away_until is not None and s.away_until > now}
            if not away:
                return ids
            presentation = self.presentation(record.kind)
            chosen = None
            for wait in table.waits:
                if wait.kind != "reaction":
                    continue
                for seat in wait.seats:
                    if seat in away:
                        action = presentation.away_action(table, seat, wait)
                        if action is not None:
                            chosen = (seat, action)
                            break
                if chosen:
                    break
            if chosen is None:
                return ids
            seat, action = chosen
            try:
                ids += await self._apply_and_commit(
                    record, seat, action, user_id=None, texts=[f"💤 {seat_ref(seat)} is away: passing for them."]
                )
            except RuleError as exc:
                game_logger(game_id, "boardroom.service").warning("away action refused: %s", exc.message)
                return ids
        return ids

    async def set_away(self, user_id: int, guild_id: int | None, until: datetime | None) -> list[Done]:
        """Mark the player away (or back) in all their open games of this server; away passes happen at once."""
        done: list[Done] = []
        for seat in await self.store.seats_of_player(user_id, statuses=OPEN_STATUSES):
            record = await self.store.get_game(seat.game_id)
            if guild_id is not None and record.guild_id != guild_id:
                continue
            async with self.lock(record.id):
                await self.store.update_seat(record.id, seat.seat, away_until=until)
                ids = await self._auto_pass(record.id) if until is not None and record.started else []
                if record.started:
                    ids += await self.store.add_outbox(record.id, [outbox.status()], now=self.now())
            done.append(Done(record.id, ids))
        return done

    # --- the clock --------------------------------------------------------------------------------------

    async def fire_timer(self, timer_id: int, game_id: int) -> Done:
        """Fire one due timer: a deadline applies the wait's system action, a reminder queues its messages."""
        async with self.lock(game_id):
            timers = {t.id: t for t in await self.store.timers(game_id)}
            timer = timers.get(timer_id)
            if timer is None:
                return Done(game_id)  # replaced by a commit since it was read
            record = await self.store.get_game(game_id)
            log = game_logger(game_id, "boardroom.service")
            if record.status != "active":
                await self.store.delete_timer(timer_id)
                return Done(game_id)
            if timer.kind == timing.DEADLINE:
                try:
                    ids = await self._apply_and_commit(record, None, timer.payload["action"], user_id=None)
                except RuleError as exc:
                    log.info("deadline no longer applies: %s", exc.message)
                    await self.store.delete_timer(timer_id)
                    return Done(game_id)
                log.info("deadline fired", extra={"fields": {"what": timer.payload.get("what")}})
                return Done(game_id, ids + await self._auto_pass(game_id))
            if timer.kind == timing.REMINDER:
                # Delete first: after a crash a reminder is lost rather than sent twice.
                await self.store.delete_timer(timer_id)
                return Done(game_id, await self._reminder_outbox(record, timer.payload))
            await self.store.delete_timer(timer_id)
            return Done(game_id)

    async def _reminder_outbox(self, record: GameRecord, payload: dict[str, Any]) -> list[int]:
        game = self.game(record.kind)
        deadline = datetime.fromisoformat(payload["deadline"])
        seats = [int(s) for s in payload.get("seats", [])]
        when = f"<t:{int(deadline.timestamp())}:R>"
        what = payload.get("what", "")
        items: list[NewOutbox] = []
        mention = " ".join(seat_ref(s) for s in seats)
        text = f"⏰ Reminder: {mention} — {what}. Deadline {when}."
        expires = deadline.isoformat()  # a reminder delivered after its deadline would only confuse
        payload = {"texts": [text], "ping": seats, "expires": expires}
        items.append(NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload=payload))
        for s in seats:
            dm = outbox.dm(s, f"⏰ {game.title} #{record.id}: it's up to you — {what}. Deadline {when}.")
            items.append(dm.model_copy(update={"payload": {**dm.payload, "expires": expires}}))
        game_logger(record.id, "boardroom.service").info(
            "reminder", extra={"fields": {"which": payload.get("which"), "seats": seats}}
        )
        return await self.store.add_outbox(record.id, items, now=self.now())

    # --- moderators -------------------------------------------------------------------------------------

    async def _mod_note(
        self,
        game_id: int,
        mod: Person,
        note: str,
        *,
        status: str | None = None,
        clocks_fn: Callable[[Game, list[Wait], dict[str, timing.Clock], GameRecord], dict[str, timing.Clock]]
        | None = None,
        extra: Sequence[NewOutbox] = (),
        result_post: bool = False,
    ) -> list[int]:
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        snap = await self.store.get_snapshot(game_id)
        state = game.load_state(snap.state)
        now = self.now()
        clocks = timing.clocks_from(await self.store.timers(game_id))
        if clocks_fn is not None:
            clocks = clocks_fn(game, game.waiting_on(state), clocks, record)
        entry = NewLogEntry.for_note(note, now, user_id=mod.user_id)
        return await self._commit(
            record,
            snap.version,
            state,
            state,
            [],
            entry,
            texts=[f"🛡️ {note}"],
            status=status,
            clocks=clocks,
            extra=extra,
            result_post=result_post,
        )

    async def _running(self, game_id: int) -> tuple[GameRecord, Game]:  # type: ignore[type-arg]
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        _require_running(record, game)
        return record, game

    async def pause(self, game_id: int, mod: Person) -> Done:
        async with self.lock(game_id):
            record, _ = await self._running(game_id)
            if record.status == "paused":
                raise Refusal("The game is already paused.")
            note = f"Moderator **{mod.name}** paused the game: deadlines are on hold until `/mod resume`."
            ids = await self._mod_note(game_id, mod, note, status="paused")
            game_logger(game_id, "boardroom.service").info("paused", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, "Paused.")

    async def resume(self, game_id: int, mod: Person) -> Done:
        async with self.lock(game_id):
            record, _ = await self._running(game_id)
            if record.status != "paused":
                raise Refusal("The game isn't paused.")
            now = self.now()
            note = f"Moderator **{mod.name}** resumed the game; deadlines run again with the time they had left."
            ids = await self._mod_note(
                game_id,
                mod,
                note,
                status="active",
                clocks_fn=lambda g, waits, clocks, _r: timing.resumed(g, waits, clocks, now),
            )
            ids += await self._auto_pass(game_id)
            game_logger(game_id, "boardroom.service").info("resumed", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, "Resumed.")

    async def extend(self, game_id: int, mod: Person, hours: float) -> Done:
        async with self.lock(game_id):
            _, game = await self._running(game_id)
            snap = await self.store.get_snapshot(game_id)
            if not game.waiting_on(game.load_state(snap.state)):
                raise Refusal("Nothing is waiting on a deadline right now.")
            now = self.now()
            by = timedelta(hours=hours)
            note = f"Moderator **{mod.name}** extended the current deadline by {_hours(hours)}."
            ids = await self._mod_note(
                game_id,
                mod,
                note,
                clocks_fn=lambda g, waits, clocks, r: timing.extended(
                    g, waits, clocks, by, paused=r.status == "paused", now=now
                ),
            )
            game_logger(game_id, "boardroom.service").info(
                "extended", extra={"fields": {"by": mod.user_id, "hours": hours}}
            )
            return Done(game_id, ids, f"Extended by {_hours(hours)}.")

    async def substitute(self, game_id: int, mod: Person, old: Person, new: Person) -> Done:
        async with self.lock(game_id):
            _, game = await self._running(game_id)
            seats = await self.store.seats(game_id)
            seat = next((s for s in seats if s.player_id == old.user_id), None)
            if seat is None:
                raise Refusal(f"{old.name} doesn't hold a seat in {game.title} #{game_id}.")
            if any(s.player_id == new.user_id for s in seats):
                raise Refusal(f"{new.name} already plays in {game.title} #{game_id}.")
            await self.store.update_seat(
                game_id, seat.seat, player_id=new.user_id, display_name=new.name, dm_ok=None, away_until=None
            )
            old_hand = await self.store.find_message_ref(game_id, outbox.HAND, seat=seat.seat)
            if old_hand is not None:
                await self.store.delete_message_ref(old_hand.message_id)
            note = f"Moderator **{mod.name}** seated {new.name} in place of {old.name} (seat {seat.seat + 1})."
            ids = await self._mod_note(game_id, mod, note, extra=[outbox.hand(seat.seat)])
            game_logger(game_id, "boardroom.service").info(
                "substituted", extra={"fields": {"by": mod.user_id, "old": old.user_id, "new": new.user_id}}
            )
            return Done(game_id, ids, f"{new.name} now plays seat {seat.seat + 1}.")

    async def kick(self, game_id: int, mod: Person, player: Person) -> Done:
        async with self.lock(game_id):
            record, game = await self._running(game_id)
            seats = await self.store.seats(game_id)
            seat = next((s for s in seats if s.player_id == player.user_id), None)
            if seat is None:
                raise Refusal(f"{player.name} doesn't hold a seat in {game.title} #{game_id}.")
            text = f"🛡️ Moderator **{mod.name}** removed {player.name} from the game."
            try:
                ids = await self._apply_and_commit(
                    record, None, Leave(seat=seat.seat), user_id=mod.user_id, texts=[text]
                )
            except RuleError as exc:
                note = f"Moderator **{mod.name}** removed {player.name}; {exc.message} The game ends here."
                ids = await self._mod_note(game_id, mod, note, status="abandoned", result_post=True)
                await self.store.update_seat(game_id, seat.seat, player_id=None)
                game_logger(game_id, "boardroom.service").info(
                    "kicked; game ended", extra={"fields": {"by": mod.user_id}}
                )
                return Done(game_id, ids, "Removed; the game could not go on, so it ended.")
            await self.store.update_seat(game_id, seat.seat, player_id=None)
            ids += await self._auto_pass(game_id)
            game_logger(game_id, "boardroom.service").info(
                "kicked", extra={"fields": {"by": mod.user_id, "seat": seat.seat}}
            )
            return Done(game_id, ids, f"{player.name} is out of the game.")

    async def end(self, game_id: int, mod: Person) -> Done:
        async with self.lock(game_id):
            await self._running(game_id)
            note = f"Moderator **{mod.name}** ended the game. Standings so far:"
            ids = await self._mod_note(game_id, mod, note, status="abandoned", result_post=True)
            game_logger(game_id, "boardroom.service").info("ended", extra={"fields": {"by": mod.user_id}})
            return Done(game_id, ids, "The game is over.")

    async def _as_set_up(self, game: Game, game_id: int) -> Game:  # type: ignore[type-arg]
        """The game with the data files this game was set up with (a server owner may have replaced them since),
        so a replay from set-up rebuilds the same game."""
        snap = await self.store.get_snapshot(game_id)
        return game.for_state(game.load_state(snap.state))

    async def undo(self, game_id: int, mod: Person, *, force: bool) -> Done:
        async with self.lock(game_id):
            record = await self.store.get_game(game_id)
            game = self.game(record.kind)
            if not record.started:
                raise Refusal("The game hasn't started: there is nothing to undo.")
            entries = {e.seq: e for e in await self.store.log(game_id)}
            target = _last_effective_action(entries, record.version)
            if target is None:
                raise Refusal("There is no move to undo.")
            game = await self._as_set_up(game, game_id)
            before = await self.store.replay(game, game_id, upto=target.seq - 1)
            redo = game.apply(before, target.actor_seat, target.action, target.at)
            reasons = _undo_blockers(redo)
            names = [s.display_name for s in await self.store.seats(game_id)]
            what = "; ".join(render(e.text, names) for e in redo.events if e.public and e.text) or "the last move"
            if reasons and not force:
                raise Refusal(
                    f"I won't undo “{what}”: it {' and '.join(reasons)}, so undoing it would let someone "
                    "profit from what they saw. If everyone agrees, use `force:true`."
                )
            snap = await self.store.get_snapshot(game_id)
            current = game.load_state(snap.state)
            now = self.now()
            entry = NewLogEntry.for_undo(target.seq - 1, now, user_id=mod.user_id, note=f"undo of entry {target.seq}")
            forced = " (forced)" if reasons else ""
            ids = await self._commit(
                record,
                snap.version,
                current,
                before,
                [],
                entry,
                texts=[f"🛡️ Moderator **{mod.name}** undid{forced}: {what}"],
                status="active" if record.status == "finished" else None,
                fresh_clocks=True,
            )
            game_logger(game_id, "boardroom.service").info(
                "undo", extra={"fields": {"by": mod.user_id, "entry": target.seq}}
            )
            return Done(game_id, ids, f"Undone: {what}")

    async def export(self, game_id: int, mod: Person) -> Done:
        """The game's full log (with its seed, every private event and the snapshot). A moderator who holds a seat
        would read the others' secrets in it, so while the game goes on only a moderator who doesn't play gets it;
        once it is over (or still a lobby, with nothing secret yet) any moderator does."""
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        if record.status in ("active", "paused") and any(
            s.player_id == mod.user_id for s in await self.store.seats(game_id)
        ):
            raise Refusal(
                "You play in this game: the export shows everyone's secrets. Ask a moderator who doesn't play, "
                "or export once the game is over."
            )
        exported = await self.store.export_game(game_id)
        text = f"🛡️ Moderator **{mod.name}** exported the game's log."
        ids = await self.store.add_outbox(game_id, [_text_post(text)], now=self.now()) if record.thread_id else []
        game_logger(game_id, "boardroom.service").info("exported", extra={"fields": {"by": mod.user_id}})
        return Done(game_id, ids, f"{game.title} #{game_id}: the full log.", data=exported.to_json())

    async def verify(self, game_id: int, mod: Person) -> Done:
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        if not record.started:
            raise Refusal("The game hasn't started: there is nothing to check yet.")
        from storage import ReplayError

        try:
            game = await self._as_set_up(game, game_id)
            report: ReplayReport | None = await self.store.check_replay(game, game_id)
            problem = None
        except ReplayError as exc:
            report, problem = None, str(exc)
        if report is not None and report.ok:
            verdict = f"✅ the log replays to the stored game exactly (after {report.version} entries)."
        elif report is not None:
            parts = []
            if report.differing_fields:
                parts.append("the state differs in " + ", ".join(report.differing_fields))
            if report.event_mismatches:
                parts.append("events differ at entries " + ", ".join(map(str, report.event_mismatches)))
            verdict = "❌ " + "; ".join(parts) + "."
        else:
            verdict = f"❌ the log does not replay: {problem}."
        text = f"🛡️ Moderator **{mod.name}** checked the game: {verdict}"
        ids = await self.store.add_outbox(game_id, [_text_post(text)], now=self.now())
        game_logger(game_id, "boardroom.service").info(
            "verified", extra={"fields": {"by": mod.user_id, "ok": bool(report and report.ok)}}
        )
        return Done(game_id, ids, verdict, data=report)

    async def set_moderator_role(self, guild_id: int, role_id: int | None) -> GuildSettings:
        current = await self.store.guild_settings(guild_id)
        return await self.store.put_guild_settings(current.model_copy(update={"moderator_role_id": role_id}))

    async def set_defaults(self, guild_id: int, changes: Mapping[str, timedelta | None]) -> GuildSettings:
        """Set (a `timedelta`) or clear (None) the server's `turn_deadline` / `reaction_time` for new games."""
        unknown = set(changes) - {"turn_deadline", "reaction_time"}
        if unknown:
            raise ValueError(f"not a server default: {', '.join(sorted(unknown))}")
        current = await self.store.guild_settings(guild_id)
        if not changes:
            return current
        return await self.store.put_guild_settings(current.model_copy(update=dict(changes)), now=self.now())

    # --- direct messages --------------------------------------------------------------------------------

    async def retry_dms(self, user_id: int, guild_id: int | None) -> list[Done]:
        """Try the player's DMs again in each of their open games of this server (`/game dms`): a started game
        re-sends (or edits) their hand message even if their DMs were found closed, a lobby their welcome. The
        notifier marks the seat `dm_ok` again when the DM goes through."""
        done: list[Done] = []
        for seat in await self.store.seats_of_player(user_id, statuses=OPEN_STATUSES):
            record = await self.store.get_game(seat.game_id)
            if guild_id is not None and record.guild_id != guild_id:
                continue
            item = outbox.hand(seat.seat, retry_dm=True) if record.started else outbox.welcome(user_id)
            async with self.lock(record.id):
                ids = await self.store.add_outbox(record.id, [item], now=self.now())
            game_logger(record.id, "boardroom.service").info("DMs retried", extra={"fields": {"user": user_id}})
            done.append(Done(record.id, ids))
        return done

    # --- reading ----------------------------------------------------------------------------------------

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, int]:
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        if not record.started:
            raise Refusal(f"{game.title} #{game_id} hasn't started yet: hands are dealt at the start.")
        seat = await self.seat_of(game_id, user_id)
        return await self.table(game_id, record=record), seat

    async def retry(self, fn: Callable[[], Awaitable[T]]) -> T:
        for attempt in range(COMMIT_RETRIES):
            try:
                return await fn()
            except StaleVersion:
                if attempt == COMMIT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")


def announcements(
    before: Sequence[Wait], after: Sequence[Wait], deadlines: Mapping[int, datetime], *, fresh: bool = False
) -> list[tuple[Wait, datetime]]:
    """The waits to announce in the thread, each with the seats to mention: those now awaited for something they
    were not awaited for just before (same kind and same `what`). A deadline that only moved — the same people
    awaited for the same thing, e.g. the Boss's time restarting with every move of a round — is no news (the
    status message shows it), nor is a window where one more player passed. `fresh` (an undo): announce all."""
    out: list[tuple[Wait, datetime]] = []
    for i, wait in enumerate(after):
        due = deadlines.get(i, wait.until)
        if fresh:
            out.append((wait, due))
            continue
        known = {s for old in before if old.kind == wait.kind and old.what == wait.what for s in old.seats}
        new = tuple(s for s in wait.seats if s not in known)
        if new:
            out.append((wait.model_copy(update={"seats": new}), due))
    return out


def _text_post(text: str) -> NewOutbox:
    return NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload={"texts": [text]})


def _new_seat(s: SeatRecord | NewSeat, number: int | None = None) -> NewSeat:
    return NewSeat(
        seat=s.seat if number is None else number,
        player_id=s.player_id,
        display_name=s.display_name,
        dm_ok=s.dm_ok,
        away_until=s.away_until,
    )


def _seat_record(game_id: int, s: NewSeat, now: datetime) -> SeatRecord:
    return SeatRecord(game_id=game_id, joined_at=now, **s.model_dump())


def _require_running(record: GameRecord, game: Game) -> None:  # type: ignore[type-arg]
    if record.status == "lobby":
        raise Refusal(f"{game.title} #{record.id} hasn't started yet.")
    if record.status in ("finished", "abandoned"):
        raise Refusal(f"{game.title} #{record.id} is over.")


def _parsed(game: Game, action: Any) -> Any:  # type: ignore[type-arg]
    return game.parse_action(action) if isinstance(action, dict | str | bytes) else action


def _hours(hours: float) -> str:
    return f"{hours:g} hour{'s' if hours != 1 else ''}"


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
        reasons.append("revealed hidden information")
    if outcome.used_randomness:
        reasons.append("involved a shuffle or a die roll")
    return reasons
