"""Moves and hits: what may be announced, how it is announced, and what happens when it takes effect.

A move takes one agent along one street to an adjacent building (other HQs included), taking the suitcase along if
the announcement says so (the suitcase lies in the building it leaves, or an agent there carries it: taking it from
another agent needs no hit). A hit needs two agents in the same building and at least $1,000 of the active player's
money on the hitter; it costs that $1,000, removes the victim and announces (and loses) every player's bribe on it.
Neither happens when announced: `objections` first gives everyone a chance to object.
"""

from engine.casablanca.state import HIT_COST, Announcement, CasablancaState, HitRecord, LastDeed
from engine.errors import RuleError, rule
from engine.events import Event, public


def suitcase_in(state: CasablancaState, building: str) -> bool:
    """The suitcase is in `building`: lying there, or carried by an agent standing there."""
    return state.suitcase_place() == building


def why_not_move(state: CasablancaState, seat: int, agent: int, to: str, suitcase: bool) -> RuleError | None:
    source = state.at[agent]
    if source is None:
        return rule("agent_out", agent=agent)
    if to not in state.streets[source]:
        if to == source:
            return rule("already_there", agent=agent, building=to)
        return rule("not_adjacent", agent=agent, source=source, to=to, ways=list(state.streets[source]))
    if suitcase and not suitcase_in(state, source):
        return rule("no_suitcase_here", agent=agent, source=source)
    return _repeated(
        state, Announcement(no=0, kind="move", seat=seat, agent=agent, source=source, to=to, suitcase=suitcase)
    )


def why_not_hit(state: CasablancaState, seat: int, agent: int, victim: int) -> RuleError | None:
    where = state.at[agent]
    if where is None:
        return rule("agent_out", agent=agent)
    if state.at[victim] is None:
        return rule("victim_out", victim=victim)
    if agent == victim:
        return rule("hit_itself", agent=agent)
    if state.at[victim] != where:
        return rule("not_together", agent=agent, victim=victim, building=where)
    if state.bribes[seat][agent] < HIT_COST:
        return rule("hit_needs_money", agent=agent, cost=HIT_COST)
    return _repeated(state, Announcement(no=0, kind="hit", seat=seat, agent=agent, source=where, victim=victim))


def _repeated(state: CasablancaState, wanted: Announcement) -> RuleError | None:
    if any(wanted.same_as(done) for done in state.defeated):
        return rule("already_stopped")
    return None


def announce(state: CasablancaState, ann: Announcement) -> Event:
    # A move that leaves the suitcase behind says so: whether it does is the state's now, so the announcement keeps it.
    behind = ann.kind == "move" and not ann.suitcase and suitcase_in(state, ann.source)
    ann = ann.model_copy(update={"behind": behind})
    state.announcement = ann
    state.last_announcement = ann
    state.verdict = ""
    state.announcements = ann.no
    state.auctions = []
    state.objected_by = []
    state.last_deed = None
    return public(
        "announced",
        seat=ann.seat,
        what=ann.kind,
        agent=ann.agent,
        source=ann.source,
        to=ann.to,
        suitcase=ann.suitcase,
        behind=behind,
        victim=ann.victim,
        no=ann.no,
    )


def take_effect(state: CasablancaState) -> list[Event]:
    """The announcement survived every objection: carry it out (the caller checks the end and passes the turn)."""
    ann = state.announcement
    assert ann is not None
    state.announcement = None
    state.verdict = "effect"
    state.last_deed = LastDeed(seat=ann.seat, kind=ann.kind)
    if ann.kind == "move":
        return [_move(state, ann)]
    return [_hit(state, ann)]


def _move(state: CasablancaState, ann: Announcement) -> Event:
    assert ann.to is not None
    agent = ann.agent
    state.at[agent] = ann.to
    if ann.suitcase:
        state.carrier = agent
        state.suitcase = None
        if agent not in state.carried_by:
            state.carried_by.append(agent)
    elif state.carrier == agent:  # it leaves the suitcase where it was
        state.carrier = None
        state.suitcase = ann.source
    return public("moved", agent=agent, source=ann.source, to=ann.to, suitcase=ann.suitcase)


def _hit(state: CasablancaState, ann: Announcement) -> Event:
    assert ann.victim is not None
    seat, hitter, victim = ann.seat, ann.agent, ann.victim
    state.bribes[seat][hitter] -= HIT_COST
    state.lost[seat] += HIT_COST
    where = state.at[victim]
    assert where is not None
    state.at[victim] = None
    dropped = state.carrier == victim
    if dropped:
        state.carrier = None
        state.suitcase = where
    amounts = []
    for s in range(state.seats):
        amount = state.bribes[s][victim]
        amounts.append(amount)
        state.lost[s] += amount
        state.bribes[s][victim] = 0
    state.hits.append(HitRecord(seat=seat, hitter=hitter, victim=victim, where=where, amounts=amounts))
    return Event(
        kind="hit",
        data={
            "seat": seat,
            "hitter": hitter,
            "victim": victim,
            "where": where,
            "amounts": amounts,
            "cost": HIT_COST,
            "dropped": dropped,
        },
        reveals=True,
    )
