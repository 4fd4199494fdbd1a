"""The data files: the reconstructed defaults of rules/kkk.md, and clear errors for a server owner's bad file."""

import itertools
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from engine.errors import DataFileError
from engine.kkk import actions as A
from engine.kkk.cards import DECK_SIZE, deck
from engine.kkk.data import DATA_DIR, KkkData, default_data, load_data
from engine.kkk.options import KkkOptions
from engine.kkk.rules import KKK

from .helpers import GAME, NOW, Table


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


# --- a server owner's folder (GAME_DATA_DIR/kkk) --------------------------------------------------------------


def test_a_folder_may_replace_one_file_and_the_other_stays_the_default(tmp_path: Path) -> None:
    edit_copy = copy_data(tmp_path)
    edit(edit_copy / "tiles.toml", "number = 1\nvalue = 2", "number = 1\nvalue = 3")
    folder = tmp_path / "kkk"
    folder.mkdir()
    shutil.copy(edit_copy / "tiles.toml", folder / "tiles.toml")  # only the tiles
    game = KKK.from_data_folder(folder)
    assert game.data.tile(1).value == 3 and game.data.board == default_data().board
    assert KKK.from_data_folder(None).data == default_data()
    assert KKK.from_data_folder(tmp_path / "no such folder").data == default_data()


def test_a_bad_file_in_the_folder_names_the_file_and_the_field(tmp_path: Path) -> None:
    folder = tmp_path / "kkk"
    shutil.copytree(DATA_DIR, folder)
    edit(folder / "board.toml", "investors = 5\ndividends = 6", "investors = 4\ndividends = 6")
    with pytest.raises(DataFileError) as info:
        KKK.from_data_folder(folder)
    assert str(folder / "board.toml") in str(info.value) and "field 'spaces.7'" in str(info.value)


# --- a game keeps the data it was set up with -------------------------------------------------------------------


def replaced_data(tmp_path: Path) -> KkkData:
    """Tile 1 worth $3M a dividend, and space 1 asking for Raffzahn alone."""
    d = copy_data(tmp_path)
    edit(d / "tiles.toml", "number = 1\nvalue = 2", "number = 1\nvalue = 3")
    edit(d / "board.toml", 'required = ["R", "L"]\ninvestors = 2', 'required = ["R"]\ninvestors = 1')
    return load_data(d)


def test_a_game_in_progress_keeps_its_board_and_tiles_when_the_files_change(tmp_path: Path) -> None:
    custom = KKK(replaced_data(tmp_path))
    state = custom.setup(4, KkkOptions(), 5, NOW)
    assert state.data == custom.data
    # The bot restarts with the packaged files: the stored game still plays by the data it started with.
    restarted = KKK()
    loaded = restarted.load_state(restarted.dump_state(state))
    assert loaded.data == custom.data and loaded.data != restarted.data
    loaded.investors = {"R": 0, "L": 1, "H": 2, "K": 3, "P": None, "T": None}
    loaded.marker, loaded.phase, loaded.turn = 1, "turn", 0
    t = Table(loaded)
    public = restarted.view(loaded, None)
    assert public.spaces[0].required == ["R"] and public.tile is not None and public.tile.value == 3
    t(0, A.Open())  # space 1 now asks for Raffzahn alone, which seat 0 owns
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.deals == 1 and t.state.money[0] == 3 * 3  # 3 dividends × $3M (the default tile pays $2M)
    fresh = restarted.setup(4, KkkOptions(), 5, NOW)
    assert fresh.data == default_data()  # a new game takes the files as they are now


def test_the_copy_for_apply_shares_the_frozen_data() -> None:
    state = GAME.setup(4, KkkOptions(), 1, NOW)
    assert GAME.copy_state(state).data is state.data


def test_a_snapshot_from_before_the_state_kept_its_data_loads_with_the_packaged_data() -> None:
    raw = json.loads(GAME.dump_state(GAME.setup(4, KkkOptions(), 1, NOW)))
    del raw["data"]
    assert GAME.load_state(raw).data == default_data()


def test_a_stored_game_replays_from_set_up_with_its_own_data_after_the_files_changed(tmp_path: Path) -> None:
    """Undo, verify and import rebuild a game from `setup` plus its log: `for_state` gives the game as it started."""
    custom = KKK(replaced_data(tmp_path))
    first = custom.setup(4, KkkOptions(), 5, NOW)
    restarted = KKK()  # the files were changed back to the packaged ones
    assert restarted.setup(4, KkkOptions(), 5, NOW) != first
    again = restarted.for_state(first)
    assert again.setup(4, KkkOptions(), 5, NOW) == first
    assert restarted.for_state(restarted.setup(4, KkkOptions(), 5, NOW)) is restarted


def test_stored_data_is_validated_and_equal_copies_are_shared(tmp_path: Path) -> None:
    state = GAME.setup(4, KkkOptions(), 1, NOW)
    text = GAME.dump_state(state)
    first, second = GAME.load_state(text), GAME.load_state(text)
    assert first.data is second.data and first.data == default_data()
    other = KKK(replaced_data(tmp_path)).setup(4, KkkOptions(), 1, NOW)
    loaded = GAME.load_state(GAME.dump_state(other))
    assert loaded.data == other.data and loaded.data.tile(1).value == 3
    raw = json.loads(text)
    raw["data"]["tiles"]["tiles"][0]["value"] = 0  # a stored game with a broken tile is refused, not half-loaded
    with pytest.raises(ValidationError, match=r"data\.tiles\.tiles\.0\.value"):
        GAME.load_state(raw)
