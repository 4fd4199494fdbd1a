"""GAME_DATA_DIR at start-up: a wrong data file or folder stops `python -m bot` with one line naming the file and
the field (or the setting), before the bot logs in; a good folder reaches the games."""

from pathlib import Path

import pytest

from bot.__main__ import main, run
from bot.client import create_bot
from bot.settings import Settings
from engine.kesse_ruegen.board import BOARD_FILE
from engine.kkk.data import DATA_DIR


def settings_for(tmp_path: Path, game_data: Path | None) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="good-token", database_path=tmp_path / "db.sqlite3", game_data_dir=game_data
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("file", "source", "before", "after", "field"),
    [
        (
            "kkk/board.toml",
            DATA_DIR / "board.toml",
            "investors = 5\ndividends = 6",
            "investors = 4\ndividends = 6",
            "spaces.7",
        ),
        ("kkk/tiles.toml", DATA_DIR / "tiles.toml", "number = 2\nvalue = 2", "number = 2\nvalue = -2", "tiles.1.value"),
        ("kesse_ruegen/board.toml", BOARD_FILE, "supply = 9", "supply = 0", "players.4.supply"),
    ],
)
async def test_a_wrong_data_file_stops_the_start_with_one_line_naming_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str, source: Path, before: str, after: str, field: str
) -> None:
    text = source.read_text(encoding="utf-8")
    assert before in text
    path = write(tmp_path / "game-data" / file, text.replace(before, after, 1))
    # No fake Discord at all: the data is checked before the bot logs in.
    code = await run(settings_for(tmp_path, tmp_path / "game-data"))
    assert code == 2  # a configuration error: systemd does not restart on it
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Boardroom: a game's data file is invalid: ")
    assert str(path) in err[0] and f"field '{field}'" in err[0]


async def test_a_misplaced_file_stops_the_start_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "game-data" / "KKK" / "board.toml", (DATA_DIR / "board.toml").read_text(encoding="utf-8"))
    code = await run(settings_for(tmp_path, tmp_path / "game-data"))
    assert code == 2  # a configuration error: systemd does not restart on it
    [line] = capsys.readouterr().err.strip().splitlines()
    assert str(tmp_path / "game-data" / "KKK") in line and "no game is called 'KKK'" in line


def test_a_game_data_dir_that_is_not_a_folder_is_a_setting_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("GAME_DATA_DIR", str(tmp_path / "nowhere"))
    assert main() == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("Boardroom: the setting GAME_DATA_DIR is not valid") and ".env.example" in line


def test_an_empty_game_data_dir_means_the_packaged_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GAME_DATA_DIR", "")
    assert Settings().game_data_dir is None  # type: ignore[call-arg]


def test_create_bot_builds_the_games_from_the_folder(tmp_path: Path) -> None:
    text = (
        (DATA_DIR / "tiles.toml").read_text(encoding="utf-8").replace("number = 1\nvalue = 2", "number = 1\nvalue = 5")
    )
    write(tmp_path / "game-data" / "kkk" / "tiles.toml", text)
    bot = create_bot(settings_for(tmp_path, tmp_path / "game-data"))
    kkk = bot._games["kkk"]
    state = kkk.setup(3, kkk.parse_options(), 1, bot.clock())
    assert kkk.view(state, None).tile.value == 5  # type: ignore[attr-defined]
