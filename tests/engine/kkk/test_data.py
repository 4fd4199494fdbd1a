"""The data files: the reconstructed defaults of rules/kkk.md, and clear errors for a server owner's bad file."""

import itertools
import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import DataFileError
from engine.kkk.cards import DECK_SIZE, deck
from engine.kkk.data import DATA_DIR, default_data, load_data
from engine.kkk.rules import KKK


def test_the_default_board_and_tiles_follow_the_rulebook() -> None:
    data = default_data()
    assert len(data.board.spaces) == 16 and len(data.tiles.tiles) == 15
    worked = data.space(8)  # "R, L, K + 2 of T, P, H, 6 dividends"
    assert worked.required == ("R", "L", "K") and worked.group is not None
    assert set(worked.group.of) == {"T", "P", "H"} and worked.group.k == 2 and worked.dividends == 6
    assert all(2 <= s.investors <= 5 for s in data.board.spaces)
    assert data.tile(1).value == 2 and data.space(8).dividends * data.tile(13).value == 30
    assert data.tile(12).end_faces == (1, 2, 3)
    assert [data.tile(n).end_faces for n in range(1, 10)] == [()] * 9
    assert data.tile(15).always_ends


def test_dividends_grow_with_investors() -> None:
    by_investors: dict[int, set[int]] = {}
    for s in default_data().board.spaces:
        by_investors.setdefault(s.investors, set()).add(s.dividends)
    ordered = [by_investors[k] for k in sorted(by_investors)]
    assert all(max(a) <= min(b) for a, b in itertools.pairwise(ordered))


def test_the_deck_has_98_influence_cards() -> None:
    counts = Counter(deck())
    assert len(deck()) == DECK_SIZE == 98
    assert sum(v for k, v in counts.items() if k.startswith("clan:")) == 24
    assert sum(v for k, v in counts.items() if k.startswith("travel:")) == 21 and counts["travel:*"] == 3
    assert (counts["recruit"], counts["boss"], counts["stop"]) == (33, 10, 10)


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, count))


def test_a_valid_replacement_is_loaded_and_played(tmp_path: Path) -> None:
    d = copy_data(tmp_path)
    edit(d / "tiles.toml", "number = 1\nvalue = 2", "number = 1\nvalue = 3")
    data = load_data(d)
    assert data.tile(1).value == 3
    assert KKK(data).data.tile(1).value == 3


@pytest.mark.parametrize(
    ("file", "old", "new", "field", "why"),
    [
        ("board.toml", "[[spaces]]\nnumber = 16", "[[nothing]]\nnumber = 16", "spaces", "16 spaces"),
        ("board.toml", 'required = ["R", "L"]', 'required = ["R", "X"]', "spaces.0.required.1", "'H'"),
        ("board.toml", 'required = ["R", "L"]', 'required = ["R", "R"]', "spaces.0.required", "listed twice"),
        ("board.toml", 'k = 1, of = ["T", "P"]', 'k = 3, of = ["T", "P"]', "spaces.1.group", "k = 3"),
        ("board.toml", "investors = 5\ndividends = 6", "investors = 4\ndividends = 6", "spaces.7", "'investors'"),
        ("board.toml", 'of = ["T", "P", "H"]', 'of = ["T", "R", "H"]', "spaces.7", "repeats a required"),
        ("board.toml", "number = 3\n", "number = 4\n", "spaces", "numbered 1 to 16"),
        ("board.toml", "dividends = 3", "dividends = 0", "spaces.0.dividends", "greater than or equal to 1"),
        ("tiles.toml", "[[tiles]]\nnumber = 15", "[[other]]\nnumber = 15", "tiles", "15 tiles"),
        ("tiles.toml", "end_faces = [1, 2]\n", "end_faces = [1, 7]\n", "tiles.10.end_faces", "1 to 6"),
        ("tiles.toml", "end_faces = [1, 2, 3, 4, 5, 6]", "end_faces = [1, 2, 3, 4, 5]", "tiles", "tile 15 must end"),
        ("tiles.toml", "number = 2\nvalue = 2", "number = 2\nvalue = -2", "tiles.1.value", "greater than"),
    ],
)
def test_a_bad_file_names_the_file_and_the_field(
    tmp_path: Path, file: str, old: str, new: str, field: str, why: str
) -> None:
    d = copy_data(tmp_path)
    edit(d / file, old, new)
    with pytest.raises(DataFileError) as info:
        load_data(d)
    message = str(info.value)
    assert str(d / file) in message
    assert f"field '{field}'" in message
    assert why in message


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    d = copy_data(tmp_path)
    (d / "tiles.toml").unlink()
    with pytest.raises(DataFileError, match=r"tiles\.toml: data file not found"):
        load_data(d)
