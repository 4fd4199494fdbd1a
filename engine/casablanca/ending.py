"""The end of the game, and carrying out an announcement that survived every objection.

Main game: the suitcase must have been carried by at least two different agents (moves that took effect) before the
game can end; it ends when an agent carrying it enters its own HQ, and the most money on that agent wins (equal
amounts share). If only one agent is left and the suitcase hasn't yet been carried by two, it ends at once and the
most money on that last agent wins. Variant: a player wins by bringing the suitcase into their own HQ with any agent.
At the end every sheet is revealed.

How it ended is a code (`end_reason`, and the result's `reason`): "home" (an agent brought the suitcase home),
"hq" (the variant: a player brought it into their HQ), "last_agent" (one agent left, who can no longer end it);
a game ended early has the platform's "ended early".

Players who left count for nobody: their bribes stay on the agents, but they can't win; the standings rank them last.
"""

from engine.casablanca import moves, turns
from engine.casablanca.state import CasablancaState
from engine.events import Event
from engine.game import Result, Standing, rank_by_score

MIN_CARRIERS = 2


def carry_out(state: CasablancaState) -> list[Event]:
    """The announcement takes effect; then the game ends, or the turn passes."""
    ann = state.announcement
    assert ann is not None
    events = moves.take_effect(state)
    if ann.kind == "move":
        events += _after_move(state, ann.seat, ann.agent)
    elif not state.variant:
        events += _last_agent(state)
    if state.phase != "over":
        events += turns.end_turn(state)
    return events


def _after_move(state: CasablancaState, seat: int, agent: int) -> list[Event]:
    if state.carrier != agent:
        return []
    where = state.at[agent]
    assert where is not None
    if state.variant:
        if state.owner(where) == seat:
            return _over(state, None, [seat], "hq", agent, where)
        return []
    if where != state.agents[agent].home or len(state.carried_by) < MIN_CARRIERS:
        return []
    return _over(state, agent, _richest(state, agent), "home", agent, where)


def _last_agent(state: CasablancaState) -> list[Event]:
    alive = state.in_game()
    if len(alive) != 1:
        return []
    agent = alive[0]
    # It can still end the game when another agent carried the suitcase before: then it becomes the second carrier.
    if any(carrier != agent for carrier in state.carried_by):
        return []
    return _over(state, agent, _richest(state, agent), "last_agent", agent, state.at[agent])


def _richest(state: CasablancaState, agent: int) -> list[int]:
    playing = [s for s in range(state.seats) if state.playing(s)]
    top = max(state.bribes[s][agent] for s in playing)
    return [s for s in playing if state.bribes[s][agent] == top]


def _over(
    state: CasablancaState, agent: int | None, winners: list[int], reason: str, mover: int, where: str | None
) -> list[Event]:
    """The game is over: `winners` win (`agent`: the agent whose money decides, None in the variant); `mover` is the
    agent that ended it, standing in `where`."""
    state.phase = "over"
    state.winner_agent = agent
    state.winners = winners
    state.end_reason = reason
    state.deadline = None
    amount = state.bribes[winners[0]][agent] if agent is not None else None
    reveal = Event(
        kind="sheets",
        data={"bribes": [list(b) for b in state.bribes], "capital": list(state.capital), "lost": list(state.lost)},
        reveals=True,
    )
    won = Event(
        kind="won",
        data={
            "winners": list(winners),
            "agent": agent,
            "reason": reason,
            "mover": mover,
            "where": where,
            "amount": amount,
        },
        reveals=agent is not None,
    )
    return [won, reveal]


def result(state: CasablancaState) -> Result | None:
    if state.phase != "over":
        return None
    if state.winner_agent is None:
        scores = {s: int(s in state.winners) for s in range(state.seats)}
    else:
        scores = {s: state.bribes[s][state.winner_agent] for s in range(state.seats)}
    return _ranked(state, scores, state.end_reason)


def standings(state: CasablancaState) -> Result:
    """A game ended early: each player's money on the agents still in the game (their stake in how it could end);
    in the variant everyone is level, as nobody brought the suitcase home."""
    final = result(state)
    if final is not None:
        return final
    if state.variant:
        scores = dict.fromkeys(range(state.seats), 0)
    else:
        alive = state.in_game()
        scores = {s: sum(state.bribes[s][a] for a in alive) for s in range(state.seats)}
    return _ranked(state, scores, "ended early")


def _ranked(state: CasablancaState, scores: dict[int, int], reason: str) -> Result:
    """Best first; seats whose player left come after everyone still playing."""
    playing = rank_by_score({s: v for s, v in scores.items() if state.playing(s)}, reason=reason)
    standings = list(playing.standings)
    gone = rank_by_score({s: scores[s] for s in state.left})
    standings += [Standing(seat=g.seat, score=g.score, rank=len(playing.standings) + g.rank) for g in gone.standings]
    return Result(standings=tuple(standings), reason=reason)
