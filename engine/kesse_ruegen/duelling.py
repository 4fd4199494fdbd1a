"""Kesse Rügen: the duel — the challenge, the two secret fists, the two guesses and the reveal. (`duel` is the
computer player's strategy for it.)

Decisions:

- Duel order: challenge → both close a fist in secret, in either order (a fist, once closed, cannot be
  changed) → only when both fists are closed, the challenger guesses publicly → the challenged guesses a
  different number → both fists open. Guesses may be any total 0–4, even one the guesser's own fist rules out.
- A correct guess of 0 gives no actions. The right guesser may be the challenged player; either way the turn
  passes clockwise from the challenger afterwards.
- A fist closed by the deadline holds a hidden random 0–2 within the supply, drawn from the game's own generator
  (so a replay draws the same), and the table is told "X's fist is closed" in exactly the words used when X chose:
  a fixed default would let the opponent know the fist before guessing. Only the duellist is told the number (and
  that the deadline chose it).
"""

from datetime import datetime

from engine.errors import RuleError
from engine.events import Event, private, public
from engine.kesse_ruegen import legal
from engine.kesse_ruegen.state import DuelResult, KesseRuegenState
from engine.kesse_ruegen.turns import (
    FISTS,
    after_action,
    begin_duel,
    end_turn,
    new_wait,
    playing,
    plural,
    waiting_text,
)
from engine.text import seat as ref


def closed_text(seat: int) -> str:
    """What the table hears when a duellist's fist closes: the same words whoever (or whatever) chose."""
    return f"{ref(seat)}'s fist is closed."


def guess_text(seat: int, total: int) -> str:
    """The narration of a guess made by the player (not by the deadline's default)."""
    return f"{ref(seat)} guesses {total}."


def reveal_text(result: DuelResult) -> str:
    """The narration of a reveal (with seat references); also what a presentation redraws from `last_duel`."""
    text = (
        f"Fists open: {ref(result.challenger)} held {result.challenger_choice}, "
        f"{ref(result.challenged)} held {result.challenged_choice} — total {result.total}. "
    )
    if result.winner is None:
        return text + "Nobody guessed right."
    if result.total == 0:
        return text + f"{ref(result.winner)} guessed right, but a total of 0 gives no actions."
    return text + f"{ref(result.winner)} guessed right and takes {plural(result.total, 'action')}."


def challenge(state: KesseRuegenState, actor: int, opponent: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase == "choose" and duel is not None and duel.challenger == actor and len(playing(state)) == 2:
        raise RuleError(
            f"With two players the challenge is automatic: your duel with {ref(duel.challenged)} is already on — "
            "close your fist."
        )
    if state.phase != "challenge" or actor != state.turn:
        raise RuleError(f"You can't challenge anyone now — {waiting_text(state)}.")
    if opponent == actor:
        raise RuleError("You can't duel yourself — challenge one of the other players.")
    if not 0 <= opponent < state.seats:
        raise RuleError("Challenge a player who is in this game.")
    if not state.playing(opponent):
        raise RuleError(f"{ref(opponent)} has left the game — challenge a player who is still in it.")
    text = f"{ref(actor)} challenges {ref(opponent)} to a duel! {FISTS}"
    return [begin_duel(state, actor, opponent, now, text)]


def choose(state: KesseRuegenState, actor: int, tubers: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase != "choose" or duel is None:
        raise RuleError(f"There's no fist to close now — {waiting_text(state)}.")
    if actor not in duel.seats():
        raise RuleError(f"Only {ref(duel.challenger)} and {ref(duel.challenged)} are in this duel.")
    if duel.choice(actor) is not None:
        raise RuleError("Your fist is already closed — it stays as it is until the reveal.")
    have = state.supply[actor]
    if tubers > have and have < legal.MAX_CHOICE:
        allowed = " or ".join(str(n) for n in legal.choice_options(state, actor))
        raise RuleError(f"You only have {have} {state.kind(actor, have)} in your supply — choose {allowed}.")
    if not 0 <= tubers <= legal.MAX_CHOICE:
        raise RuleError("Choose 0, 1 or 2 tubers.")
    return set_choice(state, actor, tubers, now, by_default=False)


def set_choice(state: KesseRuegenState, seat: int, tubers: int, now: datetime, *, by_default: bool) -> list[Event]:
    duel = state.duel
    assert duel is not None
    duel.set_choice(seat, tubers)
    # The public text is the same whatever the number, and whether the player or the deadline chose: only WHO
    # has a closed fist is public.
    said = closed_text(seat)
    held = f"{tubers} {state.kind(seat, tubers)}"
    mine = f"Time ran out, so your fist holds {held} (a random pick)." if by_default else f"Your fist holds {held}."
    events = [
        public("chosen", said, seat=seat),
        private(seat, "your_choice", f"{mine} Secret until the reveal.", seat=seat, tubers=tubers),
    ]
    if len(duel.chosen()) == 2:
        state.phase = "guess"
        new_wait(state, now)
        ask = f"Both fists are closed. {ref(duel.challenger)}, guess the total (0–4)."
        events.append(public("guess_now", ask, seat=duel.challenger))
    return events


def guess(state: KesseRuegenState, actor: int, total: int, now: datetime) -> list[Event]:
    duel = state.duel
    if state.phase != "guess" or duel is None:
        raise RuleError(f"It's not time to guess — {waiting_text(state)}.")
    guesser = duel.guesser()
    if actor != guesser:
        if actor == duel.challenged:
            raise RuleError(f"{ref(duel.challenger)} guesses first — then it's your turn.")
        raise RuleError(f"It's {ref(guesser)}'s turn to guess.")
    if not 0 <= total <= legal.MAX_TOTAL:
        raise RuleError("Guess a total from 0 to 4.")
    if total == duel.challenger_guess:
        raise RuleError(f"{ref(duel.challenger)} already said {total} — pick a different number.")
    return set_guess(state, total, now, by_default=False)


def set_guess(state: KesseRuegenState, total: int, now: datetime, *, by_default: bool) -> list[Event]:
    duel = state.duel
    assert duel is not None
    guesser = duel.guesser()
    lead = f"Time's up: {ref(guesser)} guesses {total} by default." if by_default else guess_text(guesser, total)
    if guesser == duel.challenger:
        duel.challenger_guess = total
        new_wait(state, now)
        ask = f" {ref(duel.challenged)}, your guess — any number from 0 to 4 but {total}."
        return [public("guessed", lead + ask, seat=guesser, total=total)]
    duel.challenged_guess = total
    return [public("guessed", lead, seat=guesser, total=total), *reveal(state, now)]


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
    events = [Event(kind="revealed", text=reveal_text(result), data=result.model_dump(mode="json"), reveals=True)]
    if winner is None or total == 0:
        events += end_turn(state, now)
        return events
    state.phase = "act"
    state.actor = winner
    state.actions_left = state.actions_total = total
    new_wait(state, now)
    events.extend(after_action(state, now))
    return events
