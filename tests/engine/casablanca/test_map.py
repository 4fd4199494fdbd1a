"""The map file: the default is the specification's, a replacement is validated on load with one line naming the
file and the field, and a game keeps the map it started with."""

from pathlib import Path

import pytest

from engine import registry
from engine.casablanca.board import MAP_FILE, default_map, load_map
from engine.casablanca.rules import Casablanca
from engine.errors import DataFileError

from .helpers import T0


def test_the_default_map_is_the_specifications() -> None:
    m = default_map()
    assert len(m.streets) == 17 and m.bazaar == "Bazaar"
    assert m.streets["Airport"] == ["2", "6"] and "7" not in m.streets["Airport"]
    assert [a.name for a in m.agents][:2] == ["Don Greenwood", "Lila Sheela"]
    assert {a.home for a in m.agents} == set(m.hqs)


def write_variant(tmp_path: Path, before: str, after: str) -> Path:
    text = MAP_FILE.read_text(encoding="utf-8")
    assert before in text
    path = tmp_path / "casablanca" / "map.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(before, after, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("before", "after", "field", "words"),
    [
        ('"Airport" = ["2", "6"]', '"Airport" = ["2", "6", "7"]', "streets", "no way back"),
        ('bazaar = "Bazaar"', 'bazaar = "Market"', "streets", "'Market' is missing"),
        ('"Hotel", "Rick\'s Café"]', '"Hotel", "Casino"]', "streets", "'Casino' is missing"),
        ('colour = "white"', 'colour = "blue"', "agents", "same colour"),
        ('home = "Police Station"\n\n[[agents]]', 'home = "Bazaar"\n\n[[agents]]', "agents", "not one of the HQs"),
        ('"10" = ["Rick\'s Café", "11", "12"]', '"10" = ["Rick\'s Café", "11", "12", "13"]', "streets", "'13'"),
    ],
)
def test_a_wrong_map_is_refused_in_one_line_naming_file_and_field(
    tmp_path: Path, before: str, after: str, field: str, words: str
) -> None:
    path = write_variant(tmp_path, before, after)
    with pytest.raises(DataFileError) as info:
        load_map(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and f"field '{field}'" in message and words in message


def test_a_disconnected_map_is_refused(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    text = text.replace(
        '"Bazaar" = ["3", "4", "9", "12"]',
        '"Bazaar" = ["3", "4", "9", "12"]\n"Island" = ["Lagoon"]\n"Lagoon" = ["Island"]',
    )
    path = tmp_path / "map.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match="not connected"):
        load_map(path)


def test_the_game_data_folder_replaces_the_map_and_a_game_keeps_its_own(tmp_path: Path) -> None:
    write_variant(tmp_path, 'name = "Rudy Red"', 'name = "Rosa Rot"')
    game = registry.build(tmp_path)["casablanca"]
    assert isinstance(game, Casablanca)
    state = game.setup(2, game.parse_options({"first_seat": 0}), 1, T0)
    assert state.agents[4].name == "Rosa Rot"
    # Replaying the stored game after the file went back to the default sets it up with its own map again.
    again = Casablanca().for_state(state).setup(2, game.parse_options({"first_seat": 0}), 1, T0)
    assert again == state
    assert Casablanca().for_state(Casablanca().setup(2, game.parse_options(), 1, T0)).map == default_map()
