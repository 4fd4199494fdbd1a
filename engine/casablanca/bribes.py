"""The bribe: money from a player's capital onto agents, in secret, in $100 steps.

Main game: any number of agents in one turn, at least three different ones in the player's first turn (and nothing
else then). Variant: one agent per turn (raising an earlier bribe is a turn too). Money on an agent never moves to
another agent or back. The table hears only that the player bribed.
"""

from engine.casablanca.state import STEP, CasablancaState
from engine.casablanca.words import agent_index, and_list, check_amount, money
from engine.errors import RuleError
from engine.events import Event, private, public
from engine.text import seat as ref

FIRST_TURN_AGENTS = 3


def first_turn(state: CasablancaState, seat: int) -> bool:
    """Main game: the seat's first turn, which must be a bribe of three agents or more."""
    return not state.variant and not state.started[seat]


def parse(state: CasablancaState, amounts: dict[str, int]) -> dict[int, int]:
    """Agent → amount, checked against the rules (not yet against the capital); RuleError otherwise."""
    out: dict[int, int] = {}
    for name, amount in amounts.items():
        agent = agent_index(state, name)
        if state.at[agent] is None:
            raise RuleError(f"{state.name(agent)} was hit and is out of the game — bribe an agent still in it.")
        if agent in out:
            raise RuleError(f"{state.name(agent)} is named twice — give one amount per agent.")
        check_amount(amount, "A bribe")
        if amount == 0:
            continue
        out[agent] = amount
    return out


def why_not(state: CasablancaState, seat: int, chosen: dict[int, int]) -> str | None:
    """Why this bribe is refused now (None: it's fine). Never states the player's capital."""
    if state.objected:
        return "An objection stopped you this turn, so you can't bribe any more — announce something else or end it."
    if not chosen:
        return "Put at least $100 on an agent."
    if state.variant and len(chosen) != 1:
        return "In the variant you bribe one agent per turn — pick one."
    if first_turn(state, seat) and len(chosen) < FIRST_TURN_AGENTS:
        return "Your first bribe must go on at least three different agents."
    if sum(chosen.values()) > state.capital[seat]:
        return "You don't have that much capital left — bribe less (your sheet shows what you have)."
    return None


def bribe(state: CasablancaState, seat: int, chosen: dict[int, int], *, by_default: bool = False) -> list[Event]:
    """Put the money on the agents; the turn is over (the caller passes it on)."""
    for agent, amount in chosen.items():
        state.capital[seat] -= amount
        state.bribes[seat][agent] += amount
    state.started[seat] = True
    state.last_deed = None
    spent = and_list([f"{money(a)} on {state.name(g)}" for g, a in chosen.items()])
    lead = "Time's up: " if by_default else ""
    said = (
        f"{lead}{ref(seat)} bribed." if not by_default else f"{lead}{ref(seat)} bribed (the default for a first turn)."
    )
    told = "Time ran out, so you put" if by_default else "You put"
    mine = f"{told} {spent}. Capital left: {money(state.capital[seat])}."
    return [
        public("bribed", said, seat=seat),
        private(seat, "your_bribe", mine, seat=seat, amounts={str(g): a for g, a in chosen.items()}),
    ]


def default_first_bribe(state: CasablancaState) -> dict[int, int]:
    """A first turn's deadline default: $100 on each of three agents drawn at random (so it can't be guessed)."""
    agents = state.rng.sample(state.in_game(), min(FIRST_TURN_AGENTS, len(state.in_game())))
    return {a: STEP for a in sorted(agents)}
