"""Seat references in engine text become names only when the bot renders them."""

from engine.text import render, seat, seats_in


def test_render_replaces_every_seat_reference() -> None:
    text = f"{seat(0)} challenges {seat(2)}; {seat(0)} guesses 3."
    assert render(text, ["Anna", "Bert", "Cleo"]) == "Anna challenges Cleo; Anna guesses 3."


def test_render_falls_back_to_the_seat_number_for_an_unknown_seat() -> None:
    assert render(f"{seat(3)} wins", ["Anna"]) == "seat 4 wins"


def test_render_leaves_other_braces_and_plain_text_alone() -> None:
    assert render("no seats {here} {seat:x}", ["Anna"]) == "no seats {here} {seat:x}"


def test_names_with_braces_are_not_expanded_again() -> None:
    assert render(f"{seat(0)} and {seat(1)}", ["{seat:1}", "Bert"]) == "{seat:1} and Bert"


def test_seats_in_lists_references_in_order() -> None:
    assert seats_in(f"{seat(2)} then {seat(0)} then {seat(2)}") == [2, 0, 2]
    assert seats_in("nobody") == []
