"""The `boardroom` console script (`[project.scripts]`): the bot and its offline tools under one name.

    boardroom run                      start the bot (the same as `python -m bot`)
    boardroom verify [--game N]        replay every game's log (or one) and compare it with its snapshot
    boardroom export GAME [--out F]    one game (record, seats, log, snapshot) as JSON, as `/mod export` sends it
    boardroom backup [--to FOLDER]     a backup now, as `/mod backup` makes it (in BACKUP_DIR unless --to)
    boardroom rebuild-records          derive every record and rating again from the logs
    boardroom copy-db --to URL         …and any other command `python -m bot` offers, handed to it as given

Settings come from the environment or `.env`, as for the bot. Exit codes: 0 done; 1 a failure (a game that does
not replay, a backup that could not be made, no such game); 2 a configuration or usage error (a setting, a game
data file, a database file that isn't there or that the store refuses, an unknown command), always one line on
stderr saying what to fix. The offline commands open the database beside a running bot safely (SQLite's WAL
lets readers and a second writer in); `backup` while the bot runs is what `/mod backup` does.
"""

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from bot import __main__ as entry
from bot import logs
from bot.settings import Settings
from engine.errors import DataFileError, RegistrationError
from storage import GameNotFound, GameStore, StorageError

OWN = ("verify", "export", "backup")
"""The commands written here; `run` and every other one go to `python -m bot` (`bot.__main__.main`)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit code 2, instead of argparse's usage block
        entry.say(f"{message} (see `boardroom --help`)")
        raise SystemExit(entry.EXIT_CONFIG)


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="boardroom", description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.add_parser("run", help="start the bot (as `python -m bot`)")
    verify = commands.add_parser("verify", help="replay every game and compare it with its stored snapshot")
    verify.add_argument("--game", type=int, help="only this game (its number)")
    export = commands.add_parser("export", help="one game as JSON (as `/mod export` sends it)")
    export.add_argument("game", type=int, help="the game's number")
    export.add_argument("--out", type=Path, help="write to this file instead of standard output")
    backup = commands.add_parser("backup", help="a backup of the whole database now (as `/mod backup`)")
    backup.add_argument("--to", type=Path, help="into this folder instead of BACKUP_DIR")
    commands.add_parser("rebuild-records", help="derive every record and rating again from the games' logs")
    commands.add_parser("copy-db", help="copy the SQLite database into PostgreSQL (`python -m bot copy-db --help`)")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] not in (*OWN, "run", "-h", "--help"):
        return entry.main(args)  # rebuild-records, copy-db, …: whatever `python -m bot` offers, as it says it
    try:
        parsed = parser().parse_args(args)
    except SystemExit as done:  # --help (0) or a usage error (2, said in one line)
        return int(done.code or 0)
    if parsed.command is None:
        entry.say("give a command: run, verify, export, backup, rebuild-records or copy-db (see `boardroom --help`)")
        return entry.EXIT_CONFIG
    if parsed.command == "run":
        return entry.main([])
    settings = read_settings()
    if settings is None:
        return entry.EXIT_CONFIG
    logs.configure(settings.log_level, settings.log_format)
    return asyncio.run(_offline(parsed, settings))


def read_settings() -> Settings | None:
    """The settings, or None after one line naming the setting that is not valid."""
    try:
        return Settings()
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]).upper()
        entry.say(f"the setting {field} is not valid ({err['msg']}); see .env.example.")
        return None


async def _offline(parsed: argparse.Namespace, settings: Settings) -> int:
    from bot.client import open_database

    path = settings.database_path
    if str(path) != ":memory:" and not path.is_file():
        entry.say(f"the setting DATABASE_PATH names {path}, which is not a file: is the path right?")
        return entry.EXIT_CONFIG
    try:
        store = await open_database(path)
    except StorageError as exc:
        entry.say(f"the database cannot be used: {exc}")
        return entry.exit_code(exc)
    try:
        if parsed.command == "verify":
            return await verify(store, settings, only=parsed.game)
        if parsed.command == "export":
            return await export(store, parsed.game, parsed.out)
        return await backup(store, settings, parsed.to)
    finally:
        await store.close()


async def verify(store: GameStore, settings: Settings, *, only: int | None = None) -> int:
    """Replay each started game (or game `only`) from its set-up and log, and compare it with its snapshot: one line
    per game that differs or does not replay, then a count."""
    from engine import registry
    from replay import ReplayError, check_replay

    try:
        games: dict[str, Any] = registry.build(settings.game_data_dir)
    except DataFileError as exc:
        entry.say(f"a game's data file is invalid: {exc}")
        return entry.EXIT_CONFIG
    except RegistrationError as exc:
        entry.say(str(exc))
        return entry.EXIT_CONFIG
    try:
        records = [await store.games.get(only)] if only is not None else await store.games.find()
    except GameNotFound:
        entry.say(f"there is no game {only}.")
        return entry.EXIT_FAILURE
    checked = bad = 0
    for record in records:
        if not record.started:
            continue  # a lobby has no state to check
        checked += 1
        problem: str | None = None
        game = games.get(record.kind)
        if game is None:
            problem = f"its game {record.kind!r} is not one this Boardroom knows"
        else:
            try:
                report = await check_replay(store, game, record.id)
            except ReplayError as exc:
                problem = f"its log does not replay: {exc}"
            except StorageError as exc:
                problem = f"it cannot be read: {exc}"
            else:
                if not report.state_matches:
                    problem = "the replay differs from its snapshot in " + ", ".join(report.differing_fields)
                elif report.event_mismatches:
                    seqs = ", ".join(map(str, report.event_mismatches))
                    problem = f"the events of log entries {seqs} differ from the replay's"
        if problem is not None:
            bad += 1
            print(f"game {record.id} ({record.kind}, version {record.version}): {problem}")
    print(f"Boardroom: {checked} games checked, {checked - bad} replay to their snapshots, {bad} do not.")
    return entry.EXIT_FAILURE if bad else 0


async def export(store: GameStore, game_id: int, out: Path | None) -> int:
    try:
        text = (await store.export_game(game_id)).to_json()
    except GameNotFound:
        entry.say(f"there is no game {game_id}.")
        return entry.EXIT_FAILURE
    if out is None:
        sys.stdout.write(text + "\n")
        return 0
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        entry.say(f"cannot write {out}: {exc.strerror or exc}")
        return entry.EXIT_FAILURE
    print(f"Boardroom: game {game_id} written to {out}")
    return 0


async def backup(store: GameStore, settings: Settings, folder: Path | None) -> int:
    from datetime import UTC, datetime

    from bot.backups import make_backup

    try:
        dest = await make_backup(store, folder or settings.backups, "manual", datetime.now(UTC), settings.backup_keep)
    except StorageError as exc:
        entry.say(f"the backup could not be made: {exc}")
        return entry.EXIT_FAILURE
    print(f"Boardroom: backup written to {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
