"""The one way into a game: lock it, load it, let the engine decide, commit, and say what must be delivered.

`GameService` sits between Discord and the engine. It is only the composition root: it builds the parts below,
each an object with one job, and exposes them as attributes. Every change to a game goes through the move path
(`service.moves`); the others are built on it (they hold it, they don't inherit from it):

- `service.read` (`Reader`, `bot.service.reader`): games, presentations and policies by name, `now()`, and a game
  read as a `Table` (`table`, `table_of`, `private_view`, `seat_of`, `lobby_settings`). It changes nothing.
- `service.moves` (`MovePath`, `bot.service.moves`): the per-game lock, `apply`, `commit` (a `Commit`, worked out in
  steps by `bot.service.commit`), the away players' passes, `settle`; the hooks to the scheduler, the notifier and
  the recorder (`on_timers_changed`, `on_committed`, `on_settled`, `on_game_over`). Its cache of committed states
  (`bot.service.states`) is shared with the reader.
- `service.lobby` (`Lobby`, `bot.service.lobby`): open, join, leave, computer players in and out, start, close.
- `service.play` (`Play`, `bot.service.play`): a player's move — `act_for_seat` builds it from the table under the
  lock (the way for commands and buttons), `act` takes one built already — reactions, away, DMs retried.
- `service.clock` (`GameClock`, `bot.service.clock`): a due timer fired: a deadline, a seat's move, a reminder.
- `service.seats` (`SeatPlayers`, `bot.service.autopilot`): computer players and the autopilot: their moves,
  missed deadlines, `set_autopilot`, `take_back`; its `rules` are the limits the bot sets from its settings.
- `service.handover` (`Handovers`, `bot.service.handover`): `/game leave` in a running game, the offered seat
  taken or declined, the replacement vote.
- `service.mod` (`Moderation`, `bot.service.moderation`): pause, resume, extend, substitute, kick, end, undo,
  export, verify, the server's settings.

The service knows nothing of Discord objects: players are user ids and display names, refusals are `Refusal`s
(already worded for the person) or the engine's `RuleError`s (worded with seat references, rendered by the caller).
The decisions where the issue was silent are written in the module of the part that makes them.
"""

from collections.abc import Callable, Mapping

from bot.presentation import Presentation
from bot.service.autopilot import SeatPlayers
from bot.service.clock import GameClock
from bot.service.commit import Commit, announcements
from bot.service.handover import Handovers
from bot.service.lobby import Lobby
from bot.service.lobby_settings import LobbySettings
from bot.service.moderation import Moderation, UndoPreview
from bot.service.moves import COMMIT_RETRIES, MovePath
from bot.service.play import FetchReactions, Play, parse_reaction_note, reaction_note
from bot.service.reader import LOBBY_REF, Clock, Reader
from bot.service.results import Done, Person, Reacted, ReactionOutcome, Reconciled, Refusal, RuleRefusal
from bot.service.states import StateCache
from engine.game import Game
from storage import GameStore


class GameService:
    """Every way into a game, one object per concern (see the module docstring for the attributes)."""

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
        states = StateCache()
        self.read = Reader(store, games, presentations, clock=clock, states=states)
        self.moves = MovePath(self.read, states, reminders=reminders)
        self.lobby = Lobby(self.moves, seed_source=seed_source)
        self.play = Play(self.moves)
        self.seats = SeatPlayers(self.moves)
        self.handover = Handovers(self.moves)
        self.clock = GameClock(self.moves, self.seats, self.play, self.handover)
        self.mod = Moderation(self.moves, self.seats, self.lobby)


__all__ = [
    "COMMIT_RETRIES",
    "LOBBY_REF",
    "Commit",
    "Done",
    "FetchReactions",
    "GameClock",
    "GameService",
    "Handovers",
    "Lobby",
    "LobbySettings",
    "Moderation",
    "MovePath",
    "Person",
    "Play",
    "Reacted",
    "ReactionOutcome",
    "Reader",
    "Reconciled",
    "Refusal",
    "RuleRefusal",
    "SeatPlayers",
    "UndoPreview",
    "announcements",
    "parse_reaction_note",
    "reaction_note",
]
