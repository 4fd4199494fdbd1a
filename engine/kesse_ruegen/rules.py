"""Kesse Rügen (Dijkstra & Van Dijk, Mental Works 2015): the rules as the bot plays them.

See `docs/rules/kesse_ruegen.md`. Decisions where the rules are silent:

- Squares are named like a chessboard, a1 (bottom left) to e5; the barn is c3 (see `geometry`).
- The first player (options.first_seat, else drawn at random) places first; pawns are placed clockwise from
  them, one each, and then the first player makes the first challenge.
- Duel order: challenge → both close a fist in secret, in either order (a fist, once closed, cannot be
  changed) → only when both fists are closed, the challenger guesses publicly → the challenged guesses a
  different number → both fists open. Guesses may be any total 0–4, even one the guesser's own fist rules out.
- A correct guess of 0 gives no actions. The right guesser may be the challenged player; either way the turn
  passes clockwise from the challenger afterwards.
- A player must take all their actions. When none is legal (e.g. a pawn boxed in on its own tuber), the game
  says so and ends the turn at once: the rest are lost. `Done` is refused while any action is legal.
- The win is checked after every action; only planting can complete it, and the game ends on the spot.
- Deadlines (see `waits`): each wait lasts `turn_deadline` from when it began; the deadline of the actions
  restarts with every action taken. A `Timeout` carries its wait's key and is refused once stale.
- A fist closed by the deadline holds a hidden random 0–2 within the supply, drawn from the game's own generator
  (so a replay draws the same), and the table is told "X's fist is closed" in exactly the words used when X chose:
  a fixed default would let the opponent know the fist before guessing. Only the duellist is told the number (and
  that the deadline chose it).
- Two players: there is only one opponent, so a turn starts with the duel already challenged (no `Challenge`, no
  challenge deadline). Also when a third player leaves and two remain.
- No dead end: when no player still in the game has a tuber left in supply, every duel would total 0 and nobody
  could act again, so the game ends as the next turn would begin; the player with tubers on the most fields wins,
  equal counts share the win (`winners`, `stalled`). Checked when a turn begins: a player still taking actions may
  yet reclaim a tuber from the barn.
- A player who leaves mid-game (a moderator's `/mod kick`, the platform's `Leave`; `remove_seat`), which the
  rulebook doesn't cover:
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
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, TypeAdapter

from engine.data import replacement
from engine.errors import RuleError
from engine.events import Event, Wait, private, public
from engine.game import Game, Outcome, Result, Standing, rank_by_score
from engine.kesse_ruegen import geometry, legal, waits
from engine.kesse_ruegen.actions import (
    ACTION_ADAPTER,
    Challenge,
    Choose,
    Done,
    Evict,
    Guess,
    Move,
    Place,
    Plant,
    Reclaim,
    Timeout,
)
from engine.kesse_ruegen.board import MAX_PLAYERS, MIN_PLAYERS, Board, PlayerCount, default_board, load_board
from engine.kesse_ruegen.options import KesseRuegenOptions
from engine.kesse_ruegen.state import Duel, DuelResult, KesseRuegenState
from engine.kesse_ruegen.views import public_view, seat_view
from engine.rng import Rng
from engine.text import seat as ref


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


FISTS = "Both of you: secretly close your fist on 0, 1 or 2 tubers."


def closed_text(seat: int) -> str:
    """What the table hears when a duellist's fist closes: the same words whoever (or whatever) chose."""
    return f"{ref(seat)}'s fist is closed."


def _won(state: KesseRuegenState) -> str:
    winners = state.winners or ([state.winner] if state.winner is not None else [])
    if len(winners) == 1:
        return f"{ref(winners[0])} won"
    return " and ".join(ref(w) for w in winners) + " share the win"


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
    return text + f"{ref(result.winner)} guessed right and takes {_plural(result.total, 'action')}."


def _ranked(state: KesseRuegenState, reason: str) -> Result:
    """Fields held, best first; seats whose player left come after everyone still playing (their tubers may still
    lie on the board, but a player who left can't win or place)."""
    playing = rank_by_score({s: state.fields_of(s) for s in range(state.seats) if state.playing(s)}, reason=reason)
    standings = list(playing.standings)
    gone = rank_by_score({s: state.fields_of(s) for s in state.left})
    standings += [Standing(seat=g.seat, score=g.score, rank=len(playing.standings) + g.rank) for g in gone.standings]
    return Result(standings=tuple(standings), reason=reason)


