"""The bribe: money from a player's capital onto agents, in secret, in $100 steps.

Main game: any number of agents in one turn, at least three different ones in the player's first turn (and nothing
else then). Variant: one agent per turn (raising an earlier bribe is a turn too). Money on an agent never moves to
another agent or back. The table hears only that the player bribed.
"""

from engine.casablanca.state import STEP, CasablancaState
from engine.casablanca.words import agent_index, check_amount
from engine.errors import RuleError, rule
from engine.events import Event, private, public

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
            raise rule("bribe_agent_out", agent=agent)
        if agent in out:
            raise rule("agent_named_twice", agent=agent)
        check_amount(amount, "bribe")
        if amount == 0:
            continue
        out[agent] = amount
    return out


def why_not(state: CasablancaState, seat: int, chosen: dict[int, int]) -> RuleError | None:
    """Why this bribe is refused now (None: it's fine). Never states the player's capital."""
    if state.objected:
        return rule("no_bribe_after_objection")
    if not chosen:
        return rule("bribe_nothing")
    if state.variant and len(chosen) != 1:
        return rule("variant_one_agent")
    if first_turn(state, seat) and len(chosen) < FIRST_TURN_AGENTS:
        return rule("first_bribe_three", least=FIRST_TURN_AGENTS)
    if sum(chosen.values()) > state.capital[seat]:
        return rule("not_enough_capital")
    return None


def bribe(state: CasablancaState, seat: int, chosen: dict[int, int], *, by_default: bool = False) -> list[Event]:
    """Put the money on the agents; the turn is over (the caller passes it on)."""
    for agent, amount in chosen.items():
        state.capital[seat] -= amount
        state.bribes[seat][agent] += amount
    state.started[seat] = True
    state.last_deed = None
    return [
        public("bribed", seat=seat, by_default=by_default),
        private(
            seat,
            "your_bribe",
            seat=seat,
            amounts={str(g): a for g, a in chosen.items()},
            capital=state.capital[seat],
            by_default=by_default,
        ),
    ]


def default_first_bribe(state: CasablancaState) -> dict[int, int]:
    """A first turn's deadline default: $100 on each of three agents drawn at random (so it can't be guessed)."""
    agents = state.rng.sample(state.in_game(), min(FIRST_TURN_AGENTS, len(state.in_game())))
    return {a: STEP for a in sorted(agents)}
