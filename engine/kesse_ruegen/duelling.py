"""Kesse Rügen: the duel — the challenge, the two secret fists, the two guesses and the reveal. (`duel` is the
computer player's strategy for it.)

Decisions:

- Duel order: challenge → both close a fist in secret, in either order (a fist, once closed, cannot be
  changed) → only when both fists are closed, the challenger guesses publicly → the challenged guesses a
  different number → both fists open. Guesses may be any total 0–4, even one the guesser's own fist rules out.
- A correct guess of 0 gives no actions. The right guesser may be the challenged player; either way the turn
  passes clockwise from the challenger afterwards.
- A fist closed by the deadline holds a hidden random 0–2 within the supply, drawn from the game's own generator
  (so a replay draws the same), and the table is told "X's fist is closed" by exactly the event used when X chose:
  a fixed default would let the opponent know the fist before guessing. Only the duellist is told the number (and
  that the deadline chose it).
"""

from datetime import datetime

from engine.errors import rule
from engine.events import Event, private, public
from engine.kesse_ruegen import legal
from engine.kesse_ruegen.state import DuelResult, KesseRuegenState
from engine.kesse_ruegen.turns import after_action, begin_duel, end_turn, new_wait, playing


def challenge(state: KesseRuegenState, actor: int, opponent: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase == "choose" and duel is not None and duel.challenger == actor and len(playing(state)) == 2:
        raise rule("challenge_automatic", opponent=duel.challenged)
    if state.phase != "challenge" or actor != state.turn:
        raise rule("cannot_challenge_now")
    if opponent == actor:
        raise rule("challenge_yourself")
    if not 0 <= opponent < state.seats:
        raise rule("challenge_nobody")
    if not state.playing(opponent):
        raise rule("challenge_left", seat=opponent)
    return [begin_duel(state, actor, opponent, now, automatic=False, all_placed=False)]


def choose(state: KesseRuegenState, actor: int, tubers: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase != "choose" or duel is None:
        raise rule("no_fist_now")
    if actor not in duel.seats():
        raise rule("not_in_duel", challenger=duel.challenger, challenged=duel.challenged)
    if duel.choice(actor) is not None:
        raise rule("fist_closed")
    have = state.supply[actor]
    if tubers > have and have < legal.MAX_CHOICE:
        raise rule("supply_too_small", seat=actor, have=have, options=legal.choice_options(state, actor))
    if not 0 <= tubers <= legal.MAX_CHOICE:
        raise rule("choose_range", most=legal.MAX_CHOICE)
    return set_choice(state, actor, tubers, now, by_default=False)


def set_choice(state: KesseRuegenState, seat: int, tubers: int, now: datetime, *, by_default: bool) -> list[Event]:
    duel = state.duel
    assert duel is not None
    duel.set_choice(seat, tubers)
    # The public event is the same whatever the number, and whether the player or the deadline chose: only WHO
    # has a closed fist is public.
    events = [
        public("chosen", seat=seat),
        private(seat, "your_choice", seat=seat, tubers=tubers, by_default=by_default),
    ]
    if len(duel.chosen()) == 2:
        state.phase = "guess"
        new_wait(state, now)
        events.append(public("guess_now", seat=duel.challenger))
    return events


def guess(state: KesseRuegenState, actor: int, total: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase != "guess" or duel is None:
        raise rule("no_guess_now")
    guesser = duel.guesser()
    if actor != guesser:
        if actor == duel.challenged:
            raise rule("challenger_guesses_first", challenger=duel.challenger)
        raise rule("not_your_guess", seat=guesser)
    if not 0 <= total <= legal.MAX_TOTAL:
        raise rule("guess_range", most=legal.MAX_TOTAL)
    if total == duel.challenger_guess:
        raise rule("guess_taken", challenger=duel.challenger, total=total)
    return set_guess(state, total, now, by_default=False)


def set_guess(state: KesseRuegenState, total: int, now: datetime, *, by_default: bool) -> list[Event]:
    """A guess; the challenger's names the challenged player who guesses next (`next`, else None)."""
    duel = state.duel
    assert duel is not None
    guesser = duel.guesser()
    if guesser == duel.challenger:
        duel.challenger_guess = total
        new_wait(state, now)
        return [public("guessed", seat=guesser, total=total, by_default=by_default, next=duel.challenged)]
    duel.challenged_guess = total
    return [public("guessed", seat=guesser, total=total, by_default=by_default, next=None), *reveal(state, now)]


def reveal(state: KesseRuegenState, now: datetime) -> list[Event]:
    duel = state.duel
    assert duel is not None
    assert duel.challenger_choice is not None and duel.challenged_choice is not None
    assert duel.challenger_guess is not None and duel.challenged_guess is not None
    total = duel.challenger_choice + duel.challenged_choice
    winner = None
    if duel.challenger_guess == total:
        winner = duel.challenger
    elif duel.challenged_guess == total:
        winner = duel.challenged
    result = DuelResult(
        challenger=duel.challenger,
        challenged=duel.challenged,
        challenger_choice=duel.challenger_choice,
        challenged_choice=duel.challenged_choice,
        challenger_guess=duel.challenger_guess,
        challenged_guess=duel.challenged_guess,
        total=total,
        winner=winner,
    )
    state.last_duel = result
    state.duel = None
    events = [Event(kind="revealed", data=result.model_dump(mode="json"), reveals=True)]
    if winner is None or total == 0:
        events += end_turn(state, now)
        return events
    state.phase = "act"
    state.actor = winner
    state.actions_left = state.actions_total = total
    new_wait(state, now)
    events.extend(after_action(state, now))
    return events
