"""The whole state of a Kesse Rügen game: one pydantic model, JSON round-trippable, random generator included.

The board's numbers (size, barn, supply, win threshold, tuber kinds) are copied in at set-up, so a stored game
keeps playing by the rules it started with even if the data file changes later.

Phases: `place` (pawns, in seat order from the first player) → `challenge` (the player to move picks an
opponent) → `choose` (both duellists close a fist on 0–2 tubers, secretly, in any order) → `guess` (the
challenger, then the challenged) → reveal → `act` (the right guesser's actions) or straight back to `challenge`
for the next player clockwise from the challenger. With two players a turn starts at `choose` (the challenge is
automatic). `over` once someone has won, or once no player has a tuber left in supply (`stalled`).
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from engine.kesse_ruegen.board import TuberKind
from engine.kesse_ruegen.options import KesseRuegenOptions
from engine.rng import Rng

Phase = Literal["place", "challenge", "choose", "guess", "act", "over"]


class Duel(BaseModel):
    """The duel under way. The two choices are the game's only secret until the reveal."""

    challenger: int
    challenged: int
    challenger_choice: int | None = None
    challenged_choice: int | None = None
    challenger_guess: int | None = None
    challenged_guess: int | None = None

    def choice(self, seat: int) -> int | None:
        return self.challenger_choice if seat == self.challenger else self.challenged_choice

    def set_choice(self, seat: int, tubers: int) -> None:
        if seat == self.challenger:
            self.challenger_choice = tubers
        else:
            self.challenged_choice = tubers

    def seats(self) -> tuple[int, int]:
        return self.challenger, self.challenged

    def guesser(self) -> int:
        """Who guesses next: the challenger first, then the challenged."""
        return self.challenger if self.challenger_guess is None else self.challenged

    def chosen(self) -> tuple[int, ...]:
        """The duellists whose fist is closed (public)."""
        return tuple(s for s in self.seats() if self.choice(s) is not None)


class DuelResult(BaseModel):
    """A revealed duel, kept for the table to see until the next reveal."""

    challenger: int
    challenged: int
    challenger_choice: int
    challenged_choice: int
    challenger_guess: int
    challenged_guess: int
    total: int
    winner: int | None
    """The seat that guessed right, if any."""


class KesseRuegenState(BaseModel):
    options: KesseRuegenOptions
    seats: int
    size: int
    barn: str
    start_supply: int
    win_fields: int
    kinds: list[TuberKind]
    """The tuber kind of each seat."""
    first: int
    """The seat that placed first and challenged first."""

    phase: Phase = "place"
    turn: int
    """The seat placing a pawn or challenging; during a duel and its actions, the challenger."""
    pawns: list[str | None]
    """Each seat's pawn square (None before it is placed)."""
    supply: list[int]
    barn_tubers: list[int]
    """How many of each seat's tubers lie in the barn."""
    tubers: dict[str, int] = Field(default_factory=dict)
    """Field → the seat whose tuber lies there (at most one per field; never the barn)."""

    duel: Duel | None = None
    last_duel: DuelResult | None = None
    actor: int | None = None
    """The seat taking actions in the `act` phase."""
    actions_left: int = 0
    actions_total: int = 0
    winner: int | None = None
    """The sole winner (None while playing, and on a shared win)."""
    winners: list[int] = Field(default_factory=list)
    """Everyone who won (several on a shared win). Empty in snapshots from before shared wins: read `winner`."""
    stalled: bool = False
    """The game ended because no player had a tuber left in supply (most fields wins), not at the threshold."""

    left: list[int] = Field(default_factory=list)
    """Seats whose player left mid-game (a moderator's kick): skipped in turn order, without a pawn; their tubers
    stay where they are (and may be evicted like anyone's)."""

    duels: int = 0
    """Duels fought so far (the challenge count)."""
    wait_no: int = 0
    """Bumped whenever the game starts waiting afresh; part of every deadline's key, so old timers go stale."""
    since: datetime
    """When the current wait began; deadlines are `since + turn_deadline`."""
    rng: Rng

    def fields_of(self, seat: int) -> int:
        """Fields holding this seat's tubers (its score)."""
        return sum(1 for owner in self.tubers.values() if owner == seat)

    def pawn_at(self, square: str) -> int | None:
        """The seat whose pawn stands on a field (never asked of the barn, which may hold several)."""
        for s, at in enumerate(self.pawns):
            if at == square:
                return s
        return None

    def kind(self, seat: int, count: int = 1) -> str:
        k = self.kinds[seat]
        return k.one if count == 1 else k.many

    def playing(self, seat: int) -> bool:
        """Whether the seat is still in the game (it didn't leave)."""
        return seat not in self.left

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that is still playing."""
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if nxt not in self.left:
                return nxt
        return seat
