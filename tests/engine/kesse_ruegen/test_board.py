"""The board data file: the shipped numbers, and a wrong file named by file and field."""

from pathlib import Path

import pytest

from engine.errors import DataFileError
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.board import BOARD_FILE, load_board
from engine.kesse_ruegen.rules import KesseRuegen

from .helpers import T0

GOOD = BOARD_FILE.read_text(encoding="utf-8")


def test_shipped_board_matches_the_rules() -> None:
    board = load_board()
    assert board.size == 5 and board.barn == "c3" and board.fields == 24
    assert {n: (p.supply, p.win_fields) for n, p in board.players.items()} == {2: (16, 13), 3: (12, 9), 4: (9, 7)}
    assert [k.many for k in board.kinds] == ["carrots", "sugar beets", "radishes", "beets"]


def broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in GOOD
    path = tmp_path / "board.toml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('barn = "c3"', 'barn = "f3"', "barn"),
        ("size = 5", "size = 12", "size"),
        ("win_fields = 13", "win_fields = 17", "players.2"),
        ("supply = 9", "supply = 0", "players.4.supply"),
        ("[players.4]", "[players.5]", "players"),
        ('one = "radish"', "one = 3", "kinds.2.one"),
    ],
)
def test_a_wrong_field_is_named(tmp_path: Path, old: str, new: str, field: str) -> None:
    path = broken(tmp_path, old, new)
    with pytest.raises(DataFileError) as info:
        load_board(path)
    assert str(path) in str(info.value)
    assert f"field '{field}'" in str(info.value)


def test_a_smaller_board_file_gives_a_smaller_game(tmp_path: Path) -> None:
    text = GOOD.replace("size = 5", "size = 3").replace('barn = "c3"', 'barn = "b2"')
    text = text.replace("win_fields = 13", "win_fields = 8").replace("win_fields = 9", "win_fields = 5")
    path = tmp_path / "small.toml"
    path.write_text(text, encoding="utf-8")
    game = KesseRuegen(load_board(path))
    state = game.setup(2, game.parse_options({"first_seat": 0}), 1, T0)
    assert state.size == 3 and state.barn == "b2"
    assert len(game.legal_actions(state, 0)) == 8


def test_square_names() -> None:
    assert geometry.parse(" C3 ", 5) == "c3"
    assert geometry.parse("f1", 5) is None and geometry.parse("a0", 5) is None and geometry.parse("a", 5) is None
    assert geometry.parse("a6", 5) is None and geometry.parse("3c", 5) is None
    assert geometry.rows_top_down(5)[0] == ["a5", "b5", "c5", "d5", "e5"]
    assert geometry.neighbour("e3", "nw", 5) == "d4"
    assert geometry.neighbour("e3", "e", 5) is None


def test_a_stored_game_replays_from_set_up_with_its_own_board_after_the_file_changed(tmp_path: Path) -> None:
    """Undo, verify and import rebuild a game from `setup` plus its log: `for_state` gives the game as it started."""
    path = broken(tmp_path, "supply = 12\nwin_fields = 9", "supply = 11\nwin_fields = 8")
    custom = KesseRuegen(load_board(path))
    options = custom.parse_options({"first_seat": 1})
    first = custom.setup(3, options, 4, T0)
    restarted = KesseRuegen()  # the packaged board again
    assert restarted.setup(3, options, 4, T0) != first
    assert restarted.for_state(first).setup(3, options, 4, T0) == first
    assert restarted.for_state(restarted.setup(3, options, 4, T0)) is restarted


def test_a_folder_without_a_board_file_gives_the_packaged_board(tmp_path: Path) -> None:
    assert KesseRuegen.from_data_folder(tmp_path).board == load_board()
    (tmp_path / "board.toml").write_text(GOOD.replace("supply = 9", "supply = 10"), encoding="utf-8")
    assert KesseRuegen.from_data_folder(tmp_path).board.players[4].supply == 10
