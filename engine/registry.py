"""The games Boardroom can host, by name, found rather than listed: every package `engine/<game>/` registers itself
once, as `ENTRY` in its `__init__.py` (an `engine.entry.Entry`: the game class and its policy). A package without
one, or one whose game has another name, stops start-up with a `RegistrationError` naming it.

`games()` is every game with its packaged data. `build(data_dir)` is every game with a server owner's replacement
data files: `data_dir/<game name>/<file>`: `kkk/board.toml`, `kkk/tiles.toml`, `kesse_ruegen/board.toml`,
`casablanca/map.toml`, `schwarzmarkt/market.toml` (each game's `data_files`). A file missing there falls back to the
packaged one, so a folder may replace just one file. Anything that looks like a misplaced data file is refused rather
than silently ignored: a folder named after no game, a `.toml` file outside a game's folder, or a `.toml` file a game
does not read. Other files (a README, a backup) and hidden entries are ignored.

A server owner can check a folder before starting the bot: `python -m engine.registry <folder>`.
"""

import importlib
import pkgutil
from pathlib import Path

import engine
from engine.entry import Entry
from engine.errors import DataFileError, RegistrationError
from engine.game import Game

_ENTRIES: dict[str, Entry] | None = None


def entries() -> dict[str, Entry]:
    """Every game's registration by name, in the order games are listed (found on first use, then kept)."""
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = _discover()
    return _ENTRIES


def _discover() -> dict[str, Entry]:
    found: list[Entry] = []
    for package in sorted(info.name for info in pkgutil.iter_modules(engine.__path__) if info.ispkg):
        entry = getattr(importlib.import_module(f"engine.{package}"), "ENTRY", None)
        if not isinstance(entry, Entry):
            raise RegistrationError(
                f"engine/{package}/ is a package without a game: its __init__.py must export ENTRY (an engine.entry."
                "Entry); see docs/adding-a-game.md"
            )
        if entry.game.name != package:
            raise RegistrationError(
                f"engine/{package}/ registers a game named {entry.game.name!r}: a game's package is named after it"
            )
        found.append(entry)
    return {entry.game.name: entry for entry in sorted(found, key=lambda e: (e.listed, e.game.name))}


def build(data_dir: Path | None = None) -> dict[str, Game]:  # type: ignore[type-arg]
    """Every game by name, built afresh with the data files in `data_dir` (None: the packaged data only).

    Raises `DataFileError` naming the file (and, for a file that doesn't validate, the field)."""
    classes = {name: entry.game for name, entry in entries().items()}
    if data_dir is not None:
        _check_folder(data_dir, classes)
    return {
        name: cls.from_data_folder(data_dir / name if data_dir is not None else None) for name, cls in classes.items()
    }


def _check_folder(data_dir: Path, classes: dict[str, type[Game]]) -> None:  # type: ignore[type-arg]
    if not data_dir.is_dir():
        raise DataFileError(f"{data_dir}: the game data folder does not exist (or is not a folder)")
    known = ", ".join(sorted(classes))
    for entry in sorted(data_dir.iterdir()):
        if entry.name.startswith("."):
            continue
        _check_link(entry)
        if entry.is_dir():
            cls = classes.get(entry.name)
            if cls is None:
                raise DataFileError(
                    f"{entry}: no game is called {entry.name!r}; each game's files go in a folder named after it "
                    f"({known})"
                )
            for file in sorted(entry.iterdir()):
                _check_link(file)
            for file in sorted(entry.glob("*.toml")):
                if file.name not in cls.data_files:
                    wanted = ", ".join(cls.data_files) or "none"
                    raise DataFileError(
                        f"{file}: {cls.title} has no data file called {file.name!r} (it reads: {wanted})"
                    )
        elif entry.suffix == ".toml":
            raise DataFileError(
                f"{entry}: data files go in a folder named after their game ({known}), e.g. kkk/{entry.name}"
            )


def _check_link(path: Path) -> None:
    """A link that leads nowhere is a mistake (a moved or deleted file): the game would silently use its default."""
    if path.is_symlink() and not path.exists():
        raise DataFileError(f"{path}: a link to {path.readlink()}, which doesn't exist (or can't be read)")


_GAMES: dict[str, Game] | None = None  # type: ignore[type-arg]


def games() -> dict[str, Game]:  # type: ignore[type-arg]
    """All registered games by name, with their packaged data (built on first use, so importing stays cheap)."""
    global _GAMES
    if _GAMES is None:
        _GAMES = build()
    return _GAMES


def get(name: str) -> Game:  # type: ignore[type-arg]
    """The game called `name`; KeyError with the known names if there is none."""
    try:
        return games()[name]
    except KeyError:
        known = ", ".join(sorted(games()))
        raise KeyError(f"no game called {name!r} (known: {known})") from None


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m engine.registry <game data folder>")
    folder = Path(sys.argv[1])
    try:
        built = build(folder)
    except DataFileError as exc:
        raise SystemExit(str(exc)) from None
    for name, game in sorted(built.items()):
        replaced = [f for f in game.data_files if (folder / name / f).exists()]
        print(f"{game.title}: " + (f"uses {', '.join(replaced)} from {folder / name}" if replaced else "packaged data"))
