"""The board data file (`data/board.toml`): its pydantic model, validated on load, and the loader.

A server owner may replace it with their own copy's data as `kesse_ruegen/board.toml` in the game data folder (the
bot's `GAME_DATA_DIR`; see `engine.registry`). A wrong file stops start-up with a `DataFileError` naming the file and
the field (see `engine.data`). The numbers a game uses are copied into its state at set-up.
"""

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from engine.data import load_toml
from engine.kesse_ruegen import geometry

BOARD_FILE = Path(__file__).parent / "data" / "board.toml"

MIN_PLAYERS = 2
MAX_PLAYERS = 4


class PlayerCount(BaseModel):
    """What depends on the number of players."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    supply: int = Field(ge=1)
    """Tubers each player starts with."""
    win_fields: int = Field(ge=1)
    """Fields holding the player's own tubers needed to win."""

    @model_validator(mode="after")
    def _reachable(self) -> "PlayerCount":
        if self.win_fields > self.supply:
            raise ValueError(f"win_fields ({self.win_fields}) cannot be more than supply ({self.supply})")
        return self


class TuberKind(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    one: str = Field(min_length=1)
    many: str = Field(min_length=1)


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    size: int = Field(ge=3, le=geometry.MAX_SIZE)
    barn: str
    players: dict[int, PlayerCount]
    kinds: list[TuberKind] = Field(min_length=MAX_PLAYERS)

    @field_validator("barn")
    @classmethod
    def _barn_on_board(cls, value: str, info: ValidationInfo) -> str:
        size = info.data.get("size")
        if size is None:
            return value
        square = geometry.parse(value, size)
        if square is None:
            raise ValueError(f"{value!r} is not a square of the {size}×{size} board (a1 to {geometry.last(size)})")
        return square

    @field_validator("players")
    @classmethod
    def _every_player_count(cls, value: dict[int, PlayerCount], info: ValidationInfo) -> dict[int, PlayerCount]:
        wanted = set(range(MIN_PLAYERS, MAX_PLAYERS + 1))
        if set(value) != wanted:
            raise ValueError(f"needs exactly the player counts {sorted(wanted)}, found {sorted(value)}")
        size = info.data.get("size")
        if size is not None:
            fields = size * size - 1
            for count, entry in value.items():
                if entry.win_fields > fields:
                    raise ValueError(f"{count} players: win_fields {entry.win_fields} > the {fields} fields")
        return value

    @property
    def fields(self) -> int:
        return self.size * self.size - 1


def load_board(path: Path = BOARD_FILE) -> Board:
    """Read and validate a board file; `DataFileError` names the file and the field."""
    return load_toml(path, Board)


@cache
def default_board() -> Board:
    """The shipped board, read once."""
    return load_board()
