"""Objections: the window that opens to every other player at once, contest or withdraw, and the progressive auction.

When a move or a hit is announced, every other player (in the variant: whose sheet lies face up) is asked at the same
time, in the same words, with the same deadline, whatever they have on the agent. An objection carries the objector's
private limit. Answers are secret while the window is open (the table sees only who has answered); it closes when
everyone has answered or at the deadline (silence is no objection) — never early because someone has nothing on the
agent. Then the objectors are taken clockwise from the active player's left. For each, the active player withdraws
(the objection succeeds) or contests with a limit of their own, and the bot runs the auction about the acting agent in
$100 steps: the objector claims $100, the active player matches or passes, the objector raises by $100 or passes,
and so on. Only these claims are published; they reveal the smaller limit, never the larger.

An objector still waiting for their auction may drop out (ruling: the rulebook asks clockwise, so a player not yet
asked could decline after seeing the earlier claims); the table sees that they did, the active player is not asked
about them, and in the variant their sheet stays face up. Decision where the specification is silent: this holds
for the objector being taken too, as long as the active player hasn't contested (the auction starts with the
contest); the question to the active player then lapses and the next objector is taken. While the window is open an
objector answers "no objection" instead (answers are secret until it closes).

A successful objection undoes the announcement completely and no further objection is taken. Main game: the player
may announce something else or end the turn, but not bribe. Variant: the turn ends. A failed objection costs nothing
in the main game; in the variant the objector's sheet turns face down. When no objector is left, it takes effect.
"""

from engine.casablanca import ending, moves, turns
from engine.casablanca.state import STEP, Announcement, Auction, CasablancaState, Objection
from engine.casablanca.words import check_amount
from engine.errors import rule
from engine.events import Event, private, public


def askable(state: CasablancaState, seat: int) -> list[int]:
    """Who may object to `seat`'s announcement: the other players, clockwise, except face-down sheets."""
    return [s for s in state.clockwise_from(seat) if not (state.variant and state.face_down[s])]


def open_window(state: CasablancaState, ann: Announcement) -> list[Event]:
    events = [moves.announce(state, ann)]
    ann = state.announcement  # as announced (with whether it leaves the suitcase behind)
    assert ann is not None
    state.awaited = askable(state, ann.seat)
    state.answered = []
    state.objections = []
    if not state.awaited:
        events.append(public("no_window", seat=ann.seat))
        return events + ending.carry_out(state)
    state.phase = "objections"
    events.append(public("object_now", seats=list(state.awaited), no=ann.no))
    return events


def check_limit(state: CasablancaState, seat: int, limit: int) -> None:
    """A limit is a multiple of $100 and never above the player's real bribe on the acting agent — refused without
    saying what that bribe is."""
    ann = state.announcement
    assert ann is not None
    check_amount(limit, "limit")
    if limit > state.bribes[seat][ann.agent]:
        raise rule("limit_above_bribe", agent=ann.agent)


def object_(state: CasablancaState, seat: int, limit: int) -> list[Event]:
    ann = state.announcement
    if state.phase == "contest" and any(o.seat == seat for o in state.objections[1:]):
        check_limit(state, seat, limit)  # a queued objector changes their limit before their auction runs
        for i, o in enumerate(state.objections):
            if o.seat == seat:
                state.objections[i] = Objection(seat=seat, limit=limit)
        return [private(seat, "your_limit", seat=seat, limit=limit)]
    _check_window(state, seat)
    assert ann is not None
    check_limit(state, seat, limit)
    state.objections = [o for o in state.objections if o.seat != seat] + [Objection(seat=seat, limit=limit)]
    note = private(seat, "your_objection", seat=seat, limit=limit, agent=ann.agent)
    return _answered(state, seat, note)


def no_objection(state: CasablancaState, seat: int) -> list[Event]:
    _check_window(state, seat)
    state.objections = [o for o in state.objections if o.seat != seat]
    return _answered(state, seat, private(seat, "your_objection", seat=seat, limit=None))


def drop(state: CasablancaState, seat: int) -> list[Event]:
    """`seat` drops their objection before their auction starts (see the module docstring)."""
    ann = state.announcement
    if state.phase == "objections" and ann is not None and seat in state.awaited:
        raise rule("window_still_open")
    if state.phase != "contest" or ann is None or all(o.seat != seat for o in state.objections):
        raise rule("no_objection_waiting")
    taken = state.objections[0].seat == seat
    state.objections = [o for o in state.objections if o.seat != seat]
    events = [
        private(seat, "your_objection", seat=seat, limit=None, dropped=True),
        public("objection_dropped", seat=seat, no=ann.no),
    ]
    return events + next_objection(state) if taken else events


