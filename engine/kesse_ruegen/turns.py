"""Kesse Rügen: the turn cycle every rule ends in — a turn begins (with two players, its duel at once), ends, or
ends the game when no supply is left — and the small pieces all rules share (a new wait). Events carry codes and
values only: the words are the presentation's (`bot/games/kesse_ruegen/`).

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


def new_wait(state: KesseRuegenState, now: datetime) -> None:
    state.wait_no += 1
    state.since = now


def playing(state: KesseRuegenState) -> list[int]:
    return [s for s in range(state.seats) if state.playing(s)]


def begin_duel(
    state: KesseRuegenState, challenger: int, opponent: int, now: datetime, *, automatic: bool, all_placed: bool
) -> Event:
    """The duel is on. `automatic`: with two players nobody chose the opponent; `all_placed`: the last pawn was just
    placed (the words say so)."""
    state.duel = Duel(challenger=challenger, challenged=opponent)
    state.duels += 1
    state.phase = "choose"
    new_wait(state, now)
    return public("challenged", challenger=challenger, challenged=opponent, automatic=automatic, all_placed=all_placed)


def start_turn(state: KesseRuegenState, seat: int, now: datetime, *, all_placed: bool = False) -> list[Event]:
    """A new turn: the game ends if no supply is left; with two players the duel starts at once. `all_placed`: the
    turn follows the last pawn's placement (its event says so)."""
    state.turn = seat
    state.duel = None
    state.actor = None
    state.actions_left = state.actions_total = 0
    if not any(state.supply[s] for s in range(state.seats) if state.playing(s)):
        return [stalled(state, all_placed=all_placed)]
    if len(playing(state)) == 2:
        opponent = state.next_seat(seat)
        return [begin_duel(state, seat, opponent, now, automatic=True, all_placed=all_placed)]
    state.phase = "challenge"
    new_wait(state, now)
    return [public("turn", seat=seat, step="challenge", all_placed=all_placed)]


def end_turn(state: KesseRuegenState, now: datetime) -> list[Event]:
    """The turn passes clockwise from the player who challenged (or failed to)."""
    return start_turn(state, state.next_seat(state.turn), now)


def stalled(state: KesseRuegenState, *, all_placed: bool = False) -> Event:
    """No player still in the game has a tuber in supply: the game ends; most fields wins, equal counts share."""
    fields = {s: state.fields_of(s) for s in range(state.seats) if state.playing(s)}
    best = max(fields.values())
    winners = [s for s, n in fields.items() if n == best]
    state.phase = "over"
    state.stalled = True
    state.winners = winners
    state.winner = winners[0] if len(winners) == 1 else None
    return public("stalled", winners=winners, fields=best, all_placed=all_placed)


def after_action(state: KesseRuegenState, now: datetime) -> list[Event]:
    """End the turn when the actions are used up or none is legal; otherwise keep waiting."""
    assert state.actor is not None
    if state.actions_left == 0:
        return end_turn(state, now)
    if not legal.field_actions(state, state.actor):
        return lose_actions(state, now, "no_action")
    return []


def lose_actions(state: KesseRuegenState, now: datetime, why: str) -> list[Event]:
    """The actor's remaining actions are lost; `why` is "no_action" (none is legal), "timeout" or "left"."""
    assert state.actor is not None
    lost = state.actions_left
    event = public("actions_lost", seat=state.actor, lost=lost, why=why)
    return [event, *end_turn(state, now)]
