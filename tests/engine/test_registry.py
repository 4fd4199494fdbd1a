"""The registry: every game by name, and a server owner's game data folder (GAME_DATA_DIR) with clear errors."""

import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine import registry
from engine.errors import DataFileError
from engine.kesse_ruegen.board import BOARD_FILE, default_board
from engine.kkk.data import DATA_DIR as KKK_DATA
from engine.kkk.data import default_data

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2025, 1, 1, tzinfo=UTC)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def replaced(old: Path, before: str, after: str) -> str:
    text = old.read_text(encoding="utf-8")
    assert before in text
    return text.replace(before, after, 1)


def test_every_game_is_registered_with_its_packaged_data() -> None:
    games = registry.build()
    assert sorted(games) == ["casablanca", "kesse_ruegen", "kkk", "schwarzmarkt"]
    assert games["kkk"].data == default_data()  # type: ignore[attr-defined]
    assert games["kesse_ruegen"].board == default_board()  # type: ignore[attr-defined]
    assert registry.get("kkk").name == "kkk"
    with pytest.raises(KeyError, match="known: casablanca, kesse_ruegen, kkk, schwarzmarkt"):
        registry.get("chess")


def test_a_folder_replaces_the_files_it_holds_and_keeps_the_defaults_for_the_rest(tmp_path: Path) -> None:
    write(
        tmp_path / "kkk" / "tiles.toml",
        replaced(KKK_DATA / "tiles.toml", "number = 1\nvalue = 2", "number = 1\nvalue = 3"),
    )
    write(tmp_path / "kesse_ruegen" / "board.toml", replaced(BOARD_FILE, "supply = 16", "supply = 15"))
    write(tmp_path / "README.txt", "notes of the server owner: not a data file, ignored")
    write(tmp_path / "kkk" / "board.toml.bak", "an old copy: not a .toml file, ignored")
    write(tmp_path / ".hidden" / "x.toml", "ignored")
    games = registry.build(tmp_path)
    kkk = games["kkk"].setup(4, games["kkk"].parse_options(), 1, NOW)
    assert kkk.data.tile(1).value == 3 and kkk.data.board == default_data().board  # type: ignore[attr-defined]
    kr = games["kesse_ruegen"].setup(2, games["kesse_ruegen"].parse_options({"first_seat": 0}), 1, NOW)
    assert kr.start_supply == 15 and kr.size == 5  # type: ignore[attr-defined]


def test_an_empty_folder_is_the_packaged_data(tmp_path: Path) -> None:
    games = registry.build(tmp_path)
    assert games["kkk"].data == default_data()  # type: ignore[attr-defined]
    assert games["kesse_ruegen"].board == default_board()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "file", "source", "before", "after", "field"),
    [
        ("kkk", "board.toml", KKK_DATA / "board.toml", "dividends = 3", "dividends = 0", "spaces.0.dividends"),
        (
            "kkk",
            "tiles.toml",
            KKK_DATA / "tiles.toml",
            "end_faces = [1, 2]\n",
            "end_faces = [7]\n",
            "tiles.10.end_faces",
        ),
        ("kesse_ruegen", "board.toml", BOARD_FILE, 'barn = "c3"', 'barn = "f3"', "barn"),
    ],
)
def test_a_wrong_file_names_the_file_and_the_field(
    tmp_path: Path, game: str, file: str, source: Path, before: str, after: str, field: str
) -> None:
    path = write(tmp_path / game / file, replaced(source, before, after))
    with pytest.raises(DataFileError) as info:
        registry.build(tmp_path)
    assert str(path) in str(info.value) and f"field '{field}'" in str(info.value)


def test_a_file_that_is_not_toml_at_all_is_named(tmp_path: Path) -> None:
    path = write(tmp_path / "kkk" / "board.toml", "spaces = [[[")
    with pytest.raises(DataFileError, match=r"board\.toml: not valid TOML") as info:
        registry.build(tmp_path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (
            "kk/board.toml",
            "no game is called 'kk'; each game's files go in a folder named after it "
            "(casablanca, kesse_ruegen, kkk, schwarzmarkt)",
        ),
        (
            "board.toml",
            "data files go in a folder named after their game (casablanca, kesse_ruegen, kkk, schwarzmarkt), "
            "e.g. kkk/board.toml",
        ),
        ("kkk/bord.toml", "Kohle, Kies & Knete has no data file called 'bord.toml' (it reads: board.toml, tiles.toml)"),
        ("kesse_ruegen/tiles.toml", "Kesse Rügen has no data file called 'tiles.toml' (it reads: board.toml)"),
    ],
)
def test_a_misplaced_file_is_refused_rather_than_silently_ignored(tmp_path: Path, where: str, message: str) -> None:
    shutil.copy(KKK_DATA / "board.toml", write(tmp_path / where, ""))
    with pytest.raises(DataFileError) as info:
        registry.build(tmp_path)
    assert str(info.value).endswith(message)
    assert str(info.value).startswith(str(tmp_path / where.split("/")[0]))


@pytest.mark.parametrize("link", ["kkk/board.toml", "kkk"])
def test_a_link_that_leads_nowhere_is_named_not_replaced_by_the_default(tmp_path: Path, link: str) -> None:
    target = tmp_path / "moved-away" / "board.toml"  # never created: the file was moved or deleted
    (tmp_path / link).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / link).symlink_to(target)
    with pytest.raises(DataFileError) as info:
        registry.build(tmp_path)
    message = str(info.value)
    assert message.startswith(str(tmp_path / link)) and "doesn't exist" in message and "\n" not in message


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="the game data folder does not exist"):
        registry.build(tmp_path / "nowhere")


def test_a_folder_can_be_checked_from_the_command_line(tmp_path: Path) -> None:
    write(tmp_path / "kkk" / "tiles.toml", (KKK_DATA / "tiles.toml").read_text(encoding="utf-8"))
    run = [sys.executable, "-m", "engine.registry", str(tmp_path)]
    good = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert good.returncode == 0
    assert f"Kohle, Kies & Knete: uses tiles.toml from {tmp_path / 'kkk'}" in good.stdout
    assert "Kesse Rügen: packaged data" in good.stdout
    write(tmp_path / "kkk" / "tiles.toml", "tiles = []")
    bad = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert (
        bad.stderr.strip()
        == f"{tmp_path / 'kkk' / 'tiles.toml'}: field 'tiles': Value error, there must be 15 tiles, found 0"
    )
