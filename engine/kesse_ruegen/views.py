"""What a seat (or the public table) may know: the only way a Kesse Rügen state leaves the engine.

Everything on the table is public: pawns, tubers on fields and in the barn, each supply, scores, guesses.
The one secret is a duellist's closed fist: the public view (and every other seat's view) says only WHO has
chosen; the number appears in the chooser's own view (`my_choice`) and becomes public in `last_duel` at the
reveal.
"""

from pydantic import BaseModel, ConfigDict

from engine.kesse_ruegen.state import DuelResult, KesseRuegenState, Phase


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    tuber: str
    tubers: str
    """The seat's tuber kind, one and many ("carrot", "carrots")."""
    pawn: str | None
    supply: int
    in_barn: int
    fields: int
    """Fields holding this seat's tubers: the score."""
    left: bool = False
    """The seat's player left the game (its tubers stay on the board)."""


class PublicDuel(BaseModel):
    model_config = ConfigDict(frozen=True)

    challenger: int
    challenged: int
    chosen: tuple[int, ...]
    """The duellists whose fist is closed — never how many tubers are in it."""
    challenger_guess: int | None
    challenged_guess: int | None


class PublicView(BaseModel):
    model_config = ConfigDict(frozen=True)

    size: int
    barn: str
    win_fields: int
    start_supply: int
    players: tuple[PlayerView, ...]
    tubers: dict[str, int]
    """Field → seat of the tuber on it, sorted by square."""
    phase: Phase
    turn: int
    """The seat placing or challenging; during a duel and its actions, the challenger."""
    duel: PublicDuel | None
    last_duel: DuelResult | None
    actor: int | None
    actions_left: int
    actions_total: int
    winner: int | None
    """The sole winner (None while playing, and on a shared win: see `winners`)."""
    winners: tuple[int, ...] = ()
    """Everyone who won: one at the threshold, possibly several when the supplies ran out (`stalled`)."""
    stalled: bool = False
    """The game ended because no player had a tuber left in supply: most fields won."""
    duels: int


class SeatView(PublicView):
    seat: int
    my_choice: int | None
    """This seat's secret choice in the current duel, before the reveal."""


def public_view(state: KesseRuegenState) -> PublicView:
    return PublicView(**_public_fields(state))


def seat_view(state: KesseRuegenState, seat: int) -> SeatView:
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in this {state.seats}-player game")
    duel = state.duel
    mine = duel.choice(seat) if duel is not None and seat in duel.seats() else None
    return SeatView(**_public_fields(state), seat=seat, my_choice=mine)


def _public_fields(state: KesseRuegenState) -> dict[str, object]:
    duel = state.duel
    return {
        "size": state.size,
        "barn": state.barn,
        "win_fields": state.win_fields,
        "start_supply": state.start_supply,
        "players": tuple(
            PlayerView(
                seat=s,
                tuber=state.kind(s),
                tubers=state.kind(s, 2),
                pawn=state.pawns[s],
                supply=state.supply[s],
                in_barn=state.barn_tubers[s],
                fields=state.fields_of(s),
                left=not state.playing(s),
            )
            for s in range(state.seats)
        ),
        "tubers": dict(sorted(state.tubers.items())),
        "phase": state.phase,
        "turn": state.turn,
        "duel": None
        if duel is None
        else PublicDuel(
            challenger=duel.challenger,
            challenged=duel.challenged,
            chosen=duel.chosen(),
            challenger_guess=duel.challenger_guess,
            challenged_guess=duel.challenged_guess,
        ),
        "last_duel": state.last_duel,
        "actor": state.actor,
        "actions_left": state.actions_left,
        "actions_total": state.actions_total,
        "winner": state.winner,
        "winners": tuple(state.winners or ([state.winner] if state.winner is not None else [])),
        "stalled": state.stalled,
        "duels": state.duels,
    }
