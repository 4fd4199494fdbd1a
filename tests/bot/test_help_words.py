"""`/game help` and `/game move` in each game's own words, without Discord: over random legal play of every
registered game, every legal move reads as words (no JSON, at most 100 characters, told apart from the others) and
every kind of legal move has a help line naming the game's own command or button — never the generic fallback."""

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games import load_presentation
from bot.helping import help_post
from bot.moves import find, suggestions, token
from bot.presentation import GenericPresentation, Table
from engine import registry
from storage.models import GameRecord, SeatRecord

NOW = datetime(2025, 1, 1, tzinfo=UTC)
NAMES = ("anna", "bert", "cleo", "dave")
GENERIC = "`/game move` (pick it from the suggestions)"


def table_for(game: Any, state: Any, seats: int) -> Table:
    record = GameRecord(
        id=1,
        kind=game.name,
        status="active",
        seed=7,
        seat_count=seats,
        setup_at=NOW,
        version=1,
        created_at=NOW,
        updated_at=NOW,
        thread_id=555,
    )
    people = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=NAMES[i], joined_at=NOW) for i in range(seats)
    ]
    return Table(game, record, people, state, NOW)


def positions(game: Any, seats: int, seed: int, steps: int) -> list[Any]:
    """States met in a random legal game (each step: a random seat that may act, a random legal move)."""
    state = game.setup(seats, game.parse_options({}), seed, NOW)
    rng = random.Random(seed)
    out = [state]
    for _ in range(steps):
        movers = [s for s in range(seats) if game.legal_actions(state, s)]
        if not movers or game.result(state) is not None:
            break
        seat = rng.choice(movers)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)), NOW).state
        out.append(state)
    return out


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_legal_move_reads_as_words_and_every_kind_names_its_command(name: str) -> None:
    game = registry.get(name)
    presentation = load_presentation(name)
    assert type(presentation) is not GenericPresentation  # each of the games has its own words
    seats = min(max(game.min_seats, 3), game.max_seats)
    kinds_seen: set[str] = set()
    for state in positions(game, seats, seed=11, steps=120):
        table = table_for(game, state, seats)
        for seat in range(seats):
            actions = game.legal_actions(state, seat)
            words = [presentation.describe_action(table, seat, a) for a in actions]
            for text in words:
                assert text and len(text) <= 100 and "{" not in text and '"' not in text and "type" not in text, text
            for action in actions:  # what a picked suggestion sends back finds that very move again
                assert find(presentation, table, seat, token(table, action)) == action
            lines = presentation.help_lines(table, seat)
            kinds = {getattr(a, "type", "") for a in actions}
            kinds_seen |= kinds
            assert len(lines) == len(kinds)  # one line per kind of move
            assert not any(GENERIC in line for line in lines), lines
            assert all("`/" in line or "button" in line for line in lines), lines
            names = [n for n, _ in suggestions(presentation, table, seat, "")]
            assert len(names) == len(set(names)) <= 25
    assert len(kinds_seen) >= 3  # the walk met several kinds of move, not just the first one


def test_the_generic_words_come_from_the_fields_without_json() -> None:
    game = registry.get("kkk")
    state = positions(game, 4, seed=3, steps=0)[0]
    table = table_for(game, state, 4)
    generic = GenericPresentation()
    from engine.kkk import actions as A

    offer = A.Offer(price=3, unit="dividends", family="L", to=2)
    assert generic.describe_action(table, 0, offer) == "Offer: price 3, unit dividends, family L, to cleo"
    assert generic.describe_action(table, 0, A.Open()) == "Open"
    line = generic.help_line(table, 0, "offer", [offer])
    assert line is not None and "**Offer**" in line and GENERIC in line


def test_help_for_an_onlooker_says_who_is_awaited_and_how_to_follow() -> None:
    game = registry.get("kesse_ruegen")
    state = positions(game, 3, seed=5, steps=0)[0]
    table = table_for(game, state, 3)
    (wait,) = game.waiting_on(state)
    post = help_post(load_presentation("kesse_ruegen"), table, None)
    text = post.description or ""
    assert f"**{NAMES[wait.seats[0]]}**" in text and "<#555>" in text and "You don't play in this game" in text
    assert "/kr" not in text  # an onlooker is given no moves
