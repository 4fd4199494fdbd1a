"""The data file: the packaged one loads; a broken one is refused in one line naming file and field; a server owner's
replacement is used for new games and a stored game replays with the data it was set up with."""

from pathlib import Path

import pytest

from engine import registry
from engine.errors import DataFileError
from engine.schwarzmarkt.market import MARKET_FILE, cards_of, default_market, load_market
from engine.schwarzmarkt.rules import Schwarzmarkt

from .helpers import T0


def test_the_packaged_data_is_the_specification_s() -> None:
    m = default_market()
    assert [s.price for s in m.track] == [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 35, 50]
    assert [s.die for s in m.track] == [4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1]
    cards = cards_of(m)
    assert len(cards) == 30 and sum(c.event is None for c in cards) == 18
    assert sum(m.goods.values()) == 60 and m.track[m.limit_space - 1].price == 25


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = MARKET_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "market.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("{ price = 50, die = 1 },\n", "", "field 'track': Value error, needs 14 spaces, found 13"),
        ("{ price = 35, die = 1 }", "{ price = 60, die = 1 }", "prices must rise: space 14"),
        ("{ price = 1, die = 4 }", "{ price = 1, die = 0 }", "field 'track.0.die'"),
        ("{ coffee = 3 },", "{ tea = 3 },", "field 'offers.0.tea.[key]'"),
        ("shortage = 2", "shortage = 3", "field 'events': Value error, 18 offers and 13 events make 31 black-market"),
        ("limit_space = 12", "limit_space = 15", "field 'limit_space': Input should be less than or equal to 14"),
        ("sugar = 12", "sugar = 13", "field 'goods'"),
    ],
)
def test_a_broken_file_is_refused_in_one_line_naming_file_and_field(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    with pytest.raises(DataFileError) as info:
        load_market(broken(tmp_path, old, new))
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "market.toml")) and said in message


def test_a_replacement_in_the_game_data_folder_is_used_and_old_games_replay(tmp_path: Path) -> None:
    folder = tmp_path / "schwarzmarkt"
    folder.mkdir()
    changed = broken(folder, "quick_deal = 20", "quick_deal = 30").read_text(encoding="utf-8")
    changed = changed.replace("potatoes = 12", "potatoes = 16").replace("flour = 12", "flour = 8")
    changed = changed.replace("black_market_hand = 3", "black_market_hand = 4")
    (folder / "market.toml").write_text(changed, encoding="utf-8")
    game = registry.build(tmp_path)["schwarzmarkt"]
    assert isinstance(game, Schwarzmarkt) and game.market.quick_deal == 30
    state = game.setup(4, game.parse_options({}), 7, T0)
    assert state.quick_deal == 30 and state.goods_counts == [16, 8, 12, 12, 12] and len(state.black_market[0]) == 4
    plain = Schwarzmarkt()
    assert plain.for_state(state).setup(4, game.parse_options({}), 7, T0) == state
    assert plain.for_state(plain.setup(4, plain.parse_options({}), 7, T0)) is plain
