"""Reading a named player (`bot.seat_choice`) without Discord: the order of the readings, and what is refused."""

from datetime import UTC, datetime

import pytest

from bot import seat_choice
from bot.service import Refusal
from storage.models import SeatRecord

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def seat(n: int, name: str, player: int | None = None, **flags: bool) -> SeatRecord:
    return SeatRecord(game_id=1, joined_at=NOW, seat=n, display_name=name, player_id=player, **flags)


SEATS = [
    seat(0, "anna", 11),
    seat(1, "Robo Anna 🤖", bot=True),
    seat(2, "Robo Bruno 🤖", bot=True),
    seat(3, "bert", 12, autopilot=True),
    seat(4, "7", 13),
]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("seat:2", 1),  # a picked suggestion
        ("<@12>", 3),  # a mention (also `<@!12>`)
        ("<@!12>", 3),
        ("anna", 0),  # the exact name wins over the computer player whose name holds it
        ("  @ANNA ", 0),
        ("robo anna", 1),
        ("Robo Anna 🤖", 1),
        ("bert (autopilot)", 3),  # as the table shows it
        ("#3", 2),  # a seat number
        ("seat 3", 2),
        ("3", 2),
        ("7", 4),  # a name that is a number is still that name
        ("brun", 2),  # the start of one name
        ("uno", 2),  # a part of one name
        ("robo", None),  # two names start so: not guessed
        ("<@99>", None),  # someone not at the table
        ("seat:9", None),
        ("9", None),
        ("zed", None),
        ("", None),
    ],
)
def test_find_reads_in_order(typed: str, expected: int | None) -> None:
    assert seat_choice.find(SEATS, typed) == expected


def test_resolve_refuses_with_the_players_but_the_asker() -> None:
    assert seat_choice.resolve(SEATS, None, where="KKK #1", option="to") is None
    with pytest.raises(Refusal) as refused:
        seat_choice.resolve(SEATS, "zed", where="KKK #1", option="to", exclude=0)
    assert refused.value.message == (
        "“zed” isn't playing at KKK #1. The players you can name: Robo Anna 🤖, Robo Bruno 🤖, bert (autopilot), 7."
    )
    with pytest.raises(Refusal) as refused:
        seat_choice.resolve(SEATS, "<@99>", where="KKK #1", option="to")
    assert refused.value.message.startswith("<@99> isn't playing at KKK #1.")  # shown as the user's name, unpinged


def test_choices_list_the_others_by_name_and_filter_by_what_is_typed() -> None:
    got = seat_choice.choices(SEATS, "", exclude=0)
    assert [(c.name, c.value) for c in got] == [
        ("Robo Anna 🤖", "seat:2"),
        ("Robo Bruno 🤖", "seat:3"),
        ("bert (autopilot)", "seat:4"),
        ("7", "seat:5"),
    ]
    assert [c.name for c in seat_choice.choices(SEATS, "ANNA")] == ["anna", "Robo Anna 🤖"]
    assert [seat_choice.find(SEATS, c.value) for c in got] == [1, 2, 3, 4]  # each suggestion reads back as its seat
