"""Reading, shared by every part of the service: games, presentations and policies by name, the time, and a game
read in one go as a `Table` (a lobby's settings, a player's seat, a player's private view)."""

from collections.abc import Callable, Mapping
from datetime import datetime

from bot import timers as timing
from bot.i18n.platform import _
from bot.presentation import Presentation, Table
from bot.quiet import KnownQuietHours
from bot.routing import Deliveries
from bot.service.lobby_settings import LobbySettings
from bot.service.results import Refusal
from bot.service.states import StateCache
from engine.game import Game
from engine.policy import Level, Policy, policy_for
from storage import GameRecord, GameStore, LoadedGame

Clock = Callable[[], datetime]
LOBBY_REF = "lobby"


class Reader:
    """What every part of the service reads: it changes nothing."""

    def __init__(
        self,
        store: GameStore,
        games: Mapping[str, Game],  # type: ignore[type-arg]
        presentations: Mapping[str, Presentation],
        *,
        clock: Clock,
        states: StateCache,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.presentations = dict(presentations)
        self.clock = clock
        self.states = states
        """The move path's cache of committed states (`bot.service.states`): a table is read from it when it can."""
        self.policies: dict[tuple[str, Level], Policy | None] = {}
        """Each game's policy (`engine.policy`) by (game, level), made on first use; a test may put its own here."""
        self.deliveries = Deliveries(store)
        """Where each person's prompts and reminders reach them (`/me notify`), as read so far (`bot.routing`)."""
        self.quiet = KnownQuietHours(store)
        """Each person's quiet hours (`/me quiet`), as read so far (`bot.quiet`)."""

    def game(self, kind: str) -> Game:  # type: ignore[type-arg]
        try:
            return self.games[kind]
        except KeyError:
            raise Refusal(_("This server's Boardroom no longer has the game '%(kind)s'.", kind=kind)) from None

    def presentation(self, kind: str) -> Presentation:
        from bot.presentation import GenericPresentation

        return self.presentations.get(kind) or GenericPresentation()

    def policy(self, kind: str, level: Level = "normal") -> Policy | None:
        """The game's computer player at `level`, and its autopilot (None: the game has none). The autopilot is the
        same at every level: callers ask for it at the default."""
        key = (kind, level)
        if key not in self.policies:
            self.policies[key] = policy_for(self.game(kind), level)
        return self.policies[key]

    def now(self) -> datetime:
        return self.clock()

    async def table(self, game_id: int, *, record: GameRecord | None = None) -> Table:
        """The game as it is now, read in one go (`store.games.load`); `record` is accepted for callers that
        already hold it, but the table's own record is read with the rest, so that all of it is of one moment."""
        loaded = await self.store.games.load(game_id)
        return await self.table_of(loaded)

    async def table_of(self, loaded: LoadedGame) -> Table:
        """The `Table` of a loaded game (a lobby's reads its settings too)."""
        record = loaded.record
        game = self.game(record.kind)
        state = None
        deadlines: dict[int, datetime] = {}
        moved: dict[int, list[int]] = {}
        if loaded.snapshot is not None:
            state = self.states.state_of(game, record, loaded.snapshot)
            waits = game.waiting_on(state)
            deadlines = timing.effective_deadlines(game, waits, timing.clocks_from(loaded.timers))
            moved = timing.moved_by_quiet(game, waits, loaded.timers)
        lobby_max = None
        if not record.started:
            lobby_max = (await self.lobby_settings(record)).max_seats
        return Table(
            game,
            record,
            list(loaded.seats),
            state,
            self.now(),
            deadlines,
            lobby_max,
            moved=moved,
            words=self.presentation(record.kind),
        )

    async def lobby_settings(self, record: GameRecord) -> LobbySettings:
        refs = await self.store.refs.of_game(record.id, kind=LOBBY_REF)
        default = self.game(record.kind).max_seats
        return LobbySettings.parse(refs[0].key, default) if refs else LobbySettings(max_seats=default)

    async def seat_of(self, game_id: int, user_id: int) -> int:
        for s in await self.store.seats.of_game(game_id):
            if s.player_id == user_id:
                return s.seat
        record = await self.store.games.get(game_id)
        raise Refusal(_("You're not playing in %(title)s.", title=f"{self.game(record.kind).title} #{game_id}"))

    def require_dealt(self, record: GameRecord) -> None:
        """A player's own view (their hand) exists once the game has started: a lobby is refused in these words,
        by a private view and by each command built from the player's own view alike."""
        if not record.started:
            raise Refusal(
                _(
                    "%(title)s hasn't started yet: hands are dealt at the start.",
                    title=f"{self.game(record.kind).title} #{record.id}",
                )
            )

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, int]:
        record = await self.store.games.get(game_id)
        self.require_dealt(record)
        seat = await self.seat_of(game_id, user_id)
        return await self.table(game_id, record=record), seat
