"""Kesse Rügen: a player who leaves mid-game (a moderator's `/mod kick`, the platform's `Leave`; `remove_seat`),
which the rulebook doesn't cover. Decisions:

- With two players the game cannot go on (None: the platform ends it with the standings so far). With three or
  four, the seat is skipped in turn order from then on and can't be challenged; its pawn leaves the board (its
  field is free); its tubers stay where they are — on fields, where they still block planting and may be
  evicted like anyone's, and in the barn, where nobody can reclaim them. Tubers are conserved as ever.
- The win thresholds and supplies stay those of the starting player count (7 with four, 9 with three): the
  supplies can't change, and the smaller count's threshold may be out of reach with them (3 → 2 players would
  need 13 fields from a supply of 12). A player who left can't win; the standings rank them after everyone
  still playing.
- If they were placing their pawn, the next seat clockwise without a pawn places (or the first challenge
  begins, with the first player, or the next one clockwise if the first player left). If it was their turn to
  challenge, the turn passes clockwise. An open duel of theirs (fists or guesses still to come) is off, no fist
  is shown — the other duellist alone is told privately that their fist goes back — and the turn passes
  clockwise from the challenger. If they were taking the actions of a duel they won, the rest are lost and the
  turn passes clockwise from the challenger; if they were the challenger and the other player is acting, the
  actions go on.
"""

from datetime import datetime

from engine.errors import rule
from engine.events import private, public
from engine.game import Outcome
from engine.kesse_ruegen.board import MIN_PLAYERS
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kesse_ruegen.turns import end_turn, lose_actions, new_wait, start_turn


def remove_seat(state: KesseRuegenState, seat: int, now: datetime) -> Outcome[KesseRuegenState] | None:
    """A player leaves mid-game (`/mod kick`); see the module docstring. None with fewer than two left."""
    if state.phase == "over":
        raise rule("game_over_no_leaving")
    if not state.playing(seat):
        raise rule("already_left", seat=seat)
    if state.seats - len(state.left) - 1 < MIN_PLAYERS:
        return None
    state.left.append(seat)
    state.pawns[seat] = None
    placed = state.fields_of(seat) + state.barn_tubers[seat]
    events = [public("left", seat=seat, stay=bool(placed))]
    duel = state.duel
    match state.phase:
        case "place" if seat == state.turn:
            nxt = state.next_seat(seat)
            if state.pawns[nxt] is None:
                state.turn = nxt
                new_wait(state, now)
                events.append(public("turn", seat=nxt, step="place", all_placed=False))
            else:
                first = state.first if state.playing(state.first) else state.next_seat(state.first)
                events += start_turn(state, first, now, all_placed=True)
        case "challenge" if seat == state.turn:
            events += end_turn(state, now)
        case "choose" | "guess" if duel is not None and seat in duel.seats():
            other = duel.challenged if seat == duel.challenger else duel.challenger
            off = public("duel_off", seat=seat, other=other, challenger=duel.challenger, challenged=duel.challenged)
            events.append(off)
            held = duel.choice(other)
            if held is not None:  # the fist goes back unseen: its owner's hand must stop showing it
                events.append(private(other, "your_fist_back", seat=other, tubers=held))
            state.duel = None
            events += start_turn(state, state.next_seat(duel.challenger), now)
        case "act" if seat == state.actor:
            events.extend(lose_actions(state, now, "left"))
        case "challenge":
            # Someone else's turn to challenge: with two players left it is automatic now, and without their
            # tubers nobody may have one left in supply.
            events += start_turn(state, state.turn, now)
    return Outcome(state=state, events=events)
