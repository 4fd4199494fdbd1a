"""Playing influence cards in a round: clan cards, and the travel, recruitment and Boss cards that become pending
effects with a reaction window in which a STOP can cancel them.

A travel, a recruitment triple or a Boss card is announced at once and takes effect when its window closes
(everyone else has passed, or the reaction time ran out: see `windows`). While one is pending, no other card except
STOP may be played, with one exception: a Boss card may answer a pending Boss card. Boss cards stack; each new one
restarts the window; a STOP cancels only the newest; the newest one standing when the window closes decides who is
Boss. A STOP cannot be stopped. Any card played during a last call cancels the call.

Decisions where the rules are silent:
- You can't STOP your own card (you could simply not have played it), and you can't answer your own Boss card with
  another one. The current Boss can't play a Boss card unless it answers someone else's pending one.
- A clan card of any family may be played (kkk.md puts no limit on the family), also one the space does not use:
  it serves nothing in this deal, goes back to its owner's hand at the end of the round like any unused clan card,
  and, like any card, cancels a running last call.
- Travel that names the player and the family but not the card: if that player has both the investor and a clan
  card of the family on the table, the bot asks which one, unless the investor is already on travel (then only the
  clan card can be meant).
- A player who has passed in a window may still play a STOP while the window is open (a pass is "no STOP from me
  so far", and the window waits for the others anyway).
- Travel on your own card, or on an investor beside the board, is allowed (pointless, but not forbidden).
- Outside a round the only card play is the recruitment triple of a player over the hand limit (house rule 7), and
  the STOPs answering it.
"""

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.cards import BOSS, HAND_LIMIT, JOKER, RECRUIT, RECRUIT_TRIPLE, STOP, clan, travel
from engine.kkk.conclusion import cancel_last_call
from engine.kkk.negotiation import reopen_for_boss, void_unserviceable
from engine.kkk.state import Effect, KkkState
from engine.kkk.table import (
    NO_SUCH_PLAYER,
    check_holds,
    check_nobody_over_limit,
    effect_data,
    over_limit,
    take,
    to_discard,
)


def _check_no_pending(state: KkkState) -> None:
    if state.pending:
        raise rule("only_stop_now", effect=effect_data(state.pending[-1]))


def _check_round(state: KkkState) -> None:
    if state.round is None:
        raise rule("no_round_for_cards", limit=HAND_LIMIT)


def _pend(state: KkkState, effect: Effect, **about: JsonValue) -> list[Event]:
    """Open the effect's reaction window (an answering Boss card restarts the open one under a new number)."""
    previous = state.window if state.pending else None
    state.pending.append(effect)
    state.passes = []
    state.window = state.seq
    state.stopped_last = False
    return [
        public(
            "pending",
            effect=effect.kind,
            by=effect.by,
            family=effect.family,
            target=effect.target,
            on=effect.on,
            window=state.window,
            previous_window=previous,
            **about,
        )
    ]


# --- clan cards ---------------------------------------------------------------------------------------


def play_clan(state: KkkState, actor: int, action: A.PlayClan) -> list[Event]:
    _check_round(state)
    _check_no_pending(state)
    r = state.round
    assert r is not None
    check_holds(state, actor, clan(action.family))
    events = cancel_last_call(state, actor)
    take(state, actor, clan(action.family))
    r.clans[actor].append(action.family)
    r.clans[actor].sort()
    state.stopped_last = False
    events.insert(
        0,
        public(
            "clan_played",
            seat=actor,
            family=action.family,
        ),
    )
    return events


# --- travel -------------------------------------------------------------------------------------------


def play_travel(state: KkkState, actor: int, action: A.Travel) -> list[Event]:
    _check_round(state)
    _check_no_pending(state)
    r = state.round
    assert r is not None
    f = action.family
    if action.target is None:
        if state.investors[f] is not None:
            raise rule("investor_not_beside", family=f)
        if action.on == "clan":
            raise rule("clan_not_beside")
        on = "investor"
    else:
        if not 0 <= action.target < state.seats:
            raise rule(NO_SUCH_PLAYER)
        has_investor = state.investors[f] == action.target
        has_clan = f in r.clans[action.target]
        if action.on is None:
            if has_investor and has_clan and f in r.travel:
                has_investor = False  # already on travel: only the clan card can still be sent
            if has_investor and has_clan:
                raise rule("travel_which", seat=action.target, family=f)
            if not has_investor and not has_clan:
                raise rule("nothing_to_travel", seat=action.target, family=f)
            on = "investor" if has_investor else "clan"
        else:
            on = action.on
            if on == "investor" and not has_investor:
                raise rule("not_investor_owner", seat=action.target, family=f)
            if on == "clan" and not has_clan:
                raise rule("no_clan_on_table", seat=action.target, family=f)
    if on == "investor" and f in r.travel:
        raise rule("already_on_travel", family=f)
    card = JOKER if action.joker else travel(f)
    if not action.joker and state.hands[actor].count(card) == 0 and JOKER in state.hands[actor]:
        raise rule("use_joker", family=f)
    check_holds(state, actor, card)
    events = cancel_last_call(state, actor)
    take(state, actor, card)
    effect = Effect(kind="travel", by=actor, cards=[card], family=f, target=action.target, on=on)
    return _pend(state, effect, joker=action.joker) + events


