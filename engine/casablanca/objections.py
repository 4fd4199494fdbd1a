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
from engine.casablanca.words import and_list, check_amount, money
from engine.errors import RuleError
from engine.events import Event, private, public
from engine.text import seat as ref


def askable(state: CasablancaState, seat: int) -> list[int]:
    """Who may object to `seat`'s announcement: the other players, clockwise, except face-down sheets."""
    return [s for s in state.clockwise_from(seat) if not (state.variant and state.face_down[s])]


def open_window(state: CasablancaState, ann: Announcement) -> list[Event]:
    events = [moves.announce(state, ann)]
    ann = state.announcement  # with its words
    assert ann is not None
    state.awaited = askable(state, ann.seat)
    state.answered = []
    state.objections = []
    if not state.awaited:
        events.append(public("no_window", "Nobody can object (every other sheet lies face down).", seat=ann.seat))
        return events + ending.carry_out(state)
    state.phase = "objections"
    ask = f"{and_list([ref(s) for s in state.awaited])}: do you object?"
    events.append(public("object_now", ask, seats=list(state.awaited), no=ann.no))
    return events


def check_limit(state: CasablancaState, seat: int, limit: int) -> None:
    """A limit is a multiple of $100 and never above the player's real bribe on the acting agent — refused without
    saying what that bribe is."""
    ann = state.announcement
    assert ann is not None
    check_amount(limit, "A limit")
    if limit > state.bribes[seat][ann.agent]:
        raise RuleError(
            f"You can't claim more than you have on {state.name(ann.agent)} — give a lower limit "
            "(your sheet shows your bribes)."
        )


def object_(state: CasablancaState, seat: int, limit: int) -> list[Event]:
    ann = state.announcement
    if state.phase == "contest" and any(o.seat == seat for o in state.objections[1:]):
        check_limit(state, seat, limit)  # a queued objector changes their limit before their auction runs
        for i, o in enumerate(state.objections):
            if o.seat == seat:
                state.objections[i] = Objection(seat=seat, limit=limit)
        return [private(seat, "your_limit", f"Your limit is now {money(limit)}.", seat=seat, limit=limit)]
    _check_window(state, seat)
    assert ann is not None
    check_limit(state, seat, limit)
    state.objections = [o for o in state.objections if o.seat != seat] + [Objection(seat=seat, limit=limit)]
    note = f"You object, with a limit of {money(limit)} on {state.name(ann.agent)}."
    return _answered(state, seat, private(seat, "your_objection", note, seat=seat, limit=limit))


def no_objection(state: CasablancaState, seat: int) -> list[Event]:
    _check_window(state, seat)
    state.objections = [o for o in state.objections if o.seat != seat]
    return _answered(state, seat, private(seat, "your_objection", "No objection from you.", seat=seat, limit=None))


def drop(state: CasablancaState, seat: int) -> list[Event]:
    """`seat` drops their objection before their auction starts (see the module docstring)."""
    ann = state.announcement
    if state.phase == "objections" and ann is not None and seat in state.awaited:
        raise RuleError("The window is still open — answer “no objection” instead (it stays secret until it closes).")
    if state.phase != "contest" or ann is None or all(o.seat != seat for o in state.objections):
        raise RuleError("You have no objection waiting to be taken.")
    taken = state.objections[0].seat == seat
    state.objections = [o for o in state.objections if o.seat != seat]
    events = [
        private(seat, "your_objection", "You drop your objection.", seat=seat, limit=None),
        public("objection_dropped", f"{ref(seat)} dropped their objection.", seat=seat, no=ann.no),
    ]
    return events + next_objection(state) if taken else events


def _check_window(state: CasablancaState, seat: int) -> None:
    ann = state.announcement
    if state.phase == "contest" and ann is not None and state.objections and state.objections[0].seat == seat:
        raise RuleError(f"Your objection is being taken — {ref(ann.seat)} is deciding whether to contest it.")
    if state.phase != "objections" or ann is None:
        raise RuleError("There's nothing to object to right now.")
    if seat == ann.seat:
        raise RuleError("You can't object to your own announcement — wait for the others' answers.")
    if state.variant and state.face_down[seat]:
        raise RuleError("Your sheet lies face down, so you can't object — you can again after your next turn.")
    if seat not in state.awaited:
        raise RuleError("You weren't asked about this announcement.")


def _answered(state: CasablancaState, seat: int, note: Event) -> list[Event]:
    # The same public words whether it was an objection or not: who objected is told when the window closes.
    first = seat not in state.answered
    events = [note]
    if first:
        state.answered.append(seat)
        events.insert(0, public("answered", f"{ref(seat)} has answered.", seat=seat))
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
    if who:
        text = f"Objection{'s' if len(who) > 1 else ''} from {and_list([ref(s) for s in who])}."
    else:
        text = "No objections."
    events = [public("window_closed", text, objectors=who, no=ann.no)]
    return events + next_objection(state)


