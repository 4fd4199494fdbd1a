"""A small test-only game that exercises everything the platform must handle, without any real game's rules.

"Toy": each player holds a private hand of numbered cards (so DMs matter). On your turn you play a card face up
(it scores its number) or draw a random card from the deck (randomness). A played card opens a reaction window:
every other player may pass or STOP it (a stopped card goes back to its owner's hand). The window closes when all
have passed or the reaction time runs out (a system action); a turn not taken by the deadline is skipped (a system
action). The first to reach the target score, or to empty their hand, ends the game. A player who leaves is
dropped from the rotation while two remain.
"""

from datetime import datetime, timedelta
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engine.errors import RuleError
from engine.events import Event, Wait, private, public
from engine.game import Game, Outcome, Result, rank_by_score
from engine.options import GameOptions
from engine.rng import Rng
from engine.text import seat as ref


class ToyOptions(GameOptions):
    hand_size: int = Field(default=3, ge=1, le=10)
    target: int = Field(default=15, ge=1)


class Window(BaseModel):
    number: int
    player: int
    card: int
    since: datetime
    waiting: list[int]


class ToyState(BaseModel):
    seats: int
    options: ToyOptions
    rng: Rng
    deck: list[int]
    hands: list[list[int]]
    scores: list[int]
    active: list[bool]
    turn: int = 0
    turn_no: int = 0
    turn_since: datetime
    window: Window | None = None
    windows: int = 0
    over: bool = False


class Play(BaseModel):
    type: Literal["play"] = "play"
    card: int


class Draw(BaseModel):
    type: Literal["draw"] = "draw"


class Pass(BaseModel):
    type: Literal["pass"] = "pass"


class Stop(BaseModel):
    type: Literal["stop"] = "stop"


class TurnTimeout(BaseModel):
    type: Literal["turn_timeout"] = "turn_timeout"
    turn_no: int


class WindowTimeout(BaseModel):
    type: Literal["window_timeout"] = "window_timeout"
    window: int


Action = Annotated[Play | Draw | Pass | Stop | TurnTimeout | WindowTimeout, Field(discriminator="type")]


class ToyView(BaseModel):
    seat: int | None
    hand: list[int] | None
    scores: list[int]
    hand_sizes: list[int]
    deck_size: int
    turn: int
    open_card: int | None


TOY_WINDOW = timedelta(minutes=10)
"""The toy's one kind of reaction window and its default length (short: the toy is for tests that run minutes)."""