# --- recruitment --------------------------------------------------------------------------------------


def play_recruit(state: KkkState, actor: int, action: A.Recruit) -> list[Event]:
    if over_limit(state) != actor:
        check_nobody_over_limit(state, actor)
        _check_round(state)
    _check_no_pending(state)
    if action.on == "clan":
        raise rule("recruit_clan")
    f = action.family
    owner = state.investors[f]
    if owner == actor:
        raise rule("own_investor", family=f)
    beside = [g for g, o in state.investors.items() if o is None]
    if beside and owner is not None:
        raise rule("recruit_beside_first", families=beside)
    check_holds(state, actor, RECRUIT, RECRUIT_TRIPLE)
    events = cancel_last_call(state, actor)
    cards = take(state, actor, RECRUIT, RECRUIT_TRIPLE)
    effect = Effect(kind="recruit", by=actor, cards=cards, family=f, target=owner, on="investor")
    return _pend(state, effect) + events


# --- Boss ---------------------------------------------------------------------------------------------


def play_boss(state: KkkState, actor: int) -> list[Event]:
    _check_round(state)
    r = state.round
    assert r is not None
    if state.pending:
        top = state.pending[-1]
        if top.kind != "boss":
            raise rule("only_stop_now", effect=effect_data(top))
        if top.by == actor:
            raise rule("boss_card_newest")
    elif actor == r.boss:
        raise rule("already_boss")
    check_holds(state, actor, BOSS)
    events = cancel_last_call(state, actor)
    cards = take(state, actor, BOSS)
    effect = Effect(kind="boss", by=actor, cards=cards)
    answers = bool(state.pending)
    return _pend(state, effect, answers=answers) + events


# --- STOP ---------------------------------------------------------------------------------------------


def play_stop(state: KkkState, actor: int) -> list[Event]:
    if not state.pending:
        if state.stopped_last:
            raise rule("stop_on_stop")
        raise rule("nothing_to_stop")
    top = state.pending[-1]
    if top.by == actor:
        raise rule("stop_own_card")
    check_holds(state, actor, STOP)
    take(state, actor, STOP)
    state.pending.pop()
    to_discard(state, [STOP, *top.cards])
    events = [
        public(
            "stopped",
            by=actor,
            effect=top.kind,
            owner=top.by,
            family=top.family,
            target=top.target,
            on=top.on,
            window=state.window,
        )
    ]
    if state.pending:
        state.passes = []
        state.window = state.seq
        below = state.pending[-1]
        events.append(
            public("pending", effect="boss", by=below.by, window=state.window, previous_window=None, again=True)
        )
    else:
        state.stopped_last = True
    return events


# --- resolution ---------------------------------------------------------------------------------------


def resolve(state: KkkState) -> list[Event]:
    """The reaction window closed: the pending effect (or the newest Boss card standing) takes effect."""
    pending = state.pending
    window = state.window
    state.pending = []
    state.passes = []
    top = pending[-1]
    events: list[Event] = []
    if top.kind == "boss":
        to_discard(state, [c for e in pending for c in e.cards])
        r = state.round
        assert r is not None
        if top.by == r.boss:
            events.append(public("boss_stays", boss=r.boss, window=window))
        else:
            old = r.boss
            r.boss = top.by
            state.turn = top.by
            events.append(
                public(
                    "boss_changed",
                    boss=top.by,
                    previous=old,
                    window=window,
                )
            )
            events += reopen_for_boss(state, old, top.by)
        return events
    assert top.family is not None
    if top.kind == "travel":
        r = state.round
        assert r is not None
        if top.on == "investor":
            r.travel[top.family] = top.cards[0]
            events.append(
                public(
                    "on_travel",
                    family=top.family,
                    window=window,
                )
            )
        else:
            assert top.target is not None
            r.clans[top.target].remove(top.family)
            to_discard(state, [*top.cards, clan(top.family)])
            events.append(
                public(
                    "clan_travelled",
                    seat=top.target,
                    family=top.family,
                    window=window,
                )
            )
    else:
        state.investors[top.family] = top.by
        to_discard(state, top.cards)
        events.append(
            public(
                "recruited",
                family=top.family,
                by=top.by,
                previous=top.target,
                window=window,
            )
        )
    if state.round is not None:
        events += void_unserviceable(state)
    return events
