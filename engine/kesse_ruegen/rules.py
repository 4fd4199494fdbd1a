"""Kesse Rügen (Dijkstra & Van Dijk, Mental Works 2015): the rules as the bot plays them.

See `docs/rules/kesse_ruegen.md`. Decisions where the rules are silent:

- Squares are named like a chessboard, a1 (bottom left) to e5; the barn is c3 (see `geometry`).
- The first player (options.first_seat, else drawn at random) places first; pawns are placed clockwise from
  them, one each, and then the first player makes the first challenge.
- Deadlines (see `waits`): each wait lasts `turn_deadline` from when it began; the deadline of the actions
  restarts with every action taken. A `Timeout` carries its wait's key and is refused once stale.

Each rule lives in its own module, with the decisions it takes: `moves` (placing the pawns; the actions a duel's
winner takes, and the win), `duelling` (the challenge, the fists, the guesses and the reveal), `turns` (a turn's
start and end, two players, no dead end) and `leaving` (a player who leaves mid-game).
"""

from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, TypeAdapter

from engine.data import replacement
from engine.errors import rule
from engine.events import Event, public
from engine.game import Game, Outcome, Parts, Result, Standing, rank_by_score
from engine.kesse_ruegen import duelling, leaving, legal, moves, turns, waits
from engine.kesse_ruegen.actions import (
    ACTION_ADAPTER,
    Challenge,
    Choose,
    Done,
    Evict,
    Guess,
    Move,
    Place,
    Plant,
    Reclaim,
    Timeout,
)
from engine.kesse_ruegen.board import MAX_PLAYERS, MIN_PLAYERS, Board, PlayerCount, default_board, load_board
from engine.kesse_ruegen.options import KesseRuegenOptions
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kesse_ruegen.views import public_view, seat_view
from engine.rng import Rng


def _ranked(state: KesseRuegenState) -> Result:
    """Fields held, best first; seats whose player left come after everyone still playing (their tubers may still
    lie on the board, but a player who left can't win or place). No `reason`: the engine speaks no language — the
    presentation's `summary` says how the game ended (a win at the threshold, or the supplies ran out)."""
    playing = rank_by_score({s: state.fields_of(s) for s in range(state.seats) if state.playing(s)})
    standings = list(playing.standings)
    gone = rank_by_score({s: state.fields_of(s) for s in state.left})
    standings += [Standing(seat=g.seat, score=g.score, rank=len(playing.standings) + g.rank) for g in gone.standings]
    return Result(standings=tuple(standings))