def _check_window(state: CasablancaState, seat: int) -> None:
    ann = state.announcement
    if state.phase == "contest" and ann is not None and state.objections and state.objections[0].seat == seat:
        raise rule("objection_being_taken", seat=ann.seat)
    if state.phase != "objections" or ann is None:
        raise rule("nothing_to_object_to")
    if seat == ann.seat:
        raise rule("own_announcement")
    if state.variant and state.face_down[seat]:
        raise rule("sheet_face_down")
    if seat not in state.awaited:
        raise rule("not_asked")


def _answered(state: CasablancaState, seat: int, note: Event) -> list[Event]:
    # The same public words whether it was an objection or not: who objected is told when the window closes.
    first = seat not in state.answered
    events = [note]
    if first:
        state.answered.append(seat)
        events.insert(0, public("answered", seat=seat))
    if all(s in state.answered for s in state.awaited):
        events += close_window(state)
    return events


def close_window(state: CasablancaState) -> list[Event]:
    """The window closes: the silent have no objection; the objectors are taken clockwise from the active player."""
    ann = state.announcement
    assert ann is not None
    order = state.clockwise_from(ann.seat)
    state.objections.sort(key=lambda o: order.index(o.seat))
    who = [o.seat for o in state.objections]
    state.objected_by = list(who)
    events = [public("window_closed", objectors=who, no=ann.no)]
    return events + next_objection(state)


def next_objection(state: CasablancaState) -> list[Event]:
    ann = state.announcement
    assert ann is not None
    if not state.objections:
        return ending.carry_out(state)
    state.phase = "contest"
    objector = state.objections[0].seat
    return [public("contest_now", seat=ann.seat, objector=objector, agent=ann.agent, no=ann.no)]


def _check_contest(state: CasablancaState, seat: int) -> Announcement:
    ann = state.announcement
    if state.phase != "contest" or ann is None:
        raise rule("no_objection_to_answer")
    if seat != ann.seat:
        raise rule("not_your_announcement", seat=ann.seat)
    return ann


def contest(state: CasablancaState, seat: int, limit: int, *, by_default: bool = False) -> list[Event]:
    ann = _check_contest(state, seat)
    check_limit(state, seat, limit)
    objection = state.objections.pop(0)
    auction = run_auction(objection.limit, limit, objection.seat)
    state.auctions.append(auction)
    events = [
        Event(
            kind="auction",
            data={
                "objector": objection.seat,
                "active": seat,
                "agent": ann.agent,
                "top": auction.top,
                "ending": auction.ending,
                "no": ann.no,
                "by_default": by_default,
            },
            reveals=True,  # the claims (even a bluff's pass) show something of the sheets
        )
    ]
    if auction.succeeded:
        return events + defeat(state)
    if state.variant:
        state.face_down[objection.seat] = True
        events.append(public("face_down", seat=objection.seat))
    return events + next_objection(state)


def withdraw(state: CasablancaState, seat: int) -> list[Event]:
    ann = _check_contest(state, seat)
    objection = state.objections.pop(0)
    state.auctions.append(Auction(objector=objection.seat, ending="withdrawn"))
    return [public("withdrawn", seat=seat, objector=objection.seat, agent=ann.agent, no=ann.no), *defeat(state)]


def run_auction(objector_limit: int, active_limit: int, objector: int) -> Auction:
    """The progressive auction, run from both limits in $100 steps (a tie goes to the active player)."""
    if objector_limit < STEP:
        return Auction(objector=objector, ending="no_opening")
    if active_limit < objector_limit:
        # The objector claims one step above the active player's limit, and the active player passes.
        return Auction(objector=objector, ending="active_passed", top=(active_limit // STEP + 1) * STEP)
    return Auction(objector=objector, ending="objector_passed", top=objector_limit)


def defeat(state: CasablancaState) -> list[Event]:
    """A successful objection (or a withdrawal): nothing of the announcement happens; no further objection is taken."""
    ann = state.announcement
    assert ann is not None
    state.announcement = None
    state.verdict = "stopped"
    state.objections = []
    state.awaited = []
    state.answered = []
    if state.variant:
        return [public("undone", seat=ann.seat, how="turn_over"), *turns.end_turn(state)]
    state.phase = "turn"
    state.defeated.append(ann)
    state.objected = True
    return [public("undone", seat=ann.seat, how="again")]
