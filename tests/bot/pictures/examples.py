"""The example pictures in docs/pictures/ (shown in the README): one telling moment of a seeded game per game.

Regenerate them from the repository root with `python -m tests.bot.pictures.examples`. The players have names as a
table would: a computer player with its 🤖 (not drawn: the font has none), and a name too long to show whole.
"""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.games import load_presentation
from tests.bot.pictures.walk import game_kind, game_of, states

NAMES = ("Anna", "Bert", "Robo Carla 🤖", "Maximiliane Dorothea", "Ede")
OUT = Path(__file__).resolve().parents[3] / "docs" / "pictures"


def _kkk(view: Any) -> bool:  # a few deals done, one under way and partly covered
    r = view.round
    done = sum(s.tile is not None for s in view.spaces)
    return done >= 3 and r is not None and 0 < sum(q.assigned is not None for q in r.requirements) < len(r.requirements)


def _kesse(view: Any) -> bool:  # a duel, with tubers on the board and someone in the barn
    return view.duel is not None and len(view.tubers) >= 8 and any(p.pawn == view.barn for p in view.players)


def _casablanca(view: Any) -> bool:  # a move announced, an agent out, the suitcase carried
    ann = view.announcement
    return (
        ann is not None
        and ann.kind == "move"
        and view.phase == "objections"
        and any(a.at is None for a in view.agents)
        and view.carrier is not None
    )


def _schwarzmarkt(view: Any) -> bool:  # trading, an offer partly delivered
    offer = view.offer
    return view.phase == "trade" and offer is not None and 0 < sum(offer.still.values()) < sum(offer.wants.values())


EXAMPLES: dict[str, tuple[int, Callable[[Any], bool]]] = {
    "kkk": (1, _kkk),
    "kesse_ruegen": (1, _kesse),
    "casablanca": (1, _casablanca),
    "schwarzmarkt": (1, _schwarzmarkt),
}
"""By game: the seed of its walk and what the moment shows (the first such state is taken)."""


def example(kind: str) -> tuple[Any, tuple[str, ...]]:
    """The public view the example of `kind` shows, and the players' names."""
    seed, wanted = EXAMPLES[kind]
    game = game_of(kind)
    for state in states(kind, seed, 10_000):
        view = game.view(state, None)
        if wanted(view):
            return view, NAMES[: game.seat_count(state)]
    raise LookupError(f"no state of {kind} seed {seed} shows what its example wants")


def render(kind: str) -> bytes:
    view, names = example(kind)
    png = load_presentation(game_kind(kind)).picture(game_of(kind), view, names)
    assert png is not None
    return png


def main() -> None:
    for kind in sys.argv[1:] or EXAMPLES:
        png = render(kind)
        (OUT / f"{kind}.png").write_bytes(png)
        print(f"docs/pictures/{kind}.png: {len(png):,} bytes")


if __name__ == "__main__":
    main()
