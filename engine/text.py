"""Seat references inside engine text.

The engine knows seats, not people: a message such as "It's Anna's turn" is written as
f"It's {seat(2)}'s turn" and the bot replaces each reference with the seat's current display name
(which survives a substitution of the player in that seat).
"""

import re
from collections.abc import Sequence

_SEAT = re.compile(r"\{seat:(\d+)\}")


def seat(n: int) -> str:
    """A reference to seat `n` that `render` turns into a name."""
    return f"{{seat:{n}}}"


def render(text: str, names: Sequence[str]) -> str:
    """Replace every seat reference in `text` with the seat's name (or "seat N" if unnamed)."""

    def name(match: re.Match[str]) -> str:
        n = int(match.group(1))
        return names[n] if 0 <= n < len(names) else f"seat {n + 1}"

    return _SEAT.sub(name, text)


def seats_in(text: str) -> list[int]:
    """The seats a text refers to, in order of appearance."""
    return [int(m) for m in _SEAT.findall(text)]
