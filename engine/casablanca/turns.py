"""Turn order: whose turn it is, the variant's HQ choice and face-down sheets.

Turns go clockwise among the players still in the game. In the variant a seat whose sheet lies face down (it lost an
objection) spends its next turn turning it back up: the bot does that by itself and passes on at once, since the
player has no choice to make.
"""

from engine.casablanca.state import CasablancaState
from engine.events import Event, public


def start_turn(state: CasablancaState, seat: int) -> list[Event]:
    """`seat` is to move (after turning up any face-down sheets on the way)."""
    events: list[Event] = []
    while state.variant and state.face_down[seat]:
        state.face_down[seat] = False
        events.append(public("sheet_up", seat=seat))
        seat = state.next_seat(seat)
    state.phase = "turn"
    state.turn = seat
    state.turn_no += 1
    state.announcement = None
    state.awaited = []
    state.answered = []
    state.objections = []
    state.defeated = []
    state.objected = False
    # `first`: the main game's first turn (a bribe of three agents or more); `variant`: the HQ variant's turn.
    first = not state.variant and not state.started[seat]
    events.append(public("turn", seat=seat, first=first, variant=state.variant))
    return events


def end_turn(state: CasablancaState) -> list[Event]:
    """The turn passes clockwise."""
    return start_turn(state, state.next_seat(state.turn))


def free_hqs(state: CasablancaState) -> list[str]:
    return [hq for hq in state.hqs if hq not in state.hq_owner]


def give_hq(state: CasablancaState, seat: int, hq: str, *, dealt: bool = False) -> list[Event]:
    """`seat` owns `hq`; then the next player chooses, or the game begins."""
    state.hq_owner[hq] = seat
    events = [public("hq", seat=seat, hq=hq, dealt=dealt)]
    nxt = next_chooser(state)
    if nxt is not None:
        state.turn = nxt
        free = free_hqs(state)
        if len(free) == 1:  # no choice left to make
            return events + give_hq(state, nxt, free[0], dealt=True)
        events.append(public("choose_hq", seat=nxt))
        return events
    return events + begin_variant(state)


def next_chooser(state: CasablancaState) -> int | None:
    """The first seat (in seat order) still playing without an HQ."""
    owners = set(state.hq_owner.values())
    return next((s for s in range(state.seats) if s not in owners and state.playing(s)), None)


def begin_variant(state: CasablancaState) -> list[Event]:
    """The owner of the Police Station begins; without one, the owner of the first HQ in the data's order."""
    first = next(state.hq_owner[hq] for hq in state.hqs if hq in state.hq_owner)
    state.first = first
    return start_turn(state, first)