class KesseRuegen(Game[KesseRuegenState, KesseRuegenOptions]):
    name: ClassVar[str] = "kesse_ruegen"
    title: ClassVar[str] = "Kesse Rügen"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    summary: ClassVar[str] = ""
    """The game in words is the presentation's (`bot/games/kesse_ruegen`, `rules`)."""
    uses_reaction_time: ClassVar[bool] = False
    state_model: ClassVar[type[BaseModel]] = KesseRuegenState
    options_model: ClassVar[type[KesseRuegenOptions]] = KesseRuegenOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    data_files: ClassVar[tuple[str, ...]] = ("board.toml",)
    parts = Parts(public_view, seat_view, legal.legal_actions, waits.waiting_on)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else default_board()

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """Kesse Rügen with a server owner's `board.toml` from `folder` (else the packaged board). Raises
        `DataFileError` naming the file and the field. The board's numbers are copied into each game at set-up."""
        board = replacement(folder, "board.toml")
        return cls(load_board(board) if board is not None else None)

    def for_state(self, state: KesseRuegenState) -> Self:
        """The game whose board gives `state`'s numbers at set-up (to replay it after the board file changed)."""
        kinds = list(state.kinds) + list(self.board.kinds[state.seats :])
        counts = PlayerCount(supply=state.start_supply, win_fields=state.win_fields)
        board = self.board.model_copy(
            update={
                "size": state.size,
                "barn": state.barn,
                "players": {**self.board.players, state.seats: counts},
                "kinds": kinds,
            }
        )
        return self if board == self.board else type(self)(board)

    # --- set-up ---------------------------------------------------------------------------------------

    def setup(self, seats: int, options: KesseRuegenOptions, seed: int, now: datetime) -> KesseRuegenState:
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise rule("player_count", least=MIN_PLAYERS, most=MAX_PLAYERS, seats=seats)
        rng = Rng.from_seed(seed)
        if options.first_seat is None:
            first = rng.below(seats)
        elif options.first_seat < seats:
            first = options.first_seat
        else:
            raise rule("first_seat_out_of_range", seats=seats)
        counts = self.board.players[seats]
        return KesseRuegenState(
            options=options,
            seats=seats,
            size=self.board.size,
            barn=self.board.barn,
            start_supply=counts.supply,
            win_fields=counts.win_fields,
            kinds=list(self.board.kinds[:seats]),
            first=first,
            turn=first,
            pawns=[None] * seats,
            supply=[counts.supply] * seats,
            barn_tubers=[0] * seats,
            since=now,
            rng=rng,
        )

    # --- apply ----------------------------------------------------------------------------------------

    def step(self, state: KesseRuegenState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.phase == "over":
            raise rule("game_over", winners=list(state.winners or ([state.winner] if state.winner is not None else [])))
        if isinstance(action, Timeout):
            if actor is not None:
                raise rule("clock_only")
            return self._timeout(state, action.key, now)
        if actor is None:
            raise rule("clock_applies_deadlines_only")
        if not 0 <= actor < state.seats:
            raise rule("not_playing")
        match action:
            case Place():
                return moves.place(state, actor, action.square, now)
            case Challenge():
                return duelling.challenge(state, actor, action.opponent, now)
            case Choose():
                return duelling.choose(state, actor, action.tubers, now)
            case Guess():
                return duelling.guess(state, actor, action.total, now)
            case Plant() | Move() | Evict() | Reclaim():
                return moves.act(state, actor, action, now)
            case Done():
                return moves.done(state, actor, now)
        raise rule("not_a_move")

    # --- deadlines --------------------------------------------------------------------------------------

    def _timeout(self, state: KesseRuegenState, key: str, now: datetime) -> list[Event]:
        due = next((p for p in waits.pending(state) if p.key == key), None)
        if due is None:
            raise rule("stale_deadline")
        seat = due.seat
        match due.what:
            case "place":
                square = state.rng.choice(legal.free_fields(state))
                return moves.put_pawn(state, seat, square, now, by_default=True)
            case "challenge":
                lost = public("timeout", seat=seat, missed="challenge")
                return [lost, *turns.end_turn(state, now)]
            case "choose":
                # A hidden random pick, never a fixed default the opponent could count on.
                tubers = state.rng.choice(legal.choice_options(state, seat))
                return duelling.set_choice(state, seat, tubers, now, by_default=True)
            case "guess":
                return duelling.set_guess(state, legal.guess_options(state)[0], now, by_default=True)
            case "act":
                return turns.lose_actions(state, now, "timeout")
        raise AssertionError(f"unknown wait {due.what}")

    def standings(self, state: KesseRuegenState) -> Result:
        """Standings now: fields held (the final result once someone has won)."""
        final = self.result(state)
        if final is not None:
            return final
        return _ranked(state)

    def result(self, state: KesseRuegenState) -> Result | None:
        if state.stalled:
            return _ranked(state)
        if state.winner is None:
            return None
        result = _ranked(state)
        assert result.winners == (state.winner,)
        return result

    # --- a player leaves --------------------------------------------------------------------------------

    def remove_seat(self, state: KesseRuegenState, seat: int, now: datetime) -> Outcome[KesseRuegenState] | None:
        """A player leaves mid-game (`/mod kick`); see `leaving`. None with fewer than two left."""
        return leaving.remove_seat(state, seat, now)
