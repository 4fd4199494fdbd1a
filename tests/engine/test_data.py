"""load_toml: a bad data file stops start-up with a message naming the file and the field."""

from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from engine.data import load_toml
from engine.errors import DataFileError


class Track(BaseModel):
    length: int = Field(ge=1)


class Board(BaseModel):
    name: str
    track: Track


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "board.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_loads_a_valid_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Mine"\n[track]\nlength = 12\n')
    assert load_toml(path, Board) == Board(name="Mine", track=Track(length=12))


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(DataFileError) as info:
        load_toml(path, Board)
    assert str(path) in str(info.value)
    assert "not found" in str(info.value)


def test_bad_toml_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Mine"\n[track\nlength = 12\n')
    with pytest.raises(DataFileError) as info:
        load_toml(path, Board)
    message = str(info.value)
    assert str(path) in message and "not valid TOML" in message and "line 2" in message


def test_not_utf8_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, b'name = "\xff\xfe"\n')
    with pytest.raises(DataFileError) as info:
        load_toml(path, Board)
    assert str(path) in str(info.value) and "cannot be read" in str(info.value)


def test_wrong_field_names_the_file_and_the_dotted_field(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "Mine"\n[track]\nlength = 0\n')
    with pytest.raises(DataFileError) as info:
        load_toml(path, Board)
    message = str(info.value)
    assert str(path) in message and "field 'track.length'" in message


def test_missing_field_and_wrong_type_are_both_listed(tmp_path: Path) -> None:
    path = write(tmp_path, '[track]\nlength = "long"\n')
    with pytest.raises(DataFileError) as info:
        load_toml(path, Board)
    message = str(info.value)
    assert "field 'name'" in message and "field 'track.length'" in message
