"""Loading a game's data files (TOML) into pydantic models, with errors that name the file and the field."""

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
