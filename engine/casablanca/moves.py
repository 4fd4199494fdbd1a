"""Moves and hits: what may be announced, how it is announced, and what happens when it takes effect.

A move takes one agent along one street to an adjacent building (other HQs included), taking the suitcase along if
the announcement says so (the suitcase lies in the building it leaves, or an agent there carries it: taking it from
another agent needs no hit). A hit needs two agents in the same building and at least $1,000 of the active player's
money on the hitter; it costs that $1,000, removes the victim and announces (and loses) every player's bribe on it.
Neither happens when announced: `objections` first gives everyone a chance to object.
"""

from engine.casablanca.state import HIT_COST, Announcement, CasablancaState, HitRecord, LastDeed
from engine.casablanca.words import and_list, money
from engine.events import Event, public
from engine.text import seat as ref


def suitcase_in(state: CasablancaState, building: str) -> bool:
    """The suitcase is in `building`: lying there, or carried by an agent standing there."""
    return state.suitcase_place() == building


def why_not_move(state: CasablancaState, seat: int, agent: int, to: str, suitcase: bool) -> str | None:
    source = state.at[agent]
    name = state.name(agent)
    if source is None:
        return f"{name} was hit and is out of the game."
    if to not in state.streets[source]:
        if to == source:
            return f"{name} is already in {place(state, to)} — a move goes along a street to another building."
        ways = and_list([place(state, b) for b in state.streets[source]])
        return f"{name} can't get from {place(state, source)} to {place(state, to)} in one move — try {ways}."
    if suitcase and not suitcase_in(state, source):
        return f"The suitcase isn't in {place(state, source)} — {name} can't take it along."
    return _repeated(
        state, Announcement(no=0, kind="move", seat=seat, agent=agent, source=source, to=to, suitcase=suitcase)
    )


def why_not_hit(state: CasablancaState, seat: int, agent: int, victim: int) -> str | None:
    where = state.at[agent]
    if where is None:
        return f"{state.name(agent)} was hit and is out of the game."
    if state.at[victim] is None:
        return f"{state.name(victim)} was already hit and is out of the game."
    if agent == victim:
        return "An agent can't hit itself — pick another agent in the same building."
    if state.at[victim] != where:
        return (
            f"{state.name(victim)} isn't in {place(state, where)} with {state.name(agent)} — an agent only hits one "
            "in the same building (and moving there is a turn of its own)."
        )
    if state.bribes[seat][agent] < HIT_COST:
        return f"You need at least $1,000 on {state.name(agent)} to hit with them — a hit costs $1,000 of that bribe."
    return _repeated(state, Announcement(no=0, kind="hit", seat=seat, agent=agent, source=where, victim=victim))


def _repeated(state: CasablancaState, wanted: Announcement) -> str | None:
    if any(wanted.same_as(done) for done in state.defeated):
        return "An objection already stopped that this turn — announce something else, or end your turn."
    return None


def place(state: CasablancaState, building: str) -> str:
    """A building as a sentence names it: "house 7", "the Bazaar", "the Hotel", "Rick's Café"."""
    if building.isdigit():
        return f"house {building}"
    return building if "'s " in building else f"the {building}"


def describe(state: CasablancaState, ann: Announcement) -> str:
    """The announcement in words (the same for everyone)."""
    name = state.name(ann.agent)
    if ann.kind == "hit":
        assert ann.victim is not None
        return f"{name} hits {state.name(ann.victim)} in {place(state, ann.source)}"
    assert ann.to is not None
    text = f"{name} moves from {place(state, ann.source)} to {place(state, ann.to)}"
    if ann.suitcase:
        return text + ", taking the suitcase along"
    if suitcase_in(state, ann.source):
        return text + ", leaving the suitcase behind"
    return text


def announce(state: CasablancaState, ann: Announcement) -> Event:
    ann = ann.model_copy(update={"said": describe(state, ann)})
    state.announcement = ann
    state.last_announcement = ann
    state.verdict = ""
    state.announcements = ann.no
    state.auctions = []
    state.objected_by = []
    state.last_deed = None
    return public(
        "announced",
        f"{ref(ann.seat)} announces: {ann.said}.",
        seat=ann.seat,
        what=ann.kind,
        agent=ann.agent,
        source=ann.source,
        to=ann.to,
        suitcase=ann.suitcase,
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
    text = f"{state.name(agent)} moves to {place(state, ann.to)}" + (" with the suitcase." if ann.suitcase else ".")
    return public("moved", text, agent=agent, source=ann.source, to=ann.to, suitcase=ann.suitcase)


def _hit(state: CasablancaState, ann: Announcement) -> Event:
    assert ann.victim is not None
    seat, hitter, victim = ann.seat, ann.agent, ann.victim
    state.bribes[seat][hitter] -= HIT_COST
    state.lost[seat] += HIT_COST
    where = state.at[victim]
    assert where is not None
    state.at[victim] = None
    dropped = ""
    if state.carrier == victim:
        dropped = f" The suitcase stays in {place(state, where)}."
        state.carrier = None
        state.suitcase = where
    amounts = []
    for s in range(state.seats):
        amount = state.bribes[s][victim]
        amounts.append(amount)
        state.lost[s] += amount
        state.bribes[s][victim] = 0
    state.hits.append(HitRecord(seat=seat, hitter=hitter, victim=victim, where=where, amounts=amounts))
    sheet = and_list([f"{ref(s)} {money(a)}" for s, a in enumerate(amounts)])
    text = (
        f"{state.name(hitter)} hits {state.name(victim)}, who is out of the game ({ref(seat)} pays $1,000 of their "
        f"bribe on {state.name(hitter)}). Bribes on {state.name(victim)}, now lost: {sheet}.{dropped}"
    )
    return Event(
        kind="hit",
        text=text,
        data={"seat": seat, "hitter": hitter, "victim": victim, "where": where, "amounts": amounts},
        reveals=True,
    )