class Toy(Game[ToyState, ToyOptions]):
    name = "toy"
    title = "Toy"
    min_seats = 2
    max_seats = 5
    reaction_windows: ClassVar[dict[str, timedelta]] = {"stop": TOY_WINDOW}
    summary = "Play a card to score it, or draw one. Others may STOP a played card. First to the target wins."
    state_model = ToyState
    options_model = ToyOptions
    action_adapter = TypeAdapter(Action)

    def setup(self, seats: int, options: ToyOptions, seed: int, now: datetime) -> ToyState:
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleError(f"Toy needs {self.min_seats}–{self.max_seats} players.")
        rng = Rng.from_seed(seed)
        deck = [n for n in range(1, 10) for _ in range(3)]
        rng.shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(options.hand_size)) for _ in range(seats)]
        return ToyState(
            seats=seats,
            options=options,
            rng=rng,
            deck=deck,
            hands=hands,
            scores=[0] * seats,
            active=[True] * seats,
            turn_since=now,
        )

    def rng_state(self, state: ToyState) -> int:
        return state.rng.state

    def step(self, state: ToyState, actor: int | None, action: object, now: datetime) -> list[Event]:
        if state.over:
            raise RuleError("The game is over.")
        match action:
            case Play(card=card):
                self._my_turn(state, actor)
                assert actor is not None
                if card not in state.hands[actor]:
                    raise RuleError(f"You have no {card} in your hand.")
                state.hands[actor].remove(card)
                state.scores[actor] += card
                state.windows += 1
                waiting = [s for s in range(state.seats) if s != actor and state.active[s]]
                state.window = Window(number=state.windows, player=actor, card=card, since=now, waiting=waiting)
                return [
                    Event(kind="played", text=f"{ref(actor)} plays a {card}.", data={"card": card}, reveals=True),
                    public("window", "Anyone may STOP it now.", window=state.windows),
                ]
            case Draw():
                self._my_turn(state, actor)
                assert actor is not None
                if not state.deck:
                    raise RuleError("The deck is empty — play a card instead.")
                card = state.deck.pop(state.rng.below(len(state.deck)))
                state.hands[actor].append(card)
                state.hands[actor].sort()
                events = [public("drew", f"{ref(actor)} draws a card."), private(actor, "got", f"You drew a {card}.")]
                return events + self._next_turn(state, now)
            case Pass():
                window = self._my_window(state, actor)
                assert actor is not None
                window.waiting.remove(actor)
                events = [public("passed", f"{ref(actor)} lets it go.")]
                if not window.waiting:
                    events += self._close(state, now)
                return events
            case Stop():
                window = self._my_window(state, actor)
                state.hands[window.player].append(window.card)
                state.hands[window.player].sort()
                state.scores[window.player] -= window.card
                events = [public("stopped", f"{ref(actor or 0)} STOPs {ref(window.player)}'s {window.card}.")]
                state.window = None
                return events + self._next_turn(state, now)
            case TurnTimeout(turn_no=turn_no):
                if actor is not None:
                    raise RuleError("Only the clock can do that.")
                if state.window is not None or turn_no != state.turn_no:
                    raise RuleError("That deadline has already passed by.")
                events = [public("timeout", f"{ref(state.turn)} ran out of time; the turn passes.")]
                return events + self._next_turn(state, now)
            case WindowTimeout(window=number):
                if actor is not None:
                    raise RuleError("Only the clock can do that.")
                if state.window is None or state.window.number != number:
                    raise RuleError("That window has already closed.")
                return [public("window_closed", "Time is up: nobody stopped it."), *self._close(state, now)]
        raise RuleError("That is not a move in this game.")

    def _my_turn(self, state: ToyState, actor: int | None) -> None:
        if state.window is not None:
            raise RuleError("Wait: a card is still open to STOP.")
        if actor != state.turn:
            raise RuleError(f"It's {ref(state.turn)}'s turn.")

    def _my_window(self, state: ToyState, actor: int | None) -> Window:
        if state.window is None:
            raise RuleError("There is no card to react to.")
        if actor is None or actor not in state.window.waiting:
            raise RuleError("You have nothing to react to right now.")
        return state.window

    def _close(self, state: ToyState, now: datetime) -> list[Event]:
        window = state.window
        assert window is not None
        state.window = None
        if state.scores[window.player] >= state.options.target or not state.hands[window.player]:
            state.over = True
            return [public("over", f"{ref(window.player)} ends the game.")]
        return self._next_turn(state, now)

    def _next_turn(self, state: ToyState, now: datetime) -> list[Event]:
        seat = state.turn
        for _ in range(state.seats):
            seat = (seat + 1) % state.seats
            if state.active[seat]:
                break
        state.turn = seat
        state.turn_no += 1
        state.turn_since = now
        return [public("turn", f"It's {ref(seat)}'s turn.")]

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        return ToyView(
            seat=seat,
            hand=list(state.hands[seat]) if seat is not None else None,
            scores=list(state.scores),
            hand_sizes=[len(h) for h in state.hands],
            deck_size=len(state.deck),
            turn=state.turn,
            open_card=state.window.card if state.window else None,
        )

    def legal_actions(self, state: ToyState, seat: int | None) -> list[object]:
        if state.over:
            return []
        if seat is None:
            return [w.timeout for w in self.waiting_on(state)]
        if state.window is not None:
            return [Pass(), Stop()] if seat in state.window.waiting else []
        if seat != state.turn:
            return []
        return [Play(card=c) for c in sorted(set(state.hands[seat]))] + ([Draw()] if state.deck else [])

    def waiting_on(self, state: ToyState) -> list[Wait]:
        if state.over:
            return []
        if state.window is not None:
            w = state.window
            return [
                Wait(
                    seats=tuple(w.waiting),
                    what=f"STOP or pass on {ref(w.player)}'s {w.card}",
                    kind="reaction",
                    since=w.since,
                    until=w.since + state.options.window_length(TOY_WINDOW),
                    timeout=WindowTimeout(window=w.number),
                )
            ]
        return [
            Wait(
                seats=(state.turn,),
                what="play a card or draw",
                kind="turn",
                since=state.turn_since,
                until=state.options.turn_until(state.turn_since),  # a daily deadline, weekends off: the table's clock
                timeout=TurnTimeout(turn_no=state.turn_no),
            )
        ]

    def result(self, state: ToyState) -> Result | None:
        return rank_by_score(dict(enumerate(state.scores))) if state.over else None

    def standings(self, state: ToyState) -> Result:
        return self.result(state) or rank_by_score(dict(enumerate(state.scores)), reason="ended early")

    def remove_seat(self, state: ToyState, seat: int, now: datetime) -> Outcome[ToyState] | None:
        if sum(state.active) - 1 < self.min_seats:
            return None
        work = self.copy_state(state)
        work.active[seat] = False
        work.deck.extend(work.hands[seat])
        work.hands[seat] = []
        events = [public("left", f"{ref(seat)} leaves the table; their cards go back to the deck.")]
        if work.window is not None and seat in work.window.waiting:
            work.window.waiting.remove(seat)
            if not work.window.waiting:
                events += self._close(work, now)
        elif work.window is None and work.turn == seat:
            events += self._next_turn(work, now)
        return Outcome(state=work, events=events)
