"""The engines speak no language (issue 28): over seeded tables of random legal play, for every registered game,
no event carries text, every wait's `what` is a code, and a move the rules refuse carries a code (the words are the
bot's, in the reader's language: `Presentation.event_line`, `wait_task`, `refusal_words`)."""

import re

import pytest

from engine import registry
from engine.errors import RuleError

from .table import START, play

GAMES = sorted(registry.games())
CODE = re.compile(r"[a-z][a-z0-9_.:-]*")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_words_leave_the_engine(name: str, seed: int) -> None:
    game = registry.get(name)
    low, high = game.seat_range(game.parse_options())
    for seats in sorted({low, high}):
        played = play(game, seats, seed, cap=250)
        state = played.first
        for event in game.setup_events(state):
            assert event.text == "", f"{name} set-up event {event.kind} has words: {event.text!r}"
        for step in played.steps:
            for event in step.events:
                assert event.text == "", f"{name} event {event.kind} has words: {event.text!r}"
        state = played.state
        for wait in game.waiting_on(state):
            assert CODE.fullmatch(wait.what), f"{name} waits for {wait.what!r}, not a code"
        # A seat that isn't awaited tries an awaited seat's move: refused, with a code and no words to show.
        waits = game.waiting_on(state)
        awaited = {s for w in waits for s in w.seats} | set(game.free_to_act(state))
        for wait in waits:
            legal = game.legal_actions(state, wait.seats[0])
            for other in range(seats):
                if other in awaited or not legal:
                    continue
                with pytest.raises(RuleError) as refused:
                    game.apply(state, other, legal[0], played.steps[-1].now if played.steps else START)
                assert CODE.fullmatch(refused.value.code), f"{name} refused without a code: {refused.value}"
