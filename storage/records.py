"""Players' records: the rows the store keeps about games that are over, and the interface to them.

The store only keeps and queries these rows; it never computes them from a game (that needs the engine: the bot
replays a game's log and derives them, `bot.records`). Everything here can be thrown away (`clear`) and
written again from the logs, so the records can never disagree with the games for long: a rebuild settles it.

- `GameResult` and its `Placement`s are written together when a game is recorded (`put_result`), and the sums of
  `PlayerStats` are refreshed in the same transaction, so a profile is one read.
- A rated result is counted for the ratings once (`put_ratings`, which marks it done in the same transaction as the
  new `Rating`s), in the order games ended (`results_to_rate`).
"""

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from storage.models import UtcTime

Outcome = Literal["finished", "ended"]
"""finished: by the game's rules. ended: by a moderator (`/mod end`, or a removal the game could not go on without)."""


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatResult(_Row):
    """Who held a seat at the end of a game, and how they did (for a page of history: no other read needed)."""

    seat: int
    id: int | None = None
    """The person's Discord user id (None: a computer player, or a seat nobody held at the end)."""
    name: str
    bot: bool = False
    rank: int | None = None
    score: int | None = None


class GameResult(_Row):
    game_id: int
    guild_id: int | None
    kind: str
    thread_id: int | None = None
    started_at: UtcTime
    ended_at: UtcTime
    outcome: Outcome
    rated: bool
    """Counts for the ratings: finished by the rules, with two seats or more to compare."""
    rating_done: bool = False
    moves: int
    """Actions that stand in the game's history (undone ones not counted), by anyone."""
    seats: list[SeatResult] = Field(default_factory=list)

    @property
    def winners(self) -> list[SeatResult]:
        return [s for s in self.seats if s.rank == 1] if self.outcome == "finished" else []


class Placement(_Row):
    """One player's part in one game: the seat's holder at the end (`held`), or someone who left during it."""

    game_id: int
    seat: int
    player_id: int | None
    """The person (None for a computer player)."""
    name: str
    bot: bool = False
    held: bool
    rank: int | None = None
    score: int | None = None
    moves: int = 0
    """Their own moves that stand (a move undone by a moderator doesn't count)."""
    answers: int = 0
    """Their moves that answered a prompt (a turn or a reaction window that named them)."""
    answer_s: float = 0.0
    """Seconds from each such prompt to their answer, summed."""
    turns: int = 0
    """Turn prompts they answered in time (the reliability's numerator)."""
    missed: int = 0
    """Turn deadlines that passed on them."""
    mu: float | None = None
    sigma: float | None = None
    """Their rating after this game (rated games, once counted)."""


class PlayerStats(_Row):
    """A person's sums over their games of one kind (in one server, or across servers when summed)."""

    player_id: int
    kind: str
    played: int
    finished: int
    """Games finished by the rules while they held a seat (those with a place)."""
    won: int
    rank_sum: int
    seats_sum: int
    """Sum of the seat counts of the finished games, to read an average place against the table's size."""
    left: int
    """Games they left (or were removed from) before the end."""
    moves: int
    answers: int
    answer_s: float
    turns: int
    missed: int
    last_at: UtcTime

    @property
    def average_place(self) -> float | None:
        return self.rank_sum / self.finished if self.finished else None

    @property
    def average_answer_s(self) -> float | None:
        return self.answer_s / self.answers if self.answers else None

    @property
    def reliability(self) -> float | None:
        """Turns taken in time out of all the turns they were asked for (Diplicity's figure): None without any."""
        total = self.turns + self.missed
        return self.turns / total if total else None


class Rating(_Row):
    guild_id: int
    kind: str
    player: str
    """"u<user id>" for a person, "bot:<name>" for a computer player."""
    player_id: int | None = None
    name: str
    bot: bool = False
    mu: float
    sigma: float
    ordinal: float
    """The figure shown and ranked by: mu - 3 sigma (a new player starts at 0 and climbs as they prove themselves)."""
    games: int = 0
    wins: int = 0
    updated_at: UtcTime


def player_key(player_id: int | None, name: str, bot: bool) -> str:
    """The rating key of a player: a person by their user id, a computer player by its name."""
    return f"bot:{name}" if bot or player_id is None else f"u{player_id}"


class Records(ABC):
    """The records part of the store (`store.records`; see the module docstring)."""

    @abstractmethod
    async def games_to_record(self, *, limit: int = 100) -> list[int]:
        """Started games that are over (finished or abandoned) without a result yet, in the order they ended."""

    @abstractmethod
    async def put_result(
        self, result: GameResult, placements: Sequence[Placement], *, now: datetime | None = None
    ) -> bool:
        """Write a game's result and placements, and refresh its players' stats, in one transaction. False (nothing
        written) if the game has a result already."""

    @abstractmethod
    async def game_result(self, game_id: int) -> GameResult | None: ...

    @abstractmethod
    async def placements(self, game_id: int) -> list[Placement]:
        """The game's placements, by seat (holders before those who left)."""

    @abstractmethod
    async def history(self, guild_id: int, *, offset: int = 0, limit: int = 10) -> tuple[list[GameResult], int]:
        """A page of the server's results, newest first, and how many there are in all."""

    @abstractmethod
    async def results_to_rate(self, *, limit: int = 100) -> list[GameResult]:
        """Rated results not yet counted for the ratings, in the order the games ended."""

    @abstractmethod
    async def ratings_of(self, guild_id: int, kind: str, players: Collection[str]) -> dict[str, Rating]:
        """The current ratings of these players (keys as `player_key`) in that server and game."""

    @abstractmethod
    async def put_ratings(
        self, game_id: int, ratings: Sequence[Rating], placements: Sequence[tuple[int, str, float, float]]
    ) -> bool:
        """Count a rated game: store the players' new ratings, each placement's rating after the game
        ((seat, player key, mu, sigma)), and mark the result counted, in one transaction. False (nothing written) if
        it was counted already."""

    @abstractmethod
    async def top_ratings(self, guild_id: int, kind: str, *, limit: int = 10) -> list[Rating]:
        """The server's best at a game, best first."""

    @abstractmethod
    async def player_ratings(self, player_id: int, guild_id: int | None = None) -> list[Rating]:
        """A person's ratings (in one server, or in every server)."""

    @abstractmethod
    async def player_stats(self, player_id: int, guild_id: int | None = None) -> list[PlayerStats]:
        """A person's figures per game kind, in one server or summed over every server: one read."""

    @abstractmethod
    async def clear(self) -> None:
        """Forget every result, placement, stat and rating (before a rebuild from the logs). Settings stay
        (`store.settings`, where a player's choice of a private profile is kept)."""


__all__ = [
    "GameResult",
    "Outcome",
    "Placement",
    "PlayerStats",
    "Rating",
    "Records",
    "SeatResult",
    "player_key",
]
