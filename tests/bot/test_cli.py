"""The `boardroom` console script (`bot.cli`): its offline commands on a real SQLite file holding a real Kohle, Kies &
Knete game, their exit codes (0 done, 1 a failure, 2 a configuration or usage error) and one-line errors."""

import asyncio
import json
import logging
import shutil
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from engine.kkk.rules import KKK
from storage import open_store
from tests.replay.checks import play_random_game
from tests.replay.test_kkk import kkk_chooser


@pytest.fixture(autouse=True)
def logging_restored() -> Iterator[None]:
    """The offline commands configure logging for the process (`bot.logs.configure`: a handler on this test's
    stderr); the tests after this one must not log into it once it is closed."""
    loggers = [logging.getLogger(name) for name in ("", "discord", "discord.gateway")]
    saved = [(logger.handlers[:], logger.level) for logger in loggers]
    yield
    for logger, (handlers, level) in zip(loggers, saved, strict=True):
        logger.handlers[:] = handlers
        logger.setLevel(level)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One KKK game played 40 steps (and a lobby), built once for the module's tests."""
    path = tmp_path_factory.mktemp("cli") / "boardroom.sqlite3"

    async def build() -> None:
        store = await open_store(path)
        try:
            game = KKK()
            await play_random_game(store, game, seed=7, seats=3, steps=40, chooser=kkk_chooser(game))
            await store.games.create("kkk", guild_id=1, channel_id=2, created_by=3, options={})
        finally:
            await store.close()

    asyncio.run(build())
    return path


@pytest.fixture
def db(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the built database, named by DATABASE_PATH; no .env in the way."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data" / "boardroom.sqlite3"
    path.parent.mkdir()
    shutil.copyfile(built, path)
    monkeypatch.setenv("DATABASE_PATH", str(path))
    for name in ("GAME_DATA_DIR", "BACKUP_DIR", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return path


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    [line] = capsys.readouterr().err.strip().splitlines()
    return line


def test_verify_passes_then_names_the_game_whose_snapshot_differs(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == (
        "Boardroom: 1 games checked, 1 replay to their snapshots, 0 do not."
    )
    with sqlite3.connect(db) as conn:
        (state_text,) = conn.execute("SELECT state FROM games WHERE id = 1").fetchone()
        state = json.loads(state_text)
        field = next(k for k, v in state.items() if isinstance(v, int) and not isinstance(v, bool))
        state[field] += 1
        conn.execute("UPDATE games SET state = ? WHERE id = 1", (json.dumps(state),))
    assert main(["verify", "--game", "1"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("game 1 (kkk, version ") and out[0].endswith(f"differs from its snapshot in {field}")
    assert out[1] == "Boardroom: 1 games checked, 0 replay to their snapshots, 1 do not."
    assert main(["verify", "--game", "99"]) == 1
    assert one_line(capsys) == "Boardroom: there is no game 99."


def test_export_to_a_file_and_to_stdout(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "1", "--out", str(tmp_path / "game1.json")]) == 0
    exported = json.loads((tmp_path / "game1.json").read_text(encoding="utf-8"))
    assert exported["kind"] == "kkk" and len(exported["log"]) == exported["version"] >= 1
    assert capsys.readouterr().out.strip() == f"Boardroom: game 1 written to {tmp_path / 'game1.json'}"
    assert main(["export", "1"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again.pop("exported_at") >= exported.pop("exported_at") and again == exported
    assert main(["export", "99"]) == 1
    assert one_line(capsys) == "Boardroom: there is no game 99."


def test_backup_into_a_folder(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "--to", str(tmp_path / "safe")]) == 0
    [made] = (tmp_path / "safe").iterdir()
    assert made.name.startswith("boardroom-manual-") and made.suffix == ".sqlite3"
    assert capsys.readouterr().out.strip() == f"Boardroom: backup written to {made}"
    with sqlite3.connect(made) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (2,)


def test_configuration_and_usage_errors_are_one_line_and_exit_code_2(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "nowhere.sqlite3"))
    assert main(["verify"]) == 2
    assert one_line(capsys) == (
        f"Boardroom: the setting DATABASE_PATH names {tmp_path / 'nowhere.sqlite3'}, which is not a file: "
        "is the path right?"
    )
    assert not (tmp_path / "nowhere.sqlite3").exists()  # nothing created
    monkeypatch.setenv("DATABASE_PATH", str(db))
    monkeypatch.setenv("BACKUP_KEEP", "0")
    assert main(["backup"]) == 2
    assert one_line(capsys).startswith("Boardroom: the setting BACKUP_KEEP is not valid")
    monkeypatch.delenv("BACKUP_KEEP")
    (tmp_path / "mine" / "kkk").mkdir(parents=True)
    (tmp_path / "mine" / "kkk" / "tiles.toml").write_text("this is not = toml = at all", encoding="utf-8")
    monkeypatch.setenv("GAME_DATA_DIR", str(tmp_path / "mine"))
    assert main(["verify"]) == 2
    line = one_line(capsys)
    assert line.startswith("Boardroom: a game's data file is invalid: ") and "tiles.toml" in line
    assert main(["export"]) == 2  # no game given
    assert one_line(capsys) == ("Boardroom: the following arguments are required: game (see `boardroom --help`)")
    assert main([]) == 2
    assert "give a command: run, verify, export, backup" in one_line(capsys)
    assert main(["frobnicate"]) == 2  # not ours: `python -m bot` answers it, as it says it
    assert one_line(capsys).startswith("Boardroom: unknown command 'frobnicate'")


def test_the_script_reads_its_command_line_and_run_is_python_m_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the installed script calls it: `main()` with the process's arguments."""
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(sys, "argv", ["boardroom", "run"])
    assert main() == 2
    assert one_line(capsys) == (
        "Boardroom: DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it."
    )
    monkeypatch.setattr(sys, "argv", ["boardroom", "--help"])
    assert main() == 0
    shown = capsys.readouterr().out
    for command in ("run", "verify", "export", "backup", "rebuild-records", "copy-db"):
        assert command in shown
