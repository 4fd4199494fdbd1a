"""Kesse Rügen: the turn cycle every rule ends in — a turn begins (with two players, its duel at once), ends, or
ends the game when no supply is left — and the small pieces all rules share (a new wait, refusals that say what
the game waits for).

Decisions:

- Two players: there is only one opponent, so a turn starts with the duel already challenged (no `Challenge`, no
  challenge deadline). Also when a third player leaves and two remain.
- No dead end: when no player still in the game has a tuber left in supply, every duel would total 0 and nobody
  could act again, so the game ends as the next turn would begin; the player with tubers on the most fields wins,
  equal counts share the win (`winners`, `stalled`). Checked when a turn begins: a player still taking actions may
  yet reclaim a tuber from the barn.
"""

from datetime import datetime

from engine.events import Event, public
from engine.kesse_ruegen import legal
from engine.kesse_ruegen.state import Duel, KesseRuegenState
from engine.text import seat as ref

FISTS = "Both of you: secretly close your fist on 0, 1 or 2 tubers."


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def won_text(state: KesseRuegenState) -> str:
    winners = state.winners or ([state.winner] if state.winner is not None else [])
    if len(winners) == 1:
        return f"{ref(winners[0])} won"
    return " and ".join(ref(w) for w in winners) + " share the win"


def new_wait(state: KesseRuegenState, now: datetime) -> None:
    state.wait_no += 1
    state.since = now


def playing(state: KesseRuegenState) -> list[int]:
    return [s for s in range(state.seats) if state.playing(s)]


def begin_duel(state: KesseRuegenState, challenger: int, opponent: int, now: datetime, text: str) -> Event:
    state.duel = Duel(challenger=challenger, challenged=opponent)
    state.duels += 1
    state.phase = "choose"
    new_wait(state, now)
    return public("challenged", text, challenger=challenger, challenged=opponent)


def start_turn(state: KesseRuegenState, seat: int, now: datetime, lead: str) -> list[Event]:
    """A new turn: the game ends if no supply is left; with two players the duel starts at once."""
    state.turn = seat
    state.duel = None
    state.actor = None
    state.actions_left = state.actions_total = 0
    if not any(state.supply[s] for s in range(state.seats) if state.playing(s)):
        return [stalled(state, lead)]
    if len(playing(state)) == 2:
        opponent = state.next_seat(seat)
        text = f"{lead}{ref(seat)}'s turn: the duel with {ref(opponent)} is on (the only opponent). {FISTS}"
        return [begin_duel(state, seat, opponent, now, text)]
    state.phase = "challenge"
    new_wait(state, now)
    return [public("turn", f"{lead}{ref(seat)}, it's your turn: challenge another player to a duel.", seat=seat)]


def end_turn(state: KesseRuegenState, now: datetime) -> list[Event]:
    """The turn passes clockwise from the player who challenged (or failed to)."""
    return start_turn(state, state.next_seat(state.turn), now, "")


def stalled(state: KesseRuegenState, lead: str) -> Event:
    """No player still in the game has a tuber in supply: the game ends; most fields wins, equal counts share."""
    fields = {s: state.fields_of(s) for s in range(state.seats) if state.playing(s)}
    best = max(fields.values())
    winners = [s for s, n in fields.items() if n == best]
    state.phase = "over"
    state.stalled = True
    state.winners = winners
    state.winner = winners[0] if len(winners) == 1 else None
    on = f"tubers on {plural(best, 'field')}"
    if len(winners) == 1:
        result = f"{ref(winners[0])} has the most fields — {on} — and wins Kesse Rügen!"
    else:
        who = ", ".join(ref(w) for w in winners[:-1]) + f" and {ref(winners[-1])}"
        result = f"{who} share the win, each with {on}."
    text = f"{lead}No player has a tuber left in their supply, so every duel would total 0: the game ends. {result}"
    return public("stalled", text, winners=winners, fields=best)


def after_action(state: KesseRuegenState, now: datetime) -> list[Event]:
    """End the turn when the actions are used up or none is legal; otherwise keep waiting."""
    assert state.actor is not None
    if state.actions_left == 0:
        return end_turn(state, now)
    if not legal.field_actions(state, state.actor):
        return lose_actions(state, now, f"{ref(state.actor)} has no legal action left")
    return []


def lose_actions(state: KesseRuegenState, now: datetime, why: str) -> list[Event]:
    assert state.actor is not None
    lost = state.actions_left
    event = public("actions_lost", f"{why} — {plural(lost, 'action')} lost.", seat=state.actor, lost=lost)
    return [event, *end_turn(state, now)]


def waiting_text(state: KesseRuegenState) -> str:
    """What the game is waiting for, for refusals (public knowledge only)."""
    duel = state.duel
    match state.phase:
        case "place":
            return f"it's {ref(state.turn)}'s turn to place a pawn"
        case "challenge":
            return f"it's {ref(state.turn)}'s turn to challenge someone"
        case "choose":
            assert duel is not None
            still = [ref(s) for s in duel.seats() if duel.choice(s) is None]
            return f"waiting for {' and '.join(still)} to close their fist"
        case "guess":
            assert duel is not None
            return f"it's {ref(duel.guesser())}'s turn to guess"
        case "act":
            assert state.actor is not None
            return f"{ref(state.actor)} is taking their actions"
    return "the game is over"
