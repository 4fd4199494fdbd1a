"""The board's 16 deal spaces and the 15 deal tiles: pydantic models of `data/*.toml`, validated on load.

The defaults are the reconstruction of rules/kkk.md, loaded once (`default_data()`). A server owner may replace
either file with the data of their physical copy by putting it in the game data folder as `kkk/board.toml` or
`kkk/tiles.toml` (the bot's `GAME_DATA_DIR`; `KKK.from_data_folder`, reached through `engine.registry.build`); any
problem raises `DataFileError` naming the file and the field. A game copies the data into its state at set-up
(`KkkState.data`), so replacing a file changes new games only. `load_data(directory)` loads both files of a folder.

A server owner can check a game data folder before starting the bot: `python -m engine.registry <folder>`.
"""

import copy
from functools import cache
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.data import load_toml
from engine.kkk.cards import FAMILIES, Family

DATA_DIR = Path(__file__).parent / "data"
SPACES = 16
TILES = 15
DIE_FACES = (1, 2, 3, 4, 5, 6)


class Group(BaseModel):
    """A "k of group" block: k distinct families out of `of`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    k: int = Field(ge=1)
    of: tuple[Family, ...] = Field(min_length=2)

    @field_validator("of")
    @classmethod
    def _distinct(cls, of: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(of)) != len(of):
            raise ValueError("a family is listed twice")
        return of

    @model_validator(mode="after")
    def _k_fits(self) -> Self:
        if self.k > len(self.of):
            raise ValueError(f"k = {self.k} is more than the {len(self.of)} families of the group")
        return self


class Space(BaseModel):
    """One deal space of the board."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int = Field(ge=1, le=SPACES)
    required: tuple[Family, ...] = ()
    group: Group | None = None
    investors: int = Field(ge=1, le=len(FAMILIES))
    dividends: int = Field(ge=1)

    @field_validator("required")
    @classmethod
    def _distinct(cls, required: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(required)) != len(required):
            raise ValueError("a family is listed twice")
        return required

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        k = self.group.k if self.group else 0
        if self.group and set(self.group.of) & set(self.required):
            both = ", ".join(sorted(set(self.group.of) & set(self.required)))
            raise ValueError(f"'group.of' repeats a required family ({both})")
        if self.investors != len(self.required) + k:
            raise ValueError(
                f"'investors' is {self.investors} but the space asks for {len(self.required)} required + {k} of group"
            )
        return self

    @property
    def families(self) -> tuple[str, ...]:
        """Every family that can serve this space (required first, then the group)."""
        return self.required + (self.group.of if self.group else ())

    @property
    def k(self) -> int:
        return self.group.k if self.group else 0


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    spaces: tuple[Space, ...]

    @field_validator("spaces")
    @classmethod
    def _sixteen_in_order(cls, spaces: tuple[Space, ...]) -> tuple[Space, ...]:
        if len(spaces) != SPACES:
            raise ValueError(f"there must be {SPACES} spaces, found {len(spaces)}")
        numbers = [s.number for s in spaces]
        if numbers != list(range(1, SPACES + 1)):
            raise ValueError(f"spaces must be numbered 1 to {SPACES} in order, found {numbers}")
        return spaces


class Tile(BaseModel):
    """One deal tile: the value of a dividend for the n-th concluded deal, and the die faces that end the game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int = Field(ge=1, le=TILES)
    value: int = Field(ge=1)
    end_faces: tuple[int, ...] = ()

    @field_validator("end_faces")
    @classmethod
    def _faces(cls, faces: tuple[int, ...]) -> tuple[int, ...]:
        bad = [f for f in faces if f not in DIE_FACES]
        if bad:
            raise ValueError(f"die faces must be 1 to 6, found {bad}")
        if len(set(faces)) != len(faces):
            raise ValueError("a die face is listed twice")
        return tuple(sorted(faces))

    @property
    def always_ends(self) -> bool:
        return set(self.end_faces) == set(DIE_FACES)


class Tiles(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tiles: tuple[Tile, ...]

    @field_validator("tiles")
    @classmethod
    def _fifteen_in_order(cls, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        if len(tiles) != TILES:
            raise ValueError(f"there must be {TILES} tiles, found {len(tiles)}")
        numbers = [t.number for t in tiles]
        if numbers != list(range(1, TILES + 1)):
            raise ValueError(f"tiles must be numbered 1 to {TILES} in order, found {numbers}")
        if not tiles[-1].always_ends:
            raise ValueError(f"tile {TILES} must end the game on every face (end_faces = [1, 2, 3, 4, 5, 6])")
        return tiles


class KkkData(BaseModel):
    """Everything the rules read from data files."""

    model_config = ConfigDict(frozen=True)

    board: Board
    tiles: Tiles

    def space(self, number: int) -> Space:
        return self.board.spaces[number - 1]

    def tile(self, number: int) -> Tile:
        return self.tiles.tiles[number - 1]


def load_board(path: Path) -> Board:
    """Load and validate one board file (raises `DataFileError` naming the file and the field)."""
    return load_toml(path, Board)


def load_tiles(path: Path) -> Tiles:
    """Load and validate one deal-tile file (raises `DataFileError` naming the file and the field)."""
    return load_toml(path, Tiles)


def load_data(directory: Path = DATA_DIR) -> KkkData:
    """Load and validate `board.toml` and `tiles.toml` from `directory` (raises `DataFileError`)."""
    return KkkData(board=load_board(directory / "board.toml"), tiles=load_tiles(directory / "tiles.toml"))


@cache
def default_data() -> KkkData:
    """The packaged data, loaded and validated once."""
    return load_data(DATA_DIR)


# --- validating the copy in a stored game only once ----------------------------------------------------------

_SEEN: list[tuple[Any, KkkData]] = []
_SEEN_MAX = 8


def seen(raw: Any) -> KkkData | None:
    """The data already validated from input equal to `raw` (a stored state's `data`), if any.

    Every stored game carries its board and tiles, and loading a state would otherwise validate them again each
    time (most of the cost of loading a state). A deployment has one or two distinct data sets, so a few entries do.
    """
    for known, data in _SEEN:
        if known == raw:
            return data
    return None


def remember(raw: Any, data: KkkData) -> None:
    _SEEN.append((copy.deepcopy(raw), data))
    del _SEEN[:-_SEEN_MAX]
