"""A tiny but real game for the storage tests: randomness, hidden hands, a system timeout and an end.

"Toy Draw": a shuffled deck of cards 1…30. On your turn you either draw (a random card from the deck, which only you
see) or play a card from your hand (scoring its value, shown to all). A turn not taken before the deadline is
resolved by the system's timeout, which plays a random card from the hand (or draws if the hand is empty, or
passes if there is nothing to draw). After `turns` turns, or when every card is played, the highest score wins.
It implements `engine.game.Game` fully, so storage is tested against the same interface the real games use,
without depending on any of them.
"""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engine.errors import RuleError
from engine.events import Event, Wait, private, public
from engine.game import Game, Result, rank_by_score
from engine.options import GameOptions
from engine.rng import Rng
from engine.text import seat


class ToyOptions(GameOptions):
    turns: int = Field(default=40, ge=1)
    hand_size: int = Field(default=3, ge=0, le=5)


class ToyState(BaseModel):
    rng: Rng
    deck: list[int]
    hands: list[list[int]]
    scores: list[int]
    turn: int = 0
    turn_no: int = 0
    turns: int
    since: datetime
    deadline: datetime
    options: ToyOptions

    @property
    def over(self) -> bool:
        return self.turn_no >= self.turns or (not self.deck and not any(self.hands))


class Draw(BaseModel):
    type: Literal["draw"] = "draw"


class Play(BaseModel):
    type: Literal["play"] = "play"
    card: int


class Timeout(BaseModel):
    type: Literal["timeout"] = "timeout"
    seat: int
    turn_no: int


ToyAction = Annotated[Draw | Play | Timeout, Field(discriminator="type")]


class PublicView(BaseModel):
    hand_sizes: list[int]
    scores: list[int]
    deck_left: int
    turn: int


class SeatView(PublicView):
    hand: list[int]


class ToyDraw(Game[ToyState, ToyOptions]):
    name = "toy"
    title = "Toy Draw"
    min_seats = 2
    max_seats = 5
    state_model = ToyState
    options_model = ToyOptions
    action_adapter: TypeAdapter[Any] = TypeAdapter(ToyAction)

    def setup(self, seats: int, options: ToyOptions, seed: int, now: datetime) -> ToyState:
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleError(f"Toy Draw needs {self.min_seats}–{self.max_seats} players, not {seats}.")
        rng = Rng.from_seed(seed)
        deck = list(range(1, 31))
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(options.hand_size)] for _ in range(seats)]
        return ToyState(
            rng=rng,
            deck=deck,
            hands=hands,
            scores=[0] * seats,
            turns=options.turns,
            since=now,
            deadline=now + options.turn_deadline,
            options=options,
        )

    def step(self, state: ToyState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.over:
            raise RuleError("The game is over.")
        if isinstance(action, Timeout):
            if actor is not None:
                raise RuleError("Only the system applies a timeout.")
            if action.seat != state.turn or action.turn_no != state.turn_no:
                raise RuleError("That deadline has passed already.")
            hand = state.hands[state.turn]
            if not hand and not state.deck:
                return self._next_turn(state, now, [public("skip", f"{seat(state.turn)} has no cards: turn passes.")])
            action = Play(card=state.rng.choice(hand)) if hand else Draw()
        elif actor != state.turn:
            raise RuleError(f"It's {seat(state.turn)}'s turn.")
        who = state.turn
        events: list[Event]
        if isinstance(action, Draw):
            if not state.deck:
                raise RuleError("The deck is empty: play a card.")
            card = state.deck.pop(state.rng.below(len(state.deck)))
            state.hands[who].append(card)
            events = [
                public("draw", f"{seat(who)} draws a card."),
                private(who, "drew", f"You drew {card}.", card=card),
            ]
        else:
            if action.card not in state.hands[who]:
                raise RuleError(f"You have no {action.card}.")
            state.hands[who].remove(action.card)
            state.scores[who] += action.card
            events = [public("play", f"{seat(who)} plays {action.card}.", seat=who, card=action.card)]
        return self._next_turn(state, now, events)

    def _next_turn(self, state: ToyState, now: datetime, events: list[Event]) -> list[Event]:
        state.turn = (state.turn + 1) % len(state.hands)
        state.turn_no += 1
        state.since = now
        state.deadline = now + state.options.turn_deadline
        if state.over:
            events.append(public("end", "The game is over."))
        return events

    def rng_state(self, state: ToyState) -> int:
        return state.rng.state

    def view(self, state: ToyState, seat_no: int | None) -> BaseModel:
        base = {
            "hand_sizes": [len(h) for h in state.hands],
            "scores": list(state.scores),
            "deck_left": len(state.deck),
            "turn": state.turn,
        }
        if seat_no is None:
            return PublicView(**base)
        return SeatView(**base, hand=list(state.hands[seat_no]))

    def legal_actions(self, state: ToyState, seat_no: int | None) -> list[Any]:
        if state.over:
            return []
        if seat_no is None:
            return [Timeout(seat=state.turn, turn_no=state.turn_no)]
        if seat_no != state.turn:
            return []
        actions: list[Any] = [Play(card=c) for c in state.hands[seat_no]]
        if state.deck:
            actions.append(Draw())
        return actions

    def waiting_on(self, state: ToyState) -> list[Wait]:
        if state.over:
            return []
        return [
            Wait(
                seats=(state.turn,),
                what="your move",
                kind="turn",
                since=state.since,
                until=state.deadline,
                timeout=self.dump_action(Timeout(seat=state.turn, turn_no=state.turn_no)),
            )
        ]

    def result(self, state: ToyState) -> Result | None:
        if not state.over:
            return None
        return rank_by_score(dict(enumerate(state.scores)))
