"""Set-up and the ordinary turn: place the marker, then open the deal, or roll and open or draw 3.

Decisions where the rules are silent:
- Investors are dealt in seat order from the shuffled six (seat 0 first), two at a time with three players.
- The marker is placed by the starting player's right-hand neighbour, as rules/kkk.md says (the Dutch rulebook
  says left; kkk.md wins).
- While a player must get down to 12 cards, the next player's turn waits (open, roll and draw are refused).
"""

from engine.errors import rule
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.cards import FAMILIES, HAND_SIZE, deck
from engine.kkk.data import SPACES, KkkData
from engine.kkk.handlimit import overflow_events
from engine.kkk.options import KkkOptions
from engine.kkk.state import KkkState, RoundState
from engine.kkk.table import (
    check_nobody_over_limit,
    current_tile,
    draw_cards,
    left,
    next_free,
    roll_die,
)
from engine.rng import Rng


def setup(seats: int, options: KkkOptions, seed: int, data: KkkData) -> KkkState:
    rng = Rng.from_seed(seed)
    families = list(FAMILIES)
    rng.shuffle(families)
    per = 2 if seats == 3 else 1
    investors: dict[str, int | None] = dict.fromkeys(FAMILIES)
    for s in range(seats):
        for f in families[s * per : (s + 1) * per]:
            investors[f] = s
    cards = deck()
    rng.shuffle(cards)
    hands = []
    for _ in range(seats):
        hands.append(sorted(cards[-HAND_SIZE:]))
        del cards[-HAND_SIZE:]
    starter = next(investors[f] for f in FAMILIES if investors[f] is not None)
    assert starter is not None
    return KkkState(
        seats=seats,
        options=options,
        rng=rng,
        phase="place_marker",
        turn=starter,
        placer=(starter - 1) % seats,
        data=data,
        tiles=[None] * len(data.board.spaces),
        investors=investors,
        hands=hands,
        draw=cards,
        money=[0] * seats,
    )


def setup_events(state: KkkState) -> list[Event]:
    """What the table is told at the start (the bot posts these; each player's dealt hand is in their view)."""
    return [
        public("setup", investors=dict(state.investors)),
        public("starting_player", starter=state.turn, placer=state.placer),
    ]


def start_turn(state: KkkState, s: int) -> None:
    state.phase = "turn"
    state.turn = s
    state.turn_seq = state.seq


def place_marker(state: KkkState, actor: int, action: A.PlaceMarker) -> list[Event]:
    if state.phase != "place_marker":
        raise rule("marker_placed_already")
    if actor != state.placer:
        raise rule("not_placer", placer=state.placer)
    if not 1 <= action.space <= SPACES:
        raise rule("no_such_space", low=1, high=SPACES)
    return _place(state, action.space, actor)


def place_randomly(state: KkkState) -> list[Event]:
    space = state.rng.randint(1, SPACES)
    return _place(state, space, None)


def _place(state: KkkState, space: int, by: int | None) -> list[Event]:
    """`by`: the seat that placed it (None: placed at random when time ran out)."""
    state.marker = space
    start_turn(state, state.turn)
    return [public("marker_placed", space=space, by=by), public("turn", seat=state.turn)]


def _check_turn(state: KkkState, actor: int, phases: tuple[str, ...], what: str) -> None:
    """`what`: the move tried ("open", "roll" or "draw"), for the refusal's words."""
    if state.phase == "place_marker":
        raise rule("marker_first", placer=state.placer)
    if state.phase == "round":
        raise rule("round_open")
    check_nobody_over_limit(state, actor)
    if state.pending:
        raise rule("recruit_pending")
    if actor != state.turn:
        raise rule("not_your_turn", turn=state.turn, move=what)
    if state.phase not in phases:
        if state.phase == "rolled":
            raise rule("rolled_already")
        raise rule("roll_first")


def open_deal(state: KkkState, actor: int) -> list[Event]:
    _check_turn(state, actor, ("turn", "rolled"), "open")
    assert state.marker is not None
    space = state.data.space(state.marker)
    tile = current_tile(state)
    assert tile is not None
    state.phase = "round"
    state.round = RoundState(space=space.number, boss=actor, opener=actor, clans=[[] for _ in range(state.seats)])
    total = space.dividends * tile.value
    return [
        public(
            "round_opened",
            boss=actor,
            space=space.number,
            dividends=space.dividends,
            dividend_value=tile.value,
            payout=total,
        )
    ]


def roll(state: KkkState, actor: int) -> list[Event]:
    _check_turn(state, actor, ("turn",), "roll")
    return _roll(state, actor)


def _roll(state: KkkState, actor: int) -> list[Event]:
    assert state.marker is not None
    face = roll_die(state)
    state.last_roll = face
    state.marker = next_free(state, state.marker, face)
    state.phase = "rolled"
    state.turn_seq = state.seq
    return [public("rolled", seat=actor, face=face, space=state.marker)]


def draw(state: KkkState, actor: int) -> list[Event]:
    _check_turn(state, actor, ("rolled",), "draw")
    return _draw_and_pass(state, actor)


def _draw_and_pass(state: KkkState, actor: int) -> list[Event]:
    events = draw_cards(state, actor)
    start_turn(state, left(state, actor))
    events += overflow_events(state)
    events.append(public("turn", seat=state.turn))
    return events


def timeout_turn(state: KkkState) -> list[Event]:
    """The player to move was silent: roll, then draw 3."""
    s = state.turn
    events = [public("timeout", what="turn", seat=s)]
    events += _roll(state, s)
    return events + _draw_and_pass(state, s)


def timeout_rolled(state: KkkState) -> list[Event]:
    s = state.turn
    events = [public("timeout", what="rolled", seat=s)]
    return events + _draw_and_pass(state, s)