class KesseRuegen(Game[KesseRuegenState, KesseRuegenOptions]):
    name: ClassVar[str] = "kesse_ruegen"
    title: ClassVar[str] = "Kesse Rügen"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    summary: ClassVar[str] = (
        "Plant your tubers on the 5×5 field. Each turn, challenge a player to a duel: both hide 0–2 tubers in a "
        "fist, both guess the total (different numbers). Guess right and take that many actions: plant, move, "
        "evict a rival's tuber to the barn, reclaim your own. First with tubers on 13 / 9 / 7 fields wins."
    )
    uses_reaction_time: ClassVar[bool] = False
    state_model: ClassVar[type[BaseModel]] = KesseRuegenState
    options_model: ClassVar[type[KesseRuegenOptions]] = KesseRuegenOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    data_files: ClassVar[tuple[str, ...]] = ("board.toml",)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else default_board()

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """Kesse Rügen with a server owner's `board.toml` from `folder` (else the packaged board). Raises
        `DataFileError` naming the file and the field. The board's numbers are copied into each game at set-up."""
        board = replacement(folder, "board.toml")
        return cls(load_board(board) if board is not None else None)

    def for_state(self, state: KesseRuegenState) -> Self:
        """The game whose board gives `state`'s numbers at set-up (to replay it after the board file changed)."""
        kinds = list(state.kinds) + list(self.board.kinds[state.seats :])
        counts = PlayerCount(supply=state.start_supply, win_fields=state.win_fields)
        board = self.board.model_copy(
            update={
                "size": state.size,
                "barn": state.barn,
                "players": {**self.board.players, state.seats: counts},
                "kinds": kinds,
            }
        )
        return self if board == self.board else type(self)(board)

    # --- set-up ---------------------------------------------------------------------------------------

    def setup(self, seats: int, options: KesseRuegenOptions, seed: int, now: datetime) -> KesseRuegenState:
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise RuleError(f"Kesse Rügen is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats}.")
        rng = Rng.from_seed(seed)
        if options.first_seat is None:
            first = rng.below(seats)
        elif options.first_seat < seats:
            first = options.first_seat
        else:
            raise RuleError(f"The first player must be one of the {seats} seats.")
        counts = self.board.players[seats]
        return KesseRuegenState(
            options=options,
            seats=seats,
            size=self.board.size,
            barn=self.board.barn,
            start_supply=counts.supply,
            win_fields=counts.win_fields,
            kinds=list(self.board.kinds[:seats]),
            first=first,
            turn=first,
            pawns=[None] * seats,
            supply=[counts.supply] * seats,
            barn_tubers=[0] * seats,
            since=now,
            rng=rng,
        )

    # --- apply ----------------------------------------------------------------------------------------

    def step(self, state: KesseRuegenState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.phase == "over":
            raise RuleError(f"The game is over — {_won(state)}.")
        if isinstance(action, Timeout):
            if actor is not None:
                raise RuleError("Only the game's clock applies deadlines.")
            return self._timeout(state, action.key, now)
        if actor is None:
            raise RuleError("The game's clock can only apply deadlines.")
        if not 0 <= actor < state.seats:
            raise RuleError("You're not playing in this game.")
        match action:
            case Place():
                return self._place(state, actor, action.square, now)
            case Challenge():
                return self._challenge(state, actor, action.opponent, now)
            case Choose():
                return self._choose(state, actor, action.tubers, now)
            case Guess():
                return self._guess(state, actor, action.total, now)
            case Plant() | Move() | Evict() | Reclaim():
                return self._act(state, actor, action, now)
            case Done():
                return self._done(state, actor, now)
        raise RuleError("That's not a Kesse Rügen move.")

    # --- set-up: pawns --------------------------------------------------------------------------------

    def _place(self, state: KesseRuegenState, actor: int, text: str, now: datetime) -> list[Event]:
        if state.phase != "place":
            raise RuleError(f"All pawns are already placed — {self._waiting_text(state)}.")
        if actor != state.turn:
            raise RuleError(f"It's {ref(state.turn)}'s turn to place a pawn — yours comes in seat order.")
        square = geometry.parse(text, state.size)
        if square is None:
            raise RuleError(f"There's no square '{text.strip()}' — the board runs a1 to {geometry.last(state.size)}.")
        if square == state.barn:
            raise RuleError(f"{square} is the barn — start your pawn on a field.")
        other = state.pawn_at(square)
        if other is not None:
            raise RuleError(f"{ref(other)}'s pawn already stands on {square} — pick a free field.")
        return self._put_pawn(state, actor, square, now, by_default=False)

    def _put_pawn(
        self, state: KesseRuegenState, seat: int, square: str, now: datetime, *, by_default: bool
    ) -> list[Event]:
        state.pawns[seat] = square
        lead = f"Time's up: {ref(seat)}'s pawn goes to a random free field, {square}." if by_default else ""
        events = [public("placed", lead or f"{ref(seat)} places their pawn on {square}.", seat=seat, square=square)]
        nxt = state.next_seat(seat)
        if state.pawns[nxt] is None:
            state.turn = nxt
            events.append(public("turn", f"{ref(nxt)}, place your pawn on a free field.", seat=nxt))
            self._new_wait(state, now)
        else:
            first = state.first if state.playing(state.first) else state.next_seat(state.first)
            events += self._start_turn(state, first, now, "All pawns are placed. ")
        return events

    # --- the duel -------------------------------------------------------------------------------------

    def _challenge(self, state: KesseRuegenState, actor: int, opponent: int, now: datetime) -> list[Event]:
        duel = state.duel
        if state.phase == "choose" and duel is not None and duel.challenger == actor and len(self._playing(state)) == 2:
            raise RuleError(
                f"With two players the challenge is automatic: your duel with {ref(duel.challenged)} is already on — "
                "close your fist."
            )
        if state.phase != "challenge" or actor != state.turn:
            raise RuleError(f"You can't challenge anyone now — {self._waiting_text(state)}.")
        if opponent == actor:
            raise RuleError("You can't duel yourself — challenge one of the other players.")
        if not 0 <= opponent < state.seats:
            raise RuleError("Challenge a player who is in this game.")
        if not state.playing(opponent):
            raise RuleError(f"{ref(opponent)} has left the game — challenge a player who is still in it.")
        text = f"{ref(actor)} challenges {ref(opponent)} to a duel! {FISTS}"
        return [self._begin_duel(state, actor, opponent, now, text)]

    def _begin_duel(self, state: KesseRuegenState, challenger: int, opponent: int, now: datetime, text: str) -> Event:
        state.duel = Duel(challenger=challenger, challenged=opponent)
        state.duels += 1
        state.phase = "choose"
        self._new_wait(state, now)
        return public("challenged", text, challenger=challenger, challenged=opponent)

    def _choose(self, state: KesseRuegenState, actor: int, tubers: int, now: datetime) -> list[Event]:
        duel = state.duel
        if state.phase != "choose" or duel is None:
            raise RuleError(f"There's no fist to close now — {self._waiting_text(state)}.")
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
        return self._set_choice(state, actor, tubers, now, by_default=False)

    def _set_choice(
        self, state: KesseRuegenState, seat: int, tubers: int, now: datetime, *, by_default: bool
    ) -> list[Event]:
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
            self._new_wait(state, now)
            ask = f"Both fists are closed. {ref(duel.challenger)}, guess the total (0–4)."
            events.append(public("guess_now", ask, seat=duel.challenger))
        return events

    def _guess(self, state: KesseRuegenState, actor: int, total: int, now: datetime) -> list[Event]:
        duel = state.duel
        if state.phase != "guess" or duel is None:
            raise RuleError(f"It's not time to guess — {self._waiting_text(state)}.")
        guesser = duel.guesser()
        if actor != guesser:
            if actor == duel.challenged:
                raise RuleError(f"{ref(duel.challenger)} guesses first — then it's your turn.")
            raise RuleError(f"It's {ref(guesser)}'s turn to guess.")
        if not 0 <= total <= legal.MAX_TOTAL:
            raise RuleError("Guess a total from 0 to 4.")
        if total == duel.challenger_guess:
            raise RuleError(f"{ref(duel.challenger)} already said {total} — pick a different number.")
        return self._set_guess(state, total, now, by_default=False)

    def _set_guess(self, state: KesseRuegenState, total: int, now: datetime, *, by_default: bool) -> list[Event]:
        duel = state.duel
        assert duel is not None
        guesser = duel.guesser()
        lead = f"Time's up: {ref(guesser)} guesses {total} by default." if by_default else guess_text(guesser, total)
        if guesser == duel.challenger:
            duel.challenger_guess = total
            self._new_wait(state, now)
            ask = f" {ref(duel.challenged)}, your guess — any number from 0 to 4 but {total}."
            return [public("guessed", lead + ask, seat=guesser, total=total)]
        duel.challenged_guess = total
        return [public("guessed", lead, seat=guesser, total=total), *self._reveal(state, now)]

    def _reveal(self, state: KesseRuegenState, now: datetime) -> list[Event]:
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
            events += self._end_turn(state, now)
            return events
        state.phase = "act"
        state.actor = winner
        state.actions_left = state.actions_total = total
        self._new_wait(state, now)
        events.extend(self._after_action(state, now))
        return events

    # --- actions --------------------------------------------------------------------------------------

    def _act(self, state: KesseRuegenState, actor: int, action: Any, now: datetime) -> list[Event]:
        if state.phase != "act" or actor != state.actor:
            raise RuleError(f"You have no actions to take — {self._waiting_text(state)}.")
        at = state.pawns[actor]
        assert at is not None
        match action:
            case Plant():
                self._refuse(legal.why_not_plant(state, actor))
                state.tubers[at] = actor
                state.supply[actor] -= 1
                text = f"{ref(actor)} plants a {state.kind(actor)} on {at}"
                event = public("planted", text, seat=actor, square=at)
            case Move():
                self._refuse(legal.why_not_move(state, actor, action.direction))
                target = geometry.neighbour(at, action.direction, state.size)
                assert target is not None
                state.pawns[actor] = target
                into = "into the barn" if target == state.barn else f"to {target}"
                text = f"{ref(actor)} moves {geometry.ARROWS[action.direction]} {into}"
                event = public("moved", text, seat=actor, source=at, target=target)
            case Evict():
                self._refuse(legal.why_not_evict(state, actor))
                owner = state.tubers.pop(at)
                state.barn_tubers[owner] += 1
                text = f"{ref(actor)} evicts {ref(owner)}'s {state.kind(owner)} from {at} to the barn"
                event = public("evicted", text, seat=actor, owner=owner, square=at)
            case Reclaim():
                self._refuse(legal.why_not_reclaim(state, actor))
                state.barn_tubers[actor] -= 1
                state.supply[actor] += 1
                text = f"{ref(actor)} takes a {state.kind(actor)} from the barn back to their supply"
                event = public("reclaimed", text, seat=actor)
            case _:
                raise RuleError("That's not an action.")
        state.actions_left -= 1
        fields = state.fields_of(actor)
        if fields >= state.win_fields:
            return [public(event.kind, event.text + ".", **event.data), self._win(state, actor, fields)]
        left = state.actions_left
        tail = f" ({_plural(left, 'action')} left)." if left else "."
        events = [public(event.kind, event.text + tail, **event.data, left=left)]
        self._new_wait(state, now)
        events.extend(self._after_action(state, now))
        return events

    def _after_action(self, state: KesseRuegenState, now: datetime) -> list[Event]:
        """End the turn when the actions are used up or none is legal; otherwise keep waiting."""
        assert state.actor is not None
        if state.actions_left == 0:
            return self._end_turn(state, now)
        if not legal.field_actions(state, state.actor):
            return self._lose_actions(state, now, f"{ref(state.actor)} has no legal action left")
        return []

    def _lose_actions(self, state: KesseRuegenState, now: datetime, why: str) -> list[Event]:
        assert state.actor is not None
        lost = state.actions_left
        event = public("actions_lost", f"{why} — {_plural(lost, 'action')} lost.", seat=state.actor, lost=lost)
        return [event, *self._end_turn(state, now)]

    def _done(self, state: KesseRuegenState, actor: int, now: datetime) -> list[Event]:
        if state.phase != "act" or actor != state.actor:
            raise RuleError(f"You have nothing to finish — {self._waiting_text(state)}.")
        if legal.field_actions(state, actor):
            raise RuleError(
                f"You must take all your actions — {_plural(state.actions_left, 'action')} left. "
                "Done is only for when none is possible."
            )
        return self._lose_actions(state, now, f"{ref(actor)} has no legal action left")

    def _win(self, state: KesseRuegenState, seat: int, fields: int) -> Event:
        state.phase = "over"
        state.winner = seat
        state.winners = [seat]
        state.actions_left = 0
        text = f"{ref(seat)} has {state.kind(seat, 2)} on {fields} fields and wins Kesse Rügen!"
        return public("won", text, seat=seat, fields=fields)

    # --- turns and deadlines --------------------------------------------------------------------------

    def _end_turn(self, state: KesseRuegenState, now: datetime) -> list[Event]:
        """The turn passes clockwise from the player who challenged (or failed to)."""
        return self._start_turn(state, state.next_seat(state.turn), now, "")

    def _start_turn(self, state: KesseRuegenState, seat: int, now: datetime, lead: str) -> list[Event]:
        """A new turn: the game ends if no supply is left; with two players the duel starts at once."""
        state.turn = seat
        state.duel = None
        state.actor = None
        state.actions_left = state.actions_total = 0
        if not any(state.supply[s] for s in range(state.seats) if state.playing(s)):
            return [self._stalled(state, lead)]
        if len(self._playing(state)) == 2:
            opponent = state.next_seat(seat)
            text = f"{lead}{ref(seat)}'s turn: the duel with {ref(opponent)} is on (the only opponent). {FISTS}"
            return [self._begin_duel(state, seat, opponent, now, text)]
        state.phase = "challenge"
        self._new_wait(state, now)
        return [public("turn", f"{lead}{ref(seat)}, it's your turn: challenge another player to a duel.", seat=seat)]

    @staticmethod
    def _playing(state: KesseRuegenState) -> list[int]:
        return [s for s in range(state.seats) if state.playing(s)]

    def _stalled(self, state: KesseRuegenState, lead: str) -> Event:
        """No player still in the game has a tuber in supply: the game ends; most fields wins, equal counts share."""
        fields = {s: state.fields_of(s) for s in range(state.seats) if state.playing(s)}
        best = max(fields.values())
        winners = [s for s, n in fields.items() if n == best]
        state.phase = "over"
        state.stalled = True
        state.winners = winners
        state.winner = winners[0] if len(winners) == 1 else None
        on = f"tubers on {_plural(best, 'field')}"
        if len(winners) == 1:
            result = f"{ref(winners[0])} has the most fields — {on} — and wins Kesse Rügen!"
        else:
            who = ", ".join(ref(w) for w in winners[:-1]) + f" and {ref(winners[-1])}"
            result = f"{who} share the win, each with {on}."
        text = f"{lead}No player has a tuber left in their supply, so every duel would total 0: the game ends. {result}"
        return public("stalled", text, winners=winners, fields=best)

    def _new_wait(self, state: KesseRuegenState, now: datetime) -> None:
        state.wait_no += 1
        state.since = now

    def _timeout(self, state: KesseRuegenState, key: str, now: datetime) -> list[Event]:
        due = next((p for p in waits.pending(state) if p.key == key), None)
        if due is None:
            raise RuleError("That deadline has passed its moment — the game has moved on.")
        seat = due.seat
        match due.what:
            case "place":
                square = state.rng.choice(legal.free_fields(state))
                return self._put_pawn(state, seat, square, now, by_default=True)
            case "challenge":
                lost = public("timeout", f"Time's up: {ref(seat)} challenged nobody, so the turn passes.", seat=seat)
                return [lost, *self._end_turn(state, now)]
            case "choose":
                # A hidden random pick, never a fixed default the opponent could count on.
                tubers = state.rng.choice(legal.choice_options(state, seat))
                return self._set_choice(state, seat, tubers, now, by_default=True)
            case "guess":
                return self._set_guess(state, legal.guess_options(state)[0], now, by_default=True)
            case "act":
                return self._lose_actions(state, now, f"Time's up for {ref(seat)}")
        raise AssertionError(f"unknown wait {due.what}")

    def _waiting_text(self, state: KesseRuegenState) -> str:
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

    @staticmethod
    def _refuse(problem: str | None) -> None:
        if problem is not None:
            raise RuleError(problem)

    # --- queries --------------------------------------------------------------------------------------

    def rng_state(self, state: KesseRuegenState) -> int:
        return state.rng.state

    def view(self, state: KesseRuegenState, seat: int | None) -> BaseModel:
        return public_view(state) if seat is None else seat_view(state, seat)

    def legal_actions(self, state: KesseRuegenState, seat: int | None) -> list[Any]:
        return legal.legal_actions(state, seat)

    def waiting_on(self, state: KesseRuegenState) -> list[Wait]:
        return waits.waiting_on(state)

    def standings(self, state: KesseRuegenState) -> Result:
        """Standings now: fields held (the final result once someone has won)."""
        final = self.result(state)
        if final is not None:
            return final
        return _ranked(state, "ended early")

    def result(self, state: KesseRuegenState) -> Result | None:
        if state.stalled:
            best = state.fields_of(state.winners[0])
            return _ranked(state, f"no tubers left in any supply; most fields ({best}) wins")
        if state.winner is None:
            return None
        result = _ranked(state, f"{ref(state.winner)} has tubers on {state.fields_of(state.winner)} fields")
        assert result.winners == (state.winner,)
        return result

    # --- a player leaves --------------------------------------------------------------------------------

    def remove_seat(self, state: KesseRuegenState, seat: int, now: datetime) -> Outcome[KesseRuegenState] | None:
        """A player leaves mid-game (`/mod kick`); see the module docstring. None with fewer than two left."""
        if state.phase == "over":
            raise RuleError("The game is over — nobody needs to leave it.")
        if not state.playing(seat):
            raise RuleError(f"{ref(seat)} has already left the game.")
        if state.seats - len(state.left) - 1 < MIN_PLAYERS:
            return None
        state.left.append(seat)
        state.pawns[seat] = None
        placed = state.fields_of(seat) + state.barn_tubers[seat]
        stay = f"; their {state.kind(seat, 2)} stay where they are" if placed else ""
        events = [public("left", f"{ref(seat)} has left the game: their pawn leaves the board{stay}.", seat=seat)]
        duel = state.duel
        match state.phase:
            case "place" if seat == state.turn:
                nxt = state.next_seat(seat)
                if state.pawns[nxt] is None:
                    state.turn = nxt
                    self._new_wait(state, now)
                    events.append(public("turn", f"{ref(nxt)}, place your pawn on a free field.", seat=nxt))
                else:
                    first = state.first if state.playing(state.first) else state.next_seat(state.first)
                    events += self._start_turn(state, first, now, "All pawns are placed. ")
            case "challenge" if seat == state.turn:
                events += self._end_turn(state, now)
            case "choose" | "guess" if duel is not None and seat in duel.seats():
                other = duel.challenged if seat == duel.challenger else duel.challenger
                text = f"The duel between {ref(duel.challenger)} and {ref(duel.challenged)} is off; no fist is shown."
                events.append(public("duel_off", text, seat=seat, other=other))
                held = duel.choice(other)
                if held is not None:  # the fist goes back unseen: its owner's hand must stop showing it
                    note = f"Your duel is off: your fist of {held} {state.kind(other, held)} goes back unseen."
                    events.append(private(other, "your_fist_back", note, seat=other))
                state.duel = None
                events += self._start_turn(state, state.next_seat(duel.challenger), now, "")
            case "act" if seat == state.actor:
                events.extend(self._lose_actions(state, now, f"{ref(seat)} has left"))
            case "challenge":
                # Someone else's turn to challenge: with two players left it is automatic now, and without their
                # tubers nobody may have one left in supply.
                events += self._start_turn(state, state.turn, now, "")
        return Outcome(state=state, events=events)
