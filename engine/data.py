"""Loading a game's data files (TOML) into pydantic models, with errors that name the file and the field.

A server owner may replace a game's data files with the data of their own copy: the files go in a folder named after
the game inside the game data folder (the bot's `GAME_DATA_DIR`), e.g. `kkk/board.toml`; `engine.registry.build`
reads it. `replacement` is how a game finds such a file; any file that isn't there falls back to the packaged one.
"""

import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from engine.errors import DataFileError

M = TypeVar("M", bound=BaseModel)


def load_toml(path: Path, model: type[M]) -> M:
    """Read and validate one data file; any problem becomes a `DataFileError` naming file and field."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"{path}: data file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{path}: not valid TOML ({exc})") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"field '{'.'.join(str(p) for p in err['loc']) or '(top level)'}': {err['msg']}" for err in exc.errors()
        )
        raise DataFileError(f"{path}: {problems}") from None


def replacement(folder: Path | None, name: str) -> Path | None:
    """The server owner's file `name` in the game's own data folder, if they put one there; None: use the default."""
    if folder is None:
        return None
    path = folder / name
    return path if path.exists() else None
