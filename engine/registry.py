"""The games Boardroom can host, by name. Adding a game means adding one line here."""

from engine.game import Game


def _build() -> dict[str, Game]:  # type: ignore[type-arg]
    from engine.kesse_ruegen.rules import KesseRuegen
    from engine.kkk.rules import KKK

    games: list[Game] = [KKK(), KesseRuegen()]  # type: ignore[type-arg]
    return {g.name: g for g in games}


_GAMES: dict[str, Game] | None = None  # type: ignore[type-arg]


def games() -> dict[str, Game]:  # type: ignore[type-arg]
    """All registered games by name (built on first use, so importing the engine stays cheap)."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _build()
    return _GAMES


def get(name: str) -> Game:  # type: ignore[type-arg]
    """The game called `name`; KeyError with the known names if there is none."""
    try:
        return games()[name]
    except KeyError:
        known = ", ".join(sorted(games()))
        raise KeyError(f"no game called {name!r} (known: {known})") from None