def next_objection(state: CasablancaState) -> list[Event]:
    ann = state.announcement
    assert ann is not None
    if not state.objections:
        return ending.carry_out(state)
    state.phase = "contest"
    objector = state.objections[0].seat
    ask = (
        f"{ref(ann.seat)}: {ref(objector)} objects — contest (give your limit on {state.name(ann.agent)}) or withdraw?"
    )
    return [public("contest_now", ask, seat=ann.seat, objector=objector, no=ann.no)]


def _check_contest(state: CasablancaState, seat: int) -> Announcement:
    ann = state.announcement
    if state.phase != "contest" or ann is None:
        raise RuleError("There's no objection for you to answer right now.")
    if seat != ann.seat:
        raise RuleError(f"Only {ref(ann.seat)} contests or withdraws their own announcement.")
    return ann


def contest(state: CasablancaState, seat: int, limit: int, *, by_default: bool = False) -> list[Event]:
    ann = _check_contest(state, seat)
    check_limit(state, seat, limit)
    objection = state.objections.pop(0)
    auction = run_auction(objection.limit, limit, objection.seat)
    state.auctions.append(auction)
    lead = f"Time's up: {ref(seat)} contests. " if by_default else f"{ref(seat)} contests. "
    text = lead + auction_text(state, auction, ann)
    events = [
        Event(
            kind="auction",
            text=text,
            data={
                "objector": objection.seat,
                "active": seat,
                "agent": ann.agent,
                "top": auction.top,
                "ending": auction.ending,
                "no": ann.no,
            },
            reveals=True,  # the claims (even a bluff's pass) show something of the sheets
        )
    ]
    if auction.succeeded:
        return events + defeat(state)
    if state.variant:
        state.face_down[objection.seat] = True
        text = f"{ref(objection.seat)} lost the objection: their sheet lies face down and they lose their next turn."
        events.append(public("face_down", text, seat=objection.seat))
    return events + next_objection(state)


def withdraw(state: CasablancaState, seat: int) -> list[Event]:
    ann = _check_contest(state, seat)
    objection = state.objections.pop(0)
    state.auctions.append(Auction(objector=objection.seat, ending="withdrawn"))
    text = (
        f"{ref(seat)} withdraws the announcement ({state.name(ann.agent)}): {ref(objection.seat)}'s objection stands."
    )
    return [public("withdrawn", text, seat=seat, objector=objection.seat, no=ann.no), *defeat(state)]


def run_auction(objector_limit: int, active_limit: int, objector: int) -> Auction:
    """The progressive auction, run from both limits in $100 steps (a tie goes to the active player)."""
    if objector_limit < STEP:
        return Auction(objector=objector, ending="no_opening")
    if active_limit < objector_limit:
        # The objector claims one step above the active player's limit, and the active player passes.
        return Auction(objector=objector, ending="active_passed", top=(active_limit // STEP + 1) * STEP)
    return Auction(objector=objector, ending="objector_passed", top=objector_limit)


def auction_text(state: CasablancaState, auction: Auction, ann: Announcement) -> str:
    """The claims, compact: the first and last steps in full, the run between them as "…"."""
    o, a = ref(auction.objector), ref(ann.seat)
    if auction.ending == "no_opening":
        # A live table hears only a pass: nothing says whether the objector had no money on the agent or bluffed.
        return f"{o} passes without a claim on {state.name(ann.agent)} — the objection fails."
    claims = auction.claims(ann.seat)
    words = []
    for seat, word, amount in claims:
        who = o if seat == auction.objector else a
        words.append(
            f"{who} {money(amount)}" if word == "claim" else f"{who} {'matches' if word == 'match' else 'passes'}"
        )
    if len(words) > 8:
        words = [*words[:4], "…", *words[-4:]]
    verdict = "the objection succeeds" if auction.succeeded else "the objection fails"
    return f"Claims on {state.name(ann.agent)}: " + ", ".join(words) + f" — {verdict}."


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
        text = f"Nothing of it happens: {ref(ann.seat)}'s turn is over."
        return [public("undone", text, seat=ann.seat), *turns.end_turn(state)]
    state.phase = "turn"
    state.defeated.append(ann)
    state.objected = True
    text = f"Nothing of it happens. {ref(ann.seat)}, announce another move or hit, or end your turn (no more bribing)."
    return [public("undone", text, seat=ann.seat)]
