"""Squares and directions on a square board, named like a chessboard.

A square is a column letter and a row number: `a1` is the bottom-left corner, `e5` the top-right on a 5×5 board
(the way the status grid is drawn, row 1 at the bottom). Players type squares in any case and with stray
spaces ("C3 " is c3). Directions are compass points with north towards the higher rows: `n`, `ne`, `e`, `se`,
`s`, `sw`, `w`, `nw` — the ↑ ↗ → ↘ ↓ ↙ ← ↖ buttons.
"""

from typing import Literal

Direction = Literal["nw", "n", "ne", "w", "e", "sw", "s", "se"]

STEPS: dict[Direction, tuple[int, int]] = {
    "nw": (-1, 1),
    "n": (0, 1),
    "ne": (1, 1),
    "w": (-1, 0),
    "e": (1, 0),
    "sw": (-1, -1),
    "s": (0, -1),
    "se": (1, -1),
}
"""(column, row) change of one step in each direction, in the order of the buttons."""

ARROWS: dict[Direction, str] = {"nw": "↖", "n": "↑", "ne": "↗", "w": "←", "e": "→", "sw": "↙", "s": "↓", "se": "↘"}

MAX_SIZE = 9
"""Squares stay one letter and one digit, easy to type."""


def name(col: int, row: int) -> str:
    """The name of the square at 0-based (column, row)."""
    return f"{chr(ord('a') + col)}{row + 1}"


def coords(square: str) -> tuple[int, int]:
    """0-based (column, row) of a well-formed square name."""
    return ord(square[0]) - ord("a"), int(square[1:]) - 1


def parse(text: str, size: int) -> str | None:
    """The square a player typed, normalised (`" B2"` → `"b2"`), or None if it is not on the board."""
    square = text.strip().lower()
    if len(square) != 2 or not ("a" <= square[0] <= "z") or not square[1].isdigit():
        return None
    col, row = coords(square)
    return square if 0 <= col < size and 0 <= row < size else None


def squares(size: int) -> list[str]:
    """All squares, row by row from a1."""
    return [name(col, row) for row in range(size) for col in range(size)]


def rows_top_down(size: int) -> list[list[str]]:
    """The squares as drawn: the top row (highest number) first, each row from column a."""
    return [[name(col, row) for col in range(size)] for row in reversed(range(size))]


def neighbour(square: str, direction: Direction, size: int) -> str | None:
    """The square one step from `square` in `direction`, or None off the board."""
    col, row = coords(square)
    dc, dr = STEPS[direction]
    col, row = col + dc, row + dr
    return name(col, row) if 0 <= col < size and 0 <= row < size else None


def last(size: int) -> str:
    """The top-right square, for messages such as "the board runs a1 to e5"."""
    return name(size - 1, size - 1)
